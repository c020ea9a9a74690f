"""Advance after combat.

Rules: CN/OD 5.2 (into the vacated hex; a second hex for armour, mechanized cavalry,
motorized infantry and assault guns), CN 11.1.1 (landing units advancing ashore), OD 10.0 (no
German advance into a maquis area).
"""

from __future__ import annotations

from wargame.errors import DecisionRefused, refuse
from wargame.hexgrid import Hex
from wargame.operational.actions import Advance
from wargame.operational.state_protocol import RulesBase


class AdvanceRules(RulesBase):
    """Advance after combat (CN/OD 5.2)."""

    def advance_options(self) -> list[Advance]:
        """CN/OD 5.2: into the vacated hex; armour, mechanized cavalry, motorized infantry and
        assault guns a second hex when the first is open, the second open/village/city, with
        no river (or fortification, CN) between; enemy zones ignored."""
        c = self.combat
        if c is None or not c.attacker_won:
            return []
        board = self.game.board
        target = c.target
        if any(self.side_of(u) != c.side for u in self.units_at(target)):
            return []
        rules = self.game.rule("advance", {}) or {}
        first_ok = set(rules.get("first_terrain", ["open"]))
        second_ok = set(rules.get("second_terrain", ["open", "city"]))
        out = []
        enemy = self.occupied_by(self.other(c.side))
        closed = self.maquis_forbidden(c.side)  # OD 10.0: maquis areas only for Allied units
        if target in closed:
            return []
        for uid in c.attackers:
            us = self.units[uid]
            if uid in c.advanced or us.status not in ("on_map", "at_sea"):
                continue
            if us.status == "on_map" and target not in board.neighbours(us.at):
                continue
            ut = self.unit_type(uid)
            if ut.advance < 1:
                continue
            _, mclass = self.movement_of(uid)
            steps = dict(self.game.steps.for_class(mclass).get(us.at, ())) if us.status == "on_map" else {target: 0}
            if target not in steps and us.status == "on_map":
                continue
            if self.stack_room(target, c.side, uid) <= 0:
                continue
            out.append(Advance(uid, (target.id,)))
            info = board.hexes[target]
            if ut.advance >= 2 and info.terrain in first_ok and not info.fortification and not info.village:
                nsteps = dict(self.game.steps.for_class(mclass).get(target, ()))
                for n in board.neighbours(target):
                    ninfo = board.hexes[n]
                    if n not in nsteps or n in enemy or n in closed:
                        continue
                    if not (ninfo.terrain in second_ok or (ninfo.village and "village" in second_ok)):
                        continue
                    if board.river_between(target, n) and not (rules.get("bridges") and board.road_between(target, n)):
                        continue
                    if ninfo.fortification and rules.get("no_fortification", True):
                        continue
                    if self.stack_room(n, c.side, uid) <= 0:
                        continue
                    out.append(Advance(uid, (target.id, n.id)))
        return out

    def _apply_advance(self, a: Advance) -> None:
        p = self.rule_prefix
        c = self._in_combat()
        if a not in self.advance_options():
            raise refuse(DecisionRefused, "campaign.advance.not_legal", f"{p} 5.2")
        us = self.units[a.unit]
        passing = self.game.rule("control_on_passing", True)  # CN/OD 11.2, our reading
        for i, hid in enumerate(a.path):
            h = Hex.from_id(hid)
            us.hex = h
            self._positions_changed()
            if passing or i == len(a.path) - 1:
                self._take_control(h, c.side)
        if us.status == "at_sea":
            us.status = "on_map"
            self._positions_changed()
            self._emit("landing", self.landing_rule, unit=self.game.units[a.unit].name, hex=us.at.id)
        c.advanced.add(a.unit)
        self._emit("advance", f"{p} 5.2", unit=self.game.units[a.unit].name, to=us.at.id)
