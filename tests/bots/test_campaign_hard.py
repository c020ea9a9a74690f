"""The hard campaign player (wargame/bots/campaign_hard.py) and its evaluation in victory
points (wargame/bots/campaign_eval.py): legal, deterministic, blind to the enemy's hidden
values (CN/OD 5.1.1), and it holds a victory city that the greedy player leaves open."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import small_scenario, unit
from wargame.bots.campaign_eval import (
    Belief,
    attack_value,
    estimated_values,
    step_vp,
    vp_margin,
)
from wargame.bots.campaign_hard import HardPolicy, threat_map
from wargame.bots.greedy import GreedyPolicy
from wargame.bots.play import POLICY_NAMES, make_policy
from wargame.hexgrid import Hex
from wargame.operational.actions import EndPhase, Move
from wargame.operational.state import Game, Phase


def H(hid: str) -> Hex:
    return Hex.from_id(hid)


VICTORY = [{"kind": "city", "place": "Town", "points": {"allied": 20, "axis": 20}},
           {"kind": "destroyed", "side": "axis", "scorer": "allied", "points": 2,
            "forgive_third": True},
           {"kind": "destroyed", "side": "allied", "scorer": "axis", "points": 10}]


def open_town() -> Game:
    """An empty German town (0805) five hexes from an Allied armoured unit on a road-less open
    map; one German unit next to the town."""
    return Game(small_scenario(
        units=[unit("us-arm", "allied", "armour", a=5, d=4, m=15),
               unit("de1", "axis", a=2, d=3, m=6)],
        setup={"us-arm": "0305", "de1": "0905"},
        places={"Town": ["0805"]}, terrain={"0805": "city"},
        rules={"victory": VICTORY},
    ))


def to_axis_movement(state):
    while state.phase is not Phase.AXIS_MOVEMENT:
        state.apply(EndPhase())
    return state


def finish_phase(state, policy, limit=200):
    phase, chosen = (state.turn, state.phase), []
    while (state.turn, state.phase) == phase and not state.is_terminal:
        assert len(chosen) < limit, "the player never ends its phase"
        action = policy.choose(state)
        assert state.is_legal(action), action
        state.apply(action)
        chosen.append(action)
    return chosen


# the evaluation (CN/OD 11.2) ---------------------------------------------------------------
def test_vp_margin_is_the_score_difference_and_steps_cost_what_11_2_says():
    state = open_town().new_state(1)
    state.control[H("0805")] = "axis"
    vp = state.victory_points()
    assert vp_margin(state, "axis") == vp["axis"] - vp["allied"] == 20
    assert vp_margin(state, "allied") == -20
    # CN 11.2.2: an Allied unit destroyed gives the Axis 10 points, so an Allied step is worth
    # half of it plus its material worth; a German one 2 less the third forgiven (11.2.2)
    assert step_vp(state, "allied") > step_vp(state, "axis") - 4
    assert step_vp(state, "allied") == pytest.approx(10 / 2 + 2.0)
    assert step_vp(state, "axis") == pytest.approx(2 * 2 / 3 / 2 + 4.0)


def test_attack_value_counts_steps_and_the_city_the_defender_leaves():
    state = open_town().new_state(1)
    state.control[H("0805")] = "axis"
    atk, dfn = ("us-arm",), ["de1"]
    de = {"DE": Fraction(1)}
    assert attack_value(state, "allied", de, atk, dfn, H("0905")) == pytest.approx(
        2 * step_vp(state, "axis"))
    # the same result against the town is worth its points to both sides besides
    in_town = attack_value(state, "allied", de, atk, dfn, H("0805"))
    assert in_town > attack_value(state, "allied", de, atk, dfn, H("0905"))
    assert attack_value(state, "allied", {"DVI AE": Fraction(1)}, atk, dfn, H("0905")) == \
        pytest.approx(-2 * step_vp(state, "allied"))


def test_belief_uses_the_counter_mix_not_the_hidden_values():
    """CN/OD 5.1.1: the attacker may not check the defence of the units he attacks. A German
    unit with values unlike the other Germans of its type is seen at the type's mean."""
    game = Game(small_scenario(
        units=[unit("us", "allied", a=3, d=4, m=8),
               unit("de-weak", "axis", a=1, d=1, m=6), unit("de-a", "axis", a=3, d=5, m=6),
               unit("de-b", "axis", a=2, d=3, m=6)],
        setup={"us": "0305", "de-weak": "0505", "de-a": "0808", "de-b": "0909"}))
    state = game.new_state(1)
    belief = Belief(state, "allied")
    assert estimated_values(state, "de-weak")[:2] == pytest.approx((2.0, 3.0))
    assert belief.defence_of("de-weak") == 3 != state.defence_of("de-weak")
    assert belief.attack_of("us") == state.attack_of("us")  # its own units: the true values
    seen = belief.preview_attack("0505", ("us",))
    assert (seen.attack, seen.defence) == (3, 3)
    assert state.preview_attack("0505", ("us",)).defence == 1
    # the threat the Axis sees comes from the believed attack of the Allied units in reach
    assert threat_map(Belief(state, "axis"), "axis", [H("0505"), H("0909")]) == {
        H("0505"): 3, H("0909"): 0}


