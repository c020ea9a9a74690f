"""Battle dice (M44 Resolve Battle): six faces, hits by symbol, exact distributions."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wargame.dice import Dice
from wargame.memoir import hits_distribution, outcome_distribution
from wargame.memoir.dice import (
    FACES,
    count_hits,
    expected_hits,
    flags_distribution,
    hit_probability,
    roll_faces,
)


def test_faces_two_infantry_one_each_other():
    assert Counter(FACES.values()) == {"infantry": 2, "armor": 1, "grenade": 1, "flag": 1,
                                       "star": 1}


def test_hit_probabilities_by_target():
    assert hit_probability("inf") == Fraction(1, 2)   # 2 infantry + grenade
    assert hit_probability("tank") == Fraction(1, 3)  # armour + grenade
    assert hit_probability("gun") == Fraction(1, 6)   # grenade only
    assert hit_probability("inf", stars_hit=True) == Fraction(2, 3)  # Air Power


def test_hits_distribution_values():
    d = hits_distribution(3, "inf")
    assert d == {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8), 3: Fraction(1, 8)}
    d = hits_distribution(2, "tank")
    assert d[2] == Fraction(1, 9) and d[0] == Fraction(4, 9)
    assert hits_distribution(0, "gun") == {0: Fraction(1)}
    with pytest.raises(ValueError):
        hits_distribution(-1, "inf")


@given(st.integers(0, 8), st.sampled_from(["inf", "tank", "gun"]), st.booleans())
def test_distributions_are_exact(n, kind, stars):
    d = hits_distribution(n, kind, stars)
    assert sum(d.values()) == 1
    assert sum(k * p for k, p in d.items()) == expected_hits(n, kind, stars)
    joint = outcome_distribution(n, kind, stars)
    assert sum(joint.values()) == 1
    for k in range(n + 1):
        assert sum(p for (h, _), p in joint.items() if h == k) == d[k]
    fl = flags_distribution(n)
    for f in range(n + 1):
        assert sum(p for (_, g), p in joint.items() if g == f) == fl[f]


def test_count_hits_rules():
    faces = ["infantry", "armor", "grenade", "flag", "star", "infantry"]
    assert count_hits(faces, "inf") == 3
    assert count_hits(faces, "tank") == 2
    assert count_hits(faces, "gun") == 1
    assert count_hits(faces, "gun", stars_hit=True) == 2
    assert count_hits(faces, "inf", symbols_hit=False) == 1


def test_roll_uses_seeded_dice():
    a = roll_faces(Dice(5), 20)
    b = roll_faces(Dice(5), 20)
    assert a == b and set(a) <= set(FACES.values())
