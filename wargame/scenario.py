"""Loading and validating campaign scenarios into the engine's types.

A broken or hand-edited file gets a ``ScenarioError`` naming the file, the field and what was
expected; no other exception escapes ``load_scenario`` for bad data (fuzzed in the tests).
"""

from __future__ import annotations

import datetime as dt
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame.hexgrid import Hex
from wargame.operational.board import Board, board_from_dict
from wargame.operational.tables import Tables, load_tables, tables_from_dict
from wargame.paths import scenario_dir
from wargame.scenario_errors import ScenarioError, load_json, load_yaml

__all__ = [
    "UnitDef",
    "Division",
    "Entry",
    "Reinforcement",
    "Scenario",
    "load_scenario",
    "scenario_from_data",
    "ScenarioError",
    "SIDES",
]

SIDES = ("allied", "axis")
NATIONS = ("german", "american", "british", "canadian", "russian", "french")
ENTRY_KINDS = ("beach", "edge", "hex", "drop")


@dataclass(frozen=True, slots=True)
class UnitDef:
    id: str
    name: str
    nation: str
    side: str
    type: str
    attack: int
    defence: int
    movement: int
    reduced_attack: int
    reduced_defence: int
    division: str | None = None
    ss: bool = False
    range: int = 0
    provenance: str = ""

    @property
    def is_artillery(self) -> bool:
        return self.range > 0


@dataclass(frozen=True, slots=True)
class Division:
    id: str
    name: str
    nation: str
    divisional_bonus: bool = True


@dataclass(frozen=True, slots=True)
class Entry:
    kind: str
    hexes: tuple[Hex, ...] = ()
    edge: str | None = None
    beaches: tuple[str, ...] = ()
    division: str | None = None


@dataclass(frozen=True, slots=True)
class Reinforcement:
    turn: int
    unit: str
    entry: Entry
    note: str = ""


@dataclass(frozen=True)
class Scenario:
    id: str
    game: str
    title: str
    tables: Tables
    board: Board
    units: dict[str, UnitDef]
    divisions: dict[str, Division]
    setup: tuple[tuple[str, Hex], ...]
    reinforcements: tuple[Reinforcement, ...]
    first_turn: int
    last_turn: int
    stacking_limit: int = 4
    first_day: str | None = None
    days_per_turn: int = 1
    rules: dict[str, Any] = field(default_factory=dict)
    source: str = ""

    def rule(self, name: str, default: Any = None) -> Any:
        return self.rules.get(name, default)

    def division_units(self, division: str) -> list[str]:
        return [u.id for u in self.units.values() if u.division == division]

    def turn_date(self, turn: int) -> str | None:
        if not self.first_day:
            return None
        day = dt.date.fromisoformat(self.first_day) + dt.timedelta(
            days=(turn - self.first_turn) * self.days_per_turn
        )
        return day.isoformat()


def _known(value: Any, names: Any) -> bool:
    """A name that must be one of ``names``; junk (lists, numbers) is simply not known."""
    return isinstance(value, str) and value in names


def _listed(data: dict, key: str, source: str, where: str = "rules.") -> list:
    value = data.get(key) or []
    if not isinstance(value, list):
        raise ScenarioError(source, f"{where}{key}", "a list", value)
    return value


def _req(data: dict, key: str, source: str, where: str, expected: str, kind: type | tuple) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise ScenarioError(source, f"{where}{key}", f"{expected} (missing)")
    value = data[key]
    if isinstance(value, bool) and kind in (int, (int, float)):
        raise ScenarioError(source, f"{where}{key}", expected, value)
    if not isinstance(value, kind):
        raise ScenarioError(source, f"{where}{key}", expected, value)
    return value


