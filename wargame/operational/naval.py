"""Naval gunfire support as a column shift.

Rules: CN 10.0 (turn-0 landings, Cherbourg, within three hexes of the invasion coast),
OD 9.0 (any combat in a coast hex), BFN 19.1 (after the battleships leave).
"""

from __future__ import annotations

from wargame.hexgrid import Hex
from wargame.operational.state_protocol import RulesBase


class NavalRules(RulesBase):
    """Naval support (CN 10.0, OD 9.0)."""

    def naval_support_columns(self, target: Hex, attackers: tuple[str, ...]) -> int:
        rule = self.game.rule("naval_support")
        if not rule:
            return 0
        rule = self.game.hooks.naval_rule(self, rule)  # BFN 19.1: after the battleships leave
        cols = int(rule["columns"])
        if rule.get("coast_hexes") and target in self.game.board.coast:
            return cols  # OD 9.0: any combat in a coast hex
        if self.turn in rule.get("landing_turns", []) and any(self.units[u].status == "at_sea" for u in attackers):
            return cols  # CN 10.0: turn-0 attacks by units landing from the sea
        for place in rule.get("places", []):
            if target in self.game.board.places.get(place, ()):
                return cols  # CN 10.0: any attack on Cherbourg
        coast_place = rule.get("invasion_coast")
        if coast_place:
            excluded = {Hex.from_id(x) for x in rule.get("excluded", [])}
            coast = [h for h in self.game.board.places.get(coast_place, ()) if h not in excluded]
            if any(target.distance(c) <= int(rule.get("range", 3)) for c in coast):
                return cols  # CN 10.0: within 3 hexes of the invasion coast (not 1509)
        return 0
