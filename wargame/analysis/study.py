"""Campaign studies: many seeded bot games mapped over Dask workers (docs/DESIGN.md "Scale").

``run_study("dragoon", games=200, seed=1)`` plays 200 campaigns between computer players on a
local Dask cluster (one process a core, one thread each) or on the cluster whose scheduler
address is given (``scheduler="tcp://host:8786"``). Game ``i`` is played with the seed
``game_seed(seed, i)`` whatever worker plays it, and every policy is deterministic given its
seed, so the table is the same for any number of workers.

The games go to the workers in batches (``batches``), several games a task. The local cluster
listens on 127.0.0.1 only, and starts Dask's dashboard only when asked (``local_cluster``).

A game that raises does not stop the study: it is recorded (seed, exception, the traceback's
last frame, actions played) in ``Study.failures`` and, with ``out``, ``failed/NNNNNN.json``;
the summary counts failed games apart, and a resumed study skips them unless
``retry_failed``.

Per game a row: seed, winner, victory points and units lost per side (and by nation), the turn
each victory city (CN/OD 11.2) first fell whole to the Allies, the number of actions.

With ``out`` (a folder) each game is written as its batch finishes (``games/NNNNNN.json``);
running the same study again with the same ``out`` plays only the games not there yet, so a
killed study resumes and loses only the batches under way. The full table is written beside
the study's parameters (``study.json``) as ``results.parquet`` when pyarrow is installed, else
``results.csv``.

``Study.summary()`` gives win rates (Wilson 95% intervals) and mean VP (normal 95% intervals);
``compare(a, b)`` puts two studies side by side; ``against_history(study)`` counts the games in
which each city fell earlier than it really did (history.yaml, or dates given).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import hashlib
import importlib.util
import json
import math
import os
import sys
import traceback
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wargame.analysis.whatif import WhatIf, apply_whatif, load_whatif
from wargame.dice import DICE_VERSION

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Study",
    "run_study",
    "game_seed",
    "play_study_game",
    "play_study_games",
    "batches",
    "local_cluster",
    "compare",
    "against_history",
    "turn_of_date",
    "results_hash",
    "MAX_STUDY_GAMES",
    "max_workers",
    "record_balance",
]

STUDY_VERSION = 1
SEED_STRIDE = 1_000_003
# the bounds of a study (issue #31; the command line's are the same: wargame.cli): 10**9 games
# ended in MemoryError, 12 workers on 2 cores meant 14 processes and 1.2 GB
MAX_STUDY_GAMES = 1_000_000


def max_workers() -> int:
    """The most local worker processes a study starts: twice this machine's cores."""
    return 2 * (os.cpu_count() or 1)


