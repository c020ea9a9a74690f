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

``--record FILE`` keeps every finished game as one JSON line in FILE (appended and flushed
as each game ends) and plays only the games of the run not already in it, so a long run (issue
#33 asks for 600 games of hard against normal: hours of CPU) can be stopped and resumed, in
one session or the next, and still prints the whole run's figures. A game is the same game
when its player, opponent, options, scenario, seed and side are the same; each line also
keeps the commit it was played on.

Run: ``nice -n 10 python bench/memoir_strength.py [--games 3] [--workers 2] [--option width=6]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import subprocess
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


def game_key(job: tuple) -> str:
    """What makes two games the same game in a ``--record`` file."""
    sid, seed, side, options, heuristic_only, player, opponent = job
    return json.dumps([player, opponent, options, heuristic_only, sid, seed, side],
                      sort_keys=True)


def read_record(path: Path, field: str = "normal_won") -> dict[str, dict]:
    """The games kept in ``path`` by key (``game_key``); {} when it does not exist yet. A line
    that is not a game (a JSON object with ``key`` and ``field``) is refused with the file and
    line; a last line cut short (the run was killed while writing it) is dropped, and that game
    is played again."""
    if not path.exists():
        return {}
    out: dict[str, dict] = {}
    lines = path.read_text(encoding="utf-8").split("\n")
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            key = r["key"]
            if field not in r:
                raise KeyError(field)
        except (ValueError, KeyError, TypeError) as exc:
            if n == len(lines):  # no newline after it: cut short
                print(f"{path}: line {n} was cut short; its game is played again",
                      file=sys.stderr)
                # dropped from the file too, so the next game is not written after it
                with path.open("r+b") as f:
                    f.truncate(len("\n".join(lines[:-1]).encode("utf-8")) + (n > 1))
                continue
            raise SystemExit(f"{path}: line {n}: expected one game as a JSON object with "
                             f"'key' and '{field}' (written by --record), got {line!r:.60} "
                             f"({exc})") from None
        out[key] = r
    return out


def run_games(jobs: list, one_game, key, workers: int, record: Path | None = None,
              field: str = "normal_won", on_game=None) -> tuple[list[dict], int]:
    """Every job's game result, in ``workers`` processes; with ``record``, the games kept
    there (``read_record``) are read back and only the others played, each appended to it as
    it ends (flushed and synced, with the commit). ``on_game(result)`` is called for each game
    played now. Returns the results (kept ones first) and how many were played now."""
    kept = read_record(record, field) if record else {}
    results = [kept[key(j)] for j in jobs if key(j) in kept]
    todo = [j for j in jobs if key(j) not in kept]
    if record:
        print(f"{record}: {len(results)} of the run's {len(jobs)} games kept, "
              f"{len(todo)} to play", flush=True)
    commit = _commit() if record else ""
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        out = record.open("a", encoding="utf-8") if record else None
        try:
            for job, r in zip(todo, pool.map(one_game, todo), strict=True):
                results.append(r)
                if out is not None:
                    out.write(json.dumps({"key": key(job), "commit": commit, **r}) + "\n")
                    out.flush()
                    os.fsync(out.fileno())
                if on_game is not None:
                    on_game(r)
        finally:
            if out is not None:
                out.close()
    return results, len(todo)


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True,
                              cwd=Path(__file__).resolve().parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


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
    ap.add_argument("--record", type=Path, default=None, metavar="FILE",
                    help="keep each game in FILE (JSON lines) and play only those not in it")
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

    def show(r: dict) -> None:
        if args.verbose:
            print(f"  scenario {r['scenario']} seed {r['seed']} {args.player} "
                  f"{r['normal_side']}: "
                  f"winner {r['winner']} ({r['seconds']:.1f} s; {args.player}'s CPU "
                  f"{r['cpu_total']:.1f} s over {r['decisions']} decisions, at most "
                  f"{r['cpu_max']:.2f} s)", flush=True)

    results, played = run_games(jobs, one_game, game_key, args.workers, args.record,
                                on_game=show)
    summary: dict = {"options": options, "heuristic_only": args.heuristic_only,
                     "games": len(results), "played_now": played, "seconds": 0.0}
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
