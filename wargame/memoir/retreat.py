"""After a battle: retreat, take ground, and the Ambush answer.

Rules: M44 p.12 Retreat (toward the own edge, a figure for each step that cannot be made;
French Resistance 1 to 3 hexes a flag), p.13 Take Ground, p.13 Armor Overrun, Appendix 4
Ambush (the defender battles first).
"""

from __future__ import annotations

from wargame.hexgrid import Hex

from . import rules
from .actions import Action, Event, Unit, _m44
from .context import PendingDecision, TakeGroundOffer
from .dice import FACES, count_hits
from .position import StateBase

__all__ = ["RetreatMixin"]


class RetreatMixin(StateBase):
    """Retreats, taking ground and ambushes."""

    def retreat_options(self, u: Unit, flags: int) -> tuple[list[Hex], int]:
        """Destinations of a retreat and the figures lost for steps that cannot be made.

        M44 p.12 Retreat: toward the own edge, one hex per flag, terrain ignored except
        impassable hexes, never onto or through a unit; a step that cannot be made costs a
        figure. French Resistance retreat 1 to 3 hexes per flag (Appendix 1).
        """
        t = self._terrain(ignore=u)
        max_steps = 3 * flags if u.special == "resistance" else flags
        best: dict[int, set[Hex]] = {0: {u.hex}}
        frontier = {u.hex}
        for step in range(1, max_steps + 1):
            nxt = set()
            for h in frontier:
                for n in self.board.retreat_steps(h, u.side):
                    if n in t.occupied or not rules.can_enter(t, u.kind, n, retreat=True):
                        continue
                    if not rules.step_allowed(t, h, n):
                        continue  # Arnhem: off the bridge only at its ends
                    nxt.add(n)
            if not nxt:
                break
            best[step] = nxt
            frontier = nxt
        reached = max(best)
        if reached < flags:
            return sorted(best[reached]), flags - reached
        dests: set[Hex] = set()
        for step in range(flags, reached + 1):
            dests |= best[step]
        return sorted(dests), 0

    def _retreat(self, u: Unit, flags: int, then: TakeGroundOffer | None,
                 scorer: str) -> list[Event]:
        dests, losses = self.retreat_options(u, flags)
        ev: list[Event] = []
        if losses:
            ev.append(Event("retreat_blocked", {"unit": u.id, "steps": losses}))
            ev += self._lose(u, losses, scorer)
            if not u.alive:
                if then:
                    ev += self._offer_take_ground(then)
                return ev
        if len(dests) == 1:
            ev += self._do_retreat_to(u, dests[0])
            if then:
                ev += self._offer_take_ground(then)
            return ev
        self.pending.append(PendingDecision("retreat", u.side, unit=u.id, options=tuple(dests),
                                            then=then))
        return ev

    def _do_retreat_to(self, u: Unit, h: Hex) -> list[Event]:
        if h == u.hex:
            return []
        frm = u.hex
        ev = self._leave_hex(u)
        self.place(u, h)
        ev.insert(0, Event("retreat", {"unit": u.id, "frm": _m44(frm), "to": _m44(h)}))
        return ev

    def _offer_take_ground(self, then: TakeGroundOffer) -> list[Event]:
        u = self.units[then.unit]
        h = then.from_hex
        if not u.alive or self.unit_at(h) is not None:
            return []
        ctx = self.ctx
        if u.id not in ctx.ordered:
            return []
        # M44 p.13 Take Ground: "As restrições causadas pelo terreno e pelo combate aplicam-se
        # quando as unidades ganham terreno":
        if u.id in ctx.stopped:
            return []  # woods, hedgerows, villages, wire entered this turn: no further move
        t = self._terrain(ignore=u)
        if not rules.can_enter(t, u.kind, h) or rules.step_cost(t, u.kind, u.hex, h) is None:
            return []  # impassable; Omaha/Overlord: armour not up the bluff; Arnhem bridge ends
        if self.board.terrain(h) == "hedgerow" and (ctx.moved.get(u.id) or u.id in ctx.overrun):
            return []  # M44 Hedgerows: entered only by a unit that starts its move adjacent
        self.pending.append(PendingDecision("take_ground", u.side, unit=u.id, hex=h))
        return []

    def _take_ground(self, u: Unit, a: Action) -> list[Event]:
        if a.kind == "hold":
            return []
        frm = u.hex
        ev = self._leave_hex(u)
        self.place(u, a.hex)
        ev.insert(0, Event("take_ground", {"unit": u.id, "to": _m44(a.hex), "frm": _m44(frm)}))
        ctx = self.ctx
        if self.board.terrain(a.hex) in rules.NO_BATTLE_TERRAIN and u.special != "resistance":
            ctx.entered.append(u.id)
        if self.board.terrain(a.hex) in rules.STOP_TERRAIN or a.hex in self.wire:
            ctx.stopped.append(u.id)  # M44 Terrain, Wire: may move no further this turn
        if (u.kind == "tank" and u.id not in ctx.overrun
                and not ctx.no_overrun
                and self.board.terrain(a.hex) not in rules.NO_BATTLE_TERRAIN):
            # M44 p.13 Armor Overrun: one more battle, once per turn.
            ctx.overrun.append(u.id)
            ctx.battles[u.id] = ctx.battles.get(u.id, 0) + 1
            ctx.overrun_now = u.id  # to be fought (or given up) before anyone else battles
            ev.append(Event("overrun", {"unit": u.id}))
        return ev

    def _ambush(self, attacker: Unit, target: Unit, p: PendingDecision) -> list[Event]:
        """Ambush: the defender battles first; the attack goes on only if the attacker
        neither dies nor retreats."""
        defender = target.side
        assert p.card is not None
        self.hands[defender].remove(p.card)
        self.ctx.discard_after.append(p.card)
        self.ctx.ambush_by = defender
        ev = [Event("ambush", {"side": defender, "unit": target.id})]
        t = self._terrain()
        n = rules.base_dice(target.kind, 1)
        n -= rules.protection(t, attacker.hex, attacker.side, target.kind, target.hex)
        n -= rules.attacker_penalty(t, target.kind, target.hex)
        figures_before = attacker.figures
        hex_before = attacker.hex
        if n > 0:
            faces = [FACES[self.dice.d6()] for _ in range(n)]
            ev.append(Event("battle", {"unit": target.id, "target": _m44(attacker.hex),
                                       "distance": 1, "dice": n, "faces": ", ".join(faces)}))
            hits = count_hits(faces, attacker.kind)
            flags = faces.count("flag")
            if hits:
                ev += self._lose(attacker, hits, defender)
            if attacker.alive and flags:
                why = rules.ignorable_flags(t, attacker.hex, attacker.side)
                if why:
                    flags -= 1
                    ev.append(Event("flags_ignored", {"unit": attacker.id, "why": why[0]}))
            if attacker.alive and flags:
                ev += self._retreat(attacker, flags, None, defender)
                ev.append(Event("attack_cancelled", {"unit": attacker.id}))
                return ev
        del figures_before, hex_before
        if not attacker.alive:
            ev.append(Event("attack_cancelled", {"unit": attacker.id}))
            return ev
        ev += self._attack(attacker, target)
        return ev
