"""The seeded generator and exact dice distributions."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from wargame.dice import ROW_BANDS, Dice, band_probability, row_band, two_d6_distribution


def test_two_d6_distribution_exact():
    dist = two_d6_distribution()
    assert sum(dist.values()) == 1
    assert dist[7] == Fraction(6, 36) and dist[2] == Fraction(1, 36) and dist[12] == Fraction(1, 36)


def test_row_bands_pair_equal_probabilities():
    # seeds README: 2-12 (2/36), 3-11 (4/36), 4-10 (6/36), 5-9 (8/36), 6-8 (10/36), 7 (6/36)
    expected = {"2-12": 2, "3-11": 4, "4-10": 6, "5-9": 8, "6-8": 10, "7": 6}
    assert {b: band_probability(b) * 36 for b, _ in ROW_BANDS} == expected
    assert row_band(12) == "2-12" and row_band(7) == "7" and row_band(8) == "6-8"


@given(st.integers(0, 10**9), st.lists(st.sampled_from([6, 10]), max_size=40))
def test_same_seed_same_rolls_and_restore(seed, sizes):
    a, b = Dice(seed), Dice(seed)
    assert [a.die(s) for s in sizes] == [b.die(s) for s in sizes]
    restored = Dice.from_dict(a.to_dict())
    assert [restored.d6() for _ in range(5)] == [a.d6() for _ in range(5)]
    copy = a.copy()
    assert copy.d6() == a.d6()
