"""Retreats after combat.

Rules: CN/OD 5.3 (one hex, never into enemy units or zones), 5.3.1 (chain retreat), 5.3.2
(armour retreating across a river), 5.3.3 (a second hex under encirclement), 4.2.2 (off a
permitted edge), CN 5.1.2 (Germans in Caen), OD 5.3 (Toulon and Marseille), OD 10.0 (forced
into a maquis area).
"""

from __future__ import annotations

from wargame.hexgrid import Hex
from wargame.operational.actions import Retreat
from wargame.operational.state_protocol import RulesBase
from wargame.operational.tables import split_result


class RetreatRules(RulesBase):
    """Retreats (CN/OD 5.3)."""

    def retreat_options(self, uid: str) -> list[Retreat]:
        """CN/OD 5.3: one hex, never into enemy units or an enemy zone of engagement; under
        encirclement (5.3.3) a second hex; off a permitted edge (4.2.2); staying where a rule
        allows it (CN 5.1.2 Caen, OD 5.3 Toulon and Marseille)."""
        us = self.units[uid]
        side = self.side_of(uid)
        board = self.game.board
        if us.status == "at_sea":
            return []  # a landing unit that must fall back cannot land: destroyed (CN 11.1.1)
        h = us.at
        options: list[Retreat] = []
        if self._may_stay(uid, h):
            options.append(Retreat(uid, ()))
        if self.game.units[uid].movement == 0:
            return options  # CN 5.3: movement-0 units are eliminated on DRI/DRB
        enemy = self.other(side)
        occupied = self.occupied_by(enemy)
        zoc = self.zoc_of(enemy)
        _, mclass = self.movement_of(uid)
        steps = self.game.steps.for_class(mclass)

        def passable(a: Hex, b: Hex) -> bool:
            return any(n == b for n, _ in steps.get(a, ())) and b not in occupied

        for n in board.neighbours(h):
            if passable(h, n) and n not in zoc and self._room_or_chain(n, side, uid):
                options.append(Retreat(uid, (n.id,)))
        for edge in board.edge_of.get(h, ()):
            if edge in self.allowed_edges(side):
                options.append(Retreat(uid, (), edge))
        if any(o.path or o.edge for o in options):
            return self._forced_into_maquis(options, side)
        for n1 in board.neighbours(h):
            if not passable(h, n1):
                continue
            for n2 in board.neighbours(n1):
                if n2 != h and passable(n1, n2) and n2 not in zoc and self._room_or_chain(n2, side, uid):
                    options.append(Retreat(uid, (n1.id, n2.id)))
        return self._forced_into_maquis(options, side)

    def _forced_into_maquis(self, options: list[Retreat], side: str) -> list[Retreat]:
        """OD 10.0 / 5.3: "Somente unidades aliadas podem transitar por áreas controladas pelos
        maquis"; only German units *forced* ("obrigadas") to retreat into one may enter it. A
        retreat touching a maquis hex is offered only when every retreat does."""
        closed = self.maquis_forbidden(side)
        if not closed:
            return options
        clean = [o for o in options if not any(Hex.from_id(x) in closed for x in o.path)]
        return clean or options

    def _room_or_chain(self, h: Hex, side: str, uid: str) -> bool:
        if self.stack_room(h, side, uid) > 0:
            return True
        return self._chain_hex(h, side) is not None

    def _chain_hex(self, h: Hex, side: str) -> tuple[str, Hex] | None:
        """CN/OD 5.3.1 chain retreat: one piece of a full stack moves on to a legal hex."""
        enemy = self.other(side)
        zoc = self.zoc_of(enemy)
        occupied = self.occupied_by(enemy)
        closed = self.maquis_forbidden(side)  # OD 10.0: the piece moved on is not forced there
        for u in sorted(self.units_at(h)):
            _, mclass = self.movement_of(u)
            for n, _ in self.game.steps.for_class(mclass).get(h, ()):
                if n not in zoc and n not in occupied and n not in closed and self.stack_room(n, side) > 0:
                    return u, n
        return None

    def _may_stay(self, uid: str, h: Hex) -> bool:
        """CN 5.1.2 (Germans in Caen), OD 5.3 (Germans in Toulon and Marseille): defenders
        need not retreat on DRI or DRB. DE always forces the retreat ("em quaisquer
        circunstâncias", 5.1.6). CN 5.1.2's second clause: Germans in one Caen hex need not
        retreat at all (so not on EMP either) when the turn began with the Allies in the other
        Caen hex (rule option ``other_hex_held``; docs/rules-notes.md)."""
        c = self.combat
        if c is None or uid not in c.defenders or not c.result:
            return False
        code = split_result(c.result)[0]
        if code not in ("DRI", "DRB", "EMP"):
            return False
        enemy_at_start = set(self.flags.get("no_retreat_enemy_at_start", ()))
        for rule, hexes in self.no_retreat_places(h, self.side_of(uid)):
            if code in ("DRI", "DRB"):
                return True
            if rule.get("other_hex_held") and any(o.id in enemy_at_start for o in hexes if o != h):
                return True
        return False

    def _apply_retreat(self, a: Retreat) -> None:
        p = self.rule_prefix
        uid = a.unit
        us = self.units[uid]
        side = self.side_of(uid)
        name = self.game.units[uid].name
        if a.edge:
            self._leave_board(uid, a.edge)
            return
        if not a.path:
            self._emit("stays", f"{p} 5.3", unit=name, hex=us.at.id)
            return
        hexes = [Hex.from_id(x) for x in a.path]
        start = us.at
        prev = start
        for i, h in enumerate(hexes):
            # CN/OD 5.3.1: the chain retreat is for the hex retreated *into*; a full hex passed
            # through under encirclement (5.3.3) keeps its four units (4.1.1: units may pass
            # through a full hex without stopping)
            if i == len(hexes) - 1 and self.stack_room(h, side, uid) <= 0:
                chain = self._chain_hex(h, side)
                if chain:
                    mover, dest = chain
                    self.units[mover].hex = dest
                    self._positions_changed()
                    self._emit("retreat", f"{p} 5.3.1", unit=self.game.units[mover].name, frm=h.id, to=dest.id)
            river = self.game.board.river_between(prev, h)
            us.hex = h
            self._positions_changed()
            self._emit("retreat", f"{p} 5.3", unit=name, frm=prev.id, to=h.id)
            if river and self.unit_type(uid).river_retreat_loss:
                self.take_loss(uid, f"{p} 5.3.2")  # armour retreating across a river
                if us.status != "on_map":
                    return
            if i == 1:
                sheltered = any(self.side_of(u) == side for u in self.units_at(prev) if u != uid)
                if not sheltered:
                    self.take_loss(uid, f"{p} 5.3.3")  # second move under encirclement
                    if us.status != "on_map":
                        return
            prev = h
        self._take_control(us.at, side)
        maquis = self.game.rule("maquis_areas")
        if maquis and self.game.board.hexes[us.at].maquis and side in maquis.get("closed_to", ["axis"]):
            us.in_maquis = True  # OD 10.0
