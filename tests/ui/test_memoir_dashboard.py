"""The Memoir '44 dashboard store and views without a browser (wargame/ui/memoir.py)."""

from __future__ import annotations

import random

import pytest

from wargame.bots.memoir_random import random_action
from wargame.memoir import Action, MemoirState
from wargame.ui.memoir import MemoirDashboard, MemoirStore, board_hex, display_hex


def to_order_phase(store: MemoirStore) -> None:
    """Play the first card of the hand that orders at least one unit."""
    s = store.state
    for a in [x for x in store.legal if x.kind == "play"]:
        trial = s.clone()
        trial.apply(a)
        if trial.phase == "order" and any(x.kind == "order" for x in trial.legal_actions()):
            store.apply(a)
            return
    raise AssertionError("no card in this seeded hand orders a unit")


def test_display_hex_round_trip_and_ids():
    store = MemoirStore("overlord", 1)
    for h in store.state.board.all_hexes():
        d = display_hex(h)
        assert board_hex(d) == h and d.id  # every hex has a map id (q >= 0 after the shift)


def test_click_orders_moves_and_highlights_match_the_engine():
    store = MemoirStore("1", 44)
    to_order_phase(store)
    orders = [a for a in store.legal if a.kind == "order"]
    u = store.state.units[orders[0].unit]
    assert store.click(u.hex)  # a click on an orderable unit orders it
    assert u.id in store.state.ctx.ordered
    store.end_phase()
    assert store.state.phase == "move"
    store.click(u.hex)  # select
    assert store.selected == u.id
    assert set(store.move_targets()) == set(store.state.move_options(u.id))
    dest = next(iter(store.move_targets()))
    assert store.click(dest)
    assert u.hex == dest


def test_illegal_click_reports_and_changes_nothing():
    store = MemoirStore("3", 2)
    before = store.state.to_json()
    enemy = store.state.live_units("axis")[0]
    assert not store.click(enemy.hex)
    assert store.state.to_json() == before and store.message


def test_battle_preview_uses_the_engine_dice_and_exact_odds():
    store = MemoirStore("14", 3)
    rng = random.Random(3)
    found = False
    for _ in range(3000):
        s = store.state
        if s.is_terminal:
            break
        if s.phase == "battle" and not s.pending:
            for uid in s.ctx.ordered:
                if s.battle_targets(uid):
                    store.selected = uid
                    prev = store.battle_targets()
                    assert {p["hex"] for p in prev} == set(s.battle_targets(uid))
                    for p in prev:
                        n, _ = s.battle_dice(s.units[uid], s.unit_at(p["hex"]))
                        assert p["dice"] == n
                        p_hit = {"inf": 1 / 2, "tank": 1 / 3, "gun": 1 / 6}[p["target"]]
                        assert p["p_hit"] == pytest.approx(1 - (1 - p_hit) ** n)
                    found = True
                    break
        if found:
            break
        store.apply(random_action(s, rng))
    assert found


def test_undo_is_replay_and_new_game_switches_scenario():
    store = MemoirStore("2", 5)
    rng = random.Random(5)
    snapshots = []
    for _ in range(40):
        snapshots.append(store.state.to_json())
        store.apply(random_action(store.state, rng))
    store.undo(3)
    assert store.state.to_json() == snapshots[-3]
    r, _ = MemoirState.replay(store.game, 5, store.state.history)
    assert r.to_json() == store.state.to_json()
    store.new_game("16", 9)
    assert store.state.scenario.id == "16" and store.state.history == []


def test_dashboard_draws_units_hand_and_log():
    dash = MemoirDashboard("1", 44)
    s = dash.store.state
    counters = dash.map.counter_source.data
    assert len(counters["uid"]) == len(s.live_units())
    assert len(dash.hand) >= 1 + len(s.hands[s.active])
    # play a card from the hand button path and see the log grow
    a = next(x for x in dash.store.legal if x.kind == "play")
    n_log = len(dash.store.events)
    dash.store.apply(a)
    assert len(dash.store.events) > n_log
    assert "plays" in dash.log.object
    # a pending retreat is shown as buttons and highlighted on the map
    st = dash.store
    rng = random.Random(1)
    for _ in range(4000):
        if st.state.pending and st.state.pending[-1].kind == "retreat":
            break
        if st.state.is_terminal:
            st.new_game("1", rng.randint(0, 1000))
        st.apply(random_action(st.state, rng))
    if st.state.pending and st.state.pending[-1].kind == "retreat":
        kinds = list(dash.map.highlight_source.data["kind"])
        assert kinds.count("retreat") == len(st.legal)
        assert len(dash.pending) == 1 + len(st.legal)
        a = st.legal[0]
        assert isinstance(a, Action) and st.click(a.hex)


def test_a_click_answers_the_sainte_mere_eglise_airdrop():
    # issue 17 item 17: the Allied player picks the drop hex; on the board, by clicking it
    store = MemoirStore("2", 3)  # scenario 2: Sainte-Mère-Église
    assert store.state.pending and store.state.pending[-1].kind == "airdrop"
    options = [a for a in store.legal if a.kind == "airdrop"]
    target = options[len(options) // 2].hex
    before = len(store.state.history)
    assert store.click(target)
    assert len(store.state.history) == before + 1
    assert store.state.history[-1] == options[len(options) // 2]
