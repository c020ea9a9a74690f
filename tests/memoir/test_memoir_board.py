"""Board geometry: .m44 coordinates, sections, line of sight (M44 Battlefield, p.11)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from m44helpers import H

from wargame.hexgrid import Hex
from wargame.memoir import ALLIES, AXIS, LAYOUT, Board, hex_to_m44, m44_to_hex, rules
from wargame.memoir.board import BoardHex, line_variants
from wargame.memoir.scenario import custom_scenario, load_scenario


def terrainish(terrain=None, units=(), sandbags=(), wire=(), **special):
    sc = custom_scenario(terrain, [], special=special)
    occ = {H(*p): object() for p in units}
    return rules.Terrainish(sc, occ, {H(*p) for p in sandbags}, {H(*p) for p in wire})


@given(st.integers(0, 8), st.integers(0, 24))
def test_m44_round_trip(row, col):
    if (row + col) % 2:
        with pytest.raises(ValueError):
            m44_to_hex(row, col)
        return
    h = m44_to_hex(row, col)
    assert hex_to_m44(h) == (row, col)


def test_neighbours_in_doubled_columns():
    h = H(4, 12)
    got = sorted(hex_to_m44(n) for n in h.neighbours())
    assert got == [(3, 11), (3, 13), (4, 10), (4, 14), (5, 11), (5, 13)]
    assert H(0, 0).distance(H(0, 24)) == 12
    assert H(0, 0).distance(H(8, 8)) == 8
    assert H(0, 12).distance(H(8, 12)) == 8


def test_board_rows_of_13_and_12():
    b = Board()
    hexes = b.all_hexes()
    assert len(hexes) == 5 * 13 + 4 * 12
    rows = {}
    for h in hexes:
        rows.setdefault(h.r, 0)
        rows[h.r] += 1
    assert rows[0] == 13 and rows[1] == 12 and rows[8] == 13
    assert not b.on_board(H(1, 25) if False else Hex(13, 0))
    over = load_scenario("overlord").board
    assert len(over.all_hexes()) == 5 * 26 + 4 * 25


def test_layout_is_pointy_top_rows():
    x0, y0 = LAYOUT.to_xy(H(0, 0))
    x1, y1 = LAYOUT.to_xy(H(0, 2))
    x2, y2 = LAYOUT.to_xy(H(1, 1))
    assert y0 == y1 and x1 > x0
    assert y2 < y0  # row 1 is below row 0 (y negated like Bokeh)
    assert x0 < x2 < x1
    assert LAYOUT.from_xy(*LAYOUT.to_xy(H(5, 13))) == H(5, 13)


def test_sections_and_shared_hexes():
    """M44 Battlefield: a hex cut by the dashed line belongs to both sections."""
    b = Board()
    assert b.board_sections(H(0, 6)) == {"left"}
    assert b.board_sections(H(1, 7)) == {"left", "center"}
    assert b.board_sections(H(0, 8)) == {"center"}
    assert b.board_sections(H(1, 17)) == {"center", "right"}
    assert b.board_sections(H(0, 18)) == {"right"}
    # the Axis player sits across the table: his left flank is the board's right
    assert b.sections_for(H(0, 18), AXIS) == {"left"}
    assert b.sections_for(H(0, 18), ALLIES) == {"right"}
    assert b.sections_for(H(1, 7), AXIS) == {"right", "center"}


def test_retreat_directions():
    b = Board()
    assert sorted(hex_to_m44(h) for h in b.retreat_steps(H(4, 12), ALLIES)) == [(5, 11), (5, 13)]
    assert sorted(hex_to_m44(h) for h in b.retreat_steps(H(4, 12), AXIS)) == [(3, 11), (3, 13)]


def test_los_blocked_by_unit_in_between():
    """M44 p.11: the line from the left unit to the enemy is blocked by the unit in the middle."""
    t = terrainish(units=[(4, 12)])
    assert not rules.has_line_of_sight(t, H(4, 10), H(4, 14))
    t = terrainish()
    assert rules.has_line_of_sight(t, H(4, 10), H(4, 14))


def test_los_woods_blocks_but_target_terrain_does_not():
    """M44 p.11: sight on the unit in the woods, not on the unit behind the woods."""
    t = terrainish({(4, 14): "woods"})
    assert rules.has_line_of_sight(t, H(4, 10), H(4, 14))
    assert not rules.has_line_of_sight(t, H(4, 10), H(4, 18))


@pytest.mark.parametrize("blocked,expected", [
    ([(4, 14)], True),            # one side only: sight along the hexside is kept
    ([(5, 13)], True),
    ([(4, 14), (5, 13)], False),  # both sides: blocked
])
def test_los_hexside_rule(blocked, expected):
    """M44 p.11: a line along hexsides is blocked only if obstructions are on both sides."""
    a, b = H(4, 12), H(5, 15)  # the line runs along the side between (4,14) and (5,13)
    t = terrainish({p: "woods" for p in blocked})
    assert rules.has_line_of_sight(t, a, b) is expected


def test_hexside_pair_is_exact():
    a, b = H(4, 12), H(5, 15)
    la, lb = line_variants(a, b)
    assert {hex_to_m44(h) for h in set(la) ^ set(lb)} == {(4, 14), (5, 13)}


def test_los_hills_and_plateau():
    """M44 Hills: a hill blocks sight beyond it, but not between units on the same hill."""
    t = terrainish({(4, 12): "hills"})
    assert not rules.has_line_of_sight(t, H(4, 10), H(4, 14))
    t = terrainish({(4, 10): "hills", (4, 12): "hills", (4, 14): "hills"})
    assert rules.has_line_of_sight(t, H(4, 10), H(4, 14))


def test_river_and_hedgehog_do_not_block():
    t = terrainish({(4, 12): BoardHex("river")})
    assert rules.has_line_of_sight(t, H(4, 10), H(4, 14))
    t = terrainish({(4, 12): BoardHex(hedgehog=True)}, sandbags=[(4, 12)], wire=[])
    assert rules.has_line_of_sight(t, H(4, 10), H(4, 14))
    t = terrainish({(4, 12): BoardHex(bunker=True)})
    assert not rules.has_line_of_sight(t, H(4, 10), H(4, 14))
