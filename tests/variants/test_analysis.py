"""wargame/analysis/variants.py: exact distributions as DataFrames, checked by seeded dice."""

from fractions import Fraction

from wargame.analysis.variants import (
    comparison_with_cn_and_history,
    dd_distribution,
    mulberry_distribution,
    pegasus_distribution,
    withdrawal_turn_distribution,
)
from wargame.dice import Dice
from wargame.operational.variants import DD_VALUES, dd_landing, pegasus_landing


def _close(f, p, n):
    return abs(f - p) <= 4.5 * (p * (1 - p) / n) ** 0.5 + 1e-9


def test_withdrawal_turns_are_9_10_11_and_never_cn_turn_13():
    t = withdrawal_turn_distribution()
    assert list(t.cn_turn) == [9, 10, 11]
    assert t.probability.sum() == 1
    assert t.probability.iloc[0] == Fraction(1, 6)


def test_dd_and_pegasus_probabilities_against_seeded_dice():
    dd = dd_distribution().set_index("beach")
    assert dd.loc["Omaha", "probability"] == Fraction(4, 10)   # BFN's example value 3 on a 0-9 d10
    dice, n = Dice(8), 20000
    for beach in DD_VALUES:
        hits = sum(dd_landing(beach, dice)[0] for _ in range(n))
        assert _close(hits / n, dd.loc[beach, "p"], n), beach
    peg = pegasus_distribution().set_index("rule")
    coup = sum(pegasus_landing(dice)[0] for _ in range(n)) / n
    assert _close(coup, 4 / 6, n)
    assert peg.loc["BFN 19.8 + CN 4.2.3", "probability"] == Fraction(4, 6) + Fraction(2, 6) * Fraction(1, 2)
    assert peg.loc["CN 4.2.3", "probability"] == Fraction(1, 2)


def test_mulberry_distribution_frame():
    with_storm, no_storm = mulberry_distribution(), mulberry_distribution(storm=False)
    assert list(with_storm.cn_turn) == list(range(17))
    assert with_storm.probability.sum() == 1 == no_storm.probability.sum()
    # before the storm the two agree; after it, fewer harbours work
    assert (with_storm.p_working[:5] == no_storm.p_working[:5]).all()
    assert with_storm.p_working[5] < no_storm.p_working[5]
    late = mulberry_distribution(captured_turn=3)
    assert late.p_working[4] == 0 and late.p_working[16] > 0.99


def test_comparison_table():
    table = comparison_with_cn_and_history()
    assert set(table.columns) == {"event", "bfn", "cn", "history"}
    assert len(table) == 3
    assert "turn 13" in table.cn[1] and "turn 4" in table.cn[2]
