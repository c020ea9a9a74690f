"""Issue #15: place names on the campaign maps never overlap (wargame.ui.hexmap.place_labels).
The boxes are estimated at the font size the browser draws (HexMap.LABEL_SCALE["names"]) at the
dashboard's default zoom (13.5 px per hex radius at 1280x720) and zoomed in; the victory cities
the rules name (CN/OD 11.2) are labelled at the default zoom, as are the D-Day places that used
to overlap (Omaha, Colleville-sur-Mer, Port-en-Bessin; Sainte-Marie-du-Mont, Grandcamp)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargame.hexgrid import Hex, Layout
from wargame.ui.campaign import label_priorities
from wargame.ui.hexmap import (
    DEFAULT_HEX_PX,
    HexMap,
    HexSpec,
    label_box,
    label_font,
    place_labels,
)
from wargame.ui.model import make_game

LAYOUT = Layout("flattop", 1.0)
ZOOMS = (DEFAULT_HEX_PX, 21.5, 40.0, 64.0)  # 1280x720, 1920x1080, zoomed in


def _shown(placed, hex_px):
    font = label_font(hex_px, LAYOUT.size, HexMap.LABEL_SCALE["names"])
    return [(p, label_box(p, font)) for p in placed if p.min_px <= hex_px + 1e-9]


def _overlaps(shown):
    return [(a.text, b.text) for (a, ba), (b, bb) in itertools.combinations(shown, 2)
            if ba[0] < bb[2] and bb[0] < ba[2] and ba[1] < bb[3] and bb[1] < ba[3]]


@pytest.fixture(scope="module", params=["normandy", "dragoon"])
def campaign_map(request):
    game = make_game(request.param)
    return game, HexMap.from_board(game.board, LAYOUT, priorities=label_priorities(game))


@pytest.mark.parametrize("hex_px", ZOOMS)
def test_no_two_names_overlap(campaign_map, hex_px):
    _, hexmap = campaign_map
    shown = _shown(hexmap.placed_labels, hex_px)
    assert shown
    assert not _overlaps(shown)


def test_victory_cities_are_named_at_the_default_zoom(campaign_map):
    game, hexmap = campaign_map
    cities = set(label_priorities(game))
    assert cities
    shown = {p.text for p, _ in _shown(hexmap.placed_labels, DEFAULT_HEX_PX)}
    assert cities <= shown
    # what the map draws at first: the names of the default zoom, nothing else
    data = hexmap.names_source.data
    assert {t for t in data["t"] if t} == shown


def test_the_d_day_places_that_overlapped_are_all_named():
    game = make_game("normandy")
    hexmap = HexMap.from_board(game.board, LAYOUT, priorities=label_priorities(game))
    shown = {p.text for p, _ in _shown(hexmap.placed_labels, DEFAULT_HEX_PX)}
    assert {"Omaha", "Colleville-sur-Mer", "Port-en-Bessin", "Sainte-Marie-du-Mont",
            "Grandcamp"} <= shown


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 10),
                          st.text("abcdefgh -", min_size=1, max_size=22),
                          st.integers(0, 3)),
                min_size=1, max_size=40, unique_by=lambda t: (t[0], t[1])),
       st.floats(8.0, 80.0))
def test_placement_never_overlaps_at_any_zoom(names, hex_px):
    spots = [(text, *LAYOUT.to_xy(Hex(q, r)), float(p)) for q, r, text, p in names]
    placed = place_labels(spots, LAYOUT.size)
    assert not _overlaps(_shown(placed, hex_px))
    # deterministic: the same placement whatever the order the names come in
    assert placed == place_labels(list(reversed(spots)), LAYOUT.size)


def test_a_crowded_corner_hides_the_lesser_name_until_zoomed_in():
    # five long names on neighbouring hexes: not all fit at the smallest zoom
    hexes = [Hex(0, 0), Hex(1, 0), Hex(0, 1), Hex(1, -1), Hex(-1, 1)]
    specs = [HexSpec(h, f"{i:04d}", "open", f"Very-long-place-name-{i}", (), float(5 - i))
             for i, h in enumerate(hexes)]
    placed = place_labels([(s.name, *LAYOUT.to_xy(s.hex), s.label_priority) for s in specs])
    first = min(p.min_px for p in placed)
    assert any(p.min_px > first for p in placed)
    top = next(p for p in placed if p.text.endswith("-0"))
    assert top.min_px == first  # the highest priority name is drawn from the start


@pytest.mark.parametrize("hex_px", (8.0, *ZOOMS))
def test_names_stay_inside_the_map(campaign_map, hex_px):
    """Issue 28: in a notebook cell the map is fitted to its extent (HexMap._bounds) and
    nothing beyond it is drawn, so a name crossing the edge was cut ("uderville"): every name
    shown lies inside the extent at every zoom from the one it is drawn at."""
    _, hexmap = campaign_map
    x0, x1, y0, y1 = hexmap._bounds
    shown = _shown(hexmap.placed_labels, hex_px)
    assert shown
    outside = [(p.text, tuple(round(v, 2) for v in box)) for p, box in shown
               if box[0] < x0 - 1e-9 or box[2] > x1 + 1e-9 or box[1] < y0 - 1e-9
               or box[3] > y1 + 1e-9]
    assert outside == []
