"""The replay fast path and checkpoints (wargame/checkpoints.py, wargame/saves.py): a state
reached from a checkpoint, or replayed through the campaign engine's ``replay_apply``, is
exactly the state replayed from the seed with ``apply`` (fingerprint, whole position, events,
action log); a damaged save is still refused with its field named."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wargame.checkpoints import Checkpoints
from wargame.errors import IllegalAction
from wargame.games import open_game
from wargame.memoir import MemoirGame
from wargame.operational.actions import Move
from wargame.operational.state import Game
from wargame.saves import from_save, replay, to_save
from wargame.scenario_errors import ScenarioError
from wargame.ui.demo import demo_scenario

SEED = 7


def random_log(game: Any, n: int, seed: int = 3) -> list[dict[str, Any]]:
    """The action log of ``n`` random legal actions (fewer if the game ends)."""
    rng = random.Random(seed)
    state = game.new_state(SEED)
    for _ in range(n):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return list(state.action_log)


def slow_replay(game: Any, log: list[dict[str, Any]]) -> tuple[Any, list[str]]:
    """Replay from the seed with the guarded ``apply``: the reference."""
    state = game.new_state(SEED)
    texts: list[str] = []
    for data in log:
        texts += [str(getattr(e, "text", e)) for e in state.apply(game.action_from_dict(data))]
    return state, texts


def same(a: Any, b: Any) -> None:
    assert a.fingerprint() == b.fingerprint()
    assert a.to_json() == b.to_json()
    assert a.action_log == b.action_log
    assert a.dice.draws == b.dice.draws


GAMES = {"campaign": lambda: Game(demo_scenario()), "memoir": lambda: MemoirGame.from_scenario("1")}
LOGS: dict[str, tuple[Any, list[dict[str, Any]]]] = {}


def game_and_log(kind: str) -> tuple[Any, list[dict[str, Any]]]:
    if kind not in LOGS:
        game = GAMES[kind]()
        LOGS[kind] = (game, random_log(game, 120))
    return LOGS[kind]


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_fast_replay_equals_the_guarded_replay(kind):
    game, log = game_and_log(kind)
    texts: list[str] = []
    fast = replay(game, SEED, log, on_action=lambda i, s, ev: texts.extend(
        str(getattr(e, "text", e)) for e in ev))
    slow, slow_texts = slow_replay(game, log)
    same(fast, slow)
    assert texts == slow_texts and len(log) > 50


def test_replay_apply_refuses_like_apply():
    game = Game(demo_scenario())
    guarded, fast = game.new_state(SEED), game.new_state(SEED)
    bad = Move("us-inf-1", "1210")  # CN 4.0: beyond the unit's movement points
    with pytest.raises(IllegalAction) as a:
        guarded.apply(bad)
    with pytest.raises(IllegalAction) as b:
        fast.replay_apply(bad)
    assert (type(a.value), str(a.value)) == (type(b.value), str(b.value))
    assert guarded.fingerprint() == game.new_state(SEED).fingerprint()  # apply: unchanged


@pytest.mark.parametrize("kind", sorted(GAMES))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_state_at_equals_replay_from_the_seed(kind, data):
    game, log = game_and_log(kind)
    every = data.draw(st.integers(1, 40), label="every")
    checkpoints = Checkpoints(game, SEED, every)
    for _ in range(3):  # several jumps, back and forth, on one set of checkpoints
        n = data.draw(st.integers(0, len(log)), label="n")
        got = checkpoints.state_at(log, n)
        same(got, slow_replay(game, log[:n])[0])
        assert all(k <= len(log) and k % every == 0 for k in checkpoints.positions())


def test_a_checkpoint_of_another_line_of_play_is_not_used():
    game, log = game_and_log("campaign")
    checkpoints = Checkpoints(game, SEED, 10)
    checkpoints.state_at(log, len(log))
    assert checkpoints.positions()[-1] > len(log) - 10 > 40
    other = random_log(game, 120, seed=99)  # another game from the same seed
    assert other[:20] != log[:20] and len(other) > 40
    same(checkpoints.state_at(other, len(other)), slow_replay(game, other)[0])


def test_a_checkpoint_is_not_changed_by_play_from_it():
    game, log = game_and_log("campaign")
    checkpoints = Checkpoints(game, SEED, 20)
    checkpoints.state_at(log, 50)  # takes checkpoints 20 and 40
    first = checkpoints.state_at(log, 50)  # from checkpoint 40
    first.apply(random.Random(1).choice(first.legal_actions()))
    assert checkpoints.nearest(log, 50)[0] == 40  # still valid: play was on a clone
    same(checkpoints.state_at(log, 50), slow_replay(game, log[:50])[0])
    with pytest.raises(ValueError, match="n: a log length"):
        checkpoints.state_at(log, len(log) + 1)
    with pytest.raises(ValueError, match="every"):
        Checkpoints(game, SEED, 0)


@pytest.fixture(scope="module")
def dragoon_save() -> dict[str, Any]:
    game = open_game("dragoon")
    state = game.new_state(SEED)
    rng = random.Random(5)
    for _ in range(80):
        state.apply(rng.choice(state.legal_actions()))
    return json.loads(json.dumps(to_save(state)))


def test_load_through_the_fast_path_equals_the_slow_path(dragoon_save):
    game = open_game("dragoon")
    loaded = from_save(dragoon_save, game=game)
    same(loaded, slow_replay(game, dragoon_save["actions"])[0])


@pytest.mark.parametrize("change, field", [
    (lambda d: d["fingerprint"]["units"].popitem(), "fingerprint"),
    (lambda d: d["actions"].__setitem__(40, {"kind": "move", "unit": "nobody", "to": "0101"}),
     "actions[40]"),
    (lambda d: d["actions"].insert(3, d["actions"][2]), "actions["),
])
def test_a_damaged_save_is_still_refused_with_its_field(dragoon_save, change, field):
    data = json.loads(json.dumps(dragoon_save))
    change(data)
    with pytest.raises(ScenarioError) as info:
        from_save(data, source="damaged.json", game=open_game("dragoon"))
    assert "damaged.json" in str(info.value) and field in str(info.value)


def test_checkpoints_keep_the_dice_version_of_their_game():
    """An old game (tests/data/normandy_dice1.json, dice 1): every position reached through
    checkpoints is the one a dice-1 replay from the seed reaches, and a state of other dice
    is never noted."""
    from pathlib import Path

    save = json.loads((Path(__file__).parent / "data" / "normandy_dice1.json").read_text())
    game = open_game("normandy")
    log = save["actions"]
    cps = Checkpoints(game, save["seed"], every=10, dice_version=1)
    for n in (0, 7, 10, 25, 60, 33):
        state = cps.state_at(log, n)
        assert state.dice.version == 1
        reference = replay(game, save["seed"], log[:n], dice_version=1)
        assert state.fingerprint() == reference.fingerprint()
    assert cps.positions() == [10, 20, 30, 40, 50, 60]
    assert json.loads(json.dumps(cps.state_at(log, 60).fingerprint())) == save["fingerprint"]
    fresh = Checkpoints(game, save["seed"], every=10, dice_version=1)
    assert not fresh.note(replay(game, save["seed"], log[:10]), 10)  # dice 2: not this game
    assert fresh.note(replay(game, save["seed"], log[:10], dice_version=1), 10)
    with pytest.raises(ValueError, match="dice version"):
        Checkpoints(game, 1, dice_version=7)
