"""Memoir '44 rules as small functions: terrain, movement, range, line of sight, dice.

Page numbers are the rulebook's own cross-references (the extracted text has no folios):
Combat p.10 ranges, Line of Sight p.11, Resolving Combat / Retreat p.12, Terrain p.17.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from wargame.hexgrid import Hex

from .board import Board, line_interiors
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
    occupied: Mapping[Hex, object]  # hex -> unit
    sandbags: set[Hex]
    wire: set[Hex]
    occupied_ix: set[int] | None = None  # the same hexes as static(t).index numbers (speed)

    @property
    def board(self) -> Board:
        return self.scenario.board

    def bunker_counts_for(self, h: Hex, side: str) -> bool:
        # M44 Bunkers: only the player named by the scenario may claim a bunker; an imported
        # bunker names its side itself (docs/rules-notes.md, "Imported bunkers").
        bh = self.board.at(h)
        return bh.bunker and (bh.bunker_side or self.scenario.opt("bunker_owner")) == side

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


def _can_enter_static(t: Terrainish, kind: str, h: Hex) -> bool:
    if not t.board.on_board(h) or t.impassable(h):
        return False
    bh = t.board.at(h)
    if bh.bunker and kind != "inf":
        return False  # M44 Bunkers: armour and artillery may not enter
    if bh.hedgehog and kind != "inf":
        return False  # M44 Hedgehogs: only infantry may enter
    return True


class _Static:
    """What never changes during a game, precomputed once per scenario (speed only)."""

    def __init__(self, t: Terrainish) -> None:
        board = t.board
        hexes = board.all_hexes()
        self.terrain: dict[Hex, str] = {h: board.terrain(h) for h in hexes}
        onb = set(hexes)
        self.nbrs: dict[Hex, tuple[Hex, ...]] = {
            h: tuple(n for n in h.neighbours() if n in onb) for h in hexes}
        self.enter: dict[str, frozenset[Hex]] = {
            kind: frozenset(h for h in hexes if _can_enter_static(t, kind, h))
            for kind in ("inf", "tank", "gun")}
        self.cliffs = frozenset(t.scenario.opt("cliffs") or ())
        self.cliffs_no_armour = bool(t.scenario.opt("cliffs_no_armour"))
        self.steep_hills = bool(t.scenario.opt("steep_hills"))
        # Arnhem special rules: the banks of the wide river (connected land on each side).
        self.bank: dict[Hex, int] = _banks(hexes, self.nbrs,
                                           frozenset(t.scenario.opt("wide_river") or ()))
        # Arnhem special rules: the bridge deck is entered and left only by its end hexes.
        self.deck = frozenset(t.scenario.opt("bridge_deck") or ())
        self.deck_ends = frozenset(t.scenario.opt("bridge_ends") or ())
        # The same as small integers (hexes hash slowly): the movement search runs on these.
        self.hexes: list[Hex] = hexes
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(hexes)}
        ix = self.index
        self.i_terrain: list[str] = [self.terrain[h] for h in hexes]
        # hexes within 3 (the longest move) of each hex: what can change a unit's moves
        self.within: dict[int, list[frozenset[int]]] = {
            r: [frozenset(ix[o] for o in h.within(r) if o in onb) for h in hexes]
            for r in (1, 2, 3)}
        self.within3 = self.within[3]
        self.i_nbrs: list[tuple[int, ...]] = [tuple(ix[n] for n in self.nbrs[h]) for h in hexes]
        self.i_enter: dict[str, list[bool]] = {
            kind: [h in self.enter[kind] for h in hexes] for kind in self.enter}
        # per step (a, b) extra cost: 2 for cliffs from beach/ocean and steep hills, None if the
        # step is forbidden (armour up the Omaha bluffs); absent = 1.
        self.i_cost: dict[str, dict[tuple[int, int], int | None]] = {}
        for kind in ("inf", "tank", "gun"):
            costs: dict[tuple[int, int], int | None] = {}
            for a in hexes:
                for b in self.nbrs[a]:
                    c = _step_cost(self, kind, a, b)
                    if c != 1:
                        costs[(ix[a], ix[b])] = c
            self.i_cost[kind] = costs
        # per kind and hex: the enterable neighbours with the step's cost (forbidden steps and
        # impassable hexes left out), and per hex the cap on the move's length (ocean 1,
        # beach 2), hedgerow and stop flags -- the movement search's inner loop reads only these
        self.i_steps: dict[str, list[tuple[tuple[int, int], ...]]] = {}
        for kind in ("inf", "tank", "gun"):
            enter, costs = self.i_enter[kind], self.i_cost[kind]
            self.i_steps[kind] = [
                tuple((b, cost) for b in self.i_nbrs[a]
                      if enter[b] and (cost := costs.get((a, b), 1)) is not None)
                for a in range(len(hexes))]
        self.i_cap: list[int] = [1 if x == "ocean" else 2 if x == "beach" else 99
                                 for x in self.i_terrain]
        self.i_hedgerow: list[bool] = [x == "hedgerow" for x in self.i_terrain]
        self.i_stop: list[bool] = [x in STOP_TERRAIN for x in self.i_terrain]
        # the board sections of each hex (orders)
        self.sections: dict[Hex, frozenset[str]] = {h: board.board_sections(h) for h in hexes}
        # (kind, hex number, move length, units and wire near) -> destinations (movement.py)
        self.reach_memo: dict[tuple, tuple] = {}
        # (target hex, its side, attacker kind, attacker on hills) -> ``protection`` without
        # sandbags
        self.protect: dict[tuple[Hex, str, str, bool], int] = {}
        # (side, steps, hex number) -> the hexes a retreat of that many steps may reach;
        # (kind, side, hex number, flags, steps, units there) -> its options (retreat.py)
        self.retreat_zone: dict[tuple[str, int, int], frozenset[int]] = {}
        self.retreat_memo: dict[tuple, tuple[list[Hex], int]] = {}
        # (kind, move length, hex number) -> the hexes within that length the kind may enter
        self.reach_zone: dict[tuple[str, int, int], frozenset[int]] = {}
        # line of sight (``blocks_sight`` without units): 1 blocks (bunkers, blocking terrain),
        # 2 blocks unless on the plateau (hills); each hill hex's connected hill mass
        self.sight: dict[Hex, int] = {}
        self.hill_comp: dict[Hex, frozenset[Hex]] = {}
        for h, bh in board.hexes.items():
            if bh.bunker or (bh.terrain in BLOCKING_TERRAIN and bh.terrain != "hills"):
                self.sight[h] = 1
            elif bh.terrain == "hills":
                self.sight[h] = 2
            if bh.terrain == "hills" and h not in self.hill_comp:
                comp = board.hill_component(h)
                for x in comp:
                    self.hill_comp[x] = comp


def _banks(hexes: list[Hex], nbrs: dict[Hex, tuple[Hex, ...]],
           river: frozenset[Hex]) -> dict[Hex, int]:
    """Each land hex's bank of a wide river: the connected pieces of the board without the
    river's hexes, numbered 0, 1, ... (empty without a wide river)."""
    if not river:
        return {}
    bank: dict[Hex, int] = {}
    for start in hexes:
        if start in river or start in bank:
            continue
        n = len(set(bank.values()))
        bank[start] = n
        todo = [start]
        while todo:
            cur = todo.pop()
            for x in nbrs[cur]:
                if x not in river and x not in bank:
                    bank[x] = n
                    todo.append(x)
    return bank


