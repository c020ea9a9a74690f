"""BFN 19.1 (battleships) and 19.2 (82nd and 101st Airborne): the d6 procedure, its exact
distribution, and its effects in the engine (CN 10.0's naval column, CN 4.2.2's turn 13)."""

from datetime import date
from fractions import Fraction

from wargame.dice import Dice
from wargame.hexgrid import Hex
from wargame.operational.variants import (
    effective_turn,
    roll_withdrawal_day,
    withdrawal_check,
)

from .conftest import LoadedDice, game, load


def test_withdrawal_check_d6_plus_days_since_30_june():
    assert withdrawal_check(date(1944, 6, 30), LoadedDice([6])) == (True, 6)
    assert withdrawal_check(date(1944, 6, 30), LoadedDice([5])) == (False, 5)
    assert withdrawal_check(date(1944, 7, 1), LoadedDice([5])) == (True, 5)    # 5 + 1
    assert withdrawal_check(date(1944, 7, 1), LoadedDice([4])) == (False, 4)
    assert withdrawal_check(date(1944, 7, 4), LoadedDice([2])) == (True, 2)    # 2 + 4
    assert withdrawal_check(date(1944, 7, 4), LoadedDice([1])) == (False, 1)
    assert withdrawal_check(date(1944, 6, 29), LoadedDice([6])) == (False, None)  # not yet
    dice = LoadedDice([])
    assert withdrawal_check(date(1944, 7, 5), dice) == (True, None)            # automatic
    assert dice.draws == 0


def test_the_procedure_stops_at_the_first_success():
    dice = LoadedDice([1, 1, 1, 1, 1])
    assert roll_withdrawal_day(dice) == date(1944, 7, 5)
    assert dice.draws == 5
    dice = LoadedDice([2, 5])   # 30 June 2+0, 1 July 5+1
    assert roll_withdrawal_day(dice) == date(1944, 7, 1)
    assert dice.draws == 2


def _naval(state, hid):
    return state.naval_support_columns(Hex.from_id(hid), ())


def test_naval_support_after_the_battleships_leave_only_in_the_british_sector():
    """BFN 19.1 exempts the British ships: CN 10.0's column stays off Gold, Juno and Sword,
    and is gone off Utah and Omaha and at Cherbourg from the turn after the withdrawal."""
    base = game().new_state(1)
    var = game("bfn-19.1").new_state(1)
    omaha, gold, cherbourg = "1810", "2511", "0603"
    for s in (base, var):
        s.turn = 9
    assert [_naval(base, h) for h in (omaha, gold, cherbourg)] == [1, 1, 1]
    assert [_naval(var, h) for h in (omaha, gold, cherbourg)] == [1, 1, 1]  # not rolled yet
    var.flags.setdefault("bfn", {})["battleships"] = "1944-06-30"
    assert [_naval(var, h) for h in (omaha, gold, cherbourg)] == [0, 1, 0]
    var.turn = 8   # 28-30 June: the ships were still there
    assert [_naval(var, h) for h in (omaha, gold, cherbourg)] == [1, 1, 1]
    var.turn = 16
    assert [_naval(var, h) for h in (omaha, gold, cherbourg)] == [0, 1, 0]


def test_the_engine_rolls_the_battleships_each_day_from_30_june():
    s = game("bfn-19.1").new_state(1)
    s.turn = 9
    load(s, 5)   # 30 June: 5 + 0, they stay
    s._start_turn()
    assert "battleships" not in s.flags["bfn"]
    assert s.dice.draws == 1
    s.turn = 10
    load(s, 1, 1, 4)   # 1 July 1+1, 2 July 1+2, 3 July 4+3: gone
    s._start_turn()
    assert s.flags["bfn"]["battleships"] == "1944-07-03"
    assert s.dice.draws == 3
    assert _naval(s, "1810") == 0 and _naval(s, "2511") == 1
    s.turn = 11
    load(s)
    s._start_turn()
    assert s.dice.draws == 0  # nothing left to roll
    events = [e for e in s.events if e.rule == "BFN 19.1"]
    assert events and "leave" in events[-1].text


