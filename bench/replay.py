"""Benchmark of loading saves and undoing late in a game (wargame/saves.py,
wargame/checkpoints.py, the store's undo and load in wargame/ui/store.py).

Bot games are played once (greedy vs greedy in Normandy and Dragoon, random vs random in
Memoir '44 scenario 1) and kept in ``--saves`` (default: a folder in the temporary directory),
then, for each (median of ``--repeat`` runs, seconds):

* ``load_game``: ``wargame.saves.load_game`` of the file (scenario files + replay + fingerprint);
* ``store_load``: the dashboard's Load (``GameStore.load_text``) into a store of that game:
  one replay pass giving the state, the event log and the checkpoints;
* ``store_undo``: one Undo at the end of the loaded game (nearest checkpoint + the tail);
* ``before_load``/``before_undo``: what the same did before checkpoints and the replay fast
  path: the dashboard replayed the whole log from the seed with the guarded ``apply`` twice on
  Load (the state, then its events) and once on Undo.

Goals: store_load and store_undo under 0.5 s for a full Normandy game. The last line printed
is one JSON object with every figure.

    .venv/bin/python bench/replay.py [--repeat 3] [--saves DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wargame.bots.play import make_policy, play  # noqa: E402
from wargame.games import open_game  # noqa: E402
from wargame.saves import load_game, parse_save_text, save_game  # noqa: E402
from wargame.ui.memoir_model import MemoirStore  # noqa: E402
from wargame.ui.model import CampaignState  # noqa: E402
from wargame.ui.store import GameStore  # noqa: E402

GAMES = {"normandy": "greedy", "dragoon": "greedy", "memoir44-1": "random"}
SEED = 1944


def bot_save(scenario: str, folder: Path) -> Path:
    path = folder / f"{scenario}-{SEED}.json"
    if path.exists():
        return path
    game = open_game(scenario)
    name = GAMES[scenario]
    first, second = game.sides
    policies = {first: make_policy(game, name, SEED * 2 + 1),
                second: make_policy(game, name, SEED * 2 + 2)}
    t = time.perf_counter()
    state = play(game.new_state(SEED), policies)
    print(f"{scenario}: bot game of {len(state.action_log)} actions played in "
          f"{time.perf_counter() - t:.1f} s", flush=True)
    return save_game(state, path)


def timed(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def guarded_replay(game: Any, seed: int, actions: list[Any]) -> list[Any]:
    """The replay before the fast path: ``apply`` (with its refusal snapshot) from the seed,
    keeping the events as the store did."""
    state = game.new_state(seed)
    events: list[Any] = []
    for data in actions:
        events.extend(state.apply(game.action_from_dict(data)))
    return events


def new_store(scenario: str, game: Any) -> GameStore:
    if game.kind == "memoir":
        return MemoirStore(scenario.removeprefix("memoir44-"), SEED)
    return CampaignState(game, seed=SEED)


def measure(scenario: str, path: Path, repeat: int) -> dict[str, float | int]:
    text = path.read_text(encoding="utf-8")
    data = parse_save_text(text)
    game = open_game(scenario)
    store = new_store(scenario, game)
    out: dict[str, float | int] = {"actions": len(data["actions"])}
    out["load_game"] = timed(lambda: load_game(path), repeat)

    def load() -> None:
        assert store.load_text(text), store.message

    out["store_load"] = timed(load, repeat)

    def undo() -> None:  # undo then load back is two operations: time the undo alone
        load()
        t = time.perf_counter()
        assert store.undo(), store.message
        undo_times.append(time.perf_counter() - t)

    undo_times: list[float] = []
    for _ in range(repeat):
        undo()
    out["store_undo"] = statistics.median(undo_times)
    actions = data["actions"]
    out["before_load"] = timed(lambda: [guarded_replay(game, SEED, actions) for _ in range(2)],
                               repeat)
    out["before_undo"] = timed(lambda: guarded_replay(game, SEED, actions[:-1]), repeat)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--saves", type=Path,
                        default=Path(tempfile.gettempdir()) / "wargame-bench-replay")
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    args = parser.parse_args()
    args.saves.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict[str, float | int]] = {}
    for scenario in args.games:
        path = bot_save(scenario, args.saves)
        r = results[scenario] = measure(scenario, path, args.repeat)
        print(f"{scenario} ({r['actions']} actions): load_game {r['load_game']:.3f} s, "
              f"dashboard Load {r['store_load']:.3f} s (before {r['before_load']:.2f} s), "
              f"late-game Undo {r['store_undo'] * 1000:.1f} ms "
              f"(before {r['before_undo']:.2f} s)", flush=True)
    print(json.dumps({k: {m: round(v, 4) for m, v in r.items()} for k, r in results.items()}))


if __name__ == "__main__":
    main()