_STATIC: dict[int, tuple[Scenario, _Static]] = {}


def static(t: Terrainish) -> _Static:
    return static_of(t.scenario)


def static_of(scenario: Scenario) -> _Static:
    """The scenario's precomputed tables (built once per scenario object)."""
    key = id(scenario)
    hit = _STATIC.get(key)
    if hit is None or hit[0] is not scenario:
        if len(_STATIC) > 64:
            _STATIC.clear()
        hit = (scenario, _Static(Terrainish(scenario, {}, set(), set())))
        _STATIC[key] = hit
    return hit[1]


def can_enter(t: Terrainish, kind: str, h: Hex, retreat: bool = False) -> bool:
    """May a unit of ``kind`` enter ``h`` (ignoring occupation)?

    Impassable ground, M44 Bunkers and Hedgehogs (infantry only); M44 Ocean: no retreat into it.
    """
    st = static(t)
    if h not in st.enter[kind]:
        return False
    if retreat and st.terrain[h] == "ocean":
        return False  # M44 Ocean: impassable for retreat moves
    return True


def protection(t: Terrainish, target_hex: Hex, target_side: str, attacker_kind: str,
               attacker_hex: Hex) -> int:
    """M44 Fixed Obstacles: best protection only, never cumulative."""
    st = static(t)
    key = (target_hex, target_side, attacker_kind, t.board.terrain(attacker_hex) == "hills")
    best = st.protect.get(key)
    if best is None:
        best = st.protect[key] = _fixed_protection(t, *key)
    if target_hex in t.sandbags:
        best = max(best, SANDBAG_PROTECTION[attacker_kind])
    return best


