"""The Memoir '44 computer players "easy" (MemoirEasyPolicy) and "normal" (MemoirSearchPolicy):
legal play to the end, replayable games, choices that depend on the position alone, a search
that never reads the opponent's hand or the deck order, and easy beating random."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wargame.bots.memoir_easy import (
    EASY,
    EasyBrain,
    MemoirEasyPolicy,
    Weights,
    attack_value,
    decide,
    vacate_chance,
)
from wargame.bots.memoir_random import MemoirRandomPolicy, random_action
from wargame.bots.memoir_search import (
    CLOCK_CAUTION,
    NORMAL_WEIGHTS,
    MemoirSearchPolicy,
    determinise,
)
from wargame.bots.play import POLICY_NAMES, make_policy, play
from wargame.hexgrid import Hex
from wargame.memoir import MemoirGame, rules
from wargame.memoir.board import ALLIES, AXIS, other_side
from wargame.memoir.dice import hits_distribution
from wargame.saves import replay


def _fast_normal(seed: int = 0, **options) -> MemoirSearchPolicy:
    settings = {"iterations": 4, "width": 2, "max_seconds": 30.0} | options
    return MemoirSearchPolicy(seed, **settings)


class Checked:
    """A policy wrapper that checks every choice is one of the legal actions."""

    def __init__(self, policy) -> None:
        self.policy = policy
        self.count = 0

    def choose(self, state):
        a = self.policy.choose(state)
        assert a in state.legal_actions(), f"{a} is not legal in phase {state.phase}"
        self.count += 1
        return a


def _advance(state, n: int, seed: int = 0):
    """Play ``n`` random actions (a varied position), stopping at the end of the game."""
    rng = random.Random(seed)
    for _ in range(n):
        if state.winner:
            break
        state.apply(random_action(state, rng))
    return state


def _to_card_phase(state, side: str, seed: int = 0):
    rng = random.Random(seed)
    while not (state.phase == "card" and state.active == side and not state.pending):
        assert not state.winner
        state.apply(random_action(state, rng))
    return state


def test_policy_names_and_make_policy():
    game = MemoirGame.from_scenario("1")
    assert POLICY_NAMES["memoir"] == ("random", "easy", "normal", "hard")
    assert isinstance(make_policy(game, "easy", 3), MemoirEasyPolicy)
    assert isinstance(make_policy(game, "normal", 3), MemoirSearchPolicy)
    with pytest.raises(ValueError, match="expert"):
        make_policy(game, "expert", 0)


def test_attack_value_is_the_exact_kill_chance_plus_small_terms():
    # 3 dice at a 1-figure infantry unit: elimination = P(at least one hit) = 1 - (1/2)^3.
    p_kill = 1 - float(hits_distribution(3, "inf")[0])
    v = attack_value(3, "inf", 1, 1)
    assert p_kill <= v <= p_kill + 0.04 * 3
    assert attack_value(0, "inf", 4) == 0
    assert attack_value(2, "tank", 1, 2) > attack_value(2, "tank", 1, 1)


@pytest.mark.parametrize("sid", ["1", "overlord"])
def test_easy_plays_legally_to_the_end_and_the_game_replays(sid):
    game = MemoirGame.from_scenario(sid)
    state = game.new_state(5)
    policies = {ALLIES: Checked(MemoirEasyPolicy(5)), AXIS: Checked(MemoirRandomPolicy(6))}
    play(state, policies, max_actions=20_000)
    assert state.winner is not None
    again = replay(game, 5, state.action_log)
    assert again.fingerprint() == state.fingerprint()


@pytest.mark.parametrize("horizon,sid", [("battle", "1"), ("rollout", "9")])
def test_normal_plays_legally_to_the_end_and_the_game_replays(horizon, sid):
    game = MemoirGame.from_scenario(sid)
    state = game.new_state(2)
    policies = {ALLIES: Checked(MemoirEasyPolicy(1)),
                AXIS: Checked(_fast_normal(2, horizon=horizon))}
    play(state, policies, max_actions=20_000)
    assert state.winner is not None
    assert replay(game, 2, state.action_log).fingerprint() == state.fingerprint()


def test_easy_beats_random_on_fixed_seeds():
    won = 0
    games = 0
    for sid in ("2",):
        game = MemoirGame.from_scenario(sid)
        for seed in (0, 1):
            for side in (ALLIES, AXIS):
                state = game.new_state(seed)
                play(state, {side: MemoirEasyPolicy(seed),
                             other_side(side): MemoirRandomPolicy(seed + 1)}, 20_000)
                games += 1
                won += state.winner == side
    # 100% in the bench over every scenario; leave room for an unlucky game
    assert won >= games - 1, f"easy won {won} of {games} games against random"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sid=st.sampled_from(["1", "3", "5", "9", "overlord"]), steps=st.integers(0, 120),
       seed=st.integers(0, 10_000))
def test_easy_choice_is_legal_deterministic_and_explained(sid, steps, seed):
    state = _advance(MemoirGame.from_scenario(sid).new_state(seed), steps, seed)
    if state.winner:
        return
    before = state.fingerprint()
    policy = MemoirEasyPolicy(seed)
    a = policy.choose(state)
    assert a in state.legal_actions()
    assert policy.choose(state.clone()) == a  # the position alone decides
    assert MemoirEasyPolicy(seed + 1).choose(state) == a  # deterministic, seed unused
    why = policy.explain(state)
    assert why and "\n" not in why
    assert state.fingerprint() == before  # the policy never changes the state it reads


def test_easy_explains_a_card_play_with_its_odds():
    state = _to_card_phase(MemoirGame.from_scenario("1").new_state(4), AXIS, 4)
    a, why = decide(state)
    assert a.kind == "play"
    assert why.startswith("played ") and "medals" in why


def _swap_hidden(state, side: str, seed: int):
    """The same position with the other side's hand and the deck dealt differently."""
    other = state.clone()
    enemy = other_side(side)
    pool = other.hands[enemy] + other.deck
    random.Random(seed).shuffle(pool)
    n = len(other.hands[enemy])
    other.hands[enemy], other.deck = pool[:n], pool[n:]
    return other


