"""Tables of the CRT family (CN and OD) loaded from ``scenarios/<game>/tables.yaml``.

Pure functions for odds ratios (CN/OD 5.1.1), column shifts and table look-ups. The two games
have different tables: every look-up goes through the ``Tables`` of the game being played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from wargame.dice import ROW_BANDS, band_probability, row_band
from wargame.paths import scenario_dir
from wargame.scenario_errors import ScenarioError, load_yaml

__all__ = [
    "Tables",
    "TerrainType",
    "UnitType",
    "AirPower",
    "load_tables",
    "odds_ratio",
    "ratio_label",
    "ratio_column",
    "DEFENDER_CODES",
    "ATTACKER_CODES",
    "split_result",
]

DEFENDER_CODES = ("DE", "DRB", "DRI", "DVB", "DVI")
ATTACKER_CODES = ("AVI", "AVB", "ARI", "ARB", "AE")
SINGLE_CODES = ("EMP", "IMP")


@dataclass(frozen=True)
class TerrainType:
    name: str
    cost: dict[str, float | None]
    combat: int
    bombardment_combat: int


@dataclass(frozen=True)
class UnitType:
    name: str
    movement_class: str
    air_vulnerability: int
    artillery_vulnerability: int
    advance: int
    armoured: bool = False
    river_retreat_loss: bool = False
    anti_tank: bool = False
    guerrilla: bool = False
    no_attack_into: frozenset[str] = frozenset()


@dataclass(frozen=True)
class AirPower:
    per_turn: int
    per_airfield: int
    strike_min: int
    strike_max: int
    no_air_turns: frozenset[int]


@dataclass(frozen=True)
class BombardmentColumn:
    label: str
    low: int
    high: int | None


@dataclass(frozen=True)
class Tables:
    game: str
    title: str
    crt_columns: tuple[str, ...]
    crt: dict[str, tuple[str, ...]]
    bombardment_columns: tuple[BombardmentColumn, ...]
    bombardment: dict[str, tuple[str, ...]]
    carpet_bombing: dict[str, str] | None
    movement_classes: tuple[str, ...]
    terrain: dict[str, TerrainType]
    features: dict[str, TerrainType]
    hexsides: dict[str, TerrainType]
    road_cost: dict[str, float]
    unit_types: dict[str, UnitType]
    air: AirPower
    rule_prefix: str = "CN"
    source: str = field(default="", compare=False)

    # CRT --------------------------------------------------------------------------------
    def crt_result(self, column: int | str, total: int) -> str:
        """The CRT cell for a column (index or label) and a 2d6 total, e.g. ``"DRB AVB"``."""
        index = self.crt_columns.index(column) if isinstance(column, str) else column
        return self.crt[row_band(total)][index]

    def crt_distribution(self, column: int | str) -> dict[str, Fraction]:
        """Exact distribution of results in one column (fractions of 36)."""
        index = self.crt_columns.index(column) if isinstance(column, str) else column
        dist: dict[str, Fraction] = {}
        for band, _ in ROW_BANDS:
            result = self.crt[band][index]
            dist[result] = dist.get(result, Fraction(0)) + band_probability(band)
        return dist

    def shifted_column(self, base: int, shift: int) -> int:
        """Apply a net column shift (+ right, favouring the attacker), clamped to the table.

        Ratios worse than 1-3 or better than 9-1 use the table's end column
        (docs/rules-notes.md, "Odds beyond the table").
        """
        return max(0, min(len(self.crt_columns) - 1, base + shift))

    # Bombardment -------------------------------------------------------------------------
    def bombardment_column(self, value: int) -> int | None:
        """Column index for a bombardment value (CN/OD 6.2, 8.0); None when value < 1."""
        for i, col in enumerate(self.bombardment_columns):
            if value >= col.low and (col.high is None or value <= col.high):
                return i
        return None

    def bombardment_result(self, column: int, total: int) -> str:
        return self.bombardment[row_band(total)][column]

    def bombardment_distribution(self, column: int) -> dict[str, Fraction]:
        dist: dict[str, Fraction] = {}
        for band, _ in ROW_BANDS:
            result = self.bombardment[band][column]
            dist[result] = dist.get(result, Fraction(0)) + band_probability(band)
        return dist

    def carpet_result(self, total: int) -> str:
        if self.carpet_bombing is None:
            raise ValueError(f"{self.title} has no carpet bombing table")
        return self.carpet_bombing[row_band(total)]

    def carpet_distribution(self) -> dict[str, Fraction]:
        """Exact distribution of the carpet bombing table's results over 2d6 (CN 6.3)."""
        if self.carpet_bombing is None:
            raise ValueError(f"{self.title} has no carpet bombing table")
        dist: dict[str, Fraction] = {}
        for band, _ in ROW_BANDS:
            result = self.carpet_bombing[band]
            dist[result] = dist.get(result, Fraction(0)) + band_probability(band)
        return dist

    # Units --------------------------------------------------------------------------------
    def unit_type(self, name: str) -> UnitType:
        try:
            return self.unit_types[name]
        except KeyError:
            raise KeyError(f"{self.title}: unknown unit type {name!r}") from None


