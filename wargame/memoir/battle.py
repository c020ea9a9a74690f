"""Battles: who may battle, how many dice, resolving hits and flags.

Rules: M44 p.9 Battle, p.10 Combat Range, p.11 Line of Sight, p.12 Resolving Combat (hits,
flags; terrain that lets a flag be ignored), p.13 Armor Overrun, p.17 Terrain (protection),
Wire, Ocean, Bunkers, Appendix 1 Special Forces and French Resistance, scenario rules
(Saverne Gap artillery sight, Arnhem wide river, elimination medals).
"""

from __future__ import annotations

from wargame.errors import CombatRefused, Reason, WrongPhase, battle_refusal, refuse
from wargame.hexgrid import Hex

from . import rules
from .actions import R_BATTLE, R_LOS, R_RANGE, Action, Event, Unit, _m44
from .board import other_side
from .cards import card
from .context import PendingDecision, TakeGroundOffer
from .dice import FACES, count_hits
from .position import StateBase

__all__ = ["BattleMixin"]

# Why a unit may not battle: catalogue keys (wargame.error_texts "why.*"), kept on the reason
# and on the refusal raised from it (issue #35); made once, they cost nothing on the bots' path
OCEAN = Reason("memoir.why.ocean")  # M44 Appendix 2 Ocean
NO_ORDER = Reason("memoir.why.no_order")  # M44 p.9 Battle: ordered units battle
ALREADY_BATTLED = Reason("memoir.why.already_battled")
GUN_MOVED = Reason("memoir.why.gun_moved")  # M44 p.6 Move: artillery moves 1 or battles
ENTERED_TERRAIN = Reason("memoir.why.entered_terrain")  # M44 p.17 Terrain
NOT_ENEMY = Reason("memoir.why.not_enemy")
ADJACENT_FIRST = Reason("memoir.why.adjacent_first")  # M44 p.9 Battle
NO_SIGHT = Reason("memoir.why.no_sight")  # M44 p.11 Line of Sight
NO_SIGHT_SAVERNE = Reason("memoir.why.no_sight_saverne")  # Saverne Gap scenario rule
RHINE = Reason("memoir.why.rhine")  # Arnhem scenario rule
CLOSE_ASSAULT = Reason("memoir.why.close_assault")  # M44 Appendix 4 Close Assault
NO_DICE = Reason("memoir.why.no_dice")  # M44 p.17 Terrain: protection
# the rule a refused battle cites, by reason (M44 p.9 Battle for the others)
RULE_OF = {"memoir.why.no_sight": R_LOS, "memoir.why.no_sight_saverne": R_LOS,
           "memoir.why.out_of_range": R_RANGE}


