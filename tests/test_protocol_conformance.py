"""Every bundled scenario through the game protocol alone (wargame/protocol.py).

Nothing here knows which engine it holds: games come from ``open_game``, actions from
``legal_actions`` and ``action_from_dict``, saves from ``wargame.saves``. For each scenario,
seeded random playouts check that

* every legal action offered is accepted (all of them, on clones, at sampled positions);
* illegal actions (offered ones with a field changed, actions of another phase, garbage) are
  refused with an ``IllegalAction`` subclass and leave the position exactly as it was;
* save -> JSON -> load -> replay reaches the same fingerprint at random points, and undo by
  replay gives back the earlier position;
* the chance outcomes of an action sum to probability 1.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from wargame.catalog import list_scenarios
from wargame.errors import IllegalAction
from wargame.games import open_game
from wargame.protocol import GameDefinition, GameState, Outcome, chance_outcomes
from wargame.saves import from_save, to_save, undo

SCENARIOS = [s["id"] for s in list_scenarios()]
CAMPAIGNS = [s for s in SCENARIOS if not s.startswith("memoir44-")]
# Campaign playouts are long (a turn is hundreds of actions): fewer steps, same checks.
STEPS = {"normandy": 70, "dragoon": 90}


def _position(state: GameState) -> str:
    return json.dumps([state.fingerprint(), state.to_json(), state.action_log], sort_keys=True,
                      default=str)


def _choose(state: GameState, rng: random.Random):
    actions = state.legal_actions()
    assert actions, "a game that is not over always offers an action"
    ends = [a for a in actions if a.to_dict()["kind"] in ("end_phase", "end_moves", "end_orders",
                                                          "end_battles")]
    if ends and rng.random() < 0.15:
        return rng.choice(ends)
    return rng.choice(actions)


def _mutations(state: GameState, rng: random.Random) -> list[dict]:
    """Action dicts built from offered actions with one field changed, plus garbage."""
    out: list[dict] = [{"kind": "no_such_action"}, {"kind": 5}, {}]
    offered = state.legal_actions()
    for action in rng.sample(offered, min(4, len(offered))):
        data = action.to_dict()
        for key, value in data.items():
            if key == "kind":
                continue
            if isinstance(value, str):
                out.append({**data, key: "9999"})
                out.append({**data, key: {}})
            elif isinstance(value, int) and not isinstance(value, bool):
                out.append({**data, key: value + 1000})
                out.append({**data, key: 0.5})
            elif isinstance(value, list):
                out.append({**data, key: value * 3 if value else ["9999"]})
                out.append({**data, key: 5})
    return out


def _check_refused(game: GameDefinition, state: GameState, data: dict) -> None:
    legal = {json.dumps(a.to_dict(), sort_keys=True) for a in state.legal_actions()}
    try:
        action = game.action_from_dict(data)
    except IllegalAction:
        return  # refused as malformed before reaching the rules
    if json.dumps(action.to_dict(), sort_keys=True) in legal:
        return  # the mutation happened to be legal
    before = _position(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert info.value.reason, "a refusal says why"
    assert _position(state) == before, f"refusing {data} changed the state"


@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_protocol_conformance(scenario_id: str) -> None:
    game = open_game(scenario_id)
    assert isinstance(game, GameDefinition)
    assert len(game.sides) == 2
    rng = random.Random(f"conformance-{scenario_id}")
    seed = rng.randrange(10_000)
    state = game.new_state(seed)
    assert isinstance(state, GameState)
    steps = STEPS.get(scenario_id, 250)
    checkpoints = sorted(rng.sample(range(1, steps), 3))
    for step in range(steps):
        if state.is_terminal:
            break
        assert state.side_to_act in game.sides
        decision = state.pending_decision
        if decision is not None:
            assert decision.side == state.side_to_act
            assert decision.options, "a pending decision offers at least one answer"
        if step % 25 == 0:
            offered = state.legal_actions()
            for action in rng.sample(offered, min(8, len(offered))):
                trial = state.clone()
                trial.apply(game.action_from_dict(json.loads(json.dumps(action.to_dict()))))
            for data in _mutations(state, rng):
                _check_refused(game, state, data)
        if step in checkpoints:
            saved = json.loads(json.dumps(to_save(state)))
            loaded = from_save(saved, source=f"<{scenario_id} step {step}>")
            assert loaded.fingerprint() == state.fingerprint()
            assert loaded.action_log == state.action_log
            if state.action_log:
                back = undo(state, 1)
                assert back.action_log == state.action_log[:-1]
        state.apply(_choose(state, rng))
    outcome = state.outcome()
    assert isinstance(outcome, Outcome)
    assert set(outcome.scores) == set(game.sides)
    assert outcome.final == state.is_terminal
    json.dumps(state.to_json())  # plain JSON


@pytest.mark.parametrize("scenario_id", ["memoir44-1", CAMPAIGNS[0]])
def test_chance_outcomes_sum_to_one(scenario_id: str) -> None:
    """Whatever action comes first that rolls dice, its outcomes are exact and complete."""
    game = open_game(scenario_id)
    state = game.new_state(7)
    rng = random.Random(3)
    for _ in range(400):
        actions = state.legal_actions()
        for action in actions[:30]:
            outcomes = chance_outcomes(state, action)
            if len(outcomes) > 1:
                assert sum((o.probability for o in outcomes), Fraction(0)) == 1
                faces = {o.faces for o in outcomes}
                assert len(faces) == len(outcomes)
                # forcing the faces reproduces the outcome the enumeration found
                o = outcomes[len(outcomes) // 2]
                forced = state.clone()
                forced.dice.force(*o.faces)
                forced.apply(action)
                assert forced.fingerprint()["units"] == o.state.fingerprint()["units"]
                return
        state.apply(_choose(state, rng))
    pytest.fail("no action with dice came up")
