"""Exploring the CRT family's tables as pandas DataFrames (the odds explorer notebook).

Everything here is built on ``wargame.analysis.odds`` (exact 36ths of a 2d6 roll) and the
game's ``Tables``: no number is typed in by hand, so the notebooks show what the engine plays.

- ``crt_counts`` / ``crt_long``: the CRT as whole 36ths, wide (heatmaps) or long (charts);
- ``shift_table``: probability of one event for every base column x net shift (CN/OD 5.1.2);
- ``compare_games`` / ``crt_differences``: Normandy's and Dragoon's tables side by side;
- ``bombardment_grid`` / ``vulnerability_table``: air and artillery bombardment (CN/OD 6.2,
  8.0), value = strength x summed vulnerability;
- ``air_points_table`` / ``air_support_curve``: how many air points reach the next column
  (CN/OD 6.0: air points add to the attack, 1-10 in a ground combat).

Floats by default; ``exact=True`` gives ``Fraction`` values where a function has it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from wargame.analysis.odds import (
    EVENTS,
    SHIFT_RANGE,
    band_weights,
    bombardment_distribution,
    column_outcomes,
    crt_results,
    event_probabilities,
    odds_distribution,
)
from wargame.operational.tables import (
    load_tables,
    odds_ratio,
    ratio_column,
    ratio_label,
    split_result,
)

if TYPE_CHECKING:  # pandas is imported lazily, as in wargame.analysis.odds
    import pandas as pd

__all__ = [
    "EVENT_LABELS",
    "LOSS_RESULTS",
    "crt_counts",
    "crt_long",
    "shift_table",
    "compare_games",
    "crt_differences",
    "bombardment_grid",
    "vulnerability_table",
    "air_points_table",
    "air_support_curve",
]

EVENT_LABELS: dict[str, str] = {
    "defender_retreats": "defender leaves the hex",
    "defender_loss": "defender takes a loss",
    "defender_unit_eliminated": "a defending unit is eliminated",
    "attacker_retreats": "attacker falls back",
    "attacker_loss": "attacker takes a loss",
    "attacker_unit_eliminated": "an attacking unit is eliminated",
    "exchange": "exchange (EMP)",
    "impasse": "impasse (IMP)",
}
"""Plain words for the events of ``wargame.analysis.odds.EVENTS`` (chart labels)."""

LOSS_RESULTS = frozenset({"DB", "DE"})
"""Bombardment results that cost the target a loss (CN/OD 6.2: DI is no effect)."""


def _check_event(event: str) -> None:
    if event not in EVENTS:
        raise ValueError(f"unknown event {event!r}; expected one of {', '.join(EVENTS)}")


def _value(p: Fraction, exact: bool) -> Fraction | float:
    return p if exact else float(p)


# The CRT itself ------------------------------------------------------------------------
def crt_counts(game: str) -> pd.DataFrame:
    """Rows = CRT columns, columns = result texts (``crt_results`` order), values = how many of
    the 36 equally likely 2d6 rolls give that result. Each row sums to 36."""
    import pandas as pd

    tables = load_tables(game)
    results = crt_results(game)
    data = []
    for i in range(len(tables.crt_columns)):
        counts = {r: int(p * 36) for r, p in column_outcomes(game, i)}
        data.append([counts.get(r, 0) for r in results])
    return pd.DataFrame(
        data,
        index=pd.Index(tables.crt_columns, name="column"),
        columns=pd.Index(results, name="result"),
    )


def crt_long(game: str) -> pd.DataFrame:
    """One row per (column, result) with a non-zero chance: column, result, defender,
    attacker, in_36, p. Columns in table order, results in ``crt_results`` order."""
    import pandas as pd

    counts = crt_counts(game)
    rows = []
    for column, row in counts.iterrows():
        for result, n in row.items():
            if n:
                defender, attacker = split_result(result)
                rows.append(
                    {
                        "column": column,
                        "result": result,
                        "defender": defender,
                        "attacker": attacker,
                        "in_36": int(n),
                        "p": n / 36,
                    }
                )
    return pd.DataFrame(rows, columns=["column", "result", "defender", "attacker", "in_36", "p"])


def shift_table(
    game: str, event: str = "defender_retreats", shifts: Iterable[int] = SHIFT_RANGE,
    exact: bool = False,
) -> pd.DataFrame:
    """Probability of ``event`` for every base column (rows) and net shift (columns).

    A shift moves the column and is clamped at the table's ends (CN/OD 5.1.2), so near the
    ends a further shift changes nothing."""
    import pandas as pd

    _check_event(event)
    tables = load_tables(game)
    shifts = list(shifts)
    data = []
    for base in range(len(tables.crt_columns)):
        row = []
        for shift in shifts:
            final = tables.shifted_column(base, shift)
            row.append(_value(event_probabilities(column_outcomes(game, final))[event], exact))
        data.append(row)
    return pd.DataFrame(
        data,
        index=pd.Index(tables.crt_columns, name="base_column"),
        columns=pd.Index(shifts, name="shift"),
    )


# Two games side by side ----------------------------------------------------------------
def compare_games(
    event: str = "defender_retreats", games: Sequence[str] = ("normandy", "dragoon"),
    exact: bool = False,
) -> pd.DataFrame:
    """Probability of ``event`` per CRT column, one column per game. The games must share
    their column labels (CN and OD do: 1-3 ... 9-1)."""
    import pandas as pd

    _check_event(event)
    labels = load_tables(games[0]).crt_columns
    for g in games[1:]:
        if load_tables(g).crt_columns != labels:
            raise ValueError(f"{g} has other CRT columns than {games[0]}")
    data = {
        g: [_value(event_probabilities(column_outcomes(g, i))[event], exact)
            for i in range(len(labels))]
        for g in games
    }
    return pd.DataFrame(data, index=pd.Index(labels, name="column"))


def crt_differences(game_a: str = "normandy", game_b: str = "dragoon") -> pd.DataFrame:
    """Every cell where the two CRTs differ: column, roll (2d6 band), rolls_in_36 (how many
    of 36 rolls fall in that band), and each game's result."""
    import pandas as pd

    ta, tb = load_tables(game_a), load_tables(game_b)
    if ta.crt_columns != tb.crt_columns:
        raise ValueError(f"{game_a} and {game_b} have different CRT columns")
    weights = dict(band_weights())
    rows = []
    for i, column in enumerate(ta.crt_columns):
        for band, weight in weights.items():
            a, b = ta.crt[band][i], tb.crt[band][i]
            if a != b:
                rows.append({"column": column, "roll": band, "rolls_in_36": weight,
                             game_a: a, game_b: b})
    return pd.DataFrame(rows, columns=["column", "roll", "rolls_in_36", game_a, game_b])


