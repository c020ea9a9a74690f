"""The easy Memoir '44 player's choices, computed faster, to drive look-ahead play-outs.

``FastEasy.step(state)`` applies to ``state`` the action(s) ``memoir_easy.decide`` would
choose, with the same result, but with less work:

- at a card play (M44 p.5), the units' order potentials (``EasyBrain.order_potential``) are
  computed once per kind of card effect rather than once per card: the plain section cards
  (Probe, Attack, Assault, Recon, ...) move and battle alike, so they share them;
- the units easy would then order (M44 p.5 Issue Orders) are the ones its card valuation
  already ordered on its copy, so they are ordered at once instead of one decision at a time,
  each of which recomputed every unit's potential on a fresh copy.

A card whose play rolls dice (Their Finest Hour) falls back to easy's own decisions. Every
other decision is ``decide``'s. ``tests/bots/test_memoir_fast.py`` plays whole games both
ways and compares the action logs.
"""

from __future__ import annotations

from wargame.dice import Dice
from wargame.memoir.actions import NO_MOVE_CARDS, Action
from wargame.memoir.game import MemoirState

from .memoir_easy import EASY, EasyBrain, Weights, decide, order_units, support_card_value

__all__ = ["FastEasy", "card_value_and_orders", "fast_card_choice"]

# card effects that change how units move or battle (wargame/memoir/movement.py, battle.py,
# memoir_easy.EasyBrain): every other effect gives the same order potentials
_SPECIAL = {"infantry_assault", "behind_enemy_lines", "close_assault", "artillery_bombard",
            "dig_in"} | set(NO_MOVE_CARDS)
_END_ORDERS = Action("end_orders")


def _pots_key(st: MemoirState) -> tuple:
    ctx = st.ctx
    effect = ctx.effect if ctx.effect in _SPECIAL else "plain"
    return (effect, ctx.bonus_all, ctx.bonus_close, ctx.no_overrun)


def card_value_and_orders(state: MemoirState, a: Action, cache: dict, w: Weights = EASY
                          ) -> tuple[float, list[int] | None]:
    """``memoir_easy.card_value(state, a, w)[0]`` and the units it ordered (None: not an
    order card, or its play rolled dice)."""
    st = state.clone()
    st.dice = Dice(7919 + len(state.history))  # as card_value: never the game's own dice
    st.apply(a, validate=False)
    side = state.active
    if st.winner:
        return (100.0 if st.winner == side else -100.0), None
    brain = EasyBrain(st, w)
    if st.phase == "order":
        key = _pots_key(st)
        pots = cache.get(key)
        if pots is None:
            pots = cache[key] = {u.id: brain.order_potential(st, u)
                                 for u in st.live_units(st.active)}
        total, _, ordered = order_units(st, brain, pots)
        return total, (ordered if st.dice.draws == 0 else None)
    return support_card_value(st, side, brain)[0], None


def fast_card_choice(state: MemoirState, w: Weights = EASY
                     ) -> tuple[Action, list[int] | None, dict]:
    """Easy's card play in ``state`` (card phase, nothing pending), the units it would then
    order (None: let ``decide`` order them) and each card's value."""
    acts = state.legal_actions()
    if len(acts) == 1:
        return acts[0], None, {acts[0]: 0.0}
    cache: dict = {}
    best: tuple[float, Action, list[int] | None] | None = None
    values = {}
    for a in acts:
        v, ordered = card_value_and_orders(state, a, cache, w)
        values[a] = v
        if best is None or v > best[0]:
            best = (v, a, ordered)
    return best[1], best[2], values


class FastEasy:
    """Plays easy's choices on a state, a card play and its orders at once (scored with
    ``w``: easy's own weights by default)."""

    def __init__(self, w: Weights = EASY) -> None:
        self.w = w

    def step(self, st: MemoirState) -> None:
        """Apply easy's next action(s) to ``st`` (in place)."""
        if st.phase == "card" and not st.pending and not st.winner:
            a, ordered, _ = fast_card_choice(st, self.w)
            st.apply(a, validate=False)
            if ordered is None or st.phase != "order" or st.pending or st.winner:
                return
            for uid in ordered:
                st.apply(Action("order", unit=uid), validate=False)
            if st.phase == "order" and not st.pending and not st.winner:
                st.apply(_END_ORDERS, validate=False)
            return
        st.apply(decide(st, self.w)[0], validate=False)
