"""Units arriving and leaving: reinforcement entry, drops, landings from the sea, the
first-turn Commando landing, exits by a board edge and returns.

Rules: CN/OD 4.2.1 (entry and its cost), 4.2.2 (leaving and returning by an edge), 4.2.3
(paratroop drops and their dice), 3.0 observation and 11.1.1-11.1.4 (landings), 9.0 (free
landing at a working Mulberry, CN), 11.1 (arrival turns); OD 5.3 (Dragoon landings), BFN
19.8 (the Pegasus Bridge drop).
"""

from __future__ import annotations

from wargame.errors import (
    EntryRefused,
    MalformedAction,
    NotYourTurn,
    StackingRefused,
    WrongPhase,
    refuse,
)
from wargame.hexgrid import Hex
from wargame.operational.actions import Action, Enter, Exit, Move
from wargame.operational.state_protocol import RulesBase
from wargame.operational.state_types import Phase


class ReinforcementRules(RulesBase):
    """Entry, landings and exits (CN/OD 4.2, 11.1)."""

    def _paradrop_dice(self) -> None:
        """CN 4.2.3 / OD 4.2.3: paratroops dropped at the start roll a die each: the listed
        faces land intact, any other lands with a loss."""
        rule = self.game.rule("setup_drops")
        if not rule:
            return
        intact_faces = rule["intact"]  # nation -> faces
        types = set(rule.get("types", ["paratroop"]))
        for uid, h in self.game.scenario.setup:
            d = self.game.units[uid]
            if d.type in types and d.nation in intact_faces:
                if self.game.hooks.drop_override(self, uid, h):
                    continue  # BFN 19.8: Pegasus Bridge
                die = self.dice.d6()
                ok = die in intact_faces[d.nation]
                if not ok:
                    self.units[uid].reduced = True
                self._emit("drop", rule.get("rule", f"{self.rule_prefix} 4.2.3"), unit=d.name, hex=h.id, die=die,
                           outcome="intact" if ok else "with losses")

    def entry_hexes(self, uid: str) -> list[Hex]:
        """Where a waiting reinforcement may enter now (CN/OD 4.2.1, 11.1.3-11.1.4)."""
        us = self.units[uid]
        if us.status != "waiting" or us.available is None or us.available > self.turn:
            return []
        side = self.side_of(uid)
        landing = self.game.rule("first_turn_landing")
        if landing and uid == landing["unit"] and self.turn == self.game.scenario.first_turn:
            return self._first_turn_landing_hexes(uid, landing)
        if us.entry_edge is not None:
            hexes = list(self.game.board.edges.get(us.entry_edge, ()))
        else:
            entry = next(r.entry for r in self.game.scenario.reinforcements if r.unit == uid)
            if entry.kind == "drop":
                hexes = self._drop_hexes(uid, entry)
            else:
                hexes = list(entry.hexes)
            if entry.kind == "beach":
                port = (self.game.rule("mulberries") or {}).get("port")
                if port and self.control.get(Hex.from_id(port)) == "allied":
                    hexes.append(Hex.from_id(port))  # CN 4.2.1: by Cherbourg after its capture
                # CN 9.0: the working harbours, 2010 for Americans, 2410 for British and Canadians
                hexes.extend(self.mulberry_landing_hexes(uid))
        enemy = self.occupied_by(self.other(side))
        return sorted({h for h in hexes if h not in enemy and self.game.board.is_land(h)})

    def _drop_hexes(self, uid: str, entry) -> list[Hex]:
        """CN 4.2.3: turn-1 drops land on any hex their division holds; if no Allied unit holds
        the division's drop hexes any more, the unit lands on a beach of its nation on turn 2."""
        division = entry.division
        drop_zone = {h for u, h in self.game.scenario.setup if self.game.units[u].division == division}
        held = [h for h in drop_zone if any(self.side_of(u) == "allied" for u in self.units_at(h))]
        fallback = self.game.rule("drop_fallback")
        if not held and fallback:
            if self.turn < fallback["turn"]:
                return []
            beaches = fallback["beaches"].get(self.game.units[uid].nation, [])
            return [h for name in beaches for h in self.game.board.places.get(name, ())]
        return [self.units[u].at for u in self.game.scenario.division_units(division)
                if self.units[u].status == "on_map"]

    def _first_turn_landing_hexes(self, uid: str, rule: dict) -> list[Hex]:
        """CN 3.0 observation / 11.1.3: after the Allied combat phase of turn 0 the 1st Commando
        Brigade lands at 3011 once it is taken (then moves to a 6th Airborne hex), or else on
        another British beach, where it stays."""
        if self.phase is not Phase.ALLIED_COMBAT or self.combat is not None or self.pending is not None:
            return []
        enemy = self.occupied_by(self.other(self.side_of(uid)))
        first = Hex.from_id(rule["hex"])
        if first not in enemy and self.control.get(first, "allied") == "allied" and self._stacked_ok(first, uid):
            return [first]
        return sorted(h for name in rule["fallback_beaches"] for h in self.game.board.places.get(name, ())
                      if h not in enemy)

    def _stacked_ok(self, h: Hex, uid: str) -> bool:
        return self.stack_room(h, self.side_of(uid), uid) > 0 or bool(self._join_hexes(uid))

    def _join_hexes(self, uid: str) -> list[Hex]:
        rule = self.game.rule("first_turn_landing") or {}
        return sorted({self.units[u].at for u in self.game.scenario.division_units(rule.get("join_division", ""))
                       if self.units[u].status == "on_map" and self.stack_room(self.units[u].at, "allied", uid) > 0})

    def legal_entry_hexes(self, uid: str) -> list[Hex]:
        """Entry hexes a waiting reinforcement may enter now: the first hex's cost payable
        (CN/OD 4.2.1) and room in its stack (4.1.1)."""
        side = self.side_of(uid)
        return [h for h in self.entry_hexes(uid)
                if self._entry_cost(uid, h) is not None and self.stack_room(h, side) > 0]

    def exit_actions(self, uid: str) -> list[Action]:
        """CN/OD 4.2.2: the ``Exit`` actions open to ``uid`` now (a permitted edge it stands on,
        1 movement point left)."""
        us = self.units[uid]
        out: list[Action] = []
        if self.move_refusal(uid) is not None:
            return out
        mp, _ = self.movement_of(uid)
        if 2 * mp - us.spent < 2:
            return out
        for edge in self.game.board.edge_of.get(us.at, ()):
            if edge in self.allowed_edges(self.side_of(uid)):
                out.append(Exit(uid, edge))
        return out

    def _entry_cost(self, uid: str, h: Hex) -> int | None:
        """CN/OD 4.2.1: a reinforcement pays the cost of the first hex it occupies; CN 9.0:
        nothing at a working Mulberry (or Cherbourg once Allied)."""
        entry = next((r.entry for r in self.game.scenario.reinforcements if r.unit == uid), None)
        if entry is not None and entry.kind == "drop" and self.units[uid].entry_edge is None:
            return 0
        if self.mulberry_landing_free(h, uid) and self.side_of(uid) == "allied":
            return 0
        _, mclass = self.movement_of_on_entry(uid)
        terrain = self.game.tables.terrain.get(self.game.board.hexes[h].terrain)
        cost = terrain.cost.get(mclass) if terrain else None
        return None if cost is None else int(round(cost * 2))

    def movement_of_on_entry(self, uid: str) -> tuple[int, str]:
        """Movement points and class of a unit entering now (CN 4.2.1: 10, motorized, for German
        reinforcements; a returning unit, CN 4.2.2, has its own)."""
        entry = self.entry_turn_movement(uid)
        if entry is not None:
            return entry
        return self.game.units[uid].movement, self.unit_type(uid).movement_class

    def _do_enter(self, a: Enter) -> None:
        p = self.rule_prefix
        if self.pending is not None:
            raise refuse(NotYourTurn, "campaign.pending.short", self.pending.rule)
        if a.unit not in self.units:
            raise refuse(MalformedAction, "action.no_unit", p, unit=repr(a.unit))
        side = self.side_of(a.unit)
        landing = self.game.rule("first_turn_landing")
        if landing and a.unit == landing["unit"] and self.turn == self.game.scenario.first_turn:
            self._do_first_turn_landing(a, landing)
            return
        if not self.phase.is_movement or side != self.phase.side:
            raise refuse(WrongPhase, "campaign.entry.wrong_phase", f"{p} 4.2.1")
        us = self.units[a.unit]
        if us.status != "waiting":
            raise refuse(EntryRefused, "campaign.entry.not_waiting", f"{p} 4.2.1",
                         unit=self.game.units[a.unit].name)
        if us.available is None or us.available > self.turn:
            raise refuse(EntryRefused, "campaign.entry.arrives_later", f"{p} 11.1",
                         unit=self.game.units[a.unit].name, turn=us.available)
        h = self._hex_arg(a.hex, "entry hex")
        if h not in self.entry_hexes(a.unit):
            raise refuse(EntryRefused, "campaign.entry.not_entry_hex", f"{p} 4.2.1", hex=h.id)
        cost = self._entry_cost(a.unit, h)
        mp, _ = self.movement_of_on_entry(a.unit)
        if cost is None or cost > 2 * mp:
            raise refuse(EntryRefused, "campaign.entry.cost", f"{p} 4.2.1", mp=mp)
        dest = self._hex_arg(a.to, "destination") if a.to else h
        if self.stack_room(dest, side) <= 0:
            raise refuse(StackingRefused, "campaign.stacking.limit", f"{p} 4.1.1",
                         limit=self.game.scenario.stacking_limit)
        us.status = "on_map"
        us.hex = h
        self._positions_changed()
        us.spent = cost
        us.entered_turn = self.turn
        us.moved = True
        entry = next((r.entry for r in self.game.scenario.reinforcements if r.unit == a.unit), None)
        zoc = self.zoc_of(self.other(side))
        us.stopped = h in zoc or (entry is not None and entry.kind == "drop")
        self._take_control(h, side)
        self._emit("enter", f"{p} 4.2.1", unit=self.game.units[a.unit].name, hex=h.id)
        if a.to and dest != h:
            self._do_move(Move(a.unit, dest.id))

    def _do_first_turn_landing(self, a: Enter, rule: dict) -> None:
        r = rule.get("rule", "CN 3.0")
        h = self._hex_arg(a.hex, "landing hex")
        if h not in self.entry_hexes(a.unit):
            raise refuse(EntryRefused, "campaign.landing.where", r, hex=rule["hex"])
        us = self.units[a.unit]
        first = Hex.from_id(rule["hex"])
        dest = h
        if h == first:
            if not a.to:
                raise refuse(EntryRefused, "campaign.landing.must_join", r)
            dest = self._hex_arg(a.to, "destination")
            if dest not in self._join_hexes(a.unit):
                raise refuse(EntryRefused, "campaign.landing.join_hex", r, hex=dest.id)
        elif a.to and self._hex_arg(a.to, "destination") != h:
            raise refuse(EntryRefused, "campaign.landing.no_move", r)
        elif self.stack_room(h, "allied", a.unit) <= 0:
            raise refuse(StackingRefused, "campaign.stacking.limit", f"{self.rule_prefix} 4.1.1",
                         limit=self.game.scenario.stacking_limit)
        us.status = "on_map"
        us.hex = dest
        self._positions_changed()
        us.entered_turn = self.turn
        us.stopped = True
        self._emit("landing", r, unit=self.game.units[a.unit].name, hex=h.id)
        if dest != h:
            self._emit("move", r, unit=self.game.units[a.unit].name, frm=h.id, to=dest.id, cost=0, path=[dest.id])

    def _do_exit(self, a: Exit) -> None:
        p = self.rule_prefix
        refusal = self.move_refusal(a.unit)
        if refusal:
            raise refusal
        us = self.units[a.unit]
        side = self.side_of(a.unit)
        if a.edge not in self.allowed_edges(side):
            raise refuse(EntryRefused, "campaign.exit.edge_side", f"{p} 4.2.2", side=side,
                         edge=a.edge)
        if a.edge not in self.game.board.edge_of.get(us.at, ()):
            raise refuse(EntryRefused, "campaign.exit.not_on_edge", f"{p} 4.2.2", hex=us.at.id,
                         edge=a.edge)
        mp, _ = self.movement_of(a.unit)
        if 2 * mp - us.spent < 2:
            raise refuse(EntryRefused, "campaign.exit.cost", f"{p} 4.2.2")
        self._leave_board(a.unit, a.edge)

    def _leave_board(self, uid: str, edge: str) -> None:
        p = self.rule_prefix
        us = self.units[uid]
        side = self.side_of(uid)
        us.status = "exited"
        us.hex = None
        self._positions_changed()
        self.flags.setdefault("exits", []).append({"unit": uid, "edge": edge, "turn": self.turn,
                                                   "intact": not us.reduced})
        self._emit("exit", f"{p} 4.2.2", unit=self.game.units[uid].name, edge=edge)
        if side in (self.game.rule("may_return") or []):
            # CN 4.2.2: German units may come back from the next turn anywhere on that edge.
            us.status = "waiting"
            us.available = self.turn + 1
            us.entry_edge = edge
            self._emit("return", f"{p} 4.2.2", unit=self.game.units[uid].name, edge=edge, turn=self.turn + 1)

    def _land(self, uid: str) -> None:
        us = self.units[uid]
        side = self.side_of(uid)
        if self.stack_room(us.at, side) <= 0:
            self.eliminate(uid, " (no room to land)", self.landing_rule)
            return
        us.status = "on_map"
        self._positions_changed()
        self._take_control(us.at, side)
        self._emit("landing", self.landing_rule, unit=self.game.units[uid].name, hex=us.at.id)
