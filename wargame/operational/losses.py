"""Losses: who takes them, flipping and eliminating counters, and EMP.

Rules: CN/OD 5.1.2 (losses on the armoured unit against bocage or anti-tank defenders, CN),
5.1.6 (loss choices, EMP), 7.0 (a first loss flips the counter, a second eliminates it).
"""

from __future__ import annotations

from wargame.operational.actions import EmpEliminate
from wargame.operational.state_protocol import RulesBase


class LossRules(RulesBase):
    """Losses and eliminations (CN/OD 5.1.6, 7.0)."""

    def _loss_candidates(self, role: str) -> list[str]:
        c = self._in_combat()
        if role == "defender":
            return self._combat_units("defender")
        units = [u for u in self._combat_units("attacker")]
        if not units:
            units = [u for u in c.artillery if self.units[u].status == "on_map"]
        armoured = [u for u in units if self.unit_type(u).armoured]
        if armoured and self.game.rule("one_armour_terrain"):
            # CN 5.1.2: losses of an attack on bocage, or of armour attacking armour or
            # anti-aircraft artillery, fall on an armoured unit.
            bocage = self.game.board.hexes[c.target].terrain in self.game.rule("one_armour_terrain")
            anti_tank = any(self.unit_type(u).anti_tank for u in c.defenders)
            if bocage or anti_tank:
                return armoured
        return units

    def _apply_loss(self, uid: str, eliminate: bool) -> None:
        rule = f"{self.rule_prefix} 5.1.6"
        if self.combat is not None:
            self.combat.lost.add(uid)
        if eliminate:
            self.eliminate(uid, "", rule)
        else:
            self.take_loss(uid, rule)

    def take_loss(self, uid: str, rule: str) -> None:
        """CN/OD 7.0: a first loss flips the counter; a second eliminates it."""
        us = self.units[uid]
        if us.reduced:
            self.eliminate(uid, " (second loss)", rule)
        else:
            us.reduced = True
            self._emit("loss", rule, unit=self.game.units[uid].name)

    def eliminate(self, uid: str, why: str, rule: str) -> None:
        """Remove ``uid`` from play (status ``eliminated``); ``why`` is appended to the event
        text and ``rule`` cited."""
        us = self.units[uid]
        us.status = "eliminated"
        us.hex = None
        self._positions_changed()
        self._emit("eliminated", rule, unit=self.game.units[uid].name, why=why)

    def _apply_emp(self, action: EmpEliminate, role: str) -> None:
        """EMP (5.1.6): the defender's eliminated defence sets what the attacker must lose."""
        c = self._in_combat()
        rule = f"{self.rule_prefix} 5.1.6"
        if role == "defender":
            c.emp_value = sum(self.defence_of(u) for u in action.units)
        for u in action.units:
            self.eliminate(u, " (EMP)", rule)

    def _emp_attacker_options(self) -> list[EmpEliminate]:
        """EMP: attacking units whose attack adds up to at least the defence eliminated; all of
        them if they cannot reach it. Minimal sets only (no unit could be spared)."""
        c = self._in_combat()
        units = [u for u in c.attackers + c.artillery if self.units[u].status in ("on_map", "at_sea")]
        need = c.emp_value
        value = {u: self.attack_of(u) for u in units}
        if sum(value.values()) <= need:
            return [EmpEliminate(tuple(units))] if units else []
        return [EmpEliminate(combo) for combo in minimal_covering_sets(units, value, need)]

    def weakest(self, uids: list[str]) -> str:
        """The owner's automatic pick for a loss: the unit worth least (docs/rules-notes.md)."""
        return min(uids, key=lambda u: (self.attack_of(u) + self.defence_of(u), u))


def minimal_covering_sets(units: list[str], value: dict[str, int], need: int,
                          cap: int = 200) -> list[tuple[str, ...]]:
    """CN/OD 5.1.6 (EMP): the sets of ``units`` whose values add up to at least ``need`` with
    no unit to spare, in the order of ``itertools.combinations`` by size (smallest sets
    first), stopping after the first size that brings the count over ``cap``.

    The same list as trying every combination, without trying them all: a partial set that
    already has a unit to spare, or that cannot reach ``need`` with the largest units left,
    is not extended (both properties hold for every extension)."""
    n = len(units)
    vals = [value[u] for u in units]
    out: list[tuple[str, ...]] = []

    def extend(start: int, left: int, chosen: list[int], total: int, low: int) -> None:
        if left == 0:
            if total >= need and total - low < need:
                out.append(tuple(units[i] for i in chosen))
            return
        for i in range(start, n - left + 1):
            v = vals[i]
            t, m = total + v, min(low, v)
            if chosen and t - m >= need:
                continue  # a unit to spare already: never minimal (a smaller v may follow)
            best = sorted(vals[i + 1:], reverse=True)[: left - 1]
            if t + sum(best) < need:
                continue  # cannot reach the defence eliminated with this start
            chosen.append(i)
            extend(i + 1, left - 1, chosen, t, m)
            chosen.pop()

    for r in range(1, n + 1):
        extend(0, r, [], 0, 10**9)
        if len(out) > cap:
            break
    return out
