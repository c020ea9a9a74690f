"""Memoir '44 battle odds: exact distributions of hits and flags, and whole battles.

``dice_odds(n, target)`` is the distribution of one roll of ``n`` battle dice against a target
type (M44 p.12 Resolving Combat: a die hits when it shows the target's symbol or a grenade;
stars hit only with Air Power). ``battle_odds(attacker, target, distance, terrain)`` first works
out how many dice the attacker rolls (M44 p.10 Combat range, Appendix 2 terrain: best
protection only, never cumulative) with the engine's own rule functions, then gives the same
distributions. ``battle_table`` lays every range x terrain out as a pandas DataFrame.

Fractions are exact; ``to_json_dict`` gives floats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from wargame.memoir import rules
from wargame.memoir.board import AXIS, BoardHex, m44_to_hex
from wargame.memoir.dice import flags_distribution, hits_distribution, outcome_distribution
from wargame.memoir.scenario import custom_scenario

__all__ = [
    "TARGETS",
    "DiceOdds",
    "BattleOdds",
    "dice_odds",
    "battle_odds",
    "battle_table",
    "target_kind",
]

# user-facing name -> engine unit kind
TARGETS = {"infantry": "inf", "armor": "tank", "armour": "tank", "artillery": "gun"}
KIND_NAMES = {"inf": "infantry", "tank": "armor", "gun": "artillery"}
# Appendix 2 terrains a target may stand on (plus bunker/sandbags as fortifications).
TERRAINS = ("plain", "woods", "hedgerow", "buildings", "hills", "bunker", "sandbags", "beach")


def target_kind(name: str) -> str:
    """``infantry``/``armor``/``artillery`` (or the engine's inf/tank/gun) -> engine kind."""
    if name in KIND_NAMES:
        return name
    try:
        return TARGETS[name.lower()]
    except KeyError:
        raise ValueError(
            f"unknown target {name!r}: choose infantry, armor or artillery") from None


@dataclass(frozen=True)
class DiceOdds:
    """Exact results of rolling ``dice`` battle dice at one target type."""

    dice: int
    target: str  # infantry, armor, artillery
    hits: tuple[Fraction, ...]  # P(exactly k hits), k = 0..dice
    flags: tuple[Fraction, ...]  # P(exactly k flags)
    at_least_one_flag: Fraction
    expected_hits: Fraction
    figures: int | None = None
    eliminate: Fraction | None = None  # P(hits >= figures)
    # P(the unit is eliminated or forced off its hex): hits >= figures, or any flag
    # (a unit that cannot retreat loses figures instead; this counts a flag as "moved or hurt").
    eliminate_or_flag: Fraction | None = None
    stars_hit: bool = False

    def to_json_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": "memoir",  # game.kind (issue #27: one id)
            "dice": self.dice,
            "target": self.target,
            "stars_hit": self.stars_hit,
            "hits": [float(p) for p in self.hits],
            "hits_exact": [str(p) for p in self.hits],
            "expected_hits": float(self.expected_hits),
            "flags": [float(p) for p in self.flags],
            "at_least_one_flag": float(self.at_least_one_flag),
        }
        if self.figures is not None:
            out["figures"] = self.figures
            out["eliminate"] = float(self.eliminate)
            out["eliminate_exact"] = str(self.eliminate)
            out["eliminate_or_flag"] = float(self.eliminate_or_flag)
        return out


def dice_odds(dice: int, target: str, figures: int | None = None,
              stars_hit: bool = False) -> DiceOdds:
    """Exact distribution of hits (and flags) for ``dice`` dice at ``target``.

    ``figures`` adds P(at least that many hits), i.e. the chance to eliminate a unit of that
    many figures in one roll (M44 p.12: extra hits are lost).
    """
    if dice < 0:
        raise ValueError("number of dice must be >= 0")
    if figures is not None and figures < 1:
        raise ValueError("figures must be >= 1")
    kind = target_kind(target)
    dist = hits_distribution(dice, kind, stars_hit)
    hits = tuple(dist[k] for k in range(dice + 1))
    fl = flags_distribution(dice)
    flags = tuple(fl[k] for k in range(dice + 1))
    elim = elim_or_flag = None
    if figures is not None:
        elim = sum((p for k, p in enumerate(hits) if k >= figures), Fraction(0))
        joint = outcome_distribution(dice, kind, stars_hit)
        elim_or_flag = sum((p for (h, f), p in joint.items() if h >= figures or f > 0),
                           Fraction(0))
    return DiceOdds(
        dice=dice, target=KIND_NAMES[kind], hits=hits, flags=flags,
        at_least_one_flag=1 - flags[0], expected_hits=sum(k * p for k, p in enumerate(hits)),
        figures=figures, eliminate=elim, eliminate_or_flag=elim_or_flag, stars_hit=stars_hit,
    )


