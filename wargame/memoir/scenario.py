"""Loading Memoir '44 scenarios: SED ``.m44`` layouts plus ``scenarios.yaml`` rules as data."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from wargame.hexgrid import Hex
from wargame.paths import MEMOIR_PREFIX, scenarios_root
from wargame.scenario_errors import load_json, load_yaml
from wargame.schema.common import validate
from wargame.schema.memoir import M44File, MemoirEntry, MemoirIndex

from .board import ALLIES, AXIS, Board, BoardHex, m44_to_hex

__all__ = [
    "UnitSpec", "Objective", "Scenario", "load_scenario", "scenario_ids", "index",
    "custom_scenario", "check_memoir", "is_memoir_target", "read_m44", "scenario_from_m44",
]

# M44 Game Set-up step 5: artillery 2 figures, armour 3, infantry 4.
BASE_FIGURES = {"inf": 4, "tank": 3, "gun": 2}
KIND_OF = {"inf": "inf", "tank": "tank", "gun": "gun"}
TERRAIN_ALIASES = {"curve": "river", "church": "buildings"}


@dataclass(frozen=True)
class UnitSpec:
    side: str
    kind: str  # inf, tank, gun
    hex: Hex
    figures: int
    special: str | None = None  # "special" forces, "resistance", "elite" armour
    badge: str | None = None


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

    def opt(self, name: str, default: Any = None) -> Any:
        return self.special.get(name, default)


def _dir() -> Path:
    return scenarios_root() / "memoir44"


@lru_cache(maxsize=1)
def index() -> dict[str, dict[str, Any]]:
    """scenarios.yaml, checked by ``MemoirIndex`` (a ``ScenarioError`` names file and field)."""
    path = _dir() / "scenarios.yaml"
    data = load_yaml(path)
    validate(MemoirIndex, data, path)
    return {str(k): v for k, v in data["scenarios"].items()}


def scenario_ids() -> list[str]:
    return list(index())


def _hexes(pairs) -> frozenset[Hex]:
    return frozenset(m44_to_hex(int(r), int(c)) for r, c in pairs)


def read_m44(file: str | Path) -> dict[str, Any]:
    """An .m44 layout (a file name in scenarios/memoir44/ or a path), checked by ``M44File``."""
    path = _dir() / file
    data = load_json(path)
    validate(M44File, data, path)
    return data


@lru_cache(maxsize=32)
def load_scenario(scenario_id: str | int) -> Scenario:
    sid = str(scenario_id)
    entry = index()[sid]
    return _build(sid, entry, read_m44(entry["file"]))


def scenario_from_m44(path: str | Path, entry: dict[str, Any] | None = None,
                      scenario_id: str = "custom") -> Scenario:
    """A scenario from an ``.m44`` file anywhere (a layout saved by the Scenario Editor).

    ``entry`` is its instructions as in scenarios.yaml (cards, starts, medals, special rules;
    checked by ``MemoirEntry``); without it they are read from the file's ``game_info``
    (player 1 Axis, 4 cards and 6 medals each when not given). A broken file or entry raises
    ``ScenarioError`` naming the file and the field.
    """
    path = Path(path)
    data = load_json(path)
    model = validate(M44File, data, path)
    if entry is None:
        gi = model.game_info
        first = gi.side_player1 or (ALLIES if gi.side_player2 == AXIS else AXIS)
        second = gi.side_player2 or (AXIS if first == ALLIES else ALLIES)
        entry = {
            "file": path.name if re.fullmatch(r"[A-Za-z0-9_.-]+\.m44", path.name) else
            "custom.m44",
            "title": path.stem,
            "cards": {first: gi.cards_player1 or 4, second: gi.cards_player2 or 4},
            "medals": {first: gi.victory_player1 or 6, second: gi.victory_player2 or 6},
            "starts": second if gi.starting == "PLAYER2" else first,
        }
        where = f"{path} (game_info)"
    else:
        where = f"{path} (its scenarios.yaml entry)"
    validate(MemoirEntry, entry, where)
    return _build(scenario_id, entry, data)


def _build(sid: str, entry: dict[str, Any], raw: dict[str, Any]) -> Scenario:
    special = dict(entry.get("special") or {})
    board_raw = raw["board"]
    overlord = board_raw["type"] == "OVERLORD"
    width = 26 if overlord else 13
    boundaries = (15, 35) if overlord else (7, 17)
    face = board_raw.get("face", "COUNTRY")

    hexes: dict[Hex, BoardHex] = {}
    units: list[UnitSpec] = []
    tag_objectives: list[Objective] = []
    obstacles: list[tuple[str, Hex]] = []
    resistance_side = special.get("resistance_side")
    for item in board_raw["hexagons"]:
        row, col = int(item["row"]), int(item["col"])
        h = m44_to_hex(row, col)
        terrain = item.get("terrain", {}).get("name")
        terrain = TERRAIN_ALIASES.get(terrain, terrain)
        rect = item.get("rect_terrain", {}).get("name")
        obstacle = item.get("obstacle", {}).get("name")
        hexes[h] = BoardHex(
            terrain=terrain or _background(face, row),
            bridge=rect == "bridge",
            bunker=rect == "bunker",
            hedgehog=obstacle == "hedgehog",
        )
        if obstacle in ("sand", "wire"):
            obstacles.append((obstacle, h))
        if "unit" in item:
            units.append(_unit(item["unit"], h, resistance_side))
        for tag in item.get("tags", []):
            if tag.get("name") in ("medal1", "medal2"):
                side = ALLIES if tag["name"] == "medal1" else AXIS
                tag_objectives.append(Objective(side, frozenset({h})))
    if face == "BEACH":
        # BGA Terrains.php getBackgroundSpecialTerrains: rows 4-6 beach, 7-8 ocean.
        for row in range(4, 9):
            for c in range(row % 2, 2 * (width - 1) + 1, 2):
                h = m44_to_hex(row, c)
                if h not in hexes:
                    hexes[h] = BoardHex(terrain=_background(face, row))
    board = Board(width=width, rows=9, hexes=hexes, boundaries=boundaries)

    objectives: list[Objective] = []
    spec = special.get("objectives")
    if spec == "from_tags":
        objectives = tag_objectives
    elif spec:
        for o in spec:
            if o["hexes"] == "adjacent_to_river_row_0":
                river = [h for h in board.all_hexes() if h.r == 0 and board.terrain(h) == "river"]
                hs = frozenset(
                    n for rh in river for n in rh.neighbours()
                    if board.on_board(n) and board.terrain(n) != "river"
                )
            else:
                hs = _hexes(o["hexes"])
            objectives.append(
                Objective(o["side"], hs, bool(o.get("permanent", False)), int(o.get("medals", 1)))
            )
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
    return Scenario(
        id=sid,
        title=entry["title"],
        file=entry["file"],
        board=board,
        units=tuple(units),
        cards={k: int(v) for k, v in entry["cards"].items()},
        starts=entry["starts"],
        medals={k: int(v) for k, v in entry["medals"].items()},
        objectives=tuple(objectives),
        special=special,
        face=face,
        m44_game_info=dict(raw["game_info"]),
        obstacles=tuple(obstacles),
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


def _background(face: str, row: int) -> str:
    if face != "BEACH":
        return "plain"
    if row >= 7:
        return "ocean"
    if row >= 4:
        return "beach"
    return "plain"


def _unit(raw: dict[str, Any], h: Hex, resistance_side: str | None) -> UnitSpec:
    name = raw["name"]
    side = AXIS if name.endswith("ger") else ALLIES
    base = name[:-3] if side == AXIS else name[:-2]
    elite = base.endswith("2")
    kind = KIND_OF[base.rstrip("2")]
    figures = int(raw.get("nbr_units") or BASE_FIGURES[kind])
    special = None
    if elite:
        if kind == "inf":
            # M44 Appendix 1: French Resistance (3 figures) in the scenarios that say so,
            # otherwise special forces (Rangers, Commandos, Panzer Grenadiers...).
            special = "resistance" if resistance_side == side else "special"
        elif kind == "tank":
            special = "elite"  # M44 Appendix 1 Elite Armor: 4 figures
            figures = int(raw.get("nbr_units") or 4)
    return UnitSpec(side, kind, h, figures, special, raw.get("badge"))




def check_memoir(target: str | Path) -> tuple[str, int, int]:
    """Validate Memoir '44 data for ``wargame scenario validate``: an ``.m44`` file, a
    ``scenarios.yaml`` index (and every file it lists), or a scenario id (``memoir44-5``, ``5``).

    Returns (title, units, hexes); a broken file raises ``ScenarioError`` naming file and field.
    """
    text = str(target)
    path = Path(text)
    if path.suffix == ".m44":
        data = load_json(path)
        model = validate(M44File, data, path)
        units = sum(1 for h in model.board.hexagons if h.unit is not None)
        return path.name, units, len(model.board.hexagons)
    if path.name in ("scenarios.yaml", "scenarios.yml") and path.exists():
        data = load_yaml(path)
        idx = validate(MemoirIndex, data, path)
        units = hexes = 0
        for entry in idx.scenarios.values():
            m44 = validate(M44File, load_json(path.parent / entry.file), path.parent / entry.file)
            units += sum(1 for h in m44.board.hexagons if h.unit is not None)
            hexes += len(m44.board.hexagons)
        return f"{len(idx.scenarios)} Memoir '44 scenarios", units, hexes
    sid = text.removeprefix(MEMOIR_PREFIX)
    if sid not in index():
        from wargame.scenario_errors import ScenarioError

        raise ScenarioError(_dir() / "scenarios.yaml", "scenarios",
                            f"a scenario id among {list(index())}", sid)
    scn = load_scenario.__wrapped__(sid)  # uncached: check the files as they are now
    return scn.title, len(scn.units), len(scn.board.hexes)


def is_memoir_target(target: str | Path) -> bool:
    """Does ``wargame scenario validate TARGET`` name Memoir '44 data?"""
    text = str(target)
    path = Path(text)
    if path.suffix == ".m44" or text.startswith(MEMOIR_PREFIX):
        return True
    return path.name in ("scenarios.yaml", "scenarios.yml") and path.exists() and any(
        path.parent.glob("*.m44"))