# the player ------------------------------------------------------------------------------
def test_hard_axis_garrisons_the_open_town_that_greedy_leaves():
    """The greedy Axis advances towards the enemy unit and leaves the town empty, so an
    armoured unit passing through takes it (control: the side that last entered,
    docs/rules-notes.md); the hard Axis puts its unit in the town, and the town is German
    after the Allies' next turn."""
    greedy_state = to_axis_movement(open_town().new_state(1))
    finish_phase(greedy_state, GreedyPolicy())
    assert greedy_state.units["de1"].hex != H("0805")

    state = to_axis_movement(open_town().new_state(1))
    hard = HardPolicy(seed=3)
    moves = finish_phase(state, hard)
    assert Move("de1", "0805") in moves
    assert state.units["de1"].hex == H("0805")
    allies = GreedyPolicy()
    finish_phase(state, hard)  # the Axis combat phase: nobody to attack
    finish_phase(state, allies)  # the Allied movement: cannot pass through a held town
    assert state.control.get(H("0805")) == "axis"


def test_hard_axis_on_dominant_ground_stays_and_owes_no_attack():
    """CN 4.1.2: a unit that began engaged, did not move and holds dominant terrain (a town,
    2 columns, against open ground) need not attack nor break contact."""
    game = Game(small_scenario(
        units=[unit("us1", "allied", a=6, d=6, m=6), unit("us2", "allied", a=6, d=6, m=6),
               unit("de1", "axis", a=2, d=3, m=6)],
        setup={"us1": "0705", "us2": "0706", "de1": "0805"},
        places={"Town": ["0805"]}, terrain={"0805": "city"},
        rules={"victory": VICTORY}))
    state = game.new_state(1)
    state.apply(EndPhase())
    state.must_attack.clear()  # the Allies' own obligation (4.1.2) is not this test's subject
    state.apply(EndPhase())
    state.control[H("0805")] = "axis"
    assert state.phase is Phase.AXIS_MOVEMENT and state.units["de1"].started_engaged
    moves = finish_phase(state, HardPolicy())
    assert moves == [EndPhase()]
    assert "de1" not in state.must_attack
    assert finish_phase(state, HardPolicy()) == [EndPhase()]


def test_hard_is_in_the_registry_and_plays_a_legal_deterministic_dragoon_turn():
    assert "hard" in POLICY_NAMES["campaign"]
    game = Game("dragoon")
    logs = []
    for _ in range(2):
        state = game.new_state(7)
        policies = {"allied": make_policy(game, "hard", 1), "axis": make_policy(game, "hard", 2)}
        while state.turn < 3 and not state.is_terminal:
            action = policies[state.side_to_act].choose(state)
            assert state.is_legal(action), action
            state.apply(action)
        logs.append(state.action_log)
    assert logs[0] == logs[1]
    kinds = {a["kind"] for a in logs[0]}
    assert {"move", "attack", "enter"} <= kinds


def test_a_fresh_hard_player_plays_the_phase_it_would_have_played():
    """Its bookkeeping is a cache keyed by the position (as greedy's): a new player on the
    phase's first position plays the same phase."""
    game = Game("dragoon")
    state = game.new_state(11)
    bot = HardPolicy()
    while state.phase is not Phase.AXIS_MOVEMENT or state.turn < 2:
        state.apply(bot.choose(state))
    a, b = state.clone(), state.clone()
    assert finish_phase(a, HardPolicy()) == finish_phase(b, bot)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_whatever_the_position_the_hard_choice_is_legal(seed, steps):
    """Property: after ``steps`` random actions of a Dragoon game, the hard player's choice for
    the side to act (or the pending decision) is legal and leaves the state unchanged."""
    game = Game("dragoon")
    state = game.new_state(seed)
    rnd = make_policy(game, "random", seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rnd.choose(state))
    if state.is_terminal:
        return
    before = state.fingerprint()
    action = HardPolicy(seed).choose(state)
    assert state.fingerprint() == before
    assert state.is_legal(action), action
