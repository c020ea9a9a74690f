"""After a battle: retreat, take ground, and the Ambush answer.

Rules: M44 p.12 Retreat (toward the own edge, a figure for each step that cannot be made;
French Resistance 1 to 3 hexes a flag), p.13 Take Ground, p.13 Armor Overrun, Appendix 4
Ambush (the defender battles first).
"""

from __future__ import annotations

from wargame.hexgrid import Hex

from . import rules
from .actions import Action, Event, Unit, _m44
from .board import other_side
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

        The result is a pure function of the unit's kind, side and hex, the steps and the
        units on the hexes those steps could reach (each step one row nearer the own edge):
        it is kept in a table shared by every game of the scenario (speed only).
        """
        max_steps = 3 * flags if u.special == "resistance" else flags
        st = rules.static_of(self.scenario)
        i = st.index.get(u.hex)
        if i is None:
            return self._retreat_search(u, flags, max_steps)
        zone = st.retreat_zone.get((u.side, max_steps, i))
        if zone is None:
            zone = st.retreat_zone[(u.side, max_steps, i)] = self._retreat_zone(
                st, u.hex, u.side, max_steps)
        key = (u.kind, u.side, i, flags, max_steps, zone & self._occupied_ix())
        memo = st.retreat_memo
        hit = memo.get(key)
        if hit is None:
            if len(memo) > 50_000:
                memo.clear()
            hit = memo[key] = self._retreat_search(u, flags, max_steps)
        return list(hit[0]), hit[1]

    def _retreat_zone(self, st: rules._Static, h: Hex, side: str, steps: int
                      ) -> frozenset[int]:
        """The board's hexes (index numbers) within ``steps`` retreat steps of ``h``."""
        zone: set[int] = set()
        frontier = {h}
        for _ in range(steps):
            frontier = {n for x in frontier for n in self.board.retreat_steps(x, side)
                        if n in st.index}
            zone |= {st.index[n] for n in frontier}
        return frozenset(zone)

    def _retreat_search(self, u: Unit, flags: int, max_steps: int) -> tuple[list[Hex], int]:
        """``retreat_options`` searched on the board."""
        t = self._terrain(ignore=u)
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
        """Ambush: the defender battles first; "Se a unidade oponente não for eliminada ou
        forçada a retirar-se, pode então atacar normalmente"."""
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
        flags = 0
        if n > 0:
            faces = [FACES[self.dice.d6()] for _ in range(n)]
            ev.append(Event("battle", {"unit": target.id, "target": _m44(attacker.hex),
                                       "distance": 1, "dice": n, "faces": ", ".join(faces)}))
            hits = count_hits(faces, attacker.kind)
            flags = faces.count("flag")
            if hits:
                ev += self._lose(attacker, hits, defender)
            if attacker.alive and flags and rules.ignorable_flags(t, attacker.hex,
                                                                  attacker.side):
                self.pending.append(PendingDecision(
                    "ignore_flag", attacker.side, unit=attacker.id, flags=flags,
                    attacker=attacker.id, target=target.id))
                return ev
        return ev + self._after_ambush(attacker, target, flags)

    def _after_ambush(self, attacker: Unit, target: Unit, flags: int) -> list[Event]:
        """The ambushed unit's flags, then its close assault if it is still there. A unit
        whose retreat was blocked (figures lost instead, M44 p.12) was not moved back: if it
        survives it attacks (issue 17 item 18, recorded choice)."""
        here = attacker.hex
        ev: list[Event] = []
        if attacker.alive and flags > 0:
            ev += self._resolve_flags(attacker, flags, None, target.side)
        retreating = bool(self.pending) and self.pending[-1].kind == "retreat" \
            and self.pending[-1].unit == attacker.id
        if not attacker.alive or attacker.hex != here or retreating:
            ev.append(Event("attack_cancelled", {"unit": attacker.id}))
            return ev
        return ev + self._attack(attacker, target)

    def _answer_ignore_flag(self, p: PendingDecision, a: Action) -> list[Event]:
        """The owner's answer to ``ignore_flag``: ignore the first flag or not."""
        assert p.unit is not None
        u = self.units[p.unit]
        flags = p.flags
        ev: list[Event] = []
        if a.kind == "ignore_flag":
            why = rules.ignorable_flags(self._terrain(), u.hex, u.side)
            flags -= 1
            ev.append(Event("flags_ignored", {"unit": u.id, "why": why[0] if why else "-"}))
        if p.attacker is not None and p.target is not None:
            return ev + self._after_ambush(self.units[p.attacker], self.units[p.target], flags)
        return ev + self._resolve_flags(u, flags, p.then, other_side(u.side))
