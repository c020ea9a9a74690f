"""Exact odds of the CRT family (CN, OD) as plain Python values and pandas DataFrames.

Every probability is exact: a 2d6 roll is one chance node, the CRT rows pair sums of equal
probability (seeds README, "Reading the combat results tables"), so every outcome is a whole
number of 36ths. The pure-Python part (``column_outcomes``, ``full_odds_rows``) is cached per
game; the DataFrame builders on top of it are thin.

Conventions (docs/odds-and-cli.md):

- a shift is ``(reason, columns)``; positive moves to the right (favours the attacker), negative
  to the left (favours the defender; terrain, CN/OD 5.1.2);
- the ratio is found first (CN/OD 5.1.1), ratios beyond the table use its end column, then the
  net shift is applied and clamped to the table's ends (``Tables.shifted_column``);
- bombardment (CN/OD 6.2, 8.0): value = strength x sum of vulnerabilities, terrain moves the
  column to the left, clamped to the table's first and last columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from wargame.dice import ROW_BANDS, two_d6_distribution
from wargame.operational.tables import (
    Tables,
    load_tables,
    odds_ratio,
    ratio_column,
    ratio_label,
    split_result,
)

if TYPE_CHECKING:  # pandas is imported lazily: the pure part must not pay for it
    import pandas as pd

__all__ = [
    "Shift",
    "OddsResult",
    "BombardmentResult",
    "OUTCOME_EVENTS",
    "SHIFT_RANGE",
    "band_weights",
    "column_outcomes",
    "odds_distribution",
    "crt_table",
    "full_odds_rows",
    "full_odds_table",
    "bombardment_distribution",
    "bombardment_table",
    "result_events",
    "event_probabilities",
    "expected_outcomes",
    "air_points_to_next_column",
]

SHIFT_RANGE = range(-4, 5)
"""Net shifts covered by ``full_odds_table``: four columns either way."""

Shift = tuple[str, int]

# What each code of CN/OD 5.1.6 does, as events a chart can count. A cell's events are the
# union of its codes' events. "defender_retreats" means the defender leaves the hex: DE (the
# others must retreat), DRB, DRI and EMP (the remaining pieces must retreat).
OUTCOME_EVENTS: dict[str, frozenset[str]] = {
    "DE": frozenset({"defender_retreats", "defender_loss", "defender_unit_eliminated"}),
    "DRB": frozenset({"defender_retreats", "defender_loss"}),
    "DRI": frozenset({"defender_retreats"}),
    "DVB": frozenset({"attacker_retreats", "defender_loss"}),
    "DVI": frozenset({"attacker_retreats"}),
    "AVI": frozenset(),
    "AVB": frozenset({"attacker_loss"}),
    "ARI": frozenset({"attacker_retreats"}),
    "ARB": frozenset({"attacker_retreats", "attacker_loss"}),
    "AE": frozenset({"attacker_retreats", "attacker_loss", "attacker_unit_eliminated"}),
    "EMP": frozenset(
        {
            "exchange",
            "defender_retreats",
            "defender_loss",
            "defender_unit_eliminated",
            "attacker_loss",
            "attacker_unit_eliminated",
        }
    ),
    "IMP": frozenset({"impasse"}),
}

EVENTS: tuple[str, ...] = (
    "defender_retreats",
    "defender_loss",
    "defender_unit_eliminated",
    "attacker_retreats",
    "attacker_loss",
    "attacker_unit_eliminated",
    "exchange",
    "impasse",
)


# Pure part -------------------------------------------------------------------------------
@cache
def band_weights() -> tuple[tuple[str, int], ...]:
    """Each CRT row band with its weight in 36ths: (("2-12", 2), ("3-11", 4), ... ("7", 6))."""
    dist = two_d6_distribution()
    out = []
    for band, totals in ROW_BANDS:
        p = sum((dist[t] for t in totals), Fraction(0))
        out.append((band, int(p * 36)))
    return tuple(out)


def _distribution(rows: dict[str, tuple[str, ...]], index: int) -> tuple[tuple[str, int], ...]:
    """(result, 36ths) in the order results first appear going down the column."""
    counts: dict[str, int] = {}
    for band, weight in band_weights():
        result = rows[band][index]
        counts[result] = counts.get(result, 0) + weight
    return tuple(counts.items())


@cache
def _crt_counts(game: str) -> tuple[tuple[tuple[str, int], ...], ...]:
    tables = load_tables(game)
    return tuple(_distribution(tables.crt, i) for i in range(len(tables.crt_columns)))


@cache
def _bombardment_counts(game: str) -> tuple[tuple[tuple[str, int], ...], ...]:
    tables = load_tables(game)
    return tuple(
        _distribution(tables.bombardment, i) for i in range(len(tables.bombardment_columns))
    )


def column_outcomes(game: str, column: int | str) -> tuple[tuple[str, Fraction], ...]:
    """Exact distribution of one CRT column (index or label): ((result, probability), ...)."""
    tables = load_tables(game)
    index = tables.crt_columns.index(column) if isinstance(column, str) else column
    return tuple((r, Fraction(n, 36)) for r, n in _crt_counts(game)[index])


def _results_in_order(counts: Iterable[tuple[tuple[str, int], ...]]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for column in counts:
        for result, _ in column:
            seen.setdefault(result, None)
    return tuple(seen)


def _compute_full_odds_rows(game: str) -> tuple[tuple[str, int, str, tuple[int, ...]], ...]:
    """Uncached body of ``full_odds_rows`` (the benchmark times it)."""
    tables = load_tables(game)
    counts = tuple(_distribution(tables.crt, i) for i in range(len(tables.crt_columns)))
    results = _results_in_order(counts)
    position = {r: i for i, r in enumerate(results)}
    dense = []
    for column in counts:
        row = [0] * len(results)
        for result, n in column:
            row[position[result]] = n
        dense.append(tuple(row))
    out = []
    for base, label in enumerate(tables.crt_columns):
        for shift in SHIFT_RANGE:
            final = tables.shifted_column(base, shift)
            out.append((label, shift, tables.crt_columns[final], dense[final]))
    return tuple(out)


@cache
def full_odds_rows(game: str) -> tuple[tuple[str, int, str, tuple[int, ...]], ...]:
    """Every base column x net shift -4..+4: (base, shift, column, 36ths per result).

    The results are in the order of ``crt_results(game)``.
    """
    return _compute_full_odds_rows(game)


@cache
def crt_results(game: str) -> tuple[str, ...]:
    """Every result text of the CRT, in order of first appearance, left to right."""
    return _results_in_order(_crt_counts(game))


def _normalise_shifts(shifts: Iterable[Shift | int] | None) -> tuple[Shift, ...]:
    out: list[Shift] = []
    for item in shifts or ():
        if isinstance(item, int) and not isinstance(item, bool):
            out.append(("shift", item))
            continue
        reason, columns = item  # type: ignore[misc]  # a (reason, columns) pair from the caller; checked on the next lines
        if isinstance(columns, bool) or not isinstance(columns, int):
            raise TypeError(f"a shift is (reason, whole number of columns), got {item!r}")
        out.append((str(reason), columns))
    return tuple(out)


def _check_strength(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, got {value!r}")
    if value < 0:
        raise ValueError(f"{name} cannot be negative, got {value}")


# Results ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class OddsResult:
    """The exact outcome distribution of one attack (CN/OD 5.1)."""

    game: str
    attack: int
    defence: int
    ratio: str  # CN/OD 5.1.1 ratio before shifts, e.g. "2-1" (may lie beyond the table: "12-1")
    base_column: str  # the table column of that ratio (clamped to the table)
    column: str  # the column after the net shift (clamped)
    shifts: tuple[Shift, ...]
    outcomes: tuple[tuple[str, Fraction], ...]

    @property
    def net_shift(self) -> int:
        return sum(n for _, n in self.shifts)

    @property
    def clamped(self) -> bool:
        """True when the ratio or the shifts ran past an end of the table."""
        tables = load_tables(self.game)
        base = tables.crt_columns.index(self.base_column)
        wanted = base + self.net_shift
        return self.ratio != self.base_column or not 0 <= wanted < len(tables.crt_columns)

    def probability(self, result: str) -> Fraction:
        return sum((p for r, p in self.outcomes if r == result), Fraction(0))

    def events(self) -> dict[str, Fraction]:
        """Probability of each event of ``OUTCOME_EVENTS`` (defender retreats, ...)."""
        return event_probabilities(self.outcomes)

    def to_frame(self) -> pd.DataFrame:
        """One row per result: result, defender, attacker, in_36, probability (exact), p."""
        import pandas as pd

        rows = []
        for result, p in self.outcomes:
            defender, attacker = split_result(result)
            rows.append(
                {
                    "result": result,
                    "defender": defender,
                    "attacker": attacker,
                    "in_36": int(p * 36),
                    "probability": p,
                    "p": float(p),
                }
            )
        frame = pd.DataFrame(
            rows, columns=["result", "defender", "attacker", "in_36", "probability", "p"]
        )
        frame.attrs.update(
            game=self.game, ratio=self.ratio, column=self.column, shifts=list(self.shifts)
        )
        return frame

    def to_json_dict(self) -> dict:
        return {
            "game": self.game,
            "attack": self.attack,
            "defense": self.defence,
            "ratio": self.ratio,
            "base_column": self.base_column,
            "column": self.column,
            "shifts": [{"reason": r, "columns": n} for r, n in self.shifts],
            "net_shift": self.net_shift,
            "clamped": self.clamped,
            "outcomes": [
                {"result": r, "probability": float(p), "in_36": int(p * 36)}
                for r, p in self.outcomes
            ],
        }


@dataclass(frozen=True)
class BombardmentResult:
    """The exact outcome distribution of an air or artillery bombardment (CN/OD 6.2, 8.0)."""

    game: str
    strength: int
    vulnerability: int
    shift: int
    value: int
    base_column: str
    column: str
    outcomes: tuple[tuple[str, Fraction], ...]

    def probability(self, result: str) -> Fraction:
        return sum((p for r, p in self.outcomes if r == result), Fraction(0))

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(
            [
                {"result": r, "in_36": int(p * 36), "probability": p, "p": float(p)}
                for r, p in self.outcomes
            ],
            columns=["result", "in_36", "probability", "p"],
        )

    def to_json_dict(self) -> dict:
        return {
            "game": self.game,
            "strength": self.strength,
            "vulnerability": self.vulnerability,
            "value": self.value,
            "base_column": self.base_column,
            "shift": self.shift,
            "column": self.column,
            "outcomes": [
                {"result": r, "probability": float(p), "in_36": int(p * 36)}
                for r, p in self.outcomes
            ],
        }


# Public functions ------------------------------------------------------------------------
def odds_distribution(
    game: str, attack: int, defence: int, shifts: Iterable[Shift | int] | None = None
) -> OddsResult:
    """Exact distribution of results for ``attack`` against ``defence`` after ``shifts``.

    >>> r = odds_distribution("normandy", 11, 4, [("city", -2)])
    >>> r.ratio, r.column
    ('2-1', '1-2')
    """
    _check_strength("attack", attack)
    _check_strength("defence", defence)
    tables = load_tables(game)
    norm = _normalise_shifts(shifts)
    ratio = odds_ratio(attack, defence)
    base = ratio_column(ratio, tables.crt_columns)
    final = tables.shifted_column(base, sum(n for _, n in norm))
    return OddsResult(
        game=game,
        attack=attack,
        defence=defence,
        ratio=ratio_label(ratio),
        base_column=tables.crt_columns[base],
        column=tables.crt_columns[final],
        shifts=norm,
        outcomes=column_outcomes(game, final),
    )


def crt_table(game: str, exact: bool = True) -> pd.DataFrame:
    """Rows = CRT columns ("1-3" ... "9-1"), columns = result texts, values = probabilities.

    ``exact=True`` gives ``Fraction`` values (object dtype), otherwise floats. Each row sums to 1.
    """
    import pandas as pd

    tables = load_tables(game)
    results = crt_results(game)
    data = []
    for column in _crt_counts(game):
        counts = dict(column)
        data.append([_prob(counts.get(r, 0), exact) for r in results])
    frame = pd.DataFrame(
        data,
        index=pd.Index(tables.crt_columns, name="column"),
        columns=pd.Index(results, name="result"),
    )
    return frame if exact else frame.astype(float)


def _prob(n: int, exact: bool) -> Fraction | float:
    return Fraction(n, 36) if exact else n / 36


def full_odds_table(game: str, exact: bool = False) -> pd.DataFrame:
    """Every base column x every net shift -4..+4 (clamped) with the result probabilities.

    Index: (base_column, shift, column); columns: the CRT's result texts. Floats by default,
    ``Fraction`` values with ``exact=True``.
    """
    import numpy as np
    import pandas as pd

    bases, shifts, columns, counts = zip(*full_odds_rows(game), strict=True)
    index = pd.MultiIndex.from_arrays(
        [bases, shifts, columns], names=["base_column", "shift", "column"]
    )
    header = pd.Index(crt_results(game), name="result")
    if exact:
        data = [[Fraction(n, 36) for n in row] for row in counts]
        return pd.DataFrame(data, index=index, columns=header)
    return pd.DataFrame(np.array(counts, dtype=float) / 36, index=index, columns=header)


def _bombardment_index(tables: Tables, value: int, shift: int) -> tuple[int, int]:
    base = tables.bombardment_column(value)
    if base is None:
        raise ValueError(f"a bombardment value must be at least 1, got {value}")
    last = len(tables.bombardment_columns) - 1
    return base, max(0, min(last, base + shift))


def bombardment_distribution(
    game: str, strength: int, vulnerability: int, shift: int = 0
) -> BombardmentResult:
    """CN/OD 6.2 and 8.0: value = strength x vulnerability, terrain ``shift`` (negative = left).

    ``strength`` is the air points or the summed artillery attack; ``vulnerability`` is the sum
    of the target units' indices. A value below 1 (e.g. guerrillas under air attack, OD
    vulnerability blank) raises ``ValueError``: there is no column for it.
    """
    _check_strength("strength", strength)
    _check_strength("vulnerability", vulnerability)
    if isinstance(shift, bool) or not isinstance(shift, int):
        raise TypeError(f"shift must be a whole number, got {shift!r}")
    tables = load_tables(game)
    value = strength * vulnerability
    base, final = _bombardment_index(tables, value, shift)
    counts = _bombardment_counts(game)[final]
    return BombardmentResult(
        game=game,
        strength=strength,
        vulnerability=vulnerability,
        shift=shift,
        value=value,
        base_column=tables.bombardment_columns[base].label,
        column=tables.bombardment_columns[final].label,
        outcomes=tuple((r, Fraction(n, 36)) for r, n in counts),
    )


def bombardment_table(game: str, exact: bool = True) -> pd.DataFrame:
    """Rows = bombardment columns ("1-10" ...), columns = results (DI, DB, DE), probabilities."""
    import pandas as pd

    tables = load_tables(game)
    counts = _bombardment_counts(game)
    results = _results_in_order(counts)
    data = [[_prob(dict(c).get(r, 0), exact) for r in results] for c in counts]
    return pd.DataFrame(
        data,
        index=pd.Index([c.label for c in tables.bombardment_columns], name="column"),
        columns=pd.Index(results, name="result"),
    )


def result_events(result: str) -> frozenset[str]:
    """The events (``OUTCOME_EVENTS``) of one cell text such as ``"DRB AVB"``."""
    events: set[str] = set()
    for code in result.split():
        try:
            events |= OUTCOME_EVENTS[code]
        except KeyError:
            raise ValueError(f"unknown result code {code!r} in {result!r}") from None
    return frozenset(events)


def event_probabilities(outcomes: Iterable[tuple[str, Fraction]]) -> dict[str, Fraction]:
    """Exact probability of every event in ``EVENTS`` for a distribution of results."""
    out = dict.fromkeys(EVENTS, Fraction(0))
    for result, p in outcomes:
        for event in result_events(result):
            out[event] += p
    return out


def expected_outcomes(
    game: str, shifts: Sequence[Shift | int] | None = None, exact: bool = False
) -> pd.DataFrame:
    """Per base CRT column (after ``shifts``): probability the defender retreats, takes a loss,
    the attacker retreats, takes a loss, EMP, IMP ... (columns: ``EVENTS``)."""
    import pandas as pd

    tables = load_tables(game)
    net = sum(n for _, n in _normalise_shifts(shifts))
    data = []
    for base in range(len(tables.crt_columns)):
        final = tables.shifted_column(base, net)
        probs = event_probabilities(column_outcomes(game, final))
        data.append([p if exact else float(p) for p in probs.values()])
    return pd.DataFrame(
        data,
        index=pd.Index(tables.crt_columns, name="column"),
        columns=pd.Index(EVENTS, name="event"),
    )


def air_points_to_next_column(game: str, attack: int, defence: int) -> int | None:
    """Smallest number of points added to ``attack`` that reaches the next column to the right
    (CN/OD 6.0: air points count in the attack's value). None when already at the last column.

    Ratios only improve as the attack grows, so a binary search finds the least addition.
    """
    _check_strength("attack", attack)
    _check_strength("defence", defence)
    columns = load_tables(game).crt_columns
    last = len(columns) - 1

    def column(a: int) -> int:
        return ratio_column(odds_ratio(a, defence), columns)

    current = column(attack)
    if current >= last:
        return None
    low, high = attack + 1, max(attack + 1, 10 * max(defence, 1))  # that column is the last
    while low < high:
        mid = (low + high) // 2
        if column(mid) > current:
            high = mid
        else:
            low = mid + 1
    return low - attack
