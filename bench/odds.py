"""Benchmark: the full odds table (every CRT column x net shift -4..+4) of both games.

Times, best of several repeats (time.perf_counter):
- pure: the exact table computed from the loaded tables with no cache (Python tuples);
- cached: the same through ``full_odds_rows`` (what the UI calls after the first time);
- frame: ``full_odds_table`` for both games, DataFrame construction included (pure part cached);
- cold frame: clearing the caches first, i.e. pure + DataFrame.

Prints readable lines, then, as the LAST line, one JSON object (``table_ms`` = DataFrame of both
games with the pure part cached, the figure a dashboard pays per refresh).
Run: ``python bench/odds.py``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

try:
    import wargame  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame.analysis import odds  # noqa: E402
from wargame.operational.tables import load_tables  # noqa: E402

GAMES = ("normandy", "dragoon")
REPEATS = 7
NUMBER = 20


def best_ms(fn, repeats: int = REPEATS, number: int = NUMBER) -> float:
    """Best mean time of ``number`` calls over ``repeats`` runs, in milliseconds."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best * 1000


def clear_caches() -> None:
    for fn in (odds.full_odds_rows, odds.crt_results, odds._crt_counts, odds._bombardment_counts):
        fn.cache_clear()


def pure() -> None:
    for game in GAMES:
        odds._compute_full_odds_rows(game)


def cached() -> None:
    for game in GAMES:
        odds.full_odds_rows(game)


def frame() -> None:
    for game in GAMES:
        odds.full_odds_table(game)


def frame_exact() -> None:
    for game in GAMES:
        odds.full_odds_table(game, exact=True)


def cold_frame() -> None:
    clear_caches()
    frame()


def main() -> None:
    for game in GAMES:
        load_tables(game)  # reading YAML is not part of the table
    import pandas  # noqa: F401  (import time is not part of the table either)

    frame()  # warm caches and pandas code paths
    rows = sum(len(odds.full_odds_rows(g)) for g in GAMES)
    figures = {
        "pure_ms": best_ms(pure),
        "cached_ms": best_ms(cached, number=1000),
        "table_ms": best_ms(frame),
        "table_exact_ms": best_ms(frame_exact),
        "cold_table_ms": best_ms(cold_frame),
    }
    print(f"full odds table, {len(GAMES)} games, {rows} rows (11 columns x 9 shifts each)")
    print(f"  pure Python, uncached         {figures['pure_ms']:8.3f} ms")
    print(f"  pure Python, cached           {figures['cached_ms']:8.4f} ms")
    print(f"  DataFrames (floats), cached   {figures['table_ms']:8.3f} ms")
    print(f"  DataFrames (Fractions)        {figures['table_exact_ms']:8.3f} ms")
    print(f"  DataFrames, caches cleared    {figures['cold_table_ms']:8.3f} ms")
    goal = "met" if figures["table_ms"] < 5 else "NOT met"
    print(f"  goal table_ms < 5 ms: {goal}")
    print(json.dumps({"rows": rows, **{k: round(v, 4) for k, v in figures.items()}}))


if __name__ == "__main__":
    main()
