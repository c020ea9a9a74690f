"""``HexMap``: one reusable hex map component (Panel Viewer over Bokeh ``hex_tile``).

Works for any ``Layout`` (flat-top campaign maps, pointy-top Memoir '44 boards). The figure is
built once; clicks arrive through ``source.selected.on_change("indices", ...)`` and every later
change (counters, highlights, overlays) assigns new columns to the existing data sources.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import panel as pn
import param
from bokeh.models import (
    BooleanFilter,
    CDSView,
    ColumnDataSource,
    CustomJS,
    HoverTool,
    TapTool,
    WheelZoomTool,
)
from bokeh.plotting import figure

from wargame.hexgrid import Hex, Layout
from wargame.ui.describe import terrain_name
from wargame.ui.text import MAP_WORDS

__all__ = ["HexMap", "HexSpec", "Counter", "Highlight", "TERRAIN_STYLE", "HIGHLIGHT_STYLE",
           "NATION_COLOURS", "NATO_SYMBOLS", "PlacedLabel", "served_session",
           "symbol_parts", "place_labels", "label_box", "label_font", "terrain_words"]

# terrain -> (fill colour, mark): the mark is a Bokeh marker drawn twice in the hex ("" none).
# Marks, not hatch patterns: Bokeh builds a pattern canvas per row and per paint for
# vectorised hatches, which made one click on the full Normandy map cost seconds in chromium
# (bench/dashboard.py); scatter marks cost next to nothing.
TERRAIN_STYLE: dict[str, tuple[str, str]] = {
    "open": ("#ece6c6", ""),
    "city": ("#b9b2a8", ""),
    "rough": ("#d4c19e", "dot"),
    "forest": ("#86ad70", "circle"),
    "woods": ("#86ad70", "circle"),
    "bocage": ("#b4cf8e", "y"),
    "marsh": ("#a9d3cc", "dash"),
    "hill": ("#d9b98a", "triangle"),
    "mountain": ("#bba07f", "triangle"),
    "border": ("#9a9a9a", "x"),
    "sea": ("#9cc3e6", ""),
}
TERRAIN_MARK_COLOUR: dict[str, str] = {
    "rough": "#7a6a4a", "forest": "#2f5a22", "woods": "#2f5a22", "bocage": "#3f6a2a",
    "marsh": "#2a6a8a", "hill": "#8a5a2a", "mountain": "#5a3a1a", "border": "#444444",
}
DEFAULT_TERRAIN = ("#dddddd", "")

# feature -> (marker, colour), drawn as small marks on the hex
FEATURE_MARKS: dict[str, tuple[str, str]] = {
    "fortification": ("triangle", "#7a1f1f"),
    "airfield": ("plus", "#1f3f7a"),
    "village": ("circle", "#5a4a3a"),
    "maquis": ("diamond", "#2d6a2d"),
}

# counter mark -> (edge colour, edge width)
COUNTER_MARKS: dict[str, tuple[str, float]] = {
    "must_attack": ("#d00000", 4.0),
    "at_sea": ("#1f4fbf", 2.5),
}

# A counter as on the board (issue 28): a piece in the nation's colour, the NATO unit symbol in
# a box at its top and the values in large type below it, drawn in map units so that it scales
# with the hex. COUNTER_W x COUNTER_H in hex radii: the values "2-3-4" at HexMap.LABEL_SCALE
# ["values"] (0.68 of the radius: 14 px on the teacher's 1920x1080 view, about 21 px a radius)
# are 1.6 radii wide in bold helvetica, so the piece is 1.6 wide (a flat-top hex is 2).
COUNTER_W, COUNTER_H = 1.6, 1.36
SYMBOL_W, SYMBOL_H = 0.84, 0.46  # the symbol's box, in hex radii
SYMBOL_DY = 0.33  # the box's centre above the counter's centre
VALUES_DY = -0.31  # the values' centre below it
# unit type -> the symbol's parts (APP-6 / FM 21-30 land unit symbols) and a letter written in
# the box for what the parts do not say: "x" crossed diagonals (infantry), "oval" (armour,
# tracks), "dot" (artillery), "para" (airborne arc), "bar" (glider: a line over the box's
# top), "wheel" (motorized: a vertical line), "slash" (cavalry), "dome" (anti-aircraft)
NATO_SYMBOLS: dict[str, tuple[tuple[str, ...], str]] = {
    "infantry": (("x",), ""),
    "motorized_infantry": (("x", "wheel"), ""),
    "paratroop": (("x", "para"), ""),
    "glider": (("x", "bar"), ""),
    "ranger_commando": (("x",), "R"),
    "commando": (("x",), "C"),
    "naval_infantry": (("x",), "N"),
    "bicycle_infantry": (("x",), "B"),
    "mountain": (("x",), "M"),
    "armour": (("oval",), ""),
    "armoured_infantry": (("x", "oval"), ""),
    "mechanized_cavalry": (("slash", "oval"), ""),
    "assault_gun": (("dot", "oval"), "AG"),
    "mechanized_artillery": (("dot", "oval"), ""),
    "artillery": (("dot",), ""),
    "coastal_artillery": (("dot",), "CA"),
    "anti_aircraft": (("dome",), ""),
    "rocket_launcher": (("dot",), "RL"),
    "guerrilla": ((), "FFI"),
}


def symbol_parts(kind: str) -> tuple[tuple[str, ...], str]:
    """The NATO symbol's parts and letter of a unit type (no parts: the letter alone)."""
    return NATO_SYMBOLS.get(kind, ((), ""))


LAST_RING = ("#e0189a", 5.0)  # the last action's ring: colour, width in px

NATION_COLOURS: dict[str, str] = {
    "german": "#9aa39a",
    "american": "#a9bf72",
    "british": "#d8b77a",
    "canadian": "#e0a070",
    "french": "#8fb0e0",
    "russian": "#d08080",
}

