"""One save format for every game: seed + action log + fingerprint, versioned.

A save is plain JSON::

    {"format": "wargame-save", "format_version": 4,
     "game": "campaign" | "memoir", "scenario": "normandy" | "memoir44-1" | ...,
     "options": {"variants": [...]} | {"options": {...}},
     "seed": 1944, "dice": 2, "actions": [{...}, ...], "fingerprint": {...}}

``dice`` is the version of the dice the game was played with (``wargame.dice``): a save of
format 2, written before dice had versions, has none and replays with version 1, the dice
it was played with. Format 3 (issue 30) added the field; the bump makes an older wargame
refuse a new save by its format instead of replaying it with the wrong dice. Format 4 (issue
#27): every game spells its sides "allied" and "axis"; a Memoir '44 save of format 2 or 3 has
"ALLIES" and "AXIS" in its fingerprint, renamed on loading (``_migrate``, keyed on the format
version, by the family's ``renamed_sides``) before it is compared.

Loading replays the actions from the seed through the protocol (``game.action_from_dict`` and
``state.apply``) and compares the fingerprint, so a truncated or hand-edited save is refused
with an error naming the file and the field. Saves are written atomically (temporary file,
fsync, rename): an interrupted save never destroys the previous one. Undo is replay of the
log up to an earlier point (the dashboards replay from a checkpoint: ``wargame.checkpoints``).
Campaign saves of format 1 (``wargame-campaign-save``) still load.

Replay fast path: an engine state may offer ``replay_apply(action)`` (the campaign engine
does: ``apply`` without the snapshot that restores the state after a refusal). ``replay`` uses
it because a replayed state is its own (a fresh one, or the caller's ``start``) and is never
returned after an error: a refused action raises ``ScenarioError`` and the half-changed state
is dropped. The checks, events, log and fingerprint are those of ``apply``; ``from_save``
still compares the fingerprint at the end.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wargame.dice import DICE_VERSION
from wargame.errors import IllegalAction
from wargame.games import game_from_json
from wargame.protocol import GameDefinition, GameState
from wargame.scenario_errors import ScenarioError, json_int, read_bytes, short_repr
from wargame.schema.common import validate
from wargame.schema.save import SaveFile

__all__ = [
    "SAVE_FORMAT",
    "SAVE_FORMAT_VERSION",
    "MAX_SAVE_BYTES",
    "to_save",
    "from_save",
    "replay",
    "undo",
    "save_game",
    "load_game",
    "parse_save_text",
]

SAVE_FORMAT = "wargame-save"
SAVE_FORMAT_VERSION = 4
READABLE_FORMAT_VERSIONS = (2, 3, 4)  # 2: before the dice version; 3: before one side spelling
LEGACY_CAMPAIGN_FORMAT = "wargame-campaign-save"  # format 1: campaign games only
MAX_SAVE_BYTES = 20_000_000
MAX_ACTIONS = 200_000


def _excerpt(value: Any, limit: int = 60) -> str:
    return short_repr(value, limit)  # safe on deeply nested values


def _json_plain(data: Any) -> Any:
    return json.loads(json.dumps(data))


def to_save(state: GameState) -> dict[str, Any]:
    game = state.game
    return {
        "format": SAVE_FORMAT,
        "format_version": SAVE_FORMAT_VERSION,
        "game": game.kind,
        "scenario": game.scenario_id,
        "options": game.options_json(),
        "seed": state.seed,
        "dice": state.dice.version,
        "actions": list(state.action_log),
        "fingerprint": _json_plain(state.fingerprint()),
    }


OnStart = Callable[[GameState], None]
OnAction = Callable[[int, GameState, list[Any]], None]


def replay(game: GameDefinition, seed: int, actions: list[Any], source: str = "<log>", *,
           start: GameState | None = None, first: int = 0, on_start: OnStart | None = None,
           on_action: OnAction | None = None, dice_version: int = DICE_VERSION) -> GameState:
    """Replay an action log from the start: the same seed and actions give the same game.

    ``start`` (changed in place: pass a clone to keep it) is a state to continue from instead
    of the opening, ``actions`` then being the actions after its log and ``first`` the index
    of the first of them in the whole log (for error messages and ``on_action``).
    ``on_start(state)`` sees the state before the first action, ``on_action(i, state, events)``
    each action's events just after it (the dashboards build their event log and checkpoints
    this way, in the same pass). ``dice_version``: the dice the game was played with
    (``wargame.dice``; a replay of a state's log passes ``state.dice.version``)."""
    state = game.new_state(seed, dice_version) if start is None else start
    if on_start is not None:
        on_start(state)
    step = getattr(state, "replay_apply", None) or state.apply  # the fast path: module doc
    from_dict = game.action_from_dict
    for i, data in enumerate(actions, first):
        try:
            events = step(from_dict(data))
        except IllegalAction as exc:
            raise ScenarioError.keyed(source, f"actions[{i}]", "save.legal_action",
                                      _excerpt(str(exc), 200)) from None
        if on_action is not None:
            on_action(i, state, events)
    return state


def undo(state: GameState, steps: int = 1) -> GameState:
    """Undo is replay to an earlier point of the log (from the seed; the dashboards replay
    from their nearest checkpoint instead: ``wargame.checkpoints``)."""
    log = list(state.action_log)
    if steps < 0 or steps > len(log):
        raise ValueError(f"cannot undo {steps} of {len(log)} actions")
    return replay(state.game, state.seed, log[: len(log) - steps],
                  dice_version=state.dice.version)


def _check_header(data: Any, source: str) -> dict[str, Any]:
    """The save's fields, checked by the ``SaveFile`` model (wargame/schema/save.py) before
    anything is replayed; a format-1 campaign save is read as format 2."""
    if isinstance(data, dict) and data.get("format") == LEGACY_CAMPAIGN_FORMAT:
        if data.get("format_version") != 1 or isinstance(data.get("format_version"), bool):
            raise ScenarioError(source, "format_version", "1", _excerpt(data.get("format_version")))
        variants = data.get("variants", [])
        data = {k: v for k, v in data.items() if k != "variants"}
        data.update(format=SAVE_FORMAT, format_version=2, game="campaign",
                    options={"variants": variants})
    if not isinstance(data, dict):
        raise ScenarioError.keyed(source, "(top level)", "save.object", _excerpt(data))
    version = data.get("format_version")
    if (data.get("format") == SAVE_FORMAT and isinstance(version, int)
            and not isinstance(version, bool) and version > SAVE_FORMAT_VERSION):
        # a later wargame's save (issue #31): said so, before any field it may have changed
        raise ScenarioError.keyed(source, "format_version", "save.newer",
                                  version=_excerpt(version), newest=SAVE_FORMAT_VERSION)
    save = validate(SaveFile, data, source)
    if save.format_version not in READABLE_FORMAT_VERSIONS:
        raise ScenarioError(source, "format_version",
                            " or ".join(map(str, READABLE_FORMAT_VERSIONS)),
                            _excerpt(save.format_version))
    if save.format_version < 3 and "dice" in data:
        raise ScenarioError.keyed(source, "dice", "save.dice_format", _excerpt(data["dice"]))
    variants = save.options.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise ScenarioError.keyed(source, "options.variants", "save.variant_list", _excerpt(variants))
    if not isinstance(save.options.get("options", {}), dict):
        raise ScenarioError.keyed(source, "options.options", "save.mapping",
                                  _excerpt(save.options["options"]))
    if len(save.actions) > MAX_ACTIONS:
        raise ScenarioError.keyed(source, "actions", "save.max_actions", len(save.actions),
                                  count=MAX_ACTIONS)
    for i, a in enumerate(save.actions):
        if not isinstance(a.get("kind"), str):
            raise ScenarioError.keyed(source, f"actions[{i}].kind", "save.action_kind",
                                _excerpt(a.get("kind")))
    return _migrate(save.model_dump())


def _migrate(data: dict[str, Any]) -> dict[str, Any]:
    """A checked save of an earlier format as a save of today's (module doc), step by step by
    its format version; the fields a replay compares are brought to today's words."""
    if data["format_version"] < 4:  # issue #27: one spelling of the side ids
        from wargame.registry import family_of

        family = family_of(data["scenario"])
        data = dict(data, actions=family.rename_sides(data["actions"]),
                    fingerprint=family.rename_sides(data["fingerprint"]))
    return data


def from_save(data: Any, source: str = "<save>", game: GameDefinition | None = None, *,
              on_start: OnStart | None = None, on_action: OnAction | None = None) -> GameState:
    """The state a save describes, replayed from its seed and checked against its
    fingerprint. With ``game`` given, the save must be of that very game. ``on_start`` and
    ``on_action`` watch the replay (``replay``)."""
    data = _check_header(data, source)
    if game is None:
        try:
            game = game_from_json(data["game"], data["scenario"], data.get("options", {}))
        except (ScenarioError, FileNotFoundError, KeyError, ValueError) as exc:
            variants = data.get("options", {}).get("variants")
            if variants and "variant" in str(exc).lower():
                raise ScenarioError.keyed(source, "options.variants", "save.known_variants",
                                    _excerpt(str(exc), 200)) from None
            raise ScenarioError.keyed(source, "scenario", "save.scenario",
                                _excerpt(str(exc), 200)) from None
    else:
        if (game.kind, game.scenario_id) != (data["game"], data["scenario"]):
            raise ScenarioError(source, "scenario", repr(game.scenario_id), _excerpt(data["scenario"]))
        expected = game.options_json()
        if {k: v for k, v in data.get("options", {}).items() if v} != {k: v for k, v in expected.items() if v}:
            from wargame.registry import family_of_game

            field = "options.variants" if family_of_game(game).takes_variants else "options"
            raise ScenarioError(source, field, repr(expected), _excerpt(data["options"]))
    state = replay(game, data["seed"], data["actions"], source, on_start=on_start,
                   on_action=on_action, dice_version=data["dice"])
    if _json_plain(state.fingerprint()) != data["fingerprint"]:
        raise ScenarioError.keyed(source, "fingerprint", "save.fingerprint")
    return state


def parse_save_text(text: str | bytes, source: str = "<save>") -> Any:
    """JSON from a save's text, with size, encoding and nesting problems reported as
    ``ScenarioError`` (never a raw exception, never the whole content echoed)."""
    if len(text) > MAX_SAVE_BYTES:
        raise ScenarioError.keyed(source, "(file)", "save.too_large", f"{len(text)} bytes",
                                  mb=MAX_SAVE_BYTES // 1_000_000)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ScenarioError.keyed(source, "(file)", "save.utf8") from None
    try:  # a number too long for any field is refused by the schema, naming it (json_int)
        return json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as exc:
        raise ScenarioError.keyed(source, f"line {exc.lineno} column {exc.colno}", "save.json",
                                  exc.msg) from None
    except RecursionError:
        raise ScenarioError.keyed(source, "(file)", "json.nesting") from None


def save_game(state: GameState, path: str | Path) -> Path:
    """Write the save atomically: a temporary file in the same folder, fsync, rename."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a folder: give a file name for the save")
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


def load_game(path: str | Path, game: GameDefinition | None = None) -> GameState:
    """The game a save file holds: only a regular file of at most ``MAX_SAVE_BYTES`` is opened
    (``wargame.scenario_errors.read_bytes``: a FIFO or a folder is refused at once, by name)."""
    path = Path(path)
    raw = read_bytes(path, MAX_SAVE_BYTES, too_large="save.too_large", missing="save.existing")
    data = parse_save_text(raw, str(path))
    return from_save(data, source=str(path), game=game)
