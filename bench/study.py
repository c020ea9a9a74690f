"""Benchmark: a Dragoon campaign study on 1 and then 2 Dask worker processes.

For each worker count a fresh ``LocalCluster`` (processes, one thread each) is started (its
start-up timed apart), then ``run_study`` plays the same N seeded greedy-vs-greedy campaigns on
it. Prints games/s for each, the speed-up of 2 workers over 1 (issue 19 aims at >= 1.7x on 2
cores) and whether the two result tables hash the same (they must: game i's seed depends on
the study's seed and i only). The LAST line is one JSON object of the figures.

Run: ``python bench/study.py [--games N] [--seed S] [--scenario dragoon]``. Other jobs on the
machine's cores lower the speed-up: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

try:
    import wargame  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame.analysis.study import results_hash, run_study  # noqa: E402


def timed_study(scenario: str, games: int, seed: int, workers: int) -> dict:
    from distributed import LocalCluster

    start = time.perf_counter()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=":0", scheduler_kwargs={"dashboard": False},
                           silence_logs=logging.ERROR)
    started = time.perf_counter() - start
    try:
        start = time.perf_counter()
        study = run_study(scenario, games, seed=seed, scheduler=cluster.scheduler_address,
                          progress=False)
        seconds = time.perf_counter() - start
    finally:
        cluster.close()
    return {"workers": workers, "cluster_start_s": round(started, 2),
            "seconds": round(seconds, 2), "games_per_s": round(games / seconds, 3),
            "hash": results_hash(study.table),
            "allied_win_rate": study.summary()["allied_win_rate"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scenario", default="dragoon")
    args = parser.parse_args()
    runs = [timed_study(args.scenario, args.games, args.seed, w) for w in (1, 2)]
    for r in runs:
        print(f"{r['workers']} worker(s): {args.games} {args.scenario} games in {r['seconds']:.1f} s "
              f"= {r['games_per_s']:.2f} games/s (cluster start {r['cluster_start_s']:.1f} s), "
              f"results {r['hash']}")
    speedup = runs[1]["games_per_s"] / runs[0]["games_per_s"]
    same = runs[0]["hash"] == runs[1]["hash"]
    print(f"speed-up 1 -> 2 workers: {speedup:.2f}x (target >= 1.7x); identical results: {same}")
    print(json.dumps({"scenario": args.scenario, "games": args.games, "seed": args.seed,
                      "runs": runs, "speedup": round(speedup, 3), "identical": same}))


if __name__ == "__main__":
    main()
