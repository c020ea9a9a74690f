"""Memoir '44 rules as small functions: terrain, movement, range, line of sight, dice.

Page numbers are the rulebook's own cross-references (the extracted text has no folios):
Combat p.10 ranges, Line of Sight p.11, Resolving Combat / Retreat p.12, Terrain p.17.
"""

from __future__ import annotations

from dataclasses import dataclass

from wargame.hexgrid import Hex

from .board import Board, line_variants
from .scenario import Scenario

__all__ = [
    "BLOCKING_TERRAIN",
    "STOP_TERRAIN",
    "NO_BATTLE_TERRAIN",
    "base_dice",
    "RANGE",
    "Terrainish",
    "protection",
    "reachable",
    "has_line_of_sight",
    "can_enter",
]

# M44 p.10 Combat: dice by distance (index 1 = adjacent).
RANGE: dict[str, tuple[int, ...]] = {
    "inf": (0, 3, 2, 1),
    "tank": (0, 3, 3, 3),
    "gun": (0, 3, 3, 2, 2, 1, 1),
}

# M44 Appendix 2 Terrain: stop on entry (woods, hedgerows, villages; wire is a state obstacle).
STOP_TERRAIN = frozenset({"woods", "hedgerow", "buildings"})
# ... and may not battle on the turn they are entered (except French Resistance).
NO_BATTLE_TERRAIN = frozenset({"woods", "hedgerow", "buildings"})
# M44 p.11 Line of Sight + Appendix 2: woods, hedgerows, villages, hills and bunkers block.
BLOCKING_TERRAIN = frozenset({"woods", "hedgerow", "buildings", "hills"})

# Appendix 2: dice removed when attacking a unit in the terrain, by attacker type.
TERRAIN_PROTECTION: dict[str, dict[str, int]] = {
    "woods": {"inf": 1, "tank": 2, "gun": 0},
    "hedgerow": {"inf": 1, "tank": 2, "gun": 0},
    "buildings": {"inf": 1, "tank": 2, "gun": 0},
    "hills": {"inf": 1, "tank": 1, "gun": 0},
}
BUNKER_PROTECTION = {"inf": 1, "tank": 2, "gun": 0}
SANDBAG_PROTECTION = {"inf": 1, "tank": 1, "gun": 0}


def base_dice(kind: str, distance: int) -> int:
    table = RANGE[kind]
    if distance < 1 or distance >= len(table):
        return 0
    return table[distance]


@dataclass
class Terrainish:
    """What the rules need to know about the current position (board + removable obstacles)."""

    scenario: Scenario
    occupied: dict[Hex, object]  # hex -> unit
    sandbags: set[Hex]
    wire: set[Hex]

    @property
    def board(self) -> Board:
        return self.scenario.board

    def bunker_counts_for(self, h: Hex, side: str) -> bool:
        # M44 Bunkers: only the player named by the scenario may claim a bunker.
        return self.board.at(h).bunker and self.scenario.opt("bunker_owner") == side

    def seawall_for(self, h: Hex, side: str) -> bool:
        walls = self.scenario.opt("seawalls") or {}
        return h in walls.get(side, frozenset())

    def impassable(self, h: Hex) -> bool:
        bh = self.board.at(h)
        if bh.terrain == "river" and not bh.bridge:
            return True  # M44 Rivers & Waterways: impassable except by a bridge
        if h in (self.scenario.opt("impassable") or frozenset()):
            return True
        return bh.terrain in (self.scenario.opt("impassable_terrain") or ())


def can_enter(t: Terrainish, kind: str, h: Hex, retreat: bool = False) -> bool:
    """May a unit of ``kind`` enter ``h`` (ignoring occupation)?"""
    if not t.board.on_board(h) or t.impassable(h):
        return False
    bh = t.board.at(h)
    if bh.bunker and kind != "inf":
        return False  # M44 Bunkers: armour and artillery may not enter
    if bh.hedgehog and kind != "inf":
        return False  # M44 Hedgehogs: only infantry may enter
    if retreat and bh.terrain == "ocean":
        return False  # M44 Ocean: impassable for retreat moves
    return True


def protection(t: Terrainish, target_hex: Hex, target_side: str, attacker_kind: str,
               attacker_hex: Hex) -> int:
    """M44 Fixed Obstacles: best protection only, never cumulative."""
    best = 0
    terrain = t.board.terrain(target_hex)
    if terrain in TERRAIN_PROTECTION:
        value = TERRAIN_PROTECTION[terrain][attacker_kind]
        if terrain == "hills" and t.board.terrain(attacker_hex) == "hills":
            value = 0  # M44 Hills: no reduction when attacking from the same height
        best = max(best, value)
    if t.bunker_counts_for(target_hex, target_side):
        best = max(best, BUNKER_PROTECTION[attacker_kind])
    if target_hex in t.sandbags or t.seawall_for(target_hex, target_side):
        best = max(best, SANDBAG_PROTECTION[attacker_kind])
    return best


