"""Bombardments by air or artillery alone, and carpet bombing.

Rules: CN/OD 6.2 (air bombardment), 8.0 (artillery-only attacks), CN 6.3 (carpet bombing),
CN 9.0 (no artillery-only attacks without Mulberries); BFN 19.3 replaces CN 6.3 when on.
"""

from __future__ import annotations

from wargame.errors import CombatRefused, SupportRefused, refuse
from wargame.hexgrid import Hex
from wargame.operational.actions import Bombard, CarpetBomb, IllegalAction
from wargame.operational.combat import assess_bombardment
from wargame.operational.state_protocol import RulesBase
from wargame.operational.state_types import Combat, Phase


class BombardmentRules(RulesBase):
    """Bombardment and carpet bombing (CN/OD 6.2, 6.3, 8.0)."""

    def _bombard_refusal(self, target: Hex, artillery: tuple[str, ...], air: int) -> IllegalAction | None:
        p = self.rule_prefix
        side = self.phase.acting
        if bool(artillery) == bool(air):
            if artillery and air:
                return refuse(SupportRefused, "campaign.bombard.no_air_with_artillery", f"{p} 8.0")
            return refuse(SupportRefused, "campaign.bombard.needs_support", f"{p} 6.2")
        if air:
            try:
                self._check_air(side, air, rule_min=True)
            except IllegalAction as exc:
                return exc
        if artillery and self.mulberry_penalty() >= 2 and side == "allied":
            return refuse(SupportRefused, "campaign.bombard.no_mulberries", "CN 9.0")
        # CN/OD 4.1.2 and 5.0: the hex's one attack of the turn cannot leave out the units
        # engaged with it that have nothing else to attack
        return self.left_behind_refusal(side, target)

    def _do_bombard(self, a: Bombard) -> None:
        p = self.rule_prefix
        side, target = self._combat_refusal_common(a.target)
        refusal = self._bombard_refusal(target, a.artillery, a.air)
        if refusal:
            raise refusal
        self._check_artillery(side, target, a.artillery)
        for uid in a.artillery:
            self.units[uid].fired = True
        self.air_points[side] = self.air_points.get(side, 0) - a.air
        self.attacked_hexes.add((side, target))
        ba = assess_bombardment(self, target, tuple(a.artillery), a.air)
        rule = f"{p} 6.2" if a.air else f"{p} 8.0"
        self.combat = Combat(kind="bombard", side=side, target=target, attackers=[], artillery=list(a.artillery),
                             air=a.air, defenders=self.units_at(target), assessment=ba)
        if ba.column is None:
            self._emit("bombard_none", rule, target=target.id, value=ba.value)
            self.combat = None
            return
        self._emit("bombard", rule, target=target.id, value=ba.value, column=ba.column_label)
        d1, d2 = self.dice.two_d6()
        result = self.game.tables.bombardment_result(ba.column, d1 + d2)
        self.combat.result = result
        self._emit("roll", rule, dice=f"{d1}+{d2}", total=d1 + d2, result=result)
        if result == "DB":
            self.combat.steps = [("loss", "defender", False)]
        elif result == "DE":
            self.combat.steps = [("loss", "defender", True)]
        self._run_combat()

    def _do_carpet(self, a: CarpetBomb) -> None:
        """CN 6.3: before Allied movement, two non-consecutive turns from turn 8: roll on the
        carpet bombing table for the hex and each of its six neighbours."""
        p = self.rule_prefix
        center = self._hex_arg(a.center, "carpet bombing hex")
        if center not in self.carpet_targets():
            rule = self.game.rule("carpet_bombing")
            if not rule:
                raise refuse(CombatRefused, "campaign.carpet.none", p)
            raise refuse(CombatRefused, "campaign.carpet.limits", f"{p} 6.3",
                         turn=rule["from_turn"], uses=rule["uses"])
        self.carpet_turns.append(self.turn)
        for h in (center, *self.game.board.neighbours(center)):
            victims = self.units_at(h)
            if not victims:
                continue
            d1, d2 = self.dice.two_d6()
            result = self.game.tables.carpet_result(d1 + d2)
            self._emit("carpet", f"{p} 6.3", hex=h.id, total=d1 + d2, result=result)
            if result == "DB":
                self.take_loss(self.weakest(victims), f"{p} 6.3")
            elif result == "DE":
                self.eliminate(self.weakest(victims), " (carpet bombing)", f"{p} 6.3")
            elif result == "DA":
                for uid in victims:
                    self.eliminate(uid, " (carpet bombing)", f"{p} 6.3")

    def carpet_targets(self) -> list[Hex]:
        rule = self.game.rule("carpet_bombing")
        if not rule or self.phase is not Phase.ALLIED_MOVEMENT or self.pending is not None \
                or self.game.hooks.replaces_carpet_bombing(self.game):  # BFN 19.3 replaces CN 6.3
            return []
        if self.turn < rule["from_turn"] or len(self.carpet_turns) >= rule["uses"]:
            return []
        if self.carpet_turns and self.turn - self.carpet_turns[-1] <= 1:
            return []
        if any(us.moved for uid, us in self.units.items() if self.side_of(uid) == "allied"):
            return []
        # CN 6.3: the Allied player names any hex; the centre need not hold a German unit, so
        # every land hex with a German unit on it or next to it (docs/rules-notes.md)
        board = self.game.board
        axis = self.occupied_by("axis")
        return sorted({h for a in axis for h in (a, *board.neighbours(a)) if board.is_land(h)})
