"""CN 2.4.1 dates and the mapping of BFN days to CN turns."""

from datetime import date

from wargame.operational.variants import (
    day_of,
    days_to_roll,
    effective_turn,
    turn_first_day,
    turn_last_day,
)

from .conftest import game


def test_turn_dates_follow_cn_2_4_1():
    assert turn_first_day(0) == turn_last_day(0) == date(1944, 6, 6)
    assert (turn_first_day(1), turn_last_day(1)) == (date(1944, 6, 7), date(1944, 6, 9))
    assert turn_last_day(16) == date(1944, 7, 24)  # the eve of Cobra
    scenario = game().scenario
    for t in range(0, 17):
        assert scenario.turn_date(t) == turn_last_day(t).isoformat()
        if t:
            assert (turn_first_day(t) - turn_last_day(t - 1)).days == 1


def test_a_day_takes_effect_from_the_next_turn():
    assert effective_turn(date(1944, 6, 30)) == 9          # turn 8 is 28-30 June
    assert {effective_turn(date(1944, 7, d)) for d in (1, 2, 3)} == {10}
    assert {effective_turn(date(1944, 7, d)) for d in (4, 5)} == {11}
    for k in range(0, 49):
        t = effective_turn(day_of(k))
        assert turn_first_day(t - 1) <= day_of(k) < turn_first_day(t)


def test_every_day_is_rolled_once_across_the_turns():
    days = [k for t in range(0, 17) for k in days_to_roll(t)]
    assert days == list(range(0, 46))  # 6 June .. 21 July, the days before turn 16's first day
