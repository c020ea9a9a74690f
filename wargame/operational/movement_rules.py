"""Movement of units on the map: reachable hexes, paths, their cost, zones of engagement
and the reasons a unit may not move. The pure search lives in ``movement.py``.

Rules: CN/OD 4.0 (movement points, terrain), 4.1.1 (stacking), 4.1.2 (zones of
engagement), 4.2.2 (German off-map roads, CN), 4.2.3 (paratroops that do not move), 5.3
(movement-0 units), OD 10.0 (maquis areas closed to the Axis), BFN 19.3.3 (units pinned by
friendly fire).
"""

from __future__ import annotations

from wargame.errors import (
    EngagementRefused,
    MalformedAction,
    MovementRefused,
    NotYourTurn,
    StackingRefused,
    WrongPhase,
    refuse,
)
from wargame.hexgrid import Hex
from wargame.operational.actions import IllegalAction, Move
from wargame.operational.movement import Reach, blocked_and_zoc, path_to, reachable, step_cost
from wargame.operational.state_protocol import RulesBase

_REACH_MEMO = 1024
"""Searches one state remembers (``MovementRules.reach``); past that the memo starts afresh."""


class MovementRules(RulesBase):
    """Moving units (CN/OD 4.0-4.1)."""

    def reach(self, uid: str) -> dict[Hex, Reach]:
        """Hexes the unit can reach this phase with their cost (half points).

        The search depends only on the unit's hex, points spent, movement points and class,
        its side's obstacles (enemy hexes and zones, forbidden hexes) and the off-map roads, so
        its result is remembered under exactly those inputs (``_REACH_MEMO`` entries at most):
        a side's own moves leave its obstacles as they were, and the units that did not move
        are not searched again (issue #19). Callers get their own copy of the result."""
        us = self.units[uid]
        if us.status != "on_map":
            return {}
        mp, mclass = self.movement_of(uid)
        side = self.side_of(uid)
        obstacles = self._move_obstacles(side)
        key = (us.hex, us.spent, mp, mclass, side, obstacles)
        memo = self.__dict__.get("_reach_memo")
        if memo is None:
            memo = self.__dict__["_reach_memo"] = {}
        found = memo.get(key)
        if found is None:
            if len(memo) >= _REACH_MEMO:
                memo.clear()
            found = memo[key] = reachable(
                self.game.steps,
                mclass,
                us.at,
                budget=2 * mp,
                start_cost=us.spent,
                extra_steps=self._offmap_roads(side, mclass),
                indexed_sets=obstacles,
            )
        return dict(found)

    def _move_obstacles(self, side: str) -> tuple[frozenset[int], frozenset[int]]:
        """For a unit of ``side``: the hexes it may not enter and the enemy zones of engagement,
        numbered for the search, cached like ``zoc_of`` until the position changes."""
        key = ("obstacles", side)
        cache = self._cache.get(key)
        if cache is not None:
            return cache
        enemy = self.other(side)
        out = blocked_and_zoc(self.game.steps, self.occupied_by(enemy), self.zoc_of(enemy),
                              self.maquis_forbidden(side))
        if not self._applying:
            self._cache[key] = out
        return out

    def _offmap_roads(self, side: str, movement_class: str) -> dict[Hex, list[tuple[Hex, int]]] | None:
        """CN 4.2.2: German units may use the red off-map arrows, paying the road hexes between
        the two ends, then the road into the far end: Avranches 1125 to south of Vire 1825 is
        10 road hexes, 5 points motorized, "and the count restarts at 5.5 in hex 1825"."""
        if side not in (self.game.rule("offmap_road_sides") or []):
            return None
        road = self.game.tables.road_cost[movement_class]
        out: dict[Hex, list[tuple[Hex, int]]] = {}
        for link in self.game.board.offmap_roads:
            a, b = Hex.from_id(link["from"]), Hex.from_id(link["to"])
            cost = int(round((link["road_hexes"] + 1) * road * 2))
            out.setdefault(a, []).append((b, cost))
            out.setdefault(b, []).append((a, cost))
        return out

    def legal_destinations(self, uid: str) -> dict[Hex, Reach]:
        if self.move_refusal(uid) is not None:
            return {}
        out = self.reach(uid)  # the unit's own copy
        out.pop(self.units[uid].at, None)
        for h in self._full_hexes(self.side_of(uid)):  # CN/OD 4.1.1: no room to stop there
            out.pop(h, None)
        return out

    def _full_hexes(self, side: str) -> list[Hex]:
        """Hexes holding ``stacking_limit`` units of ``side`` or more (CN/OD 4.1.1), cached
        until the position changes. A unit's own hex is not a destination anyway, so the
        unit itself never needs discounting."""
        key = ("full", side)
        cache = self._cache.get(key)
        if cache is not None:
            return cache
        limit = self.game.scenario.stacking_limit
        units = self.game.units
        out = [h for h, uids in self.occupancy().items()
               if len(uids) >= limit and sum(1 for u in uids if units[u].side == side) >= limit]
        if not self._applying:
            self._cache[key] = out
        return out

    def move_refusal(self, uid: str) -> IllegalAction | None:
        """Why ``uid`` may not move now (the refusal it would raise), or None: the unit, the
        phase, its state, then the optional rules' ``move_refusal`` hook."""
        p = self.rule_prefix
        if uid not in self.units:
            return refuse(MalformedAction, "action.no_unit", p, unit=repr(uid))
        if self.pending is not None:
            return refuse(NotYourTurn, "campaign.pending.decision", self.pending.rule,
                          prompt=self.pending.prompt)
        if not self.phase.is_movement:
            return refuse(WrongPhase, "campaign.move.wrong_phase", f"{p} 3.0")
        if self.side_of(uid) != self.phase.side:
            return refuse(NotYourTurn, "campaign.move.not_your_phase", f"{p} 3.0",
                          phase=self.phase.value)
        us = self.units[uid]
        if us.status != "on_map":
            return refuse(MovementRefused, "campaign.move.not_on_map", f"{p} 4.0",
                          unit=self.game.units[uid].name)
        if self.game.units[uid].movement == 0:
            return refuse(MovementRefused, "campaign.move.zero_movement", f"{p} 5.3")
        if us.stopped:
            return refuse(EngagementRefused, "campaign.move.stopped", f"{p} 4.1.2")
        pinned = self.game.hooks.move_refusal(self, uid)  # BFN 19.3.3: friendly fire
        if pinned:
            return pinned
        frozen = self.game.rule("no_move_first_turn_types")
        if frozen and self.turn == self.game.scenario.first_turn and self.game.units[uid].type in frozen["types"] \
                and any(u == uid for u, _ in self.game.scenario.setup):
            return refuse(MovementRefused, "campaign.move.paratroops_first_turn",
                          frozen.get("rule", f"{p} 4.2.3"))
        wait = self.game.rule("drop_units_wait_contact")
        if wait and uid in wait.get("units", []) and uid not in self.flags.get("contacted", []):
            if not self._in_contact_with_friends(uid):
                return refuse(MovementRefused, "campaign.move.wait_contact", f"{p} 4.2.3")
        return None

    def _in_contact_with_friends(self, uid: str) -> bool:
        h = self.units[uid].at
        side = self.side_of(uid)
        waiting = set((self.game.rule("drop_units_wait_contact") or {}).get("units", []))
        for n in (h, *self.game.board.neighbours(h)):
            for u in self.units_at(n):
                if u != uid and self.side_of(u) == side and u not in waiting:
                    return True
        return False

    def _do_move(self, a: Move) -> None:
        with self.position_unchanged():  # the checks read the position; the move comes after
            refusal = self.move_refusal(a.unit)
            if refusal:
                raise refusal
            dest = self._hex_arg(a.to, "destination")
            p = self.rule_prefix
            side = self.side_of(a.unit)
            if dest in self.occupied_by(self.other(side)):
                raise refuse(EngagementRefused, "campaign.move.enemy_hex", f"{p} 4.1.2")
            reach = self.reach(a.unit)
            if dest not in reach or dest == self.units[a.unit].hex:
                mp, mclass = self.movement_of(a.unit)
                cost = step_cost(self.game.tables, self.game.board, mclass, self.units[a.unit].at, dest) \
                    if dest in self.game.board.neighbours(self.units[a.unit].at) else 1
                if cost is None:
                    raise refuse(MovementRefused, "campaign.move.prohibited_terrain", f"{p} 4.0",
                                 terrain=self.game.board.hexes[dest].terrain)
                raise refuse(MovementRefused, "campaign.move.beyond_reach", f"{p} 4.0", hex=dest.id,
                             mp=mp)
            if self.stack_room(dest, side, a.unit) <= 0:
                raise refuse(StackingRefused, "campaign.stacking.limit", f"{p} 4.1.1",
                             limit=self.game.scenario.stacking_limit)
            path = path_to(reach, dest)
            if a.path:
                path = self._check_path(a, reach)
        us = self.units[a.unit]
        start = us.at
        before = us.spent
        us.hex = dest
        self._positions_changed()
        spent = reach[dest].cost if not a.path else self._path_cost(a.unit, start, path)
        if spent is None:
            raise RuntimeError("a checked path without a cost (engine bug)")  # _check_path refuses it
        us.spent = spent
        us.moved = True
        us.stopped = dest in self.zoc_of(self.other(side))
        wait = self.game.rule("drop_units_wait_contact")
        if wait and a.unit in wait.get("units", []) and a.unit not in self.flags.get("contacted", []):
            self.flags.setdefault("contacted", []).append(a.unit)  # OD 4.2.3: free from now on
        # CN/OD 11.2 (docs/rules-notes.md "Control and victory"): the hexes passed through too,
        # unless a study's what-if asks for control only where the move ends
        for h in (path if self.game.rule("control_on_passing", True) else path[-1:]):
            self._take_control(h, side)
        self._emit("move", f"{p} 4.0", unit=self.game.units[a.unit].name, frm=start.id, to=dest.id,
                   cost=(us.spent - before) / 2, path=[h.id for h in path])

    def _check_path(self, a: Move, reach: dict[Hex, Reach]) -> list[Hex]:
        p = self.rule_prefix
        hexes = [self._hex_arg(x, "path hex") for x in a.path]
        if not hexes or hexes[-1] != Hex.from_id(a.to):
            raise refuse(MovementRefused, "campaign.move.path_end", f"{p} 4.0")
        side = self.side_of(a.unit)
        closed = self.maquis_forbidden(side)
        for h in hexes:
            if h in closed:
                # OD 10.0: "Somente unidades aliadas podem transitar por áreas controladas pelos
                # maquis", whatever path is named
                raise refuse(MovementRefused, "campaign.move.path_maquis", "OD 10.0", hex=h.id)
        zoc = self.zoc_of(self.other(side))
        for h in hexes[:-1]:
            if h in zoc:
                raise refuse(EngagementRefused, "campaign.move.path_zoc", f"{p} 4.1.2", hex=h.id)
        cost = self._path_cost(a.unit, self.units[a.unit].at, hexes)
        mp, _ = self.movement_of(a.unit)
        if cost is None or cost > 2 * mp:
            raise refuse(MovementRefused, "campaign.move.path_cost", f"{p} 4.0", mp=mp)
        return hexes

    def _path_cost(self, uid: str, start: Hex, path: list[Hex]) -> int | None:
        _, mclass = self.movement_of(uid)
        us = self.units[uid]
        side = self.side_of(uid)
        enemy = self.occupied_by(self.other(side))
        zoc = self.zoc_of(self.other(side))
        cost = us.spent + (2 if start in zoc else 0)
        prev = start
        for h in path:
            if h in enemy or prev.distance(h) != 1:
                return None
            c = step_cost(self.game.tables, self.game.board, mclass, prev, h)
            if c is None:
                return None
            cost += c
            prev = h
        return cost
