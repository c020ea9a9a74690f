"""Movement (CN/OD 4.0-4.1): costs, reachable hexes, engagement (zones of engagement).

Costs are counted in half movement points (integers), so roads at 0.5 stay exact.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from wargame.hexgrid import Hex
from wargame.operational.board import Board
from wargame.operational.tables import Tables

__all__ = ["StepCosts", "Reach", "reachable", "path_to", "step_cost"]


def _half(points: float | None) -> int | None:
    return None if points is None else int(round(points * 2))


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
    """Per movement class, the cost of every step of the board, computed once per board."""

    def __init__(self, tables: Tables, board: Board) -> None:
        self.tables = tables
        self.board = board
        self._by_class: dict[str, dict[Hex, tuple[tuple[Hex, int], ...]]] = {}

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


@dataclass(frozen=True, slots=True)
class Reach:
    cost: int  # half-points spent to get there
    prev: Hex | None
    engaged: bool  # the hex is in an enemy zone of engagement: movement stops there


def reachable(
    steps: dict[Hex, tuple[tuple[Hex, int], ...]],
    start: Hex,
    budget: int,
    enemy_occupied: set[Hex] | frozenset[Hex],
    enemy_zoc: set[Hex] | frozenset[Hex],
    forbidden: set[Hex] | frozenset[Hex] = frozenset(),
    start_cost: int = 0,
) -> dict[Hex, Reach]:
    """Hexes reachable from ``start`` within ``budget`` half-points (Dijkstra).

    CN/OD 4.1.2: entering an enemy zone of engagement stops the unit; leaving one at the start
    of a move costs one extra point ("romper contato"); enemy hexes are never entered.
    ``forbidden`` are hexes this unit may not enter (e.g. maquis areas for the Axis, OD 10.0).
    Stacking is checked by the caller on the destination only (4.1.1: friendly stacks may be
    passed through).
    """
    start_engaged = start in enemy_zoc
    best: dict[Hex, Reach] = {start: Reach(start_cost, None, start_engaged)}
    heap: list[tuple[int, Hex]] = [(start_cost, start)]
    leave_extra = 2 if start_engaged else 0  # CN/OD 4.1.2: +1 point to break contact
    while heap:
        cost, h = heapq.heappop(heap)
        if best[h].cost < cost:
            continue
        if h != start and h in enemy_zoc:
            continue  # engaged: must stop
        extra = leave_extra if h == start else 0
        for n, c in steps.get(h, ()):
            if n in enemy_occupied or n in forbidden:
                continue
            nc = cost + c + extra
            if nc > budget:
                continue
            old = best.get(n)
            if old is None or nc < old.cost:
                best[n] = Reach(nc, h, n in enemy_zoc)
                heapq.heappush(heap, (nc, n))
    return best


def path_to(reach: dict[Hex, Reach], dest: Hex) -> list[Hex]:
    """The hexes from the start (excluded) to ``dest`` (included)."""
    path = []
    h: Hex | None = dest
    while h is not None and reach[h].prev is not None:
        path.append(h)
        h = reach[h].prev
    return list(reversed(path))
