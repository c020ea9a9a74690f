"""What keeping a solo game in the browser costs per change (issue #31, wargame.ui.keeper):
the compact save JSON the page sends to its browser after every change of position, timed
at several points of a whole computer-played game, with its size (the browser's
localStorage holds about 5 million characters per site).

    nice -n 10 .venv/bin/python bench/session_keep.py [--scenario dragoon] [--seed 3]
"""

from __future__ import annotations

import argparse
import json
import time

from wargame.bots.play import make_policy
from wargame.games import open_game
from wargame.saves import to_save


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="dragoon")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    game = open_game(args.scenario)
    state = game.new_state(args.seed)
    first, second = game.sides
    policies = {first: make_policy(game, "greedy", 1), second: make_policy(game, "greedy", 2)}
    marks, n = [], 0
    while not state.is_terminal and n < 20_000:
        state.apply(policies[state.side_to_act].choose(state))
        n += 1
        if n in (10, 100, 300, 1000, 3000, 10_000) or state.is_terminal:
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                text = json.dumps(to_save(state), separators=(",", ":"))
                times.append(time.perf_counter() - start)
            marks.append((n, min(times), len(text)))
    print(f"{args.scenario}, seed {args.seed}: {n} actions to the end")
    for n, seconds, size in marks:
        print(f"  after {n:>5} actions: {seconds * 1000:7.2f} ms per change, "
              f"{size / 1000:8.1f} kB kept ({size / 5_000_000:.1%} of 5 M characters)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
