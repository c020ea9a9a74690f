"""Saving, loading, replay and undo of campaign games.

A save is plain JSON: the format version, the scenario id, the seed, the variants, the action
log, and a fingerprint of the position. Loading replays the log from the seed and checks the
fingerprint, so a truncated or hand-edited save is refused with a clear message. Saves are
written atomically (temporary file, then rename): an interrupted save never destroys the
previous one.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from wargame.operational.actions import IllegalAction, action_from_dict
from wargame.operational.state import SAVE_FORMAT_VERSION, Game, State
from wargame.operational.variants import normalize_variants
from wargame.scenario_errors import ScenarioError

__all__ = ["to_save", "from_save", "save_game", "load_game", "replay", "undo", "SAVE_FORMAT_VERSION"]


def to_save(state: State) -> dict[str, Any]:
    return {
        "format": "wargame-campaign-save",
        "format_version": SAVE_FORMAT_VERSION,
        "scenario": state.game.scenario.id,
        "seed": state.seed,
        "variants": list(state.game.variants),
        "actions": list(state.log),
        "fingerprint": state.fingerprint(),
    }


def replay(game: Game, seed: int, actions: list[dict[str, Any]], source: str = "<log>") -> State:
    """Replay an action log from the start: the same seed and actions give the same game."""
    state = game.new_state(seed)
    for i, data in enumerate(actions):
        try:
            action = action_from_dict(data)
        except ValueError as exc:
            raise ScenarioError(source, f"actions[{i}]", "an action of the campaign engine", str(exc)) from None
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise ScenarioError(source, f"actions[{i}]", "a legal action when replayed", str(exc)) from None
    return state


def from_save(data: Any, source: str = "<save>", game: Game | None = None) -> State:
    if not isinstance(data, dict) or data.get("format") != "wargame-campaign-save":
        raise ScenarioError(source, "format", "'wargame-campaign-save'", data.get("format") if isinstance(data, dict) else data)
    version = data.get("format_version")
    if version != SAVE_FORMAT_VERSION:
        raise ScenarioError(source, "format_version", f"{SAVE_FORMAT_VERSION}", version)
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ScenarioError(source, "seed", "a whole number", seed)
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise ScenarioError(source, "actions", "a list of actions", actions)
    variants = data.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise ScenarioError(source, "variants", "a list of variant names", variants)
    try:
        variants = list(normalize_variants(variants))  # BFN 19: the variant rules played
    except ValueError as exc:
        raise ScenarioError(source, "variants", "known variant names", str(exc)) from None
    if game is None:
        scenario = data.get("scenario")
        if not isinstance(scenario, str):
            raise ScenarioError(source, "scenario", "a bundled scenario id", scenario)
        game = Game(scenario, variants=variants)
    elif data.get("scenario") != game.scenario.id:
        raise ScenarioError(source, "scenario", repr(game.scenario.id), data.get("scenario"))
    elif list(game.variants) != variants:
        raise ScenarioError(source, "variants", repr(list(game.variants)), variants)
    state = replay(game, seed, actions, source)
    expected = data.get("fingerprint")
    if expected is not None and json.loads(json.dumps(state.fingerprint())) != expected:
        raise ScenarioError(source, "fingerprint", "the position reached by replaying the actions (the file was edited or damaged)")
    return state


def save_game(state: State, path: str | Path) -> Path:
    """Write the save atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(to_save(state), indent=1)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def load_game(path: str | Path, game: Game | None = None) -> State:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(path, "(file)", "an existing save file") from None
    except UnicodeDecodeError:
        raise ScenarioError(path, "(file)", "UTF-8 JSON text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(path, f"line {exc.lineno} column {exc.colno}", "complete, valid JSON (is the file truncated?)", exc.msg) from None
    return from_save(data, source=str(path), game=game)


def undo(state: State, steps: int = 1) -> State:
    """Undo is replay to an earlier point of the log."""
    if steps < 0 or steps > len(state.log):
        raise ValueError(f"cannot undo {steps} of {len(state.log)} actions")
    return replay(state.game, state.seed, state.log[: len(state.log) - steps])
