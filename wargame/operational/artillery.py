"""Artillery support: which guns are in range and may fire.

Rules: CN/OD 8.0 (range, once per phase, artillery attacked in its hex only defends), OD
10.0 (no artillery for units forced into a maquis area).
"""

from __future__ import annotations

from wargame.errors import MalformedAction, SupportRefused
from wargame.hexgrid import Hex


class ArtilleryRules:
    """Artillery in range (CN/OD 8.0)."""

    def artillery_in_range(self, side: str, target: Hex) -> list[str]:
        """CN/OD 8.0: artillery attacks without engaging, within its range, once per phase."""
        out = []
        for uid, us in self.units.items():
            d = self.game.units[uid]
            if d.side != side or d.range <= 0 or us.status != "on_map" or us.fired or us.attacked:
                continue
            if us.hex == target:
                continue  # docs/rules-notes.md: artillery attacked in its hex defends, no more
            if us.hex.distance(target) <= d.range:
                out.append(uid)
        return out

    def _check_artillery(self, side: str, target: Hex, artillery: tuple[str, ...],
                         attackers: tuple[str, ...] = ()) -> None:
        p = self.rule_prefix
        in_range = set(self.artillery_in_range(side, target))
        if len(set(artillery)) != len(artillery):
            raise SupportRefused("an artillery unit is listed twice", f"{p} 8.0")
        for uid in artillery:
            if uid not in self.units:
                raise MalformedAction(f"no unit {uid!r}", p)
            if uid not in in_range:
                raise SupportRefused(f"{self.game.units[uid].name} is not artillery in range or was already used this phase", f"{p} 8.0")
        if artillery and any(self.units[u].in_maquis for u in attackers):
            # OD 10.0: units forced into a maquis area get no artillery support of any kind
            # (in defence: _do_declare_defence)
            raise SupportRefused("units forced into a maquis area get no artillery support", "OD 10.0")
