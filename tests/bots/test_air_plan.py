"""The air-point optimiser (wargame/bots/air_plan.py): exact on value tables (against brute
force), never below the bot's sequential way, legal on a real Dragoon position."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargame.bots.air_plan import (
    PlannedAttack,
    air_amounts,
    optimise_air,
    sequential_air,
    value_table,
)
from wargame.bots.play import make_policy
from wargame.games import open_game
from wargame.operational.actions import Attack
from wargame.operational.state_types import Phase

AMOUNTS = [0, 1, 2, 3, 4]


def _attacks(n: int) -> tuple[PlannedAttack, ...]:
    return tuple(PlannedAttack(f"{1000 + i}", (f"u{i}",)) for i in range(n))


tables = st.lists(
    st.dictionaries(st.sampled_from(AMOUNTS[1:]), st.floats(0, 5, allow_nan=False), max_size=4)
    .map(lambda d: {0: 0.0, **d}), min_size=0, max_size=4)


def _brute(rows, points):
    best = 0.0
    for combo in itertools.product(*[list(r) for r in rows]):
        if sum(combo) <= points:
            best = max(best, sum(r[a] for r, a in zip(rows, combo, strict=True)))
    return best


@settings(max_examples=150, deadline=None)
@given(rows=tables, points=st.integers(0, 10))
def test_the_programme_is_exact_and_never_below_the_sequential_way(rows, points):
    attacks = _attacks(len(rows))
    plan = optimise_air(None, attacks, points, table=rows)
    assert plan.spent <= points
    assert all(a in row for a, row in zip(plan.allocation, rows, strict=True))
    assert plan.value == pytest.approx(_brute(rows, points), abs=1e-9)
    seq = sequential_air(None, attacks, points, table=rows)
    assert seq.spent <= points and plan.value >= seq.value - 1e-9


def test_equal_values_spend_fewer_points():
    # a point that buys nothing is kept (CN/OD 6.1: it may still serve in the enemy's phase)
    rows = [{0: 0.0, 2: 1.0, 3: 1.0}, {0: 0.0, 2: 0.5, 4: 0.5}]
    plan = optimise_air(None, _attacks(2), 7, table=rows)
    assert plan.allocation == (2, 2) and plan.value == 1.5


def test_the_sequential_way_can_waste_points_on_the_first_attack():
    # the first attack takes 4 points for a little more; the second, worth far more, gets none
    rows = [{0: 0.0, 2: 1.0, 4: 1.2}, {0: 0.0, 2: 2.0}]
    seq = sequential_air(None, _attacks(2), 4, table=rows)
    best = optimise_air(None, _attacks(2), 4, table=rows)
    assert seq.allocation == (4, 0) and best.allocation == (2, 2)
    assert best.value - seq.value == pytest.approx(1.8)


def test_bad_objective_and_points_are_refused():
    with pytest.raises(ValueError, match="objective"):
        value_table(None, [], 3, objective="glory")
    with pytest.raises(ValueError, match="points"):
        optimise_air(None, _attacks(1), -1, table=[{0: 0.0}])


@pytest.fixture(scope="module")
def dragoon_combat():
    """The first Allied combat phase of a greedy Dragoon game (OD 3.0), before any attack."""
    game = open_game("dragoon")
    state = game.new_state(5)
    bot = make_policy(game, "greedy")
    while not (state.phase is Phase.ALLIED_COMBAT and state.pending_decision is None):
        state.apply(bot.choose(state))
    return state


def _two_targets(state):
    by_target = {}
    for a in state.legal_actions():
        if isinstance(a, Attack):
            by_target.setdefault(a.target, a)
    assert len(by_target) >= 2, "the position should offer attacks on two hexes"
    return [PlannedAttack(a.target, a.attackers, a.artillery) for a in by_target.values()][:3]


@pytest.mark.parametrize("objective", ["steps", "clear"])
def test_a_real_position_gets_a_legal_plan_at_least_as_good_as_any_single_strike(
        dragoon_combat, objective):
    state = dragoon_combat
    attacks = _two_targets(state)
    points = state.air_points["allied"]
    assert points > 0  # OD 6.1: the Allies have air points on turn 1
    table = value_table(state, attacks, objective=objective)
    plan = optimise_air(state, attacks, objective=objective)
    assert plan.points == points and plan.spent <= points
    # the rules' bounds per strike (OD 6.2)
    allowed = set(air_amounts(state, "allied"))
    assert set(plan.allocation) <= allowed
    # every one-attack-takes-it-all alternative is no better
    for k, row in enumerate(table):
        for v in row.values():
            others = sum(r[0] for j, r in enumerate(table) if j != k)
            assert plan.value >= v + others - 1e-9
    # the engine accepts the attacks with the plan's points, in order, on a copy
    trial = state.clone()
    before = trial.fingerprint()
    for attack, air in zip(attacks, plan.allocation, strict=True):
        if trial.phase is not Phase.ALLIED_COMBAT or trial.pending_decision is not None:
            break
        trial.apply(Attack(attack.target, attack.attackers, attack.artillery, air))
    assert trial.fingerprint() != before and state.fingerprint() == before


def test_no_air_power_turns_give_no_air():
    game = open_game("normandy")
    state = game.new_state(1)
    no_air = sorted(state.game.tables.air.no_air_turns)
    assert no_air, "CN 6.0: Normandy has turns without air power"
    state.turn = no_air[0]
    assert air_amounts(state, "allied") == [0]  # CN 6.0


def test_planned_attacks_carry_the_guns_that_may_fire(dragoon_combat):
    from wargame.bots.air_plan import planned_attack
    from wargame.hexgrid import Hex

    state = dragoon_combat
    for a in state.legal_actions():
        if not isinstance(a, Attack):
            continue
        p = planned_attack(state, a)
        assert p.target == a.target and p.attackers == tuple(a.attackers)
        if not state.guerrilla_supported(a.attackers):
            assert p.artillery == ()  # OD 10.0
            continue
        # CN/OD 8.0: every gun in range that is not attacking, none that is
        in_range = set(state.artillery_in_range("allied", Hex.from_id(a.target)))
        assert set(p.artillery) == in_range - set(a.attackers)
