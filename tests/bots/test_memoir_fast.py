"""``memoir_fast.FastEasy`` plays exactly the easy player's actions (it only computes them with
less work): whole games played both ways have the same action log."""

from __future__ import annotations

import random

import pytest

from wargame.bots.memoir_easy import EASY, card_value, decide
from wargame.bots.memoir_fast import FastEasy, fast_card_choice
from wargame.bots.memoir_random import random_action
from wargame.bots.memoir_search import NORMAL_WEIGHTS
from wargame.memoir import MemoirGame


@pytest.mark.parametrize("sid,seed,weights", [("9", 0, EASY), ("2", 1, NORMAL_WEIGHTS)])
def test_fast_easy_plays_the_same_game_as_easy(sid, seed, weights):
    # with normal's weights too: normal's play-outs are FastEasy(NORMAL_WEIGHTS)
    game = MemoirGame.from_scenario(sid)
    slow = game.new_state(seed)
    while not slow.winner and len(slow.history) < 5000:
        slow.apply(decide(slow, weights)[0], validate=False)
    fast = game.new_state(seed)
    fe = FastEasy(weights)
    while not fast.winner and len(fast.history) < 5000:
        fe.step(fast)
    assert slow.winner is not None
    assert fast.action_log == slow.action_log
    assert fast.fingerprint() == slow.fingerprint()


@pytest.mark.parametrize("sid", ["4", "overlord"])
def test_fast_card_choice_values_cards_as_easy(sid):
    state = MemoirGame.from_scenario(sid).new_state(3)
    rng = random.Random(3)
    checked = 0
    for _ in range(400):
        if state.winner or checked >= 2:
            break
        if state.phase == "card" and not state.pending and len(state.legal_actions()) > 1:
            before = state.fingerprint()
            a, ordered, values = fast_card_choice(state)
            assert a == decide(state)[0]
            for b, v in values.items():
                assert v == pytest.approx(card_value(state, b)[0], abs=1e-12)
            assert state.fingerprint() == before
            checked += 1
        state.apply(random_action(state, rng))
    assert checked > 0
