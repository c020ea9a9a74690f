"""What is offered is accepted (issue 30): hypothesis over random positions of every bundled
scenario (Normandy, Dragoon, every Memoir '44 scenario, and Normandy with every Battle for
Normandy variant).

A position is reached by playing a drawn number of actions from a drawn seed, each chosen by a
random player or by the game's heuristic player (drawn per example). There,

* every action of ``legal_actions()`` is accepted by ``apply`` on a clone (a pending decision's
  answers are its legal actions);
* where an offered action leaves a decision pending (an attack asks the defence declaration, a
  battle asks for the Ambush, a retreat path, a loss ...), every answer that decision offers is
  accepted too, on a clone of that clone: the answers are made before the dice of the action
  that asks them are known to the tests, so they are checked one level down;
* the heuristic player's choice (the greedy player in the campaigns, the easy player in
  Memoir '44) is accepted.

A Dragoon defence offering artillery to Germans forced into a maquis area (OD 10.0) and the
greedy player's ValueError with no objective left were found this way at scale; this guard
runs a bounded, derandomized sample (tests/fuzz/fuzzlib.py; ``WARGAME_FUZZ_EXAMPLES`` explores
more).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.fuzzlib import fuzz_settings
from wargame.bots.play import make_policy
from wargame.catalog import list_scenarios
from wargame.errors import IllegalAction
from wargame.games import open_game
from wargame.protocol import GameState

CASES = [(s["id"], ()) for s in list_scenarios()] + [("normandy", ("bfn",))]
# Normandy's positions take seconds each (hundreds of moves to try, a slow greedy player to
# reach them): its cases run in the slow set (tests/conftest.py), the rest in the fast one
SLOW = [c for c in CASES if c[0] == "normandy"]
FAST = [c for c in CASES if c not in SLOW]
# a campaign turn is hundreds of actions, a Memoir '44 game a few hundred
MAX_STEPS = {"campaign": 500, "memoir": 300}
HEURISTIC = {"campaign": "greedy", "memoir": "easy"}
_GAMES: dict = {}


def _game(scenario_id: str, variants: tuple[str, ...]):
    key = (scenario_id, variants)
    if key not in _GAMES:
        _GAMES[key] = open_game(scenario_id, variants=variants)
    return _GAMES[key]


def _reach(game, seed: int, steps: int, players: str) -> GameState:
    """The position after ``steps`` actions from ``seed``: random choices (ends of phases a
    little favoured, so campaigns get past their first phase), the heuristic player's, or
    both by turns of ten actions."""
    state = game.new_state(seed)
    rng = random.Random(seed)
    heuristic = make_policy(game, HEURISTIC[game.kind], seed)
    for n in range(steps):
        if state.is_terminal:
            break
        if players == "heuristic" or (players == "mixed" and (n // 10) % 2):
            action = heuristic.choose(state)
        else:
            actions = state.legal_actions()
            ends = [a for a in actions if a.to_dict()["kind"] in (
                "end_phase", "end_moves", "end_orders", "end_battles")]
            action = rng.choice(ends if ends and rng.random() < 0.2 else actions)
        state.apply(action)
    return state


def _accepted(state: GameState, action, where: str) -> GameState:
    trial = state.clone()
    try:
        trial.apply(action)
    except IllegalAction as exc:
        pytest.fail(f"{where}: {action} was offered and refused: {exc} ({exc.rule})")
    return trial


def _ids(cases):
    return [s + ("+" + "+".join(v) if v else "") for s, v in cases]


@pytest.mark.parametrize("scenario_id,variants", FAST, ids=_ids(FAST))
@fuzz_settings(2)
@given(seed=st.integers(0, 2**31 - 1), fraction=st.floats(0.0, 1.0),
       players=st.sampled_from(["random", "heuristic", "mixed"]))
def test_every_offered_action_and_answer_is_accepted(scenario_id, variants, seed, fraction,
                                                     players):
    check_offered(scenario_id, variants, seed, fraction, players)


@pytest.mark.slow  # 20 + 35 s (measured on 2 busy cores)
@pytest.mark.parametrize("scenario_id,variants", SLOW, ids=_ids(SLOW))
@fuzz_settings(3)
@given(seed=st.integers(0, 2**31 - 1), fraction=st.floats(0.0, 1.0),
       players=st.sampled_from(["random", "heuristic", "mixed"]))
def test_every_offered_action_and_answer_is_accepted_in_normandy(scenario_id, variants, seed,
                                                                 fraction, players):
    check_offered(scenario_id, variants, seed, fraction, players)


def check_offered(scenario_id: str, variants: tuple[str, ...], seed: int, fraction: float,
                  players: str) -> None:
    game = _game(scenario_id, variants)
    steps = int(fraction * MAX_STEPS[game.kind])
    state = _reach(game, seed, steps, players)
    if state.is_terminal:
        assert state.legal_actions() == []
        return
    offered = state.legal_actions()
    assert offered, "a game that is not over offers an action"
    decision = state.pending_decision
    if decision is not None:
        assert list(decision.options) == offered
    for action in offered:
        after = _accepted(state, action, "offered")
        asked = after.pending_decision
        if asked is not None and not after.is_terminal:
            assert asked.options, f"{action} asks a decision with no answer"
            for answer in asked.options:
                _accepted(after, answer, f"answer to {action}")
    choice = make_policy(game, HEURISTIC[game.kind], seed).choose(state)
    _accepted(state, choice, "heuristic")