def _division(state, div):
    return [u for u, d in state.game.units.items() if d.division == div]


def test_airborne_divisions_leave_on_their_own_rolled_days():
    s = game("bfn-19.2").new_state(1)
    s.turn = 9
    load(s, 6, 1)   # 30 June: the 82nd rolls 6 (gone), the 101st 1
    s._start_turn()
    assert s.flags["bfn"]["airborne"] == {"us-82": "1944-06-30"}
    for u in _division(s, "us-82"):
        us = s.units[u]
        assert us.status == "withdrawn" or (us.status == "on_map" and s.encircled(us.hex, "allied"))
    assert any(s.units[u].status == "withdrawn" for u in _division(s, "us-82"))
    assert all(s.units[u].status != "withdrawn" for u in _division(s, "us-101"))


def test_airborne_withdrawal_replaces_cn_turn_13():
    var = game("bfn-19.2").new_state(1)
    base = game().new_state(1)
    on_map = [u for u in _division(base, "us-101") if base.units[u].status == "on_map"]
    assert on_map
    var.turn = 9
    load(var, 1, 1)
    var._start_turn()
    var.turn = 10
    load(var, 1, 1, 1, 1, 1, 1)   # 1-3 July: both stay (1 + 3 < 6)
    var._start_turn()
    assert all(var.units[u].status == "on_map" for u in on_map)
    var.turn = 11
    load(var, 1, 2)   # 4 July: the 82nd 1+4 stays, the 101st 2+4 goes; 5 July: the 82nd automatically
    var._start_turn()
    assert var.flags["bfn"]["airborne"] == {"us-101": "1944-07-04", "us-82": "1944-07-05"}
    assert var.dice.draws == 2
    assert effective_turn(date(1944, 7, 5)) == 11
    assert all(var.units[u].status == "withdrawn" or var.encircled(var.units[u].hex, "allied") for u in on_map)
    for turn in (11, 12):   # CN 4.2.2: still there until turn 13
        base.turn = turn
        base._start_turn()
        assert all(base.units[u].status == "on_map" for u in on_map)
    base.turn = 13
    base._start_turn()
    assert any(base.units[u].status == "withdrawn" for u in on_map)


def test_exact_withdrawal_day_distribution_against_the_rule_text():
    from wargame.analysis.variants import withdrawal_day_probabilities

    p = withdrawal_day_probabilities()
    s = Fraction(1, 6)
    expected = {
        date(1944, 6, 30): s,
        date(1944, 7, 1): (1 - s) * 2 * s,
        date(1944, 7, 2): (1 - s) * (1 - 2 * s) * 3 * s,
        date(1944, 7, 3): (1 - s) * (1 - 2 * s) * (1 - 3 * s) * 4 * s,
        date(1944, 7, 4): (1 - s) * (1 - 2 * s) * (1 - 3 * s) * (1 - 4 * s) * 5 * s,
        date(1944, 7, 5): (1 - s) * (1 - 2 * s) * (1 - 3 * s) * (1 - 4 * s) * (1 - 5 * s),
    }
    assert p == expected
    assert sum(p.values()) == 1


def test_seeded_monte_carlo_matches_the_exact_withdrawal_day():
    from wargame.analysis.variants import withdrawal_day_distribution

    dist = withdrawal_day_distribution()
    dice = Dice(19)
    n = 20000
    counts: dict[date, int] = {}
    for _ in range(n):
        d = roll_withdrawal_day(dice)
        counts[d] = counts.get(d, 0) + 1
    for row in dist.itertuples():
        f = counts.get(row.day, 0) / n
        assert abs(f - row.p) <= 4.5 * (row.p * (1 - row.p) / n) ** 0.5 + 1e-9, (row.day, f, row.p)
    assert set(counts) <= set(dist.day)
