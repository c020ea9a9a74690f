"""Attacks: who may attack what, the declaration, the defence declaration, the dice, and the
step machine that walks a result through losses, retreats, EMP and advance.

Rules: CN/OD 5.0 (engaged units attack, each hex once a turn), 5.1 (attack strength), 5.1.1
(defence declaration; turn penalties), 5.1.2 (one armoured unit against bocage, no armour
into mountains), 5.1.5 (the dice), 5.1.6 (result order), 5.2 (advance), 5.3 (retreat),
6.0 (a hex attacked once a turn), 8.0 (artillery with attacks), 9.0 (Mulberry penalty, CN),
OD 10.0 (guerrillas without support).
"""

from __future__ import annotations

import itertools
from typing import Any

from wargame.errors import (
    CombatRefused,
    IllegalAction,
    MalformedAction,
    SupportRefused,
    WrongPhase,
    refuse,
)
from wargame.event_text import DECISIONS
from wargame.hexgrid import Hex
from wargame.operational.actions import (
    Action,
    Advance,
    Attack,
    Bombard,
    ChooseLoss,
    DeclareDefence,
    EmpEliminate,
    EndAdvance,
    Retreat,
)
from wargame.operational.combat import Assessment, Shift, assess_attack
from wargame.operational.state_protocol import RulesBase
from wargame.operational.state_types import Combat, Decision
from wargame.operational.tables import split_result


