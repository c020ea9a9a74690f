"""Movement (CN/OD 4.0-4.1): costs, reachable hexes, engagement (zones of engagement).

Costs are counted in half movement points (integers), so roads at 0.5 stay exact.
"""

from __future__ import annotations

from typing import NamedTuple

from wargame.hexgrid import Hex
from wargame.operational.board import Board
from wargame.operational.tables import Tables

__all__ = ["StepCosts", "Reach", "reachable", "blocked_and_zoc", "path_to", "step_cost"]


def _half(points: float) -> int:
    return int(round(points * 2))


def step_cost(tables: Tables, board: Board, movement_class: str, a: Hex, b: Hex) -> int | None:
    """Half-points to move from a to the adjacent hex b, or None when prohibited.

    CN/OD 4.0 table: the terrain of the hex entered (village and airfield: the hex's own
    terrain); rivers and canals are hexsides whose crossing adds its cost; moving along a road
    hexside costs the road cost whatever the terrain, and a road over a river is a bridge
    (docs/rules-notes.md "Rivers are hexsides").
    """
    info = board.hexes.get(b)
    if info is None:
        return None
    terrain = tables.terrain.get(info.terrain)
    if terrain is None:
        return None
    base = terrain.cost.get(movement_class)
    if base is None:
        return None  # prohibited: sea, border, marsh for armour (CN), mountain for armour (OD)
    if board.road_between(a, b):
        return _half(tables.road_cost[movement_class])
    cost = _half(base)
    river = board.river_between(a, b)
    if river is not None:
        side = tables.hexsides.get(river)
        if side is not None:
            extra = side.cost.get(movement_class)
            if extra is None:
                return None
            cost += _half(extra)
    return cost


class StepCosts:
    """Per movement class, the cost of every step of the board, computed once per board.

    Hexes are numbered (``index``) so the search runs on small ints, which hash and compare
    much faster than ``Hex`` values.
    """

    def __init__(self, tables: Tables, board: Board) -> None:
        self.tables = tables
        self.board = board
        self.hexes: list[Hex] = sorted(board.hexes)
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        self._by_class: dict[str, dict[Hex, tuple[tuple[Hex, int], ...]]] = {}
        self._indexed: dict[str, list[tuple[tuple[int, int], ...]]] = {}

    def for_class(self, movement_class: str) -> dict[Hex, tuple[tuple[Hex, int], ...]]:
        table = self._by_class.get(movement_class)
        if table is None:
            table = {}
            for h in self.board.hexes:
                steps = []
                for n in self.board.neighbours(h):
                    c = step_cost(self.tables, self.board, movement_class, h, n)
                    if c is not None:
                        steps.append((n, c))
                table[h] = tuple(steps)
            self._by_class[movement_class] = table
        return table

    def indexed(self, movement_class: str) -> list[tuple[tuple[int, int], ...]]:
        table = self._indexed.get(movement_class)
        if table is None:
            by_hex = self.for_class(movement_class)
            index = self.index
            table = [tuple((index[n], c) for n, c in by_hex[h]) for h in self.hexes]
            self._indexed[movement_class] = table
        return table


class Reach(NamedTuple):
    """One reachable hex. A named tuple: ``reachable`` builds hundreds per call, and a tuple
    is built about three times faster than a frozen dataclass (bench/movement.py)."""

    cost: int  # half-points spent to get there
    prev: Hex | None
    engaged: bool  # the hex is in an enemy zone of engagement: movement stops there


_new_reach = tuple.__new__


