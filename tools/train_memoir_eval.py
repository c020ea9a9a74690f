"""Fit the Memoir '44 "hard" player's evaluation (wargame/bots/memoir_eval.json) from self-play.

    python tools/train_memoir_eval.py generate --games 8 --seed 0 --out positions.jsonl
    python tools/train_memoir_eval.py fit positions.jsonl [--out wargame/bots/memoir_eval.json]

``generate`` plays ``--games`` games per scenario (every bundled scenario), each side by easy's
heuristic with easy's weights or normal's (chosen by a generator seeded from ``--seed`` and the
game: the two styles make the positions more varied than one player against itself), and
writes one JSON line per card play (M44 p.5): the scenario, the game's seed, the side about to
play, its ``memoir_eval.features`` and whether that side won. Every position of a game shares
its result, so ``fit`` splits by game, never by position.

``fit`` (needs scikit-learn: ``pip install wargame[train]``) fits a logistic regression of the
result on the standardised features (L2, C=1), reports its log-loss on the held-out games (every
fifth game) against medals alone, refits on all games and writes the weights (means, scales,
coefficients, intercept) and the report into the JSON the hard player reads in pure Python.
The same seed gives the same games, positions and weights.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from wargame.bots.memoir_easy import EASY  # noqa: E402
from wargame.bots.memoir_eval import FEATURES, MODEL_PATH, features  # noqa: E402
from wargame.bots.memoir_fast import FastEasy  # noqa: E402
from wargame.bots.memoir_search import NORMAL_WEIGHTS  # noqa: E402
from wargame.memoir import MemoirGame, scenario_ids  # noqa: E402

STYLES = {"easy": EASY, "normal": NORMAL_WEIGHTS}


def one_game(job: tuple[str, int, int]) -> list[dict]:
    sid, game_seed, seed = job
    rng = random.Random(f"{seed}:{sid}:{game_seed}")
    game = MemoirGame.from_scenario(sid)
    state = game.new_state(game_seed)
    players = {s: rng.choice(sorted(STYLES)) for s in game.sides}
    fast = {s: FastEasy(STYLES[players[s]]) for s in game.sides}
    rows = []
    guard = 0
    while not state.winner and guard < 20_000:
        side = state.side_to_act
        if side is None:
            break
        if state.phase == "card" and not state.pending:
            rows.append({"scenario": sid, "game_seed": game_seed, "side": side,
                         "turn": state.turn, "x": features(state, side)})
        fast[side].step(state)
        guard += 1
    for r in rows:
        r["won"] = int(state.winner == r["side"])
        r["players"] = players
    return rows


def generate(args: argparse.Namespace) -> int:
    jobs = [(sid, args.seed + g, args.seed) for g in range(args.games) for sid in scenario_ids()]
    n = 0
    with open(args.out, "w", encoding="utf-8") as out, \
            ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        for rows in pool.map(one_game, jobs):
            for r in rows:
                out.write(json.dumps(r) + "\n")
            n += len(rows)
    print(f"{len(jobs)} games, {n} positions -> {args.out}")
    return 0


def fit(args: argparse.Namespace) -> int:
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss
    from sklearn.preprocessing import StandardScaler

    rows = [json.loads(line) for line in Path(args.positions).read_text().splitlines() if line]
    if args.first is not None:  # the games of seeds seed .. seed + first - 1 (as --games first)
        low = min(r["game_seed"] for r in rows)
        rows = [r for r in rows if r["game_seed"] < low + args.first]
    if not rows:
        raise SystemExit(f"{args.positions}: no positions")
    x = np.array([r["x"] for r in rows], dtype=float)
    y = np.array([r["won"] for r in rows], dtype=int)
    games = sorted({(r["scenario"], r["game_seed"]) for r in rows})
    test_games = set(games[::5])
    test = np.array([(r["scenario"], r["game_seed"]) in test_games for r in rows])

    def model(xs, ys):
        scaler = StandardScaler().fit(xs)
        lr = LogisticRegression(C=1.0, max_iter=2000).fit(scaler.transform(xs), ys)
        return scaler, lr

    scaler, lr = model(x[~test], y[~test])
    p = lr.predict_proba(scaler.transform(x[test]))[:, 1]
    medals_only = model(x[~test][:, :1], y[~test])
    p0 = medals_only[1].predict_proba(medals_only[0].transform(x[test][:, :1]))[:, 1]
    base = np.full(test.sum(), y[~test].mean())
    report = {"games": len(games), "positions": len(rows), "held_out_games": len(test_games),
              "log_loss": round(float(log_loss(y[test], p)), 4),
              "log_loss_medals_only": round(float(log_loss(y[test], p0)), 4),
              "log_loss_constant": round(float(log_loss(y[test], base)), 4),
              "accuracy": round(float(((p > 0.5) == y[test]).mean()), 4)}
    scaler, lr = model(x, y)  # the shipped weights: every game
    data = {"features": list(FEATURES),
            "mean": [round(float(v), 6) for v in scaler.mean_],
            "scale": [round(float(v), 6) for v in scaler.scale_],
            "coef": [round(float(v), 6) for v in lr.coef_[0]],
            "intercept": round(float(lr.intercept_[0]), 6),
            "report": report,
            "source": "tools/train_memoir_eval.py generate --seed "
                      f"{min(r['game_seed'] for r in rows)} --games "
                      f"{len({r['game_seed'] for r in rows})}, then fit: scikit-learn "
                      "LogisticRegression(C=1) on standardised features"}
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report))
    for name, c in zip(FEATURES, data["coef"], strict=True):
        print(f"  {name:18s} {c:+.3f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate", help="positions and results from self-play")
    g.add_argument("--games", type=int, default=8, help="games per scenario")
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--workers", type=int, default=1)
    g.add_argument("--out", default="positions.jsonl")
    f = sub.add_parser("fit", help="fit the weights (scikit-learn)")
    f.add_argument("positions")
    f.add_argument("--out", default=str(MODEL_PATH))
    f.add_argument("--first", type=int, default=None,
                   help="only the first N games per scenario (the same as generate --games N)")
    args = ap.parse_args(argv)
    return generate(args) if args.cmd == "generate" else fit(args)


if __name__ == "__main__":
    raise SystemExit(main())