@pytest.mark.parametrize("sid,steps,horizon,keep", [("1", 40, "battle", 0.0),
                                                    ("3", 60, "battle", 0.5),
                                                    ("1", 40, "rollout", 0.0),
                                                    ("3", 60, "rollout", 0.0),
                                                    ("1", 40, "hard", 0.0),
                                                    ("3", 60, "hard", 0.0)])
def test_normal_never_reads_the_hidden_cards(sid, steps, horizon, keep):
    """Normal, and hard (issue #33: its search of the turn and the reply)."""
    state = _advance(MemoirGame.from_scenario(sid).new_state(9), steps, 9)
    side = state.active
    state = _to_card_phase(state, side, 9)
    if horizon == "hard":
        from wargame.bots.memoir_hard import MemoirHardPolicy

        policy = MemoirHardPolicy(11, playouts=6, max_seconds=60.0)
    else:
        policy = _fast_normal(11, horizon=horizon, keep=keep)
    a = policy.choose(state)
    assert a in state.legal_actions()
    for k in range(3):
        other = _swap_hidden(state, side, k)
        assert other.hands[other_side(side)] != state.hands[other_side(side)] or k
        assert policy.choose(other) == a
        assert policy.explain(other) == policy.explain(state)


@pytest.mark.parametrize("horizon", ["battle", "rollout"])
def test_normal_is_deterministic_and_leaves_the_state_alone(horizon):
    state = _to_card_phase(MemoirGame.from_scenario("2").new_state(3), ALLIES, 3)
    before = state.fingerprint()
    draws = state.dice.draws
    a = _fast_normal(7, horizon=horizon).choose(state)
    assert _fast_normal(7, horizon=horizon).choose(state.clone()) == a
    assert state.fingerprint() == before and state.dice.draws == draws
    why = _fast_normal(7, horizon=horizon).explain(state)
    assert "sampled deals" in why or "only" in why


def test_determinise_keeps_sizes_and_the_known_cards():
    state = MemoirGame.from_scenario("1").new_state(0)
    side = state.active
    enemy = other_side(side)
    w = determinise(state, side, random.Random(1))
    assert w.hands[side] == state.hands[side]
    assert w.discard == state.discard
    assert len(w.hands[enemy]) == len(state.hands[enemy]) and len(w.deck) == len(state.deck)
    assert sorted(w.hands[enemy] + w.deck) == sorted(state.hands[enemy] + state.deck)
    assert w.dice.seed != state.dice.seed or w.dice.draws == 0


def test_normal_refuses_unknown_settings_naming_them():
    with pytest.raises(ValueError, match="horizon"):
        MemoirSearchPolicy(0, horizon="forever")
    with pytest.raises(ValueError, match="cut"):
        MemoirSearchPolicy(0, horizon="rollout", cut="guess")
    with pytest.raises(ValueError, match="turns"):
        MemoirSearchPolicy(0, horizon="rollout", turns=0)


