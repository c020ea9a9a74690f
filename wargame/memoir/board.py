"""Memoir '44 battlefield: .m44 coordinates, sections, terrain and line of sight.

The board is pointy-top rows of 13 and 12 hexes (Overlord: 26 and 25). Scenario files (.m44)
give a hex as ``row`` (0-8, 0 on the Axis edge) and a doubled column ``col`` (row + col even).
We compute in axial coordinates: ``q = (col - row) // 2``, ``r = row``; the conversion happens
only here, at the edge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, overload

from wargame.hexgrid import Hex, Layout, hex_round

__all__ = [
    "AXIS",
    "ALLIES",
    "SIDES",
    "LAYOUT",
    "m44_to_hex",
    "hex_to_m44",
    "Board",
    "BoardHex",
    "other_side",
    "line_interiors",
    "OLD_SIDE_IDS",
    "renamed_sides",
]

AXIS = "axis"      # the side ids of every game (issue #27): the campaigns' spelling
ALLIES = "allied"
SIDES = (AXIS, ALLIES)
OLD_SIDE_IDS = {"AXIS": AXIS, "ALLIES": ALLIES}
"""The side words of .m44 files, of the scenario files (which keep them) and of saves, state
files and rooms written before issue #27 -> today's ids."""


@overload
def renamed_sides(data: dict[str, Any]) -> dict[str, Any]: ...
@overload
def renamed_sides(data: object) -> object: ...
def renamed_sides(data: object) -> object:
    """``data`` (plain JSON) with every string and key that is an old side word
    (``OLD_SIDE_IDS``) replaced by today's id; other values unchanged (a new copy)."""
    if isinstance(data, dict):
        return {OLD_SIDE_IDS.get(k, k) if isinstance(k, str) else k: renamed_sides(v)
                for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [renamed_sides(v) for v in data]
    if isinstance(data, str):
        return OLD_SIDE_IDS.get(data, data)
    return data

# Bokeh-compatible layout: row 0 (Axis edge) at the top, x grows with the doubled column.
LAYOUT = Layout(orientation="pointytop", size=1.0)

LEFT, CENTER, RIGHT = "left", "center", "right"
SECTIONS = (LEFT, CENTER, RIGHT)


def other_side(side: str) -> str:
    return ALLIES if side == AXIS else AXIS


def m44_to_hex(row: int, col: int) -> Hex:
    """.m44 (row, doubled col) -> axial Hex."""
    if (row + col) % 2:
        raise ValueError(f".m44 hex (row {row}, col {col}): row + col must be even")
    return Hex((col - row) // 2, row)


def hex_to_m44(h: Hex) -> tuple[int, int]:
    """Axial Hex -> .m44 (row, doubled col)."""
    return h.r, 2 * h.q + h.r


@dataclass(frozen=True)
class BoardHex:
    """What is printed or fixed on one hex (removable obstacles live in the game state)."""

    terrain: str = "plain"  # plain, woods, hills, buildings, hedgerow, river, ocean, beach ...
    bridge: bool = False
    bunker: bool = False
    hedgehog: bool = False
    bunker_side: str | None = None  # who may claim the bunker, when the hex says (imports)


@dataclass(frozen=True)
class Board:
    """Fixed battlefield: dimensions, sections and per-hex terrain."""

    width: int = 13  # hexes in an even row
    rows: int = 9
    hexes: dict[Hex, BoardHex] = field(default_factory=dict)
    # section boundaries in doubled columns (M44 Battlefield: hexes cut by a dashed line belong
    # to both sections); standard board 7 and 17 (BGA Units.php), Overlord scaled.
    boundaries: tuple[int, int] = (7, 17)

    @property
    def max_col(self) -> int:
        return 2 * (self.width - 1)

    def on_board(self, h: Hex) -> bool:
        row, col = hex_to_m44(h)
        return 0 <= row < self.rows and 0 <= col <= self.max_col

    def all_hexes(self) -> list[Hex]:
        out = []
        for row in range(self.rows):
            for col in range(row % 2, self.max_col + 1, 2):
                out.append(m44_to_hex(row, col))
        return out

    def at(self, h: Hex) -> BoardHex:
        return self.hexes.get(h, _PLAIN)

    def terrain(self, h: Hex) -> str:
        bh = self.hexes.get(h)
        return "plain" if bh is None else bh.terrain

    # M44 Battlefield: three sections; left/right are seen from the Allied (bottom) player, and
    # mirrored for the Axis player (see ``player_section``).
    def board_sections(self, h: Hex) -> frozenset[str]:
        _, col = hex_to_m44(h)
        a, b = self.boundaries
        out = set()
        if col <= a:
            out.add(LEFT)
        if a <= col <= b:
            out.add(CENTER)
        if col >= b:
            out.add(RIGHT)
        return frozenset(out)

    def sections_for(self, h: Hex, side: str) -> frozenset[str]:
        """Sections of a hex as named by ``side``'s command cards."""
        return frozenset(player_section(s, side) for s in self.board_sections(h))

    def home_row(self, side: str) -> int:
        return self.rows - 1 if side == ALLIES else 0

    def retreat_steps(self, h: Hex, side: str) -> list[Hex]:
        """The two neighbours one row closer to ``side``'s own edge (M44 Retreat)."""
        if side == ALLIES:
            return [Hex(h.q, h.r + 1), Hex(h.q - 1, h.r + 1)]
        return [Hex(h.q, h.r - 1), Hex(h.q + 1, h.r - 1)]

    def forward_neighbours(self, h: Hex, side: str) -> list[Hex]:
        return self.retreat_steps(h, other_side(side))

    def hill_component(self, h: Hex) -> frozenset[Hex]:
        """The connected hill mass containing ``h`` (for the plateau effect)."""
        if self.terrain(h) != "hills":
            return frozenset()
        seen = {h}
        todo = [h]
        while todo:
            cur = todo.pop()
            for n in cur.neighbours():
                if n not in seen and self.terrain(n) == "hills":
                    seen.add(n)
                    todo.append(n)
        return frozenset(seen)

    def to_xy(self, h: Hex) -> tuple[float, float]:
        return LAYOUT.to_xy(h)


_PLAIN = BoardHex()


def player_section(board_section: str, side: str) -> str:
    """The Axis player sits across the table: his left flank is the board's right."""
    if side == ALLIES or board_section == CENTER:
        return board_section
    return RIGHT if board_section == LEFT else LEFT


def line_variants(a: Hex, b: Hex) -> tuple[list[Hex], list[Hex]]:
    """The hexes crossed by the centre-to-centre line a->b, nudged to each side.

    M44 Line of Sight: when the line runs along hexsides, the two nudged lines pick the hexes
    on either side; the view is blocked only if both are blocked. Memoised (pure geometry).
    """
    cached = _LINES.get((a, b))
    if cached is None:
        cached = _LINES[(a, b)] = _line_variants(a, b)
    return list(cached[0]), list(cached[1])


_LINES: dict[tuple[Hex, Hex], tuple[list[Hex], list[Hex]]] = {}
_INTERIORS: dict[tuple[Hex, Hex], tuple[tuple[Hex, ...], tuple[Hex, ...]]] = {}


_OFFSET_INTERIORS: dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], ...]] = {}


