"""Benchmark: one greedy-vs-greedy bot campaign of Normandy and of Dragoon on one core
(issue #19's "faster engine": targets Normandy <= 3 s, Dragoon <= 0.7 s).

For each scenario plays ``--games`` campaigns (seeds ``--seed``, ``--seed`` + 1, ...) with the
greedy bot on both sides (wargame.bots.play) and prints the seconds per campaign (median; CPU
time of this process, so other jobs on the machine matter less, and wall time), the actions per
campaign and actions per second; ``--profile`` also prints the ten functions with
the most own time in the first game. The LAST line is one JSON object of the figures.

    .venv/bin/python bench/campaign.py [--games 2] [--seed 1] [--scenario normandy dragoon]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import sys
import time
from pathlib import Path

try:
    import wargame  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame.bots.play import make_policy, play  # noqa: E402
from wargame.games import open_game  # noqa: E402


def one_campaign(scenario: str, seed: int) -> tuple[float, int, str, float]:
    """(CPU seconds, actions, winner, wall seconds) of one greedy campaign."""
    game = open_game(scenario)
    start, cpu = time.perf_counter(), time.process_time()
    state = game.new_state(seed)
    bot = make_policy(game, "greedy")
    play(state, dict.fromkeys(game.sides, bot))
    return (time.process_time() - cpu, len(state.action_log), str(state.outcome().winner),
            time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", nargs="+", default=["normandy", "dragoon"])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    figures: dict[str, dict] = {}
    for scenario in args.scenario:
        open_game(scenario)  # load the scenario files once, as a study's worker does
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            one_campaign(scenario, args.seed)
            prof.disable()
            text = io.StringIO()
            pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(10)
            print(text.getvalue())
        runs = [one_campaign(scenario, args.seed + i) for i in range(args.games)]
        seconds = statistics.median(r[0] for r in runs)
        wall = statistics.median(r[3] for r in runs)
        actions = statistics.median(r[1] for r in runs)
        print(f"{scenario}: {seconds:.2f} s of CPU per greedy campaign (median of {len(runs)}; "
              f"wall {wall:.2f} s), {actions:.0f} actions, {actions / seconds:.0f} actions/s; "
              f"winners {[r[2] for r in runs]}")
        figures[scenario] = {"cpu_seconds": round(seconds, 3), "wall_seconds": round(wall, 3),
                             "actions": actions, "actions_per_s": round(actions / seconds, 1)}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