# highlight kind -> style; "reach" rows carry their own fill colour (MP left); "mark" is a
# marker drawn at the hex centre (zones of engagement: a red cross)
HIGHLIGHT_STYLE: dict[str, dict[str, Any]] = {
    "reach": dict(fill_alpha=0.55, line_color="#1b6e1b", line_width=1.0),
    # drawn lightly: a small thin cross, no outline (issue 15: they covered the map)
    "zoc": dict(fill_color="#d62728", fill_alpha=0.0, line_color="#d62728", line_width=0.0,
                mark="x", mark_size=8),
    "entry": dict(fill_color="#1f77b4", fill_alpha=0.35, line_color="#1f77b4", line_width=3.0),
    "target": dict(fill_color="#d62728", fill_alpha=0.25, line_color="#b00000", line_width=4.0),
    "attacker": dict(fill_color="#ff7f0e", fill_alpha=0.2, line_color="#ff7f0e", line_width=3.0),
    "artillery": dict(fill_color="#9467bd", fill_alpha=0.15, line_color="#9467bd",
                      line_width=2.0),
    "retreat": dict(fill_color="#9467bd", fill_alpha=0.45, line_color="#5b2a86", line_width=3.0),
    "selected": dict(fill_color="#ffd700", fill_alpha=0.0, line_color="#e6b800", line_width=4.0),
    "history": dict(fill_color="#ffd700", fill_alpha=0.0, line_color="#c8102e", line_width=3.0,
                    mark="asterisk"),
    # Memoir '44 obstacles on the board's state (issue 15: drawn, so "1 die" is explained)
    "wire": dict(fill_color="#555555", fill_alpha=0.12, line_color="#444444", line_width=3.0,
                 mark="asterisk", mark_size=10),
    "sandbags": dict(fill_color="#a0522d", fill_alpha=0.15, line_color="#8b4513",
                     line_width=5.0),
}


# ---------------------------------------------------------------------- place-name labels
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


def place_labels(names: Sequence[tuple[str, float, float, float]], size: float = 1.0,
                 levels: Sequence[float] = LABEL_LEVELS,
                 scale: tuple[float, float] = (0.26, 8.0)) -> list[PlacedLabel]:
    """Place ``names`` ((text, x, y, priority) of hex centres) with no two boxes meeting at any
    zoom: greedy by priority (higher first; then by position, so the result is the same on
    every run), at the first free spot around the hex, at the first zoom level it fits. Names
    that fit at no level are left out."""
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
                if not any(boxes_meet(box, b) for b in boxes):
                    placed.append(cand)
                    boxes.append(box)
                    break
            else:
                still.append((text, x, y, prio))
        waiting = still
    return placed


@dataclass(frozen=True)
class HexSpec:
    hex: Hex
    id: str
    terrain: str
    name: str = ""
    features: tuple[str, ...] = ()
    label_priority: float = 0.0  # names placed first when space is short (victory cities)
    terrain_label: str = ""  # the terrain in words, when ``terrain`` (a style key) is not it


def terrain_words(spec: HexSpec) -> str:
    """A hex's terrain and features for its tooltip, in the current language ("bocage,
    fortification"; Memoir '44 hexes name their own terrain in ``terrain_label``)."""
    words = [spec.terrain_label or terrain_name(spec.terrain)]
    words += [MAP_WORDS.get(f"feature.{f}", f) for f in spec.features]
    return ", ".join(words)


@dataclass(frozen=True)
class Counter:
    hex: Hex
    uid: str
    letter: str
    values: str
    colour: str
    reduced: bool = False
    stack: int = 1
    side: str = ""
    title: str = ""
    at: tuple[float, float] | None = None  # drawn here instead of the hex centre (at sea)
    mark: str = ""  # "must_attack": a red ring; "at_sea": a dashed blue edge
    stack_titles: tuple[str, ...] = ()  # every unit of the stack, for the tooltip
    symbol: str = ""  # the unit's type, drawn as its NATO symbol (NATO_SYMBOLS; "" none)
    tag: str = ""  # with a symbol: a mark written beside it (Memoir's elite "*")


@dataclass(frozen=True)
class Highlight:
    hex: Hex
    kind: str
    fill: str | None = None
    label: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def served_session() -> bool:
    """True inside a ``panel serve`` session (a browser window to fill), False in a notebook
    cell or without a session: the dashboards size their map from it."""
    doc = pn.state.curdoc
    return doc is not None and getattr(doc, "session_context", None) is not None


def _reach_colour(fraction: float) -> str:
    """Green (much left) to yellow (little left)."""
    fraction = max(0.0, min(1.0, fraction))
    r = int(250 - 180 * fraction)
    g = int(220 - 40 * fraction)
    b = int(90 - 40 * fraction)
    return f"#{r:02x}{g:02x}{b:02x}"