class BattleMixin(StateBase):
    """The battle phase."""

    # ------------------------------------------------------------------ battle
    def _adjacent_enemies(self, u: Unit) -> list[Unit]:
        occ = self.occupancy()
        out = []
        side = u.side
        for n in u.hex.neighbours():
            e = occ.get(n)
            if e is not None and e.side != side:
                out.append(e)
        return out

    def ground_refusal(self, u: Unit) -> str:
        """Why the ground ``u`` stands on forbids it any battle, ordered or in answer to a
        close assault (Ambush), or "": M44 Appendix 2 Ocean, "Uma unidade que esteja num hexágono
        com o Oceano, não pode combater"."""
        if self.board.terrain(u.hex) == "ocean":
            return OCEAN
        return ""

    def can_battle(self, u: Unit) -> tuple[bool, str]:
        ctx = self.ctx
        if u.id not in ctx.ordered or not u.alive:
            return False, NO_ORDER
        if ctx.battles.get(u.id, 0) <= 0:
            return False, ALREADY_BATTLED
        ground = self.ground_refusal(u)
        if ground:
            return False, ground
        moved = ctx.moved.get(u.id, 0)
        effect = ctx.effect
        if u.kind == "inf":
            limit = 1
            if u.special == "special":
                limit = 2  # M44 Appendix 1 Special Forces: move 2 and battle
            if effect == "infantry_assault":
                limit = 2
            if effect == "behind_enemy_lines":
                limit = 3
            if moved > limit:
                return False, Reason("memoir.why.infantry_moved", moved=moved)
        if u.kind == "gun" and moved > 0:
            return False, GUN_MOVED
        if u.id in ctx.entered and u.special != "resistance":
            return False, ENTERED_TERRAIN
        return True, ""

    def battle_dice(self, u: Unit, target: Unit, check_order: bool = True) -> tuple[int, str]:
        """Number of dice (0 if the battle is impossible) and the reason."""
        if check_order:
            ok, why = self.can_battle(u)
            if not ok:
                return 0, why
        return self._battle_dice(u, target, bool(self._adjacent_enemies(u)), self._terrain())

    def _battle_dice(self, u: Unit, target: Unit, adjacent: bool,
                     t: rules.Terrainish) -> tuple[int, str]:
        """``battle_dice`` after the order check, given whether ``u`` is next to an enemy and
        the position's terrain (``battle_targets`` computes them once for every target)."""
        if target.side == u.side:
            return 0, NOT_ENEMY
        dist = u.hex.distance(target.hex)
        base = rules.base_dice(u.kind, dist)
        if base == 0:
            return 0, Reason("memoir.why.out_of_range", distance=dist)
        if adjacent and dist > 1:
            return 0, ADJACENT_FIRST
        if u.kind != "gun":
            if not rules.has_line_of_sight(t, u.hex, target.hex):
                return 0, NO_SIGHT
        elif self.scenario.opt("artillery_blocked_by"):
            only = frozenset(self.scenario.opt("artillery_blocked_by"))
            if not rules.has_line_of_sight(t, u.hex, target.hex, only=only):
                return 0, NO_SIGHT_SAVERNE
        if u.kind == "inf" and rules.across_wide_river(t, u.hex, target.hex):
            return 0, RHINE
        ctx = self.ctx
        bonus = ctx.bonus_all
        # M44 Appendix 4 Close Assault: the extra die and the adjacent target are the close
        # assault's; the armour overrun after it is a battle of M44 p.13 Armor Overrun (no extra
        # die; at a distant unit when the ground taken is next to no enemy).
        overrun_battle = ctx.effect == "close_assault" and u.id in ctx.overrun
        if overrun_battle:
            bonus = 0
        if dist == 1:
            bonus += ctx.bonus_close if u.kind == "tank" else 0
        if ctx.effect == "close_assault" and dist != 1 and not overrun_battle:
            return 0, CLOSE_ASSAULT
        prot = rules.protection(t, target.hex, target.side, u.kind, u.hex)
        n = base + bonus - prot - rules.attacker_penalty(t, u.kind, u.hex)
        if n <= 0:
            return 0, NO_DICE
        return n, ""

    def battle_targets(self, uid: int) -> list[Hex]:
        u = self.units[uid]
        if not u.alive or not self.can_battle(u)[0]:
            return []
        ctx = self.ctx
        # cached while nothing that battle_dice reads can have changed (speed only)
        key = (uid, self._positions, self.turn, ctx.effect, len(self.wire),
               len(self.sandbags), ctx.bonus_all, ctx.bonus_close)
        cache = self.__dict__.get("_targets")
        if cache is None or len(cache) > 64:
            cache = self.__dict__["_targets"] = {}
        if key in cache:
            return list(cache[key])
        reach = len(rules.RANGE[u.kind]) - 1
        adjacent, t = bool(self._adjacent_enemies(u)), self._terrain()
        here = u.hex
        self.occupancy()
        out = [e.hex for e in self._occ[4][other_side(u.side)]
               if here.distance(e.hex) <= reach
               and self._battle_dice(u, e, adjacent, t)[0] > 0]
        cache[key] = out
        return list(out)

    def _overrun_focus(self) -> int | None:
        """The armour unit whose overrun battle must come next (M44 p.13 Armor Overrun: all
        its battles are completed before the next unit battles), if it still can battle."""
        uid = self.ctx.overrun_now
        if uid is None:
            return None
        u = self.units[uid]
        if not u.alive or self.ctx.battles.get(uid, 0) <= 0:
            return None
        return uid if self.battle_targets(uid) else None

    def _do_battle(self, a: Action) -> list[Event]:
        if a.kind == "end_battles":
            self.ctx.end_turn = True
            return []
        focus = self._overrun_focus()
        if focus is not None:
            if a.kind == "skip_overrun" and a.unit == focus:
                self.ctx.overrun_now = None
                self.ctx.battles[focus] = 0
                return []
            if a.kind != "battle" or a.unit != focus:
                raise refuse(CombatRefused, "memoir.battle.overrun_first", "M44 p.13 Armor Overrun",
                             unit=focus)
            self.ctx.overrun_now = None
        if a.kind == "move":
            return self._move_unit(a)
        if a.kind == "remove_wire":
            u = self.units.get(a.unit)
            if u is None or u.kind != "inf" or u.hex not in self.wire:
                raise refuse(CombatRefused, "memoir.wire.infantry_only", "M44 Wire")
            ok, why = self.can_battle(u)
            if not ok:
                raise battle_refusal(why, "M44 Wire")
            self.wire.discard(u.hex)
            self.ctx.battles[u.id] -= 1
            self.ctx.battled.append(u.id)
            return [Event("wire_removed", {"hex": _m44(u.hex)})]
        if a.kind != "battle":
            raise refuse(WrongPhase, "memoir.phase.battle", R_BATTLE, memoir_action=a.kind)
        u = self.units.get(a.unit)
        if u is None or not u.alive or u.side != self.active:
            raise refuse(CombatRefused, "memoir.battle.no_unit", R_BATTLE, unit=a.unit,
                         side=self.active)
        target = self.unit_at(a.hex) if a.hex is not None else None
        if target is None:
            raise refuse(CombatRefused, "memoir.battle.no_target", R_BATTLE, hex=_m44(a.hex))
        n, why = self.battle_dice(u, target)
        if n <= 0:
            rule = RULE_OF.get(getattr(why, "key", ""), R_BATTLE)
            raise battle_refusal(why, rule)
        ev: list[Event] = []
        if u.kind == "tank" and u.hex in self.wire:
            self.wire.discard(u.hex)  # M44 Wire: armour removes the wire and may still battle
            ev.append(Event("wire_removed", {"hex": _m44(u.hex)}))
        self.ctx.battles[u.id] -= 1
        self.ctx.battled.append(u.id)
        dist = u.hex.distance(target.hex)
        if dist == 1:
            defender = target.side
            amb = [cid for cid in self.hands[defender] if card(cid).name == "ambush"]
            # M44 Appendix 4 Ambush: the defender battles first -- not from the ocean, where
            # a unit "não pode combater" (M44 Appendix 2 Ocean)
            if amb and self.ctx.ambush_by is None and not self.ground_refusal(target):
                self.pending.append(PendingDecision("ambush", defender, attacker=u.id,
                                                    target=target.id, card=amb[0]))
                return ev
        ev += self._attack(u, target)
        return ev

    def _attack(self, u: Unit, target: Unit) -> list[Event]:
        """Roll and resolve one battle (M44 p.12 Resolving Combat)."""
        n, why = self.battle_dice(u, target, check_order=False)
        if n <= 0:
            # The position changed (an ambush); nothing to roll.
            return [Event("attack_cancelled", {"unit": u.id})]
        dist = u.hex.distance(target.hex)
        faces = [FACES[self.dice.d6()] for _ in range(n)]
        ev = [Event("battle", {"unit": u.id, "target": _m44(target.hex), "distance": dist,
                               "dice": n, "faces": ", ".join(faces)})]
        hits = count_hits(faces, target.kind)
        flags = faces.count("flag")
        then = None
        if dist == 1 and u.kind in ("inf", "tank"):
            then = TakeGroundOffer(u.id, target.hex)
        ev += self._hits_and_flags(target, hits, flags, ignorable=True, then=then,
                                   scorer=u.side)
        return ev

    def _hits_and_flags(self, target: Unit, hits: int, flags: int, ignorable: bool,
                        then: TakeGroundOffer | None, scorer: str) -> list[Event]:
        ev: list[Event] = []
        if hits:
            ev += self._lose(target, hits, scorer)
        if not target.alive:
            if then:
                ev += self._offer_take_ground(then)
            return ev
        if flags and ignorable and rules.ignorable_flags(self._terrain(), target.hex,
                                                         target.side):
            # M44 Sandbags, Bunkers, Hedgehogs: the unit "pode ignorar a primeira bandeira" --
            # may: the owner decides (pending decision ``ignore_flag``).
            self.pending.append(PendingDecision("ignore_flag", target.side, unit=target.id,
                                                flags=flags, then=then))
            return ev
        return ev + self._resolve_flags(target, flags, then, scorer)

    def _resolve_flags(self, target: Unit, flags: int, then: TakeGroundOffer | None,
                       scorer: str) -> list[Event]:
        """The flags left after the first one was ignored or not: retreat (M44 p.12)."""
        if flags <= 0:
            return []
        if target.kind == "gun" and self._terrain().bunker_counts_for(target.hex, target.side):
            # M44 Bunkers: artillery in a bunker loses a figure per flag instead of retreating.
            return self._lose(target, flags, scorer)
        return self._retreat(target, flags, then, scorer)

    def _lose(self, u: Unit, n: int, scorer: str) -> list[Event]:
        n = min(n, u.figures)  # M44 Hits: extra hits are lost
        self.set_figures(u, u.figures - n)
        ev = [Event("hits", {"unit": u.id, "hits": n, "left": u.figures})]
        if u.figures <= 0:
            ev += self._leave_hex(u)
            self.place(u, None)
            per = (self.scenario.opt("elimination_medals") or {}).get(u.side, {})
            medals = int(per.get(u.kind, 1))
            self.medal_units[scorer].append([u.id, medals])
            ev.append(Event("eliminated", {"unit": u.id, "side": scorer, "medals": medals}))
        return ev
