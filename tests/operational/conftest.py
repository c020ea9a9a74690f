"""Helpers for engine tests: loaded dice and small maps."""

from __future__ import annotations

import pytest

from tests.helpers import LoadedDice


@pytest.fixture
def load_dice():
    def _load(state, *values: int):
        state.dice = LoadedDice(list(values), state.seed)
        return state

    return _load
