"""Analysis on top of the engines: exact odds as pandas DataFrames (``odds``), later Monte Carlo.

Importing this package does not import pandas; the DataFrame builders import it when called.
"""

from wargame.analysis.odds import (
    BombardmentResult,
    OddsResult,
    air_points_to_next_column,
    bombardment_distribution,
    bombardment_table,
    crt_table,
    expected_outcomes,
    full_odds_table,
    odds_distribution,
)

__all__ = [
    "BombardmentResult",
    "OddsResult",
    "air_points_to_next_column",
    "bombardment_distribution",
    "bombardment_table",
    "crt_table",
    "expected_outcomes",
    "full_odds_table",
    "odds_distribution",
]