Z95 = 1.959964


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a study of ``seed`` (independent of the workers)."""
    return int(seed) * SEED_STRIDE + int(index)


# ------------------------------------------------------------------------ one game (worker)
@functools.lru_cache(maxsize=8)
def _game(spec_json: str) -> Any:
    """The game definition of a study, built once per worker process."""
    spec = json.loads(spec_json)
    variants = tuple(spec["variants"])
    if spec.get("whatif") is not None:
        from wargame.operational.state import Game
        from wargame.scenario import load_scenario

        whatif = WhatIf(spec["whatif"]["name"], spec["whatif"]["source"], spec["whatif"]["data"])
        return Game(apply_whatif(load_scenario(spec["scenario"]), whatif), variants=variants)
    from wargame.games import open_game

    return open_game(spec["scenario"], variants=variants)


def _cities(game: Any) -> dict[str, tuple[Any, ...]]:
    """Victory city name -> its hexes (campaigns; empty for other games)."""
    from wargame.registry import family_of_game

    scenario = getattr(game, "scenario", None)
    if not family_of_game(game).scenario_columns or scenario is None:
        return {}
    out = {}
    for v in scenario.rule("victory", []) or []:
        if isinstance(v, dict) and v.get("kind") == "city":
            out[v["place"]] = tuple(scenario.board.places.get(v["place"], ()))
    return out


def _nations(game: Any) -> list[str]:
    from wargame.registry import family_of_game

    units = getattr(game, "units", None)
    if not family_of_game(game).scenario_columns or not isinstance(units, Mapping):
        return []
    return sorted({getattr(u, "nation", "") for u in units.values()} - {""})


def _policies(game: Any, spec: dict[str, Any], seed: int) -> dict[str, Any]:
    from wargame.bots.play import make_policy
    from wargame.registry import family_of_game, resolve

    postured = family_of_game(game).postured
    first, second = game.sides
    names = {first: spec["allied"], second: spec["axis"]}
    postures = spec.get("postures") or {}
    out = {}
    for k, side in enumerate((first, second)):
        if names[side] == "greedy" and postures and postured:
            out[side] = resolve(postured)(postures)
        else:
            out[side] = make_policy(game, names[side], seed * 2 + 1 + k)
    return out


def play_study_game(spec_json: str, index: int) -> dict[str, Any]:
    """Play game ``index`` of the study ``spec_json`` and return its row (runs on a worker).

    A game that raises gives its failure record instead (``failed`` true; ``_failure``): the
    exception is caught here, on the worker, so one bad game never stops a study."""
    from wargame.bots.play import play

    spec = json.loads(spec_json)
    game = _game(spec_json)
    seed = game_seed(spec["seed"], index)
    state = None
    try:
        state = game.new_state(seed)
        cities = _cities(game)
        fell: dict[str, int | None] = dict.fromkeys(cities)

        def watch(s: Any, _action: Any) -> None:
            control = s.control
            for name, hexes in cities.items():
                if fell[name] is None and hexes and all(control.get(h) == "allied"
                                                        for h in hexes):
                    fell[name] = int(s.turn)

        play(state, _policies(game, spec, seed), on_action=watch if cities else None)
        result = state.outcome()
    except Exception as exc:  # noqa: BLE001 - any bug of a rule or a bot: recorded, not raised
        return _failure(index, seed, exc, state)
    first, second = game.sides
    row: dict[str, Any] = {
        "game": int(index),
        "seed": seed,
        "winner": {first: "allied", second: "axis"}.get(result.winner, "draw"),
        "allied_vp": int(result.scores.get(first, 0)),
        "axis_vp": int(result.scores.get(second, 0)),
        "allied_lost": int(result.losses.get(first, 0)),
        "axis_lost": int(result.losses.get(second, 0)),
    }
    nations = _nations(game)
    if nations:
        lost = dict.fromkeys(nations, 0)
        for uid, us in state.units.items():
            if getattr(us, "status", "") == "eliminated":
                lost[game.units[uid].nation] += 1
        row.update({f"lost_{n}": lost[n] for n in nations})
    row.update({f"fell_{name}": turn for name, turn in fell.items()})
    row["actions"] = len(state.action_log)
    row["last_turn"] = int(getattr(state, "turn", 0) or 0)
    return row


def play_study_games(spec_json: str, indices: list[int]) -> list[dict[str, Any]]:
    """Games ``indices`` of the study, one after the other: one Dask task (a batch of games,
    so the task's own cost is small against a game's)."""
    return [play_study_game(spec_json, i) for i in indices]


FAILURE_KEYS = ("game", "seed", "error_type", "error_message", "error_where", "actions",
                "last_turn")


def _failure(index: int, seed: int, exc: BaseException, state: Any) -> dict[str, Any]:
    """The record of a game that raised: its seed, the exception's type and message, where it
    was raised (the traceback's last frame) and the actions played before it."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    if frames:
        last = frames[-1]
        where = f"{_short_path(last.filename)}:{last.lineno} in {last.name}"
    message = str(exc).splitlines()[0] if str(exc) else ""
    return {
        "game": int(index),
        "seed": int(seed),
        "failed": True,
        "error_type": type(exc).__name__,
        "error_message": message[:500],
        "error_where": where,
        "actions": len(getattr(state, "action_log", ()) or ()),
        "last_turn": int(getattr(state, "turn", 0) or 0),
    }


def _short_path(filename: str) -> str:
    """``filename`` from the package's folder on (wargame/bots/greedy.py), else as it is."""
    root = Path(__file__).resolve().parent.parent.parent
    try:
        return Path(filename).resolve().relative_to(root).as_posix()
    except ValueError:
        return filename


# ------------------------------------------------------------------------------ the study
@dataclass
class Study:
    """A finished (or resumed) study: its parameters and one row per game."""

    params: dict[str, Any]
    table: pd.DataFrame
    path: Path | None = None
    played: int = 0  # games played by this run (the rest were already in ``out``)
    cities: tuple[str, ...] = field(default_factory=tuple)
    # games that raised, one record each (FAILURE_KEYS), by game number; not in ``table``
    failures: list[dict[str, Any]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return str(self.params.get("name") or self.params["scenario"])

    def summary(self) -> dict[str, Any]:
        """Win rates with Wilson 95% intervals, mean VP and losses with normal 95% intervals,
        and per victory city the share of games in which it fell and its mean turn.

        ``games`` counts the finished games, the ones all the figures are of; the games that
        raised are counted apart (``failed``, and their seeds in ``failed_seeds``)."""
        t = self.table
        n = len(t)
        out: dict[str, Any] = {"name": self.name, "scenario": self.params["scenario"],
                               "games": n, "seed": self.params["seed"],
                               "allied": self.params["allied"], "axis": self.params["axis"],
                               "failed": len(self.failures),
                               "failed_seeds": [int(f["seed"]) for f in self.failures]}
        for who, key in (("allied", "allied_win"), ("axis", "axis_win"), ("draw", "draw")):
            k = int((t["winner"] == who).sum()) if n else 0
            out[f"{key}s"] = k
            out[f"{key}_rate"] = k / n if n else None
            out[f"{key}_rate_ci"] = list(wilson(k, n)) if n else None
        for col in ("allied_vp", "axis_vp", "allied_lost", "axis_lost"):
            mean, lo, hi = mean_ci(t[col]) if n else (None, None, None)
            out[f"{col}_mean"], out[f"{col}_ci"] = mean, (None if n == 0 else [lo, hi])
        out["cities"] = {}
        for city in self.cities:
            taken = t[f"fell_{city}"].dropna() if n else []
            out["cities"][city] = {
                "fell_share": len(taken) / n if n else None,
                "mean_turn": float(taken.mean()) if len(taken) else None,
            }
        return out


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion k/n."""
    if n == 0:
        return (float("nan"), float("nan"))
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return (lo, hi)


def mean_ci(values: Iterable[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation 95% interval (mean ± z·s/√n)."""
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        return (float("nan"),) * 3
    m = sum(xs) / n
    if n == 1:
        return (m, m, m)
    s = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = z * s / math.sqrt(n)
    return (m, m - half, m + half)


def _params(scenario: str, seed: int, variants: tuple[str, ...], allied: str, axis: str,
            postures: dict[str, tuple[float, float]] | None, whatif: WhatIf | None) -> dict:
    return {
        "version": STUDY_VERSION,
        "dice": DICE_VERSION,  # a study's games are new games: never mixed with other dice
        "scenario": scenario,
        "seed": int(seed),
        "variants": list(variants),
        "allied": allied,
        "axis": axis,
        "postures": {s: [float(p[0]), float(p[1])] for s, p in sorted((postures or {}).items())},
        "whatif": None if whatif is None else {"name": whatif.name, "source": whatif.source,
                                               "data": whatif.data},
        "name": whatif.name if whatif is not None else scenario,
    }


def _same_study(a: dict[str, Any], b: dict[str, Any]) -> bool:
    keys = ("version", "dice", "scenario", "seed", "variants", "allied", "axis", "postures")
    if any(a.get(k) != b.get(k) for k in keys):
        return False
    wa, wb = a.get("whatif"), b.get("whatif")
    return (wa or {}).get("data") == (wb or {}).get("data")


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _load_records(folder: Path, games: int, failures: bool) -> dict[int, dict[str, Any]]:
    """The game files of ``folder`` (games/ or failed/), by game number below ``games``."""
    done: dict[int, dict[str, Any]] = {}
    for f in sorted(folder.glob("*.json")):
        try:
            row = json.loads(f.read_text(encoding="utf-8"))
            i = int(row["game"])
        except (ValueError, KeyError, TypeError, OSError):
            continue  # a file cut short by a kill: the game is played again
        if bool(row.get("failed")) != failures:
            continue
        if 0 <= i < games:
            done[i] = row
    return done


def _table(rows: list[dict[str, Any]], columns: list[str]) -> pd.DataFrame:
    import pandas as pd

    table = pd.DataFrame(rows, columns=columns or None)
    for c in table.columns:
        if c.startswith("fell_"):
            table[c] = table[c].astype("Int64")
    return table.sort_values("game").reset_index(drop=True) if len(table) else table


def results_hash(table: pd.DataFrame) -> str:
    """A short hash of a study's table (the same games give the same hash)."""
    return hashlib.sha256(table.to_csv(index=False).encode()).hexdigest()[:16]


def _columns(spec_json: str) -> list[str]:
    game = _game(spec_json)
    cols = ["game", "seed", "winner", "allied_vp", "axis_vp", "allied_lost", "axis_lost"]
    cols += [f"lost_{n}" for n in _nations(game)]
    cols += [f"fell_{c}" for c in _cities(game)]
    return cols + ["actions", "last_turn"]


def run_study(
    scenario: str,
    games: int,
    seed: int = 1,
    variants: Iterable[str] = (),
    allied: str = "greedy",
    axis: str = "greedy",
    postures: Mapping[str, tuple[float, float]] | None = None,
    whatif: str | Path | WhatIf | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    out: str | Path | None = None,
    progress: bool = True,
    processes: bool = True,
    retry_failed: bool = False,
    dashboard: bool = False,
    use_dask: bool = True,
    on_client: Callable[[Any], None] | None = None,
) -> Study:
    """Play ``games`` seeded games of ``scenario`` on Dask and return the ``Study``.

    ``workers``: local worker processes (default one per core; ``processes=False`` makes
    them threads of this process, for quick tests). ``scheduler``: the address of a running
    cluster instead. ``whatif``: a what-if file (or a loaded ``WhatIf``); its variants and
    postures add to ``variants`` and ``postures``. ``out``: a folder to write and resume.

    A game that raises is recorded (``Study.failures``; ``out/failed/NNNNNN.json``) and the
    study goes on; resuming skips the recorded failures unless ``retry_failed``.
    The local cluster listens on 127.0.0.1 only; its HTTP dashboard is started only with
    ``dashboard`` (then at ``client.dashboard_link``, on 127.0.0.1 too). ``on_client`` is
    called with the Dask client once it is connected. ``use_dask=False`` plays the games one
    after the other in this process, without Dask (the same table)."""
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if games > MAX_STUDY_GAMES:
        raise ValueError(f"games must be <= {MAX_STUDY_GAMES}, got {games}")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    if workers is not None and workers > max_workers():
        raise ValueError(f"workers must be <= {max_workers()} (twice the cores), got {workers}")
    loaded: WhatIf | None = None
    from wargame.registry import family_of

    if whatif is not None and not family_of(scenario).whatif:
        raise ValueError("what-if files change campaign scenarios (normandy, dragoon), "
                         f"not {scenario}")
    if whatif is not None:
        if isinstance(whatif, WhatIf):
            loaded = whatif
        else:
            from wargame.scenario import load_scenario

            loaded = load_whatif(whatif, load_scenario(scenario))
    all_variants = tuple(dict.fromkeys([*variants, *(loaded.variants if loaded else ())]))
    all_postures = dict(postures or {})
    if loaded is not None:
        all_postures.update(loaded.postures)
    params = _params(scenario, seed, all_variants, allied, axis, all_postures, loaded)
    spec_json = json.dumps({k: params[k] for k in
                            ("scenario", "seed", "variants", "allied", "axis", "postures",
                             "whatif")}, sort_keys=True)
    columns = _columns(spec_json)  # also checks scenario, variants, what-if here, not remotely
    game = _game(spec_json)
    from wargame.bots.play import make_policy

    for name in (allied, axis):
        make_policy(game, name)  # an unknown player: ValueError before any worker starts

    folder = Path(out) if out is not None else None
    done: dict[int, dict[str, Any]] = {}
    failed: dict[int, dict[str, Any]] = {}
    if folder is not None:
        (folder / "games").mkdir(parents=True, exist_ok=True)
        meta = folder / "study.json"
        if meta.exists():
            try:
                old = json.loads(meta.read_text(encoding="utf-8"))
            except ValueError:
                old = None
            if not isinstance(old, dict) or not _same_study(old, params):
                raise ValueError(f"{folder}: holds another study (study.json differs); "
                                 "give another --out or delete it")
        _write_atomic(meta, json.dumps({**params, "games": games}, indent=2))
        done = _load_records(folder / "games", games, failures=False)
        # a folder written before failures were recorded has no failed/: nothing to skip
        failed = {i: r for i, r in _load_records(folder / "failed", games, failures=True).items()
                  if i not in done}
    todo = [i for i in range(games) if i not in done and (retry_failed or i not in failed)]
    rows = dict(done)
    if todo:
        play = _run if use_dask else _run_here
        records = play(spec_json, todo, workers, scheduler, progress, processes,
                       games - len(todo), games, dashboard, on_client)
        with contextlib.closing(records):  # the cluster closed even if a write fails
            _collect(records, rows, failed, folder)
    table = _table([rows[i] for i in sorted(rows)], columns)
    study = Study(params={**params, "games": games}, table=table, path=folder,
                  played=len(todo), cities=tuple(c[5:] for c in columns if c.startswith("fell_")),
                  failures=[failed[i] for i in sorted(failed)])
    if folder is not None:
        if importlib.util.find_spec("pyarrow") is not None:
            table.to_parquet(folder / "results.parquet", index=False)
        else:
            _write_atomic(folder / "results.csv", table.to_csv(index=False))
        record_balance(study)
    return study


def record_balance(study: Study, path: Path | None = None) -> bool:
    """Keep ``study``'s balance (its win counts) as its scenario's, for ``wargame scenario
    list`` and the Memoir '44 new-game panel (``wargame.catalog.scenario_balance``, issue 32),
    in ``wargame.paths.user_balance_file``. Only a study of the scenario as it is (no variants,
    no what-if) with finished games counts, and it replaces the one kept only if it has at
    least as many games. True when kept."""
    from wargame.paths import user_balance_file

    params, t = study.params, study.table
    n = len(t)
    if n == 0 or params.get("variants") or params.get("whatif"):
        return False
    path = path or user_balance_file()
    try:
        kept = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, ValueError):
        kept = {}  # a damaged file is written anew
    kept = kept if isinstance(kept, dict) else {}
    scenario = str(params["scenario"])
    old = kept.get(scenario)
    if isinstance(old, dict) and old.get("dice") == DICE_VERSION and \
            isinstance(old.get("games"), int) and old["games"] > n:
        return False
    kept[scenario] = {
        "games": n,
        "allied_wins": int((t["winner"] == "allied").sum()),
        "axis_wins": int((t["winner"] == "axis").sum()),
        "draws": int((t["winner"] == "draw").sum()),
        "allied": params["allied"], "axis": params["axis"], "seed": int(params["seed"]),
        "dice": DICE_VERSION, "folder": str(study.path) if study.path else None,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_atomic(path, json.dumps(kept, indent=1, sort_keys=True))
    return True


def _collect(records: Iterable[dict[str, Any]], rows: dict[int, dict[str, Any]],
             failed: dict[int, dict[str, Any]], folder: Path | None) -> None:
    """Each game's row (or failure record) into ``rows`` (``failed``) and, with a folder,
    into its file as it comes: games/NNNNNN.json, or failed/NNNNNN.json for a game that raised
    (a retried game that now finishes loses its failure file)."""
    for record in records:
        i = int(record["game"])
        if record.get("failed"):
            failed[i] = {k: record[k] for k in ("failed", *FAILURE_KEYS)}
            if folder is not None:
                (folder / "failed").mkdir(exist_ok=True)
                _write_atomic(folder / "failed" / f"{i:06d}.json", json.dumps(failed[i]))
            continue
        rows[i] = record
        failed.pop(i, None)
        if folder is not None:
            _write_atomic(folder / "games" / f"{i:06d}.json", json.dumps(record))
            (folder / "failed" / f"{i:06d}.json").unlink(missing_ok=True)


def batches(todo: list[int], slots: int, per_slot: int = 4) -> list[list[int]]:
    """``todo`` cut into Dask tasks: each batch is the games left over ``per_slot`` times the
    worker slots (at least one game), so the first batches are large (the cost of a task is
    small against its games) and the last ones small (no worker idles long at the end while
    another finishes a big batch). Deterministic, and it changes no result: each game's seed
    depends on its number only."""
    out: list[list[int]] = []
    k = 0
    while k < len(todo):
        size = max(1, math.ceil((len(todo) - k) / (per_slot * max(1, slots))))
        out.append(todo[k:k + size])
        k += size
    return out


LOOPBACK = "127.0.0.1"


def local_cluster(workers: int, processes: bool = True, dashboard: bool = False) -> Any:
    """A LocalCluster of ``workers`` single-threaded workers (processes: games are pure
    Python, so threads would share one core) on which nothing listens beyond 127.0.0.1.

    Without ``dashboard`` the scheduler's HTTP server (which distributed always starts) has no
    route at all and a random loopback port; with it, the Bokeh dashboard on 127.0.0.1."""
    import logging

    import dask
    from distributed import LocalCluster

    options: dict[str, Any] = {
        "n_workers": workers, "threads_per_worker": 1, "processes": processes,
        "dashboard_address": f"{LOOPBACK}:0",  # ":0" would bind 0.0.0.0
        "worker_dashboard_address": None,  # workers' HTTP servers: loopback, no dashboard
        "scheduler_kwargs": {"dashboard": dashboard},
        "silence_logs": logging.ERROR,
    }
    # scheduler, nannies and workers: TCP on loopback only. Threads of this process too: with
    # inproc:// comms a worker has no address, and its HTTP server would bind 0.0.0.0
    options.update(host=LOOPBACK, protocol="tcp://")
    # the workers' statistical profiler walks their stacks every 10 ms, taking the GIL from a
    # pure-Python game: off (the nannies hand this config to the worker processes)
    config: dict[str, Any] = {"distributed.worker.profile.enabled": False}
    if not dashboard:
        config["distributed.scheduler.http.routes"] = []
    with dask.config.set(config):
        return LocalCluster(**options)


def _run(spec_json: str, todo: list[int], workers: int | None, scheduler: str | None,
         progress: bool, processes: bool, initial: int, total: int, dashboard: bool,
         on_client: Callable[[Any], None] | None) -> Generator[dict[str, Any], None, None]:
    """The games ``todo`` in batches on Dask: each game's row or failure record as its batch
    finishes (in no set order; the table is sorted by game)."""
    from distributed import Client, as_completed
    from tqdm import tqdm

    cluster = None
    if scheduler:
        client = Client(scheduler, timeout="10s")
    else:
        n = min(workers or os.cpu_count() or 1, len(todo))
        cluster = local_cluster(n, processes=processes, dashboard=dashboard)
        client = Client(cluster)
    bar = tqdm(total=total, initial=initial, file=sys.stderr, disable=not progress,
               desc="games", unit="game")
    try:
        if on_client is not None:
            on_client(client)
        slots = sum(client.nthreads().values()) or 1
        chunks = batches(todo, slots)
        futures = client.map(play_study_games, [spec_json] * len(chunks), chunks, pure=False)
        for fut in as_completed(futures):
            records = fut.result()
            yield from records
            bar.update(len(records))
    finally:
        bar.close()
        client.close()
        if cluster is not None:
            cluster.close()


def _run_here(spec_json: str, todo: list[int], workers: int | None, scheduler: str | None,
              progress: bool, processes: bool, initial: int, total: int, dashboard: bool,
              on_client: Callable[[Any], None] | None) -> Generator[dict[str, Any], None, None]:
    """The games ``todo`` one after the other in this process (no Dask)."""
    from tqdm import tqdm

    with tqdm(total=total, initial=initial, file=sys.stderr, disable=not progress,
              desc="games", unit="game") as bar:
        for i in todo:
            yield play_study_game(spec_json, i)
            bar.update(1)


# ---------------------------------------------------------------------------- comparisons
def compare(a: Study, b: Study) -> pd.DataFrame:
    """Two studies side by side: win rates, mean VP and losses, and per city the share of
    games in which it fell and its mean turn; ``difference`` is b minus a."""
    import pandas as pd

    sa, sb = a.summary(), b.summary()
    name_a, name_b = a.name, (b.name if b.name != a.name else f"{b.name} (b)")
    rows = []

    def add(label: str, va: Any, vb: Any) -> None:
        diff = vb - va if isinstance(va, int | float) and isinstance(vb, int | float) else None
        rows.append({"measure": label, name_a: va, name_b: vb, "difference": diff})

    add("games", sa["games"], sb["games"])
    for who, key in (("allied", "allied_win"), ("axis", "axis_win"), ("draw", "draw")):
        add(f"{who} rate", sa[f"{key}_rate"], sb[f"{key}_rate"])
    for col in ("allied_vp", "axis_vp", "allied_lost", "axis_lost"):
        add(f"mean {col.replace('_', ' ')}", sa[f"{col}_mean"], sb[f"{col}_mean"])
    for city in dict.fromkeys([*a.cities, *b.cities]):
        ca = sa["cities"].get(city, {})
        cb = sb["cities"].get(city, {})
        add(f"{city} taken (share)", ca.get("fell_share"), cb.get("fell_share"))
        add(f"{city} mean turn taken", ca.get("mean_turn"), cb.get("mean_turn"))
    return pd.DataFrame(rows).set_index("measure")


def turn_of_date(scenario: Any, day: str | dt.date) -> int:
    """The turn whose days hold ``day`` (``Scenario.turn_days``: OD 2.4.1 turn 1 is 15-16
    August 1944, turn 14 is 10-11 September; CN 2.4.1 turn 0 is 6 June alone, turn 1 is 7-9
    June). A day before the game is its first turn, a day after it ``last_turn + 1``."""
    when = day if isinstance(day, dt.date) else dt.date.fromisoformat(str(day))
    for n in range(scenario.first_turn, scenario.last_turn + 1):
        days = scenario.turn_days(n)
        if days is not None and when <= dt.date.fromisoformat(days[1]):
            return n
    return scenario.last_turn + 1


def _historical_turns(study: Study, history: Any) -> dict[str, int | None]:
    from wargame.scenario import load_scenario

    scenario = load_scenario(study.params["scenario"])
    if history is None:
        from wargame.history import load_history

        try:
            history = load_history(scenario=scenario)
        except (OSError, ValueError) as exc:
            raise ValueError(f"no history for {scenario.id} ({exc}); pass history={{city: "
                             "date or turn}}") from None
    if isinstance(history, Mapping):
        return {c: (v if isinstance(v, int) or v is None else turn_of_date(scenario, v))
                for c, v in history.items()}
    turns: dict[str, int | None] = dict.fromkeys(history.city_hexes)
    for t in history.turns:
        for city in t.allied_cities:
            if turns.get(city) is None:
                turns[city] = t.turn
    return turns


def against_history(study: Study, history: Any = None) -> pd.DataFrame:
    """Per victory city: the turn it really fell (history.yaml: first turn held whole; or
    ``history`` mapping city -> ISO date or turn), the games in which it fell, and in how many
    it fell earlier than in 1944 (a city never taken in the game's span: any capture)."""
    import pandas as pd

    real = _historical_turns(study, history)
    rows = []
    n = len(study.table)
    for city in study.cities:
        col = study.table[f"fell_{city}"].dropna()
        when = real.get(city)
        earlier = int((col < when).sum()) if when is not None else len(col)
        rows.append({"city": city, "history_turn": when, "games": n, "taken": len(col),
                     "earlier": earlier, "earlier_share": earlier / n if n else float("nan")})
    return pd.DataFrame(rows).set_index("city")
