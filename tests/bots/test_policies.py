"""The one policy interface: every bot's choice depends on the position alone.

The computer's answer after an Undo must be the answer it gave before on that position (the
greedy bot once kept a memory that Undo did not restore: the same End phase gave 44 computer
actions before an Undo and 15 after)."""

from __future__ import annotations

import pytest

from wargame.bots.campaign_random import RandomPolicy
from wargame.bots.greedy import GreedyPolicy
from wargame.bots.play import POLICY_NAMES, make_policy, play
from wargame.games import open_game
from wargame.protocol import Policy
from wargame.saves import replay


def _until(state, policy, stop, limit=3000):
    actions = []
    while not stop(state) and len(actions) < limit:
        a = policy.choose(state)
        state.apply(a)
        actions.append(a.to_dict())
    return actions


@pytest.fixture(scope="module")
def axis_movement():
    """Dragoon, played by the greedy bot up to the first Axis movement phase."""
    game = open_game("dragoon")
    state = game.new_state(11)
    bot = GreedyPolicy()
    _until(state, bot, lambda s: s.phase.value == "axis_movement")
    return game, state


def test_greedy_phase_replays_the_same_after_undo(axis_movement):
    game, start = axis_movement
    bot = GreedyPolicy()
    first = start.clone()
    done = _until(first, bot, lambda s: s.phase.value != "axis_movement" or s.pending)
    assert len(done) > 3, "the Axis moves several units in its phase"
    # Undo back into the middle of the phase: the same policy object goes on as before
    for back in (len(done) - 1, len(done) // 2, 1):
        log = first.action_log[: len(start.action_log) + back]
        mid = replay(game, first.seed, log)
        rest = _until(mid, bot, lambda s: s.phase.value != "axis_movement" or s.pending)
        assert done[back:] == rest, f"after undoing to action {back} of the phase"
    # a fresh policy on the phase's first position plays the same phase
    again = start.clone()
    assert _until(again, GreedyPolicy(), lambda s: s.phase.value != "axis_movement"
                  or s.pending) == done


def test_random_policy_depends_on_the_position_alone(axis_movement):
    game, start = axis_movement
    a, b = RandomPolicy(5), RandomPolicy(5)
    assert a.choose(start) == a.choose(start) == b.choose(start)
    state = start.clone()
    played = _until(state, a, lambda s: len(s.action_log) >= len(start.action_log) + 12)
    back = replay(game, start.seed, state.action_log[: len(start.action_log) + 4])
    assert _until(back, b, lambda s: len(s.action_log) >= len(start.action_log) + 12) == played[4:]


def test_make_policy_names_the_bundled_bots():
    game = open_game("dragoon")
    for name in POLICY_NAMES["campaign"]:
        assert isinstance(make_policy(game, name, seed=1), Policy)
    with pytest.raises(ValueError, match="known: greedy, random"):
        make_policy(game, "alphazero")


def test_play_stops_at_the_bound_and_each_side_uses_its_policy():
    game = open_game("dragoon")
    state = game.new_state(3)
    chosen: list[str] = []

    class Recording:
        def __init__(self, inner, side):
            self.inner, self.side = inner, side

        def choose(self, s):
            assert s.side_to_act == self.side
            chosen.append(self.side)
            return self.inner.choose(s)

    play(state, {side: Recording(RandomPolicy(1), side) for side in game.sides}, max_actions=80)
    assert len(state.action_log) == 80 == len(chosen)
    assert set(chosen) == set(game.sides)


@pytest.mark.parametrize("scenario_id", ["memoir44-1", "memoir44-5"])
def test_memoir_random_policies_play_a_scenario_to_its_end(scenario_id):
    game = open_game(scenario_id)
    state = play(game.new_state(2), {side: make_policy(game, "random", seed=i)
                                     for i, side in enumerate(game.sides)}, max_actions=5000)
    assert state.is_terminal
    outcome = state.outcome()
    assert outcome.final and outcome.winner in game.sides
    assert replay(game, 2, state.action_log).fingerprint() == state.fingerprint()
