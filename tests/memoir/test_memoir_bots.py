"""The Memoir '44 bots: a seeded random policy chooses from the position alone."""

from __future__ import annotations

import random

from wargame.bots.memoir_random import MemoirRandomPolicy, auto_action, random_action
from wargame.memoir import MemoirGame, MemoirState


def test_random_policy_choice_depends_only_on_the_state_and_the_seed():
    game = MemoirGame.from_scenario(1)
    policy = MemoirRandomPolicy(seed=11)
    s = game.new_state(seed=3)
    chosen = []
    for _ in range(120):
        if s.is_terminal:
            break
        a = policy.choose(s)
        assert policy.choose(s) == a  # asked again: the same answer (no memory across calls)
        assert policy.choose(s.clone()) == a
        assert a in s.legal_actions()
        chosen.append(a)
        s.apply(a)
    # undo and replay: the position after k actions gets the same choice again
    for k in (0, 1, 17, len(chosen) - 1):
        back, _ = MemoirState.replay(game, 3, chosen[:k])
        assert policy.choose(back) == chosen[k]
    # another seed plays another game
    other = MemoirRandomPolicy(seed=12)
    t = game.new_state(seed=3)
    mine = []
    for _ in range(40):
        a = other.choose(t)
        mine.append(a)
        t.apply(a)
    assert mine != chosen[:40]


def test_auto_and_random_actions_are_legal():
    s = MemoirGame.from_scenario(1).new_state(seed=5)
    rng = random.Random(5)
    for i in range(60):
        a = auto_action(s) if i % 3 == 0 else random_action(s, rng)
        assert a in s.legal_actions()
        s.apply(a)