# Bombardment ----------------------------------------------------------------------------
def bombardment_grid(
    game: str, strengths: Iterable[int] = range(1, 11), vulnerabilities: Iterable[int] = range(1, 7),
    shift: int = 0, what: str = "loss", exact: bool = False,
) -> pd.DataFrame:
    """Rows = strength (air points or summed artillery attack), columns = summed vulnerability
    of the target hex; CN/OD 6.2: value = strength x vulnerability, terrain ``shift`` (negative
    = left). ``what``: "loss" (probability of DB or DE), "eliminated" (DE), or "column" (the
    bombardment column's label)."""
    import pandas as pd

    if what not in ("loss", "eliminated", "column"):
        raise ValueError(f"what must be 'loss', 'eliminated' or 'column', got {what!r}")
    strengths, vulnerabilities = list(strengths), list(vulnerabilities)
    data = []
    for s in strengths:
        row: list = []
        for v in vulnerabilities:
            b = bombardment_distribution(game, s, v, shift)
            if what == "column":
                row.append(b.column)
                continue
            wanted = LOSS_RESULTS if what == "loss" else {"DE"}
            p = sum((q for r, q in b.outcomes if r in wanted), Fraction(0))
            row.append(_value(p, exact))
        data.append(row)
    return pd.DataFrame(
        data,
        index=pd.Index(strengths, name="strength"),
        columns=pd.Index(vulnerabilities, name="vulnerability"),
    )


def vulnerability_table(game: str) -> pd.DataFrame:
    """The vulnerability table (CN 6.2 / OD 6.2): per unit type, its index against air and
    against artillery, and its movement class."""
    import pandas as pd

    tables = load_tables(game)
    rows = [
        {"unit_type": name, "air": ut.air_vulnerability, "artillery": ut.artillery_vulnerability,
         "movement_class": ut.movement_class}
        for name, ut in tables.unit_types.items()
    ]
    return pd.DataFrame(rows, columns=["unit_type", "air", "artillery", "movement_class"]
                        ).set_index("unit_type")


# Air points -----------------------------------------------------------------------------
def _column_index(game: str, attack: int, defence: int) -> int:
    return ratio_column(odds_ratio(attack, defence), load_tables(game).crt_columns)


def air_points_table(
    game: str, attacks: Iterable[int] = range(1, 21), defences: Iterable[int] = range(1, 11),
) -> pd.DataFrame:
    """Rows = ground attack strength, columns = defence strength, values = the fewest air
    points that move the attack into the next CRT column (``<NA>`` when already at the last
    column). Values above the air strike's maximum (CN/OD 6.0: 10) cannot be flown in one
    attack."""
    import pandas as pd

    tables = load_tables(game)
    last = len(tables.crt_columns) - 1
    attacks, defences = list(attacks), list(defences)
    data = []
    for a in attacks:
        row = []
        for d in defences:
            current = _column_index(game, a, d)
            if current >= last:
                row.append(pd.NA)
                continue
            extra = 1
            while _column_index(game, a + extra, d) <= current:
                extra += 1
            row.append(extra)
        data.append(row)
    frame = pd.DataFrame(
        data,
        index=pd.Index(attacks, name="attack"),
        columns=pd.Index(defences, name="defence"),
    )
    return frame.astype("Int64")


def air_support_curve(
    game: str, attack: int, defence: int, shifts: Iterable[int] | int = 0,
    max_air: int | None = None, exact: bool = False,
) -> pd.DataFrame:
    """What each number of air points (0 .. the strike maximum) does to one attack: rows =
    air points; columns: total attack, ratio, column (after ``shifts``), and the probability
    of every event of ``EVENTS``."""
    import pandas as pd

    tables = load_tables(game)
    top = tables.air.strike_max if max_air is None else max_air
    net = shifts if isinstance(shifts, int) else sum(shifts)
    rows = []
    for air in range(0, top + 1):
        r = odds_distribution(game, attack + air, defence, [net] if net else None)
        probs = r.events()
        rows.append(
            {"air": air, "attack": attack + air, "ratio": ratio_label(odds_ratio(attack + air, defence)),
             "column": r.column, **{e: _value(probs[e], exact) for e in EVENTS}}
        )
    return pd.DataFrame(rows, columns=["air", "attack", "ratio", "column", *EVENTS]).set_index("air")
