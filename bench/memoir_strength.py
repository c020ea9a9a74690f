"""Benchmark: how often the "normal" Memoir '44 player beats "easy" (issue 18 target: 60%).

Plays normal against easy on every bundled scenario (or ``--scenarios``), from both sides,
seeds ``--seed`` .. ``--seed + --games - 1`` (fixed: a run repeats exactly), in ``--workers``
processes, and prints normal's win rate with a 95% interval, per side and overall. ``--option
KEY=VALUE`` (repeatable) passes settings to ``MemoirSearchPolicy`` (``width=6``,
``horizon=turn``, ``iterations=16`` ...) so variants are compared on the same games; a key
that names one of normal's scoring weights (``threat``, ``advance``, ``objective``,
``kill_figure``, ``flag``, ``retreat_room``, ``threat_reach``, ``overrun``,
``threat_share``: ``memoir_easy.Weights``) changes that weight of ``NORMAL_WEIGHTS``
(``clock=false``: no extra caution for the side that wins when the deck runs out).
``--heuristic-only`` plays easy's heuristic with normal's weights and no search, to tell what
the weights give from what the search gives. The LAST line is one JSON object.

``--player hard --opponent normal`` plays the hard player (``memoir_hard.MemoirHardPolicy``,
issue #33) against normal instead; its ``--option``s are hard's settings (``max_seconds=0.5``,
``playouts=16`` ...). The CPU time of each of the player's decisions is printed (mean, max).

Run: ``nice -n 10 python bench/memoir_strength.py [--games 3] [--workers 2] [--option width=6]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

try:
    import wargame  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame.bots.memoir_easy import MemoirEasyPolicy, Weights, decide  # noqa: E402
from wargame.bots.memoir_hard import MemoirHardPolicy  # noqa: E402
from wargame.bots.memoir_search import NORMAL_WEIGHTS, MemoirSearchPolicy  # noqa: E402
from wargame.bots.play import play  # noqa: E402
from wargame.memoir import MemoirGame, scenario_ids  # noqa: E402
from wargame.memoir.board import ALLIES, AXIS  # noqa: E402


def _value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


class Timed:
    """A policy that records the CPU seconds of each of its decisions (CPU time: the machine
    is shared, wall time would measure the other processes too)."""

    def __init__(self, policy) -> None:
        self.policy = policy
        self.times: list[float] = []

    def choose(self, state):
        t = time.process_time()
        a = self.policy.choose(state)
        self.times.append(time.process_time() - t)
        return a


class Heuristic:
    """Easy's heuristic scored with ``weights`` (no search)."""

    def __init__(self, weights: Weights) -> None:
        self.weights = weights

    def choose(self, state):
        return decide(state, self.weights)[0]


WEIGHT_KEYS = {f.name for f in dataclasses.fields(Weights)}


def one_game(job: tuple) -> dict:
    sid, seed, normal_side, options, heuristic_only, *rest = job
    player, opponent = rest if rest else ("normal", "easy")
    game = MemoirGame.from_scenario(sid)
    state = game.new_state(seed)
    if player == "hard":
        normal = Timed(MemoirHardPolicy(seed, **options))
    else:
        weights = dataclasses.replace(NORMAL_WEIGHTS,
                                      **{k: v for k, v in options.items() if k in WEIGHT_KEYS})
        settings = {k: v for k, v in options.items() if k not in WEIGHT_KEYS}
        normal = Timed(Heuristic(weights) if heuristic_only
                       else MemoirSearchPolicy(seed, weights=weights, **settings))
    easy = (MemoirSearchPolicy(seed + 1) if opponent == "normal"
            else MemoirEasyPolicy(seed + 1))
    policies = {ALLIES: normal if normal_side == ALLIES else easy,
                AXIS: normal if normal_side == AXIS else easy}
    t = time.perf_counter()
    play(state, policies, max_actions=20_000)
    return {"scenario": sid, "seed": seed, "normal_side": normal_side,
            "winner": state.winner, "normal_won": state.winner == normal_side,
            "seconds": time.perf_counter() - t, "cpu_total": sum(normal.times),
            "decisions": len(normal.times), "cpu_max": max(normal.times, default=0.0)}


