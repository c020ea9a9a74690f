"""Benchmark: the Memoir '44 hard player against itself beside published results between people.

Issue #33: on the scenarios for which a win rate of games between people was found, hard plays
both sides (seeds ``--seed`` .. ``--seed + --games - 1``; a run repeats exactly) and the
Allied win rate is printed with its Wilson 95% interval beside the human one (sources:
``HUMAN``, cited in docs/bots.md). ``--option KEY=VALUE`` passes settings to
``MemoirHardPolicy`` (``playouts=16``, ``max_seconds=0.5``...). ``--record FILE`` keeps each
game as it ends and plays only the games of the run not in FILE, as in
``bench/memoir_strength.py``, so a long run can be resumed. The LAST line is one JSON object.

Run: ``nice -n 19 python bench/memoir_human.py --games 4 --workers 2 --option playouts=16``.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from memoir_strength import Timed, interval, parse_options, run_games  # noqa: E402

from wargame.bots.memoir_hard import MemoirHardPolicy  # noqa: E402
from wargame.bots.play import play  # noqa: E402
from wargame.memoir import MemoirGame  # noqa: E402
from wargame.memoir.board import ALLIES, AXIS  # noqa: E402

# scenario -> (Allied win rate between people, source), as docs/bots.md cites them
HUMAN = {
    "1": (0.69, "generalhowitzer.com/2024/11/01/pegasus-bridge/ (\"a 69% success rate\")"),
    "3": (0.75, "joyandforgetfulness.blogspot.com/2018/10/d-day-part-two-sword-beach.html "
                "(\"The British typically win this scenario 75% of the time\")"),
    "4": (0.69, "generalhowitzer.com, Pointe-du-Hoc (\"the Allies have a 69% success rate\")"),
}


def one_game(job: tuple[str, int, dict]) -> dict:
    sid, seed, options = job
    state = MemoirGame.from_scenario(sid).new_state(seed)
    allies = Timed(MemoirHardPolicy(seed, **options))
    axis = Timed(MemoirHardPolicy(seed + 1, **options))
    play(state, {ALLIES: allies, AXIS: axis}, max_actions=20_000)
    times = allies.times + axis.times
    return {"scenario": sid, "seed": seed, "winner": state.winner,
            "cpu_total": sum(times), "decisions": len(times), "cpu_max": max(times, default=0)}


def game_key(job: tuple[str, int, dict]) -> str:
    """What makes two games the same game in a ``--record`` file."""
    sid, seed, options = job
    return json.dumps(["hard v hard", options, sid, seed], sort_keys=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4, help="seeds per scenario")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--record", type=Path, default=None, metavar="FILE",
                    help="keep each game in FILE (JSON lines) and play only those not in it")
    args = ap.parse_args(argv)
    options = parse_options(ap, args.option)
    jobs = [(sid, seed, options) for seed in range(args.seed, args.seed + args.games)
            for sid in HUMAN]
    start = time.perf_counter()
    results, played = run_games(jobs, one_game, game_key, args.workers, args.record,
                                field="winner")
    rows = {}
    print("| scenario | hard v hard: Allies won | 95% interval | people: Allies won | "
          "difference |")
    print("|---|---|---|---|---|")
    for sid, (human, _source) in HUMAN.items():
        mine = [r for r in results if r["scenario"] == sid]
        won = sum(r["winner"] == ALLIES for r in mine)
        lo, hi = interval(won, len(mine))
        rate = won / max(1, len(mine))
        print(f"| {sid} | {won}/{len(mine)} = {rate:.0%} | {lo:.0%}-{hi:.0%} | {human:.0%} | "
              f"{100 * (rate - human):+.0f} points |")
        rows[sid] = {"won": won, "games": len(mine), "human": human}
    n_dec = sum(r["decisions"] for r in results)
    cpu = sum(r["cpu_total"] for r in results)
    worst = max((r["cpu_max"] for r in results), default=0.0)
    print(f"hard's CPU time per decision: {1000 * cpu / max(1, n_dec):.0f} ms on average, "
          f"{worst:.2f} s at most ({n_dec} decisions)")
    print(json.dumps({"options": options, "scenarios": rows, "played_now": played,
                      "cpu_per_decision": {"mean": cpu / max(1, n_dec), "max": worst},
                      "seconds": round(time.perf_counter() - start, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
