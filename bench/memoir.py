"""Benchmark: Memoir '44 random playouts beside python-chess random playouts, same run.

Memoir '44: seeded games of every bundled scenario in turn, each played to the end with
``random_action`` (a random legal action, preferring battles and orders) -- the cost of
``legal_actions()`` plus ``apply()`` per action, dice and events included.
Chess: ``chess.Board()`` games, each ply a uniformly random move from ``list(legal_moves)``
pushed with ``Board.push`` (which does not re-check legality), until ``is_game_over()``.
Memoir is measured both ways: ``apply(action, validate=False)`` (the same contract as ``push``:
the action comes from ``legal_actions()``) -- the headline figure -- and ``apply(action)``. Each runs for ``--seconds`` (default 5) in total, in ``--rounds`` alternating slices so that
the load of a shared machine hits all of them alike (games in progress carry over slices).

Like with like: the unit both games share is a whole game played out (issue #19: "Memoir random
playouts >= 1x python-chess in games per second"). A Memoir action is not a chess move: ending
a phase and picking a unit to move or battle are actions of their own, so actions/s against
plies/s flattered Memoir; both are still printed, the goal is on games per second.

Prints readable lines, then, as the LAST line, one JSON object. Goal: Memoir games per second
>= chess games per second. Run: ``python bench/memoir.py [--seconds S]``.
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

from wargame.bots.memoir_random import random_action  # noqa: E402
from wargame.memoir import MemoirGame, rules, scenario_ids  # noqa: E402


class MemoirRunner:
    """Plays seeded random games of every scenario in turn; resumable in time slices."""

    def __init__(self, seed: int = 0, validate: bool = True) -> None:
        self.games = [MemoirGame.from_scenario(sid) for sid in scenario_ids()]
        for g in self.games:  # warm the per-scenario tables outside the timed part
            state = g.new_initial_state(0)
            state.legal_actions()
            rules.static(state._terrain())
        self.seed, self.validate = seed, validate
        self.i = 0
        self.games_done = self.actions = 0
        self.seconds = 0.0
        self.wins: dict[str, int] = {}
        self._new()

    def _new(self) -> None:
        game = self.games[self.i % len(self.games)]
        self.state = game.new_initial_state(self.seed + self.i)
        self.rng = random.Random(self.seed + self.i)

    def run(self, seconds: float) -> None:
        start = time.perf_counter()
        state, rng = self.state, self.rng
        while time.perf_counter() - start < seconds:
            for _ in range(50):
                if state.is_over:
                    self.wins[state.winner] = self.wins.get(state.winner, 0) + 1
                    self.games_done += 1
                    self.i += 1
                    self._new()
                    state, rng = self.state, self.rng
                state.apply(random_action(state, rng), validate=self.validate)
                self.actions += 1
        self.seconds += time.perf_counter() - start

    def result(self) -> dict[str, float]:
        return {"games": self.games_done, "actions": self.actions, "seconds": self.seconds,
                "games_per_s": self.games_done / self.seconds,
                "actions_per_s": self.actions / self.seconds,
                "actions_per_game": self.actions / max(1, self.games_done), "wins": self.wins}


class ChessRunner:
    def __init__(self, seed: int = 0) -> None:
        import chess

        self.chess = chess
        self.rng = random.Random(seed)
        self.board = chess.Board()
        self.games_done = self.plies = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        start = time.perf_counter()
        board, rng = self.board, self.rng
        while time.perf_counter() - start < seconds:
            for _ in range(50):
                if board.is_game_over():
                    self.games_done += 1
                    board = self.board = self.chess.Board()
                board.push(rng.choice(list(board.legal_moves)))
                self.plies += 1
        self.seconds += time.perf_counter() - start

    def result(self) -> dict[str, float]:
        return {"games": self.games_done, "plies": self.plies, "seconds": self.seconds,
                "games_per_s": self.games_done / self.seconds,
                "plies_per_s": self.plies / self.seconds, "version": self.chess.__version__}


def measure(seconds: float, seed: int = 0, rounds: int = 10):
    """Alternate short slices of the three runners so machine load hits them alike."""
    fast, checked = MemoirRunner(seed, validate=False), MemoirRunner(seed, validate=True)
    try:
        chess_runner: ChessRunner | None = ChessRunner(seed)
    except ImportError:
        chess_runner = None
    for _ in range(rounds):
        for r in (fast, checked, chess_runner):
            if r is not None:
                r.run(seconds / rounds)
    return fast.result(), checked.result(), (
        chess_runner.result() if chess_runner is not None else None)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=10, help="alternating time slices")
    args = parser.parse_args(argv)
    m, v, c = measure(args.seconds, args.seed, args.rounds)
    for what, r in (("apply(validate=False), like chess push", m),
                    ("apply() validating every action", v)):
        print(f"Memoir '44 random playouts, {what}: {r['games']} games, {r['actions']} actions "
              f"in {r['seconds']:.1f} s -> {r['games_per_s']:.1f} games/s, "
              f"{r['actions_per_s']:.0f} actions/s ({r['actions_per_game']:.0f} actions a game)")
    result = {"memoir_games_per_s": round(m["games_per_s"], 2),
              "memoir_actions_per_s": round(m["actions_per_s"]),
              "memoir_actions_per_game": round(m["actions_per_game"]),
              "memoir_validated_actions_per_s": round(v["actions_per_s"])}
    if c is None:
        print("python-chess is not installed: pip install chess (test extra)")
    else:
        print(f"python-chess {c['version']} random playouts: {c['games']} games, {c['plies']} "
              f"plies in {c['seconds']:.1f} s -> {c['games_per_s']:.1f} games/s, "
              f"{c['plies_per_s']:.0f} plies/s")
        ratio = m["games_per_s"] / c["games_per_s"]
        per_action = m["actions_per_s"] / c["plies_per_s"]
        print(f"Memoir games/s / chess games/s = {ratio:.2f} "
              f"({'goal met' if ratio >= 1 else 'goal NOT met'}: >= 1); for reference, Memoir "
              f"actions/s / chess plies/s = {per_action:.2f} (not like with like: a Memoir "
              "action is often only a phase end or a unit pick)")
        result.update({"chess_games_per_s": round(c["games_per_s"], 2),
                       "chess_plies_per_s": round(c["plies_per_s"]),
                       "ratio": round(ratio, 3), "actions_per_ply_ratio": round(per_action, 3)})
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
