"""How seeded random games of one Memoir '44 scenario end: medals, sudden death, exhausted deck.

Plays ``--games`` games of ``--scenario`` (default 10, Toulon) from seeds 0, 1, ... with
``random_action`` (random legal actions, preferring battles and orders; every 5th action not
aggressive, as the playout tests do) and prints how many ended each way, the mean number of
turns, then as the LAST line one JSON object. Issue 17 item 11: with the sudden death read as
"one Allied unit on any Toulon town hex" 88% of random Toulon games ended by sudden death in
about 40 turns. Run: ``python bench/memoir_endings.py [--scenario 10] [--games 100]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

try:
    import wargame  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame.bots.memoir_random import random_action  # noqa: E402
from wargame.memoir import MemoirGame  # noqa: E402


def play(game: MemoirGame, seed: int, cap: int = 30_000) -> tuple[str, int]:
    s = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(cap):
        if s.is_terminal:
            break
        s.apply(random_action(s, rng, aggressive=rng.random() < 0.8), validate=False)
    why = "unfinished" if not s.is_terminal else (s.win_reason.strip(" ()") or "medals")
    return why, s.turn


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="10")
    ap.add_argument("--games", type=int, default=100)
    args = ap.parse_args(argv)
    game = MemoirGame.from_scenario(args.scenario)
    endings: Counter[str] = Counter()
    turns: dict[str, list[int]] = {}
    for seed in range(args.games):
        why, turn = play(game, seed)
        endings[why] += 1
        turns.setdefault(why, []).append(turn)
    result = {"scenario": args.scenario, "games": args.games}
    for why, n in endings.most_common():
        mean = sum(turns[why]) / len(turns[why])
        print(f"{why}: {n} of {args.games} games ({100 * n / args.games:.0f}%), "
              f"mean {mean:.1f} turns")
        result[why] = {"games": n, "share": round(n / args.games, 3),
                       "mean_turns": round(mean, 1)}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