def test_weights_scale_the_threat_and_the_pull_and_change_choices():
    """Normal scores with its own weights (``NORMAL_WEIGHTS``: threats shared among their
    targets, more pull toward the enemy, measured in docs/bots.md): the scoring terms follow
    the weights, easy's default is unchanged, and over a game the two sets choose differently
    somewhere."""
    state = _advance(MemoirGame.from_scenario("1").new_state(4), 30, 4)
    u = next(iter(state.live_units(state.active)))
    easy, double = EasyBrain(state), EasyBrain(state, Weights(threat=2 * EASY.threat))
    hexes = [h for h in state.board.all_hexes() if state.unit_at(h) is None][:60]
    threats = [(easy.threat(state, u, h), double.threat(state, u, h)) for h in hexes]
    assert any(t > 0 for t, _ in threats)
    assert all(d == pytest.approx(2 * t) for t, d in threats)
    assert EasyBrain(state, Weights(threat=0.0)).threat(state, u, hexes[0]) == 0.0
    assert attack_value(3, "inf", 2, 1, False, 0.5, 0.0) > attack_value(3, "inf", 2, 1)
    assert NORMAL_WEIGHTS.threat_share and NORMAL_WEIGHTS.advance > EASY.advance
    game = MemoirGame.from_scenario("2")
    state = game.new_state(1)
    differ = 0
    while not state.winner and len(state.history) < 400:
        a = decide(state)[0]
        assert decide(state, EASY)[0] == a
        differ += decide(state, NORMAL_WEIGHTS)[0] != a
        state.apply(a, validate=False)
    assert differ > 0


def test_blocked_retreats_cost_figures_for_normal_and_not_for_easy():
    """M44 p.12 Retreat: a flag the unit has no room to retreat for costs a figure. Normal's
    weights count it (``retreat_room``: the room a unit has, from the engine's own retreat),
    easy's do not (every flag a mere push, as before)."""
    # one die at a 1-figure infantry unit: a hit 1/2 (two infantry faces and the grenade),
    # a flag 1/6; with no room to retreat the flag eliminates it too
    assert attack_value(1, "inf", 1, 1, room=0) == pytest.approx(1 / 2 + 1 / 6)
    assert attack_value(1, "inf", 1, 1) == pytest.approx(1 / 2 + EASY.flag / 6)
    # two dice at a 2-figure unit with room for one flag: a hit and a flag, or two flags, kill
    two = attack_value(2, "inf", 2, 1, room=1)
    assert two > attack_value(2, "inf", 2, 1) and two < attack_value(2, "inf", 2, 1, room=0)
    assert NORMAL_WEIGHTS.retreat_room and not EASY.retreat_room
    state = MemoirGame.from_scenario("5").new_state(0)  # Omaha: the Allies land from the sea
    normal, easy = EasyBrain(state, NORMAL_WEIGHTS), EasyBrain(state)
    rooms = {u.id: normal.room(state, u) for u in state.live_units(None)}
    for u in state.live_units(None):
        assert easy.room(state, u) >= 99
        ignore = 1 if rules.ignorable_flags(state._terrain(), u.hex, u.side) else 0
        for flags in (1, 2, 3):  # the engine's own retreat: a figure for each missing step
            assert state.retreat_options(u, flags)[1] == max(0, flags - (rooms[u.id] - ignore))
    landed = [u for u in state.live_units(ALLIES) if state.board.terrain(u.hex) == "ocean"]
    assert landed and all(rooms[u.id] == 0 for u in landed)
    assert any(r > 0 for r in rooms.values())
    # so normal values a shot at a unit in the sea more than easy does
    target = landed[0]
    shooter = next(iter(state.live_units(AXIS)))
    assert normal.battle_value(state, shooter, target, 2) > easy.battle_value(
        state, shooter, target, 2)


