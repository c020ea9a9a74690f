"""Undo and load in the store (wargame/ui/store.py) go through checkpoints and one replay
pass: the position, the event log and the action log are exactly those of the game replayed
from the seed, at random points, for a campaign and a Memoir '44 game."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wargame.operational.state import Game
from wargame.ui.demo import demo_scenario
from wargame.ui.memoir_model import MemoirStore
from wargame.ui.model import CampaignState
from wargame.ui.store import GameStore


class SmallCampaign(CampaignState):
    CHECKPOINT_EVERY = 7


class SmallMemoir(MemoirStore):
    CHECKPOINT_EVERY = 7


def campaign() -> GameStore:
    return SmallCampaign(Game(demo_scenario()), seed=1944)


def memoir() -> GameStore:
    return SmallMemoir("1", 44)


STORES = {"campaign": campaign, "memoir": memoir}


def play(store: GameStore, n: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(n):
        if store.state.is_terminal:
            break
        assert store.act(rng.choice(store.state.legal_actions())), store.message


def replayed(make: Any, log: list[dict[str, Any]]) -> GameStore:
    """A fresh store that played ``log`` action by action (the reference)."""
    store = make()
    for data in log:
        assert store.act(store.game.action_from_dict(data)), store.message
    return store


def view(store: GameStore) -> tuple[Any, Any, list[str], list[dict[str, Any]], list[int]]:
    return (store.state.fingerprint(), store.state.to_json(),
            [str(getattr(e, "text", e)) for e in store.log], list(store.state.action_log),
            list(store._marks))


@pytest.mark.parametrize("kind", sorted(STORES))
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_undo_from_checkpoints_equals_replay_from_the_seed(kind, data):
    make = STORES[kind]
    store = make()
    play(store, data.draw(st.integers(1, 60), label="actions"), data.draw(st.integers(0, 9)))
    for _ in range(data.draw(st.integers(1, 3), label="undos")):
        n = len(store.state.action_log)
        if not n:
            break
        store.undo(data.draw(st.integers(1, min(n, 25)), label="steps"))
        assert view(store) == view(replayed(make, store.state.action_log))
        assert all(k <= len(store.state.action_log) for k in store._checkpoints.positions())
        play(store, data.draw(st.integers(0, 10), label="more"), 1)  # a new line of play
        assert view(store) == view(replayed(make, store.state.action_log))


@pytest.mark.parametrize("kind", sorted(STORES))
def test_load_takes_checkpoints_and_undo_after_load_is_exact(kind):
    make = STORES[kind]
    source = make()
    play(source, 50, 4)
    store = make()
    assert store.load_text(source.save_text()), store.message
    assert view(store) == view(source)
    total = len(source.state.action_log)
    first = total - store.LOAD_CHECKPOINTS * store.CHECKPOINT_EVERY  # only the last few
    assert store._checkpoints.positions() == [k for k in range(7, 51, 7) if first <= k <= total]
    store.undo(3)
    assert view(store) == view(replayed(make, source.state.action_log[:-3]))
    if total > 45:  # further back than the checkpoints kept from the load: still exact
        store.undo(40)
        assert view(store) == view(replayed(make, source.state.action_log[:-43]))


def test_a_damaged_save_leaves_the_game_and_its_checkpoints():
    store = campaign()
    play(store, 30, 2)
    before, positions = view(store), store._checkpoints.positions()
    text = store.save_text().replace('"turn"', '"tURN"', 1)
    assert not store.load_text(text)
    assert store.error and "fingerprint" in store.message
    assert view(store) == before and store._checkpoints.positions() == positions
    store.undo(2)
    assert view(store) == view(replayed(campaign, store.state.action_log))


def test_commands_of_two_threads_run_one_after_the_other():
    """Served with a thread pool, two events of one session may run at once: a command waits
    for the one in progress (the store's lock, held for a whole batch)."""
    store = campaign()
    action = random.Random(1).choice(store.state.legal_actions())
    inside, release = threading.Event(), threading.Event()

    def hold() -> None:
        with store.batch():
            inside.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert inside.wait(10)
    done: list[bool] = []
    other = threading.Thread(target=lambda: done.append(store.act(action)))
    other.start()
    other.join(0.3)
    assert done == [] and store.state.action_log == []  # waiting for the first command
    release.set()
    other.join(10)
    holder.join(10)
    assert done == [True] and len(store.state.action_log) == 1


def test_a_save_from_before_dice_versions_loads_and_undoes_with_its_dice():
    """tests/data/memoir_dice1.json (Pegasus Bridge, seed 44, dice 1): loaded into a store,
    undo and going back replay with dice 1 (through checkpoints every 7 actions), reaching
    the positions a dice-1 replay from the seed reaches."""
    import json
    from pathlib import Path

    from wargame.saves import replay

    text = (Path(__file__).parent.parent / "data" / "memoir_dice1.json").read_text()
    log = json.loads(text)["actions"]
    store = memoir()
    assert store.load_text(text), store.message
    assert store.state.dice.version == 1 and store.state.action_log == log
    for steps, keep in ((3, 47), (10, 37), (30, 7)):
        assert store.undo(steps), store.message
        assert store.state.dice.version == 1
        reference = replay(store.game, 44, log[:keep], dice_version=1)
        assert store.state.fingerprint() == reference.fingerprint()
    store.restart(44)  # a new game: new dice
    assert store.state.dice.version == 2
