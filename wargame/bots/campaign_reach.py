"""What the enemy could reach next turn, and where reinforcements cannot enter: the hard
campaign player's (``campaign_hard``) searches over the board, kept apart from its choices.

- ``threat_map`` and ``enemy_reach``: the believed attack (CN/OD 5.1.1: the counter mix) that
  could stand in or next to each hex after the enemy's next move, including the reinforcements
  due (CN/OD 4.2.1);
- ``multi_reach`` and ``_enemy_movers``: the hexes the enemy's units could enter with the
  side's units placed so far in the way (a zone of engagement stops a move, CN/OD 4.1.2);
- ``shut_entries``: the entry hexes full of the side's own units while reinforcements are due
  there (CN/OD 4.1.1, 4.2.1);
- ``_axis_points`` and ``_other_cities``: what a city scores the Axis (CN/OD 11.2.2).
"""

from __future__ import annotations

from collections.abc import Iterable

from wargame.bots.campaign_eval import Belief, estimated_values, victory_hexes
from wargame.hexgrid import Hex
from wargame.operational.movement import reachable
from wargame.operational.state import State

__all__ = ["threat_map", "enemy_reach", "multi_reach", "shut_entries"]


def _radius(movement: float) -> int:
    """Hexes a unit may cover in one phase, roughly (open ground 1 point, bocage 2-3)."""
    return max(1, int(movement) // 3)


def threat_map(state: State | Belief, side: str, hexes: Iterable[Hex]) -> dict[Hex, float]:
    """For each hex, the believed attack the enemy of ``side`` could bring against it next
    turn: every enemy unit within its movement radius plus one (it moves next to the hex and
    attacks, CN/OD 4.1.2, 5.0), every gun within its radius plus its range (CN/OD 8.0). The
    enemy's values are estimates (``estimated_values``, CN/OD 5.1.1)."""
    real = state._state if isinstance(state, Belief) else state
    enemy = "axis" if side == "allied" else "allied"
    units: list[tuple[Hex, float, int]] = []
    for uid, us in real.units.items():
        if us.status != "on_map" or us.hex is None or real.game.units[uid].side != enemy:
            continue  # (a unit on the map has a hex)
        a, _, mv = estimated_values(real, uid)
        reach = _radius(mv) + 1 + real.game.units[uid].range
        units.append((us.hex, a, reach))
    out: dict[Hex, float] = {}
    for h in hexes:
        out[h] = sum(a for where, a, reach in units if h.distance(where) <= reach)
    return out


def enemy_reach(state: State | Belief, side: str,
                phases: int = 1) -> tuple[dict[Hex, float], frozenset[Hex]]:
    """What the enemy of ``side`` can do in its next movement phase, as ``side`` may know it:
    (hex -> the believed attack of the enemy units that could end next to it, or in it;
    the hexes some enemy unit could end in). Each enemy unit on the map, and each enemy
    reinforcement due by next turn from its entry hexes (CN/OD 4.2.1, the schedule is public),
    is searched with the mean movement of its type (``estimated_values``, CN/OD 5.1.1) along
    the board's costs (CN/OD 4.0), **with none of ``side``'s units in the way**: an upper bound
    that depends on the enemy's positions alone, so a player's choice over a phase does not
    depend on the order of its own moves. Guns threaten the hexes within their range of where
    they stand (CN/OD 8.0). ``phases`` > 1 looks that many enemy movement phases ahead (the
    movement allowance times ``phases`` in one search, reinforcements due by then from their
    entry hexes: a bound, for ``bench/normandy_reach.py``)."""
    real = state._state if isinstance(state, Belief) else state
    enemy = "axis" if side == "allied" else "allied"
    game = real.game
    board = game.board
    entries = {r.unit: r.entry for r in game.scenario.reinforcements}
    threat: dict[Hex, float] = {}
    ends: set[Hex] = set()
    for uid in sorted(real.units):
        us = real.units[uid]
        d = game.units[uid]
        if d.side != enemy:
            continue
        if us.status == "on_map" and us.hex is not None:
            starts = [us.hex]
        elif (us.status == "waiting" and us.available is not None
              and us.available <= real.turn + phases and uid in entries
              and entries[uid].kind != "drop"):
            starts = [h for h in entries[uid].hexes if board.is_land(h)]
        else:
            continue
        a, _, mv = estimated_values(real, uid)
        if a <= 0:
            continue
        if d.range > 0:  # artillery: its fire, not its move (CN/OD 8.0)
            near = {h for start in starts for h in start.within(d.range)}
            for h in near:
                threat[h] = threat.get(h, 0.0) + a
            continue
        mclass = real.unit_type(uid).movement_class
        got: set[Hex] = set()
        for start in starts:
            got.update(reachable(game.steps, mclass, start, budget=2 * round(mv) * phases))
        ends.update(got)
        around = set(got)
        for h in got:
            around.update(board.neighbours(h))
        for h in around:
            threat[h] = threat.get(h, 0.0) + a
    return threat, frozenset(ends)


def shut_entries(state: State, side: str) -> dict[Hex, int]:
    """The entry hexes that keep ``side``'s reinforcements out for want of room in the stack
    (CN/OD 4.1.1, 4.2.1): for each, how many reinforcements due now have it among their entry
    hexes and can enter nowhere."""
    out: dict[Hex, int] = {}
    for u in sorted(state.units):
        if state.units[u].status != "waiting" or state.side_of(u) != side:
            continue
        hexes = state.entry_hexes(u)
        if hexes and not state.legal_entry_hexes(u):
            for h in hexes:
                out[h] = out.get(h, 0) + 1
    return out


def _axis_points(state: State, h: Hex) -> int:
    """What victory city hex ``h`` scores the Axis while it holds it (CN/OD 11.2.2)."""
    return victory_hexes(state.game).get(h, (0, 0))[1]


def _other_cities(game, side: str) -> list[tuple[Hex, int]]:
    """OD 11.2.2: the city hexes that are not victory cities, each with the points its holder
    scores (the Axis, 5 in Dragoon): the Allies deny them by entering; [] where the scenario
    has no such rule (Normandy)."""
    out: list[tuple[Hex, int]] = []
    named = set(victory_hexes(game))
    for v in game.rule("victory", []) or []:
        if v.get("kind") != "other_cities":
            continue
        for h, info in sorted(game.board.hexes.items()):
            if info.terrain == "city" and h not in named:
                out.append((h, int(v["points"])))
    return out


def _enemy_movers(real: State, enemy: str) -> list[tuple[str, list[Hex], str, int]]:
    """(uid, start hexes, movement class, budget in half points) of every enemy unit that
    could move in the enemy's next movement phase: on the map, or a reinforcement due by then
    at its entry hexes (CN/OD 4.2.1; drops left out). Movement is the mean of the unit's type
    (``estimated_values``, CN/OD 5.1.1); guns left out (they fire, CN/OD 8.0)."""
    game = real.game
    board = game.board
    entries = {r.unit: r.entry for r in game.scenario.reinforcements}
    out = []
    for uid in sorted(real.units):
        us = real.units[uid]
        d = game.units[uid]
        if d.side != enemy or d.range > 0:
            continue
        if us.status == "on_map" and us.hex is not None:
            starts = [us.hex]
        elif (us.status == "waiting" and us.available is not None
              and us.available <= real.turn + 1 and uid in entries
              and entries[uid].kind != "drop"):
            starts = [h for h in entries[uid].hexes if board.is_land(h)]
        else:
            continue
        a, _, mv = estimated_values(real, uid)
        if a <= 0 or not starts:
            continue
        out.append((uid, starts, real.unit_type(uid).movement_class, 2 * round(mv)))
    return out


def multi_reach(real: State, movers: list[tuple[str, list[Hex], str, int]],
                blocked: set[Hex]) -> dict[Hex, Hex | None]:
    """Hexes some of ``movers`` could end a move in, each with the hex it came from (None at
    a start), when ``blocked`` holds the other side's units: their hexes are never entered
    and their zones of engagement stop a move (CN/OD 4.1.2; a start inside one pays a point
    to break contact). One search a (movement class, allowance), from all its units' starts
    at once (the board's costs, CN/OD 4.0, ``StepCosts``)."""
    import heapq

    steps = real.game.steps
    index, hexes = steps.index, steps.hexes
    board = real.game.board
    bl = {index[h] for h in blocked if h in index}
    zoc = {index[n] for h in blocked for n in board.neighbours(h) if n in index}
    groups: dict[tuple[str, int], set[int]] = {}
    for _, starts, mclass, budget in movers:
        groups.setdefault((mclass, budget), set()).update(index[h] for h in starts if h in index)
    came: dict[int, int] = {}
    for (mclass, budget), sources in sorted(groups.items()):
        table = steps.indexed(mclass)
        dist: dict[int, int] = {}
        heap = []
        for s in sorted(sources):
            if s in bl:
                continue
            dist[s] = 0
            came.setdefault(s, -1)
            heap.append((0, s))
        heapq.heapify(heap)
        while heap:
            cost, h = heapq.heappop(heap)
            if cost != dist.get(h):
                continue
            if h in zoc and came.get(h, -1) != -1:
                continue  # entered a zone of engagement: stops there
            base = cost + (2 if h in zoc else 0)
            for n, c in table[h]:
                nc = base + c
                if nc > budget or n in bl or nc >= dist.get(n, budget + 1):
                    continue
                dist[n] = nc
                if n not in came:
                    came[n] = h
                heapq.heappush(heap, (nc, n))
    return {hexes[i]: (hexes[p] if p >= 0 else None) for i, p in came.items()}
