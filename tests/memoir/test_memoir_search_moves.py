"""The "normal" player's move look-ahead (``MemoirSearchPolicy(move_lookahead=k)``): at a move
decision it tries easy's k best moves and "no more moves", each followed by easy's other moves,
and keeps the best position at the battle phase. Legal, deterministic, leaves the state and the
game's dice alone, never reads the hidden cards, and explains itself."""

from __future__ import annotations

import random

import pytest

from wargame.bots.memoir_easy import decide
from wargame.bots.memoir_random import random_action
from wargame.bots.memoir_search import MemoirSearchPolicy
from wargame.memoir import MemoirGame
from wargame.memoir.board import other_side


def _move_phase(sid: str, seed: int):
    """A position in a move phase with at least two moves, reached by easy's play."""
    state = MemoirGame.from_scenario(sid).new_state(seed)
    rng = random.Random(seed)
    for _ in range(400):
        assert not state.winner
        if (state.phase == "move" and not state.pending
                and sum(a.kind == "move" for a in state.legal_actions()) >= 2):
            return state
        acts = state.legal_actions()
        state.apply(decide(state)[0] if rng.random() < 0.8 else random_action(state, rng)
                    if acts else acts[0])
    raise AssertionError("no move phase reached")


@pytest.mark.parametrize("sid,seed", [("1", 2), ("5", 4), ("14", 6)])
def test_move_lookahead_is_legal_deterministic_and_pure(sid, seed):
    state = _move_phase(sid, seed)
    before, draws = state.fingerprint(), state.dice.draws
    policy = MemoirSearchPolicy(seed, move_lookahead=3)
    a = policy.choose(state)
    assert a in state.legal_actions() and a.kind in ("move", "end_moves")
    assert state.fingerprint() == before and state.dice.draws == draws
    assert MemoirSearchPolicy(seed, move_lookahead=3).choose(state.clone()) == a
    why = policy.explain(state)
    assert "expected battles" in why or "only move" in why
    # the hidden cards (the other hand, the deck order) do not change the move
    other = state.clone()
    enemy = other_side(state.active)
    pool = other.hands[enemy] + other.deck
    random.Random(1).shuffle(pool)
    n = len(other.hands[enemy])
    other.hands[enemy], other.deck = pool[:n], pool[n:]
    assert policy.choose(other) == a


def test_without_lookahead_moves_are_easy_s():
    state = _move_phase("3", 1)
    assert MemoirSearchPolicy(0).choose(state) == decide(state)[0]
    assert MemoirSearchPolicy(0, move_lookahead=1).choose(state) in state.legal_actions()


def _order_phase(sid: str, seed: int):
    state = MemoirGame.from_scenario(sid).new_state(seed)
    for _ in range(400):
        assert not state.winner
        if (state.phase == "order" and not state.pending
                and sum(a.kind == "order" for a in state.legal_actions()) >= 2):
            return state
        state.apply(decide(state)[0])
    raise AssertionError("no order phase reached")


@pytest.mark.parametrize("sid,seed", [("2", 3), ("15", 5)])
def test_order_lookahead_is_legal_deterministic_and_pure(sid, seed):
    state = _order_phase(sid, seed)
    before, draws = state.fingerprint(), state.dice.draws
    policy = MemoirSearchPolicy(seed, order_lookahead=3)
    a = policy.choose(state)
    assert a in state.legal_actions() and a.kind in ("order", "end_orders")
    assert state.fingerprint() == before and state.dice.draws == draws
    assert MemoirSearchPolicy(seed, order_lookahead=3).choose(state.clone()) == a
    assert "expected battles" in policy.explain(state) or "only order" in policy.explain(state)
