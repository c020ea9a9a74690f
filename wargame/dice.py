"""The game's seeded generator and exact dice distributions.

All randomness in every engine comes from a ``Dice`` owned by the game state: the same seed
and the same actions replay the same game, event for event. ``Dice`` serializes its position
as (seed, number of draws), so a saved game resumes the exact sequence.
"""

from __future__ import annotations

import random
from fractions import Fraction

__all__ = ["Dice", "two_d6_distribution", "d6_distribution", "ROW_BANDS", "row_band"]


class Dice:
    """Seeded dice. The size of every die drawn is logged, so the generator's position
    serializes exactly as (seed, sizes drawn) and is restored by drawing them again."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = int(seed)
        self._rng = random.Random(self.seed)
        self.sides_log: list[int] = []
        self._forced: list[int] = []

    def force(self, *faces: int) -> Dice:
        """Make the next draws roll ``faces`` (tests: "the defender rolls 7"), each checked
        against the size of the die it is drawn for. Forced draws are logged like others but
        leave the generator where it was, so a game with forced dice is a hypothetical one."""
        self._forced.extend(int(f) for f in faces)
        return self

    @property
    def forced_left(self) -> int:
        return len(self._forced)

    @property
    def draws(self) -> int:
        return len(self.sides_log)

    def die(self, sides: int) -> int:
        if self._forced:
            face = self._forced.pop(0)
            if not 1 <= face <= sides:
                raise ValueError(f"forced face {face} is not on a d{sides}")
            self.sides_log.append(sides)
            return face
        self.sides_log.append(sides)
        return self._rng.randint(1, sides)

    def d6(self) -> int:
        return self.die(6)

    def d10(self) -> int:
        """A ten-sided die reading 0-9 (Battle for Normandy's friendly-fire roll)."""
        return self.die(10) - 1

    def roll(self, n: int, sides: int = 6) -> list[int]:
        return [self.die(sides) for _ in range(n)]

    def two_d6(self) -> tuple[int, int]:
        return self.d6(), self.d6()

    def to_dict(self) -> dict:
        return {"seed": self.seed, "sides": list(self.sides_log)}

    @classmethod
    def from_dict(cls, data: dict) -> Dice:
        dice = cls(seed=int(data["seed"]))
        for sides in data.get("sides", []):
            dice.die(int(sides))
        return dice

    def copy(self) -> Dice:
        """An independent copy at the same position (forced faces included), in O(1)."""
        new = Dice.__new__(Dice)
        new.seed = self.seed
        new._rng = random.Random()
        new._rng.setstate(self._rng.getstate())
        new.sides_log = list(self.sides_log)
        new._forced = list(self._forced)
        return new


def d6_distribution() -> dict[int, Fraction]:
    return {i: Fraction(1, 6) for i in range(1, 7)}


def _two_d6() -> dict[int, Fraction]:
    dist: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            dist[a + b] = dist.get(a + b, Fraction(0)) + Fraction(1, 36)
    return dist


_TWO_D6 = _two_d6()


def two_d6_distribution() -> dict[int, Fraction]:
    """Exact distribution of the sum of two six-sided dice (a fresh copy)."""
    return dict(_TWO_D6)


# The CRT rows of the campaign games pair 2d6 sums of equal probability (seeds README).
ROW_BANDS: tuple[tuple[str, frozenset[int]], ...] = (
    ("2-12", frozenset({2, 12})),
    ("3-11", frozenset({3, 11})),
    ("4-10", frozenset({4, 10})),
    ("5-9", frozenset({5, 9})),
    ("6-8", frozenset({6, 8})),
    ("7", frozenset({7})),
)


def row_band(total: int) -> str:
    for name, members in ROW_BANDS:
        if total in members:
            return name
    raise ValueError(f"2d6 total {total} is outside 2-12")


_BAND_PROBABILITY = {name: sum((_TWO_D6[t] for t in members), Fraction(0))
                     for name, members in ROW_BANDS}


def band_probability(band: str) -> Fraction:
    try:
        return _BAND_PROBABILITY[band]
    except KeyError:
        raise ValueError(f"unknown row band {band!r}") from None
