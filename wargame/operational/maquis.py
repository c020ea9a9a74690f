"""The French Resistance of Operation Dragoon.

Rules: OD 10.0 (maquis areas closed to Axis units, the loss and elimination of Axis units
left in them, column shifts for units forced into them, guerrillas without support unless
stacked with other Allied units); BFN 19.5-19.7 column shifts join the same list.
"""

from __future__ import annotations

from collections.abc import Sequence

from wargame.errors import SupportRefused, refuse
from wargame.hexgrid import Hex
from wargame.operational.combat import Shift
from wargame.operational.state_protocol import RulesBase


class MaquisRules(RulesBase):
    """Maquis areas and guerrillas (OD 10.0)."""

    def maquis_forbidden(self, side: str) -> frozenset[Hex]:
        """OD 10.0: only Allied units may move through maquis areas."""
        rule = self.game.rule("maquis_areas")
        if not rule or side not in rule.get("closed_to", ["axis"]):
            return frozenset()
        return frozenset(h for h, info in self.game.board.hexes.items() if info.maquis)

    def maquis_shifts(self, attackers: tuple[str, ...], defenders: list[str]) -> list[Shift]:
        out = []
        if any(self.units[u].in_maquis for u in defenders):
            out.append(Shift("defenders forced into a maquis area", +1, "OD 10.0"))
        if any(self.units[u].in_maquis for u in attackers):
            out.append(Shift("attackers forced into a maquis area", -1, "OD 10.0"))
        out.extend(self.game.hooks.combat_shifts(self, attackers, defenders))  # BFN 19.5-19.7
        return out

    def guerrilla_supported(self, units: tuple[str, ...]) -> bool:
        """OD 10.0: every guerrilla among ``units`` shares its hex with a non-guerrilla ally."""
        for uid in units:
            if self.unit_type(uid).guerrilla and self.units[uid].status == "on_map":
                mates = [u for u in self.units_at(self.units[uid].at) if u != uid and not self.unit_type(u).guerrilla]
                if not mates:
                    return False
        return True

    def support_refusal(self, units: Sequence[str], air: int,
                        artillery: Sequence[str]) -> SupportRefused | None:
        """Why the combat units ``units`` (the attackers, or the defenders of a hex) may not
        receive ``air`` points and the fire of ``artillery`` under OD 10.0, or None. The one
        test behind the attack and defence declarations and the defence answers offered
        (``defence_answers``), so that what is offered is what is accepted."""
        if artillery and any(self.units[u].in_maquis for u in units):
            # OD 10.0: German units forced into a maquis area "não podem receber apoio de
            # artilharia de nenhum tipo", attacking or defending
            return refuse(SupportRefused, "campaign.artillery.maquis", "OD 10.0")
        if (air or artillery) and not self.guerrilla_supported(tuple(units)):
            # OD 10.0: guerrillas get no air or artillery support unless stacked with other
            # Allied units (an attack with an unstacked guerrilla gets none at all)
            return refuse(SupportRefused, "campaign.support.guerrilla", "OD 10.0")
        return None

    def _maquis_end_of_movement(self, side: str) -> None:
        """OD 10.0: an Axis unit still in a maquis area at the end of its movement phase
        takes a loss; at the end of the next, it is eliminated."""
        maquis = self.game.rule("maquis_areas")
        if maquis:
            # OD 10.0: an Axis unit still in a maquis area at the end of its movement phase
            # takes a loss; at the end of the next, it is eliminated.
            for uid, us in self.units.items():
                if self.side_of(uid) != side or us.status != "on_map":
                    continue
                if self.game.board.hexes[us.at].maquis and side in maquis.get("closed_to", ["axis"]):
                    us.maquis_phases += 1
                    self._emit("maquis", "OD 10.0", unit=self.game.units[uid].name)
                    if us.maquis_phases >= 2:
                        self.eliminate(uid, " (maquis area)", "OD 10.0")
                    else:
                        self.take_loss(uid, "OD 10.0")
                else:
                    us.maquis_phases = 0
                    us.in_maquis = False