def interval(won: int, n: int) -> tuple[float, float]:
    """Wilson 95% interval of a win rate."""
    if n == 0:
        return (0.0, 0.0)
    z, p = 1.96, won / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def parse_options(ap: argparse.ArgumentParser, items: list[str]) -> dict:
    """The ``--option KEY=VALUE`` items as the player's keyword options (``_value``)."""
    options = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            ap.error(f"--option: expected KEY=VALUE, got {item!r:.40}")
        options[key] = _value(value)
    return options


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="seeds per scenario and side")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--scenarios", default="", help="comma-separated ids (default: all)")
    ap.add_argument("--workers", type=int, default=1, help="processes")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a MemoirSearchPolicy setting, repeatable")
    ap.add_argument("--heuristic-only", action="store_true",
                    help="easy's heuristic with normal's weights, no search")
    ap.add_argument("--player", choices=("normal", "hard"), default="normal",
                    help="the player measured (hard: issue #33)")
    ap.add_argument("--opponent", choices=("easy", "normal"), default="easy",
                    help="its opponent")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per game")
    args = ap.parse_args(argv)
    options = parse_options(ap, args.option)
    for key, value in options.items():
        if key in WEIGHT_KEYS and not isinstance(value, (int, float)):
            ap.error(f"--option {key}: expected a number of medals, got {value!r:.40}")
    scenarios = [s for s in args.scenarios.split(",") if s] or scenario_ids()
    jobs = [(sid, seed, side, options, args.heuristic_only, args.player, args.opponent)
            for seed in range(args.seed, args.seed + args.games)
            for sid in scenarios for side in (ALLIES, AXIS)]
    start = time.perf_counter()
    results = []
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        for r in pool.map(one_game, jobs):
            results.append(r)
            if args.verbose:
                print(f"  scenario {r['scenario']} seed {r['seed']} {args.player} "
                      f"{r['normal_side']}: "
                      f"winner {r['winner']} ({r['seconds']:.1f} s; {args.player}'s CPU "
                      f"{r['cpu_total']:.1f} s over {r['decisions']} decisions, at most "
                      f"{r['cpu_max']:.2f} s)", flush=True)
    summary: dict = {"options": options, "heuristic_only": args.heuristic_only,
                     "games": len(results), "seconds": 0.0}
    for label, subset in (("as Allies", [r for r in results if r["normal_side"] == ALLIES]),
                          ("as Axis", [r for r in results if r["normal_side"] == AXIS]),
                          ("overall", results)):
        won = sum(r["normal_won"] for r in subset)
        lo, hi = interval(won, len(subset))
        print(f"{args.player} beats {args.opponent} {label}: {won}/{len(subset)} = "
              f"{won / max(1, len(subset)):.0%} (95% interval {lo:.0%}-{hi:.0%})")
        summary[label.replace(" ", "_")] = {"won": won, "games": len(subset)}
    n_dec = sum(r["decisions"] for r in results)
    cpu = sum(r["cpu_total"] for r in results)
    worst = max((r["cpu_max"] for r in results), default=0.0)
    print(f"{args.player}'s CPU time per decision: {1000 * cpu / max(1, n_dec):.0f} ms on average, "
          f"{worst:.2f} s at most ({n_dec} decisions)")
    summary["cpu_per_decision"] = {"mean": cpu / max(1, n_dec), "max": worst,
                                   "decisions": n_dec}
    summary["normal_vs_easy"] = sum(r["normal_won"] for r in results) / max(1, len(results))
    summary["player"], summary["opponent"] = args.player, args.opponent
    summary["win_rate"] = summary["normal_vs_easy"]  # the player's, whoever it is
    summary["seconds"] = round(time.perf_counter() - start, 1)
    target = "65%" if args.player == "hard" else "60%"
    print(f"target: {target}; {len(results)} games in {summary['seconds']} s")
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
