"""Helpers for the Battle for Normandy §19 variant tests: loaded dice and shared games."""

from __future__ import annotations

from functools import cache

import pytest

from tests.helpers import LoadedDice
from wargame.dice import Dice
from wargame.operational import state as state_module
from wargame.operational.state import Game


@cache
def game(*variants: str) -> Game:
    return Game("normandy", variants=variants)


@pytest.fixture
def loaded_start(monkeypatch):
    """A new state whose dice start with ``values`` (for the dice rolled during setup)."""

    def _start(g: Game, *values: int, seed: int = 0):
        monkeypatch.setattr(state_module, "Dice",
                            lambda s, *_version: LoadedDice(list(values), s))
        st = g.new_state(seed)
        monkeypatch.setattr(state_module, "Dice", Dice)
        return st

    return _start


def load(state, *values: int):
    state.dice = LoadedDice(list(values), state.seed)
    return state