def line_interiors(a: Hex, b: Hex) -> tuple[tuple[Hex, ...], tuple[Hex, ...]]:
    """The hexes strictly between ``a`` and ``b`` on each nudged line of ``line_variants``
    (read-only tuples, shared: what line-of-sight checks read; memoised, pure geometry).

    The lines only depend on ``b - a``: they are computed once per offset from the origin and
    moved to ``a`` (the test suite compares both ways on whole boards)."""
    cached = _INTERIORS.get((a, b))
    if cached is None:
        dq, dr = b.q - a.q, b.r - a.r
        rel = _OFFSET_INTERIORS.get((dq, dr))
        if rel is None:
            lines = _line_variants(Hex(0, 0), Hex(dq, dr))
            rel = _OFFSET_INTERIORS[(dq, dr)] = tuple(
                tuple((h.q, h.r) for h in line[1:-1]) for line in lines)
        q, r = a.q, a.r
        get = _HEXES.get
        moved: list[tuple[Hex, ...]] = []
        for part in rel:
            line: list[Hex] = []
            for x, y in part:
                qr = (q + x, r + y)
                h = get(qr)
                if h is None:
                    h = _HEXES[qr] = Hex(*qr)
                line.append(h)
            moved.append(tuple(line))
        cached = _INTERIORS[(a, b)] = (moved[0], moved[1])
    return cached


