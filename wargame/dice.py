"""The game's seeded generator and exact dice distributions.

All randomness in every engine comes from a ``Dice`` owned by the game state: the same seed
and the same actions replay the same game, event for event. ``Dice`` serializes its position
as (seed, number of draws), so a saved game resumes the exact sequence.

Dice versions (issue 30: a save must replay for ever, whatever Python runs it):

* **Version 2** (``DICE_VERSION``, every new game): faces from a generator whose every output
  is specified here, so no library or Python upgrade can change a game:

  - the generator is PCG64, i.e. PCG XSL-RR 128/64 (M. E. O'Neill, "PCG: A Family of Simple
    Fast Space-Efficient Statistically Good Algorithms for Random Number Generation", 2014;
    the ``pcg64`` of the reference C library and numpy's ``PCG64`` bit generator). A 128-bit
    LCG ``state = state * 0x2360ED051FC65DA44385DF649FCCF645 + inc (mod 2**128)`` is stepped,
    then the new state is output as the 64-bit ``x = (state >> 64) ^ (state & (2**64 - 1))``
    rotated right by ``state >> 122`` bits;
  - seeding: ``d = sha256(b"wargame-dice-2:" + str(seed).encode("ascii")).digest()``,
    ``initstate`` and ``initseq`` its first and last 16 bytes read as big-endian integers,
    then PCG's ``srandom(initstate, initseq)``: ``inc = (initseq << 1 | 1) mod 2**128``,
    ``state = 0``, one step, ``state += initstate``, one step (hashing spreads neighbouring
    seeds such as 1944 and 1945 over unrelated streams; any whole number is a seed);
  - a face of a die of ``n`` sides, by rejection sampling: draw 64-bit outputs ``x`` until
    ``x < 2**64 - 2**64 % n`` (the largest multiple of ``n`` not above ``2**64``: each
    remainder is then exactly equally likely; a d6 rejects 1 draw in 2**62), the face is
    ``x % n + 1``.

  The generator is implemented in pure Python (two integers of state, so ``copy`` is two
  assignments), not taken from numpy: numpy's ``Generator.integers`` maps outputs to ranges
  by an algorithm numpy may change, and the engines then need no numpy at all.
  tests/test_dice.py checks the outputs bit for bit against numpy's ``PCG64`` from the same
  (state, inc) and pins the first faces of a seed to a list computed from this specification.
  Rejected in its favour: ``random.random()`` scaled by ``int(x * n) + 1``. Python does
  promise that ``random()`` keeps its sequence for a seed ("Notes on Reproducibility"), but
  that sequence is defined by CPython's code rather than by a published algorithm of our
  own, its state is 625 words (a copy per search node moves 2.5 KB), and the scaling is
  biased by up to n/2**53.

* **Version 1**: ``random.Random(seed).randint(1, n)``, the dice of every game saved before
  the change. Python does not promise that ``randint`` keeps its results across versions
  (``random`` only keeps ``random()`` and seeding), so this is kept only so that those saves
  still replay, for as long as the Python that runs them gives the same results.

A save, a room and a Memoir state JSON name the version they were played with: ``"dice": 2``
(``Dice.to_dict``, ``wargame.saves``); one without it is version 1. Shuffles (the Memoir
command deck) are ``Dice.shuffle``: a Fisher-Yates shuffle whose swaps are die draws.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence
from fractions import Fraction
from typing import Any

__all__ = ["Dice", "DICE_VERSION", "DICE_VERSIONS", "PCG64", "check_dice_version",
           "two_d6_distribution", "d6_distribution", "ROW_BANDS", "row_band"]

DICE_VERSION = 2  # the dice of every new game
DICE_VERSIONS = (1, 2)  # the versions a save, a room or a state JSON may name

_M64 = (1 << 64) - 1
_M128 = (1 << 128) - 1
_PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645  # PCG's default 128-bit multiplier
_TWO64 = 1 << 64
_LIMITS: dict[int, int] = {}  # sides -> 2**64 - 2**64 % sides, for the dice actually rolled


def check_dice_version(version: Any) -> int:
    """``version`` as one of ``DICE_VERSIONS``; ValueError naming them otherwise."""
    if isinstance(version, bool) or version not in DICE_VERSIONS:
        raise ValueError(f"dice: a dice version, one of {', '.join(map(str, DICE_VERSIONS))}, "
                         f"got {version!r}")
    return int(version)


class PCG64:
    """PCG XSL-RR 128/64 (module doc: version 2), its state two integers."""

    __slots__ = ("state", "inc")

    def __init__(self, state: int = 0, inc: int = 1) -> None:
        self.state = state & _M128
        self.inc = inc & _M128

    @classmethod
    def from_seed(cls, seed: int) -> PCG64:
        digest = hashlib.sha256(b"wargame-dice-2:" + str(int(seed)).encode("ascii")).digest()
        initstate = int.from_bytes(digest[:16], "big")
        initseq = int.from_bytes(digest[16:], "big")
        gen = cls(0, (initseq << 1) | 1)  # PCG's pcg_setseq_128_srandom_r
        gen.next64()
        gen.state = (gen.state + initstate) & _M128
        gen.next64()
        return gen

    def next64(self) -> int:
        state = (self.state * _PCG_MULT + self.inc) & _M128
        self.state = state
        x = ((state >> 64) ^ state) & _M64
        r = state >> 122
        return ((x >> r) | (x << (64 - r))) & _M64

    def face(self, sides: int) -> int:
        """A face 1..sides by rejection sampling (module doc); ``next64`` inlined."""
        limit = _LIMITS.get(sides)
        if limit is None:
            if sides < 1:
                raise ValueError(f"a die has at least one side, got {sides!r}")
            limit = _TWO64 - _TWO64 % sides
            if sides <= 1000:
                _LIMITS[sides] = limit
        inc = self.inc
        state = self.state
        while True:
            state = (state * _PCG_MULT + inc) & _M128
            x = ((state >> 64) ^ state) & _M64
            r = state >> 122
            x = ((x >> r) | (x << (64 - r))) & _M64
            if x < limit:
                self.state = state
                return x % sides + 1

    def getstate(self) -> tuple[int, int]:
        return (self.state, self.inc)

    def setstate(self, state: tuple[int, int]) -> None:
        self.state, self.inc = state

    def copy(self) -> PCG64:
        new = PCG64.__new__(PCG64)
        new.state = self.state
        new.inc = self.inc
        return new


class _MersenneV1:
    """Version 1: ``random.Random(seed).randint`` (module doc), kept for old saves."""

    __slots__ = ("rng",)

    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def face(self, sides: int) -> int:
        return self.rng.randint(1, sides)

    def getstate(self) -> Any:
        return self.rng.getstate()

    def setstate(self, state: Any) -> None:
        self.rng.setstate(state)

    def copy(self) -> _MersenneV1:
        new = _MersenneV1.__new__(_MersenneV1)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        return new


class Dice:
    """Seeded dice. The size of every die drawn is logged, so the generator's position
    serializes exactly as (seed, version, sizes drawn) and is restored by drawing them again.
    ``version``: the generator (module doc), ``DICE_VERSION`` for a new game."""

    def __init__(self, seed: int = 0, version: int = DICE_VERSION) -> None:
        self.seed = int(seed)
        self.version = check_dice_version(version)
        self._gen: PCG64 | _MersenneV1 = (PCG64.from_seed(self.seed) if self.version == 2
                                          else _MersenneV1(self.seed))
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
        return self._gen.face(sides)

    def d6(self) -> int:
        return self.die(6)

    def d10(self) -> int:
        """A ten-sided die reading 0-9 (Battle for Normandy's friendly-fire roll)."""
        return self.die(10) - 1

    def roll(self, n: int, sides: int = 6) -> list[int]:
        return [self.die(sides) for _ in range(n)]

    def two_d6(self) -> tuple[int, int]:
        return self.d6(), self.d6()

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle ``items`` in place: Fisher-Yates (Durstenfeld), from the last position down,
        each swapped with position ``die(i + 1) - 1``: every order equally likely, drawn from
        these dice only (M44 Game Set-up 10 and p.13 shuffle the command cards this way)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.die(i + 1) - 1
            items[i], items[j] = items[j], items[i]

    def getstate(self) -> Any:
        """The generator's position (not the log nor forced faces), for ``setstate``: a
        snapshot taken before an action that may be refused."""
        return self._gen.getstate()

    def setstate(self, state: Any) -> None:
        self._gen.setstate(state)

    def to_dict(self) -> dict:
        return {"seed": self.seed, "dice": self.version, "sides": list(self.sides_log)}

    @classmethod
    def from_dict(cls, data: dict) -> Dice:
        """Dice back from ``to_dict``; without ``"dice"`` the dict is of version 1 (written
        before versions were)."""
        dice = cls(seed=int(data["seed"]), version=data.get("dice", 1))
        for sides in data.get("sides", []):
            dice.die(int(sides))
        return dice

    def copy(self) -> Dice:
        """An independent copy at the same position (forced faces included); O(1) for the
        generator (version 2: two integers; version 1: the Mersenne Twister's 625 words)."""
        new = Dice.__new__(Dice)
        new.seed = self.seed
        new.version = self.version
        new._gen = self._gen.copy()
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
