"""Artillery support: which guns are in range and may fire.

Rules: CN/OD 8.0 (range, once per phase, artillery attacked in its hex only defends, engaged
artillery fights as a unit), 4.1.2 (an engaged gun owes its attack), OD 10.0 (no artillery for
units forced into a maquis area).
"""

from __future__ import annotations

from wargame.errors import MalformedAction, SupportRefused
from wargame.hexgrid import Hex


class ArtilleryRules:
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
            return SupportRefused(f"{name} is not artillery in range or was already used this phase", f"{p} 8.0")
        if us.hex == target:
            # docs/rules-notes.md: artillery attacked in its hex defends, no more
            return SupportRefused(f"{name} is in the attacked hex: it defends there", f"{p} 8.0")
        if us.hex.distance(target) > d.range:
            return SupportRefused(f"{target.id} is beyond {name}'s range of {d.range}", f"{p} 8.0")
        if self.phase.is_combat and side == self.phase.side:
            if us.hex.distance(target) == 1:
                # CN/OD 8.0: "Caso engaje, sofre os efeitos de terreno e combate normalmente":
                # next to the hex it fights, it attacks as a unit (docs/rules-notes.md)
                return SupportRefused(f"{name} is next to {target.id}: engaged artillery attacks it as a unit "
                                      "and suffers the combat's results", f"{p} 8.0")
            if uid in self.must_attack and self._can_still_attack(uid, side):
                # CN/OD 4.1.2 with 8.0 (one combat a phase): the gun owes an attack next to it
                return SupportRefused(f"{name} is engaged and must attack a hex next to it (its one combat "
                                      "this phase)", f"{p} 4.1.2")
        return None

    def _check_artillery(self, side: str, target: Hex, artillery: tuple[str, ...],
                         attackers: tuple[str, ...] = ()) -> None:
        p = self.rule_prefix
        if len(set(artillery)) != len(artillery):
            raise SupportRefused("an artillery unit is listed twice", f"{p} 8.0")
        for uid in artillery:
            if uid not in self.units:
                raise MalformedAction(f"no unit {uid!r}", p)
            refusal = self._artillery_refusal(uid, side, target)
            if refusal is not None:
                raise refusal
        if artillery and any(self.units[u].in_maquis for u in attackers):
            # OD 10.0: units forced into a maquis area get no artillery support of any kind
            # (in defence: _do_declare_defence)
            raise SupportRefused("units forced into a maquis area get no artillery support", "OD 10.0")
