"""Benchmark: the Memoir '44 computer players against each other, every scenario, both sides.

Pairings (first named plays the Allies): easy vs random, random vs easy, normal vs easy, easy
vs normal. Each pairing plays ``--games`` games of every bundled scenario (seeds 0, 1, ...:
fixed, so a run repeats exactly). Prints, per pairing, the wins of each player, and overall:
easy's win rate against random on both sides together (target >= 90%), normal's against easy
(target >= 60%), and the seconds per decision of each player. The LAST line is one JSON object.

Run: ``python bench/memoir_bots.py [--games N] [--scenarios 1,2,overlord] [--pairings
easy-random,normal-easy]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

try:
    import wargame  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame.bots.play import make_policy, play  # noqa: E402
from wargame.memoir import MemoirGame, scenario_ids  # noqa: E402
from wargame.memoir.board import ALLIES, AXIS  # noqa: E402

PAIRINGS = ("easy-random", "random-easy", "normal-easy", "easy-normal")


class Timed:
    """A policy that adds up the time and number of its decisions."""

    def __init__(self, policy, name: str, clock: dict[str, list[float]]) -> None:
        self.policy, self.name, self.clock = policy, name, clock

    def choose(self, state):
        t = time.perf_counter()
        a = self.policy.choose(state)
        c = self.clock.setdefault(self.name, [0.0, 0])
        c[0] += time.perf_counter() - t
        c[1] += 1
        return a


def run(games: int, scenarios: list[str], pairings: list[str], verbose: bool) -> dict:
    clock: dict[str, list[float]] = {}
    results: dict[str, dict[str, int]] = {}
    for pairing in pairings:
        allied, axis = pairing.split("-")
        wins = {"allied": 0, "axis": 0, "none": 0}
        for sid in scenarios:
            game = MemoirGame.from_scenario(sid)
            for seed in range(games):
                state = game.new_state(seed)
                pols = {ALLIES: Timed(make_policy(game, allied, seed), allied, clock),
                        AXIS: Timed(make_policy(game, axis, seed + 1), axis, clock)}
                play(state, pols, max_actions=20_000)
                key = {ALLIES: "allied", AXIS: "axis"}.get(state.winner, "none")
                wins[key] += 1
                if verbose:
                    print(f"  {pairing} scenario {sid} seed {seed}: {state.winner} "
                          f"{state.medals(ALLIES)}-{state.medals(AXIS)}", flush=True)
        results[pairing] = wins
        n = sum(wins.values())
        print(f"{allied} (Allies) vs {axis} (Axis): {allied} won {wins['allied']}/{n}, "
              f"{axis} won {wins['axis']}/{n}, unfinished {wins['none']}", flush=True)

    def rate(player: str, against: str) -> float | None:
        won = n = 0
        for pairing, w in results.items():
            a, b = pairing.split("-")
            if (a, b) == (player, against):
                won += w["allied"]
                n += sum(w.values())
            elif (a, b) == (against, player):
                won += w["axis"]
                n += sum(w.values())
        return won / n if n else None

    summary = {"games_per_scenario": games, "scenarios": len(scenarios), "pairings": results,
               "easy_vs_random": rate("easy", "random"),
               "normal_vs_easy": rate("normal", "easy"),
               "seconds_per_decision": {k: v[0] / max(1, v[1]) for k, v in clock.items()},
               "decisions": {k: v[1] for k, v in clock.items()}}
    for label, key, target in (("easy beats random", "easy_vs_random", 0.9),
                               ("normal beats easy", "normal_vs_easy", 0.6)):
        r = summary[key]
        if r is not None:
            print(f"{label}: {r:.0%} of games (target {target:.0%})")
    for k, s in summary["seconds_per_decision"].items():
        print(f"{k}: {s * 1000:.1f} ms per decision ({summary['decisions'][k]} decisions)")
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2, help="games per scenario and pairing")
    ap.add_argument("--scenarios", default="", help="comma-separated ids (default: all)")
    ap.add_argument("--pairings", default=",".join(PAIRINGS),
                    help=f"comma-separated allied-axis pairs (default: {','.join(PAIRINGS)})")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per game")
    args = ap.parse_args(argv)
    scenarios = [s for s in args.scenarios.split(",") if s] or scenario_ids()
    pairings = [p for p in args.pairings.split(",") if p]
    for p in pairings:
        if p.count("-") != 1:
            ap.error(f"--pairings: expected allied-axis names like easy-random, got {p!r:.40}")
    summary = run(args.games, scenarios, pairings, args.verbose)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
