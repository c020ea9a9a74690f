"""Benchmark: Memoir '44 random playouts beside python-chess random playouts, same process.

Like with like (issue #19: "Memoir random playouts >= 1x python-chess in games per second"):
each side plays the SAME number of whole games, every move a random legal one, in the same
process, and the ratio is Memoir games per second over chess games per second.

* Memoir '44: game ``i`` of a run is scenario ``i mod 17`` (every bundled scenario in turn),
  seeded ``seed + i``, played to the end with ``random_action`` (a random legal action,
  preferring battles and orders): ``legal_actions()`` plus ``apply(action, validate=False)``
  per action (the same contract as chess's ``push``: the action comes from
  ``legal_actions()``), dice and events included.
* Chess: ``chess.Board()`` games, each ply ``rng.choice(list(board.legal_moves))`` pushed with
  ``Board.push``, until ``is_game_over()`` (python-chess checks mate, stalemate, insufficient
  material, the 75-move rule and fivefold repetition there).

A run plays ``--games`` games of each side (default 68: four of every scenario), chess first in
odd runs, Memoir first in even ones; ``--runs`` runs (default 7). Run ``k`` plays the games
seeded from ``seed + k * games`` on (Memoir) and ``seed + k`` (chess's generator): other games
in every run, as the same seeds would find the Memoir move tables shared by a scenario's games
(``rules._Static.reach_memo``) filled with exactly their positions. For each run the ratio is
printed twice: from wall-clock time and from this process's CPU time (``time.process_time``,
which does not count the time other processes of a shared machine hold the cores). The
headline is the median of the wall-clock ratios, with their spread (min-max); the pooled
ratio (all games over all seconds of both sides) is printed beside it.
``--validated`` also times ``apply(action)`` (every action checked against the legal ones).

A Memoir action is not a chess move (ending a phase and picking a unit are actions of their
own), so actions/s against plies/s is printed for reference only.

Prints readable lines, then, as the LAST line, one JSON object. Goal: median ratio >= 1.
Run: ``python bench/memoir.py [--runs 7] [--games 68]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

try:
    import wargame  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame.bots.memoir_random import random_action  # noqa: E402
from wargame.memoir import MemoirGame, rules, scenario_ids  # noqa: E402


class Timed:
    """Games, moves, wall and CPU seconds of one side in one run."""

    def __init__(self, games: int, moves: int, wall: float, cpu: float) -> None:
        self.games, self.moves, self.wall, self.cpu = games, moves, wall, cpu

    @property
    def games_per_s(self) -> float:
        return self.games / self.wall

    @property
    def cpu_games_per_s(self) -> float:
        return self.games / self.cpu

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.wall


def memoir_games(n: int, seed: int = 0, validate: bool = False) -> Timed:
    games = _memoir_tables()
    actions = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(n):
        state = games[i % len(games)].new_state(seed + i)
        rng = random.Random(seed + i)
        while not state.is_terminal:
            state.apply(random_action(state, rng), validate=validate)
            actions += 1
    return Timed(n, actions, time.perf_counter() - wall, time.process_time() - cpu)


def chess_games(n: int, seed: int = 0) -> Timed:
    import chess

    rng = random.Random(seed)
    plies = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(n):
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    return Timed(n, plies, time.perf_counter() - wall, time.process_time() - cpu)


_GAMES: list[MemoirGame] = []


def _memoir_tables() -> list[MemoirGame]:
    """The scenarios' games, with their static tables built (outside the timed part, as
    python-chess's tables are built at import)."""
    if not _GAMES:
        for sid in scenario_ids():
            g = MemoirGame.from_scenario(sid)
            state = g.new_state(0)
            state.legal_actions()
            rules.static(state._terrain())
            _GAMES.append(g)
    return _GAMES


def spread(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 3), "min": round(min(values), 3),
            "max": round(max(values), 3)}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--games", type=int, default=68, help="games of each side per run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--validated", action="store_true",
                        help="also time apply(action) with validation")
    args = parser.parse_args(argv)
    try:
        import chess
    except ImportError:
        print("python-chess is not installed: pip install chess (test extra)")
        chess = None
    _memoir_tables()
    if chess is not None:  # warm python-chess alike
        chess_games(1, args.seed)
    memoir_games(1, args.seed)
    ratios, cpu_ratios, runs = [], [], []
    for k in range(args.runs):
        c = None
        seed = args.seed + k * args.games
        if chess is not None and k % 2 == 1:
            c = chess_games(args.games, args.seed + k)
        m = memoir_games(args.games, seed)
        if chess is not None and k % 2 == 0:
            c = chess_games(args.games, args.seed + k)
        v = memoir_games(args.games, seed, validate=True) if args.validated else None
        line = (f"run {k + 1}: Memoir {m.games} games, {m.moves} actions in {m.wall:.2f} s "
                f"({m.cpu:.2f} s CPU) -> {m.games_per_s:.1f} games/s")
        run = {"memoir_s": round(m.wall, 3), "memoir_cpu_s": round(m.cpu, 3),
               "memoir_actions": m.moves}
        if v is not None:
            line += f"; validated {v.games_per_s:.1f} games/s"
            run["memoir_validated_s"] = round(v.wall, 3)
        if c is not None:
            ratio, cpu_ratio = m.games_per_s / c.games_per_s, m.cpu_games_per_s / c.cpu_games_per_s
            ratios.append(ratio)
            cpu_ratios.append(cpu_ratio)
            line += (f"; chess {c.games} games, {c.moves} plies in {c.wall:.2f} s "
                     f"({c.cpu:.2f} s CPU) -> {c.games_per_s:.1f} games/s; "
                     f"ratio {ratio:.2f} (CPU time: {cpu_ratio:.2f})")
            run.update({"chess_s": round(c.wall, 3), "chess_cpu_s": round(c.cpu, 3),
                        "chess_plies": c.moves,
                        "ratio": round(ratio, 3), "cpu_ratio": round(cpu_ratio, 3)})
        print(line, flush=True)
        runs.append(run)
    n = args.games * args.runs
    result: dict = {"games_per_run": args.games, "runs": args.runs,
                    "memoir_actions_per_game": round(sum(r["memoir_actions"] for r in runs) / n),
                    "memoir_games_per_s": spread([args.games / r["memoir_s"] for r in runs])}
    if chess is not None:
        result.update({
            "chess_version": chess.__version__,
            "chess_plies_per_game": round(sum(r["chess_plies"] for r in runs) / n),
            "chess_games_per_s": spread([args.games / r["chess_s"] for r in runs]),
            "ratio": spread(ratios), "cpu_ratio": spread(cpu_ratios),
            "pooled_ratio": round(sum(r["chess_s"] for r in runs)
                                  / sum(r["memoir_s"] for r in runs), 3)})
        med = statistics.median(ratios)
        print(f"Memoir games/s / chess games/s over {args.runs} runs of {args.games} games "
              f"each: median {med:.2f} (min {min(ratios):.2f}, max {max(ratios):.2f}); "
              f"CPU-time median {statistics.median(cpu_ratios):.2f}, pooled "
              f"{result['pooled_ratio']:.2f} ({'goal met' if med >= 1 else 'goal NOT met'}: >= 1)")
        print(f"for reference, not like with like: {result['memoir_actions_per_game']} Memoir "
              "actions a game (a phase end or a unit pick is an action), "
              f"{result['chess_plies_per_game']} chess plies a game")
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
