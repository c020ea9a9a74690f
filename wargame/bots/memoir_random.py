"""Simple Memoir '44 players: the "auto" answer, a random legal action, a seeded random policy.

They use the engine only through its public API (``legal_actions``, ``pending``, ``active``,
``history``); the engine does not import them.
"""

from __future__ import annotations

import random
from operator import attrgetter

from wargame.errors import GameOver
from wargame.memoir.actions import R_TURN, Action
from wargame.memoir.board import ALLIES
from wargame.memoir.game import MemoirState

__all__ = ["auto_action", "random_action", "MemoirRandomPolicy"]


def auto_action(state: MemoirState) -> Action:
    """The "auto" answer to the decision at hand: first option for pending decisions
    (retreat to the first listed hex, take ground, ambush, keep the first card) and ending the
    phase otherwise."""
    acts = state.legal_actions()
    if not acts:
        raise GameOver("no decision to make", R_TURN)
    if state.pending:
        return acts[0]
    for end in ("end_orders", "end_moves", "end_battles", "air_strike"):
        for a in acts:
            if a.kind == end:
                return a
    return acts[0]


def random_action(state: MemoirState, rng: random.Random, aggressive: bool = True) -> Action:
    """A random legal action; ``aggressive`` prefers battles and ordering units."""
    acts = state.legal_actions()
    if not aggressive or state.pending:
        return rng.choice(acts)
    by_kind: dict[str, list[Action]] = {}  # the actions of each kind, in their order
    for a in acts:
        same = by_kind.get(a.kind)
        if same is None:
            by_kind[a.kind] = [a]
        else:
            same.append(a)
    for pref in ("battle", "air_target", "barrage", "medics"):
        if pref in by_kind:
            return rng.choice(by_kind[pref])
    if "order" in by_kind:
        return rng.choice(by_kind["order"])
    if "move" in by_kind and rng.random() < 0.85:
        moves = by_kind["move"]
        # prefer moves toward the enemy edge (a stable sort: ties keep their order)
        moves.sort(key=_ROW, reverse=state.active != ALLIES)
        top = moves[: max(1, len(moves) // 3)]
        return rng.choice(top)
    return rng.choice(acts)


_ROW = attrgetter("hex.r")


class MemoirRandomPolicy:
    """``random_action`` as a policy whose choice depends only on the position and the seed.

    Each call draws from a generator seeded with ``seed`` and the number of actions played so
    far (a stable integer mix, not Python's salted ``hash``): the same position always gets
    the same choice, after an undo and replay too, and the policy keeps no memory.
    """

    def __init__(self, seed: int, aggressive: bool = True) -> None:
        self.seed = seed
        self.aggressive = aggressive

    def rng_for(self, state: MemoirState) -> random.Random:
        return random.Random(self.seed * 1_000_003 + len(state.history))

    def choose(self, state: MemoirState) -> Action:
        return random_action(state, self.rng_for(state), self.aggressive)