def _fixed_protection(t: Terrainish, target_hex: Hex, target_side: str, attacker_kind: str,
                      from_hills: bool) -> int:
    """``protection`` by what never moves: terrain, bunkers, seawalls (not sandbags)."""
    best = 0
    terrain = t.board.terrain(target_hex)
    if terrain in TERRAIN_PROTECTION:
        value = TERRAIN_PROTECTION[terrain][attacker_kind]
        if terrain == "hills" and from_hills:
            value = 0  # M44 Hills: no reduction when attacking from the same height
        best = max(best, value)
    if t.bunker_counts_for(target_hex, target_side):
        best = max(best, BUNKER_PROTECTION[attacker_kind])
    if t.seawall_for(target_hex, target_side):
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
        for inner in line_interiors(a, b):
            if any(t.board.terrain(h) in only for h in inner):
                hits += 1
        return hits < 2
    st = static(t)
    plateau: frozenset[Hex] = frozenset()
    comp = st.hill_comp.get(a)
    if comp and b in comp:
        plateau = comp
    if extra:
        blocked = 0
        for inner in line_interiors(a, b):
            if any(blocks_sight(t, h, plateau, extra) for h in inner):
                blocked += 1
        return blocked < 2
    # blocks_sight without ``extra``, from the static table (speed only): in sight as soon
    # as one nudged line is clear
    occupied, sight = t.occupied, st.sight
    for inner in line_interiors(a, b):
        for h in inner:
            if h in occupied:
                break
            s = sight.get(h)
            if s is not None and (s == 1 or h not in plateau):
                break
        else:
            return True
    return False


def crosses(a: Hex, b: Hex, hexes: frozenset[Hex]) -> bool:
    return any(any(h in hexes for h in inner) for inner in line_interiors(a, b))


def across_wide_river(t: Terrainish, a: Hex, b: Hex) -> bool:
    """Arnhem special rules: "As unidades de infantaria não podem apontar (alvo) para unidades
    do lado oposto do rio Rhine": ``a`` and ``b`` lie on opposite banks. Fire along the river
    between two hexes of the same bank is not across it, and a unit on the bridge over the
    river stands on neither bank."""
    bank = static(t).bank
    return a in bank and b in bank and bank[a] != bank[b]


def step_cost(t: Terrainish, kind: str, cur: Hex, nxt: Hex) -> int | None:
    """Movement cost of one step, or None if forbidden by a scenario rule."""
    return _step_cost(static(t), kind, cur, nxt)


def step_allowed(t: Terrainish, cur: Hex, nxt: Hex) -> bool:
    """Scenario limits on crossing between two adjacent hexes (any move, retreat, take ground).

    Arnhem special rules: units enter or leave the bridge deck only from or to the hexes
    identified as its ends; movement along the deck is normal.
    """
    return _deck_ok(static(t), cur, nxt)


def _deck_ok(st: _Static, cur: Hex, nxt: Hex) -> bool:
    if not st.deck:
        return True
    on_cur, on_nxt = cur in st.deck, nxt in st.deck
    if on_cur == on_nxt:
        return True
    deck_hex, other = (cur, nxt) if on_cur else (nxt, cur)
    return (deck_hex, other) in st.deck_ends


