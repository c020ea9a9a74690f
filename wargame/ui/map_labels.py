"""The hex map's place names: placed once, in Python, so that no two overlap at any zoom
(issue 15). Split from ``wargame.ui.hexmap`` (issue #35: no module over 800 lines)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Place names are placed once, in Python, so that no two overlap at any zoom (issue 15): for each
# zoom level (one hex's radius in screen pixels, ``LABEL_LEVELS``) the text's box is estimated
# at the size the browser draws it (``HexMap.LABEL_SCALE["names"]``: a fraction of the hex, not
# below a minimum in pixels), and names are taken greedily by priority (victory cities first),
# each at the first of ``LABEL_SPOTS`` around its hex where its box meets no box already placed.
# A name that fits nowhere at a level waits for the next, more zoomed-in one: ``min_px`` is the
# zoom from which it is drawn (the map's JavaScript hides it below). A box only shrinks towards
# its anchor as the map is zoomed in (the anchor is on the box's edge), so names placed at one
# level still do not overlap at every larger zoom.
DEFAULT_HEX_PX = 13.5
"""Pixels per hex radius of the campaign map in the dashboard at 1280x720 (chromium)."""
LABEL_LEVELS: tuple[float, ...] = (8.0, 10.0, 12.0, 13.5, 16.0, 20.0, 25.0, 31.0)
"""Zoom levels (pixels per hex radius) at which names are placed. 13.5 is the campaign map of
the dashboard at 1280x720, 21.5 at 1920x1080 (measured in chromium); from 31 px the names'
font is a fixed fraction of the hex (0.26 x 31 = 8 px, the minimum), so one placement holds for
every larger zoom."""
# (dx, dy) of the anchor in hex radii, text_align, text_baseline: below the hex centre first
LABEL_SPOTS: tuple[tuple[float, float, str, str], ...] = (
    (0.0, -0.45, "center", "top"),
    (0.0, 0.5, "center", "bottom"),
    (0.55, 0.0, "left", "middle"),
    (-0.55, 0.0, "right", "middle"),
    (0.45, -0.45, "left", "top"),
    (-0.45, -0.45, "right", "top"),
    (0.45, 0.45, "left", "bottom"),
    (-0.45, 0.45, "right", "bottom"),
)
# a name's estimated width: CHAR_WIDTH ems a character plus CHAR_PAD ems; measured in chromium
# (canvas measureText, bold helvetica as Bokeh asks, every place name of both maps): 0.53 em a
# character on average, 0.68 at most (a short wide name, "Omaha": 3.39 em < 3.40 estimated)
CHAR_WIDTH = 0.62
CHAR_PAD = 0.3
LINE_HEIGHT = 1.2  # a line's height, in ems


@dataclass(frozen=True)
class PlacedLabel:
    """A place name where it is drawn: anchor (x, y) in map units, alignment, and the zoom
    (pixels per hex radius) from which it is shown."""
    text: str
    x: float
    y: float
    align: str
    baseline: str
    min_px: float
    priority: float = 0.0


def label_font(hex_px: float, size: float = 1.0,
               scale: tuple[float, float] = (0.26, 8.0)) -> float:
    """The names' font size in map units at a zoom of ``hex_px`` pixels per hex radius (as the
    map's JavaScript sets it: ``scale[0]`` of the hex, at least ``scale[1]`` px, at most 64)."""
    f, lo = scale
    px = max(lo, min(64.0, f * hex_px))
    return px * size / hex_px


def label_box(label: PlacedLabel, font: float) -> tuple[float, float, float, float]:
    """The estimated box (x0, y0, x1, y1) of a label drawn at ``font`` (map units)."""
    w, h = font * (CHAR_WIDTH * len(label.text) + CHAR_PAD), LINE_HEIGHT * font
    x0 = {"left": label.x, "right": label.x - w}.get(label.align, label.x - w / 2)
    y1 = {"top": label.y, "bottom": label.y + h}.get(label.baseline, label.y + h / 2)
    return (x0, y1 - h, x0 + w, y1)


def boxes_meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def box_inside(box: tuple[float, float, float, float],
               bounds: tuple[float, float, float, float] | None) -> bool:
    """``box`` (x0, y0, x1, y1) within ``bounds`` (x0, x1, y0, y1: the map's extent), or no
    bounds given."""
    if bounds is None:
        return True
    bx0, bx1, by0, by1 = bounds
    return box[0] >= bx0 and box[2] <= bx1 and box[1] >= by0 and box[3] <= by1


def place_labels(names: Sequence[tuple[str, float, float, float]], size: float = 1.0,
                 levels: Sequence[float] = LABEL_LEVELS,
                 scale: tuple[float, float] = (0.26, 8.0),
                 bounds: tuple[float, float, float, float] | None = None) -> list[PlacedLabel]:
    """Place ``names`` ((text, x, y, priority) of hex centres) with no two boxes meeting at any
    zoom: greedy by priority (higher first; then by position, so the result is the same on
    every run), at the first free spot around the hex, at the first zoom level it fits. Names
    that fit at no level are left out. With ``bounds`` (x0, x1, y0, y1: the extent the map
    fits to its box), a spot whose box would cross them is not taken: a name at the map's
    edge goes inside it (issue 28: "uderville" cut in a narrow notebook cell, where the map
    is fitted to the width and nothing is drawn beyond its extent)."""
    order = sorted(names, key=lambda n: (-n[3], n[1], n[2], n[0]))
    # a place on two hexes (Caen, Cherbourg) is named once, on the hex taken first
    seen: dict[str, tuple[float, float]] = {}
    waiting = []
    for text, x, y, prio in order:
        other = seen.get(text)
        if other is not None and math.hypot(x - other[0], y - other[1]) <= 2.5 * size:
            continue
        seen.setdefault(text, (x, y))
        waiting.append((text, x, y, prio))
    placed: list[PlacedLabel] = []
    for level in sorted(levels):
        font = label_font(level, size, scale)
        boxes = [label_box(p, font) for p in placed]
        still: list[tuple[str, float, float, float]] = []
        for text, x, y, prio in waiting:
            for dx, dy, align, baseline in LABEL_SPOTS:
                cand = PlacedLabel(text, x + dx * size, y + dy * size, align, baseline, level,
                                   prio)
                box = label_box(cand, font)
                if box_inside(box, bounds) and not any(boxes_meet(box, b) for b in boxes):
                    placed.append(cand)
                    boxes.append(box)
                    break
            else:
                still.append((text, x, y, prio))
        waiting = still
    return placed
