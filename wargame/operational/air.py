"""Air points spent on attacks, defences and bombardments.

Rules: CN/OD 6.0 (no air power on some turns), 6.1 (air points available), 6.2 / OD 6.2
(at least and at most so many points per strike).
"""

from __future__ import annotations

from wargame.errors import SupportRefused, refuse
from wargame.operational.state_protocol import RulesBase


class AirRules(RulesBase):
    """Air power checks (CN/OD 6.x)."""

    def _check_air(self, side: str, air: int, rule_min: bool) -> None:
        p = self.rule_prefix
        tables_air = self.game.tables.air
        if air < 0:
            raise refuse(SupportRefused, "campaign.air.negative", f"{p} 6.1")
        if air == 0:
            return
        if self.turn in tables_air.no_air_turns:
            raise refuse(SupportRefused, "campaign.air.no_air_turn", f"{p} 6.0", turn=self.turn)
        if air > self.air_points.get(side, 0):
            raise refuse(SupportRefused, "campaign.air.points_left", f"{p} 6.1",
                         points=self.air_points.get(side, 0))
        if air > tables_air.strike_max:
            raise refuse(SupportRefused, "campaign.air.strike_max",
                         "OD 6.2" if p == "OD" else f"{p} 6.0", max=tables_air.strike_max)
        if rule_min and air < tables_air.strike_min:
            raise refuse(SupportRefused, "campaign.air.strike_min",
                         "OD 6.2" if p == "OD" else f"{p} 6.0", min=tables_air.strike_min)
