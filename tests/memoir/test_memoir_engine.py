"""Engine properties: invariants, illegal actions, JSON round trip, replay, full games."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wargame.bots.memoir_random import auto_action, random_action
from wargame.hexgrid import Hex
from wargame.memoir import (
    ALLIES,
    AXIS,
    FORMAT_VERSION,
    Action,
    IllegalAction,
    MemoirGame,
    MemoirState,
    scenario_ids,
)

SCENARIOS = scenario_ids()
PROPS = settings(max_examples=25, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


def cards_in_play(s: MemoirState) -> list[int]:
    out = list(s.deck) + list(s.discard) + s.hands[AXIS] + s.hands[ALLIES]
    if s.ctx.card is not None:
        out.append(s.ctx.card)
    out += s.ctx.discard_after
    for p in s.pending:
        if p.kind == "keep":
            out += p.cards
    return out


def check_invariants(s: MemoirState) -> None:
    live = s.live_units()
    hexes = [u.hex for u in live]
    assert len(hexes) == len(set(hexes)), "two units on one hex"
    for u in s.units.values():
        assert 0 <= u.figures <= u.max_figures
        if u.alive:
            assert s.board.on_board(u.hex)
    cards = cards_in_play(s)
    if not s.ctx.end_turn:
        assert sorted(cards) == list(range(60)), "command cards lost or duplicated"


def play_random(game: MemoirGame, seed: int, steps: int, check=None) -> MemoirState:
    s = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal:
            break
        s.apply(random_action(s, rng, aggressive=rng.random() < 0.8))
        if check:
            check(s)
    return s


@PROPS
@given(st.sampled_from(SCENARIOS), st.integers(0, 10_000), st.integers(1, 250))
def test_invariants_under_random_play(sid, seed, steps):
    play_random(MemoirGame.from_scenario(sid), seed, steps, check_invariants)


def random_garbage(s: MemoirState, rng: random.Random) -> Action:
    kinds = ["play", "order", "end_orders", "move", "end_moves", "battle", "end_battles",
             "retreat", "take_ground", "hold", "keep", "ambush", "no_ambush", "air_target",
             "air_strike", "barrage", "medics", "remove_wire", "exit", "skip_overrun", "bogus",
             "ignore_flag", "accept_flags", "airdrop"]
    uids = list(s.units) + [999]
    return Action(rng.choice(kinds), unit=rng.choice(uids + [None]),
                  hex=rng.choice([None, Hex(rng.randint(-3, 14), rng.randint(-1, 9))]),
                  card=rng.choice([None, rng.randint(0, 61)]),
                  option=rng.choice([None, "left", "center", "right", "air_power"]))


@PROPS
@given(st.sampled_from(SCENARIOS), st.integers(0, 10_000), st.integers(0, 120))
def test_illegal_actions_never_change_state(sid, seed, steps):
    s = play_random(MemoirGame.from_scenario(sid), seed, steps)
    rng = random.Random(seed + 1)
    legal = s.legal_actions()
    before = json.dumps(s.to_json(), sort_keys=True)
    tried = 0
    for _ in range(30):
        a = random_garbage(s, rng)
        if a in legal:
            continue
        tried += 1
        with pytest.raises(IllegalAction) as exc:
            s.apply(a)
        assert exc.value.rule.startswith("M44")
        assert json.dumps(s.to_json(), sort_keys=True) == before
    assert tried > 0


@PROPS
@given(st.sampled_from(SCENARIOS), st.integers(0, 10_000), st.integers(0, 150))
def test_json_round_trip_and_continuation(sid, seed, steps):
    game = MemoirGame.from_scenario(sid)
    s = play_random(game, seed, steps)
    data = json.loads(json.dumps(s.to_json()))
    assert data["format_version"] == FORMAT_VERSION
    t = MemoirState.from_json(data)
    assert t.to_json() == s.to_json()
    rng1, rng2 = random.Random(7), random.Random(7)
    for _ in range(40):
        if s.is_terminal:
            break
        a = random_action(s, rng1)
        b = random_action(t, rng2)
        assert a == b
        assert s.apply(a) == t.apply(b)
    assert s.to_json() == t.to_json()


@PROPS
@given(st.sampled_from(SCENARIOS), st.integers(0, 10_000), st.integers(1, 200))
def test_replay_is_deterministic(sid, seed, steps):
    game = MemoirGame.from_scenario(sid)
    s = game.new_state(seed)
    rng = random.Random(seed)
    events = list(s.setup_events)
    for _ in range(steps):
        if s.is_terminal:
            break
        events += s.apply(random_action(s, rng))
    r, replayed = MemoirState.replay(game, seed, s.history)
    assert replayed == events
    assert r.to_json() == s.to_json()


def test_clone_is_independent():
    s = MemoirGame.from_scenario(3).new_state(2)
    c = s.clone()
    c.apply(c.legal_actions()[0])
    assert c.to_json() != s.to_json()
    assert s.history == [] and len(c.history) == 1


def _mutate_every_field(c: MemoirState, rng: random.Random) -> None:
    """Change every mutable part of state ``c`` in place, the way no rule would."""
    for u in c.units.values():
        c.place(u, None if rng.random() < 0.3 else Hex(rng.randint(0, 12), rng.randint(0, 8)))
        c.set_figures(u, u.figures - 1)
    c.sandbags.add(Hex(99, 99))
    c.wire.clear()
    c.deck.append(999)
    c.discard.append(998)
    for side in (AXIS, ALLIES):
        c.hands[side].append(997)
        c.medal_units[side].append([999, 9])
        for pair in c.medal_units[side]:
            pair[1] += 1
        c.side_turns[side] += 5
        c.last_played[side] = None
    c.permanent["99"] = AXIS
    c.pending.clear()
    ctx = c.ctx
    for name in ("ordered", "battled", "entered", "stopped", "overrun", "discard_after"):
        getattr(ctx, name).append(999)
    ctx.moved[999] = 1
    ctx.battles[999] = 1
    ctx.air_targets.append(Hex(99, 99))
    ctx.queue.clear()
    ctx.effect = "bogus"
    c.history.append(Action("bogus"))
    c.setup_events.clear()
    c.dice.d6()
    c.active, c.phase, c.turn, c.winner = "nobody", "bogus", 999, "nobody"


@PROPS
@given(st.sampled_from(SCENARIOS), st.integers(0, 10_000), st.integers(0, 200))
def test_clone_is_a_deep_copy(sid, seed, steps):
    """``clone`` copies field by field (issue #33: faster than ``copy.deepcopy``): the copy
    equals the original, and changing any part of the copy, or playing it on, leaves the
    original exactly as it was."""
    s = play_random(MemoirGame.from_scenario(sid), seed, steps)
    before = json.dumps(s.to_json(), sort_keys=True)
    fingerprint = s.fingerprint()
    c = s.clone()
    assert json.dumps(c.to_json(), sort_keys=True) == before
    rng = random.Random(seed)
    for _ in range(30):
        if c.is_terminal:
            break
        c.apply(random_action(c, rng))
    assert json.dumps(s.to_json(), sort_keys=True) == before
    _mutate_every_field(s.clone(), rng)
    assert json.dumps(s.to_json(), sort_keys=True) == before
    assert s.fingerprint() == fingerprint
    # and the original played on leaves an earlier copy alone
    c = s.clone()
    if not s.is_terminal:
        s.apply(random_action(s, rng))
    assert json.dumps(c.to_json(), sort_keys=True) == before


def test_clone_copies_every_container_of_the_turn():
    """``TurnContext.copy`` copies each of its list and dict fields (a new field of that kind
    must be added to ``context._CONTAINERS``)."""
    import dataclasses

    from wargame.memoir.context import _CONTAINERS, TurnContext

    ctx = TurnContext()
    mutable = {f.name for f in dataclasses.fields(ctx)
               if isinstance(getattr(ctx, f.name), list | dict | set)}
    assert mutable == set(_CONTAINERS)
    copy = ctx.copy()
    assert copy == ctx
    assert all(getattr(copy, n) is not getattr(ctx, n) for n in _CONTAINERS)


def test_bad_format_version_rejected():
    s = MemoirGame.from_scenario(1).new_state(0)
    data = s.to_json()
    data["format_version"] = 99
    with pytest.raises(ValueError):
        MemoirState.from_json(data)


def test_auto_policy_answers_pending_decisions():
    s = MemoirGame.from_scenario(14).new_state(4)
    rng = random.Random(4)
    answered = 0
    for _ in range(400):
        if s.is_terminal:
            break
        if s.pending:
            owner = s.side_to_act
            assert owner == s.pending[-1].owner
            s.apply(auto_action(s))
            answered += 1
        else:
            s.apply(random_action(s, rng))
    assert answered > 0


def test_events_have_text():
    s = MemoirGame.from_scenario(1).new_state(0)
    rng = random.Random(0)
    texts = []
    for _ in range(60):
        for e in s.apply(random_action(s, rng)):
            texts.append(e.text)
    assert texts and all(isinstance(t, str) and ":" not in t[:1] for t in texts)


@pytest.mark.parametrize("sid,seed", [("1", 0), ("3", 0), ("14", 2)])
def test_seeded_full_game_reaches_medal_victory(sid, seed):
    game = MemoirGame.from_scenario(sid)
    s = play_random(game, seed, 20_000)
    assert s.is_terminal and s.winner in (AXIS, ALLIES)
    assert s.win_reason == ""
    assert s.medals(s.winner) >= game.scenario.medals[s.winner]
    # and the transcript replays to the same end
    r, _ = MemoirState.replay(game, seed, s.history)
    assert r.winner == s.winner and r.to_json() == s.to_json()


@pytest.mark.parametrize("sid", SCENARIOS)
def test_every_scenario_plays_to_a_winner_and_replays(sid):
    """Acceptance: a seeded random-legal-action game of each of the 17 scenarios ends with a
    winner (medals, sudden death or Vassieux's exhausted deck), the invariants hold after
    every action, and the log of actions replays to the identical state and events."""
    game = MemoirGame.from_scenario(sid)
    seed = 11
    s = game.new_state(seed)
    rng = random.Random(seed)
    events = list(s.setup_events)
    for _ in range(30_000):
        if s.is_terminal:
            break
        events += s.apply(random_action(s, rng, aggressive=rng.random() < 0.8))
        check_invariants(s)
    assert s.is_terminal and s.winner in (AXIS, ALLIES)
    assert events[-1].kind == "victory" and events[-1].data["side"] == s.winner
    if not s.win_reason:
        assert s.medals(s.winner) >= game.scenario.medals[s.winner]
    r, replayed = MemoirState.replay(game, seed, s.history)
    assert replayed == events and r.to_json() == s.to_json()
    # and through JSON: a saved log replays the same
    log = json.loads(json.dumps([a.to_dict() for a in s.history]))
    r2, _ = MemoirState.replay(game, seed, [Action.from_dict(d) for d in log])
    assert r2.to_json() == s.to_json()


def test_each_state_keeps_its_own_positions_version():
    """The cache of who is where is keyed on a per-state version: a clone moving or killing a
    unit leaves the original's cache right, and units only change through their state."""
    import dataclasses

    s = MemoirGame.from_scenario(1).new_state(seed=2)
    u = s.live_units(ALLIES)[0]
    h = u.hex
    assert s.unit_at(h) is u
    c = s.clone()
    cu = c.units[u.id]
    c.place(cu, None)
    assert c.unit_at(h) is None and s.unit_at(h) is u
    c.place(cu, h)
    c.set_figures(cu, 0)
    assert c.unit_at(h) is None and s.unit_at(h) is u and u.figures > 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        u.hex = None


def test_format_1_saves_still_load():
    """A save written before the typed contexts (format 1: dict ctx and pending) loads into the
    same position as replaying its actions, and play goes on identically."""
    from pathlib import Path

    data = json.loads((Path(__file__).parent / "data" / "memoir44_format1_retreat.json")
                      .read_text())
    assert data["format_version"] == 1
    s = MemoirState.from_json(data)
    game = MemoirGame.from_scenario(data["scenario"])
    # written before dice had versions: its dice (and so its replay's) are version 1
    assert s.dice.version == 1
    r, _ = MemoirState.replay(game, data["seed"],
                              [Action.from_dict(a) for a in data["history"]], dice_version=1)
    assert s.to_json() == r.to_json()
    assert s.pending_decision is not None and s.pending_decision.kind == "retreat"
    assert s.ctx.moved and s.ctx.slots and s.pending[-1].then is not None
    rng = random.Random(1)
    for _ in range(80):
        if s.is_terminal:
            break
        a = random_action(s, rng)
        assert s.apply(a) == r.apply(a)
    assert s.to_json() == r.to_json()