@dataclass(frozen=True)
class BattleOdds:
    """One battle: how the dice were counted and what they do."""

    attacker: str
    target: str
    distance: int
    terrain: str
    base_dice: int
    steps: tuple[tuple[str, int], ...] = field(default_factory=tuple)  # (reason, +/- dice)
    dice: int = 0
    odds: DiceOdds | None = None

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker, "target": self.target, "distance": self.distance,
            "terrain": self.terrain, "base_dice": self.base_dice,
            "steps": [{"reason": r, "dice": n} for r, n in self.steps], "dice": self.dice,
            "odds": None if self.odds is None else self.odds.to_json_dict(),
        }


def _terrain_case(terrain: str, attacker_terrain: str):
    """A two-hex position to ask the engine's rule functions about (target at (0,0))."""
    target_hex, attacker_hex = (0, 0), (0, 2)
    bh = {
        "bunker": BoardHex(terrain="plain", bunker=True),
        "sandbags": BoardHex(terrain="plain"),
    }.get(terrain, BoardHex(terrain=terrain))
    sc = custom_scenario(
        {target_hex: bh, attacker_hex: BoardHex(terrain=attacker_terrain)},
        special={"bunker_owner": AXIS},
    )
    sand = {m44_to_hex(*target_hex)} if terrain == "sandbags" else set()
    t = rules.Terrainish(sc, {}, sand, set())
    return t, m44_to_hex(*target_hex), m44_to_hex(*attacker_hex)


def battle_odds(attacker: str, target: str, distance: int, terrain: str = "plain",
                attacker_terrain: str = "plain", bonus: int = 0,
                figures: int | None = None) -> BattleOdds:
    """Dice after terrain for ``attacker`` battling ``target`` at ``distance`` hexes, and the
    exact distributions. ``terrain`` is the target's hex (woods, hedgerow, buildings, hills,
    bunker, sandbags ...); ``attacker_terrain`` matters for hills (same height) and armour in a
    village; ``bonus`` is a card's extra dice (Armor Assault, Firefight ...). ``figures``
    defaults to the target type's full strength (M44 Game Set-up: 4/3/2)."""
    a_kind, t_kind = target_kind(attacker), target_kind(target)
    base = rules.base_dice(a_kind, distance)
    steps: list[tuple[str, int]] = []
    if base == 0:
        return BattleOdds(KIND_NAMES[a_kind], KIND_NAMES[t_kind], distance, terrain, 0,
                          (("out of range", 0),), 0, None)
    t, th, ah = _terrain_case(terrain, attacker_terrain)
    if bonus:
        steps.append(("card bonus", bonus))
    prot = rules.protection(t, th, AXIS, a_kind, ah)
    if prot:
        steps.append((f"target in {terrain} (best protection only)", -prot))
    pen = rules.attacker_penalty(t, a_kind, ah)
    if pen:
        steps.append((f"{KIND_NAMES[a_kind]} battling out of {attacker_terrain}", -pen))
    n = max(0, base + sum(d for _, d in steps))
    if figures is None:
        figures = {"inf": 4, "tank": 3, "gun": 2}[t_kind]
    return BattleOdds(KIND_NAMES[a_kind], KIND_NAMES[t_kind], distance, terrain, base,
                      tuple(steps), n, dice_odds(n, t_kind, figures))


def battle_table(attacker: str, target: str, terrains: tuple[str, ...] = TERRAINS):
    """pandas DataFrame: one row per (distance, terrain) with dice, expected hits,
    P(at least one hit), P(eliminate a full-strength unit) and P(at least one flag)."""
    import pandas as pd

    a_kind = target_kind(attacker)
    rows = []
    for distance in range(1, len(rules.RANGE[a_kind])):
        for terrain in terrains:
            b = battle_odds(attacker, target, distance, terrain)
            o = b.odds
            rows.append({
                "distance": distance, "terrain": terrain, "dice": b.dice,
                "expected_hits": float(o.expected_hits) if o else 0.0,
                "p_hit": float(1 - o.hits[0]) if o else 0.0,
                "p_eliminate": float(o.eliminate) if o else 0.0,
                "p_flag": float(o.at_least_one_flag) if o else 0.0,
            })
    return pd.DataFrame(rows)