def _step_cost(st: _Static, kind: str, cur: Hex, nxt: Hex) -> int | None:
    if not _deck_ok(st, cur, nxt):
        return None  # Arnhem: on or off the bridge only at its ends
    if nxt in st.cliffs and st.terrain[cur] in ("beach", "ocean"):
        if kind == "tank" and st.cliffs_no_armour:
            return None  # Omaha Beach special rules: tanks may not climb the bluffs
        return 2  # Pointe-du-Hoc / Omaha: climbing the cliff from the beach is a 2-hex move
    if st.steep_hills and st.terrain[nxt] == "hills" and st.terrain[cur] != "hills":
        return 2  # Mortain special rules: moving up onto a hill is a 2-hex move
    return 1


def reachable(t: Terrainish, kind: str, start: Hex, max_dist: int) -> dict[Hex, int]:
    """Destinations of a regular move and their cost (M44 p.6-7 Movement, Appendix 2).

    A search over (hex, cost, remaining limit) labels: a path is dropped when an earlier one
    reached the same hex no dearer and with at least the same limit (it can do no more).
    Ocean: a unit moving in the ocean moves 1 hex at most; Beaches: 2 at most; Woods, Hedgerows,
    Villages and Wire: stop on entry; Hedgerows: entered only from an adjacent hex at the start
    of the move and left only to an adjacent hex.
    """
    if max_dist <= 0:
        return {}
    st = static(t)
    s0 = st.index.get(start)
    if s0 is None:
        return {}
    ix = st.index
    blocked = t.occupied_ix if t.occupied_ix is not None else {
        ix[h] for h in t.occupied if h in ix}
    wire = {ix.get(h) for h in t.wire} if t.wire else ()
    return reach_ix(st, kind, s0, max_dist, blocked, wire)


def reach_ix(st: _Static, kind: str, s0: int, max_dist: int, blocked: set[int] | frozenset[int],
             wire: set[int | None] | frozenset[int] | tuple) -> dict[Hex, int]:
    """``reachable`` on the board's index numbers: from hex number ``s0``, ``blocked`` and
    ``wire`` hex numbers (the start's own number may be in ``blocked``)."""
    steps = st.i_steps[kind]
    cap = st.i_cap
    hedgerow = st.i_hedgerow
    stop = st.i_stop
    limit0 = min(max_dist, cap[s0])  # M44 Ocean / Beaches: a move starting there
    if hedgerow[s0]:
        limit0 = min(limit0, 1)  # M44 Hedgerows: leave only to an adjacent hex
    # per hex number: the cheapest cost seen (-1: not yet) and its limit
    best_cost = [-1] * len(cap)
    best_limit = [0] * len(cap)
    best_cost[s0], best_limit[s0] = 0, limit0
    found: dict[int, int] = {}
    stack = [(s0, 0, limit0)]
    pop, push = stack.pop, stack.append
    while stack:
        cur, cost, limit = pop()
        for nxt, c in steps[cur]:
            if nxt in blocked or nxt == s0:
                continue
            new_cost = cost + c
            new_limit = limit if cap[nxt] >= limit else cap[nxt]
            if new_cost > new_limit:
                continue
            if hedgerow[nxt] and cur != s0:
                continue  # M44 Hedgerows: must start the move adjacent to the hedgerow
            seen = best_cost[nxt]
            if seen >= 0:
                if seen <= new_cost and best_limit[nxt] >= new_limit:
                    continue
                if new_cost <= seen:
                    best_cost[nxt], best_limit[nxt] = new_cost, new_limit
            else:
                best_cost[nxt], best_limit[nxt] = new_cost, new_limit
            was = found.get(nxt)
            if was is None or was > new_cost:
                found[nxt] = new_cost
            if not (stop[nxt] or nxt in wire):
                push((nxt, new_cost, new_limit))
    hexes = st.hexes
    return {hexes[i]: c for i, c in found.items()}