def _units(data: Any, source: str, tables: Tables) -> tuple[dict[str, UnitDef], dict[str, Division]]:
    if not isinstance(data, dict):
        raise ScenarioError(source, "(top level)", "a mapping with 'units' and 'divisions'", data)
    raw = data.get("units")
    if not isinstance(raw, list) or not raw:
        raise ScenarioError(source, "units", "a non-empty list of units", raw)
    divisions: dict[str, Division] = {}
    raw_div = data.get("divisions", {}) or {}
    if not isinstance(raw_div, dict):
        raise ScenarioError(source, "divisions", "a mapping of division id -> details", raw_div)
    for did, spec in raw_div.items():
        if not isinstance(spec, dict):
            raise ScenarioError(source, f"divisions.{did}", "a mapping with name and nation", spec)
        bonus = spec.get("divisional_bonus", True)
        if not isinstance(bonus, bool):
            raise ScenarioError(source, f"divisions.{did}.divisional_bonus", "true or false", bonus)
        divisions[str(did)] = Division(
            id=str(did), name=str(spec.get("name", did)), nation=str(spec.get("nation", "")),
            divisional_bonus=bonus,
        )
    units: dict[str, UnitDef] = {}
    for i, spec in enumerate(raw):
        w = f"units[{i}]."
        uid = _req(spec, "id", source, w, "a unique string id", str)
        if uid in units:
            raise ScenarioError(source, f"{w}id", "a unique id", uid)
        side = _req(spec, "side", source, w, f"one of {SIDES}", str)
        if side not in SIDES:
            raise ScenarioError(source, f"{w}side", f"one of {SIDES}", side)
        utype = _req(spec, "type", source, w, "a unit type", str)
        if utype not in tables.unit_types:
            raise ScenarioError(source, f"{w}type", f"one of {sorted(tables.unit_types)}", utype)
        nums = {}
        for key in ("attack", "defence", "movement"):
            v = _req(spec, key, source, w, "a whole number >= 0", int)
            if v < 0:
                raise ScenarioError(source, f"{w}{key}", "a whole number >= 0", v)
            nums[key] = v
        rng = spec.get("range", 0)
        if not isinstance(rng, int) or isinstance(rng, bool) or rng < 0:
            raise ScenarioError(source, f"{w}range", "a whole number >= 0", rng)
        reduced = spec.get("reduced")
        if reduced is None:
            # OD 7.0: reduced values are half, rounded up.
            red_a, red_d = -(-nums["attack"] // 2), -(-nums["defence"] // 2)
        else:
            red_a = _req(reduced, "attack", source, f"{w}reduced.", "a whole number", int)
            red_d = _req(reduced, "defence", source, f"{w}reduced.", "a whole number", int)
            if red_a > nums["attack"] or red_d > nums["defence"] or red_a < 0 or red_d < 0:
                raise ScenarioError(source, f"{w}reduced", "values between 0 and the full values", reduced)
        division = spec.get("division")
        if division is not None:
            division = str(division)
            if division not in divisions:
                divisions[division] = Division(division, division, str(spec.get("nation", "")))
        nation = spec.get("nation", "")
        if not _known(nation, NATIONS):
            raise ScenarioError(source, f"{w}nation", f"one of {NATIONS}", nation)
        units[uid] = UnitDef(
            id=uid,
            name=str(spec.get("name", uid)),
            nation=nation,
            side=side,
            type=utype,
            attack=nums["attack"],
            defence=nums["defence"],
            movement=nums["movement"],
            reduced_attack=red_a,
            reduced_defence=red_d,
            division=division,
            ss=bool(spec.get("ss", False)),
            range=rng,
            provenance=str(spec.get("provenance", "")),
        )
    return units, divisions


def _hex(board: Board, hid: Any, source: str, where: str) -> Hex:
    try:
        h = Hex.from_id(str(hid))
    except ValueError:
        raise ScenarioError(source, where, "a four-digit hex id CCRR", hid) from None
    if h not in board.hexes:
        raise ScenarioError(source, where, "a hex of the map", hid)
    return h


def _setup(data: Any, source: str, board: Board, units: dict[str, UnitDef]):
    if not isinstance(data, dict):
        raise ScenarioError(source, "(top level)", "a mapping with 'setup' and 'reinforcements'", data)
    setup = []
    seen: set[str] = set()
    for i, spec in enumerate(_listed(data, "setup", source, "")):
        w = f"setup[{i}]."
        uid = _req(spec, "unit", source, w, "a unit id", str)
        if uid not in units:
            raise ScenarioError(source, f"{w}unit", "a unit id from units.yaml", uid)
        if uid in seen:
            raise ScenarioError(source, f"{w}unit", "a unit placed once", uid)
        seen.add(uid)
        setup.append((uid, _hex(board, spec.get("hex"), source, f"{w}hex")))
    reinf = []
    for i, spec in enumerate(_listed(data, "reinforcements", source, "")):
        w = f"reinforcements[{i}]."
        uid = _req(spec, "unit", source, w, "a unit id", str)
        if uid not in units:
            raise ScenarioError(source, f"{w}unit", "a unit id from units.yaml", uid)
        if uid in seen:
            raise ScenarioError(source, f"{w}unit", "a unit listed once in setup and reinforcements", uid)
        seen.add(uid)
        turn = _req(spec, "turn", source, w, "a turn number", int)
        entry = _req(spec, "entry", source, w, "an entry mapping", dict)
        kind = entry.get("kind")
        if not _known(kind, ENTRY_KINDS):
            raise ScenarioError(source, f"{w}entry.kind", f"one of {ENTRY_KINDS}", kind)
        hexes: tuple[Hex, ...] = ()
        edge = beaches = division = None
        if kind == "hex":
            ids = entry.get("hexes") or ([entry["hex"]] if "hex" in entry else None)
            if not isinstance(ids, list) or not ids:
                raise ScenarioError(source, f"{w}entry.hexes", "a list of hex ids", ids)
            hexes = tuple(_hex(board, hid, source, f"{w}entry.hexes") for hid in ids)
        elif kind == "edge":
            edge = entry.get("edge")
            if not _known(edge, board.edges):
                raise ScenarioError(source, f"{w}entry.edge", f"one of the map's edges {sorted(board.edges)}", edge)
            hexes = tuple(sorted(board.edges[edge]))
        elif kind == "beach":
            names = entry.get("beaches")
            if not isinstance(names, list) or not names:
                raise ScenarioError(source, f"{w}entry.beaches", "a list of beach place names", names)
            for name in names:
                if not _known(name, board.places):
                    raise ScenarioError(source, f"{w}entry.beaches", "place names of the map", name)
            beaches = tuple(names)
            hexes = tuple(h for name in names for h in board.places[name])
        else:
            division = entry.get("division")
            if not isinstance(division, str):
                raise ScenarioError(source, f"{w}entry.division", "the division whose hexes it drops on", division)
        reinf.append(
            Reinforcement(
                turn=turn, unit=uid,
                entry=Entry(kind=kind, hexes=hexes, edge=edge, beaches=beaches or (), division=division),
                note=str(spec.get("note", "")),
            )
        )
    return tuple(setup), tuple(reinf)


def scenario_from_data(
    *,
    meta: dict,
    tables: Tables | dict,
    map_data: dict,
    units_data: dict,
    setup_data: dict,
    source: str = "<memory>",
) -> Scenario:
    """Build a scenario from already-parsed data (tests build small maps this way)."""
    if isinstance(tables, dict):
        tables = tables_from_dict(tables, source=f"{source}/tables")
    board = board_from_dict(map_data, source=f"{source}/map", terrain_names=set(tables.terrain))
    units, divisions = _units(units_data, f"{source}/units", tables)
    setup, reinf = _setup(setup_data, f"{source}/setup", board, units)
    return _scenario(meta, tables, board, units, divisions, setup, reinf, source)


def _scenario(meta, tables, board, units, divisions, setup, reinf, source) -> Scenario:
    if not isinstance(meta, dict):
        raise ScenarioError(source, "(top level)", "a mapping", meta)
    turns = _req(meta, "turns", source, "", "a mapping {first, last}", dict)
    first = _req(turns, "first", source, "turns.", "a whole number", int)
    last = _req(turns, "last", source, "turns.", "a whole number >= first", int)
    if last < first:
        raise ScenarioError(source, "turns.last", "a whole number >= first", last)
    dates = meta.get("turn_dates", {}) or {}
    if not isinstance(dates, dict):
        raise ScenarioError(source, "turn_dates", "a mapping {first_day, days_per_turn}", dates)
    days_per_turn = dates.get("days_per_turn", 1)
    if not isinstance(days_per_turn, int) or isinstance(days_per_turn, bool) or days_per_turn < 1:
        raise ScenarioError(source, "turn_dates.days_per_turn", "a whole number >= 1", days_per_turn)
    first_day = dates.get("first_day")
    if first_day is not None:
        # YAML reads an unquoted 1944-06-06 as a date already
        first_day = first_day.isoformat() if isinstance(first_day, dt.date) else first_day
        try:
            dt.date.fromisoformat(str(first_day))
        except ValueError:
            raise ScenarioError(source, "turn_dates.first_day", "a date YYYY-MM-DD", first_day) from None
        first_day = str(first_day)
    stacking = meta.get("stacking_limit", 4)
    if not isinstance(stacking, int) or isinstance(stacking, bool) or stacking < 1:
        raise ScenarioError(source, "stacking_limit", "a whole number >= 1", stacking)
    rules = meta.get("rules", {}) or {}
    if not isinstance(rules, dict):
        raise ScenarioError(source, "rules", "a mapping of rule option -> value", rules)
    _check_rule_places(rules, board, source)
    return Scenario(
        id=str(meta.get("id", "scenario")),
        game=str(meta.get("game", tables.game)),
        title=str(meta.get("title", tables.title)),
        tables=tables,
        board=board,
        units=units,
        divisions=divisions,
        setup=setup,
        reinforcements=reinf,
        first_turn=first,
        last_turn=last,
        stacking_limit=stacking,
        first_day=first_day,
        days_per_turn=days_per_turn,
        rules=rules,
        source=source,
    )


def _check_rule_places(rules: dict, board: Board, source: str) -> None:
    """Every place a rule names must be on the map (victory cities, Caen, Cherbourg...)."""
    def need(name: Any, field: str) -> None:
        if not _known(name, board.places):
            raise ScenarioError(source, field, "a place name of the map", name)

    for i, v in enumerate(_listed(rules, "victory", source)):
        if not isinstance(v, dict) or "kind" not in v:
            raise ScenarioError(source, f"rules.victory[{i}]", "a mapping with a kind", v)
        if v["kind"] == "city":
            need(v.get("place"), f"rules.victory[{i}].place")
    for i, v in enumerate(_listed(rules, "no_retreat", source)):
        need(v.get("place") if isinstance(v, dict) else v, f"rules.no_retreat[{i}].place")
    naval = rules.get("naval_support") or {}
    if not isinstance(naval, dict):
        raise ScenarioError(source, "rules.naval_support", "a mapping", naval)
    for i, name in enumerate(_listed(naval, "places", source, "rules.naval_support.")):
        need(name, f"rules.naval_support.places[{i}]")
    if naval.get("invasion_coast"):
        need(naval["invasion_coast"], "rules.naval_support.invasion_coast")


def load_scenario(path_or_id: str | Path) -> Scenario:
    """Load a scenario by bundled id (``"normandy"``) or by the path of its scenario.yaml/folder."""
    p = Path(path_or_id)
    if p.suffix in (".yaml", ".yml") and p.exists():
        folder, meta_path = p.parent, p
    elif p.is_dir():
        folder, meta_path = p, p / "scenario.yaml"
    else:
        try:
            folder = scenario_dir(str(path_or_id))
        except FileNotFoundError as exc:
            raise ScenarioError(str(path_or_id), "(scenario)", "a bundled scenario id or a scenario folder/file", str(exc)) from None
        meta_path = folder / "scenario.yaml"
    meta = load_yaml(meta_path)
    src = str(meta_path)
    if not isinstance(meta, dict):
        raise ScenarioError(src, "(top level)", "a mapping", meta)
    version = meta.get("format_version")
    if version != 1:
        raise ScenarioError(src, "format_version", "1", version)
    names = {}
    for key in ("tables", "map", "units", "setup"):
        value = meta.get(key)
        if not isinstance(value, str):
            raise ScenarioError(src, key, "a file name in the scenario folder", value)
        names[key] = folder / value
    game = meta.get("game")
    bundled = folder.parent / str(game) / "tables.yaml"
    if names["tables"].resolve() == bundled.resolve() and isinstance(game, str):
        try:
            tables = load_tables(game)
        except FileNotFoundError:
            tables = tables_from_dict(load_yaml(names["tables"]), source=str(names["tables"]))
    else:
        tables = tables_from_dict(load_yaml(names["tables"]), source=str(names["tables"]))
    with _named(names["map"]):
        board = board_from_dict(load_json(names["map"]), source=str(names["map"]),
                                terrain_names=set(tables.terrain))
    with _named(names["units"]):
        units, divisions = _units(load_yaml(names["units"]), str(names["units"]), tables)
    with _named(names["setup"]):
        setup, reinf = _setup(load_yaml(names["setup"]), str(names["setup"]), board, units)
    with _named(meta_path):
        return _scenario(meta, tables, board, units, divisions, setup, reinf, src)


@contextmanager
def _named(path: Path):
    """Safety net: a shape the checks above did not foresee still names its file."""
    try:
        yield
    except ScenarioError:
        raise
    except (TypeError, KeyError, AttributeError, ValueError, IndexError) as exc:
        raise ScenarioError(str(path), "(structure)", "the documented format (docs/data-formats.md)",
                            f"{type(exc).__name__}: {exc}") from exc