def test_armour_threatens_from_farther_for_normal_than_for_easy():
    """M44 p.8-9: armour moves up to 3 hexes and still battles, special forces 2, other
    infantry 1. Normal's threats (``threat_reach``) count that; easy's count one hex of
    movement for every unit, as before."""
    state = MemoirGame.from_scenario("2").new_state(0)  # one Axis tank
    tank = next(u for u in state.live_units(AXIS) if u.kind == "tank")
    for e in state.live_units(AXIS):
        if e is not tank:
            state.set_figures(e, 0)  # the tank alone threatens
    target = next(iter(state.live_units(ALLIES)))
    reach = EasyBrain(state, Weights(threat_reach=True))
    easy = EasyBrain(state)
    assert NORMAL_WEIGHTS.threat_reach and not EASY.threat_reach
    by_distance: dict[int, list[tuple[float, float]]] = {}
    for h in state.board.all_hexes():
        if state.unit_at(h) is None:
            pair = (easy.threat(state, target, h), reach.threat(state, target, h))
            by_distance.setdefault(tank.hex.distance(h), []).append(pair)
    assert all(r >= e for pairs in by_distance.values() for e, r in pairs)
    # 5 and 6 hexes away: out of easy's reckoning, in normal's (3 hexes of movement)
    for d in (5, 6):
        assert all(e == 0 for e, _ in by_distance[d]) and any(r > 0 for _, r in by_distance[d])
    assert all(r == 0 for _, r in by_distance[7])
    # 2 hexes away both count the tank's 3 dice
    assert all(e == pytest.approx(r) for e, r in by_distance[2])


def _skirmish(sid: str, keep: dict[int, tuple]):
    """Scenario ``sid`` with only the units of ``keep`` (id -> hex) left, placed there."""
    state = MemoirGame.from_scenario(sid).new_state(0)
    for u in state.live_units(None):
        if u.id not in keep:
            state.set_figures(u, 0)
    for uid, h in keep.items():
        state.place(state.units[uid], h)
    return state


def _plain_line(state, n: int):
    """``n`` plain hexes in a straight line, each next to the one before (Arracourt)."""
    plain = {h for h in state.board.all_hexes() if state.board.terrain(h) == "plain"}
    for a in sorted(plain):
        for b in sorted(a.neighbours()):
            line = [a, b]
            while len(line) < n:
                nxt = Hex(2 * line[-1].q - line[-2].q, 2 * line[-1].r - line[-2].r)
                if nxt not in plain:
                    break
                line.append(nxt)
            if len(line) == n and all(h in plain for h in line):
                return line
    raise AssertionError("no plain line")


def test_vacate_chance_is_exact():
    """The chance a battle empties the target's hex (M44 p.12 Retreat, p.13 Take Ground): one
    die hits infantry 1/2 and flags it 1/6."""
    assert vacate_chance(1, "inf", 4, 3, 0) == pytest.approx(1 / 6)  # pushed back
    assert vacate_chance(1, "inf", 4, 0, 0) == 0.0  # nowhere to go: it stays and loses one
    assert vacate_chance(1, "inf", 4, 3, 1) == 0.0  # sandbags: the one flag is ignored
    assert vacate_chance(1, "inf", 1, 0, 0) == pytest.approx(1 / 2 + 1 / 6)  # eliminated
    assert vacate_chance(1, "inf", 1, 3, 0) == pytest.approx(1 / 2 + 1 / 6)
    assert vacate_chance(0, "inf", 1, 3, 0) == 0.0


def test_armour_close_assault_counts_its_overrun_for_normal():
    """M44 p.13 Armor Overrun: a tank whose close assault empties the hex may take it and
    battle again. With ``Weights.overrun`` (normal) the close assault is worth the chance of
    emptying the hex times the best battle from it; easy does not count it."""
    probe = MemoirGame.from_scenario("14").new_state(0)
    a, b, c = _plain_line(probe, 3)
    tank = next(u for u in probe.live_units(ALLIES) if u.kind == "tank")
    inf = next(u for u in probe.live_units(ALLIES) if u.kind == "inf")
    target, other = [u for u in probe.live_units(AXIS) if u.kind == "inf"][:2]
    state = _skirmish("14", {tank.id: a, inf.id: a, target.id: b, other.id: c})
    state.set_figures(state.units[inf.id], 0)
    tank, target = state.units[tank.id], state.units[target.id]
    over = EasyBrain(state, Weights(overrun=True, retreat_room=True))
    plain = EasyBrain(state, Weights(retreat_room=True))
    assert NORMAL_WEIGHTS.overrun and not EASY.overrun
    bonus = over.overrun_value(state, tank, target, 3)
    steps, ignore = over.retreat_room(state, target)
    # the overrun battle from b at the other infantry, next to it: the tank's 3 dice
    follow = over.value(3, "inf", 4, room=over.room(state, state.units[other.id]))
    assert bonus == pytest.approx(vacate_chance(3, "inf", 4, steps, ignore) * follow)
    assert bonus > 0
    assert over.battle_value(state, tank, target, 3) == pytest.approx(
        plain.battle_value(state, tank, target, 3) + bonus)
    assert EasyBrain(state).overrun_value(state, tank, target, 3) == 0.0
    state.ctx.overrun.append(tank.id)  # one overrun a turn
    assert over.overrun_value(state, tank, target, 3) == 0.0
    state.ctx.overrun.clear()
    state.set_figures(state.units[other.id], 0)  # nobody left to overrun
    assert over.overrun_value(state, tank, target, 3) == 0.0