def odds_ratio(attack: int, defence: int) -> tuple[int, int]:
    """CN/OD 5.1.1: divide, drop the fraction; if defence is larger, the inverse ratio.

    ``odds_ratio(11, 4) == (2, 1)``; ``odds_ratio(4, 9) == (1, 2)``.
    """
    if attack < 0 or defence < 0:
        raise ValueError("strengths cannot be negative")
    # A zero strength counts as 1 (docs/rules-notes.md): 5 against 0 is 5-1, 0 against 7 is 1-7.
    attack, defence = max(attack, 1), max(defence, 1)
    if attack >= defence:
        return (attack // defence, 1)
    return (1, defence // attack)


def ratio_label(ratio: tuple[int, int]) -> str:
    return f"{ratio[0]}-{ratio[1]}"


def ratio_column(ratio: tuple[int, int], columns: tuple[str, ...]) -> int:
    """Column index of a ratio before shifts, clamped to the table's ends."""
    label = ratio_label(ratio)
    if label in columns:
        return columns.index(label)
    return 0 if ratio[1] > ratio[0] else len(columns) - 1


def split_result(result: str) -> tuple[str | None, str | None]:
    """``"DRB AVB"`` -> ("DRB", "AVB"); ``"EMP"`` -> ("EMP", None)."""
    parts = result.split()
    if len(parts) == 1:
        return parts[0], None
    return parts[0], parts[1]


def _terrain_types(data: dict, where: str) -> dict[str, TerrainType]:
    out = {}
    for name, spec in (data or {}).items():
        if not isinstance(spec, dict):
            raise ScenarioError.keyed(where, name, "tables.terrain_spec")
        combat = int(spec.get("combat", 0))
        out[name] = TerrainType(
            name=name,
            cost=dict(spec.get("cost", {})),
            combat=combat,
            bombardment_combat=int(spec.get("bombardment_combat", combat)),
        )
    return out


def tables_from_dict(data: dict, source: str = "<dict>") -> Tables:
    try:
        crt = data["crt"]
        columns = tuple(crt["columns"])
        rows = {band: tuple(crt["rows"][band]) for band, _ in ROW_BANDS}
        for band, cells in rows.items():
            if len(cells) != len(columns):
                raise ScenarioError.keyed(source, f"crt.rows.{band}", "tables.cells", count=len(columns))
        bomb = data["bombardment"]
        bcols = tuple(
            BombardmentColumn(c["label"], int(c["low"]), None if c["high"] is None else int(c["high"]))
            for c in bomb["columns"]
        )
        brows = {band: tuple(bomb["rows"][band]) for band, _ in ROW_BANDS}
        carpet = data.get("carpet_bombing")
        unit_types = {}
        for name, spec in data["unit_types"].items():
            unit_types[name] = UnitType(
                name=name,
                movement_class=spec["movement_class"],
                air_vulnerability=int(spec["vulnerability"]["air"]),
                artillery_vulnerability=int(spec["vulnerability"]["artillery"]),
                advance=int(spec["advance"]),
                armoured=bool(spec.get("armoured", False)),
                river_retreat_loss=bool(spec.get("river_retreat_loss", False)),
                anti_tank=bool(spec.get("anti_tank", spec.get("armoured", False))),
                guerrilla=bool(spec.get("guerrilla", False)),
                no_attack_into=frozenset(spec.get("no_attack_into", [])),
            )
        air = data["air_power"]
        tables = Tables(
            game=data["game"],
            title=data.get("title", data["game"]),
            crt_columns=columns,
            crt=rows,
            bombardment_columns=bcols,
            bombardment=brows,
            carpet_bombing=dict(carpet) if carpet else None,
            movement_classes=tuple(data["movement_classes"]),
            terrain=_terrain_types(data["terrain"], source),
            features=_terrain_types(data.get("features", {}), source),
            hexsides=_terrain_types(data.get("hexsides", {}), source),
            road_cost=dict(data["road"]["cost"]),
            unit_types=unit_types,
            air=AirPower(
                per_turn=int(air["per_turn"]),
                per_airfield=int(air.get("per_airfield", 0)),
                strike_min=int(air["strike_min"]),
                strike_max=int(air["strike_max"]),
                no_air_turns=frozenset(air.get("no_air_turns", [])),
            ),
            rule_prefix=str(data.get("rule_prefix", "CN")),
            source=source,
        )
    except KeyError as exc:
        raise ScenarioError.keyed(source, str(exc.args[0]), "tables.required") from None
    for ut in tables.unit_types.values():
        if ut.movement_class not in tables.movement_classes:
            raise ScenarioError.keyed(source, f"unit_types.{ut.name}.movement_class",
                                      "schema.one_of", options=tables.movement_classes)
    return tables


@cache
def load_tables(game: str) -> Tables:
    path = scenario_dir(game) / "tables.yaml"
    return tables_from_dict(load_yaml(path), source=str(path))
