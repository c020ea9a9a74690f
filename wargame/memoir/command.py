"""Playing command cards and the tactic cards' own effects.

Rules: M44 p.5 Play a Command Card, Appendix 4 Command Cards (section cards, Infantry
Assault, Armor Assault, Artillery Bombard, Behind Enemy Lines, Close Assault, Counter-Attack,
Dig-In, Direct from HQ, Firefight, Move Out!, Recon, Their Finest Hour, Ambush, Medics &
Mechanics, Air Power, Barrage), scenario uses of Recon as Air Power or Barrage.
"""

from __future__ import annotations

from dataclasses import replace

from wargame.errors import CardRefused, WrongPhase, refuse
from wargame.hexgrid import Hex

from .actions import R_CARD, R_CARDS, Action, Event, _m44
from .board import ALLIES, SECTIONS, other_side, player_section
from .cards import card
from .context import PlayedCard, Slot, Strike, TurnContext
from .dice import FACES, STAR, UNIT_SYMBOL, count_hits
from .position import StateBase

__all__ = ["CommandMixin"]


class CommandMixin(StateBase):
    """The card phase and the phases of Medics & Mechanics, Air Power and Barrage."""

    # ------------------------------------------------------------------ card phase
    def playable_cards(self) -> list[Action]:
        side = self.active
        hand = self.hands[side]
        out = []
        for cid in hand:
            c = card(cid)
            if c.name == "ambush":
                continue
            if c.name == "counter_attack":
                last = self.last_played[other_side(side)]
                if not last or last.effect == "ambush":
                    continue
            if c.name == "infantry_assault":
                for sec in SECTIONS:
                    out.append(_play(cid, sec))
                continue
            out.append(_play(cid, None))
            if c.name == "recon":
                if self._recon_air_power_ok(side):
                    out.append(_play(cid, "air_power"))
                if self.scenario.opt("recon_as_barrage"):
                    out.append(_play(cid, "barrage"))
        if not out:
            # Only an Ambush in hand: it may be discarded as a turn with no orders.
            out = [Action("play", card=cid) for cid in hand]
        return out

    def _recon_air_power_ok(self, side: str) -> bool:
        rap = self.scenario.opt("recon_as_air_power")
        if not rap or rap["side"] != side:
            return False
        return any((u := self.unit_at(h)) is not None and u.side == side for h in rap["hexes"])

    def _do_card(self, a: Action) -> list[Event]:
        if a.kind != "play":
            raise refuse(WrongPhase, "memoir.phase.card", R_CARD, memoir_action=a.kind)
        if a.card not in self.hands[self.active]:
            raise refuse(CardRefused, "memoir.card.not_in_hand", R_CARD, card=a.card,
                         side=self.active)
        if a not in self.playable_cards():
            raise refuse(CardRefused, "memoir.card.not_that_way", R_CARDS, title=card(a.card).title)
        c = card(a.card)
        self.hands[self.active].remove(a.card)
        self.ctx = ctx = TurnContext(card=a.card)
        note = f" ({a.option})" if a.option else ""
        ev = [Event("card_played", {"side": self.active, "card": c.title, "note": note,
                                    "option": a.option})]
        if c.name == "counter_attack":
            last = self.last_played[other_side(self.active)]
            assert last is not None  # playable_cards checked it
            effect, option = last.effect, last.option
            if effect == "recon" and option:
                # Counter-Attack copies the printed card, not a scenario's alternative use.
                option = None
                last = replace(last, option=None)
            ctx.counter = True
            spec = last
        else:
            effect, option = c.name, a.option
            if c.is_section:
                # Section names on the card are the player's; store the board's.
                spec = PlayedCard(effect, option, a.card, slots=tuple(
                    Slot(count=n, sections=(_board_section(s, self.active),))
                    for s, n in c.per_section))
            elif effect == "infantry_assault":
                spec = PlayedCard(effect, option, a.card,
                                  infantry_section=_board_section(option, self.active))
            else:
                spec = PlayedCard(effect, option, a.card)
        self.last_played[self.active] = spec
        ctx.effect = effect
        if option in ("air_power", "barrage") and effect == "recon":
            # Mortain Hill 317 / Overlord: Recon played as Air Power or Barrage.
            ctx.recon_alt = option
            effect = option
            ctx.effect = option
            if option == "air_power":
                ctx.air_section = spec.slots[0].sections[0]
        ev += self._start_effect(effect, spec)
        return ev

    def _start_effect(self, effect: str, spec: PlayedCard) -> list[Event]:
        side = self.active
        ctx = self.ctx
        ev: list[Event] = []
        if effect == "ambush":
            ctx.end_turn = True
            return ev
        if effect == "air_power":
            self.phase = "air"
            ctx.air_targets = []
            return ev
        if effect == "barrage":
            self.phase = "barrage"
            return ev
        if effect == "medics_mechanics":
            self.phase = "medics"
            return ev
        slots: tuple[Slot, ...]
        if spec.slots is not None and effect not in _TACTIC_SLOTS:
            slots = spec.slots
        elif effect == "infantry_assault":
            assert spec.infantry_section is not None
            slots = (Slot(kinds=("inf",), count=None, sections=(spec.infantry_section,)),)
        elif effect == "finest_hour":
            n = len(self.hands[side]) + 1  # cards in hand including this one
            faces = [FACES[self.dice.d6()] for _ in range(n)]
            ev.append(Event("finest_hour", {"faces": ", ".join(faces)}))
            found: list[Slot] = []
            n_inf = faces.count("infantry")
            n_tank = faces.count("armor")
            n_star = faces.count(STAR)
            if n_inf:
                found.append(Slot(kinds=("inf",), count=n_inf))
            if n_tank:
                found.append(Slot(kinds=("tank",), count=n_tank))
            if n_star:
                found.append(Slot(count=n_star))
            slots = tuple(found)
            ctx.bonus_all = 1
        else:
            slots = _TACTIC_SLOTS[effect]
        if effect in ("armor_assault",):
            ctx.bonus_close = 1
        if effect in ("close_assault", "firefight", "behind_enemy_lines"):
            ctx.bonus_all = 1
        ctx.slots = slots
        # "If you do not command any unit of that type, issue an order to 1 unit of your choice."
        # M44 Appendix 4 Infantry Assault: "Se não comandas nenhuma unidade de [infantaria]" --
        # no infantry at all; infantry elsewhere leaves the chosen section's order empty.
        if effect == "infantry_assault":
            fallback = not any(u.kind == "inf" for u in self.live_units(side))
        else:
            fallback = effect in _FALLBACK_ONE and not any(self._fits_any_slot(u, slots)
                                                           for u in self.live_units(side))
        if fallback:
            # M44 Appendix 4: the fallback is a plain order, without the card's own abilities
            # (no Dig-In sandbags, Armor Assault die, Behind Enemy Lines moves ...).
            ctx.slots = (Slot(count=1),)
            ctx.effect = "fallback"
            ctx.bonus_close = 0
            ctx.bonus_all = 0
        self.phase = "order"
        return ev

    # ------------------------------------------------------------------ tactic phases
    def _do_medics(self, a: Action) -> list[Event]:
        side = self.active
        damaged = [u for u in self.live_units(side) if u.figures < u.max_figures]
        if a.kind == "end_orders" and not damaged:
            self.ctx.end_turn = True
            return []
        if a.kind != "medics":
            raise refuse(WrongPhase, "memoir.medics.choose", "M44 Medics & Mechanics")
        u = self.units.get(a.unit)
        if u is None or u not in damaged:
            raise refuse(CardRefused, "memoir.medics.not_damaged", "M44 Medics & Mechanics",
                         unit=a.unit)
        n = len(self.hands[side]) + 1  # cards in hand including this card
        faces = [FACES[self.dice.d6()] for _ in range(n)]
        sym = UNIT_SYMBOL[u.kind]
        restored = sum(1 for f in faces if f == STAR or (sym is not None and f == sym))
        restored = min(restored, u.max_figures - u.figures)
        self.set_figures(u, u.figures + restored)
        ev = [Event("medics", {"unit": u.id, "faces": ", ".join(faces), "restored": restored})]
        if restored:
            self.ctx.slots = (Slot(count=1),)
            self.ctx.ordered = [u.id]
            ev += self._start_moves()
        else:
            self.ctx.end_turn = True
        return ev

    def _air_group_ok(self, hexes: list[Hex]) -> bool:
        if len(hexes) > 4 or len(set(hexes)) != len(hexes):
            return False
        seen = {hexes[0]}
        todo = [hexes[0]]
        while todo:
            cur = todo.pop()
            for n in cur.neighbours():
                if n in hexes and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(hexes)

    def air_target_options(self) -> list[Hex]:
        chosen = list(self.ctx.air_targets)
        if len(chosen) >= 4:
            return []
        section = self.ctx.air_section
        out = []
        for e in self.live_units(other_side(self.active)):
            if e.hex in chosen:
                continue
            if section and section not in self.board.board_sections(e.hex):
                continue
            if self._air_group_ok(chosen + [e.hex]):
                out.append(e.hex)
        return out

    def _do_air(self, a: Action) -> list[Event]:
        """Air Power: up to 4 adjacent enemy units; 2 dice a hex (Allies) or 1 (Axis)."""
        if a.kind == "air_target":
            if a.hex not in self.air_target_options():
                raise refuse(CardRefused, "memoir.air.targets", "M44 Air Power")
            self.ctx.air_targets.append(a.hex)
            return []
        if a.kind == "air_strike":
            if not self.ctx.air_targets and self.air_target_options():
                raise refuse(CardRefused, "memoir.air.at_least_one", "M44 Air Power")
            per = 2 if self.active == ALLIES else 1
            for h in self.ctx.air_targets:
                self.ctx.queue.append(Strike(h, per, stars=True, symbols=True))
            self.ctx.end_turn = True
            return []
        raise refuse(WrongPhase, "memoir.air.phase", "M44 Air Power")

    def _do_barrage_phase(self, a: Action) -> list[Event]:
        if a.kind == "barrage":
            u = self.unit_at(a.hex) if a.hex is not None else None
            if u is None or u.side == self.active:
                raise refuse(CardRefused, "memoir.barrage.target", "M44 Barrage")
            self.ctx.queue.append(Strike(a.hex, 4, stars=False, symbols=True))
            self.ctx.end_turn = True
            return []
        if a.kind == "end_orders" and not self.live_units(other_side(self.active)):
            self.ctx.end_turn = True
            return []
        raise refuse(WrongPhase, "memoir.barrage.phase", "M44 Barrage")

    def _resolve_queued(self, item: Strike) -> list[Event]:
        target = self.unit_at(item.hex)
        if target is None or target.side == self.active:
            return []
        faces = [FACES[self.dice.d6()] for _ in range(item.dice)]
        ev = [Event("battle", {"unit": "card", "target": _m44(target.hex), "distance": 0,
                               "dice": item.dice, "faces": ", ".join(faces)})]
        hits = count_hits(faces, target.kind, stars_hit=item.stars)
        flags = faces.count("flag")
        # Air Power / Barrage: terrain ignored, flags may not be ignored.
        ev += self._hits_and_flags(target, hits, flags, ignorable=False, then=None,
                                   scorer=self.active)
        return ev


