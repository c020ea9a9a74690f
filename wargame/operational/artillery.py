"""Artillery support: which guns are in range and may fire.

Rules: CN/OD 8.0 (range, once per phase, artillery attacked in its hex only defends, engaged
artillery fights as a unit), 4.1.2 (an engaged gun owes its attack), OD 10.0 (no artillery for
units forced into a maquis area: ``MaquisRules.support_refusal``).
"""

from __future__ import annotations

from wargame.errors import MalformedAction, SupportRefused, refuse
from wargame.hexgrid import Hex
from wargame.operational.state_protocol import RulesBase


class ArtilleryRules(RulesBase):
    """Artillery in range (CN/OD 8.0)."""

    def artillery_in_range(self, side: str, target: Hex) -> list[str]:
        """CN/OD 8.0: artillery attacks without engaging, within its range, once per phase."""
        units = self.game.units
        return [uid for uid in self.units if units[uid].range > 0 and units[uid].side == side
                and self._artillery_refusal(uid, side, target) is None]

    def _artillery_refusal(self, uid: str, side: str, target: Hex) -> SupportRefused | None:
        """Why ``uid`` may not fire at ``target`` for ``side`` now (attack support, a bombardment
        or defence support), or None."""
        p = self.rule_prefix
        d = self.game.units[uid]
        us = self.units[uid]
        name = d.name
        if d.side != side or d.range <= 0 or us.status != "on_map" or us.fired or us.attacked:
            return refuse(SupportRefused, "campaign.artillery.not_available", f"{p} 8.0", unit=name)
        if us.hex == target:
            # docs/rules-notes.md: artillery attacked in its hex defends, no more
            return refuse(SupportRefused, "campaign.artillery.in_target_hex", f"{p} 8.0", unit=name)
        if us.at.distance(target) > d.range:
            return refuse(SupportRefused, "campaign.artillery.out_of_range", f"{p} 8.0",
                          hex=target.id, unit=name, range=d.range)
        if self.phase.is_combat and side == self.phase.side:
            if us.at.distance(target) == 1:
                # CN/OD 8.0: "Caso engaje, sofre os efeitos de terreno e combate normalmente":
                # next to the hex it fights, it attacks as a unit (docs/rules-notes.md)
                return refuse(SupportRefused, "campaign.artillery.adjacent", f"{p} 8.0", unit=name,
                              hex=target.id)
            if uid in self.must_attack and self._can_still_attack(uid, side):
                # CN/OD 4.1.2 with 8.0 (one combat a phase): the gun owes an attack next to it
                return refuse(SupportRefused, "campaign.artillery.must_attack", f"{p} 4.1.2",
                              unit=name)
        return None

    def _check_artillery(self, side: str, target: Hex, artillery: tuple[str, ...]) -> None:
        p = self.rule_prefix
        if len(set(artillery)) != len(artillery):
            raise refuse(SupportRefused, "campaign.artillery.listed_twice", f"{p} 8.0")
        for uid in artillery:
            if uid not in self.units:
                raise refuse(MalformedAction, "action.no_unit", p, unit=repr(uid))
            refusal = self._artillery_refusal(uid, side, target)
            if refusal is not None:
                raise refusal
