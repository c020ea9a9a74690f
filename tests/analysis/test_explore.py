"""wargame.analysis.explore: the odds explorer's DataFrames agree with the odds module and
with the tables the engine plays."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd
import pytest

from wargame.analysis.explore import (
    EVENT_LABELS,
    air_points_table,
    air_support_curve,
    bombardment_grid,
    compare_games,
    crt_counts,
    crt_differences,
    crt_long,
    shift_table,
    vulnerability_table,
)
from wargame.analysis.odds import (
    EVENTS,
    air_points_to_next_column,
    bombardment_distribution,
    crt_table,
    expected_outcomes,
    odds_distribution,
)
from wargame.operational.tables import load_tables

GAMES = ("normandy", "dragoon")


@pytest.mark.parametrize("game", GAMES)
def test_crt_counts_rows_are_36_rolls_and_match_crt_table(game):
    counts = crt_counts(game)
    assert list(counts.index) == list(load_tables(game).crt_columns)
    assert (counts.sum(axis=1) == 36).all()
    exact = crt_table(game, exact=True)
    assert list(counts.columns) == list(exact.columns)
    for column in counts.index:
        for result in counts.columns:
            assert Fraction(int(counts.loc[column, result]), 36) == exact.loc[column, result]


@pytest.mark.parametrize("game", GAMES)
def test_crt_long_lists_only_possible_results(game):
    long = crt_long(game)
    assert (long["in_36"] > 0).all()
    assert long.groupby("column")["in_36"].sum().eq(36).all()
    assert long["p"].sum() == pytest.approx(len(load_tables(game).crt_columns))
    both = long[long["result"] == "DRB AVB"].iloc[0]
    assert (both["defender"], both["attacker"]) == ("DRB", "AVB")


def test_crt_counts_normandy_9_1_column():
    # CN CRT, column 9-1: DE AVI on 2-12 (2) and 3-11 (4); seeds README row bands
    row = crt_counts("normandy").loc["9-1"]
    assert row["DE AVI"] == 6
    assert row[row > 0].sum() == 36


@pytest.mark.parametrize("game", GAMES)
def test_shift_table_column_zero_is_expected_outcomes(game):
    table = shift_table(game, "defender_loss", exact=True)
    expected = expected_outcomes(game, exact=True)["defender_loss"]
    assert list(table[0]) == list(expected)
    assert list(table.columns) == list(range(-4, 5))


def test_shift_table_is_monotone_for_the_defender_leaving():
    table = shift_table("normandy", "defender_retreats")
    # more columns to the right never lowers the chance the defender leaves the hex
    assert (table.diff(axis=1).iloc[:, 1:] >= -1e-12).all().all()
    # a shift of +2 from 1-1 is the 3-1 column
    assert table.loc["1-1", 2] == pytest.approx(float(
        odds_distribution("normandy", 9, 3).events()["defender_retreats"]))


def test_shift_table_clamps_at_the_ends():
    table = shift_table("normandy", "attacker_loss")
    assert table.loc["1-3", -4] == table.loc["1-3", 0]
    assert table.loc["9-1", 4] == table.loc["9-1", 0]


def test_unknown_event_is_refused():
    with pytest.raises(ValueError, match="unknown event"):
        shift_table("normandy", "victory")
    with pytest.raises(ValueError, match="unknown event"):
        compare_games("victory")


def test_event_labels_cover_every_event():
    assert set(EVENT_LABELS) == set(EVENTS)


def test_compare_games_side_by_side():
    frame = compare_games("attacker_loss", exact=True)
    assert list(frame.columns) == ["normandy", "dragoon"]
    for game in GAMES:
        assert list(frame[game]) == list(expected_outcomes(game, exact=True)["attacker_loss"])
    # OD's 2-1 .. 5-1 cost the attacker less (seeds: OD CRT has AVI/ARI where CN has AVB/ARB)
    assert (frame.loc[["2-1", "3-1", "4-1", "5-1"], "dragoon"]
            < frame.loc[["2-1", "3-1", "4-1", "5-1"], "normandy"]).all()


def test_crt_differences_are_exactly_the_cells_that_differ():
    diff = crt_differences("normandy", "dragoon")
    cn, od = load_tables("normandy"), load_tables("dragoon")
    cells = sum(1 for band in cn.crt for i in range(len(cn.crt_columns))
                if cn.crt[band][i] != od.crt[band][i])
    assert len(diff) == cells > 0
    for _, row in diff.iterrows():
        i = cn.crt_columns.index(row["column"])
        assert cn.crt[row["roll"]][i] == row["normandy"] != row["dragoon"] == od.crt[row["roll"]][i]
    assert crt_differences("normandy", "normandy").empty


@pytest.mark.parametrize("game", GAMES)
def test_bombardment_grid_matches_bombardment_distribution(game):
    grid = bombardment_grid(game, range(1, 11), range(1, 7), shift=-1, exact=True)
    for s in grid.index:
        for v in grid.columns:
            b = bombardment_distribution(game, s, v, -1)
            assert grid.loc[s, v] == b.probability("DB") + b.probability("DE")
    columns = bombardment_grid(game, what="column")
    assert columns.loc[10, 6] == bombardment_distribution(game, 10, 6).column


def test_bombardment_grid_normandy_values():
    # CN bombardment table: 1-10 gives DB on 1/6; 41+ gives DB 5/6 and DE 1/6
    grid = bombardment_grid("normandy", [1, 10], [1, 5], exact=True)
    assert grid.loc[1, 1] == Fraction(1, 6)
    assert grid.loc[10, 5] == Fraction(1)
    assert bombardment_grid("normandy", [10], [5], what="eliminated", exact=True).loc[10, 5] \
        == Fraction(1, 6)
    with pytest.raises(ValueError, match="what must be"):
        bombardment_grid("normandy", what="everything")


def test_vulnerability_table():
    cn = vulnerability_table("normandy")
    assert tuple(cn.loc["armour", ["air", "artillery"]]) == (2, 1)
    assert tuple(cn.loc["infantry", ["air", "artillery"]]) == (1, 2)
    assert vulnerability_table("dragoon").loc["guerrilla", "air"] == 0  # blank in OD's table


@pytest.mark.parametrize("game", GAMES)
def test_air_points_table_agrees_with_air_points_to_next_column(game):
    table = air_points_table(game, range(1, 16), range(1, 8))
    assert str(table.dtypes.iloc[0]) == "Int64"
    for a in table.index:
        for d in table.columns:
            expected = air_points_to_next_column(game, a, d)
            value = table.loc[a, d]
            assert (pd.isna(value) and expected is None) or value == expected


def test_air_points_table_cn_examples():
    table = air_points_table("normandy", [6, 9], [4, 1])
    assert table.loc[6, 4] == 2  # 6-4 is 1-1 (1.5 rounds down); 8-4 is 2-1
    assert pd.isna(table.loc[9, 1])  # 9-1 is the last column


def test_air_support_curve():
    curve = air_support_curve("normandy", 6, 4, shifts=-2)
    assert list(curve.index) == list(range(0, 11))  # CN 6.0: at most 10 points in a combat
    assert list(curve["attack"]) == list(range(6, 17))
    assert curve.loc[0, "ratio"] == "1-1" and curve.loc[0, "column"] == "1-3"
    assert curve.loc[2, "ratio"] == "2-1" and curve.loc[2, "column"] == "1-2"
    r = odds_distribution("normandy", 16, 4, [-2])
    assert curve.loc[10, "defender_retreats"] == pytest.approx(
        float(r.events()["defender_retreats"]))
    exact = air_support_curve("dragoon", 3, 3, shifts=[1, -1], max_air=3, exact=True)
    assert len(exact) == 4 and isinstance(exact.loc[3, "defender_loss"], Fraction)
