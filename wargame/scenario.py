"""Loading and validating campaign scenarios into the engine's types.

Every file is first validated by its pydantic model (``wargame.schema``); a broken or
hand-edited file gets a ``ScenarioError`` naming the file, the field and what was expected; no
other exception escapes ``load_scenario`` for bad data (fuzzed in the tests).
"""

from __future__ import annotations

import datetime as dt
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame.event_text import register_title
from wargame.hexgrid import Hex
from wargame.localized import pick, translations_of
from wargame.operational.board import Board, board_from_dict
from wargame.operational.tables import Tables, load_tables, tables_from_dict
from wargame.operational.variants import normalize_variants
from wargame.paths import scenario_dir, scenarios_root
from wargame.scenario_errors import ScenarioError, load_json, load_yaml
from wargame.schema.campaign import (
    BeachEntry,
    DropEntry,
    EdgeEntry,
    HexEntry,
    MapFile,
    SetupFile,
    TablesFile,
    UnitsFile,
)
from wargame.schema.common import validate
from wargame.schema.scenario_file import ScenarioFile, ScenarioMeta, TurnDates

__all__ = [
    "UnitDef",
    "Division",
    "Entry",
    "Reinforcement",
    "Scenario",
    "load_scenario",
    "scenario_from_data",
    "check_setup_legal",
    "ScenarioError",
    "SIDES",
]

SIDES = ("allied", "axis")
NATIONS = ("german", "american", "british", "canadian", "russian", "french")
ENTRY_KINDS = ("beach", "edge", "hex", "drop")
# The files are checked by the models of wargame/schema (documented in docs/data-formats.md);
# this module builds the engine's types from the checked data.


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
    first_turn_days: int | None = None  # None: the first turn lasts days_per_turn days too
    rules: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    translations: dict[str, dict[str, str]] = field(default_factory=dict)  # {"pt": {"title": ..}}

    def __post_init__(self) -> None:
        # the game_start event keeps the English title; a log read in another language shows
        # this scenario's own title there (wargame.event_text.title_in_language)
        register_title(self.title, self.translations)

    def rule(self, name: str, default: Any = None) -> Any:
        return self.rules.get(name, default)

    def title_in(self, lang: str | None = None) -> str:
        """The title in ``lang`` (default: the current language; English when not translated)."""
        return pick(self.title, self.translations, "title", lang)

    def division_units(self, division: str) -> list[str]:
        return [u.id for u in self.units.values() if u.division == division]

    def turn_date(self, turn: int) -> str | None:
        if not self.first_day:
            return None
        day = dt.date.fromisoformat(self.first_day) + dt.timedelta(
            days=(turn - self.first_turn) * self.days_per_turn
        )
        return day.isoformat()

    def turn_days(self, turn: int) -> tuple[str, str] | None:
        """The first and last day of a turn (ISO dates), or None without ``first_day``.

        The first turn lasts ``first_turn_days`` days (CN 2.4.1: turn 0 is D-Day, 6 June 1944,
        alone), every later turn ``days_per_turn`` (CN: 3, turn 1 = 7-9 June; OD 2.4.1: 2,
        turn 1 = 15-16 August, turn 14 = 10-11 September 1944). ``turn_date`` is the day the
        turn track prints (for Normandy the last day, for Dragoon the first)."""
        if not self.first_day:
            return None
        start = dt.date.fromisoformat(self.first_day)
        first_len = self.first_turn_days or self.days_per_turn
        if turn == self.first_turn:
            return start.isoformat(), (start + dt.timedelta(days=first_len - 1)).isoformat()
        begin = start + dt.timedelta(
            days=first_len + (turn - self.first_turn - 1) * self.days_per_turn)
        end = begin + dt.timedelta(days=self.days_per_turn - 1)
        return begin.isoformat(), end.isoformat()