_HEXES: dict[tuple[int, int], Hex] = {}  # (q, r) -> Hex: one object each (speed only)


def _line_variants(a: Hex, b: Hex) -> tuple[list[Hex], list[Hex]]:
    """The two nudged lines' hexes: every hex whose interior the segment from a's centre to b's
    centre, shifted by a tiny offset to one side or the other, passes through (M44 p.11 Line
    of Sight: "qualquer hexágono (ou parte de um hexágono) que intercepte esta linha"), in the
    order the line enters them (a first, b last).

    Sampling the line at its n + 1 hex steps (the usual hex line drawing) misses a hex the line
    crosses at an edge midpoint: there the sample falls on the edge and each nudge keeps only
    one of the two hexes although the line crosses both. The exact crossing is computed from
    the hex cell in cube coordinates, ``|dx - dy|, |dy - dz|, |dz - dx| < 1`` around its
    centre, which is linear along the segment.
    """
    n = a.distance(b)
    if n == 0:
        return [a], [a]
    out = []
    for sign in (1, -1):
        eps_q, eps_r = sign * 1e-6, sign * 2e-6
        aq, ar = a.q + eps_q, a.r + eps_r
        bq, br = b.q + eps_q, b.r + eps_r
        samples = [hex_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n)
                   for i in range(n + 1)]
        candidates = set(samples)
        for h in samples:
            candidates.update(h.neighbours())
        # the segment p(t) = p0 + t * dp, t in [0, 1], in cube coordinates (x, y, z)
        p0 = (aq, -aq - ar, ar)
        dp = (bq - aq, (-bq - br) - (-aq - ar), br - ar)
        crossed: list[tuple[float, Hex]] = []
        for h in candidates:
            c = (h.q, -h.q - h.r, h.r)
            lo, hi = 0.0, 1.0
            for i, j in ((0, 1), (1, 2), (2, 0)):
                base = (p0[i] - c[i]) - (p0[j] - c[j])
                slope = dp[i] - dp[j]
                if slope == 0:
                    if abs(base) >= 1:
                        lo, hi = 1.0, 0.0
                    continue
                t1, t2 = (-1 - base) / slope, (1 - base) / slope
                lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
            if hi - lo > 1e-9:
                crossed.append((lo, h))
        crossed.sort(key=lambda item: item[0])
        out.append([h for _, h in crossed])
    return out[0], out[1]


def _sampled_line_variants(a: Hex, b: Hex) -> tuple[list[Hex], list[Hex]]:
    """The sampled hex lines (n + 1 hexes each) the engine used before issue 17 (tests)."""
    n = a.distance(b)
    if n == 0:
        return [a], [a]
    out = []
    for sign in (1, -1):
        eps_q, eps_r = sign * 1e-6, sign * 2e-6
        aq, ar = a.q + eps_q, a.r + eps_r
        bq, br = b.q + eps_q, b.r + eps_r
        out.append(
            [hex_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]
        )
    return out[0], out[1]


def line_blocked(a: Hex, b: Hex, blocks: Iterable[Hex] | Callable[[Hex], bool]) -> bool:
    """True if every nudged line from a to b crosses a blocking hex (endpoints excluded)."""
    test = blocks if callable(blocks) else set(blocks).__contains__
    for inner in line_interiors(a, b):
        if not any(test(h) for h in inner):
            return False
    return True
