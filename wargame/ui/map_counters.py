"""The hex map's counters, drawn as wargame pieces (issue 28): the nation's colour, the NATO
unit symbol in a box at the top, the values in large type below, a badge with the stack's size.
The layers (``draw_counters``) and the columns that fill them (``counter_columns``). Split from
``wargame.ui.hexmap`` (issue #35: no module over 800 lines)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bokeh.models import ColumnDataSource

from wargame.hexgrid import Hex, Layout

# counter mark -> (edge colour, edge width)
COUNTER_MARKS: dict[str, tuple[str, float]] = {
    "must_attack": ("#d00000", 4.0),
    "at_sea": ("#1f4fbf", 2.5),
}

# A counter as on the board (issue 28): a piece in the nation's colour, the NATO unit symbol in
# a box at its top and the values in large type below it, drawn in map units so that it scales
# with the hex. COUNTER_W x COUNTER_H in hex radii: the values "2-3-4" at HexMap.LABEL_SCALE
# ["values"] (0.68 of the radius: 14 px on the teacher's 1920x1080 view, about 21 px a radius;
# up to 0.85 of it to reach 11 px on a seat at 1280x720, about 13 px a radius: issue 32) are
# up to 2.0 radii wide in bold helvetica (2.33 em), so the piece is 2.0 wide, as wide as a
# flat-top hex (it was 1.6, and the values at 11 px overflowed it). On a pointy-top board
# (Memoir '44: a hex 1.73 radii wide, its values "4/4" short) the piece stays 1.6 wide, so
# that the pieces of a row do not touch (``counter_width``).
COUNTER_W, COUNTER_H = 2.0, 1.36
COUNTER_W_POINTY = 1.6


def counter_width(orientation: str) -> float:
    """The piece's width in hex radii on a board of this orientation (``Layout``)."""
    return COUNTER_W_POINTY if orientation == "pointytop" else COUNTER_W
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


def empty_counter_columns() -> dict[str, list]:
    return dict(x=[], y=[], by=[], vy=[], lx=[], box=[], uid=[], letter=[], values=[],
                colour=[], alpha=[], stripe=[], sx0=[], sy0=[], sx1=[], sy1=[], edge=[],
                lw=[], hex=[], title=[])


@dataclass
class CounterLayers:
    """The data sources and text renderers of the counters' layers (``draw_counters``)."""
    counter_source: ColumnDataSource
    symbol_lines: ColumnDataSource
    symbol_ovals: ColumnDataSource
    symbol_dots: ColumnDataSource
    symbol_arcs: ColumnDataSource
    badge_source: ColumnDataSource
    letter_renderer: Any
    values_renderer: Any
    badge_renderer: Any


def draw_counters(fig: Any, size: float, name: str, width: float = COUNTER_W) -> CounterLayers:
    """Add the counters' layers to the figure ``fig`` (hexes of radius ``size``): the piece
    (``width`` hex radii wide: ``counter_width``), the NATO symbol's box and parts, the values
    below, the stack's badge; empty until ``counter_columns`` fills them."""
    cw, ch = width * size, COUNTER_H * size
    counter_source = ColumnDataSource(empty_counter_columns(), name=f"{name}-counters")
    fig.rect(x="x", y="y", width=cw, height=ch, source=counter_source,
             fill_color="colour", fill_alpha="alpha", line_color="edge", line_width="lw",
             name=f"{name}-pieces")
    # a reduced (flipped) counter: paler, its top right corner cut by a stripe
    fig.segment(x0="sx0", y0="sy0", x1="sx1", y1="sy1", line_color="#333",
                line_width=3, line_alpha="stripe", source=counter_source)
    fig.rect(x="x", y="by", width=SYMBOL_W * size, height=SYMBOL_H * size,
             source=counter_source, fill_color="#ffffff", fill_alpha=0.35,
             line_color="#111", line_width=1.2, line_alpha="box")
    symbol_lines = ColumnDataSource(dict(x0=[], y0=[], x1=[], y1=[]),
                                    name=f"{name}-symbol-lines")
    fig.segment(x0="x0", y0="y0", x1="x1", y1="y1", line_color="#111", line_width=1.4,
                source=symbol_lines)
    symbol_ovals = ColumnDataSource(dict(x=[], y=[]), name=f"{name}-symbol-ovals")
    fig.ellipse(x="x", y="y", width=0.56 * SYMBOL_W * size,
                height=0.56 * SYMBOL_H * size, fill_color=None, line_color="#111",
                line_width=1.4, source=symbol_ovals)
    symbol_dots = ColumnDataSource(dict(x=[], y=[]), name=f"{name}-symbol-dots")
    fig.circle(x="x", y="y", radius=0.09 * size, fill_color="#111", line_color="#111",
               source=symbol_dots)
    symbol_arcs = ColumnDataSource(dict(x=[], y=[], a0=[], a1=[]),
                                   name=f"{name}-symbol-arcs")
    fig.arc(x="x", y="y", radius=0.2 * size, start_angle="a0", end_angle="a1",
            line_color="#111", line_width=1.4, source=symbol_arcs)
    letter_renderer = fig.text(
        x="lx", y="by", text="letter", source=counter_source,
        text_font_size="8pt", text_align="center", text_baseline="middle",
        text_font_style="bold", text_color="#111")
    values_renderer = fig.text(
        x="x", y="vy", text="values", source=counter_source,
        text_font_size="8pt", text_align="center", text_baseline="middle",
        text_font_style="bold", text_color="#111", name=f"{name}-values")
    badge_source = ColumnDataSource(dict(x=[], y=[], n=[]), name=f"{name}-badges")
    fig.circle(x="x", y="y", radius=0.27 * size, source=badge_source,
               fill_color="#222", line_color="white", line_width=1.5)
    badge_renderer = fig.text(
        x="x", y="y", text="n", source=badge_source, text_font_size="7pt",
        text_align="center", text_baseline="middle", text_color="white",
        text_font_style="bold")
    return CounterLayers(counter_source, symbol_lines, symbol_ovals, symbol_dots, symbol_arcs,
                         badge_source, letter_renderer, values_renderer, badge_renderer)


@dataclass
class CounterColumns:
    """The columns of the counters' layers for a list of counters (``counter_columns``)."""
    counters: dict[str, list]
    badges: dict[str, list]
    lines: dict[str, list]
    ovals: dict[str, list]
    dots: dict[str, list]
    arcs: dict[str, list]
    units_text: dict[str, list[str]] = field(default_factory=dict)


def counter_columns(counters: Sequence[Counter], layout: Layout,
                    selected: str | None = None) -> CounterColumns:
    """The top counter of each stack, with a badge showing the stack size; ``units_text``: hex
    id -> the stack's units, for the hex's tooltip."""
    size = layout.size
    data = empty_counter_columns()
    badges: dict[str, list] = dict(x=[], y=[], n=[])
    units_text: dict[str, list[str]] = {}
    cw, ch = counter_width(layout.orientation) * size, COUNTER_H * size
    lines: dict[str, list] = dict(x0=[], y0=[], x1=[], y1=[])
    ovals: dict[str, list] = dict(x=[], y=[])
    dots: dict[str, list] = dict(x=[], y=[])
    arcs: dict[str, list] = dict(x=[], y=[], a0=[], a1=[])
    bw, bh = SYMBOL_W * size / 2, SYMBOL_H * size / 2  # half the symbol's box
    for c in counters:
        x, y = c.at if c.at is not None else layout.to_xy(c.hex)
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
    return CounterColumns(data, badges, lines, ovals, dots, arcs, units_text)
