"""Campaign studies on Dask (wargame/analysis/study.py) and what-if files (analysis/whatif.py).

The fast tests play Memoir '44 games (a fraction of a second each) on in-process Dask workers
(``processes=False``); the Dragoon tests on worker processes are marked slow."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.analysis.studykit import fail_on
from wargame.analysis.study import (
    Study,
    against_history,
    compare,
    game_seed,
    mean_ci,
    results_hash,
    run_study,
    turn_of_date,
    wilson,
)
from wargame.analysis.whatif import apply_whatif, load_whatif, whatif_from_data
from wargame.scenario import load_scenario
from wargame.scenario_errors import ScenarioError

M44 = dict(allied="random", axis="random", progress=False, processes=False)


@pytest.fixture(scope="module")
def dragoon():
    return load_scenario("dragoon")


def test_game_seeds_depend_on_study_seed_and_index_only():
    assert game_seed(1, 0) == 1_000_003 and game_seed(1, 5) == 1_000_008
    seeds = {game_seed(s, i) for s in range(3) for i in range(100)}
    assert len(seeds) == 300  # no two games of these studies share a seed


def test_same_table_for_one_and_two_workers():
    one = run_study("memoir44-1", 4, seed=2, workers=1, **M44)
    two = run_study("memoir44-1", 4, seed=2, workers=2, **M44)
    assert list(one.table["game"]) == [0, 1, 2, 3]
    assert list(one.table["seed"]) == [game_seed(2, i) for i in range(4)]
    pd.testing.assert_frame_equal(one.table, two.table)
    assert results_hash(one.table) == results_hash(two.table)
    assert one.table["actions"].nunique() > 1  # different games, not one game four times


def test_resume_plays_only_the_missing_games(tmp_path):
    out = tmp_path / "study"
    first = run_study("memoir44-1", 3, seed=2, workers=2, out=out, **M44)
    assert first.played == 3 and len(list((out / "games").glob("*.json"))) == 3
    # a game file cut short by a kill is played again, not trusted
    (out / "games" / "000002.json").write_text('{"game": 2, "se')
    second = run_study("memoir44-1", 5, seed=2, workers=2, out=out, **M44)
    assert second.played == 3  # games 2 (cut short), 3 and 4
    fresh = run_study("memoir44-1", 5, seed=2, workers=1, **M44)
    pd.testing.assert_frame_equal(second.table, fresh.table)
    again = run_study("memoir44-1", 5, seed=2, workers=1, out=out, **M44)
    assert again.played == 0
    written = pd.read_csv(out / "results.csv")
    assert list(written["seed"]) == list(fresh.table["seed"])
    params = json.loads((out / "study.json").read_text())
    assert params["scenario"] == "memoir44-1" and params["seed"] == 2 and params["games"] == 5
    # another study is never mixed into this folder
    with pytest.raises(ValueError, match="another study"):
        run_study("memoir44-1", 5, seed=9, out=out, **M44)
    # nor a study begun before dice had versions (its games were played with dice 1)
    assert params["dice"] == 2
    (out / "study.json").write_text(json.dumps({k: v for k, v in params.items() if k != "dice"}))
    with pytest.raises(ValueError, match="another study"):
        run_study("memoir44-1", 5, seed=2, out=out, **M44)


def test_a_study_of_no_games_has_an_empty_table_and_no_intervals():
    study = run_study("dragoon", 0, seed=1, progress=False)
    assert study.played == 0 and len(study.table) == 0
    assert "fell_Toulon" in study.table.columns
    s = study.summary()
    assert s["games"] == 0 and s["allied_win_rate"] is None and s["allied_vp_ci"] is None
    json.dumps(s, allow_nan=False)  # plain JSON: no NaN


def test_bad_arguments_fail_before_any_worker_starts(tmp_path):
    with pytest.raises(ValueError, match="greedy"):
        run_study("memoir44-1", 2, allied="greedy", axis="random", progress=False)
    with pytest.raises(ValueError, match="workers"):
        run_study("dragoon", 2, workers=0, progress=False)
    with pytest.raises(ValueError, match="variant|nonsense"):
        run_study("normandy", 2, variants=["nonsense"], progress=False)
    with pytest.raises(ValueError, match="campaign"):
        run_study("memoir44-1", 2, whatif=tmp_path / "w.yaml", progress=False)


# ---------------------------------------------------------------------------- what-if files
def test_whatif_changes_a_copy_of_the_scenario(dragoon, tmp_path):
    path = tmp_path / "early.yaml"
    path.write_text(
        "name: early armour\n"
        "scenario: dragoon\n"
        "variants: []\n"
        "postures: {axis: {engage_ratio: 2.0, attack_threshold: 0.1}}\n"
        "reinforcements:\n"
        "  - {unit: fr-cc1-1db, turn: 1}\n"
        "  - {unit: us-art-7a, hex: '0723'}\n"
        "rules:\n"
        "  naval_support: {columns: 3}\n"
    )
    w = load_whatif(path, dragoon)
    assert w.name == "early armour" and w.postures == {"axis": (2.0, 0.1)}
    changed = apply_whatif(dragoon, w)
    before = {r.unit: r for r in dragoon.reinforcements}
    after = {r.unit: r for r in changed.reinforcements}
    assert before["fr-cc1-1db"].turn == 2 and after["fr-cc1-1db"].turn == 1
    assert [h.id for h in after["us-art-7a"].entry.hexes] == ["0723"]
    assert after["us-art-7a"].entry.kind == "hex" and before["us-art-7a"].entry.kind == "beach"
    assert changed.rules["naval_support"] == {"rule": "OD 9.0", "columns": 3,
                                              "coast_hexes": True}
    assert dragoon.rules["naval_support"]["columns"] == 2  # the loaded scenario is untouched
    from wargame.operational.state import Game

    state = Game(changed).new_state(1)
    assert state.units["fr-cc1-1db"].available == 1


def test_whatif_changes_the_counters_of_a_copy(dragoon):
    axis_infantry = [u for u in dragoon.units.values()
                     if u.side == "axis" and u.type == "infantry"]
    allied_one = next(u for u in dragoon.units.values() if u.side == "allied")
    w = whatif_from_data({"name": "stronger", "counters": [
        {"side": "axis", "types": ["infantry"], "defence": 2, "attack": -5},
        {"units": [allied_one.id], "movement": -3},
        {"units": [allied_one.id], "movement": -1},
    ]}, dragoon, "stronger.yaml")
    changed = apply_whatif(dragoon, w)
    assert axis_infantry
    for u in axis_infantry:
        new = changed.units[u.id]
        assert (new.defence, new.reduced_defence) == (u.defence + 2, u.reduced_defence + 2)
        assert new.attack == new.reduced_attack == 1  # attack never below 1
        assert new.movement == u.movement
        assert new.provenance.endswith("what-if stronger: attack -5, defence +2")
    # two changes of one unit add up; movement never below 0
    assert changed.units[allied_one.id].movement == max(0, allied_one.movement - 4)
    untouched = [uid for uid, u in dragoon.units.items()
                 if not (u.side == "axis" and u.type == "infantry") and uid != allied_one.id]
    assert all(changed.units[uid] is dragoon.units[uid] for uid in untouched)
    # the loaded scenario is untouched, and the game plays the new values
    assert all(dragoon.units[u.id].defence == u.defence for u in axis_infantry)
    from wargame.operational.state import Game

    state = Game(changed).new_state(1)
    on_map = next((uid for uid in state.units if uid in {u.id for u in axis_infantry}), None)
    assert on_map is not None
    assert state.defence_of(on_map) == dragoon.units[on_map].defence + 2


def test_control_where_moves_end_is_a_what_if_rule(dragoon):
    """The rule option a what-if sets (bench/whatifs/normandy-control-where-moves-end.yaml)
    reaches the copy's rules; the engine's side is tested in test_engine_special_rules.py."""
    w = whatif_from_data({"rules": {"control_on_passing": False}}, dragoon, "strict.yaml")
    assert apply_whatif(dragoon, w).rule("control_on_passing") is False
    assert dragoon.rule("control_on_passing", True) is True


@pytest.mark.parametrize("text, field, expected", [
    ("reinforcements: [{unit: nobody, turn: 3}]", "reinforcements[0].unit",
     "a reinforcement unit"),
    ("reinforcements: [{unit: fr-cc1-1db, turn: 40}]", "reinforcements[0].turn", "a turn 1..14"),
    ("reinforcements: [{unit: fr-cc1-1db, hex: '9999'}]", "reinforcements[0].hex",
     "a hex of the map"),
    ("reinforcements: [{unit: fr-cc1-1db, hex: 'x'}]", "reinforcements[0].hex", "four-digit"),
    ("reinforcements: [{unit: fr-cc1-1db}]", "reinforcements[0].turn", "nothing changes"),
    ("reinforcements: [{unit: fr-cc1-1db, edge: south}]", "reinforcements[0].edge", "edge"),
    ("reinforcments: []", "reinforcments", "did you mean 'reinforcements'"),
    ("postures: {axis: {engage_ratio: 0, attack_threshold: 0.1}}",
     "postures.axis.engage_ratio", "> 0"),
    ("postures: {germans: {engage_ratio: 2, attack_threshold: 0.1}}", "postures", "allied"),
    ("scenario: normandy", "scenario", "'dragoon'"),
    ("rules: {naval_support: {columns: many}}", "rules.naval_support.columns", ""),
    ("variants: bfn", "variants", "a list"),
    ("- just a list", "(top level)", "a mapping"),
    ("counters: [{side: axis, types: [infantry]}]", "counters[0].defence", "nothing changes"),
    ("counters: [{side: axis, types: [tank], defence: 1}]", "counters[0].types",
     "a unit type"),
    ("counters: [{units: [nobody], defence: 1}]", "counters[0].units", "a unit id"),
    ("counters: [{side: axis, defence: 40}]", "counters[0].defence", "-20 to 20"),
    ("counters: [{side: axis, units: [fr-cc1-1db], defence: 1}]",
     "counters[0].types", "that some unit of the scenario matches"),
])
def test_whatif_errors_name_the_file_and_field(dragoon, tmp_path, text, field, expected):
    path = tmp_path / "broken.yaml"
    path.write_text(text + "\n")
    with pytest.raises(ScenarioError) as info:
        load_whatif(path, dragoon)
    err = info.value
    assert err.file == str(path)
    assert err.field.startswith(field), err
    assert expected in str(err)
    assert "\n" not in str(err) and len(str(err)) < 400


# ------------------------------------------------------------------------------- summaries
def _study(rows: list[dict], scenario: str = "dragoon", name: str | None = None) -> Study:
    cities = tuple(k[5:] for k in rows[0] if k.startswith("fell_"))
    return Study(params={"scenario": scenario, "seed": 1, "allied": "greedy", "axis": "greedy",
                         "name": name or scenario},
                 table=pd.DataFrame(rows), cities=cities)


def _row(i: int, winner: str, a: int, x: int, **fell) -> dict:
    return {"game": i, "seed": i, "winner": winner, "allied_vp": a, "axis_vp": x,
            "allied_lost": 1, "axis_lost": 2, **{f"fell_{c}": t for c, t in fell.items()},
            "actions": 10, "last_turn": 14}


def test_summary_compare_and_against_history(dragoon):
    base = _study([_row(0, "allied", 120, 100, Toulon=5, Lyon=None),
                   _row(1, "axis", 90, 130, Toulon=9, Lyon=12),
                   _row(2, "allied", 150, 60, Toulon=7, Lyon=None),
                   _row(3, "draw", 100, 100, Toulon=None, Lyon=None)])
    s = base.summary()
    assert (s["allied_wins"], s["axis_wins"], s["draws"]) == (2, 1, 1)
    assert s["allied_win_rate"] == 0.5
    lo, hi = s["allied_win_rate_ci"]
    assert 0 < lo < 0.5 < hi < 1
    assert s["allied_vp_mean"] == 115.0 and s["allied_vp_ci"][0] < 115 < s["allied_vp_ci"][1]
    assert s["cities"]["Toulon"] == {"fell_share": 0.75, "mean_turn": 7.0}
    assert s["cities"]["Lyon"] == {"fell_share": 0.25, "mean_turn": 12.0}

    other = _study([_row(0, "axis", 80, 140, Toulon=None, Lyon=None),
                    _row(1, "axis", 70, 150, Toulon=13, Lyon=None)], name="what-if")
    table = compare(base, other)
    assert table.loc["allied rate", "dragoon"] == 0.5
    assert table.loc["allied rate", "what-if"] == 0.0
    assert table.loc["allied rate", "difference"] == -0.5
    assert table.loc["Toulon mean turn taken", "what-if"] == 13.0
    same_name = compare(base, base)
    assert list(same_name.columns) == ["dragoon", "dragoon (b)", "difference"]
    assert same_name.loc["allied rate", "difference"] == 0

    # OD 2.4.1: turn 1 is 15-16 August 1944. Toulon fell on 28 August (turn 7: 27-28
    # August), Lyon on 3 September (turn 10: 2-3 September)
    assert turn_of_date(dragoon, "1944-08-15") == 1 and turn_of_date(dragoon, "1944-08-16") == 1
    assert turn_of_date(dragoon, "1944-08-28") == 7 and turn_of_date(dragoon, "1944-09-03") == 10
    assert turn_of_date(dragoon, "1944-09-11") == 14 and turn_of_date(dragoon, "1944-09-12") == 15
    hist = against_history(base, {"Toulon": "1944-08-28", "Lyon": 11})
    assert hist.loc["Toulon", "history_turn"] == 7
    assert hist.loc["Toulon", "earlier"] == 1 and hist.loc["Toulon", "taken"] == 3  # turn 5
    assert hist.loc["Lyon", "earlier"] == 0 and hist.loc["Lyon", "taken"] == 1
    # scenarios/dragoon/history.yaml: Toulon first held whole at the end of turn 7, Lyon 10
    track = against_history(base)
    assert track.loc["Toulon", "history_turn"] == 7 and track.loc["Lyon", "history_turn"] == 10


def test_against_normandy_history_yaml():
    from wargame.history import load_history

    history = load_history("normandy")
    first_bayeux = next(t.turn for t in history.turns if "Bayeux" in t.allied_cities)
    study = _study([_row(0, "allied", 1, 0, Bayeux=first_bayeux - 1),
                    _row(1, "allied", 1, 0, Bayeux=first_bayeux),
                    _row(2, "allied", 1, 0, Bayeux=None)], scenario="normandy")
    table = against_history(study)
    assert table.loc["Bayeux", "history_turn"] == first_bayeux
    assert table.loc["Bayeux", "earlier"] == 1 and table.loc["Bayeux", "taken"] == 2


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval_holds_the_rate_inside_0_1(k, n):
    k = min(k, n)
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-1000, 1000), min_size=1, max_size=40))
def test_mean_interval_is_centred_on_the_mean(xs):
    m, lo, hi = mean_ci(xs)
    assert m == pytest.approx(sum(xs) / len(xs))
    assert lo <= m <= hi and (hi - m) == pytest.approx(m - lo)


def test_whatif_from_data_names_memory_source(dragoon):
    with pytest.raises(ScenarioError, match="<what-if>"):
        whatif_from_data({"postures": {"axis": {"engage_ratio": 1}}}, dragoon)


# ------------------------------------------------------------------ games that raise (issue 30)
def test_a_game_that_raises_is_recorded_and_the_study_goes_on(monkeypatch, tmp_path):
    bad = {game_seed(2, 1), game_seed(2, 3)}
    raised = fail_on(monkeypatch, bad)
    out = tmp_path / "study"
    study = run_study("memoir44-1", 5, seed=2, workers=2, out=out, **M44)
    assert list(study.table["game"]) == [0, 2, 4]  # the others finished and are the table
    assert [f["game"] for f in study.failures] == [1, 3]
    for f in study.failures:
        assert f["seed"] == game_seed(2, f["game"]) and f["failed"] is True
        assert f["error_type"] == "Injected"
        assert f["error_message"] == f"injected into seed {f['seed']}"
        assert f["error_where"].startswith("tests/analysis/studykit.py:")
        assert f["error_where"].endswith(" in choose")  # the traceback's last frame
        assert f["actions"] == raised[f["seed"]] > 0
    s = study.summary()
    assert s["games"] == 3 and s["failed"] == 2 and s["failed_seeds"] == sorted(bad)
    assert s["allied_wins"] + s["axis_wins"] + s["draws"] == 3  # rates over finished games
    json.dumps(s, allow_nan=False)
    on_disk = sorted(p.name for p in (out / "failed").glob("*.json"))
    assert on_disk == ["000001.json", "000003.json"]
    assert json.loads((out / "failed" / "000003.json").read_text()) == study.failures[1]
    assert sorted(p.name for p in (out / "games").glob("*.json")) == [
        "000000.json", "000002.json", "000004.json"]
    assert len(pd.read_csv(out / "results.csv")) == 3

    # resume: the recorded failures are skipped, not played again
    raised.clear()
    again = run_study("memoir44-1", 5, seed=2, workers=2, out=out, **M44)
    assert again.played == 0 and raised == {}
    assert again.failures == study.failures
    pd.testing.assert_frame_equal(again.table, study.table)

    # --retry-failed plays them again: now they finish, and their failure files go
    monkeypatch.undo()
    retried = run_study("memoir44-1", 5, seed=2, workers=2, out=out, retry_failed=True, **M44)
    assert retried.played == 2 and retried.failures == []
    assert not list((out / "failed").glob("*.json"))
    fresh = run_study("memoir44-1", 5, seed=2, use_dask=False, **M44)
    pd.testing.assert_frame_equal(retried.table, fresh.table)
    assert retried.summary()["failed"] == 0 and retried.summary()["failed_seeds"] == []


def test_a_game_still_failing_when_retried_stays_recorded(monkeypatch, tmp_path):
    bad = {game_seed(4, 0)}
    fail_on(monkeypatch, bad, after=0)  # raises on the very first choice
    out = tmp_path / "s"
    first = run_study("memoir44-1", 2, seed=4, use_dask=False, out=out, **M44)
    assert [f["actions"] for f in first.failures] == [0]
    second = run_study("memoir44-1", 2, seed=4, use_dask=False, out=out, retry_failed=True,
                       **M44)
    assert second.played == 1 and second.failures == first.failures
    assert len(second.table) == 1


def test_a_study_folder_written_before_failures_were_recorded_resumes(tmp_path):
    """tests/data/study_format1: 3 games of memoir44-1 (seed 2, random players), a folder
    with no failed/ (as the study code wrote it before issue 30), played with dice 2 (its
    study.json names them: a folder of dice 1 is another study, refused)."""
    import shutil
    from pathlib import Path

    out = tmp_path / "old"
    shutil.copytree(Path(__file__).resolve().parent.parent / "data" / "study_format1", out)
    study = run_study("memoir44-1", 4, seed=2, use_dask=False, out=out, **M44)
    assert study.played == 1 and study.failures == []
    fresh = run_study("memoir44-1", 4, seed=2, use_dask=False, **M44)
    pd.testing.assert_frame_equal(study.table, fresh.table)
    assert study.summary()["failed"] == 0


def test_the_dragoon_maquis_game_is_recorded_not_raised():
    """Seed 1000147 (game 144 of seed 1) stopped the whole study (issue 30). Whether it still
    fails depends on the OD 10.0 fix; either way play_study_game returns, never raises."""
    from wargame.analysis.study import play_study_game

    spec = json.dumps({"scenario": "dragoon", "seed": 1, "variants": [], "allied": "greedy",
                       "axis": "greedy", "postures": {}, "whatif": None}, sort_keys=True)
    record = play_study_game(spec, 144)
    assert record["seed"] == 1000147 and record["actions"] > 0
    if record.get("failed"):
        assert record["error_type"] and record["error_where"].startswith("wargame/")


# ------------------------------------------------------------------------ Dask (issue 30)
@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2000), st.integers(1, 64))
def test_batches_cover_every_game_once_large_first(n, slots):
    from wargame.analysis.study import batches

    todo = list(range(3, 3 + n))
    chunks = batches(todo, slots)
    assert [i for c in chunks for i in c] == todo
    sizes = [len(c) for c in chunks]
    assert all(s >= 1 for s in sizes) and sizes == sorted(sizes, reverse=True)
    if n:
        assert sizes[0] == -(-n // (4 * slots))  # a quarter of a worker's share at first
        assert len(chunks) <= n


def test_dask_gives_the_plain_loops_results_failures_included(monkeypatch):
    fail_on(monkeypatch, {game_seed(3, 2)})
    plain = run_study("memoir44-1", 7, seed=3, use_dask=False, **M44)
    one = run_study("memoir44-1", 7, seed=3, workers=1, **M44)
    three = run_study("memoir44-1", 7, seed=3, workers=3, **M44)
    for other in (one, three):
        pd.testing.assert_frame_equal(plain.table, other.table)
        assert results_hash(plain.table) == results_hash(other.table)
        assert other.failures == plain.failures and len(plain.failures) == 1


def _listening(pids):
    import psutil

    out = []
    for pid in pids:
        for c in psutil.Process(pid).net_connections(kind="inet"):
            if c.status == psutil.CONN_LISTEN:
                out.append(c.laddr.ip)
    return out


def _http_status(url: str) -> int:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code


@pytest.mark.slow  # 11 s: two worker processes (measured on 2 busy cores)
def test_the_local_cluster_listens_on_loopback_only_and_has_no_dashboard():
    """Worker processes, as a study runs them: every address of the cluster (scheduler,
    workers, nannies, HTTP servers) is 127.0.0.1, and the scheduler's HTTP server serves no
    dashboard (distributed always starts one; without --dashboard it has no routes)."""
    import psutil
    from distributed.comm import get_tcp_server_addresses

    seen = {}

    def inspect(client):
        cluster = client.cluster
        info = client.scheduler_info()
        seen["addresses"] = [cluster.scheduler_address, *info["workers"],
                             *(w["nanny"] for w in info["workers"].values())]
        seen["http"] = get_tcp_server_addresses(cluster.scheduler.http_server)
        workers = [p.pid for p in psutil.Process().children(recursive=True)]
        seen["worker_sockets"] = _listening(workers)
        seen["status"] = _http_status(f"http://127.0.0.1:{seen['http'][0][1]}/status")
        seen["health"] = _http_status(f"http://127.0.0.1:{seen['http'][0][1]}/health")

    study = run_study("memoir44-1", 2, seed=2, workers=2, allied="random", axis="random",
                      progress=False, on_client=inspect)
    assert len(study.table) == 2
    assert len(seen["addresses"]) == 5
    assert all(a.startswith("tcp://127.0.0.1:") for a in seen["addresses"]), seen
    assert [host for host, _ in seen["http"]] == ["127.0.0.1"]
    assert seen["worker_sockets"] and set(seen["worker_sockets"]) == {"127.0.0.1"}
    assert seen["status"] == 404 and seen["health"] == 404  # no dashboard, no route at all


def test_the_dashboard_when_asked_is_on_loopback():
    from distributed import Client
    from distributed.comm import get_tcp_server_addresses

    from wargame.analysis.study import local_cluster

    with local_cluster(1, processes=False, dashboard=True) as cluster, Client(cluster) as c:
        assert c.dashboard_link.startswith("http://127.0.0.1:")
        hosts = {h for h, _ in get_tcp_server_addresses(cluster.scheduler.http_server)}
        assert hosts == {"127.0.0.1"}
        assert _http_status(c.dashboard_link) == 200


@pytest.mark.parametrize("path", sorted((Path(__file__).resolve().parents[2] / "bench" / "whatifs")
                                        .glob("*.yaml")), ids=lambda p: p.stem)
def test_the_bench_what_ifs_load_and_change_something(path):
    """The what-ifs of issue #34's question (docs/rules-notes.md) stay valid for their scenario
    and change the game they name."""
    import yaml

    scenario = load_scenario(yaml.safe_load(path.read_text())["scenario"])
    w = load_whatif(path, scenario)
    changed = apply_whatif(scenario, w)
    assert changed.units != scenario.units or changed.rules != scenario.rules