def reachable(
    steps: StepCosts,
    movement_class: str,
    start: Hex,
    budget: int,
    enemy_occupied: set[Hex] | frozenset[Hex] = frozenset(),
    enemy_zoc: set[Hex] | frozenset[Hex] = frozenset(),
    forbidden: set[Hex] | frozenset[Hex] = frozenset(),
    start_cost: int = 0,
    extra_steps: dict[Hex, list[tuple[Hex, int]]] | None = None,
    indexed_sets: tuple[frozenset[int], frozenset[int]] | None = None,
) -> dict[Hex, Reach]:
    """Hexes reachable from ``start`` within ``budget`` half-points (Dijkstra, with buckets).

    CN/OD 4.1.2: entering an enemy zone of engagement stops the unit; leaving one at the start
    of a move costs one extra point ("romper contato"); enemy hexes are never entered.
    ``forbidden`` are hexes this unit may not enter (e.g. maquis areas for the Axis, OD 10.0).
    ``extra_steps`` adds links between hexes that are not neighbours (CN 4.2.2's off-map roads).
    Stacking is checked by the caller on the destination only (4.1.1: friendly stacks may be
    passed through).
    ``indexed_sets`` may give (blocked, zoc) already as hex numbers (``StepCosts.index``), as
    a state caches them between calls; ``enemy_occupied``, ``enemy_zoc`` and ``forbidden`` are
    then ignored.
    """
    index = steps.index
    table = steps.indexed(movement_class)
    if indexed_sets is None:
        indexed_sets = blocked_and_zoc(steps, enemy_occupied, enemy_zoc, forbidden)
    blocked, zoc = indexed_sets
    if extra_steps:
        table = list(table)  # this call's own links: CN 4.2.2's off-map roads added
        for a, links in extra_steps.items():
            i = index[a]
            table[i] = table[i] + tuple((index[b], c) for b, c in links)
    s = index[start]
    hexes = steps.hexes
    out = {start: Reach(start_cost, None, s in zoc)}
    if start_cost > budget:
        return out
    # Dial's algorithm: costs are small whole half-points, so one bucket per cost replaces the
    # heap. Each bucket is taken in hex-number order, the order a heap of (cost, hex) pops in,
    # so ties between equal-cost routes are settled as before (same ``prev``, same paths).
    # A hex that may not be entered gets distance -1, so no route ever improves on it.
    too_far = budget + 1
    dist = [too_far] * len(table)
    for n in blocked:
        dist[n] = -1
    prev = [-1] * len(table)
    dist[s] = start_cost
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    found: list[int] = []  # hexes in the order first reached: the result's order, as before
    base = start_cost + (2 if s in zoc else 0)  # CN/OD 4.1.2: +1 point to break contact
    for n, c in table[s]:
        nc = base + c
        if nc < dist[n]:
            found.append(n)
            dist[n] = nc
            prev[n] = s
            buckets[nc].append(n)
    for cost in range(start_cost, too_far):
        while buckets[cost]:
            batch = sorted(buckets[cost])
            buckets[cost] = []
            for h in batch:
                if dist[h] != cost or h in zoc:
                    continue  # reached more cheaply since, or engaged: must stop
                for n, c in table[h]:
                    nc = cost + c
                    if nc < dist[n]:
                        if dist[n] == too_far:
                            found.append(n)
                        dist[n] = nc
                        prev[n] = h
                        buckets[nc].append(n)
    new = _new_reach
    for n in found:
        if n != s:
            out[hexes[n]] = new(Reach, (dist[n], hexes[prev[n]], n in zoc))
    return out


def blocked_and_zoc(
    steps: StepCosts,
    enemy_occupied: set[Hex] | frozenset[Hex],
    enemy_zoc: set[Hex] | frozenset[Hex],
    forbidden: set[Hex] | frozenset[Hex] = frozenset(),
) -> tuple[frozenset[int], frozenset[int]]:
    """The hexes a move may not enter (enemy, forbidden) and the enemy zones of engagement,
    as hex numbers of ``steps.index``."""
    index = steps.index
    blocked = {index[h] for h in enemy_occupied if h in index}
    if forbidden:
        blocked.update(index[h] for h in forbidden if h in index)
    return frozenset(blocked), frozenset(index[h] for h in enemy_zoc if h in index)


def path_to(reach: dict[Hex, Reach], dest: Hex) -> list[Hex]:
    """The hexes from the start (excluded) to ``dest`` (included)."""
    path = []
    h: Hex | None = dest
    while h is not None and reach[h].prev is not None:
        path.append(h)
        h = reach[h].prev
    return list(reversed(path))
