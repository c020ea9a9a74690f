"""Hex grid maths shared by every game.

Computation happens in axial coordinates (q, r) with cube s = -q - r, after Red Blob Games'
hexagon guide. Printed hex ids are converted only at the edges:

* Campaign maps (Campanha da Normandia, Operação Dragoon): flat-top hexes in columns, id
  ``CCRR`` = column then row, columns counted from 01 eastwards, rows from 01 southwards, and
  odd-numbered columns half a hex lower ("odd-q" with the printed column number as q). See
  ``docs/map-sources.md``: all 17 adjacencies implied by the rules fit this layout.
* Memoir '44: pointy-top rows of 13 and 12 hexes ("doubled" columns, see ``wargame.memoir``).

``Layout`` maps hexes to Bokeh-style cartesian coordinates. Bokeh's ``hex_tile`` and
``bokeh.util.hex.axial_to_cartesian`` negate y (row r grows downwards on screen); ``Layout``
does the same so glyphs drawn from either source coincide.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "Hex",
    "DIRECTIONS",
    "Layout",
    "offset_id",
    "parse_offset_id",
    "hex_round",
    "hex_line",
]


# Hex -> its six neighbours (hexes are immutable; maps are small)
_NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {}


class Hex(NamedTuple):
    """A hex in axial coordinates: an immutable pair ``(q, r)``.

    A named tuple for speed (hexes are dictionary keys and set members in every hot path:
    maps, reach, caches): hashing, equality and field access are the tuple's own, in C. The
    hash is the one of ``(q, r)``, as the earlier dataclass computed it, and the order is
    ``(q, r)``'s, so sets and dictionaries of hexes iterate in the same order as before.
    """

    q: int
    r: int

    def __copy__(self) -> Hex:
        return self

    def __deepcopy__(self, memo: dict) -> Hex:
        return self  # immutable: copying a state shares its hexes (speed only)

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def neighbour(self, direction: int) -> Hex:
        d = DIRECTIONS[direction % 6]
        return Hex(self.q + d.q, self.r + d.r)

    def neighbours(self) -> list[Hex]:
        cached = _NEIGHBOURS.get(self)
        if cached is None:
            cached = _NEIGHBOURS[self] = tuple(Hex(self.q + d.q, self.r + d.r) for d in DIRECTIONS)
        return list(cached)  # a new list: callers may change it

    def distance(self, other: Hex) -> int:
        dq = self.q - other.q
        dr = self.r - other.r
        # cube distance: max(|dq|, |dr|, |ds|) is half their sum (dq + dr + ds = 0); the sum
        # is twice as fast as max() (issue 19: the campaign bots call this a million times)
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def ring(self, radius: int) -> list[Hex]:
        if radius == 0:
            return [self]
        results = []
        h = self + Hex(DIRECTIONS[4].q * radius, DIRECTIONS[4].r * radius)
        for i in range(6):
            for _ in range(radius):
                results.append(h)
                h = h.neighbour(i)
        return results

    def within(self, radius: int) -> Iterator[Hex]:
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                yield Hex(self.q + dq, self.r + dr)

    # Printed ids (campaign maps) ------------------------------------------------------------
    @classmethod
    def from_id(cls, hex_id: str) -> Hex:
        return parse_offset_id(hex_id)

    @property
    def id(self) -> str:
        return offset_id(self)

    @property
    def col(self) -> int:
        return self.q

    @property
    def row(self) -> int:
        return self.r + (self.q - (self.q & 1)) // 2

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"


# Axial directions, clockwise from "north-east" for flat-top (any fixed order works).
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, -1),
    Hex(1, 0),
    Hex(0, 1),
    Hex(-1, 1),
    Hex(-1, 0),
    Hex(0, -1),
)


def parse_offset_id(hex_id: str) -> Hex:
    """``"2813"`` -> axial hex (column 28, row 13, odd columns half a hex lower)."""
    text = str(hex_id).strip()
    if len(text) != 4 or not text.isdigit():
        raise ValueError(f"hex id {hex_id!r}: expected four digits CCRR (column, row)")
    col, row = int(text[:2]), int(text[2:])
    return offset_to_hex(col, row)


def offset_to_hex(col: int, row: int) -> Hex:
    # odd-q: odd printed columns are shoved down half a hex.
    return Hex(col, row - (col - (col & 1)) // 2)


def offset_id(h: Hex) -> str:
    col, row = h.col, h.row
    if not (0 <= col <= 99 and 0 <= row <= 99):
        raise ValueError(f"{h!r} has no four-digit id (column {col}, row {row})")
    return f"{col:02d}{row:02d}"


def hex_round(fq: float, fr: float) -> Hex:
    """Round fractional axial coordinates to the nearest hex (cube rounding)."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the straight line from a to b, inclusive (with an epsilon nudge)."""
    n = a.distance(b)
    if n == 0:
        return [a]
    eps = 1e-6
    aq, ar = a.q + eps, a.r + 2 * eps
    bq, br = b.q + eps, b.r + 2 * eps
    return [hex_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


@dataclass(frozen=True)
class Layout:
    """Hex <-> cartesian mapping compatible with Bokeh's ``hex_tile`` (y negated).

    ``orientation`` is ``"flattop"`` (campaign maps) or ``"pointytop"`` (Memoir '44).
    ``size`` is the hex radius in data units.
    """

    orientation: str = "flattop"
    size: float = 1.0

    def to_xy(self, h: Hex) -> tuple[float, float]:
        if self.orientation == "pointytop":
            x = self.size * math.sqrt(3) * (h.q + h.r / 2)
            y = -self.size * 1.5 * h.r
        else:
            x = self.size * 1.5 * h.q
            y = -self.size * math.sqrt(3) * (h.r + h.q / 2)
        return x, y

    def many_to_xy(self, hexes: Iterable[Hex]) -> tuple[list[float], list[float]]:
        xs, ys = [], []
        for h in hexes:
            x, y = self.to_xy(h)
            xs.append(x)
            ys.append(y)
        return xs, ys

    def from_xy(self, x: float, y: float) -> Hex:
        y = -y
        if self.orientation == "pointytop":
            fq = (math.sqrt(3) / 3 * x - y / 3) / self.size
            fr = (2 / 3 * y) / self.size
        else:
            fq = (2 / 3 * x) / self.size
            fr = (-x / 3 + math.sqrt(3) / 3 * y) / self.size
        return hex_round(fq, fr)

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        cx, cy = self.to_xy(h)
        start = 0 if self.orientation == "flattop" else 30
        pts = []
        for i in range(6):
            ang = math.radians(start + 60 * i)
            pts.append((cx + self.size * math.cos(ang), cy + self.size * math.sin(ang)))
        return pts
