"""The ``wargame`` command line (the wargame/cli/ package)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from wargame import cli
from wargame.catalog import describe, list_scenarios

CONSOLE_SCRIPT = Path(sys.executable).parent / "wargame"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# odds -------------------------------------------------------------------------------------
def test_odds_json_5_1_1_example(capsys):
    code, out, err = run(
        capsys, "odds", "--game", "normandy", "--attack", "11", "--defense", "4", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["ratio"] == "2-1"
    assert data["column"] == "2-1"
    assert data["shifts"] == []
    results = {o["result"]: o["probability"] for o in data["outcomes"]}
    assert results == pytest.approx({"DRB AVB": 6 / 36, "IMP": 6 / 36, "DVB ARB": 24 / 36})
    assert sum(results.values()) == pytest.approx(1.0)


def test_odds_json_with_shifts(capsys):
    code, out, _ = run(
        capsys, "odds", "--game", "dragoon", "--attack", "12", "--defense", "3",
        "--shift", "-2", "--shift", "1", "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert (data["ratio"], data["column"]) == ("4-1", "3-1")
    assert data["shifts"] == [{"reason": "shift", "columns": -2}, {"reason": "shift", "columns": 1}]
    results = {o["result"]: o["probability"] for o in data["outcomes"]}
    # OD table, column 3-1: DRI AVI (2-12), DRB AVB (3-11), DRI AVB (4-10), IMP (5-9),
    # DVB ARI (6-8), DVB ARB (7)
    assert results == pytest.approx(
        {"DRI AVI": 2 / 36, "DRB AVB": 4 / 36, "DRI AVB": 6 / 36, "IMP": 8 / 36,
         "DVB ARI": 10 / 36, "DVB ARB": 6 / 36}
    )


def test_odds_beyond_the_table_uses_end_column(capsys):
    code, out, _ = run(
        capsys, "odds", "--game", "normandy", "--attack", "40", "--defence", "2", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["ratio"] == "20-1"
    assert data["column"] == "9-1"


def test_odds_text_has_table_and_bars(capsys):
    code, out, _ = run(
        capsys, "odds", "--game", "normandy", "--attack", "11", "--defense", "4", "--shift", "-2"
    )
    assert code == 0
    assert "ratio 2-1" in out
    assert "column 1-2" in out
    line = next(x for x in out.splitlines() if x.strip().startswith("DVI ARB"))
    assert "10/36" in line and "27.8%" in line and "#" * 10 in line


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "--game", "normandy", "--attack", "-3", "--defense", "4"],
        ["odds", "--game", "normandy", "--attack", "3", "--defense", "-4"],
        ["odds", "--game", "ardennes", "--attack", "3", "--defense", "4"],
        ["odds", "--game", "normandy", "--attack", "three", "--defense", "4"],
        ["odds", "--game", "normandy", "--attack", "3"],
        ["bombard", "--game", "normandy", "--strength", "-1", "--vulnerability", "2"],
        ["bombard", "--game", "dragoon", "--strength", "5", "--vulnerability", "0"],
        ["nonsense"],
        [],
    ],
)
def test_bad_input_exits_2_with_message(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.strip()
    assert out == ""


# bombard ----------------------------------------------------------------------------------
def test_bombard_json_cn_6_2_example(capsys):
    code, out, _ = run(
        capsys, "bombard", "--game", "normandy", "--strength", "6", "--vulnerability", "4",
        "--shift", "-2", "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["value"] == 24
    assert data["column"] == "1-10"
    assert {o["result"]: o["probability"] for o in data["outcomes"]} == pytest.approx(
        {"DB": 6 / 36, "DI": 30 / 36}
    )


def test_bombard_json_od_8_0_example(capsys):
    code, out, _ = run(
        capsys, "bombard", "--game", "dragoon", "--strength", "2", "--vulnerability", "3", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert (data["value"], data["column"]) == (6, "1-12")


def test_bombard_text(capsys):
    code, out, _ = run(
        capsys, "bombard", "--game", "normandy", "--strength", "4", "--vulnerability", "3"
    )
    assert code == 0
    assert "= 12" in out and "11-20" in out


# scenario ---------------------------------------------------------------------------------
def test_scenario_list_json(capsys):
    code, out, _ = run(capsys, "scenario", "list", "--json")
    assert code == 0
    items = json.loads(out)
    assert items == list_scenarios()
    ids = {i["id"]: i for i in items}
    assert ids["normandy"]["game"] == "normandy"
    assert ids["dragoon"]["game"] == "dragoon"
    assert "memoir44" not in ids  # no scenario.yaml there


def test_scenario_list_text(capsys):
    code, out, _ = run(capsys, "scenario", "list")
    assert code == 0
    assert any(line.startswith("normandy") for line in out.splitlines())


def test_scenario_info_json(capsys):
    code, out, _ = run(capsys, "scenario", "info", "dragoon", "--json")
    assert code == 0
    info = json.loads(out)
    assert info["id"] == "dragoon"
    assert info["turns"] == {"first": 1, "last": 14}
    assert info == json.loads(json.dumps(describe("dragoon")))


def test_scenario_info_text(capsys):
    code, out, _ = run(capsys, "scenario", "info", "normandy")
    assert code == 0
    assert "turns 0-16" in out


def test_scenario_info_unknown_exits_2(capsys):
    code, _, err = run(capsys, "scenario", "info", "no-such-scenario")
    assert code == 2
    assert "no-such-scenario" in err


def test_scenario_validate_broken_file_exits_1(capsys, tmp_path):
    broken = tmp_path / "scenario.yaml"
    broken.write_text("format_version: 7\n", encoding="utf-8")
    code, _, err = run(capsys, "scenario", "validate", str(broken))
    assert code == 1
    assert "format_version" in err


def test_scenario_validate_missing_path_exits_1(capsys, tmp_path):
    code, _, err = run(capsys, "scenario", "validate", str(tmp_path / "nothing-here"))
    assert code == 1
    assert err.strip()


def test_scenario_validate_without_loader_exits_3(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "wargame.scenario", None)  # import raises ImportError
    monkeypatch.setitem(sys.modules, "wargame.history", None)
    code, _, err = run(capsys, "scenario", "validate", str(tmp_path))
    assert code == 3
    assert "not available" in err


# serve ------------------------------------------------------------------------------------
def test_serve_without_dashboard_prints_summary(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "wargame.ui.serve", None)
    code, out, _ = run(capsys, "serve", "--scenario", "dragoon", "--no-show")
    assert code == 0
    assert "dragoon" in out
    assert "not available yet" in out


def test_serve_calls_the_dashboard(capsys, monkeypatch):
    import types

    calls = []
    fake = types.ModuleType("wargame.ui.serve")
    fake.serve_dashboard = lambda **kw: calls.append(kw)
    monkeypatch.setitem(sys.modules, "wargame.ui.serve", fake)
    code, _, _ = run(
        capsys, "serve", "--scenario", "normandy", "--port", "5077", "--seed", "3",
        "--variant", "bfn_mulberry_construction", "--variant", "x", "--no-show", "--computer", "axis",
    )
    assert code == 0
    assert calls == [
        {"scenario": "normandy", "port": 5077, "seed": 3,
         "variants": ["bfn_mulberry_construction", "x"], "show": False, "computer": "axis"}
    ]


def test_serve_refuses_an_unknown_computer_side(capsys):
    code, _, err = run(capsys, "serve", "--computer", "germans", "--no-show")
    assert code == 2 and "germans" in err


@pytest.mark.slow  # 7.5 s (measured on 2 busy cores)
def test_autoplay_dragoon_json_and_save(capsys, tmp_path):
    from wargame.saves import load_game

    path = tmp_path / "bots.json"
    code, out, err = run(capsys, "autoplay", "--scenario", "dragoon", "--axis", "random", "--seed", "4",
                         "--games", "2", "--json", "--save", str(path))
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 2 and [r["seed"] for r in data["results"]] == [4, 5]
    assert data["allied_wins"] + data["axis_wins"] + data["draws"] == 2
    assert all(r["turn"] == 14 for r in data["results"])
    assert "game 2/2 (seed 5): turn 14/14" in err  # progress on stderr
    saved = load_game(path)  # the last game, loadable in the dashboard
    assert saved.is_terminal and saved.victory_points()["allied"] == data["results"][-1]["allied"]


def test_autoplay_refuses_unknown_variants_and_players(capsys, tmp_path):
    code, _, err = run(capsys, "autoplay", "--scenario", "normandy", "--variant", "nonsense")
    assert code == 2 and "nonsense" in err
    code, _, err = run(capsys, "autoplay", "--scenario", "memoir44-1", "--axis", "greedy")
    assert code == 2 and "greedy" in err and "known: random" in err
    code, _, err = run(capsys, "autoplay", "--scenario", "memoir44-1", "--variant", "bfn_hobart")
    assert code == 2 and "campaign" in err
    # --save is checked before a game is played
    code, _, err = run(capsys, "autoplay", "--scenario", "dragoon", "--save", str(tmp_path))
    assert code == 2 and "folder" in err


def test_autoplay_memoir_through_the_protocol(capsys, tmp_path):
    from wargame.saves import load_game

    path = tmp_path / "m44.json"
    code, out, err = run(capsys, "autoplay", "--scenario", "memoir44-1", "--games", "2", "--json",
                         "--quiet", "--save", str(path))
    assert code == 0, err
    data = json.loads(out)
    assert data["allied_player"] == data["axis_player"] == "random"
    assert data["allied_wins"] + data["axis_wins"] + data["draws"] == 2
    saved = load_game(path)
    assert saved.is_terminal
    assert saved.outcome().scores["allied"] == data["results"][-1]["allied"]


def test_serve_unknown_scenario_exits_2(capsys):
    code, _, err = run(capsys, "serve", "--scenario", "atlantis", "--no-show")
    assert code == 2
    assert "atlantis" in err


# installed console script -----------------------------------------------------------------
def test_console_script_odds_json():
    proc = subprocess.run(
        [str(CONSOLE_SCRIPT), "odds", "--game", "dragoon", "--attack", "9", "--defense", "3",
         "--json"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["column"] == "3-1"
    assert sum(o["probability"] for o in data["outcomes"]) == pytest.approx(1.0)


# catalog (wargame/catalog.py) -------------------------------------------------------------
def _fake_root(tmp_path: Path, with_data: bool) -> Path:
    root = tmp_path / "scenarios"
    folder = root / "mini"
    folder.mkdir(parents=True)
    (folder / "scenario.yaml").write_text(
        "format_version: 1\nid: mini\ngame: normandy\ntitle: Mini\n"
        "map: map.json\nunits: units.yaml\nturns: {first: 2, last: 5}\n",
        encoding="utf-8",
    )
    (root / "memoir44").mkdir()
    (root / "memoir44" / "scenarios.yaml").write_text("scenarios: []\n", encoding="utf-8")
    if with_data:
        hexes = {
            "0101": {"terrain": "open", "village": True},
            "0102": {"terrain": "city", "name": "Caen"},
            "0103": {"terrain": "city"},
            "0104": {"terrain": "sea"},
            "0105": {"terrain": "border"},
        }
        (folder / "map.json").write_text(
            json.dumps({"format_version": 1, "hexes": hexes,
                        "places": {"Caen": ["0102", "0103"], "Utah": ["0101"]}}),
            encoding="utf-8",
        )
        (folder / "units.yaml").write_text(
            "units:\n"
            "  - {id: a, nation: german, ss: true}\n"
            "  - {id: b, nation: german}\n"
            "  - {id: c, nation: american}\n"
            "  - {id: d, nation: british, ss: false}\n",
            encoding="utf-8",
        )
    return root


def test_catalog_skips_folders_without_scenario_yaml(tmp_path):
    root = _fake_root(tmp_path, with_data=False)
    assert list_scenarios(root) == [{"id": "mini", "game": "normandy", "title": "Mini",
                                     "balance": None}]  # no study measured it


def test_catalog_describe_without_data_files(tmp_path):
    info = describe("mini", _fake_root(tmp_path, with_data=False))
    assert info["turns"] == {"first": 2, "last": 5}
    for key in ("hex_count", "terrain_counts", "places", "unit_count", "units_by_nation"):
        assert info[key] is None
    assert len(info["warnings"]) == 2


def test_catalog_describe_with_data_files(tmp_path):
    info = describe("mini", _fake_root(tmp_path, with_data=True))
    assert info["hex_count"] == 3  # sea and border are not land
    assert info["terrain_counts"] == {"city": 2, "open": 1}
    assert info["feature_counts"] == {"village": 1}
    assert info["places"] == {"Caen": ["0102", "0103"], "Utah": ["0101"]}
    assert info["unit_count"] == 4
    assert info["units_by_nation"] == {"german": 2, "american": 1, "british": 1}
    assert list(info["units_by_nation"]) == ["german", "american", "british"]
    assert info["ss_count"] == 1
    assert info["warnings"] == []


def test_catalog_describe_broken_map_is_a_warning(tmp_path):
    root = _fake_root(tmp_path, with_data=True)
    (root / "mini" / "map.json").write_text("{not json", encoding="utf-8")
    info = describe("mini", root)
    assert info["hex_count"] is None
    assert info["unit_count"] == 4
    assert any("map.json" in w for w in info["warnings"])


def test_catalog_unknown_id_raises_keyerror(tmp_path):
    with pytest.raises(KeyError):
        describe("nope", _fake_root(tmp_path, with_data=False))


@pytest.mark.parametrize("scenario_id", ["normandy", "dragoon"])
def test_catalog_bundled_units_match_units_yaml(scenario_id):
    import yaml

    from wargame.paths import scenario_dir

    path = scenario_dir(scenario_id) / "units.yaml"
    info = describe(scenario_id)
    if not path.exists():
        assert info["unit_count"] is None
        return
    units = yaml.safe_load(path.read_text(encoding="utf-8"))["units"]
    assert info["unit_count"] == len(units)
    assert sum(info["units_by_nation"].values()) == len(units)
    assert info["ss_count"] == sum(1 for u in units if u.get("ss"))


# hostile and careless input (issue 13): one line on stderr, an exit code, no traceback ------
def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(("argv", "needle"), [
    (["serve", "--port", "70000", "--no-show"], "from 1 to 65535"),
    (["serve", "--port", "99999999999999999999999", "--no-show"], "from 1 to 65535"),
    (["serve", "--port", "0", "--no-show"], "from 1 to 65535"),
    (["odds", "--game", "memoir44", "--dice", "1000000", "--target", "infantry"], "0 to 30"),
    (["odds", "--game", "memoir44", "--dice", "2", "--target", "armor", "--figures", "0"],
     "1 to 4"),
    (["odds", "--game", "memoir44", "--attacker", "infantry", "--distance", "0", "--target",
      "armor"], "1 to 20"),
    (["odds", "--game", "memoir44", "--attacker", "infantry", "--distance", "1", "--target",
      "armor", "--terrain", "lava"], "lava"),
    (["autoplay", "--save", ""], "empty"),
    (["autoplay", "--save", "   "], "empty"),
    (["scenario", "validate", ""], "empty"),
    (["autoplay", "--scenario", "dragoon", "--variant", "bfn-19.1"], "Campanha da Normandia"),
    (["serve", "--scenario", "dragoon", "--variant", "bfn-19.1", "--no-show"],
     "Campanha da Normandia"),
    (["serve", "--address", "0.0.0.0", "--no-show"], "--allow-origin"),
    (["serve", "--address", "0.0.0.0", "--allow-origin", "http://x.lan", "--no-show"], "http://"),
    (["serve", "--allow-origin", "x.lan:99999", "--no-show"], "65535"),
    (["serve", "--address", "no-such-host.invalid", "--allow-origin", "a", "--no-show"],
     "no-such-host.invalid"),
    ([], "COMMAND"),
    (["scenario"], "ACTION"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2, err
    line = _one_line(err)
    assert needle in line and line.startswith("wargame")
    assert out == ""


def test_the_memoir_terrains_are_the_analysis_modules():
    from wargame.analysis.memoir import TERRAINS

    assert cli.M44_TERRAINS == TERRAINS


def test_the_bounds_still_allow_every_roll_of_the_game(capsys):
    code, out, err = run(capsys, "odds", "--game", "memoir44", "--dice", "30", "--target",
                         "infantry", "--figures", "4", "--json")
    assert code == 0, err
    assert len(json.loads(out)["hits"]) == 31
    code, out, err = run(capsys, "odds", "--game", "memoir44", "--attacker", "artillery",
                         "--distance", "6", "--target", "armor", "--terrain", "bunker")
    assert code == 0, err and "artillery" in out


def test_the_unresolvable_address_may_come_from_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("WARGAME_ADDRESS", "no-such-host.invalid")
    code, _, err = run(capsys, "serve", "--allow-origin", "a", "--no-show")
    assert code == 2 and "WARGAME_ADDRESS" in _one_line(err)


def test_a_port_in_use_is_one_line_and_exit_1(capsys):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = run(capsys, "serve", "--scenario", "memoir44-1", "--port", str(port),
                           "--no-show")
    assert code == 1
    assert f"127.0.0.1:{port}" in _one_line(err) and "in use" in err


def test_a_file_name_too_long_is_one_line(capsys, tmp_path):
    name = str(tmp_path / ("a" * 5000))
    code, _, err = run(capsys, "scenario", "validate", name)
    assert code == 1 and "too long" in _one_line(err) and len(err) < 300
    code, _, err = run(capsys, "autoplay", "--scenario", "dragoon", "--save", name)
    assert code == 2 and "too long" in _one_line(err)


def test_save_is_checked_before_playing(capsys, tmp_path, monkeypatch):
    import wargame.bots.play

    monkeypatch.setattr(wargame.bots.play, "play", lambda *a, **k: pytest.fail("played"))
    a_file = tmp_path / "file.txt"
    a_file.write_text("x", encoding="utf-8")
    for target in (tmp_path, a_file / "save.json", a_file / "deeper" / "save.json"):
        code, _, err = run(capsys, "autoplay", "--scenario", "dragoon", "--save", str(target))
        assert code == 2, err
        assert ("folder" in _one_line(err))


@pytest.mark.parametrize("path", ["nested.yaml", "nested.m44", "folder"])
def test_deeply_nested_files_are_a_one_line_error(capsys, tmp_path, path):
    deep = "[" * 100_000 + "]" * 100_000
    if path == "folder":
        target = tmp_path / "scenario"
        target.mkdir()
        (target / "scenario.yaml").write_text(deep, encoding="utf-8")
    else:
        target = tmp_path / path
        target.write_text(deep, encoding="utf-8")
    code, _, err = run(capsys, "scenario", "validate", str(target))
    assert code == 1
    assert "nested less deeply" in _one_line(err)


def test_the_guard_turns_errors_into_one_line(capsys, monkeypatch):
    from wargame.scenario_errors import ScenarioError

    def boom(exc):
        def handler(args, out):
            raise exc
        return handler

    cases = [
        (OSError(13, "Permission denied", "/some/file"), 1, "/some/file: Permission denied"),
        (ScenarioError("x.yaml", "units", "a list", 3), 1, "x.yaml: field 'units'"),
        (RecursionError("maximum recursion depth exceeded"), 1, "nested too deeply"),
        (KeyboardInterrupt(), 130, "interrupted"),
    ]
    for exc, want, needle in cases:
        monkeypatch.setattr(cli.scenario, "cmd_scenario_list", boom(exc))
        code, _, err = run(capsys, "scenario", "list")
        assert code == want
        assert needle in _one_line(err)


def test_a_closed_pipe_is_a_quiet_exit():
    import os

    read_end, write_end = os.pipe()
    os.close(read_end)  # like `| head` once it has read its lines
    try:
        proc = subprocess.run(
            [str(CONSOLE_SCRIPT), "scenario", "info", "normandy", "--json"],
            stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60, check=False)
    finally:
        os.close(write_end)
    assert proc.returncode == cli.EXIT_BROKEN_PIPE
    assert proc.stderr == ""


def test_the_player_choices_are_the_bundled_policies():
    from wargame.bots.play import POLICY_NAMES
    from wargame.cli import PLAYERS

    assert set(PLAYERS) == {name for names in POLICY_NAMES.values() for name in names}


def test_autoplay_memoir_easy_against_random(capsys):
    code, out, err = run(capsys, "autoplay", "--scenario", "memoir44-2", "--allied", "easy",
                         "--axis", "random", "--json", "--quiet")
    assert code == 0, err
    data = json.loads(out)
    assert data["allied_player"] == "easy" and data["games"] == 1
    assert data["results"][0]["winner"] in ("allied", "axis")
    code, _, err = run(capsys, "autoplay", "--scenario", "dragoon", "--allied", "easy")
    assert code == 2 and "known: greedy, random" in err


@pytest.mark.parametrize("args, expected", [
    (["--allied", "bogus"], "a computer player: one of greedy"),
    (["--allied", "hard:"], "a computer player"),
    (["--axis", "hard:worlds=99"], "--axis hard:worlds=99: worlds: expected a whole number 0-16"),
    (["--axis", "hard:depth=3"], "hard player setting 'depth=3'"),
    (["--axis", "greedy:worlds=1"], "the 'greedy' player takes no settings"),
])
def test_autoplay_refuses_a_player_or_its_settings_before_any_game(capsys, args, expected):
    """The campaigns' hard player takes settings after a colon (docs/bots.md); a wrong name or
    setting is a usage error naming the option, before any game is played."""
    code, out, err = run(capsys, "autoplay", "--scenario", "dragoon", *args)
    assert code == 2 and expected in err, err
    assert out == "" and "game 1/" not in err  # no game started


def test_autoplay_and_study_take_the_hard_players_settings(capsys, tmp_path):
    code, out, err = run(capsys, "autoplay", "--scenario", "dragoon", "--axis", "hard:worlds=1",
                         "--json", "--quiet")
    assert code == 0, err
    data = json.loads(out)
    assert data["axis_player"] == "hard:worlds=1" and data["results"][0]["winner"]
    code, _, err = run(capsys, "autoplay", "--scenario", "memoir44-2", "--allied", "hard:worlds=1")
    assert code == 2 and "Memoir '44 players take no settings" in err
    code, _, err = run(capsys, "study", "--scenario", "normandy", "--allied", "easy",
                       "--out", str(tmp_path / "s"))
    assert code == 2 and "no computer player 'easy' for the allied" in err
    assert not (tmp_path / "s").exists()  # refused before anything is written
    code, _, err = run(capsys, "study", "--scenario", "normandy", "--axis", "hard:worlds=x",
                       "--out", str(tmp_path / "s"))
    assert code == 2 and "--axis hard:worlds=x: worlds" in err


def test_scenario_import_writes_a_playable_scenario_in_the_user_folder(tmp_path, monkeypatch,
                                                                        capsys):
    """``wargame scenario import``: into $WARGAME_HOME/scenarios/memoir44/, then listed,
    described and played like a bundled scenario (docs/memoir44-import.md)."""
    from wargame.memoir.m44 import to_m44
    from wargame.memoir.scenario import index

    monkeypatch.setenv("WARGAME_HOME", str(tmp_path / "home"))
    layout = tmp_path / "Sword Beach.m44"
    layout.write_text(json.dumps(to_m44(index()["3"])), encoding="utf-8")
    assert cli.main(["scenario", "import", str(layout)]) == 0
    out = capsys.readouterr().out
    assert "memoir44-sword-beach" in out and "bundled scenario 3" in out
    assert (tmp_path / "home" / "scenarios" / "memoir44" / "sword-beach.json").is_file()
    assert cli.main(["scenario", "list"]) == 0
    assert "memoir44-sword-beach" in capsys.readouterr().out
    assert cli.main(["scenario", "validate", "memoir44-sword-beach"]) == 0
    assert cli.main(["autoplay", "--scenario", "memoir44-sword-beach", "--quiet"]) == 0
    assert cli.main(["scenario", "import", str(tmp_path / "missing.m44")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "missing.m44" in err[0]
