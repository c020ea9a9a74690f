"""Loading Memoir '44 scenarios: the project's own files, one JSON per scenario.

Bundled: ``scenarios/memoir44/<id>.json`` (written by tools/build_memoir_scenarios.py from the
reference layouts and scenarios/memoir44/scenarios.yaml); the user's imports (``wargame scenario
import``): ``<user data>/scenarios/memoir44/<name>.json`` (``wargame.paths.user_memoir_dir``).
Both are checked by ``wargame.schema.memoir.MemoirScenarioFile``. ``scenario_from_m44`` still
reads a Scenario Editor ``.m44`` layout directly (``wargame.memoir.m44``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from wargame.event_text import register_title
from wargame.hexgrid import Hex
from wargame.localized import pick, translations_of
from wargame.paths import MEMOIR_PREFIX, scenarios_root, user_memoir_dir
from wargame.scenario_errors import ScenarioError, load_json, load_yaml
from wargame.schema.common import validate
from wargame.schema.memoir import M44File, MemoirEntry, MemoirIndex, MemoirScenarioFile

from .board import ALLIES, AXIS, Board, BoardHex, m44_to_hex, renamed_sides
from .m44 import BASE_FIGURES, convert, read_m44_file

__all__ = [
    "UnknownMemoirScenario",
    "UnitSpec", "Objective", "Scenario", "load_scenario", "scenario_ids", "index",
    "custom_scenario", "check_memoir", "is_memoir_target", "read_m44", "scenario_from_m44",
    "scenario_from_data", "user_scenario_ids", "bundled_dir", "RESERVED_IDS",
]

# the file names in scenarios/memoir44/ that are not scenarios (the tool's hand-written input)
RESERVED_IDS = frozenset({"scenarios", "briefings"})


@dataclass(frozen=True)
class UnitSpec:
    side: str
    kind: str  # inf, tank, gun
    hex: Hex
    figures: int
    special: str | None = None  # "special" forces, "resistance", "elite" armour
    badge: str | None = None
    nation: str | None = None  # on the counter (British, Soviet...): plays as its side's unit


@dataclass(frozen=True)
class Objective:
    side: str  # who scores it
    hexes: frozenset[Hex]
    permanent: bool = False
    medals: int = 1


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    file: str
    board: Board
    units: tuple[UnitSpec, ...]
    cards: dict[str, int]
    starts: str
    medals: dict[str, int]
    objectives: tuple[Objective, ...] = ()
    special: dict[str, Any] = field(default_factory=dict)
    face: str = "COUNTRY"
    m44_game_info: dict[str, Any] = field(default_factory=dict)
    obstacles: tuple[tuple[str, Hex], ...] = ()  # removable: ("sand" | "wire", hex)
    briefing: str = ""
    provenance: str = ""
    number: int | None = None
    translations: dict[str, dict[str, str]] = field(default_factory=dict)  # wargame.localized
    import_report: dict[str, list[Any]] | None = None  # an import's (wargame.memoir.imports)
    front: str | None = None

    def __post_init__(self) -> None:
        # the setup event keeps the English title; a log read in another language shows this
        # scenario's own title there ("Ponte Pegasus": wargame.event_text.title_in_language)
        register_title(self.title, self.translations)

    @property
    def approximated(self) -> bool:
        """An import that plays with approximations or leaves rules out (its report says)."""
        r = self.import_report or {}
        return bool(r.get("approximated") or r.get("left_out"))

    def opt(self, name: str, default: Any = None) -> Any:
        return self.special.get(name, default)

    def title_in(self, lang: str | None = None) -> str:
        """The title in ``lang`` (default: the current language; English when not translated)."""
        return pick(self.title, self.translations, "title", lang)

    def briefing_in(self, lang: str | None = None) -> str:
        """The briefing in ``lang`` (default: the current language), else the English one."""
        return pick(self.briefing, self.translations, "briefing", lang)


def bundled_dir() -> Path:
    return scenarios_root() / "memoir44"


def _ids_in(folder: Path) -> list[str]:
    if not folder.is_dir():
        return []
    ids = [p.stem for p in folder.glob("*.json") if p.stem not in RESERVED_IDS]
    return sorted(ids, key=lambda s: (not s.isdigit(), int(s) if s.isdigit() else 0, s))


@lru_cache(maxsize=1)
def index() -> dict[str, dict[str, Any]]:
    """The bundled scenario files by id (rulebook order), each checked by
    ``MemoirScenarioFile`` (a ``ScenarioError`` names file and field)."""
    out = {}
    for sid in _ids_in(bundled_dir()):
        path = bundled_dir() / f"{sid}.json"
        data = load_json(path)
        validate(MemoirScenarioFile, data, path)
        out[sid] = data
    return out


def scenario_ids() -> list[str]:
    """The bundled scenarios (rulebook numbers, then overlord)."""
    return list(index())


def user_scenario_ids() -> list[str]:
    """The user's imported scenarios (``wargame scenario import``), by name."""
    return [s for s in _ids_in(user_memoir_dir()) if s not in index()]


