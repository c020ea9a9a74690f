"""Benchmark: CPU time of a hard play-out and of easy's and normal's decisions (issue #33).

The positions are fixed: for each of ``--scenarios`` (default Pointe-du-Hoc "4", "1", "9",
Overlord), seed 20000, the positions before each of the first ``--actions`` actions of a game
played by normal (``MemoirSearchPolicy(1)``). On them the bench times, in CPU seconds
(``time.process_time``: the machine may be shared):

- easy: ``memoir_easy.decide`` at every position (card plays apart from the rest);
- normal: ``MemoirSearchPolicy(20000, max_seconds=1000).choose`` at every position;
- a play-out: hard's ``_playout`` (the arm, the rest of the turn in its style, the opponent's
  reply by ``FastEasy``, the learned evaluation) for the first 4 arms of hard's card play in 3
  sampled worlds, at the first ``--card-plays`` (5) card plays of each game (the fifth of
  Pointe-du-Hoc is the position profiled in issue #33).

The choices are not checked here (``bench/memoir_choices.py`` does). Prints readable lines,
then, as the LAST line, one JSON object.

Run: ``python bench/memoir_playout_speed.py [--scenarios 4,1] [--actions 80]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

try:
    import wargame  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame.bots.memoir_easy import decide  # noqa: E402
from wargame.bots.memoir_hard import MemoirHardPolicy  # noqa: E402
from wargame.bots.memoir_search import MemoirSearchPolicy  # noqa: E402
from wargame.memoir import MemoirGame  # noqa: E402
from wargame.viewer import Viewer  # noqa: E402

SEED = 20000


def positions(sid: str, n: int) -> list:
    state = MemoirGame.from_scenario(sid).new_state(SEED)
    normal = MemoirSearchPolicy(1)
    out = []
    while not state.winner and len(out) < n:
        out.append(state.clone())
        state.apply(normal.choose(state))
    return out


def _cpu(fn, items) -> tuple[float, int]:
    t = time.process_time()
    for x in items:
        fn(x)
    return time.process_time() - t, len(items)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenarios", default="4,1,9,overlord")
    ap.add_argument("--actions", type=int, default=80)
    ap.add_argument("--card-plays", type=int, default=5)
    args = ap.parse_args(argv)
    tot: dict[str, list[float]] = {}

    def add(key: str, sec: float, n: int) -> None:
        t = tot.setdefault(key, [0.0, 0])
        t[0] += sec
        t[1] += n

    for sid in args.scenarios.split(","):
        pos = positions(sid, args.actions)
        cards = [s for s in pos if s.phase == "card" and not s.pending]
        others = [s for s in pos if not (s.phase == "card" and not s.pending)]
        add("easy card play", *_cpu(lambda s: decide(s), cards))
        add("easy other", *_cpu(lambda s: decide(s), others))
        normal = MemoirSearchPolicy(SEED, max_seconds=1000)
        add("normal card play", *_cpu(normal.choose, cards))
        add("normal other", *_cpu(normal.choose, others))
        hard = MemoirHardPolicy(SEED, max_seconds=1000)
        for st in cards[: args.card_plays]:
            arms = hard._card_arms(st, st.legal_actions())[:4]
            rng = random.Random(SEED)
            worlds = [st.resample(Viewer.player(st.active), rng) for _ in range(3)]
            jobs = [(hard, w, a, st.active) for w in worlds for a in arms]
            add("hard play-out", *_cpu(lambda j: j[0]._playout(j[1], j[2], j[3]), jobs))
        line = ", ".join(f"{k} {1000 * s / max(1, n):.1f} ms ({n})" for k, (s, n) in tot.items())
        print(f"after scenario {sid}: {line}", flush=True)
    summary = {k: {"cpu_ms": round(1000 * s / max(1, n), 2), "n": n}
               for k, (s, n) in tot.items()}
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
