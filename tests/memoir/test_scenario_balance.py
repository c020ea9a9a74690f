"""Issue 32: the scenario list shows the balance (the Allies' win rate) a study measured, or a
dash: ``wargame scenario list`` and the Memoir '44 new-game panel. A study with an output folder
keeps its win counts by scenario (``wargame.analysis.study.record_balance``,
``$WARGAME_HOME/studies/balance.json``); the list reads them (``wargame.catalog``)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from wargame import i18n
from wargame.analysis.study import Study, record_balance, run_study
from wargame.catalog import list_scenarios, scenario_balance
from wargame.cli import main as cli_main
from wargame.dice import DICE_VERSION
from wargame.paths import user_balance_file


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("WARGAME_HOME", str(tmp_path / "home"))


def study(scenario: str, winners: list[str], **params) -> Study:
    base = {"scenario": scenario, "seed": 7, "allied": "random", "axis": "random",
            "variants": [], "whatif": None, "games": len(winners)}
    return Study(params={**base, **params}, table=pd.DataFrame({"winner": winners}))


def entry(sid: str, lang: str | None = None) -> dict:
    return next(e for e in list_scenarios(lang=lang) if e["id"] == sid)


def line_of(out: str, sid: str) -> str:
    return next(line for line in out.splitlines() if line.split()[0] == sid)


def test_a_study_s_balance_is_listed_and_the_others_show_a_dash(capsys):
    assert record_balance(study("memoir44-1", ["allied", "axis", "allied", "allied"]))
    kept = json.loads(user_balance_file().read_text(encoding="utf-8"))
    assert kept["memoir44-1"]["games"] == 4 and kept["memoir44-1"]["dice"] == DICE_VERSION
    one = entry("memoir44-1")
    assert one["balance"]["allied_win_rate"] == 0.75 and one["balance"]["games"] == 4
    assert entry("memoir44-2")["balance"] is None and entry("normandy")["balance"] is None
    assert cli_main(["scenario", "list"]) == 0
    out = capsys.readouterr().out
    assert line_of(out, "memoir44-1").endswith("Allies won 75% of 4 games")
    assert line_of(out, "memoir44-2").endswith(" -") and line_of(out, "normandy").endswith(" -")
    assert " 1944 " in line_of(out, "memoir44-1")  # the year of Pegasus Bridge
    assert cli_main(["--lang", "pt", "scenario", "list"]) == 0
    assert line_of(capsys.readouterr().out, "memoir44-1").endswith(
        "Aliados venceram 75% de 4 partidas")
    assert cli_main(["scenario", "list", "--json"]) == 0
    listed = {e["id"]: e for e in json.loads(capsys.readouterr().out)}
    assert listed["memoir44-1"]["balance"]["allied_wins"] == 3
    assert listed["memoir44-1"]["year"] == "1944"


def test_only_a_study_of_the_scenario_as_it_is_and_the_largest_is_kept():
    assert not record_balance(study("memoir44-3", ["axis"] * 10, variants=["19.1"]))
    assert not record_balance(study("memoir44-3", ["axis"] * 10, whatif={"name": "x"}))
    assert not record_balance(study("memoir44-3", []))
    assert "memoir44-3" not in scenario_balance()
    assert record_balance(study("memoir44-3", ["axis", "allied", "draw", "axis"]))
    assert not record_balance(study("memoir44-3", ["allied"] * 3))  # fewer games: not kept
    assert scenario_balance()["memoir44-3"]["allied_win_rate"] == 0.25
    assert record_balance(study("memoir44-3", ["allied"] * 5))  # more: replaces it
    assert scenario_balance()["memoir44-3"]["allied_win_rate"] == 1.0


def test_a_balance_of_other_dice_or_a_damaged_file_shows_nothing_wrong(capsys):
    path = user_balance_file()
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({
        "memoir44-1": {"games": 4, "allied_wins": 1, "axis_wins": 3, "draws": 0,
                       "dice": DICE_VERSION - 1},
        "memoir44-2": {"games": 4, "allied_wins": 9, "axis_wins": 0, "draws": 0,
                       "dice": DICE_VERSION},
        "memoir44-4": {"games": 2, "allied_wins": 1, "axis_wins": 1, "draws": 0,
                       "dice": DICE_VERSION}}), encoding="utf-8")
    assert set(scenario_balance()) == {"memoir44-4"}  # other dice; counts that do not add up
    path.write_text("{not json", encoding="utf-8")
    assert scenario_balance() == {}
    assert cli_main(["scenario", "list"]) == 0
    assert line_of(capsys.readouterr().out, "memoir44-1").endswith(" -")
    # a damaged file is written anew by the next study
    assert record_balance(study("memoir44-1", ["axis", "axis"]))
    assert scenario_balance()["memoir44-1"]["allied_win_rate"] == 0.0


def test_the_memoir_new_game_panel_lists_the_balance():
    from wargame.ui.memoir import MemoirDashboard, scenario_choices

    record_balance(study("memoir44-2", ["allied", "axis"]))
    choices = scenario_choices("en")
    label = next(k for k, v in choices.items() if v == "2")
    assert label.endswith("· Allies won 50%") and "1944" in label
    assert next(k for k, v in choices.items() if v == "3").endswith("· -")
    said = next(k for k, v in scenario_choices("pt").items() if v == "2")
    assert said.endswith("· Aliados venceram 50%")
    board = MemoirDashboard("2", 3, lang="pt")
    assert board.chooser.value == "2" and said in board.chooser.options


def test_a_study_with_an_output_folder_records_its_balance(tmp_path):
    done = run_study("memoir44-1", 2, seed=3, use_dask=False, out=tmp_path / "s",
                     allied="random", axis="random", progress=False, processes=False)
    measured = scenario_balance()["memoir44-1"]
    summary = done.summary()
    assert measured["games"] == summary["games"] == 2
    assert measured["allied_win_rate"] == summary["allied_win_rate"]
    assert measured["allied"] == "random" and measured["seed"] == 3
    with i18n.using_language("pt"):
        assert entry("memoir44-1")["balance"] == measured
