"""Air points spent on attacks, defences and bombardments.

Rules: CN/OD 6.0 (no air power on some turns), 6.1 (air points available), 6.2 / OD 6.2
(at least and at most so many points per strike).
"""

from __future__ import annotations

from wargame.errors import SupportRefused


class AirRules:
    """Air power checks (CN/OD 6.x)."""

    def _check_air(self, side: str, air: int, rule_min: bool) -> None:
        p = self.rule_prefix
        tables_air = self.game.tables.air
        if air < 0:
            raise SupportRefused("air points cannot be negative", f"{p} 6.1")
        if air == 0:
            return
        if self.turn in tables_air.no_air_turns:
            raise SupportRefused(f"no air power on turn {self.turn}", f"{p} 6.0")
        if air > self.air_points.get(side, 0):
            raise SupportRefused(f"only {self.air_points.get(side, 0)} air points left this turn", f"{p} 6.1")
        if air > tables_air.strike_max:
            raise SupportRefused(f"at most {tables_air.strike_max} air points per combat", "OD 6.2" if p == "OD" else f"{p} 6.0")
        if rule_min and air < tables_air.strike_min:
            raise SupportRefused(f"an air strike needs at least {tables_air.strike_min} points", "OD 6.2" if p == "OD" else f"{p} 6.0")
