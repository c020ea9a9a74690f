"""Decisions that interrupt a turn, owned by one side.

Rules: M44 p.12 Retreat (the retreating side picks the hex), p.13 Take Ground (the attacker
may advance), Appendix 4 Ambush (the defender may answer a close assault), Recon (keep one
of the two cards drawn), Sainte-Mere-Eglise special rules (the Allied player picks the drop
point of the airdrop).
"""

from __future__ import annotations

from wargame.errors import DecisionRefused, refuse
from wargame.event_text import DECISIONS
from wargame.protocol import Decision

from .actions import R_RETREAT, R_TAKE, R_TURN, Action, Event
from .position import StateBase

__all__ = ["PendingMixin"]


class PendingMixin(StateBase):
    """Pending decisions: their options and answers."""

    @property
    def pending_decision(self) -> Decision | None:
        if not self.pending or self.winner:
            return None
        p = self.pending[-1]
        return Decision(p.kind, p.owner, _PENDING_PROMPT.get(p.kind, p.kind),
                        _PENDING_RULE.get(p.kind, R_TURN), tuple(self.legal_actions()), p.unit)

    # ------------------------------------------------------------------ pending decisions
    def pending_options(self) -> list[Action]:
        p = self.pending[-1]
        k = p.kind
        if k == "ambush":
            return [Action("ambush", card=p.card), Action("no_ambush")]
        if k == "retreat":
            return [Action("retreat", unit=p.unit, hex=h) for h in p.options]
        if k == "take_ground":
            return [Action("take_ground", unit=p.unit, hex=p.hex), Action("hold", unit=p.unit)]
        if k == "keep":
            return [Action("keep", card=c) for c in p.cards]
        if k == "airdrop":
            return [Action("airdrop", hex=h) for h in p.options]
        if k == "ignore_flag":
            return [Action("ignore_flag", unit=p.unit), Action("accept_flags", unit=p.unit)]
        return []

    def _answer_pending(self, a: Action) -> list[Event]:
        p = self.pending[-1]
        if a not in self.pending_options():
            raise refuse(DecisionRefused, "memoir.pending.answer", _PENDING_RULE[p.kind],
                         side=p.owner, decision=p.kind,
                         options=[str(x) for x in self.pending_options()])
        self.pending.pop()
        k = p.kind
        if k == "keep":
            assert a.card is not None
            self.hands[p.owner].append(a.card)
            other = [c for c in p.cards if c != a.card]
            self.discard += other
            self.ctx.finish_turn = True
            return [Event("keep", {"side": p.owner})]
        if k == "retreat":
            assert p.unit is not None and a.hex is not None
            u = self.units[p.unit]
            ev = self._do_retreat_to(u, a.hex)
            if p.then is not None:
                ev += self._offer_take_ground(p.then)
            return ev
        if k == "take_ground":
            assert p.unit is not None
            return self._take_ground(self.units[p.unit], a)
        if k == "ignore_flag":
            return self._answer_ignore_flag(p, a)
        if k == "airdrop":
            assert a.hex is not None
            return self._airdrop(self.scenario.opt("airdrop"), a.hex)
        if k == "ambush":
            assert p.attacker is not None and p.target is not None
            attacker = self.units[p.attacker]
            target = self.units[p.target]
            if a.kind == "no_ambush":
                return self._attack(attacker, target)
            return self._ambush(attacker, target, p)
        return []


# the prompts in English (catalogue ``decisions``, ids ``m44.<kind>``; in the viewer's language:
# wargame.event_text.memoir_prompt)
_PENDING_PROMPT = {k.removeprefix("m44."): v for k, v in DECISIONS.english.items()
                   if k.startswith("m44.")}

_PENDING_RULE = {
    "ambush": "M44 Ambush",
    "retreat": R_RETREAT,
    "take_ground": R_TAKE,
    "keep": "M44 Recon",
    "airdrop": "M44 Sainte-Mere-Eglise special rules",
    "ignore_flag": "M44 Sandbags",
}

