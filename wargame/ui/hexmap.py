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
from wargame.ui.map_counters import (
    COUNTER_H,
    COUNTER_MARKS,
    COUNTER_W,
    LAST_RING,
    NATION_COLOURS,
    NATO_SYMBOLS,
    SYMBOL_DY,
    SYMBOL_H,
    SYMBOL_W,
    VALUES_DY,
    Counter,
    counter_columns,
    counter_width,
    draw_counters,
    symbol_parts,
)
from wargame.ui.map_labels import (
    CHAR_PAD,
    CHAR_WIDTH,
    DEFAULT_HEX_PX,
    LABEL_LEVELS,
    LABEL_SPOTS,
    LINE_HEIGHT,
    PlacedLabel,
    boxes_meet,
    label_box,
    label_font,
    place_labels,
)
from wargame.ui.map_scripts import ESC_JS, FIT_JS, HOVER_JS, LABELS_JS, PREDICT_JS
from wargame.ui.text import MAP_WORDS

__all__ = ["HexMap", "HexSpec", "Counter", "Highlight", "TERRAIN_STYLE", "HIGHLIGHT_STYLE",
           "NATION_COLOURS", "NATO_SYMBOLS", "PlacedLabel", "served_session",
           "symbol_parts", "place_labels", "label_box", "label_font", "terrain_words",
           "COUNTER_W", "COUNTER_H", "SYMBOL_W", "SYMBOL_H", "SYMBOL_DY", "VALUES_DY",
           "COUNTER_MARKS", "LAST_RING", "DEFAULT_HEX_PX", "LABEL_LEVELS", "LABEL_SPOTS",
           "CHAR_WIDTH", "CHAR_PAD", "LINE_HEIGHT", "boxes_meet"]

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
            # page gives it one ("both": served, see campaign_panels.MAP_HEIGHT_CSS), else the
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
            lay.size, scale=(self.LABEL_SCALE["names"][0], self.LABEL_SCALE["names"][1]),
            bounds=(x0, x1, y0, y1))
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
        width = counter_width(lay.orientation)
        layers = draw_counters(fig, lay.size, name, width)
        self._counter_size = (width * lay.size, COUNTER_H * lay.size)
        for attr in ("counter_source", "symbol_lines", "symbol_ovals", "symbol_dots",
                     "symbol_arcs", "badge_source", "letter_renderer", "values_renderer",
                     "badge_renderer"):
            setattr(self, attr, getattr(layers, attr))
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
    # smallest size drawn (px): the labels grow when the map is zoomed in or made wider.
    # The values have two more numbers (issue 32): a size they reach (px) as long as it is at
    # most a fraction of the hex (0.85: the values of counters in neighbouring columns, 0.866
    # of a hex apart in height, never meet): 11 px on a seat at 1280x720 (13 px a hex radius;
    # 9 px before), from a zoom of 12.95 px a hex; from 16.2 px a hex the 0.68 of the hex is
    # more (14 px on the teacher's 1920x1080 view)
    LABEL_SCALE: dict[str, tuple[float, ...]] = {
        "letter": (0.28, 7.0), "values": (0.68, 9.0, 11.0, 0.85), "badge": (0.36, 8.0),
        "names": (0.26, 8.0), "reach": (0.30, 8.0)}
    _LABELS_JS = LABELS_JS
    _FIT_JS = FIT_JS

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

    _HOVER_JS = HOVER_JS
    _ESC_JS = ESC_JS

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
    _PREDICT_JS = PREDICT_JS

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
        cols = counter_columns(counters, self.layout, selected)
        _update(self.symbol_lines, cols.lines)
        _update(self.symbol_ovals, cols.ovals)
        _update(self.symbol_dots, cols.dots)
        _update(self.symbol_arcs, cols.arcs)
        # only what changed goes to the browser (a selection changes two cells, not the map)
        _update(self.counter_source, cols.counters)
        _update(self.badge_source, cols.badges)
        ids = self.hex_source.data["id"]
        units = [", ".join(cols.units_text.get(i, [])) for i in ids]
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
