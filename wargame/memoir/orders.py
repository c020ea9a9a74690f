"""Issuing orders: which units a card may order.

Rules: M44 p.6 Issue Orders (units in the card's sections, up to its count; tactic cards by
unit type or position), Appendix 4 Command Cards (the fallback order to 1 unit of your
choice), Dig-In (sandbags placed instead of moving).
"""

from __future__ import annotations

from wargame.errors import OrderRefused, WrongPhase, refuse

from . import rules
from .actions import NO_MOVE_CARDS, R_ORDER, Action, Event, Unit, _m44
from .context import Slot
from .position import StateBase

__all__ = ["OrdersMixin"]


class OrdersMixin(StateBase):
    """The order phase."""

    # ------------------------------------------------------------------ order phase
    def _fits_slot(self, u: Unit, slot: Slot) -> bool:
        if u.side != self.active or not u.alive:
            return False
        if slot.kinds is not None and u.kind not in slot.kinds:
            return False
        if slot.sections is not None:
            secs = rules.static_of(self.scenario).sections.get(u.hex)
            if secs is None:
                secs = self.board.board_sections(u.hex)
            if secs.isdisjoint(slot.sections):
                return False
        flt = slot.filter
        if flt == "adjacent" and not self._adjacent_enemies(u):
            return False
        if flt == "not_adjacent" and self._adjacent_enemies(u):
            return False
        return True

    def _fits_any_slot(self, u: Unit, slots: tuple[Slot, ...]) -> bool:
        return any(self._fits_slot(u, s) for s in slots)

    def _assignable(self, uids: list[int],
                    fits: dict[int, list[int]] | None = None) -> bool:
        """Can these units all be ordered by the card's slots? (small bipartite matching)

        ``fits`` caches unit id -> indices of the slots it fits (``_fits_table``)."""
        if fits is None:
            fits = self._fits_table()
        slots = self.ctx.slots
        caps = [s.count for s in slots]
        options = []
        for uid in uids:
            if fits is not None and uid in fits:
                opts = fits[uid]
            else:
                u = self.units[uid]
                opts = [i for i, s in enumerate(slots) if self._fits_slot(u, s)]
                if fits is not None:
                    fits[uid] = opts
            if not opts:
                return False
            options.append(opts)
        if len(slots) == 1:
            return caps[0] is None or len(uids) <= caps[0]
        # a pure function of the slots' caps and the units' options (speed only)
        key = (tuple(caps), tuple(sorted(tuple(o) for o in options)))
        known = _MATCHES.get(key)
        if known is None:
            if len(_MATCHES) > 20_000:
                _MATCHES.clear()
            known = _MATCHES[key] = _matching(caps, options)
        return known

    def _fits_table(self) -> dict[int, list[int]]:
        """unit id -> the indices of the card's slots it fits, cached: which slots a unit
        fits does not change during the order phase (nothing moves; speed only)."""
        key = (self.turn, self.active, self._positions, self.ctx.slots)
        cached = self.__dict__.get("_fits")
        if cached is None or cached[0] != key:
            cached = (key, {})
            self.__dict__["_fits"] = cached
        return cached[1]

    def _orderable(self) -> list[int]:
        ordered = self.ctx.ordered
        slots = self.ctx.slots
        fits = self._fits_table()
        if len(slots) == 1:  # one slot (most cards): room left, then the units that fit it
            cap = slots[0].count
            if cap is not None and len(ordered) >= cap:
                return []
            out = []
            for u in self.live_units(self.active):
                if u.id in ordered:
                    continue
                opts = fits.get(u.id)
                if opts is None:
                    opts = fits[u.id] = [0] if self._fits_slot(u, slots[0]) else []
                if opts:
                    out.append(u.id)
            return out
        return [u.id for u in self.live_units(self.active)
                if u.id not in ordered and self._assignable(ordered + [u.id], fits)]

    def _do_order(self, a: Action) -> list[Event]:
        if a.kind == "order":
            if a.unit not in self.units or not self.units[a.unit].alive:
                raise refuse(OrderRefused, "memoir.order.no_unit", R_ORDER, unit=a.unit)
            if a.unit in self.ctx.ordered:
                raise refuse(OrderRefused, "memoir.order.already", R_ORDER, unit=a.unit)
            if not self._assignable(self.ctx.ordered + [a.unit]):
                raise refuse(OrderRefused, "memoir.order.not_assignable", R_ORDER, unit=a.unit)
            self.ctx.ordered.append(a.unit)
            u = self.units[a.unit]
            return [Event("ordered", {"side": self.active, "unit": u.id, "kind": u.kind,
                                      "hex": _m44(u.hex)})]
        if a.kind == "end_orders":
            return self._start_moves()
        raise refuse(WrongPhase, "memoir.phase.order", R_ORDER, memoir_action=a.kind)

    def _start_moves(self) -> list[Event]:
        ctx = self.ctx
        ev = [Event("orders_done", {"side": self.active, "count": len(ctx.ordered)})]
        effect = ctx.effect
        for uid in ctx.ordered:
            u = self.units[uid]
            n = 1
            if effect == "artillery_bombard" and u.kind == "gun":
                n = 2  # Artillery Bombard: battle twice
            ctx.battles[uid] = n
        if effect == "dig_in":
            for uid in ctx.ordered:
                h = self.units[uid].hex
                # M44 Dig-In: a sandbag "no hexágono das unidades" -- none in the ocean (issue 17
                # item 18, recorded choice; BGA: the ocean blocks sandbags)
                if h not in self.sandbags and self.board.terrain(h) != "ocean":
                    self.sandbags.add(h)
                    ev.append(Event("sandbags_placed", {"hex": _m44(h)}))
            ctx.end_turn = True
            return ev
        if effect in NO_MOVE_CARDS:
            self.phase = "battle"
        else:
            self.phase = "move"
        return ev


# (slot caps, the units' slot options) -> can each unit have a slot (``_assignable``)
_MATCHES: dict[tuple, bool] = {}


def _matching(caps: list[int | None], options: list[list[int]]) -> bool:
    """A small bipartite matching: each unit one of its slots, within the slots' caps."""
    order = sorted(range(len(options)), key=lambda i: len(options[i]))
    used = [0] * len(caps)

    def place(k: int) -> bool:
        if k == len(order):
            return True
        for si in options[order[k]]:
            if caps[si] is None or used[si] < caps[si]:
                used[si] += 1
                if place(k + 1):
                    return True
                used[si] -= 1
        return False

    return place(0)
