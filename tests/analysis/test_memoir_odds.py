"""wargame.analysis.memoir: battle dice after range and terrain, exact distributions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from wargame.analysis.memoir import battle_odds, battle_table, dice_odds


def test_distribution_sums_to_one_and_expected_value():
    for n in range(0, 7):
        for target, p in (("infantry", Fraction(1, 2)), ("armor", Fraction(1, 3)),
                          ("artillery", Fraction(1, 6))):
            o = dice_odds(n, target)
            assert sum(o.hits) == 1
            assert o.expected_hits == n * p  # M44 p.12: symbol or grenade hits


def test_stars_hit_with_air_power():
    # M44 Air Power: stars hit too -> infantry 4/6, armour 3/6
    assert dice_odds(1, "infantry", stars_hit=True).hits[1] == Fraction(2, 3)
    assert dice_odds(1, "armor", stars_hit=True).hits[1] == Fraction(1, 2)


@pytest.mark.parametrize("attacker,target,distance,terrain,attacker_terrain,dice", [
    ("infantry", "infantry", 1, "plain", "plain", 3),     # M44 p.10 infantry 3-2-1
    ("infantry", "infantry", 3, "plain", "plain", 1),
    ("infantry", "infantry", 4, "plain", "plain", 0),     # out of range
    ("armor", "infantry", 3, "woods", "plain", 1),        # woods: armour -2
    ("armor", "infantry", 2, "hills", "plain", 2),        # hills: -1
    ("infantry", "infantry", 1, "hills", "hills", 3),     # same height: no reduction
    ("artillery", "infantry", 6, "woods", "plain", 1),    # artillery ignores terrain
    ("armor", "infantry", 1, "bunker", "plain", 1),       # bunker: armour -2
    ("infantry", "infantry", 1, "sandbags", "plain", 2),  # sandbags: -1
    ("armor", "armor", 1, "plain", "buildings", 1),       # armour out of a village -2
])
def test_battle_dice(attacker, target, distance, terrain, attacker_terrain, dice):
    b = battle_odds(attacker, target, distance, terrain, attacker_terrain)
    assert b.dice == dice
    if dice:
        assert len(b.odds.hits) == dice + 1


def test_eliminate_full_strength_by_default():
    b = battle_odds("armor", "artillery", 1)  # 3 dice at 2 artillery figures, p = 1/6
    p = Fraction(1, 6)
    assert b.odds.figures == 2
    assert b.odds.eliminate == 3 * p**2 * (1 - p) + p**3


def test_battle_table_frame():
    df = battle_table("infantry", "armor")
    assert set(df["distance"]) == {1, 2, 3}
    row = df[(df.distance == 1) & (df.terrain == "woods")].iloc[0]
    assert row.dice == 2 and row.p_hit == pytest.approx(1 - (2 / 3) ** 2)


def test_bad_input():
    with pytest.raises(ValueError):
        dice_odds(-1, "infantry")
    with pytest.raises(ValueError):
        dice_odds(2, "cavalry")
