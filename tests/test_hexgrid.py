"""Hex maths: ids, adjacency of the rules' named pairs, distance, Bokeh layout agreement."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wargame.hexgrid import Hex, Layout, hex_line, hex_round, offset_id, parse_offset_id

# Adjacent pairs implied by the rules (docs/map-sources.md): CN 11.2 two-hex
# cities, CN 11.1.1 Omaha, CN 9.0 Mulberries and their landing hexes, drops, OD St-Tropez.
RULE_ADJACENT_PAIRS = [
    ("2813", "2913"),  # Caen (CN 11.2)
    ("0502", "0603"),  # Cherbourg (CN 11.2)
    ("1909", "2010"),  # Omaha (CN 11.1.1)
    ("2009", "2010"),  # American Mulberry by its landing hex (CN 9.0)
    ("2409", "2410"),  # British Mulberry by its landing hex (CN 9.0)
    ("1010", "1109"),  # 507th and 505th drops (CN 11.1.1)
    ("1210", "1309"),  # 501st and 502nd/506th drops (CN 11.1.1)
    ("1224", "1323"),  # OD Alpha beach by St-Tropez
]


@pytest.mark.parametrize("a,b", RULE_ADJACENT_PAIRS)
def test_rule_pairs_are_adjacent(a, b):
    assert Hex.from_id(a).distance(Hex.from_id(b)) == 1


def test_odd_columns_sit_lower():
    # 0101 (odd column) and 0201: 0201 is up-right of 0101, and 0202 is down-right.
    h = Hex.from_id("0101")
    assert Hex.from_id("0201") in h.neighbours()
    assert Hex.from_id("0202") in h.neighbours()
    assert Hex.from_id("0200") not in h.neighbours()
    e = Hex.from_id("0202")
    assert Hex.from_id("0101") in e.neighbours() and Hex.from_id("0102") in e.neighbours()


@given(st.integers(1, 99), st.integers(1, 99))
def test_id_round_trip(col, row):
    hid = f"{col:02d}{row:02d}"
    assert parse_offset_id(hid).id == hid
    assert offset_id(parse_offset_id(hid)) == hid


@pytest.mark.parametrize("bad", ["123", "12a4", "", "12345", None])
def test_bad_ids_refused(bad):
    with pytest.raises(ValueError):
        parse_offset_id(bad)


@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(0, 5))
def test_ring_sizes_and_distance(q, r, radius):
    h = Hex(q, r)
    ring = h.ring(radius)
    assert len(ring) == max(1, 6 * radius)
    assert all(h.distance(x) == radius for x in ring)
    assert len(set(h.within(radius))) == 1 + 3 * radius * (radius + 1)


@given(st.integers(-10, 10), st.integers(-10, 10), st.integers(-10, 10), st.integers(-10, 10))
def test_line_is_contiguous(q1, r1, q2, r2):
    a, b = Hex(q1, r1), Hex(q2, r2)
    line = hex_line(a, b)
    assert line[0] == a and line[-1] == b and len(line) == a.distance(b) + 1
    assert all(x.distance(y) == 1 for x, y in zip(line, line[1:], strict=False))


@pytest.mark.parametrize("orientation", ["flattop", "pointytop"])
def test_layout_matches_bokeh(orientation):
    from bokeh.util.hex import axial_to_cartesian

    layout = Layout(orientation=orientation, size=1.0)
    for h in [Hex(0, 0), Hex(3, -1), Hex(-2, 5), Hex(7, 4)]:
        bx, by = axial_to_cartesian(h.q, h.r, 1.0, orientation)
        x, y = layout.to_xy(h)
        assert math.isclose(x, float(bx)) and math.isclose(y, float(by))
        assert layout.from_xy(x + 0.2, y - 0.1) == h


def test_hex_round():
    assert hex_round(0.1, -0.05) == Hex(0, 0)
    assert hex_round(1.6, -0.4) == Hex(2, -1) or hex_round(1.6, -0.4) == Hex(2, 0)


coords = st.integers(min_value=-200, max_value=200)


@given(coords, coords, coords, coords)
def test_hex_is_a_value(q1, r1, q2, r2):
    """Hex (a tuple subclass for speed, issue 19): equality, hash and order are those of the
    pair (q, r) -- the hash the earlier dataclass computed, so sets and dicts of hexes iterate
    in the same order as before and recorded games stay the same."""
    a, b = Hex(q1, r1), Hex(q2, r2)
    assert (a.q, a.r, a.s) == (q1, r1, -q1 - r1)
    assert hash(a) == hash((q1, r1))
    assert (a == b) == ((q1, r1) == (q2, r2))
    assert (a < b) == ((q1, r1) < (q2, r2))
    assert a + b == Hex(q1 + q2, r1 + r2) and type(a + b) is Hex
    assert a - b == Hex(q1 - q2, r1 - r2) and type(a - b) is Hex
    assert repr(a) == f"Hex({q1}, {r1})"
    assert len({a, b, Hex(q1, r1)}) == (1 if a == b else 2)


def test_hex_pickles_copies_and_stays_immutable():
    import copy
    import pickle

    h = Hex(3, 2)
    for back in (pickle.loads(pickle.dumps(h)), copy.copy(h), copy.deepcopy(h)):
        assert back == h and type(back) is Hex and back.id == h.id
    with pytest.raises(AttributeError):
        h.q = 4  # type: ignore[misc]  # the test checks that assigning fails
    with pytest.raises(AttributeError):
        h.x = 1  # type: ignore[attr-defined]  # no per-hex dict
    match h:
        case Hex(q, r):
            assert (q, r) == (3, 2)


@given(coords, coords, coords, coords)
def test_distance_is_the_largest_cube_difference(q1, r1, q2, r2):
    a, b = Hex(q1, r1), Hex(q2, r2)
    assert a.distance(b) == max(abs(q1 - q2), abs(r1 - r2), abs(a.s - b.s)) == b.distance(a)
