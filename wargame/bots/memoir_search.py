"""A Memoir '44 opponent that plans under hidden information ("normal").

At each card play (M44 p.5 Play a Command Card, the decision that shapes a turn) the policy:

1. lists its candidate cards (the playable ones, one per distinct effect), keeps the ``width``
   best by the easy policy's value;
2. builds ``worlds`` determinisations of what it cannot see: the cards that are neither in its
   hand nor in the discard pile (the opponent's hand and the deck) are sorted, shuffled by a
   generator seeded from ``(seed, len(history))`` and dealt back -- so the opponent's hand and
   the deck order never influence it -- and each world gets dice of its own (never the
   game's future rolls);
3. plays each candidate in each world (the same worlds for every candidate: common random
   numbers) with the easy policy up to its ``horizon`` and scores the result with
   ``evaluate`` (medals, figures, ground, threats):
   - ``"battle"`` (default): to the start of its battles, which count at their exact expected
     value (``expected_battles``): no dice noise, the real orders and moves of the turn;
   - ``"turn"``: to the end of its turn, battles rolled with the world's dice;
   - ``"reply"``: its turn, then the opponent's orders and moves from its sampled hand, whose
     battles count at their exact expected value against us (slow: several seconds);
   - ``"rollout"``: policy-improvement rollouts (Tesauro & Galperin; Bertsekas): easy plays
     both sides for ``turns`` whole turns (2: ours with its battles rolled, then the
     opponent's with the card it chooses from its sampled hand, our next draw from the
     sampled deck), and the battles of the turn cut off count at their exact expected
     value. Easy's choices are computed by ``memoir_fast.FastEasy`` (the same actions, about
     three times faster), which affords about 24 play-outs per card play within a second;
4. plays the candidate of best mean score (ties: easy's value); with ``keep`` > 0 each mean
   gets ``keep`` x the value of the best card the play leaves in hand (off by default: it
   did not win more games, docs/bots.md).

Everything easy's heuristic scores here (its choices in the play-outs, its other decisions,
``evaluate``) uses normal's own weights, ``NORMAL_WEIGHTS`` (more pull toward the enemy than
easy's ``EASY``, and rules easy ignores: blocked retreats, armour's reach and overrun, one
battle per enemy unit), measured against easy in docs/bots.md. With ``clock`` (default) the
side that wins when the deck runs out scores with ``CLOCK_CAUTION`` x the threat and no pull.

The budget is a number of rollouts (``iterations``: deterministic), with ``max_seconds`` of
CPU time (not wall time: the machine may be shared) as a safety cap. Other decisions (orders,
moves, battles, pending decisions) are the easy policy's, with normal's weights. The policy
keeps no memory: its choice depends on the position and its seed.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

from wargame.dice import Dice
from wargame.memoir.actions import Action
from wargame.memoir.board import other_side
from wargame.memoir.cards import card
from wargame.memoir.dice import expected_hits
from wargame.memoir.game import MemoirState
from wargame.viewer import Viewer

from .memoir_easy import (
    EASY,
    EasyBrain,
    Weights,
    decide,
    unit_medals,
)
from .memoir_fast import FastEasy, card_value_and_orders

__all__ = ["MemoirSearchPolicy", "determinise", "evaluate", "NORMAL_WEIGHTS", "CLOCK_CAUTION"]

WIN = 50.0
# normal's own scoring, measured against easy (docs/bots.md "Normal's own weights", "Blocked
# retreats", "One battle per enemy"): more than twice easy's pull toward the enemy; a flag with
# no room to retreat counted as the figure it costs (M44 p.12); armour threatening from 3 hexes
# of movement (M44 p.8) and counting its overrun (M44 p.13); each enemy's threat shared among
# the units it could battle, since it battles once (M44 p.9 Battle), weighed 0.4 (its total over a
# position is then close to easy's unshared threats at 0.15)
NORMAL_WEIGHTS = Weights(threat=0.4, advance=0.04, retreat_room=True, threat_reach=True,
                         overrun=True, threat_share=True)
# the side that wins when the deck runs out (a scenario's ``deck_exhausted_winner``: Vassieux)
# needs no ground, only to lose no medals: it weighs the enemy's threats twice and feels no
# pull toward the enemy (docs/bots.md "Time on its side")
CLOCK_CAUTION = 2.0
HORIZONS = ("battle", "turn", "reply", "rollout")
CUTS = ("expected", "rolled")  # the last turn of a rollout: battles at their expected value


def determinise(state: MemoirState, side: str, rng: random.Random) -> MemoirState:
    """A world consistent with what ``side``'s player may know: ``state.resample`` for that
    player's viewer (the other hand and the deck dealt again at random from their sorted pool,
    fresh dice). Only the sizes of the other hand and of the deck are kept: the result does
    not depend on which unseen card is where, so the search never reads them."""
    return state.resample(Viewer.player(side), rng)


def evaluate(state: MemoirState, side: str, own_threat: float = 1.0,
             enemy_threat: float = 1.0, w: Weights = EASY) -> float:
    """The position for ``side`` in medals, on the easy policy's scale: victory, medals,
    figures on the board, and each unit's ground (objectives held, the battles the enemy could
    fight against it next turn, the distance to the nearest enemy); ``own_threat`` weighs the
    threat our units pose in return."""
    enemy = other_side(side)
    if state.winner:
        return WIN if state.winner == side else -WIN
    v = float(state.medals(side) - state.medals(enemy))
    brain = EasyBrain(state, w)
    for u in state.live_units(None):
        ground = (brain.objective_value(state, u.side, u.hex)
                  - w.advance * brain.nearest_enemy(state, u.side, u.hex))
        if u.side == side:
            v += w.kill_figure * u.figures + ground - enemy_threat * brain.threat(state, u, u.hex)
        else:
            v -= w.kill_figure * u.figures + ground - own_threat * brain.threat(state, u, u.hex)
    return v


def expected_battles(state: MemoirState, side: str, w: Weights = EASY) -> float:
    """The battles ``side``'s ordered units can still fight, in expected medals (exact odds),
    the best first, each target weakened by the hits expected before."""
    brain = EasyBrain(state, w)
    enemies = state.live_units(other_side(side))
    figures = {e.id: float(e.figures) for e in enemies}
    rooms = {e.id: brain.room(state, e) for e in enemies}  # the position does not change here
    shooters = [u for u in state.live_units(side) if state.can_battle(u)[0]]
    total = 0.0
    used: set[int] = set()
    while True:
        best = None
        for u in shooters:
            if u.id in used:
                continue
            for h in state.battle_targets(u.id):
                e = state.unit_at(h)
                n = state.battle_dice(u, e)[0]
                figs = max(1, round(figures[e.id]))
                v = brain.value(n, e.kind, figs, unit_medals(state, e), room=rooms[e.id])
                v += brain.overrun_value(state, u, e, n)  # M44 p.13, with w.overrun
                if best is None or v > best[0]:
                    best = (v, u, e, n)
        if best is None:
            return total
        v, u, e, n = best
        total += v * state.ctx.battles.get(u.id, 1)
        used.add(u.id)
        figures[e.id] = max(0.0, figures[e.id] - float(expected_hits(n, e.kind)))


def _effect_key(a: Action) -> tuple:
    c = card(a.card)
    return (c.name, c.section, a.option)


class MemoirSearchPolicy:
    """The "normal" computer player: determinised Monte Carlo over its card plays."""

    def __init__(self, seed: int = 0, iterations: int = 8, width: int = 4,
                 reply: bool = False, horizon: str = "battle", own_threat: float = 0.0,
                 max_seconds: float = 1.0, move_lookahead: int = 0,
                 order_lookahead: int = 0, turns: int = 2,
                 cut: str = "expected", weights: Weights = NORMAL_WEIGHTS,
                 keep: float = 0.0, clock: bool = True) -> None:
        if horizon not in HORIZONS:
            raise ValueError(f"horizon: expected one of {', '.join(HORIZONS)}, got "
                             f"{horizon!r:.40}")
        if cut not in CUTS:
            raise ValueError(f"cut: expected one of {', '.join(CUTS)}, got {cut!r:.40}")
        if turns < 1:
            raise ValueError(f"turns: expected a whole number of turns >= 1, got {turns!r:.40}")
        self.seed = seed
        self.iterations = iterations
        self.width = width
        self.reply = reply
        self.horizon = horizon
        self.own_threat = own_threat
        self.max_seconds = max_seconds
        self.move_lookahead = move_lookahead
        self.order_lookahead = order_lookahead
        self.turns = turns
        self.cut = cut
        self.weights = weights
        self.keep = keep
        self.clock = clock
        self._clock_weights = replace(weights, threat=CLOCK_CAUTION * weights.threat,
                                      advance=0.0)
        self.w = weights
        self._fast = FastEasy(weights)

    def weights_for(self, state: MemoirState) -> Weights:
        """The weights of the side deciding in ``state``: with ``clock``, the side that wins
        when the deck runs out plays for time (``CLOCK_CAUTION`` x the threat, no pull)."""
        side = state.side_to_act
        if self.clock and side and state.scenario.opt("deck_exhausted_winner") == side:
            return self._clock_weights
        return self.weights

    def _use_weights_for(self, state: MemoirState) -> None:
        w = self.weights_for(state)
        if w is not self.w:
            self.w = w
            self._fast = FastEasy(w)

    def _eval(self, st: MemoirState, side: str, enemy_threat: float = 1.0) -> float:
        return evaluate(st, side, self.own_threat, enemy_threat, self.w)

    def rng_for(self, state: MemoirState) -> random.Random:
        return random.Random(self.seed * 1_000_003 + len(state.history))

    def choose(self, state: MemoirState) -> Action:
        return self._decide(state)[0]

    def explain(self, state: MemoirState) -> str:
        return self._decide(state)[1]

    # ------------------------------------------------------------------ search
    def _decide(self, state: MemoirState) -> tuple[Action, str]:
        self._use_weights_for(state)
        if (self.move_lookahead and state.phase == "move" and not state.pending
                and not state.winner):
            return self._move(state)
        if (self.order_lookahead and state.phase == "order" and not state.pending
                and not state.winner):
            return self._order(state)
        if state.pending or state.phase != "card" or state.winner:
            return decide(state, self.w)
        acts = state.legal_actions()
        seen: dict[tuple, Action] = {}
        for a in acts:
            seen.setdefault(_effect_key(a), a)
        cands = list(seen.values())
        if len(cands) == 1:
            return cands[0], "the only card worth playing"
        side = state.active
        cache: dict = {}
        fast = {a: card_value_and_orders(state, a, cache, self.w) for a in cands}
        prior = {a: v for a, (v, _) in fast.items()}
        # the hand left after each card: the best of the other cards, valued now (M44 p.5:
        # a played card is replaced by a draw, so what stays in hand is the next choice)
        left = dict.fromkeys(cands, 0.0)
        if self.keep:
            by_key = {_effect_key(a): min(v, 5.0) for a, v in prior.items()}
            left = {a: max((by_key[_effect_key(b)] for b in acts if b.card != a.card),
                           default=0.0) for a in cands}
        cands.sort(key=lambda a: -prior[a])
        cands = cands[: self.width]
        rng = self.rng_for(state)
        n_worlds = max(1, self.iterations // len(cands))
        worlds = [determinise(state, side, rng) for _ in range(n_worlds)]
        totals = dict.fromkeys(cands, 0.0)
        counts = dict.fromkeys(cands, 0)
        start = time.process_time()
        for w in worlds:
            for a in cands:
                totals[a] += self._rollout(w, a, side, fast[a][1])
                counts[a] += 1
            if time.process_time() - start > self.max_seconds:
                break
        means = {a: totals[a] / counts[a] + self.keep * left[a] for a in cands if counts[a]}
        best = max(means, key=lambda a: (means[a], prior[a]))
        runner = sorted(means.values(), reverse=True)
        margin = runner[0] - runner[1] if len(runner) > 1 else 0.0
        title = card(best.card).title + (f" [{best.option}]" if best.option else "")
        how = (f" ({self.turns} turns played out by easy)" if self.horizon == "rollout"
               else "")
        ordered = fast[best][1]
        units = (f"; {len(ordered)} unit{'s' if len(ordered) > 1 else ''} ordered"
                 if ordered else "")
        return best, (f"played {title}: {means[best]:+.2f} medals on average over "
                      f"{counts[best]} sampled deals and dice{how}, {margin:.2f} ahead of the "
                      f"next card{units}")

    def _move(self, state: MemoirState) -> tuple[Action, str]:
        """A move decision by look-ahead: easy's ``move_lookahead`` best moves and "no more
        moves" are each played on a copy, the rest of the moves by the easy policy, and scored
        at the battle phase (``evaluate`` + the battles at their exact expected value), so the
        moves are judged together (lines of sight, blocking, cover) rather than one by one."""
        acts = state.legal_actions()
        moves = [a for a in acts if a.kind == "move"]
        if not moves or any(a.kind == "exit" for a in acts):
            return decide(state, self.w)
        brain = EasyBrain(state, self.w)
        base: dict[int, float] = {}
        gains = []
        for a in moves:
            u = state.units[a.unit]
            if u.id not in base:
                base[u.id] = brain.hex_score(u, u.hex, 0)[0]
            cost = state.move_options(u.id).get(a.hex, 1)
            gains.append((brain.hex_score(u, a.hex, cost)[0] - base[u.id], a))
        gains.sort(key=lambda t: -t[0])
        cands = [a for _, a in gains[: self.move_lookahead]]
        cands += [a for a in acts if a.kind == "end_moves"]
        if len(cands) == 1:
            return cands[0], "the only move worth trying"
        v, best = self._best_to_battle(state, cands)
        what = ("no more moves" if best.kind == "end_moves"
                else f"moved unit {best.unit}")
        return best, f"{what}: {v:+.2f} medals after this turn's moves and expected battles"

    def _order(self, state: MemoirState) -> tuple[Action, str]:
        """An order decision by look-ahead: easy's ``order_lookahead`` most promising units
        and "no more orders", each played out by easy to the battle phase (as ``_move``)."""
        acts = state.legal_actions()
        orders = [a for a in acts if a.kind == "order"]
        if not orders:
            return decide(state, self.w)
        st = state.clone()
        brain = EasyBrain(st, self.w)
        pots = {u.id: brain.order_potential(st, u)[0] for u in st.live_units(st.active)}
        orders.sort(key=lambda a: (-pots.get(a.unit, 0.0), a.unit))
        cands = orders[: self.order_lookahead] + [a for a in acts if a.kind == "end_orders"]
        if len(cands) == 1:
            return cands[0], "the only order worth trying"
        v, best = self._best_to_battle(state, cands)
        what = "no more orders" if best.kind == "end_orders" else f"ordered unit {best.unit}"
        return best, f"{what}: {v:+.2f} medals after this turn's moves and expected battles"

    def _best_to_battle(self, state: MemoirState, cands: list[Action]) -> tuple[float, Action]:
        """The candidate whose play-out by easy to the battle phase scores best (ties: the
        earlier candidate)."""
        side = state.active
        scored = []
        for i, a in enumerate(cands):
            st = state.clone()
            st.dice = Dice(self.seed)  # moves roll no dice; never the game's own
            st.apply(a, validate=False)
            guard = 0
            turn = st.turn
            while (not st.winner and st.turn == turn and guard < 200
                   and not (st.phase == "battle" and not st.pending)):
                self._fast.step(st)  # easy's actions (memoir_fast)
                guard += 1
            v = self._eval(st, side)
            if not st.winner and st.turn == turn:
                v += expected_battles(st, side, self.w)
            scored.append((v, -i, a))
        v, _, best = max(scored, key=lambda t: (t[0], t[1]))
        return v, best

    def _rollout(self, world: MemoirState, a: Action, side: str,
                 ordered: list[int] | None = None) -> float:
        st = world.clone()
        st.dice = Dice(world.dice.seed)  # the same dice for every candidate in this world
        st.apply(a, validate=False)
        if ordered is not None and st.phase == "order" and not st.pending and not st.winner:
            for uid in ordered:  # the units easy orders with this card (memoir_fast)
                st.apply(Action("order", unit=uid), validate=False)
            if st.phase == "order" and not st.pending and not st.winner:
                st.apply(Action("end_orders"), validate=False)
        guard = 0
        if self.horizon == "reply":
            # my turn to its end, then the other side's orders and moves: its battles are
            # counted at their exact expected value
            start_turn = st.turn
            while (not st.winner and guard < 600 and st.turn <= start_turn + 1
                   and not (st.turn == start_turn + 1 and st.phase == "battle"
                            and not st.pending)):
                self._fast.step(st)  # easy's actions (memoir_fast)
                guard += 1
            v = self._eval(st, side, enemy_threat=0.0)
            if st.winner or st.turn != start_turn + 1:
                return v
            return v - expected_battles(st, other_side(side), self.w)
        if self.horizon == "battle":
            # to the battle phase; its battles are counted at their exact expected value
            start_turn = st.turn
            while (not st.winner and st.turn == start_turn and guard < 400
                   and not (st.phase == "battle" and not st.pending)):
                self._fast.step(st)  # easy's actions (memoir_fast)
                guard += 1
            if st.winner or st.turn != start_turn:
                return self._eval(st, side)
            return self._eval(st, side) + expected_battles(st, side, self.w)
        if self.horizon == "rollout":
            return self._full_rollout(st, side)
        turns = 2 if self.reply else 1
        start_turn = st.turn
        while not st.winner and st.turn < start_turn + turns and guard < 400:
            self._fast.step(st)
            guard += 1
        return self._eval(st, side)

    def _full_rollout(self, st: MemoirState, side: str) -> float:
        """Play ``st`` (a card just played by ``side``) with easy for both sides through
        ``turns`` turns; at the cut-off, the battles of the side then in its battle phase
        count at their exact expected value."""
        end = st.turn + self.turns
        guard = 0
        while not st.winner and st.turn < end and guard < 2000:
            if (self.cut == "expected" and st.turn == end - 1 and st.phase == "battle"
                    and not st.pending):
                break
            self._fast.step(st)
            guard += 1
        v = self._eval(st, side)
        if not st.winner and st.turn == end - 1 and st.phase == "battle":
            who = st.active
            eb = expected_battles(st, who, self.w)
            v += eb if who == side else -eb
        return v