def test_infantry_close_assault_has_no_overrun():
    probe = MemoirGame.from_scenario("14").new_state(0)
    a, b, c = _plain_line(probe, 3)
    inf = next(u for u in probe.live_units(ALLIES) if u.kind == "inf")
    target, other = [u for u in probe.live_units(AXIS) if u.kind == "inf"][:2]
    state = _skirmish("14", {inf.id: a, target.id: b, other.id: c})
    over = EasyBrain(state, Weights(overrun=True))
    assert over.overrun_value(state, state.units[inf.id], state.units[target.id], 3) == 0.0


def test_threat_share_splits_an_enemys_battle_among_its_targets():
    """M44 p.9 Battle: a unit battles once a turn. With ``Weights.threat_share`` (normal) an enemy's
    threat is shared among the units it could battle, in proportion to what each battle is
    worth; easy counts it in full against each."""
    probe = MemoirGame.from_scenario("14").new_state(0)
    line = _plain_line(probe, 5)
    enemy = next(u for u in probe.live_units(AXIS) if u.kind == "inf")
    first, second = [u for u in probe.live_units(ALLIES) if u.kind == "inf"][:2]
    # the enemy infantry in the middle, ours 2 hexes away on either side, in the open
    state = _skirmish("14", {enemy.id: line[2], first.id: line[0], second.id: line[4]})
    shared = EasyBrain(state, Weights(threat_share=True))
    full = EasyBrain(state)
    assert NORMAL_WEIGHTS.threat_share and not EASY.threat_share
    u1, u2 = state.units[first.id], state.units[second.id]
    t1, t2 = full.threat(state, u1, u1.hex), full.threat(state, u2, u2.hex)
    assert t1 == pytest.approx(t2) and t1 > 0
    assert shared.threat(state, u1, u1.hex) == pytest.approx(t1 / 2)
    # alone, a unit takes the whole threat
    state.set_figures(u2, 0)
    alone = EasyBrain(state, Weights(threat_share=True))
    assert alone.threat(state, u1, u1.hex) == pytest.approx(t1)
    # the weaker of two targets draws the larger share: the enemy fires where it kills
    state.set_figures(u2, 4)
    state.set_figures(u1, 1)
    weak = EasyBrain(state, Weights(threat_share=True))
    lone = EasyBrain(state)
    s1 = weak.threat(state, u1, u1.hex) / lone.threat(state, u1, u1.hex)
    s2 = weak.threat(state, u2, u2.hex) / lone.threat(state, u2, u2.hex)
    assert s1 > 0.5 > s2 and s1 + s2 == pytest.approx(1.0)


def test_the_side_with_time_on_its_side_plays_for_time():
    """Vassieux (scenario 7): the Axis wins when the deck runs out. Normal playing the Axis
    there weighs threats ``CLOCK_CAUTION`` times and feels no pull toward the enemy; the
    Allies, and every side of a scenario without that rule, keep normal's weights."""
    state = MemoirGame.from_scenario("7").new_state(0)
    assert state.scenario.opt("deck_exhausted_winner") == AXIS
    policy = MemoirSearchPolicy(0)
    state = _to_card_phase(state, AXIS)
    w = policy.weights_for(state)
    assert w.threat == pytest.approx(CLOCK_CAUTION * NORMAL_WEIGHTS.threat) and w.advance == 0
    assert MemoirSearchPolicy(0, clock=False).weights_for(state) == NORMAL_WEIGHTS
    policy.choose(state)
    assert policy.w == w  # the decision was scored with them
    state = _to_card_phase(state, ALLIES)
    assert policy.weights_for(state) == NORMAL_WEIGHTS
    other = _to_card_phase(MemoirGame.from_scenario("5").new_state(0), AXIS)
    assert policy.weights_for(other) == NORMAL_WEIGHTS