class HexMap(pn.viewable.Viewer):
    """A hex map with terrain, hexside lines, roads, names, counters and highlight layers.

    ``on_click`` is called with the hex id of a clicked hex.
    """

    on_click = param.Callable(default=None, doc="called with the clicked hex id")
    on_escape = param.Callable(default=None, doc="called when Esc is pressed on the page")

    # points-left labels are written on reachable hexes only when there are few of them: a
    # long move is read from the shading (and 300 labels cost a third of a repaint)
    MAX_REACH_LABELS = 80

    def __init__(self, hexes: Sequence[HexSpec], layout: Layout | None = None, *,
                 hexsides: Iterable[tuple[Hex, Hex, str]] = (),
                 roads: Iterable[tuple[Hex, Hex]] = (),
                 width: int | None = None, height: int | None = None,
                 name: str = "hexmap", stretch: str | None = None, **params: Any) -> None:
        super().__init__(**params)
        self.layout = layout or Layout("flattop", 1.0)
        self.hexes = list(hexes)
        self._index = {spec.id: i for i, spec in enumerate(self.hexes)}
        self.clicks = 0
        self._clicked = False
        self._build(list(hexsides), list(roads), width, height, name)
        self._scale_labels_with_zoom()
        self._listen_for_escape(name)
        if stretch in ("both", "width"):
            # the map fills the room it is given: the width always; the height too when the
            # page gives it one ("both": served, see campaign.MAP_HEIGHT_CSS), else the
            # figure's own (a notebook cell has no height to fill); FIT_JS keeps hexes regular
            self.figure.sizing_mode = f"stretch_{stretch}"
            self.figure.min_width, self.figure.min_height = 360, 300
            self._fit_on_resize()
            self._pane = pn.pane.Bokeh(self.figure, sizing_mode=f"stretch_{stretch}",
                                       min_height=300, min_width=360)
        else:
            self._pane = pn.pane.Bokeh(self.figure, sizing_mode="fixed")

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_board(cls, board: Any, layout: Layout | None = None,
                   priorities: dict[str, float] | None = None, **kwargs: Any) -> HexMap:
        """Build from a campaign ``Board`` (wargame.operational.board). ``priorities``: place
        name -> how much its label matters (victory points), placed first when space is short."""
        specs = []
        prio = priorities or {}
        for h, info in sorted(board.hexes.items()):
            feats = tuple(f for f in ("fortification", "airfield", "village", "maquis")
                          if getattr(info, f, False))
            name = board.name_in(info.name) if info.name else ""  # current language
            specs.append(HexSpec(h, h.id, info.terrain, name, feats,
                                 float(prio.get(info.name or "", 0.0))))
        sides = [(a, b, kind) for pair, kind in board.hexsides.items()
                 for a, b in [tuple(sorted(pair))]]
        roads = [tuple(sorted(pair)) for pair in board.roads]
        return cls(specs, layout, hexsides=sides, roads=roads, **kwargs)

    def _build(self, hexsides, roads, width, height, name) -> None:
        lay = self.layout
        q = [s.hex.q for s in self.hexes]
        r = [s.hex.r for s in self.hexes]
        xs, ys = lay.many_to_xy(s.hex for s in self.hexes)
        fills = [TERRAIN_STYLE.get(s.terrain, DEFAULT_TERRAIN)[0] for s in self.hexes]
        self.hex_source = ColumnDataSource(dict(
            q=q, r=r, x=xs, y=ys, id=[s.id for s in self.hexes],
            terrain=[terrain_words(s) for s in self.hexes],
            name=[s.name for s in self.hexes], fill=fills,
            units=["" for _ in self.hexes],
        ), name=f"{name}-hexes")
        pad = 1.2 * lay.size  # the counters and the names at the edge stay inside
        x0, x1 = min(xs) - pad, max(xs) + pad
        y0, y1 = min(ys) - pad, max(ys) + pad
        scale = 34.0  # pixels per data unit at the default zoom
        if width is None:
            width = int(min(1000, max(400, (x1 - x0) * scale)))
        if height is None:
            height = int(width * (y1 - y0) / (x1 - x0))
        fig = figure(
            name=name, width=width, height=height, match_aspect=True,
            x_range=(x0, x1), y_range=(y0, y1), tools="pan,reset", toolbar_location="right",
            background_fill_color="#f7f7f2", output_backend="canvas",
        )
        fig.axis.visible = False
        fig.grid.visible = False
        wheel = WheelZoomTool()
        fig.add_tools(wheel)
        fig.toolbar.active_scroll = wheel
        orientation = lay.orientation
        self.hex_renderer = fig.hex_tile(
            q="q", r="r", size=lay.size, orientation=orientation, source=self.hex_source,
            fill_color="fill", line_color="#8a8a7a", line_width=0.6,
            nonselection_fill_alpha=1.0, nonselection_line_alpha=1.0,
            selection_fill_alpha=1.0,
            selection_fill_color="fill", selection_line_color="#8a8a7a",
            nonselection_fill_color="fill", nonselection_line_color="#8a8a7a",
        )
        fig.add_tools(TapTool(renderers=[self.hex_renderer]))
        # the tooltip (the hex's terrain, place and whole stack) shows over every hex but the
        # selected one (issue 15: it covered the hex just clicked, and the unit card says it
        # all): hovering uses an invisible copy of the hexes whose view leaves the selected one
        # out, updated in the browser on the click and by the server's highlights
        self.hover_filter = BooleanFilter(booleans=[True] * len(self.hexes))
        hover_renderer = fig.hex_tile(
            q="q", r="r", size=lay.size, orientation=orientation, source=self.hex_source,
            view=CDSView(filter=self.hover_filter), fill_color=None, line_color=None,
            selection_fill_color=None, selection_line_color=None,
            nonselection_fill_color=None, nonselection_line_color=None,
            name=f"{name}-hover")  # no colour: never painted, only hit-tested
        self.hex_source.selected.js_on_change("indices", CustomJS(
            args=dict(src=self.hex_source, filt=self.hover_filter), code=self._HOVER_JS))
        words = MAP_WORDS
        fig.add_tools(HoverTool(renderers=[hover_renderer], attachment="horizontal", tooltips=[
            (words["tip.hex"], "@id"), (words["tip.terrain"], "@terrain"),
            (words["tip.place"], "@name"), (words["tip.units"], "@units")]))
        # terrain marks: two small markers per hex (bocage, marsh, forest, rough, hills...)
        tx, ty, tm, tc = [], [], [], []
        for s, x, y in zip(self.hexes, xs, ys, strict=True):
            mark = TERRAIN_STYLE.get(s.terrain, DEFAULT_TERRAIN)[1]
            if not mark:
                continue
            for dx, dy in ((-0.45, -0.3), (0.45, -0.3)):
                tx.append(x + dx * lay.size)
                ty.append(y + dy * lay.size)
                tm.append(mark)
                tc.append(TERRAIN_MARK_COLOUR.get(s.terrain, "#444444"))
        fig.scatter(x="x", y="y", marker="m", line_color="c", fill_color="c", size=7,
                    line_width=1.5, name=f"{name}-terrain-marks",
                    source=ColumnDataSource(dict(x=tx, y=ty, m=tm, c=tc)))
        # features (fortification, airfield, village)
        fx, fy, fm, fc = [], [], [], []
        for s, x, y in zip(self.hexes, xs, ys, strict=True):
            for k, feat in enumerate(s.features):
                marker, colour = FEATURE_MARKS.get(feat, ("square", "#444"))
                fx.append(x - 0.55 * lay.size + 0.28 * k * lay.size)
                fy.append(y + 0.55 * lay.size)
                fm.append(marker)
                fc.append(colour)
        fig.scatter(x="x", y="y", marker="m", color="c", size=9, line_width=2,
                    source=ColumnDataSource(dict(x=fx, y=fy, m=fm, c=fc)))
        # hexsides (rivers/canals): the segment between the two shared corners
        sx0, sy0, sx1, sy1, scol = [], [], [], [], []
        for a, b, kind in hexsides:
            seg = self.shared_edge(a, b)
            if seg is None:
                continue
            (ax, ay), (bx, by) = seg
            sx0.append(ax)
            sy0.append(ay)
            sx1.append(bx)
            sy1.append(by)
            scol.append("#1f5fbf" if kind == "river" else "#3fa0d0")
        fig.segment(x0="x0", y0="y0", x1="x1", y1="y1", color="c", line_width=4,
                    line_cap="round",
                    source=ColumnDataSource(dict(x0=sx0, y0=sy0, x1=sx1, y1=sy1, c=scol)))
        # roads: centre to centre
        rx0, ry0, rx1, ry1 = [], [], [], []
        for a, b in roads:
            (ax, ay), (bx, by) = lay.to_xy(a), lay.to_xy(b)
            rx0.append(ax)
            ry0.append(ay)
            rx1.append(bx)
            ry1.append(by)
        fig.segment(x0="x0", y0="y0", x1="x1", y1="y1", color="#7a4a2a", line_width=2.5,
                    line_dash="solid",
                    source=ColumnDataSource(dict(x0=rx0, y0=ry0, x1=rx1, y1=ry1)))
        # names: placed so that none overlaps another at any zoom (place_labels); the ones
        # that need a closer zoom are hidden until the map is zoomed in (LABELS_JS)
        self.placed_labels = place_labels(
            [(s.name, x, y, s.label_priority)
             for s, x, y in zip(self.hexes, xs, ys, strict=True) if s.name],
            lay.size, scale=self.LABEL_SCALE["names"])
        pl = self.placed_labels
        self.names_source = ColumnDataSource(dict(
            text=[p.text for p in pl], x=[p.x for p in pl], y=[p.y for p in pl],
            align=[p.align for p in pl], baseline=[p.baseline for p in pl],
            min_px=[p.min_px for p in pl],
            t=[p.text if p.min_px <= DEFAULT_HEX_PX else "" for p in pl]), name=f"{name}-names")
        self.names_renderer = fig.text(
                 x="x", y="y", text="t", text_font_size="8pt", text_align="align",
                 text_baseline="baseline", text_color="#111", text_font_style="bold",
                 background_fill_color="#ffffff", background_fill_alpha=0.6,
                 source=self.names_source, name=f"{name}-names-text")
        # highlight layers (one source, any number of rows per hex)
        self.highlight_source = ColumnDataSource(self._empty_highlights(), name=f"{name}-hl")
        fig.hex_tile(q="q", r="r", size=lay.size, orientation=orientation,
                     source=self.highlight_source, fill_color="fill", fill_alpha="fill_alpha",
                     line_color="line", line_width="line_width")
        fig.scatter(x="x", y="y", marker="mark", size="mark_size", line_color="line",
                    fill_color="line", line_width=1.5, line_alpha=0.7,
                    source=self.highlight_source)
        self.label_source = ColumnDataSource(dict(x=[], y=[], t=[]), name=f"{name}-labels")
        self.reach_label_renderer = fig.text(
                 x="x", y="y", text="t", text_font_size="9pt", text_align="center",
                 text_baseline="middle", text_color="#0b3d0b", text_font_style="bold",
                 source=self.label_source)
        # counters (issue 28): the piece, the NATO symbol's box and parts, the values below
        cw, ch = COUNTER_W * lay.size, COUNTER_H * lay.size
        self._counter_size = (cw, ch)
        self.counter_source = ColumnDataSource(self._empty_counters(), name=f"{name}-counters")
        fig.rect(x="x", y="y", width=cw, height=ch, source=self.counter_source,
                 fill_color="colour", fill_alpha="alpha", line_color="edge", line_width="lw",
                 name=f"{name}-pieces")
        # a reduced (flipped) counter: paler, its top right corner cut by a stripe
        fig.segment(x0="sx0", y0="sy0", x1="sx1", y1="sy1", line_color="#333",
                    line_width=3, line_alpha="stripe", source=self.counter_source)
        fig.rect(x="x", y="by", width=SYMBOL_W * lay.size, height=SYMBOL_H * lay.size,
                 source=self.counter_source, fill_color="#ffffff", fill_alpha=0.35,
                 line_color="#111", line_width=1.2, line_alpha="box")
        self.symbol_lines = ColumnDataSource(dict(x0=[], y0=[], x1=[], y1=[]),
                                             name=f"{name}-symbol-lines")
        fig.segment(x0="x0", y0="y0", x1="x1", y1="y1", line_color="#111", line_width=1.4,
                    source=self.symbol_lines)
        self.symbol_ovals = ColumnDataSource(dict(x=[], y=[]), name=f"{name}-symbol-ovals")
        fig.ellipse(x="x", y="y", width=0.56 * SYMBOL_W * lay.size,
                    height=0.56 * SYMBOL_H * lay.size, fill_color=None, line_color="#111",
                    line_width=1.4, source=self.symbol_ovals)
        self.symbol_dots = ColumnDataSource(dict(x=[], y=[]), name=f"{name}-symbol-dots")
        fig.circle(x="x", y="y", radius=0.09 * lay.size, fill_color="#111", line_color="#111",
                   source=self.symbol_dots)
        self.symbol_arcs = ColumnDataSource(dict(x=[], y=[], a0=[], a1=[]),
                                            name=f"{name}-symbol-arcs")
        fig.arc(x="x", y="y", radius=0.2 * lay.size, start_angle="a0", end_angle="a1",
                line_color="#111", line_width=1.4, source=self.symbol_arcs)
        self.letter_renderer = fig.text(
                 x="lx", y="by", text="letter", source=self.counter_source,
                 text_font_size="8pt", text_align="center", text_baseline="middle",
                 text_font_style="bold", text_color="#111")
        self.values_renderer = fig.text(
                 x="x", y="vy", text="values", source=self.counter_source,
                 text_font_size="8pt", text_align="center", text_baseline="middle",
                 text_font_style="bold", text_color="#111", name=f"{name}-values")
        self.badge_source = ColumnDataSource(dict(x=[], y=[], n=[]), name=f"{name}-badges")
        fig.circle(x="x", y="y", radius=0.27 * lay.size, source=self.badge_source,
                   fill_color="#222", line_color="white", line_width=1.5)
        self.badge_renderer = fig.text(
                 x="x", y="y", text="n", source=self.badge_source, text_font_size="7pt",
                 text_align="center", text_baseline="middle", text_color="white",
                 text_font_style="bold")
        # the last action's hexes, ringed over the counters (issue 28: the back row sees what
        # happened): a thick ring in a colour no other layer uses
        self.last_source = ColumnDataSource(dict(q=[], r=[]), name=f"{name}-last")
        fig.hex_tile(q="q", r="r", size=lay.size, orientation=orientation,
                     source=self.last_source, fill_color=None, line_color=LAST_RING[0],
                     line_width=LAST_RING[1], line_alpha=0.9, name=f"{name}-last-ring")
        # place names over everything (issue 28: never under a counter), on a pale ground
        fig.renderers.remove(self.names_renderer)
        fig.renderers.append(self.names_renderer)
        self.figure = fig
        self._bounds = (x0, x1, y0, y1)
        self.hex_source.selected.on_change("indices", self._on_indices)
        self._build_prediction(name)

    # ------------------------------------------------------------------ zoom and resize
    # font size per text layer, as a fraction of one hex's size in screen pixels, and the
    # smallest size drawn (px): the labels grow when the map is zoomed in or made wider
    LABEL_SCALE: dict[str, tuple[float, float]] = {
        "letter": (0.28, 7.0), "values": (0.68, 9.0), "badge": (0.36, 8.0),
        "names": (0.26, 8.0), "reach": (0.30, 8.0)}
    _LABELS_JS = """
const w = fig.inner_width, span = fig.x_range.end - fig.x_range.start;
if (!(w > 0) || !(span > 0)) return;
const hexpx = size * w / span;
for (const [k, r] of Object.entries(renderers)) {
  const [f, lo] = scale[k];
  const px = Math.max(lo, Math.min(64, f * hexpx)).toFixed(1) + 'px';
  const cur = r.glyph.text_font_size;
  if (!cur || cur.value !== px) r.glyph.text_font_size = {value: px};
}
// names placed for a closer zoom are hidden until the map is zoomed in that far (drawn in
// place: not synced back to the server)
const N = names.data;
let changed = false;
const t = Array.from(N.t);
for (let i = 0; i < t.length; i++) {
  const want = hexpx + 1e-6 >= N.min_px[i] ? N.text[i] : '';
  if (t[i] !== want) { t[i] = want; changed = true; }
}
if (changed) { N.t = t; names.change.emit(); }
"""
    _FIT_JS = """
const w = fig.inner_width, h = fig.inner_height;
if (!(w > 0) || !(h > 0)) return;
if (fig.__wg_fit && fig.__wg_fit[0] === w && fig.__wg_fit[1] === h) return;
fig.__wg_fit = [w, h];
const [x0, x1, y0, y1] = bounds;
const k = Math.min(w / (x1 - x0), h / (y1 - y0));
const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, hw = w / k / 2, hh = h / k / 2;
fig.x_range.setv({start: cx - hw, end: cx + hw, reset_start: cx - hw, reset_end: cx + hw});
fig.y_range.setv({start: cy - hh, end: cy + hh, reset_start: cy - hh, reset_end: cy + hh});
"""

    def _scale_labels_with_zoom(self) -> None:
        """Counter letters and values, place names and badges drawn at a size tied to the
        plot's range (a CustomJS on the x range and the plot's width)."""
        fig = self.figure
        renderers = {"letter": self.letter_renderer, "values": self.values_renderer,
                     "badge": self.badge_renderer, "names": self.names_renderer,
                     "reach": self.reach_label_renderer}
        cb = CustomJS(args=dict(fig=fig, renderers=renderers, scale=self.LABEL_SCALE,
                                size=self.layout.size, names=self.names_source),
                      code=self._LABELS_JS)
        fig.x_range.js_on_change("start", cb)
        fig.x_range.js_on_change("end", cb)
        fig.js_on_change("inner_width", cb)

    _HOVER_JS = """
const sel = src.selected.indices;
if (sel.length === 0) return;
const b = filt.booleans;
let changed = false;
for (let i = 0; i < b.length; i++) {
  const want = i !== sel[0];
  if (b[i] !== want) { b[i] = want; changed = true; }
}
if (changed) filt.change.emit();  // in place: the server's highlights say the same next
"""
    _ESC_JS = """
if (window.__wg_esc && window.__wg_esc.includes(src.id)) return;
window.__wg_esc = (window.__wg_esc || []).concat([src.id]);
window.addEventListener('keydown', (ev) => {
  if (ev.key !== 'Escape') return;
  const t = ev.target && ev.target.tagName;
  if (t === 'INPUT' || t === 'TEXTAREA' || t === 'SELECT') return;
  src.data = {n: [(src.data.n[0] || 0) + 1]};
});
"""

    def _listen_for_escape(self, name: str) -> None:
        """Esc anywhere on the page (not while typing) calls ``on_escape`` on the server: a
        key listener installed once when the plot is first laid out, counting presses in a
        tiny data source that syncs back."""
        self.escape_source = ColumnDataSource(dict(n=[0]), name=f"{name}-esc")
        self.figure.js_on_change("inner_width", CustomJS(args=dict(src=self.escape_source),
                                                         code=self._ESC_JS))
        self.escape_source.on_change("data", self._on_escape)

    def _on_escape(self, attr: str, old: Any, new: Any) -> None:
        if self.on_escape is not None:
            self.on_escape()

    def _fit_on_resize(self) -> None:
        """The whole map in view, hexes regular, whenever the plot's size changes."""
        fig = self.figure
        fig.match_aspect = False
        cb = CustomJS(args=dict(fig=fig, bounds=list(self._bounds)), code=self._FIT_JS)
        fig.js_on_change("inner_width", cb)
        fig.js_on_change("inner_height", cb)

    def add_guides(self, lines: Sequence[tuple[tuple[float, float], tuple[float, float]]],
                   labels: Sequence[tuple[float, float, str]] = (), colour: str = "#333333",
                   name: str = "guides") -> None:
        """Fixed dashed lines and small labels drawn over the terrain (Memoir '44 sections)."""
        fig = self.figure
        src = ColumnDataSource(dict(x0=[a[0] for a, _ in lines], y0=[a[1] for a, _ in lines],
                                    x1=[b[0] for _, b in lines], y1=[b[1] for _, b in lines]),
                               name=f"{fig.name}-{name}")
        r = fig.segment(x0="x0", y0="y0", x1="x1", y1="y1", source=src, line_color=colour,
                        line_width=2.5, line_dash="dashed", line_alpha=0.8)
        fig.renderers.remove(r)
        fig.renderers.insert(4, r)  # over the terrain, under highlights and counters
        if labels:
            fig.text(x=[x for x, _, _ in labels], y=[y for _, y, _ in labels],
                     text=[t for _, _, t in labels], text_font_size="10pt",
                     text_align="center", text_baseline="middle", text_color=colour,
                     text_font_style="italic", name=f"{fig.name}-{name}-labels")

    def show_hexes(self, hexes: Sequence[Hex]) -> None:
        """Pan the map (keeping the zoom) so that the first of ``hexes`` is in view when none
        of them is (a decision asks for them)."""
        if not hexes:
            return
        xr, yr = self.figure.x_range, self.figure.y_range
        pts = [self.layout.to_xy(h) for h in hexes]
        if any(xr.start <= x <= xr.end and yr.start <= y <= yr.end for x, y in pts):
            return
        x, y = pts[0]
        hw, hh = (xr.end - xr.start) / 2, (yr.end - yr.start) / 2
        xr.update(start=x - hw, end=x + hw)
        yr.update(start=y - hh, end=y + hh)

    # ------------------------------------------------------------------ click prediction
    _PREDICT_JS = """
const sel = src.selected.indices;
if (sel.length === 0) return;
const i = sel[0];
const H = hl.data;
const kinds = Array.from(H.kind);
const busy = ['reach', 'entry', 'target', 'retreat', 'attacker'];
if (kinds.some(k => busy.includes(k))) return;  // a unit is selected: the click may be an order
const S = src.data;
for (let j = 0; j < kinds.length; j++) {
  if (kinds[j] === 'selected' && H.q[j] === S.q[i] && H.r[j] === S.r[i]) return;  // cycling a stack
}
const P = pred.data;
const rows = [];
for (let j = 0; j < P.origin.length; j++) { if (P.origin[j] === i) rows.push(j); }
if (rows.length === 0) return;
const cols = Object.keys(H);
const out = {};
for (const c of cols) out[c] = [];
for (let j = 0; j < kinds.length; j++) {  // keep the overlays (history)
  if (kinds[j] === 'selected' || kinds[j] === 'zoc') continue;
  for (const c of cols) out[c].push(H[c][j]);
}
const hexcol = (f) => { f = Math.max(0, Math.min(1, f));
  const h = (v) => Math.floor(v).toString(16).padStart(2, '0');
  return '#' + h(250 - 180 * f) + h(220 - 40 * f) + h(90 - 40 * f); };
const add = (k, kind, fill, st) => {
  out.q.push(S.q[k]); out.r.push(S.r[k]); out.x.push(S.x[k]); out.y.push(S.y[k]);
  out.kind.push(kind); out.fill.push(fill); out.fill_alpha.push(st.fill_alpha);
  out.line.push(st.line_color); out.line_width.push(st.line_width);
  out.mark.push(st.mark || 'dot'); out.mark_size.push(st.mark ? (st.mark_size || 14) : 0); };
const lx = [], ly = [], lt = [];
for (const j of rows) {
  const k = P.idx[j];
  add(k, 'reach', hexcol(P.frac[j]), styles.reach);
  if (rows.length > max_labels) continue;
  lx.push(S.x[k]); ly.push(S.y[k] - 0.62 * size);
  lt.push(String(P.left[j]) + (P.engaged[j] ? '!' : ''));
}
const Z = zoc.data;
for (let j = 0; j < Z.idx.length; j++) add(Z.idx[j], 'zoc', styles.zoc.fill_color, styles.zoc);
add(i, 'selected', styles.selected.fill_color, styles.selected);
// in place + change.emit(): drawn now, not synced back; the server's answer replaces it
for (const c of cols) H[c] = out[c];
hl.change.emit();
const L = lab.data;
L.x = lx; L.y = ly; L.t = lt;
lab.change.emit();
"""

    def _build_prediction(self, name: str) -> None:
        """Reachable hexes drawn in the browser the moment a counter is clicked, from a table
        the server sends after each change of position (``set_predictions``); the server's own
        answer follows and replaces it with the same picture. Without a table, nothing happens
        in the browser and the server answers as before."""
        self.predict_source = ColumnDataSource(
            dict(origin=[], idx=[], frac=[], left=[], engaged=[]), name=f"{name}-predict")
        self.predict_zoc = ColumnDataSource(dict(idx=[]), name=f"{name}-predict-zoc")
        styles = {k: HIGHLIGHT_STYLE[k] for k in ("reach", "zoc", "selected")}
        self.hex_source.selected.js_on_change("indices", CustomJS(
            args=dict(src=self.hex_source, hl=self.highlight_source, lab=self.label_source,
                      pred=self.predict_source, zoc=self.predict_zoc, styles=styles,
                      size=self.layout.size, max_labels=self.MAX_REACH_LABELS),
            code=self._PREDICT_JS))

    def set_predictions(self, reach_by_hex: dict[str, list[tuple[Hex, float, float, bool]]],
                        zoc: Iterable[Hex] = ()) -> None:
        """``reach_by_hex``: for the hex a click would select a unit in, the rows
        (destination, fraction of movement left, points left, engaged) the server would draw.
        An empty mapping turns prediction off."""
        index = self._index
        data: dict[str, list] = dict(origin=[], idx=[], frac=[], left=[], engaged=[])
        for origin, rows in reach_by_hex.items():
            o = index[origin]
            for h, frac, left, engaged in rows:
                data["origin"].append(o)
                data["idx"].append(index[h.id])
                data["frac"].append(float(frac))
                data["left"].append(float(left))
                data["engaged"].append(1 if engaged else 0)
        zdata = dict(idx=[index[h.id] for h in zoc if h.id in index] if reach_by_hex else [])
        if data != dict(self.predict_source.data):
            self.predict_source.data = data
        if zdata != dict(self.predict_zoc.data):
            self.predict_zoc.data = zdata

    @staticmethod
    def _empty_highlights() -> dict[str, list]:
        return dict(q=[], r=[], x=[], y=[], kind=[], fill=[], fill_alpha=[], line=[],
                    line_width=[], mark=[], mark_size=[])

    @staticmethod
    def _empty_counters() -> dict[str, list]:
        return dict(x=[], y=[], by=[], vy=[], lx=[], box=[], uid=[], letter=[], values=[],
                    colour=[], alpha=[], stripe=[], sx0=[], sy0=[], sx1=[], sy1=[], edge=[],
                    lw=[], hex=[], title=[])

    def shared_edge(self, a: Hex, b: Hex) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """The two corners hexes a and b share (None when not adjacent)."""
        ca = self.layout.corners(a)
        cb = self.layout.corners(b)
        shared = [p for p in ca if any(math.dist(p, o) < 1e-6 * max(1, self.layout.size)
                                       for o in cb)]
        if len(shared) != 2:
            return None
        return shared[0], shared[1]

    # ------------------------------------------------------------------ clicks
    def _on_indices(self, attr: str, old: list[int], new: list[int]) -> None:
        if not new:
            return
        idx = new[0]
        hex_id = self.hex_source.data["id"][idx]
        self._clicked = True
        self.hex_source.selected.indices = []
        self.clicks += 1
        if self.on_click is not None:
            self.on_click(hex_id)

    def click(self, hex_id: str) -> None:
        """Simulate a click (tests, notebooks): same path as a browser tap."""
        self.hex_source.selected.indices = [self._index[hex_id]]

    # ------------------------------------------------------------------ updates (in place)
    def set_counters(self, counters: Sequence[Counter], selected: str | None = None) -> None:
        """Top counter of each stack drawn, with a badge showing the stack size."""
        lay = self.layout
        data = self._empty_counters()
        badges: dict[str, list] = dict(x=[], y=[], n=[])
        units_text: dict[str, list[str]] = {}
        cw, ch = self._counter_size
        size = lay.size
        lines: dict[str, list] = dict(x0=[], y0=[], x1=[], y1=[])
        ovals: dict[str, list] = dict(x=[], y=[])
        dots: dict[str, list] = dict(x=[], y=[])
        arcs: dict[str, list] = dict(x=[], y=[], a0=[], a1=[])
        bw, bh = SYMBOL_W * size / 2, SYMBOL_H * size / 2  # half the symbol's box
        for c in counters:
            x, y = c.at if c.at is not None else lay.to_xy(c.hex)
            parts, extra = symbol_parts(c.symbol) if c.symbol else ((), "")
            by = y + SYMBOL_DY * size
            data["x"].append(x)
            data["y"].append(y)
            data["by"].append(by)
            data["vy"].append(y + VALUES_DY * size)
            data["uid"].append(c.uid)
            # the letter: alone in the box without a symbol; beside the symbol's parts
            # (commando, rocket launcher...) at the box's left, small
            letter = extra + c.tag if c.symbol else c.letter
            data["letter"].append(letter)
            data["lx"].append(x - 0.62 * bw if parts and letter else x)
            data["box"].append(1.0 if c.symbol else 0.0)
            data["values"].append(c.values)
            data["colour"].append(c.colour)
            data["alpha"].append(0.55 if c.reduced else 1.0)
            data["stripe"].append(0.9 if c.reduced else 0.0)
            data["sx0"].append(x + 0.22 * cw)
            data["sy0"].append(y + 0.5 * ch)
            data["sx1"].append(x + 0.5 * cw)
            data["sy1"].append(y + 0.22 * ch)
            x0, x1, y0, y1 = x - bw, x + bw, by - bh, by + bh
            if "x" in parts:
                lines["x0"] += [x0, x0]
                lines["y0"] += [y0, y1]
                lines["x1"] += [x1, x1]
                lines["y1"] += [y1, y0]
            if "slash" in parts:
                lines["x0"].append(x0)
                lines["y0"].append(y0)
                lines["x1"].append(x1)
                lines["y1"].append(y1)
            if "wheel" in parts:
                lines["x0"].append(x)
                lines["y0"].append(y0)
                lines["x1"].append(x)
                lines["y1"].append(y1)
            if "bar" in parts:
                lines["x0"].append(x - 0.6 * bw)
                lines["y0"].append(y1 - 0.25 * bh)
                lines["x1"].append(x + 0.6 * bw)
                lines["y1"].append(y1 - 0.25 * bh)
            if "oval" in parts:
                ovals["x"].append(x)
                ovals["y"].append(by)
            if "dot" in parts:
                dots["x"].append(x)
                dots["y"].append(by)
            if "para" in parts:  # the parachute: an arc open downwards at the box's top
                arcs["x"].append(x)
                arcs["y"].append(y1 - 0.2 * size)
                arcs["a0"].append(0.25)
                arcs["a1"].append(math.pi - 0.25)
            if "dome" in parts:  # anti-aircraft: an arc over the box's bottom
                arcs["x"].append(x)
                arcs["y"].append(y0)
                arcs["a0"].append(0.0)
                arcs["a1"].append(math.pi)
            sel = c.uid == selected
            edge, lw = COUNTER_MARKS.get(c.mark, ("#222", 1.0))
            data["edge"].append("#e6b800" if sel else edge)
            data["lw"].append(4.0 if sel else lw)
            data["hex"].append(c.hex.id)
            data["title"].append(c.title)
            units_text.setdefault(c.hex.id, []).extend(c.stack_titles or (c.title or c.uid,))
            if c.stack > 1:
                badges["x"].append(x + 0.5 * cw)
                badges["y"].append(y + 0.5 * ch)
                badges["n"].append(str(c.stack))
        _update(self.symbol_lines, lines)
        _update(self.symbol_ovals, ovals)
        _update(self.symbol_dots, dots)
        _update(self.symbol_arcs, arcs)
        # only what changed goes to the browser (a selection changes two cells, not the map)
        _update(self.counter_source, data)
        _update(self.badge_source, badges)
        ids = self.hex_source.data["id"]
        units = [", ".join(units_text.get(i, [])) for i in ids]
        old = self.hex_source.data["units"]
        changed = [(k, u) for k, (u, o) in enumerate(zip(units, old, strict=True)) if u != o]
        if changed:
            self.hex_source.patch({"units": changed})

    def set_highlights(self, highlights: Sequence[Highlight]) -> None:
        data = self._empty_highlights()
        labels: dict[str, list] = dict(x=[], y=[], t=[])
        for h in highlights:
            style = HIGHLIGHT_STYLE.get(h.kind, HIGHLIGHT_STYLE["selected"])
            data["q"].append(h.hex.q)
            data["r"].append(h.hex.r)
            hx, hy = self.layout.to_xy(h.hex)
            data["x"].append(hx)
            data["y"].append(hy)
            data["mark"].append(style.get("mark") or "dot")
            data["mark_size"].append(style.get("mark_size", 14) if style.get("mark") else 0)
            data["kind"].append(h.kind)
            data["fill"].append(h.fill or style.get("fill_color", "#ffffff"))
            data["fill_alpha"].append(style.get("fill_alpha", 0.3))
            data["line"].append(style.get("line_color", "#000"))
            data["line_width"].append(style.get("line_width", 1.0))
            if h.label:
                labels["x"].append(hx)
                labels["y"].append(hy - 0.62 * self.layout.size)
                labels["t"].append(h.label)
        # replaced whole, and always after a click: the browser may be showing a prediction
        # (_PREDICT_JS) the server's copy does not know about
        force, self._clicked = self._clicked, False
        selected = {self._index.get(h.hex.id, -1) for h in highlights if h.kind == "selected"}
        hover = [i not in selected for i in range(len(self.hexes))]
        if force or hover != list(self.hover_filter.booleans):
            self.hover_filter.booleans = hover
        if force or data != dict(self.highlight_source.data):
            self.highlight_source.data = data
        if force or labels != dict(self.label_source.data):
            self.label_source.data = labels

    def set_last(self, hexes: Iterable[Hex]) -> None:
        """Ring ``hexes``: where the last action happened (issue 28)."""
        known = [h for h in dict.fromkeys(hexes) if h.id in self._index]
        data = dict(q=[h.q for h in known], r=[h.r for h in known])
        if data != dict(self.last_source.data):
            self.last_source.data = data

    @staticmethod
    def reach_colour(fraction: float) -> str:
        return _reach_colour(fraction)

    def __panel__(self) -> pn.viewable.Viewable:
        return self._pane


ClickHandler = Callable[[str], None]


def _update(source: ColumnDataSource, data: dict[str, list]) -> None:
    """Replace a source's columns; when only some cells changed (same length), patch them."""
    current = source.data
    if set(current) == set(data) and all(len(current[k]) == len(v) for k, v in data.items()):
        patches = {}
        for k, v in data.items():
            cells = [(i, new) for i, (new, old) in enumerate(zip(v, current[k], strict=True))
                     if new != old]
            if cells:
                patches[k] = cells
        changed = sum(len(c) for c in patches.values())
        if changed * 2 > sum(len(v) for v in data.values()):
            source.data = data  # most cells changed: one replacement is cheaper to send
        elif patches:
            source.patch(patches)
        return
    source.data = data