def _units(
    data: Any, source: str, tables: Tables
) -> tuple[dict[str, UnitDef], dict[str, Division]]:
    model = validate(UnitsFile, data, source, {"unit_types": set(tables.unit_types)})
    divisions: dict[str, Division] = {
        str(did): Division(id=str(did), name=spec.name if spec.name is not None else str(did),
                           nation=spec.nation, divisional_bonus=spec.divisional_bonus)
        for did, spec in (model.divisions or {}).items()
    }
    units: dict[str, UnitDef] = {}
    for spec in model.units:
        if spec.reduced is None:
            # OD 7.0: reduced values are half, rounded up.
            red_a, red_d = -(-spec.attack // 2), -(-spec.defence // 2)
        else:
            red_a, red_d = spec.reduced.attack, spec.reduced.defence
        if spec.division is not None and spec.division not in divisions:
            divisions[spec.division] = Division(spec.division, spec.division, spec.nation)
        units[spec.id] = UnitDef(
            id=spec.id,
            name=spec.name if spec.name is not None else spec.id,
            nation=spec.nation,
            side=spec.side,
            type=spec.type,
            attack=spec.attack,
            defence=spec.defence,
            movement=spec.movement,
            reduced_attack=red_a,
            reduced_defence=red_d,
            division=spec.division,
            ss=spec.ss,
            range=spec.range,
            provenance=spec.provenance,
        )
    return units, divisions


def _setup(data: Any, source: str, board: Board, units: dict[str, UnitDef],
           divisions: dict[str, Division] | None = None):
    context = {
        "hexes": {h.id for h in board.hexes},
        "edges": set(board.edges),
        "places": set(board.places),
        "units": set(units),
    }
    model = validate(SetupFile, data, source, context)
    if divisions is not None:
        for i, r in enumerate(model.reinforcements or []):
            if isinstance(r.entry, DropEntry) and r.entry.division not in divisions:
                raise ScenarioError.keyed(source, f"reinforcements[{i}].entry.division",
                                          "scenario.drop_division", r.entry.division)
    setup = tuple((p.unit, Hex.from_id(p.hex)) for p in model.setup or [])
    reinf = []
    for r in model.reinforcements or []:
        e = r.entry
        if isinstance(e, HexEntry):
            entry = Entry(kind="hex", hexes=tuple(Hex.from_id(h) for h in (e.hexes or [e.hex])))
        elif isinstance(e, EdgeEntry):
            entry = Entry(kind="edge", hexes=tuple(sorted(board.edges[e.edge])), edge=e.edge)
        elif isinstance(e, BeachEntry):
            hexes = tuple(h for name in e.beaches for h in board.places[name])
            entry = Entry(kind="beach", hexes=hexes, beaches=tuple(e.beaches))
        else:
            entry = Entry(kind="drop", division=e.division)
        reinf.append(Reinforcement(turn=r.turn, unit=r.unit, entry=entry, note=r.note))
    return setup, tuple(reinf)


def check_setup_legal(scn: Scenario, source: str) -> None:
    """The initial placement obeys the rules of the board (``source``: the setup file).

    Every unit stands on a hex its movement class may enter (never the sea or a border hex),
    at most ``stacking_limit`` units of a side a hex, never both sides in one hex (CN/OD
    4.1.1), except the units of ``rules.setup_landings``' side placed on an enemy hex: they
    wait at sea to land there (CN 11.1.1, OD 5.3).
    """
    tables, board = scn.tables, scn.board
    landing = (scn.rules.get("setup_landings") or {}).get("side")
    by_hex: dict[Hex, dict[str, int]] = {}
    for i, (uid, h) in enumerate(scn.setup):
        unit = scn.units[uid]
        info = board.hexes.get(h)
        terrain = tables.terrain.get(info.terrain) if info is not None else None
        mclass = tables.unit_types[unit.type].movement_class
        if terrain is None or terrain.cost.get(mclass) is None:
            raise ScenarioError.keyed(source, f"setup[{i}].hex", "scenario.setup_terrain", h.id,
                                      unit_type=unit.type,
                                      terrain=info.terrain if info else "off the map")
        counts = by_hex.setdefault(h, {})
        counts[unit.side] = counts.get(unit.side, 0) + 1
        if counts[unit.side] > scn.stacking_limit:
            raise ScenarioError.keyed(source, f"setup[{i}].hex", "scenario.setup_stacking", h.id,
                                      limit=scn.stacking_limit)
        if len(counts) > 1 and landing is None:
            raise ScenarioError.keyed(source, f"setup[{i}].hex", "scenario.setup_one_side", h.id)


def _board(data: Any, source: str, tables: Tables) -> Board:
    terrain = set(tables.terrain)
    validate(MapFile, data, source, {"terrain": terrain})
    return board_from_dict(data, source=source, terrain_names=terrain)


def _tables(data: Any, source: str) -> Tables:
    validate(TablesFile, data, source)
    return tables_from_dict(data, source=source)


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
        tables = _tables(tables, f"{source}/tables")
    board = _board(map_data, f"{source}/map", tables)
    units, divisions = _units(units_data, f"{source}/units", tables)
    setup, reinf = _setup(setup_data, f"{source}/setup", board, units, divisions)
    scn = _scenario(ScenarioMeta, meta, tables, board, units, divisions, setup, reinf, source)
    check_setup_legal(scn, f"{source}/setup")
    return scn


def _context(tables: Tables, board: Board, units: dict[str, UnitDef],
             divisions: dict[str, Division]) -> dict[str, Any]:
    return {
        "hexes": {h.id for h in board.hexes},
        "edges": set(board.edges),
        "places": set(board.places),
        "units": set(units),
        "divisions": set(divisions),
        "terrain": set(tables.terrain),
        "terrain_or_feature": set(tables.terrain) | set(tables.features),
        "unit_types": set(tables.unit_types),
        "movement_classes": set(tables.movement_classes),
        "normalize_variants": normalize_variants,
    }


def _scenario(model_type, meta, tables, board, units, divisions, setup, reinf, source) -> Scenario:
    model = validate(model_type, meta, source, _context(tables, board, units, divisions))
    dates = model.turn_dates or TurnDates()
    first_day = dates.first_day
    if first_day is not None:
        # YAML reads an unquoted 1944-06-06 as a date already
        first_day = first_day.isoformat() if isinstance(first_day, dt.date) else str(first_day)
    return Scenario(
        id=model.id if model.id is not None else "scenario",
        game=model.game if model.game is not None else tables.game,
        title=model.title if model.title is not None else tables.title,
        tables=tables,
        board=board,
        units=units,
        divisions=divisions,
        setup=setup,
        reinforcements=reinf,
        first_turn=model.turns.first,
        last_turn=model.turns.last,
        stacking_limit=model.stacking_limit,
        first_day=first_day,
        days_per_turn=dates.days_per_turn,
        first_turn_days=dates.first_turn_days,
        rules=meta.get("rules", {}) or {},
        source=source,
        translations=translations_of(meta, ("title",)),
    )


def _bundled_id(path_or_id: str | Path) -> bool:
    """A plain name (text, no separator, not hidden) of a bundled scenario folder."""
    if not isinstance(path_or_id, str) or not path_or_id or path_or_id.startswith("."):
        return False
    if any(sep in path_or_id for sep in ("/", "\\", "\x00")):
        return False
    return (scenarios_root() / path_or_id / "scenario.yaml").is_file()


def load_scenario(path_or_id: str | Path) -> Scenario:
    """Load a scenario by bundled id (``"normandy"``) or by the path of its scenario.yaml/folder."""
    p = Path(path_or_id)
    if _bundled_id(path_or_id):  # an id wins over a folder of that name in the current folder
        folder = scenario_dir(str(path_or_id))
        meta_path = folder / "scenario.yaml"
    elif p.suffix in (".yaml", ".yml") and p.exists():
        folder, meta_path = p.parent, p
    elif p.is_dir():
        folder, meta_path = p, p / "scenario.yaml"
    else:
        try:
            folder = scenario_dir(str(path_or_id))
        except FileNotFoundError as exc:
            raise ScenarioError.keyed(str(path_or_id), "(scenario)", "scenario.which",
                                      str(exc)) from None
        meta_path = folder / "scenario.yaml"
    meta = load_yaml(meta_path)
    src = str(meta_path)
    shape = validate(ScenarioFile, meta, src)
    names = {key: folder / getattr(shape, key) for key in ("tables", "map", "units", "setup")}
    game = shape.game
    tables_data = load_yaml(names["tables"])
    with _named(names["tables"]):
        validate(TablesFile, tables_data, str(names["tables"]))
        bundled = folder.parent / str(game) / "tables.yaml"
        tables = None
        if game is not None and names["tables"].resolve() == bundled.resolve():
            try:
                tables = load_tables(game)
            except FileNotFoundError:
                pass
        if tables is None:
            tables = tables_from_dict(tables_data, source=str(names["tables"]))
    with _named(names["map"]):
        board = _board(load_json(names["map"]), str(names["map"]), tables)
    with _named(names["units"]):
        units, divisions = _units(load_yaml(names["units"]), str(names["units"]), tables)
    with _named(names["setup"]):
        setup, reinf = _setup(load_yaml(names["setup"]), str(names["setup"]), board, units,
                              divisions)
    with _named(meta_path):
        scn = _scenario(ScenarioFile, meta, tables, board, units, divisions, setup, reinf, src)
    check_setup_legal(scn, str(names["setup"]))
    return scn


@contextmanager
def _named(path: Path):
    """Safety net: a shape the checks above did not foresee still names its file."""
    try:
        yield
    except ScenarioError:
        raise
    except (TypeError, KeyError, AttributeError, ValueError, IndexError) as exc:
        raise ScenarioError.keyed(str(path), "(structure)", "scenario.format",
                                  f"{type(exc).__name__}: {exc}") from exc
