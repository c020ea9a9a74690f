"""`wargame` command line for Memoir '44: scenario list/info and battle-dice odds."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest

from wargame import cli
from wargame.memoir import load_scenario, scenario_ids

RULEBOOK_TITLES = {
    "1": "Pegasus Bridge", "2": "Sainte-Mère-Église", "3": "Sword Beach", "4": "Pointe-du-Hoc",
    "6": "Mont Mouchet", "8": "Operation Cobra", "10": "Toulon", "11": "Liberation of Paris",
    "12": "Montélimar", "13": "Arnhem Bridge", "14": "Arracourt",
}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_scenario_list_has_the_17_memoir_scenarios(capsys):
    code, out, _ = run(capsys, "scenario", "list", "--json")
    assert code == 0
    items = [i for i in json.loads(out) if i["game"] == "memoir"]  # its one id (issue #27)
    assert len(items) == 17
    by_number = {i["id"].removeprefix("memoir44-"): i["title"] for i in items}
    assert set(by_number) == {str(n) for n in range(1, 17)} | {"overlord"}
    for number, title in RULEBOOK_TITLES.items():
        assert by_number[number] == title
    # campaign games still listed
    assert {"normandy", "dragoon"} <= {i["id"] for i in json.loads(out)}


@pytest.mark.parametrize("sid", scenario_ids())
def test_scenario_info_medals_and_units_match_the_engine(capsys, sid):
    code, out, _ = run(capsys, "scenario", "info", f"memoir44-{sid}", "--json")
    assert code == 0
    info = json.loads(out)
    sc = load_scenario(sid)
    assert info["medals_to_win"] == {"allied": sc.medals["allied"], "axis": sc.medals["axis"]}
    names = {"inf": "infantry", "tank": "armor", "gun": "artillery"}
    for side in ("allied", "axis"):  # one spelling of the sides (issue #27)
        expected = {n: sum(1 for u in sc.units if u.side == side and u.kind == k)
                    for k, n in names.items()}
        assert info["units_by_side"][side] == expected


def test_scenario_info_pegasus_values(capsys):
    # M44 scenario 1 Instructions / Victory: 4 medals each; 9 Allied and 6 Axis infantry units.
    code, out, _ = run(capsys, "scenario", "info", "memoir44-1", "--json")
    info = json.loads(out)
    assert info["medals_to_win"] == {"allied": 4, "axis": 4}
    assert info["units_by_side"]["allied"] == {"infantry": 9, "armor": 0, "artillery": 0}
    assert info["units_by_side"]["axis"] == {"infantry": 6, "armor": 0, "artillery": 0}
    code, out, _ = run(capsys, "scenario", "info", "memoir44-1")
    assert code == 0 and "medals to win: Allies 4, Axis 4" in out


def test_scenario_info_unknown_memoir_exits_2(capsys):
    code, out, err = run(capsys, "scenario", "info", "memoir44-99")
    assert code == 2 and "memoir44-99" in err and out == ""


def brute_force(n: int, target: str) -> list[Fraction]:
    """Enumerate all 6**n rolls of the printed die (2 inf, 1 armour, 1 grenade, 1 flag, 1 star)."""
    die = ["inf", "inf", "armor", "grenade", "flag", "star"]
    symbol = {"infantry": "inf", "armor": "armor", "artillery": None}[target]
    counts = [0] * (n + 1)
    for roll in product(die, repeat=n):
        counts[sum(1 for f in roll if f == "grenade" or f == symbol)] += 1
    return [Fraction(c, 6**n) for c in counts]


@pytest.mark.parametrize("n,target", [(1, "infantry"), (3, "armor"), (4, "artillery"),
                                      (2, "armor"), (5, "infantry")])
def test_odds_json_matches_enumeration(capsys, n, target):
    code, out, _ = run(capsys, "odds", "--game", "memoir44", "--dice", str(n), "--target",
                       target, "--json")
    assert code == 0
    data = json.loads(out)
    exact = brute_force(n, target)
    assert len(data["hits"]) == n + 1
    assert [Fraction(x) for x in data["hits_exact"]] == exact
    assert data["hits"] == pytest.approx([float(p) for p in exact])
    assert data["at_least_one_flag"] == pytest.approx(1 - (5 / 6) ** n)


def test_odds_eliminate_with_figures(capsys):
    code, out, _ = run(capsys, "odds", "--game", "memoir44", "--dice", "3", "--target", "armor",
                       "--figures", "2", "--json")
    data = json.loads(out)
    # P(>= 2 hits), p = 1/3: 3 * (1/3)^2 * (2/3) + (1/3)^3 = 7/27
    assert Fraction(data["eliminate_exact"]) == Fraction(7, 27)
    code, out, _ = run(capsys, "odds", "--game", "memoir44", "--dice", "3", "--target", "armor",
                       "--figures", "2")
    assert code == 0 and "eliminate (2 hits or more): 25.93%" in out


def test_odds_from_a_battle_uses_range_and_terrain(capsys):
    # M44 p.10: infantry adjacent rolls 3; Woods: infantry battling in woods -1 -> 2 dice
    code, out, _ = run(capsys, "odds", "--game", "memoir44", "--attacker", "infantry",
                       "--distance", "1", "--terrain", "woods", "--target", "infantry", "--json")
    data = json.loads(out)
    assert data["battle"]["dice"] == data["dice"] == 2
    assert data["hits"] == pytest.approx([0.25, 0.5, 0.25])


@pytest.mark.parametrize("argv", [
    ["odds", "--game", "memoir44", "--dice", "3"],
    ["odds", "--game", "memoir44", "--dice", "-1", "--target", "armor"],
    ["odds", "--game", "memoir44", "--dice", "3", "--target", "cavalry"],
    ["odds", "--game", "memoir44", "--attacker", "infantry", "--target", "armor"],
])
def test_bad_memoir_odds_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and err.strip() and out == ""


def test_serve_memoir_scenario_calls_the_memoir_dashboard(capsys, monkeypatch):
    import sys
    import types

    calls = []
    # one serve path for every game: wargame.ui.serve.serve_dashboard picks the Memoir '44
    # dashboard by the scenario id (build_dashboard; tests/ui/test_store.py)
    fake = types.ModuleType("wargame.ui.serve")
    fake.serve_dashboard = lambda **kw: calls.append(kw)
    monkeypatch.setitem(sys.modules, "wargame.ui.serve", fake)
    code, _, _ = run(capsys, "serve", "--scenario", "memoir44-13", "--port", "5099",
                     "--seed", "2", "--no-show")
    assert code == 0
    assert calls == [{"scenario": "memoir44-13", "port": 5099, "seed": 2, "variants": [],
                      "show": False, "computer": "none"}]


def test_memoir_has_one_game_id_and_the_old_word_is_still_read(capsys):
    """Issue #27: Memoir '44's game is ``memoir`` in the catalogue, the state JSON, the odds'
    JSON and ``odds --game`` (as ``game.kind`` and saves say); ``--game memoir44``, the word of
    earlier versions, still works and gives the same answer."""
    from wargame.catalog import describe
    from wargame.games import open_game

    assert describe("memoir44-1")["game"] == open_game("memoir44-1").kind == "memoir"
    assert open_game("memoir44-1").new_state(3).to_json()["game"] == "memoir"
    answers = []
    for word in ("memoir", "memoir44"):
        code, out, _ = run(capsys, "odds", "--game", word, "--dice", "2", "--target", "armor",
                           "--json")
        assert code == 0
        answers.append(json.loads(out))
    assert answers[0] == answers[1] and answers[0]["game"] == "memoir"
    code, _, err = run(capsys, "odds", "--game", "memoir45", "--dice", "2", "--target", "armor")
    assert code == 2 and "memoir" in err