def attacker_penalty(t: Terrainish, kind: str, h: Hex) -> int:
    penalty = 0
    if kind == "tank" and t.board.terrain(h) == "buildings":
        penalty += 2  # M44 Towns & Villages: armour battling out of a village
    if kind == "inf" and h in t.wire:
        penalty += 1  # M44 Wire: infantry battling out of wire
    return penalty


def ignorable_flags(t: Terrainish, h: Hex, side: str) -> list[str]:
    """Reasons a unit on ``h`` may ignore the first flag (at most one flag is ignored)."""
    why = []
    if t.bunker_counts_for(h, side):
        why.append("bunker")
    if t.board.at(h).hedgehog:
        why.append("hedgehog")
    if h in t.sandbags or t.seawall_for(h, side):
        why.append("sandbags")
    return why


def blocks_sight(t: Terrainish, h: Hex, plateau: frozenset[Hex],
                 extra: frozenset[str] = frozenset()) -> bool:
    if h in t.occupied:
        return True
    bh = t.board.at(h)
    if bh.bunker:
        return True
    if bh.terrain == "hills":
        return h not in plateau  # M44 Hills: plateau effect
    return bh.terrain in BLOCKING_TERRAIN or bh.terrain in extra


def has_line_of_sight(t: Terrainish, a: Hex, b: Hex,
                      extra: frozenset[str] = frozenset(),
                      only: frozenset[str] | None = None) -> bool:
    """M44 p.11 Line of Sight; blocked only if both nudged lines are blocked (hexside rule).

    ``only`` restricts blocking to those terrain names (Saverne Gap: artillery may not fire
    over the hills, but needs no line of sight otherwise).
    """
    if only is not None:
        hits = 0
        for line in line_variants(a, b):
            if any(t.board.terrain(h) in only for h in line[1:-1]):
                hits += 1
        return hits < 2
    plateau = frozenset()
    comp = t.board.hill_component(a)
    if comp and b in comp:
        plateau = comp
    blocked = 0
    for line in line_variants(a, b):
        if any(blocks_sight(t, h, plateau, extra) for h in line[1:-1]):
            blocked += 1
    return blocked < 2


def crosses(a: Hex, b: Hex, hexes: frozenset[Hex]) -> bool:
    return any(any(h in hexes for h in line[1:-1]) for line in line_variants(a, b))


def step_cost(t: Terrainish, kind: str, cur: Hex, nxt: Hex) -> int | None:
    """Movement cost of one step, or None if forbidden by a scenario rule."""
    board = t.board
    cliffs = t.scenario.opt("cliffs") or frozenset()
    if nxt in cliffs and board.terrain(cur) in ("beach", "ocean"):
        if kind == "tank" and t.scenario.opt("cliffs_no_armour"):
            return None  # Omaha Beach special rules: tanks may not climb the bluffs
        return 2  # Pointe-du-Hoc / Omaha: climbing the cliff from the beach is a 2-hex move
    if (t.scenario.opt("steep_hills") and board.terrain(nxt) == "hills"
            and board.terrain(cur) != "hills"):
        return 2  # Mortain special rules: moving up onto a hill is a 2-hex move
    return 1


def reachable(t: Terrainish, kind: str, start: Hex, max_dist: int) -> dict[Hex, int]:
    """Destinations of a regular move and their cost (M44 p.6-7 Movement, Appendix 2)."""
    board = t.board
    out: dict[Hex, int] = {}
    if max_dist <= 0:
        return out
    start_terrain = board.terrain(start)
    limit0 = max_dist
    if start_terrain == "ocean":
        limit0 = min(limit0, 1)  # M44 Ocean: a unit moving in the ocean moves 1 hex at most
    elif start_terrain == "beach":
        limit0 = min(limit0, 2)  # M44 Beaches: 2 hexes at most
    if start_terrain == "hedgerow":
        limit0 = min(limit0, 1)  # M44 Hedgerows: leave only to an adjacent hex

    def dfs(cur: Hex, cost: int, limit: int, visited: frozenset[Hex]) -> None:
        for nxt in cur.neighbours():
            if nxt in visited or nxt in t.occupied or not can_enter(t, kind, nxt):
                continue
            c = step_cost(t, kind, cur, nxt)
            if c is None:
                continue
            new_cost = cost + c
            terrain = board.terrain(nxt)
            new_limit = limit
            if terrain == "ocean":
                new_limit = min(new_limit, 1)
            elif terrain == "beach":
                new_limit = min(new_limit, 2)
            if new_cost > new_limit:
                continue
            if terrain == "hedgerow" and cur != start:
                continue  # M44 Hedgerows: must start the move adjacent to the hedgerow
            if nxt not in out or out[nxt] > new_cost:
                out[nxt] = new_cost
            stop = terrain in STOP_TERRAIN or nxt in t.wire
            if not stop:
                dfs(nxt, new_cost, new_limit, visited | {nxt})

    dfs(start, 0, limit0, frozenset({start}))
    return out
