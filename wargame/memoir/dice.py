"""Battle dice: faces, hit rules and exact probabilities (pure Python, fractions).

M44 Components / Resolve Battle: a battle die has six faces, two infantry, one armour, one
grenade, one flag and one star. A face hits when it shows the target's unit symbol or a grenade
(artillery has no symbol, so only grenades hit it). Stars hit only when a card says so (Air
Power); flags force retreats.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import comb

__all__ = [
    "FACES",
    "INFANTRY",
    "ARMOR",
    "GRENADE",
    "FLAG",
    "STAR",
    "face_of",
    "roll_faces",
    "is_hit",
    "hit_probability",
    "hits_distribution",
    "flags_distribution",
    "outcome_distribution",
]

INFANTRY, ARMOR, GRENADE, FLAG, STAR = "infantry", "armor", "grenade", "flag", "star"
# d6 value -> face. Any fixed mapping with the right multiplicities is fair.
FACES: dict[int, str] = {1: INFANTRY, 2: INFANTRY, 3: ARMOR, 4: GRENADE, 5: FLAG, 6: STAR}
UNIT_SYMBOL = {"inf": INFANTRY, "tank": ARMOR, "gun": None}


def face_of(value: int) -> str:
    return FACES[value]


def roll_faces(dice, n: int) -> list[str]:
    """Roll ``n`` battle dice with the game's seeded ``wargame.dice.Dice``."""
    return [FACES[dice.d6()] for _ in range(n)]


def is_hit(face: str, target_kind: str, stars_hit: bool = False, symbols_hit: bool = True) -> bool:
    if face == GRENADE:
        return True
    if face == STAR:
        return stars_hit
    return symbols_hit and face == UNIT_SYMBOL[target_kind]


def hit_probability(target_kind: str, stars_hit: bool = False) -> Fraction:
    faces = [f for f in FACES.values() if is_hit(f, target_kind, stars_hit)]
    return Fraction(len(faces), 6)


def hits_distribution(n: int, target_kind: str, stars_hit: bool = False) -> dict[int, Fraction]:
    """Exact P(k hits) for ``n`` dice against ``target_kind`` ("inf", "tank" or "gun")."""
    if n < 0:
        raise ValueError("number of dice must be >= 0")
    p = hit_probability(target_kind, stars_hit)
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def flags_distribution(n: int) -> dict[int, Fraction]:
    p = Fraction(1, 6)
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def outcome_distribution(
    n: int, target_kind: str, stars_hit: bool = False
) -> dict[tuple[int, int], Fraction]:
    """Exact joint P(hits, flags) for ``n`` dice (hits and flags are disjoint faces)."""
    p_hit = hit_probability(target_kind, stars_hit)
    p_flag = Fraction(1, 6)
    p_none = 1 - p_hit - p_flag
    out: dict[tuple[int, int], Fraction] = {}
    for h in range(n + 1):
        for f in range(n - h + 1):
            ways = comb(n, h) * comb(n - h, f)
            out[(h, f)] = ways * p_hit**h * p_flag**f * p_none ** (n - h - f)
    return out


def expected_hits(n: int, target_kind: str, stars_hit: bool = False) -> Fraction:
    return n * hit_probability(target_kind, stars_hit)


def count_hits(faces: Iterable[str], target_kind: str, stars_hit: bool = False,
               symbols_hit: bool = True) -> int:
    return sum(1 for f in faces if is_hit(f, target_kind, stars_hit, symbols_hit))