class CombatSteps(RulesBase):
    """Attacks and the combat step machine (CN/OD 5.x)."""

    def turn_shifts(self, attacking_side: str) -> list[Shift]:
        out = []
        penalties = self.game.rule("attack_penalty_turns", {}) or {}
        if self.turn in penalties.get(attacking_side, []):
            out.append(Shift(f"turn {self.turn}: attacker loses a column", -1, f"{self.rule_prefix} 5.1.1"))
        if self.mulberry_penalty():
            sign = -1 if attacking_side == "allied" else +1
            out.append(Shift("Mulberries lost: Allies lose a column", sign, "CN 9.0"))
        return out

    def _attack_actions(self, side: str) -> list[Action]:
        out: list[Action] = []
        enemy_hexes = self.occupied_by(self.other(side))
        for target in sorted(enemy_hexes):
            if (side, target) in self.attacked_hexes:
                continue
            attackers = self.eligible_attackers(side, target)
            if attackers:
                out.append(Attack(target.id, tuple(attackers)))
            arty = self.artillery_in_range(side, target)
            if arty and not attackers:
                if self._bombard_refusal(target, tuple(arty), 0) is None:
                    out.append(Bombard(target.id, tuple(arty)))
        return out

    def eligible_attackers(self, side: str, target: Hex, one_armour: bool = True) -> list[str]:
        """Units of ``side`` that may attack ``target`` now, respecting CN 5.1.2's one armoured
        unit against bocage (unless ``one_armour`` is False) and OD 5.1.2's no armour against
        mountains."""
        out = []
        armour_taken = False
        info = self.game.board.hexes[target]
        limit_armour = one_armour and info.terrain in (self.game.rule("one_armour_terrain") or [])
        for n in (target, *self.game.board.neighbours(target)):
            for uid in self._attack_candidates_at(n, side, target):
                ut = self.unit_type(uid)
                if info.terrain in ut.no_attack_into:
                    continue
                if limit_armour and ut.armoured:
                    if armour_taken:
                        continue
                    armour_taken = True
                out.append(uid)
        return out

    def _attack_candidates_at(self, h: Hex, side: str, target: Hex) -> list[str]:
        """Units of ``side`` at ``h`` (at sea off ``target`` when ``h`` is the target) that have
        neither attacked nor fired this phase (CN/OD 8.0: a gun that fired has had its one
        combat), in the order of ``self.units``."""
        units = self.units
        if h == target:
            uids: list[str] | tuple = [u for u, us in units.items()
                                       if us.status == "at_sea" and us.hex == target]
        else:
            uids = self.occupancy().get(h, ())
        defs = self.game.units
        return [u for u in uids
                if defs[u].side == side and not units[u].attacked and not units[u].fired]

    def _combat_refusal_common(self, target_id: str) -> tuple[str, Hex]:
        p = self.rule_prefix
        if not self.phase.is_combat:
            raise refuse(WrongPhase, "campaign.combat.wrong_phase", f"{p} 3.0")
        side = self.phase.acting
        target = self._hex_arg(target_id, "target")
        defenders = self.units_at(target)
        if not defenders or all(self.side_of(u) == side for u in defenders):
            raise refuse(CombatRefused, "campaign.combat.no_enemy", f"{p} 5.0", hex=target.id)
        if (side, target) in self.attacked_hexes:
            # CN 6.0 observations; OD 8.0 observations (the same sentence sits elsewhere)
            raise refuse(CombatRefused, "campaign.combat.hex_attacked",
                         "OD 8.0" if p == "OD" else f"{p} 6.0", hex=target.id)
        return side, target

    def preview_attack(self, target: str, attackers: tuple[str, ...], artillery: tuple[str, ...] = (), air: int = 0,
                       defence_air: int = 0, defence_artillery: tuple[str, ...] = ()) -> Assessment:
        """What an attack would be resolved at (no dice, no change)."""
        return assess_attack(self, Hex.from_id(target), tuple(attackers), tuple(artillery), air,
                             defence_air, tuple(defence_artillery))

    def _do_attack(self, a: Attack) -> None:
        p = self.rule_prefix
        side, target = self._combat_refusal_common(a.target)
        if not a.attackers:
            raise refuse(CombatRefused, "campaign.combat.no_attackers", f"{p} 8.0")
        if len(set(a.attackers)) != len(a.attackers):
            raise refuse(CombatRefused, "campaign.combat.listed_twice", f"{p} 5.1")
        eligible = set(self.eligible_attackers(side, target, one_armour=False))
        for uid in a.attackers:
            if uid not in self.units:
                raise refuse(MalformedAction, "action.no_unit", p, unit=repr(uid))
            if uid not in eligible:
                us = self.units[uid]
                if us.attacked:
                    raise refuse(CombatRefused, "campaign.combat.unit_attacked", f"{p} 5.0",
                                 unit=self.game.units[uid].name)
                if us.fired:
                    raise refuse(CombatRefused, "campaign.combat.unit_fired", f"{p} 8.0",
                                 unit=self.game.units[uid].name)
                ut = self.unit_type(uid)
                if self.game.board.hexes[target].terrain in ut.no_attack_into:
                    raise refuse(CombatRefused, "campaign.combat.armour_mountains", f"{p} 5.1.2")
                raise refuse(CombatRefused, "campaign.combat.not_adjacent", f"{p} 5.0",
                             unit=self.game.units[uid].name, hex=target.id)
        if self.game.board.hexes[target].terrain in (self.game.rule("one_armour_terrain") or []):
            if sum(1 for u in a.attackers if self.unit_type(u).armoured) > 1:
                raise refuse(CombatRefused, "campaign.combat.one_armour_bocage", f"{p} 5.1.2")
        self._check_artillery(side, target, a.artillery)
        if set(a.artillery) & set(a.attackers):
            raise refuse(SupportRefused, "campaign.artillery.attack_and_fire", f"{p} 8.0")
        self._check_air(side, a.air, rule_min=False)
        refusal: IllegalAction | None = self.support_refusal(a.attackers, a.air, a.artillery)  # OD 10.0
        if refusal is not None:
            raise refusal
        refusal = self.left_behind_refusal(side, target, a.attackers)  # CN/OD 4.1.2, 5.0
        if refusal is not None:
            raise refusal
        defenders = self.units_at(target)
        combat = Combat(kind="attack", side=side, target=target, attackers=list(a.attackers),
                        artillery=list(a.artillery), air=a.air, defenders=defenders)
        for uid in a.attackers:
            self.units[uid].attacked = True
        for uid in a.artillery:
            self.units[uid].fired = True
        self.air_points[side] = self.air_points.get(side, 0) - a.air
        self.attacked_hexes.add((side, target))
        self.combat = combat
        options = self.defence_answers(target)
        if options:
            self.pending = _decision("defence", self.other(side), f"{p} 5.1.1", options,
                                     target=target.id)
            return
        self._roll_attack()

    def defence_answers(self, target: Hex) -> tuple[DeclareDefence, ...]:
        """The answers the side holding ``target`` may give to an attack on it, weakest first
        (none: the attack is rolled at once): its artillery in range (8.0) and, with air
        points left outside the turns without air, as many as one combat takes (5.1.1, 6.1);
        lone guerrillas defend unsupported, units forced into a maquis area without artillery
        (OD 10.0). Each answer offered passes ``defence_refusal``, the declaration's own test."""
        defenders = self.units_at(target)
        if not defenders:
            return ()
        dside = self.game.units[defenders[0]].side
        defence_arty = tuple(self.artillery_in_range(dside, target))
        air = 0
        if self.air_points.get(dside, 0) > 0 and self.turn not in self.game.tables.air.no_air_turns:
            air = min(self.air_points[dside], self.game.tables.air.strike_max)
        if defence_arty and self.defence_refusal(target, defenders,
                                                 DeclareDefence(0, defence_arty)) is not None:
            defence_arty = ()  # e.g. OD 10.0: forced into a maquis area, no artillery
        candidates = [DeclareDefence(0, defence_arty), DeclareDefence(air, defence_arty)]
        options = [DeclareDefence(0, ())]
        for option in candidates:
            if option not in options and self.defence_refusal(target, defenders, option) is None:
                options.append(option)
        if len(options) == 1:
            return ()  # nothing to add: the attack is rolled at once
        return tuple(options)

    def defence_refusal(self, target: Hex, defenders: list[str],
                        a: DeclareDefence) -> IllegalAction | None:
        """Why the side holding ``defenders`` in ``target`` may not declare ``a`` in defence
        (CN/OD 5.1.1, 6.1, 8.0, OD 10.0), or None; the state is not changed."""
        p = self.rule_prefix
        dside = self.game.units[defenders[0]].side
        try:
            self._check_air(dside, a.air, rule_min=False)
        except IllegalAction as exc:
            return exc
        if len(set(a.artillery)) != len(a.artillery):
            return refuse(SupportRefused, "campaign.artillery.listed_twice", f"{p} 8.0")
        for uid in a.artillery:
            if uid not in self.units:
                return refuse(MalformedAction, "action.no_unit", p, unit=repr(uid))
            refusal = self._artillery_refusal(uid, dside, target)
            if refusal is not None:
                return refusal
        return self.support_refusal(defenders, a.air, a.artillery)  # OD 10.0

    def _do_declare_defence(self, a: DeclareDefence) -> None:
        p = self.rule_prefix
        c = self._in_combat()
        dside = self.other(c.side)
        refusal = self.defence_refusal(c.target, c.defenders, a)
        if refusal is not None:
            raise refusal
        self.pending = None
        c.defence_air = a.air
        c.defence_artillery = list(a.artillery)
        self.air_points[dside] = self.air_points.get(dside, 0) - a.air
        for uid in a.artillery:
            self.units[uid].fired = True
        self._emit("defence", f"{p} 5.1.1", target=c.target.id, air=a.air,
                   artillery=", ".join(self.game.units[u].name for u in a.artillery) or "none")
        self._roll_attack()

    def _roll_attack(self) -> None:
        p = self.rule_prefix
        c = self._in_combat()
        assessment = assess_attack(self, c.target, tuple(c.attackers), tuple(c.artillery), c.air,
                                   c.defence_air, tuple(c.defence_artillery))
        c.assessment = assessment
        shifts = "".join(f"; {s.reason} {s.columns:+d}" for s in assessment.shifts)
        self._emit("attack", f"{p} 5.1", target=c.target.id, attack=assessment.attack, defence=assessment.defence,
                   ratio=assessment.ratio, column=assessment.column_label, shifts=shifts,
                   assessment={"ratio": assessment.ratio, "column": assessment.column_label,
                               "shifts": [s.to_dict() for s in assessment.shifts]})
        d1, d2 = self.dice.two_d6()
        result = self.game.tables.crt_result(assessment.column, d1 + d2)
        c.result = result
        self._emit("roll", f"{p} 5.1.5", dice=f"{d1}+{d2}", total=d1 + d2, result=result)
        d_code, a_code = split_result(result)
        steps: list[tuple] = []
        if d_code == "EMP":
            steps = [("emp_defender",), ("emp_attacker",), ("retreat", "defender", True)]
        elif d_code == "IMP":
            steps = []
        else:
            if d_code == "DE":
                steps.append(("loss", "defender", True))
            elif d_code in ("DRB", "DVB"):
                steps.append(("loss", "defender", False))
            if a_code == "AE":
                steps.append(("loss", "attacker", True))
            elif a_code in ("AVB", "ARB"):
                steps.append(("loss", "attacker", False))
            if d_code in ("DE", "DRB", "DRI"):
                steps.append(("retreat", "defender", d_code == "DE"))
                c.attacker_won = True
            if a_code in ("ARI", "ARB", "AE") or d_code in ("DVB", "DVI"):
                steps.append(("retreat", "attacker", False))
            if c.attacker_won:
                steps.append(("advance",))
        c.steps = steps
        self._run_combat()

    def _in_combat(self) -> Combat:
        """The combat being resolved, for its steps (called only while one is)."""
        if self.combat is None:
            raise RuntimeError("no combat is being resolved (engine bug)")
        return self.combat

    def _combat_units(self, role: str) -> list[str]:
        c = self._in_combat()
        if role == "defender":
            return [u for u in c.defenders if self.units[u].status == "on_map" and self.units[u].hex == c.target]
        ground = [u for u in c.attackers if self.units[u].status in ("on_map", "at_sea")]
        return ground

    def _run_combat(self) -> None:
        p = self.rule_prefix
        c = self.combat
        while c is not None and self.pending is None:
            if not c.steps and not c.retreat_queue:
                self._finish_combat()
                return
            if c.retreat_queue:
                uid = c.retreat_queue[0]
                if self.units[uid].status not in ("on_map", "at_sea"):
                    c.retreat_queue.pop(0)
                    continue
                options = self.retreat_options(uid)
                if not options:
                    c.retreat_queue.pop(0)
                    self.eliminate(uid, " (no retreat possible)", f"{p} 5.3")
                    continue
                if len(options) == 1:
                    c.retreat_queue.pop(0)
                    self._apply_retreat(options[0])
                    continue
                self.pending = _decision("retreat", self.side_of(uid), f"{p} 5.3", tuple(options),
                                         uid, unit=self.game.units[uid].name)
                return
            step = c.steps.pop(0)
            kind = step[0]
            if kind == "loss":
                role, eliminate = step[1], step[2]
                candidates = self._loss_candidates(role)
                if not candidates:
                    continue
                side = c.side if role == "attacker" else self.other(c.side)
                if len(candidates) == 1:
                    self._apply_loss(candidates[0], eliminate)
                    continue
                self.pending = _decision("loss", side, f"{p} 5.1.6", tuple(ChooseLoss(u) for u in candidates),
                                         prompt_id="loss.eliminated" if eliminate else "loss")
                self.flags["loss_eliminates"] = eliminate
                return
            if kind == "retreat":
                role, forced = step[1], step[2]
                units = self._combat_units(role)
                if role == "attacker":
                    units = [u for u in units if self.units[u].status == "on_map"]
                c.retreat_side = role
                self.flags["retreat_forced"] = forced
                c.retreat_queue = list(units)
                continue
            if kind == "emp_defender":
                defenders = self._combat_units("defender")
                if not defenders:
                    continue
                eliminations = [EmpEliminate(tuple(combo)) for r in range(1, len(defenders) + 1)
                                for combo in itertools.combinations(defenders, r)]
                if len(eliminations) == 1:
                    self._apply_emp(eliminations[0], "defender")
                    continue
                self.pending = _decision("emp_defender", self.other(c.side), f"{p} 5.1.6", tuple(eliminations))
                return
            if kind == "emp_attacker":
                eliminations = self._emp_attacker_options()
                if len(eliminations) <= 1:
                    if eliminations:
                        self._apply_emp(eliminations[0], "attacker")
                    continue
                self.pending = _decision("emp_attacker", c.side, f"{p} 5.1.6", tuple(eliminations),
                                         value=c.emp_value)
                return
            if kind == "advance":
                advances = self.advance_options()
                if not advances:
                    continue
                c.steps.insert(0, ("advance",))
                self.pending = _decision("advance", c.side, f"{p} 5.2", tuple(advances) + (EndAdvance(),),
                                         target=c.target.id)
                return

    def _answer(self, action: Action) -> None:
        d = self.pending
        if d is None:
            raise RuntimeError("no decision is pending (engine bug)")
        c = self._in_combat()
        if d.kind == "defence":
            assert isinstance(action, DeclareDefence)
            self._do_declare_defence(action)
            return
        self.pending = None
        # the action is one of the decision's options (apply checked it), so of its kind
        if d.kind == "loss":
            assert isinstance(action, ChooseLoss)
            self._apply_loss(action.unit, bool(self.flags.pop("loss_eliminates", False)))
        elif d.kind == "retreat":
            assert isinstance(action, Retreat)
            c.retreat_queue.pop(0)
            self._apply_retreat(action)
        elif d.kind in ("emp_defender", "emp_attacker"):
            assert isinstance(action, EmpEliminate)
            self._apply_emp(action, "defender" if d.kind == "emp_defender" else "attacker")
        elif d.kind == "advance":
            if isinstance(action, EndAdvance):
                c.steps = [s for s in c.steps if s[0] != "advance"]
            else:
                assert isinstance(action, Advance)
                self._apply_advance(action)
        self._run_combat()

    def _finish_combat(self) -> None:
        c = self.combat
        self.combat = None
        self.flags.pop("retreat_forced", None)
        if c is not None and c.kind == "attack":
            # Landing units whose hex was cleared come ashore (CN 11.1.1).
            for uid in c.attackers:
                us = self.units[uid]
                if us.status == "at_sea" and not any(self.side_of(u) != c.side for u in self.units_at(us.at)):
                    self._land(uid)


def _decision(kind: str, side: str, rule: str, options: tuple, uid: str | None = None,
              prompt_id: str = "", **args: Any) -> Decision:
    """A pending decision with its prompt in English (``decisions`` catalogue of
    ``wargame.event_text``) and the prompt's id and values, to say it in another language."""
    key = prompt_id or kind
    return Decision(kind, side, DECISIONS.english[key].format(**args), rule, options, uid,
                    prompt_id=key, args=tuple(sorted(args.items())))
