"""The one store base (wargame/ui/store.py) for every game, without a browser: act, refuse,
undo, save and load through the protocol, for a campaign and a Memoir '44 game; views refresh
only on the fields they show; the one serve path."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from wargame.hexgrid import Hex
from wargame.memoir import Action
from wargame.operational.actions import Move
from wargame.operational.state import Game
from wargame.ui.demo import demo_scenario
from wargame.ui.memoir_model import MemoirStore
from wargame.ui.model import CampaignState
from wargame.ui.store import GameStore


def campaign() -> tuple[GameStore, Any, str]:
    """The demo campaign, an illegal move (CN 4.0: beyond the unit's movement points)."""
    return CampaignState(Game(demo_scenario()), seed=1944), Move("us-inf-1", "1210"), "CN 4"


def memoir() -> tuple[GameStore, Any, str]:
    """Pegasus Bridge, ending the battles while a card is still to be played."""
    return MemoirStore("1", 44), Action("end_battles"), "M44"


GAMES: dict[str, Callable[[], tuple[GameStore, Any, str]]] = {"campaign": campaign,
                                                              "memoir": memoir}


def play(store: GameStore, n: int, seed: int = 3) -> None:
    """``n`` legal actions, picked at random among the engine's legal actions."""
    rng = random.Random(seed)
    for _ in range(n):
        s = store.state
        if s.is_terminal:
            break
        assert store.act(rng.choice(s.legal_actions())), store.message


def snapshot(store: GameStore) -> tuple[Any, list[str], int]:
    return (store.state.fingerprint(), [str(getattr(e, "text", e)) for e in store.log],
            len(store.state.action_log))


def test_stores_import_no_panel():
    code = ("import sys; import wargame.ui.store, wargame.ui.model, wargame.ui.memoir_model; "
            "assert 'panel' not in sys.modules, 'panel imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("kind", GAMES)
def test_act_and_refuse(kind):
    store, illegal, rule = GAMES[kind]()
    before = snapshot(store)
    assert not store.act(illegal)
    assert store.error and "Not allowed" in store.message and f"({rule}" in store.message
    assert snapshot(store) == before  # state untouched, nothing logged
    legal = store.state.legal_actions()[0]
    assert store.act(legal) and not store.error
    assert len(store.state.action_log) == 1 and len(store.log) > len(before[1])
    assert store.side_to_act == store.state.side_to_act
    assert store.pending == store.state.pending_decision


@pytest.mark.parametrize("kind", GAMES)
def test_undo_is_replay_and_the_log_follows(kind):
    store, _, _ = GAMES[kind]()
    play(store, 6)
    middle = snapshot(store)
    play(store, 5, seed=8)
    assert store.undo(len(store.state.action_log) - middle[2])
    assert snapshot(store) == middle
    assert "Undone" in store.message
    # the log kept by the store equals the log of a fresh replay
    events, _ = store.replay_events(store.state)
    assert [e.text for e in events] == middle[1]
    while store.state.action_log:
        assert store.undo()
    assert not store.undo() and "Nothing to undo" in store.message


@pytest.mark.parametrize("kind", GAMES)
def test_save_load_round_trip(kind):
    store, _, _ = GAMES[kind]()
    play(store, 9)
    saved = snapshot(store)
    text = store.save_text()
    data = json.loads(text)
    assert data["format"] == "wargame-save" and data["game"] == store.game.kind
    assert data["scenario"] == store.game.scenario_id and len(data["actions"]) == saved[2]
    store.restart(7)
    assert store.state.action_log == [] and store.state.seed == 7
    assert store.load_text(text.encode()) and not store.error
    assert "Game loaded" in store.message
    assert snapshot(store) == saved
    assert store.state.seed != 7  # the save's seed, not the new game's


@pytest.mark.parametrize("kind", GAMES)
def test_a_corrupted_upload_gives_a_message_and_leaves_the_game_as_it_was(kind):
    store, _, _ = GAMES[kind]()
    play(store, 5)
    good = store.save_text()
    play(store, 2, seed=11)
    before = snapshot(store)
    other = (memoir if kind == "campaign" else campaign)()[0].save_text()
    edited = json.loads(good)
    edited["fingerprint"]["turn"] = 99
    bad_action = json.loads(good)
    bad_action["actions"][1] = {"kind": "move", "unit": "nobody"}
    uploads = [
        good[: len(good) // 2],  # truncated
        b"\xff\xfe not utf-8",
        "[1, 2, 3]",
        other,  # a save of another game
        json.dumps(edited),  # hand-edited
        json.dumps(bad_action),
        "[" * 100000,  # nested too deeply
    ]
    for upload in uploads:
        assert not store.load_text(upload)
        assert store.error and store.message.startswith("Could not load the save")
        assert "<uploaded save>" in store.message
        assert snapshot(store) == before
    assert store.load_text(good) and not store.error


def test_memoir_computer_answers_and_undo_takes_back_both():
    store = MemoirStore("1", 44, computer="axis")
    assert store.state.side_to_act == "allied" and not store.state.action_log
    rng = random.Random(2)
    while not store._computer_runs and not store.state.is_terminal:
        assert store.state.side_to_act == "allied"
        before = snapshot(store)
        s = store.state
        store.act(rng.choice(s.legal_actions()))
    assert store._computer_runs, "the Axis never got to act"
    first, end = store._computer_runs[-1]
    assert end == len(store.state.action_log) and "The computer (Axis) played" in store.message
    assert store.state.is_terminal or store.state.side_to_act == "allied"
    assert store.undo()
    assert snapshot(store) == before and "with the computer's" in store.message


# ---------------------------------------------------------------------- views follow fields
def count_refreshes(monkeypatch, views: list[Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for v in views:
        name = type(v).__name__
        original = v.refresh

        def spy(*a: Any, _name: str = name, _original: Any = original, **k: Any) -> None:
            counts[_name] = counts.get(_name, 0) + 1
            _original(*a, **k)

        monkeypatch.setattr(v, "refresh", spy)
    return counts


def test_campaign_selection_click_refreshes_only_what_shows_the_selection(monkeypatch):
    from wargame.ui import CampaignDashboard

    d = CampaignDashboard(Game(demo_scenario()), seed=1944)
    counts = count_refreshes(monkeypatch, d.views)
    log_html = d.log.pane.object
    d.click("0405")  # select us-inf-1: selection and message only
    assert d.model.selected_unit == "us-inf-1"
    assert counts == {"MessageBar": 1, "UnitCard": 1}
    assert d.log.pane.object is log_html
    counts.clear()
    d.click("0605")  # a move: the position changed, every view refreshes once
    assert d.model.s.units["us-inf-1"].hex == Hex.from_id("0605")
    assert counts["LogPanel"] == 1 and counts["TurnPanel"] == 1 and counts["UnitCard"] == 1
    assert "us-inf-1 moves 0405 -&gt; 0605" in d.log.pane.object
    assert "DecisionPanel" not in counts  # no decision before or after


def test_memoir_selection_click_leaves_the_log_alone(monkeypatch):
    from wargame.ui.memoir import MemoirDashboard, display_hex

    dash = MemoirDashboard("1", 44)
    st = dash.store
    for a in [x for x in st.legal if x.kind == "play"]:  # a card that orders a unit
        trial = st.state.clone()
        trial.apply(a)
        if any(x.kind == "order" for x in trial.legal_actions()):
            st.act(a)
            break
    assert st.act(next(x for x in st.legal if x.kind == "order"))
    assert st.end_phase() and st.state.phase == "move"
    uid = st.state.ctx.ordered[0]
    counts = count_refreshes(monkeypatch, dash.views)
    figure = dash.map.figure
    dash.click(display_hex(st.state.units[uid].hex).id)
    assert st.selected == uid
    assert set(counts) == {"StatusView", "PreviewView"}  # the message and the preview
    assert "reach" in dash.map.highlight_source.data["kind"]
    assert dash.map.figure is figure  # sources patched, never a new figure on a click


def test_memoir_dashboard_save_load_undo_widgets():
    from wargame.ui.memoir import MemoirDashboard

    dash = MemoirDashboard("1", 44)
    play(dash.store, 8)
    fp = dash.store.state.fingerprint()
    text = dash.controls._save().getvalue()
    assert dash.controls.save.filename == "memoir44-1-save.json"
    dash.controls.undo.clicks += 1
    assert len(dash.store.state.action_log) == 7
    dash.new_button.clicks += 1
    assert dash.store.state.action_log != [] and dash.really.visible  # asks first (issue 15)
    dash.really.clicks += 1
    assert dash.store.state.action_log == [] and not dash.really.visible
    dash.controls.load.value = text.encode()
    assert dash.store.state.fingerprint() == fp and not dash.store.error
    assert "Game loaded" in dash.status.pane.object
    dash.controls.load.value = b"{broken"
    assert dash.store.state.fingerprint() == fp and "Could not load" in dash.status.pane.object


# ---------------------------------------------------------------------- the one serve path
def test_build_dashboard_picks_the_game_by_scenario_id():
    from wargame.ui.campaign import CampaignDashboard
    from wargame.ui.memoir import MemoirDashboard
    from wargame.ui.serve import build_dashboard

    m = build_dashboard("memoir44-3", seed=5, computer="axis")
    assert isinstance(m, MemoirDashboard)
    assert m.store.game.scenario_id == "memoir44-3" and m.store.state.seed == 5
    assert m.store.computer == "axis"
    assert build_dashboard("memoir44-1").store.state.seed == 44
    c = build_dashboard("demo", seed=3)
    assert isinstance(c, CampaignDashboard) and c.model.s.seed == 3
    bad = build_dashboard("memoir44-999")
    assert isinstance(bad, CampaignDashboard) and bad.model.error
    assert "memoir44-999" in bad.model.message
    with_variants = build_dashboard("memoir44-1", variants=["bfn-19.1"])
    assert with_variants.model.error and "campaign games only" in with_variants.model.message


def test_wargame_serve_routes_memoir_through_the_one_serve_path(monkeypatch, capsys):
    import types

    from wargame.cli import main

    calls = []
    fake = types.ModuleType("wargame.ui.serve")
    fake.serve_dashboard = lambda **kw: calls.append(kw)
    monkeypatch.setitem(sys.modules, "wargame.ui.serve", fake)
    assert main(["serve", "--scenario", "memoir44-2", "--seed", "9", "--no-show"]) == 0
    assert calls == [{"scenario": "memoir44-2", "port": 5006, "seed": 9, "variants": [],
                      "show": False, "computer": "none"}]


def test_app_accepts_catalogue_ids_only():
    from wargame.ui import app

    ids = {d["id"] for d in app.known_scenarios()}
    assert {"normandy", "memoir44-1"} <= ids
    page = app.unknown_scenario_page("../../etc/passwd<script>", app.known_scenarios())
    assert "memoir44-1" in page.object and "<script>" not in page.object
