"""Helpers for engine tests: loaded dice and small maps."""

from __future__ import annotations

import pytest

from wargame.dice import Dice


class LoadedDice(Dice):
    """Dice that read from a list (then fall back to the seeded generator)."""

    def __init__(self, values: list[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.values = list(values)

    def die(self, sides: int) -> int:
        if self.values:
            self.sides_log.append(sides)
            return self.values.pop(0)
        return super().die(sides)


@pytest.fixture
def load_dice():
    def _load(state, *values: int):
        state.dice = LoadedDice(list(values), state.seed)
        return state

    return _load
