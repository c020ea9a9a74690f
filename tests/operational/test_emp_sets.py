"""CN/OD 5.1.6 (EMP): the attacker's minimal sets of units to eliminate, found without trying
every combination, are exactly the ones trying every combination finds, in the same order."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from wargame.operational.losses import minimal_covering_sets


def brute_force(units, value, need, cap=200):
    options = []
    for r in range(1, len(units) + 1):
        for combo in itertools.combinations(units, r):
            total = sum(value[u] for u in combo)
            if total >= need and all(total - value[u] < need for u in combo):
                options.append(combo)
        if len(options) > cap:
            break
    return options


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=11), st.integers(-1, 40),
       st.integers(1, 30))
def test_same_sets_in_the_same_order_as_every_combination(values, need, cap):
    units = [f"u{i}" for i in range(len(values))]
    value = dict(zip(units, values, strict=True))
    assert minimal_covering_sets(units, value, need, cap) == brute_force(units, value, need, cap)


def test_twenty_units_are_quick_and_minimal():
    units = [f"u{i:02d}" for i in range(20)]
    value = {u: 1 + i % 7 for i, u in enumerate(units)}
    sets = minimal_covering_sets(units, value, 12)
    assert sets and all(sum(value[u] for u in s) >= 12 for s in sets)
    assert all(sum(value[u] for u in s) - min(value[u] for u in s) < 12 for s in sets)