# Tactic cards that order units: their slots (kinds, count -- None = all -- and filter).
_TACTIC_SLOTS: dict[str, tuple[Slot, ...]] = {
    "armor_assault": (Slot(kinds=("tank",), count=4),),
    "artillery_bombard": (Slot(kinds=("gun",), count=None),),
    "behind_enemy_lines": (Slot(kinds=("inf",), count=1),),
    "close_assault": (Slot(kinds=("inf", "tank"), count=None, filter="adjacent"),),
    "dig_in": (Slot(kinds=("inf",), count=4),),
    "direct_from_hq": (Slot(count=4),),
    "firefight": (Slot(count=4, filter="not_adjacent"),),
    "move_out": (Slot(kinds=("inf",), count=4),),
}
_FALLBACK_ONE = {"armor_assault", "artillery_bombard", "behind_enemy_lines", "dig_in",
                 "move_out", "infantry_assault"}


def _board_section(section: str, side: str) -> str:
    return player_section(section, side)


_PLAYS: dict[tuple[int, str | None], Action] = {}


def _play(cid: int, option: str | None) -> Action:
    """Action("play", card=cid, option=option), made once (actions are values; speed only)."""
    a = _PLAYS.get((cid, option))
    if a is None:
        a = _PLAYS[(cid, option)] = Action("play", card=cid, option=option)
    return a
