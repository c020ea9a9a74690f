"""Benchmark: one Dragoon campaign study as a plain loop, on 1 and on 2 Dask worker processes.

The same N seeded greedy-vs-greedy campaigns are played three ways: one after the other in
this process without Dask (``use_dask=False``), then by ``run_study`` on a local cluster of 1
and of 2 worker processes (one thread each; games batched into tasks, wargame.analysis.study).
Each time is the whole ``run_study`` call, the cluster's start included (``start`` says how
long that was, up to the client's connection). Prints the wall time and games/s of each, the
speed-up of 2 workers over 1 and over the plain loop (issue 30 aims at 2 workers >= 1.7x one
on 2 cores), whether the three tables hash the same and fail on the same seeds (they must:
game i's seed depends on the study's seed and i only), and the load average before and after
each run: other jobs on the cores lower the speed-up, so read the figures beside the load.
The CPU seconds of each run (this process and its worker processes) do not depend on the load:
2 workers costing no more CPU than 1 means 2 free cores give them a speed-up near 2x.
The LAST line is one JSON object of the figures.

Run: ``python bench/study.py [--games 200] [--seed 1] [--scenario dragoon] [--runs plain,1,2]``;
``--runs 2,1`` plays the same runs in the other order (the load drifts: run both orders and
compare).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

try:
    import wargame  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame.analysis.study import results_hash, run_study  # noqa: E402


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and of its finished children: the worker
    processes count once the cluster has closed (and reaped them)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed_study(scenario: str, games: int, seed: int, workers: int | None) -> dict:
    """``workers`` None: the plain loop in this process."""
    ready: list[float] = []
    before = load()
    cpu = cpu_seconds()
    start = time.perf_counter()
    study = run_study(scenario, games, seed=seed, workers=workers, progress=False,
                      use_dask=workers is not None,
                      on_client=lambda _client: ready.append(time.perf_counter()))
    seconds = time.perf_counter() - start
    cpu = cpu_seconds() - cpu
    return {"cpu_s": round(cpu, 1), "cpu_s_per_game": round(cpu / games, 3),"workers": workers or 0, "label": "plain loop" if workers is None else
            f"{workers} worker{'s' if workers > 1 else ''}",
            "seconds": round(seconds, 2), "games_per_s": round(games / seconds, 3),
            "start_s": round(ready[0] - start, 2) if ready else 0.0,
            "hash": results_hash(study.table),
            "failed_seeds": [f["seed"] for f in study.failures],
            "load_before": before, "load_after": load()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scenario", default="dragoon")
    parser.add_argument("--runs", default="plain,1,2",
                        help="the runs in order: plain (no Dask) or a number of workers; "
                             "1 and 2 are needed for the speed-up")
    args = parser.parse_args()
    order = [None if w.strip() == "plain" else int(w) for w in args.runs.split(",")]
    print(f"{os.cpu_count()} cores; load average (1, 5, 15 min) at the start: {load()}")
    runs = [timed_study(args.scenario, args.games, args.seed, w) for w in order]
    for r in runs:
        print(f"{r['label']:>10}: {args.games} {args.scenario} games in {r['seconds']:7.1f} s = "
              f"{r['games_per_s']:.2f} games/s (cluster start {r['start_s']:.1f} s; CPU "
              f"{r['cpu_s']:.0f} s = {r['cpu_s_per_game']:.2f} s a game); results "
              f"{r['hash']}, {len(r['failed_seeds'])} failed; load {r['load_before']} -> "
              f"{r['load_after']}")
    by = {r["workers"]: r for r in runs}
    one, two, plain = by.get(1), by.get(2), by.get(0)
    speedup = one["seconds"] / two["seconds"] if one and two else None
    over_plain = plain["seconds"] / two["seconds"] if plain and two else None
    if speedup is not None:
        print(f"speed-up 1 -> 2 workers: {speedup:.2f}x (target >= 1.7x)")
    if over_plain is not None:
        print(f"2 workers over the plain loop: {over_plain:.2f}x")
    if plain and one:
        print(f"1 worker over the plain loop: {plain['seconds'] / one['seconds']:.2f}x")
    if one and two:  # what the load cannot change: the CPU Dask and 2 processes cost
        print(f"CPU of 2 workers / CPU of 1: {two['cpu_s'] / one['cpu_s']:.2f} (1.00: no "
              f"overhead; 2 cores then give up to {2 * one['cpu_s'] / two['cpu_s']:.2f}x)")
    same = len({r["hash"] for r in runs}) == 1 and len(
        {tuple(r["failed_seeds"]) for r in runs}) == 1
    print(f"identical results (table hash and failed seeds) for all runs: {same}")
    print(json.dumps({"scenario": args.scenario, "games": args.games, "seed": args.seed,
                      "cores": os.cpu_count(), "runs": runs,
                      "speedup": None if speedup is None else round(speedup, 3),
                      "speedup_over_plain": None if over_plain is None else round(over_plain, 3),
                      "identical": same}))


if __name__ == "__main__":
    main()