def _hexes(pairs: Any) -> frozenset[Hex]:
    return frozenset(m44_to_hex(int(r), int(c)) for r, c in pairs)


def read_m44(file: str | Path) -> dict[str, Any]:
    """An .m44 layout checked by ``M44File`` and for what the engine plays
    (``wargame.memoir.m44.UnsupportedM44`` lists the rest)."""
    return read_m44_file(file)


class UnknownMemoirScenario(ScenarioError, KeyError):
    """No Memoir '44 scenario has this id: a ``ScenarioError`` naming the known ids (bundled,
    then the user's imports), in the reader's language. Also a ``KeyError``, as the unknown
    id always was, for the callers that catch that."""

    def __init__(self, sid: str) -> None:
        from wargame.error_texts import loader_text

        ids = scenario_ids() + user_scenario_ids()
        super().__init__(bundled_dir(), "scenarios", loader_text("memoir.scenario_id", ids=ids),
                         sid, key="memoir.scenario_id", data={"ids": ids})

    __str__ = ScenarioError.__str__


def load_scenario(scenario_id: str | int) -> Scenario:
    """A bundled scenario (``5``, ``overlord``) or a user's import (its name)."""
    sid = str(scenario_id)
    if sid in index():
        return _bundled(sid)
    path = user_memoir_dir() / f"{sid}.json"
    if sid in RESERVED_IDS or not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,39}", sid) \
            or not path.is_file():
        raise UnknownMemoirScenario(sid)
    stat = path.stat()
    return _user(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _bundled(sid: str) -> Scenario:
    return scenario_from_data(index()[sid], bundled_dir() / f"{sid}.json")


@lru_cache(maxsize=16)
def _user(path: str, mtime_ns: int, size: int) -> Scenario:
    return scenario_from_data(load_json(path), path)


def scenario_from_m44(path: str | Path, entry: dict[str, Any] | None = None,
                      scenario_id: str = "custom") -> Scenario:
    """A scenario from an ``.m44`` file anywhere (a layout saved by the Scenario Editor).

    ``entry`` is its instructions as in scenarios.yaml (cards, starts, medals, special rules;
    checked by ``MemoirEntry``); without it they are read from the file's ``game_info``
    (player 1 Axis, 4 cards and 6 medals each when not given) and the medal tags are the
    objectives. A broken file or entry raises ``ScenarioError`` naming the file and the field;
    a layout the engine cannot play ``UnsupportedM44`` naming each thing and its hexes.
    """
    path = Path(path)
    raw = read_m44_file(path)
    if entry is not None:
        validate(MemoirEntry, entry, f"{path} (its scenarios.yaml entry)")
    title = entry["title"] if entry is not None else path.stem
    data = convert(raw, scenario_id=scenario_id, title=title or "custom", entry=entry,
                   provenance=f"imported from {path.name}")
    scn = scenario_from_data(data, path)
    return replace(scn, file=path.name, m44_game_info=dict(raw.get("game_info") or {}))


def _special(raw: dict[str, Any]) -> dict[str, Any]:
    """Special rules as the engine reads them: hex lists as sets of hexes."""
    special = {k: v for k, v in raw.items()}
    for key in ("cliffs", "impassable", "wide_river"):
        if key in special:
            special[key] = _hexes(special[key])
    if "bridge_deck" in special:
        special["bridge_deck"] = _hexes(special["bridge_deck"])
        special["bridge_ends"] = frozenset(
            (m44_to_hex(*deck), m44_to_hex(*end)) for deck, end in special.get("bridge_ends", ()))
    if "seawalls" in special:
        special["seawalls"] = {s: _hexes(v) for s, v in special["seawalls"].items()}
    if "recon_as_air_power" in special:
        rap = dict(special["recon_as_air_power"])
        rap["hexes"] = _hexes(rap["hexes"])
        special["recon_as_air_power"] = rap
    if "sudden_death" in special:
        special["sudden_death"] = tuple(
            {"side": s["side"], "hexes": _hexes(s["hexes"]), "required": int(s["required"])}
            for s in special["sudden_death"]
        )
    if "airdrop" in special:
        special["airdrop"] = dict(special["airdrop"])
    if "draw_schedule" in special:  # JSON object keys are text: turn numbers back to ints
        special["draw_schedule"] = {side: {int(t): n for t, n in turns.items()}
                                    for side, turns in special["draw_schedule"].items()}
    return special


def scenario_from_data(data: Any, source: str | Path) -> Scenario:
    """A scenario from the dict of a scenario file (checked by ``MemoirScenarioFile``; a
    ``ScenarioError`` names ``source`` and the field)."""
    validate(MemoirScenarioFile, data, source)
    data = renamed_sides(data)  # the file's side words (AXIS, ALLIES) -> the ids (issue #27)
    size = data["board"]["size"]
    hexes: dict[Hex, BoardHex] = {}
    obstacles: list[tuple[str, Hex]] = []
    for t in data["terrain"]:
        h = m44_to_hex(*t["at"])
        obstacle = t.get("obstacle")
        hexes[h] = BoardHex(terrain=t.get("terrain", "plain"), bridge=bool(t.get("bridge")),
                            bunker=bool(t.get("bunker")), hedgehog=obstacle == "hedgehog",
                            bunker_side=t.get("bunker_side"))
        if obstacle in ("sand", "wire"):
            obstacles.append((obstacle, h))
    # M44 Breakthrough: 13 x 17 hexes, the standard board's section lines
    board = Board(width=26 if size == "overlord" else 13,
                  rows=17 if size == "breakthrough" else 9, hexes=hexes,
                  boundaries=(15, 35) if size == "overlord" else (7, 17))
    units = tuple(UnitSpec(u["side"], u["kind"], m44_to_hex(*u["at"]), int(u["figures"]),
                           u.get("special"), u.get("badge"), u.get("nation"))
                  for u in data["units"])
    objectives = tuple(Objective(o["side"], _hexes(o["hexes"]), bool(o.get("permanent", False)),
                                 int(o.get("medals", 1))) for o in data.get("objectives", []))
    return Scenario(
        id=str(data["id"]),
        title=data["title"],
        file=Path(str(source)).name,
        board=board,
        units=units,
        cards={k: int(v) for k, v in data["cards"].items()},
        starts=data["first_player"],
        medals={k: int(v) for k, v in data["medals_to_win"].items()},
        objectives=objectives,
        special=_special(data.get("special") or {}),
        face=data["board"].get("face", "COUNTRY"),
        obstacles=tuple(obstacles),
        briefing=data.get("briefing", ""),
        provenance=data["provenance"],
        number=data.get("number"),
        translations=translations_of(data, ("title", "briefing")),
        import_report=data.get("import_report"),
        front=data.get("front"),
    )


def custom_scenario(
    terrain: dict[tuple[int, int], BoardHex | str] | None = None,
    units: list[tuple[str, str, tuple[int, int]] | UnitSpec] | None = None,
    *,
    cards: dict[str, int] | None = None,
    starts: str = ALLIES,
    medals: dict[str, int] | None = None,
    obstacles: list[tuple[str, tuple[int, int]]] | None = None,
    objectives: list[Objective] | None = None,
    special: dict[str, Any] | None = None,
    face: str = "COUNTRY",
    title: str = "custom",
) -> Scenario:
    """A scenario built in code (tests, sandbox play): .m44 coordinates throughout.

    ``units`` items are ``(side, kind, (row, col))`` with optional 4th item ``special`` and 5th
    item ``figures``, or ``UnitSpec``.
    """
    hexes: dict[Hex, BoardHex] = {}
    for (row, col), bh in (terrain or {}).items():
        hexes[m44_to_hex(row, col)] = BoardHex(terrain=bh) if isinstance(bh, str) else bh
    specs = []
    for u in units or []:
        if isinstance(u, UnitSpec):
            specs.append(u)
            continue
        rest: list[Any]
        side, kind, (row, col), *rest = u
        kind_special = rest[0] if rest else None
        figures = rest[1] if len(rest) > 1 else (
            4 if kind_special == "elite" else BASE_FIGURES[kind])
        if kind_special == "resistance" and len(rest) < 2:
            figures = 3
        specs.append(UnitSpec(side, kind, m44_to_hex(row, col), figures, kind_special))
    return Scenario(
        id="custom",
        title=title,
        file="",
        board=Board(hexes=hexes),
        units=tuple(specs),
        cards=cards or {AXIS: 4, ALLIES: 4},
        starts=starts,
        medals=medals or {AXIS: 6, ALLIES: 6},
        objectives=tuple(objectives or ()),
        special=dict(special or {}),
        face=face,
        obstacles=tuple((n, m44_to_hex(r, c)) for n, (r, c) in (obstacles or [])),
    )


def check_memoir(target: str | Path) -> tuple[str, int, int]:
    """Validate Memoir '44 data for ``wargame scenario validate``: an ``.m44`` file, a scenario
    file (``scenarios/memoir44/<id>.json``), the tool's ``scenarios.yaml`` input (with every
    bundled file), or a scenario id (``memoir44-5``, ``5``, an import's name).

    Returns (title, units, hexes); a broken file raises ``ScenarioError`` naming file and field.
    """
    text = str(target)
    path = Path(text)
    if path.suffix == ".m44":
        raw = read_m44_file(path)
        model = validate(M44File, raw, path)
        units = sum(1 for h in model.board.hexagons if h.unit is not None)
        return path.name, units, len(model.board.hexagons)
    if path.suffix == ".json" and path.is_file():
        scn = scenario_from_data(load_json(path), path)
        return scn.title, len(scn.units), len(scn.board.hexes)
    if path.name in ("scenarios.yaml", "scenarios.yml") and path.exists():
        idx = validate(MemoirIndex, load_yaml(path), path)
        units = hexes = 0
        for sid in _ids_in(path.parent):
            scn = scenario_from_data(load_json(path.parent / f"{sid}.json"),
                                     path.parent / f"{sid}.json")
            units += len(scn.units)
            hexes += len(scn.board.hexes)
        return f"{len(idx.scenarios)} Memoir '44 scenarios", units, hexes
    sid = text.removeprefix(MEMOIR_PREFIX)
    if sid in index():
        file = bundled_dir() / f"{sid}.json"
    elif sid in user_scenario_ids():
        file = user_memoir_dir() / f"{sid}.json"
    else:
        raise ScenarioError.keyed(bundled_dir(), "scenarios", "memoir.scenario_id", sid,
                                  ids=scenario_ids() + user_scenario_ids())
    scn = scenario_from_data(load_json(file), file)  # uncached: the file as it is now
    return scn.title, len(scn.units), len(scn.board.hexes)


def is_memoir_target(target: str | Path) -> bool:
    """Does ``wargame scenario validate TARGET`` name Memoir '44 data?"""
    text = str(target)
    path = Path(text)
    if path.suffix == ".m44" or text.startswith(MEMOIR_PREFIX):
        return True
    if path.suffix == ".json" and path.parent.name == "memoir44":
        return True
    return path.name in ("scenarios.yaml", "scenarios.yml") and path.exists() and (
        path.parent.name == "memoir44")
