"""Scenario Editor ``.m44`` layouts -> the project's own Memoir '44 scenario files.

An ``.m44`` file (JSON saved by the Days of Wonder Scenario Editor, the format community
scenarios use) holds a board (terrain, obstacles, units, medal tags on hexes), the game info
(cards, medals, who starts) and free texts. ``convert`` turns the layout into the dict of
``wargame.schema.memoir.MemoirScenarioFile``: terrain resolved to the engine's names (the beach
face's sand and sea written out hex by hex), units with their figures, objectives and special
rules as data. The texts are never copied. ``check_m44`` lists what the engine cannot play
(expansion terrain, obstacles and units) with names and hexes.

Used by tools/build_memoir_scenarios.py (the bundled scenarios, with the rulebook's
instructions from scenarios/memoir44/scenarios.yaml) and ``wargame scenario import``.
"""

from __future__ import annotations

import copy
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from wargame.scenario_errors import ScenarioError, load_json, short_repr
from wargame.schema.common import validate
from wargame.schema.memoir import M44File

from .board import Board, BoardHex, hex_to_m44, m44_to_hex
from .m44_tiles import BOARD_HEXES, BOARD_SIZE, MAX_HEXAGONS, Report, bunker_sides, normalize
from .text import IMPORT_TEXT_EN as TEXT
from .text import hexes_text

__all__ = [
    "UnsupportedM44", "check_m44", "m44_notes", "read_m44_file", "convert", "BASE_FIGURES",
    "TERRAIN_ALIASES", "NATION_SIDE", "FORMAT_VERSION", "to_m44", "read_m44_report",
]

FORMAT_VERSION = 1
# The side words of .m44 files and of the scenario files made from them (scenarios/memoir44):
# the files keep them; wargame.memoir.scenario reads them as the ids axis and allied
# (board.OLD_SIDE_IDS, issue #27).
AXIS, ALLIES = "AXIS", "ALLIES"
# M44 Game Set-up step 5: artillery 2 figures, armour 3, infantry 4.
BASE_FIGURES = {"inf": 4, "tank": 3, "gun": 2}
TERRAIN_ALIASES = {"curve": "river", "church": "buildings"}
PLAYED_TERRAIN = ("woods", "hills", "buildings", "river", "curve", "church", "hedgerow", "plain",
                  "beach", "ocean")
PLAYED_RECT = ("bunker", "bridge")
PLAYED_OBSTACLES = ("wire", "sand", "hedgehog")
# the nations of the base game's figures in the editor's unit names (infger, tank2us)
NATION_SIDE = {"ger": AXIS, "us": ALLIES}
from .m44_tiles import MEDAL_TAG, NATIONS, UNIT_NAME  # noqa: E402

NATION_SIDE.update({code: side for code, (side, _) in NATIONS.items()})
MEDAL_TAGS = {"medal1": ALLIES, "medal2": AXIS}
BOARD_WIDTH = {"STANDARD": 13, "OVERLORD": 26, "BRKTHRU": 13}
MAX_LISTED = 6  # hexes named per problem
MAX_PROBLEMS = 8  # problems named in the one-line message (all are in .problems)
MAX_PLACES = 120  # place names kept from a layout


class UnsupportedM44(ScenarioError):
    """An ``.m44`` layout uses what the engine cannot play; ``problems`` lists each thing with
    its name and hexes; ``field`` is the place of the first in the file."""

    def __init__(self, file: str | Path, problems: list[str], field: str = "board") -> None:
        self.problems = list(problems)
        from wargame.error_texts import loader_text

        super().__init__(file, field, loader_text("m44.base_game"), "; ".join(problems),
                         key="m44.base_game")
        self.args = (self.render(),)

    def render(self, lang: str | None = None) -> str:
        """The message in ``lang`` (default: the current language), framed as every loader's
        error ("{file}: campo 'board': ...", issue #32: the frame was English on a pt page);
        the problems are the texts made when the file was read, in that language."""
        from wargame.error_texts import loader_text
        from wargame.i18n import using_language

        problems = getattr(self, "problems", None)
        if problems is None:  # ScenarioError.__init__ renders before the problems are kept
            return super().render(lang)
        with using_language(lang):
            # the found part is the whole list (short_repr would cut it): one line all the same
            shown = "; ".join(problems[:MAX_PROBLEMS]) + (
                TEXT["more_problems"].format(count=len(problems) - MAX_PROBLEMS)
                if len(problems) > MAX_PROBLEMS else "")
            said = TEXT.plural("unsupported", len(problems)).format(count=len(problems),
                                                                    problems=shown)
            return loader_text("frame.said", file=self.file, field=self.field, said=said)

    def __str__(self) -> str:
        return str(self.args[0])


def _where(hexes: list[tuple[int, int]]) -> str:
    return hexes_text(hexes, MAX_LISTED)


def _name(item: Any, key: str) -> str | None:
    value = item.get(key) if isinstance(item, dict) else None
    name = value.get("name") if isinstance(value, dict) else None
    return name if isinstance(name, str) else None


def check_m44(raw: Any) -> list[str]:
    """What the engine cannot play in a parsed ``.m44`` (only well-formed parts are looked at;
    the schema reports the rest): each tile, obstacle and unit with no known effect, with the
    hexes it stands on, and a board type other than standard, Overlord and Breakthrough."""
    return [message for _, message in _unsupported(raw)]


def _unsupported(raw: Any) -> list[tuple[str, str]]:
    """(field path of the first occurrence, message) of each unsupported thing."""
    if not isinstance(raw, dict):
        return []
    return _problems(normalize(raw)[1])


def _problem_text(key: str, data: dict[str, Any], hexes: list[tuple[int, int]]) -> str:
    """A problem of the import (``m44_tiles.Report.problems``) in the current language."""
    return TEXT[f"unsupported.{key}"].format(**data, hexes=_where(hexes) if hexes else "?")


def _problems(report: Report) -> list[tuple[str, str]]:
    return [(report.problem_fields[line], _problem_text(line.key, line.args, h))
            for line, h in report.problems.items()]


def m44_notes(raw: dict[str, Any]) -> list[str]:
    """What an import leaves out without changing the layout (warnings): the texts (special
    rules written in words are not played), unknown medal tags, editor options."""
    notes = []
    if raw.get("text"):
        notes.append(TEXT["note.texts"])
    tags: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for item in raw["board"]["hexagons"]:
        for tag in item.get("tags") or []:
            if not MEDAL_TAG.match(str(tag.get("name")).lower()):
                tags[str(tag.get("name"))].append((item["row"], item["col"]))
    for name, hexes in tags.items():
        notes.append(TEXT["note.tag"].format(name=short_repr(name, 40), hexes=_where(hexes)))
    info = raw.get("game_info") or {}
    for key in ("options",):
        if info.get(key):
            notes.append(TEXT["note.option"].format(key=key))
    conditions = info.get("victory_conditions")
    if isinstance(conditions, list) and any(
            not (isinstance(c, dict) and set(c) <= {"standard"}) for c in conditions):
        notes.append(TEXT["note.victory"])
    return notes


def read_m44_file(path: str | Path) -> dict[str, Any]:
    """A parsed ``.m44`` checked for what the engine plays (``UnsupportedM44``) and against the
    schema (``ScenarioError`` naming the field). Returns the JSON data of any editor version in
    the base-game form (``wargame.memoir.m44_tiles.normalize``)."""
    return read_m44_report(path)[0]


def read_m44_report(path: str | Path) -> tuple[dict[str, Any], Report]:
    """``read_m44_file`` and the import report (what is read, approximated, left out)."""
    path = Path(path)
    data = load_json(path)
    if not isinstance(data, dict):
        raise ScenarioError.keyed(path, "(top level)", "m44.layout", type(data).__name__)
    _check_hexagon_count(data, path)
    data, report = normalize(data)
    problems = _problems(report)
    if problems:  # all of them at once, before the schema names the first
        raise UnsupportedM44(path, [m for _, m in problems], problems[0][0])
    validate(M44File, data, path)
    return data, report


def _check_hexagon_count(data: dict[str, Any], path: Path) -> None:
    """A hexagon list longer than the board (each hex listed once, M44 p.6) is refused before
    its entries are read: the work of the reader grows with the list (issue #31: a list blown
    up to 120,000 entries, under the file size limit, took 2.5 s of CPU to be refused)."""
    board = data.get("board")
    if not isinstance(board, dict) or not isinstance(board.get("hexagons"), list):
        return
    hexagons = board["hexagons"]
    kind = board.get("type")
    kind = kind.upper() if isinstance(kind, str) else kind
    most = BOARD_HEXES.get(kind, MAX_HEXAGONS) if isinstance(kind, str) else MAX_HEXAGONS
    if len(hexagons) > most:
        raise ScenarioError.keyed(path, "board.hexagons", "m44.hexagon_count",
                                  f"{len(hexagons)} entries", count=most,
                                  board=kind if kind in BOARD_HEXES else "OVERLORD")


def _background(face: str, row: int) -> str:
    # BGA Terrains.php getBackgroundSpecialTerrains: on the beach face rows 4-6 are beach and
    # rows 7-8 ocean, unless a hex has its own terrain.
    if face != "BEACH":
        return "plain"
    if row >= 7:
        return "ocean"
    if row >= 4:
        return "beach"
    return "plain"


def _unit(raw: dict[str, Any], at: list[int], resistance_side: str | None) -> dict[str, Any]:
    m = UNIT_NAME.match(raw["name"])
    assert m is not None  # check_m44 refused the others
    kind, elite, nation = m.groups()
    side = raw.get("_side") or NATION_SIDE[nation]
    figures = int(raw.get("nbr_units") or BASE_FIGURES[kind])
    special = None
    if elite:
        if kind == "inf":
            # M44 Appendix 1: French Resistance (3 figures) in the scenarios that say so,
            # otherwise special forces (Rangers, Commandos, Panzer Grenadiers...).
            special = "resistance" if (resistance_side == side
                                       or raw.get("_special") == "resistance") else "special"
            if special == "resistance" and resistance_side != side:
                figures = int(raw.get("nbr_units") or 3)  # M44 Appendix 1: 3 figures
        elif kind == "tank":
            special = "elite"  # M44 Appendix 1 Elite Armor: 4 figures
            figures = int(raw.get("nbr_units") or 4)
    out: dict[str, Any] = {"at": at, "side": side, "kind": kind, "figures": figures}
    if special:
        out["special"] = special
    if raw.get("badge"):
        out["badge"] = raw["badge"]
    if raw.get("_nation") not in (None, "German", "American"):
        out["nation"] = raw["_nation"]  # shown on the counter; plays as its side's unit
    return out


def _sorted_hexes(hexes: Any) -> list[list[int]]:
    return sorted([int(r), int(c)] for r, c in hexes)


def convert(raw: dict[str, Any], *, scenario_id: str, title: str, provenance: str,
            entry: dict[str, Any] | None = None, number: int | None = None,
            briefing: str = "", notes: list[str] | None = None,
            report: Report | None = None) -> dict[str, Any]:
    """The scenario file (``MemoirScenarioFile`` dict) of a checked ``.m44`` layout.

    ``entry`` holds the instructions as in scenarios.yaml (cards, starts, medals, special rules
    with objectives); without it they come from ``game_info`` (player 1 the Axis unless said
    otherwise, 4 cards and 6 medals each when not given) and the medal tags of the hexes are the
    objectives (medal1 Allied, medal2 Axis; held, not permanent).
    """
    board_raw = raw["board"]
    size = board_raw["type"]
    face = board_raw.get("face", "COUNTRY")
    width = BOARD_WIDTH[size]
    special = copy.deepcopy(dict((entry or {}).get("special") or {}))
    # the entry's objective list, or "from_tags"
    objectives_spec: list[dict[str, Any]] | str | None = (
        special.pop("objectives", None) if entry is not None else "from_tags")

    terrain: dict[tuple[int, int], dict[str, Any]] = {}
    units: list[dict[str, Any]] = []
    tag_objectives: list[dict[str, Any]] = []
    impassable: list[list[int]] = []
    # M44 Bunkers: the side that may claim a bunker; an import's bunkers belong to the side of
    # the unit on them (docs/rules-notes.md, "Imported bunkers")
    sides = bunker_sides(raw) if entry is None and not special.get("bunker_owner") else {}
    for item in board_raw["hexagons"]:
        row, col = int(item["row"]), int(item["col"])
        name = (item.get("terrain") or {}).get("name")
        spec: dict[str, Any] = {"at": [row, col],
                                "terrain": (TERRAIN_ALIASES.get(name, name) if name else None)
                                or _background(face, row)}
        rect = (item.get("rect_terrain") or {}).get("name")
        if rect in PLAYED_RECT:
            spec[rect] = True
        if rect == "bunker" and (row, col) in sides:
            spec["bunker_side"] = sides[(row, col)]
        if item.get("_impassable"):
            impassable.append([row, col])
        obstacle = (item.get("obstacle") or {}).get("name")
        if obstacle:
            spec["obstacle"] = obstacle
        if len(spec) > 2 or spec["terrain"] != "plain":
            terrain[(row, col)] = spec
        if item.get("unit"):
            units.append(_unit(item["unit"], [row, col], special.get("resistance_side")))
        for tag in item.get("tags") or []:
            if tag.get("name") in MEDAL_TAGS:
                tag_objectives.append({"side": MEDAL_TAGS[tag["name"]], "hexes": [[row, col]],
                                       "permanent": False, "medals": 1})
    if face == "BEACH":
        for row in range(4, 9):
            for col in range(row % 2, 2 * (width - 1) + 1, 2):
                if (row, col) not in terrain:
                    terrain[(row, col)] = {"at": [row, col], "terrain": _background(face, row)}

    if impassable:
        special["impassable"] = sorted(special.get("impassable", []) + impassable)
    if entry is None and report is not None and report.sudden_death:
        special["sudden_death"] = report.sudden_death  # game_info.victory (m44_tiles)
    if entry is None and report is not None:
        special["last_unit_loses"] = True  # docs/rules-notes.md (issue 32)
    objectives: list[dict[str, Any]] = []
    if objectives_spec == "from_tags" and entry is None and report is not None:
        objectives = report.objectives  # every medal tag (wargame.memoir.m44_tiles)
    elif objectives_spec == "from_tags":
        objectives = tag_objectives
    elif isinstance(objectives_spec, list):
        for o in objectives_spec:
            hexes = o["hexes"]
            if hexes == "adjacent_to_river_row_0":
                hexes = _adjacent_to_river_row_0(terrain, width)
            objectives.append({"side": o["side"], "hexes": _sorted_hexes(hexes),
                               "permanent": bool(o.get("permanent", False)),
                               "medals": int(o.get("medals", 1))})

    info = raw.get("game_info") or {}
    if entry is None:
        first = info.get("side_player1") or (
            ALLIES if info.get("side_player2") == AXIS else AXIS)
        second = info.get("side_player2") or (AXIS if first == ALLIES else ALLIES)
        cards = {first: info.get("cards_player1") or 4, second: info.get("cards_player2") or 4}
        medals = {first: info.get("victory_player1") or 6,
                  second: info.get("victory_player2") or 6}
        starts = second if info.get("starting") == "PLAYER2" else first
    else:
        cards, medals, starts = entry["cards"], entry["medals"], entry["starts"]
    date = info.get("date_begin")
    places = []
    labels = board_raw.get("labels")
    for label in labels[:MAX_PLACES] if isinstance(labels, list) else []:
        if not isinstance(label, dict) or not isinstance(label.get("text"), list):
            continue
        words = " ".join(str(t) for t in label["text"] if isinstance(t, str)).strip()
        if words and isinstance(label.get("row"), int) and isinstance(label.get("col"), int):
            places.append({"at": [label["row"], label["col"]], "name": words[:80]})
    out: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "id": scenario_id,
        "title": title,
        "number": number,
        "date": date if isinstance(date, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", date)
        else None,
        "board": {"size": BOARD_SIZE[size], "face": face},
        "first_player": starts,
        "cards": {AXIS: int(cards[AXIS]), ALLIES: int(cards[ALLIES])},
        "medals_to_win": {AXIS: int(medals[AXIS]), ALLIES: int(medals[ALLIES])},
        "terrain": [terrain[k] for k in sorted(terrain)],
        "units": units,
        "objectives": objectives,
        "special": special,
        "places": places,
        "briefing": briefing,
        "notes": list(notes or []),
        "provenance": provenance,
    }
    return out


def _adjacent_to_river_row_0(terrain: dict[tuple[int, int], dict[str, Any]],
                             width: int) -> list[list[int]]:
    """Montélimar: every land hex next to the Rhone (the river hexes of row 0)."""
    board = Board(width=width, hexes={m44_to_hex(r, c): BoardHex(terrain=t["terrain"])
                                      for (r, c), t in terrain.items()})
    river = [h for h in board.all_hexes() if h.r == 0 and board.terrain(h) == "river"]
    return _sorted_hexes({hex_to_m44(n) for rh in river for n in rh.neighbours()
                          if board.on_board(n) and board.terrain(n) != "river"})


def to_m44(scenario: dict[str, Any]) -> dict[str, Any]:
    """A scenario file back as an ``.m44`` layout (for the Scenario Editor and for tests): board,
    units, medal tags for one-hex objectives and the game info. No texts; special rules other
    than objectives have no place in the format and are left out."""
    side_name = {AXIS: "ger", ALLIES: "us"}
    hexagons: dict[tuple[int, int], dict[str, Any]] = {}

    def at(rc: list[int]) -> dict[str, Any]:
        return hexagons.setdefault((rc[0], rc[1]), {"row": rc[0], "col": rc[1]})

    beach = scenario["board"]["face"] == "BEACH"
    for t in scenario["terrain"]:
        item = at(t["at"])
        if t["terrain"] != _background("BEACH" if beach else "COUNTRY", t["at"][0]):
            item["terrain"] = {"name": t["terrain"]}
        for rect in PLAYED_RECT:
            if t.get(rect):
                item["rect_terrain"] = {"name": rect}
        if t.get("obstacle"):
            item["obstacle"] = {"name": t["obstacle"]}
    for u in scenario["units"]:
        elite = "2" if u.get("special") else ""
        unit: dict[str, Any] = {"name": f"{u['kind']}{elite}{side_name[u['side']]}"}
        default = 4 if (u["kind"] == "tank" and elite) else BASE_FIGURES[u["kind"]]
        if u["figures"] != default:
            unit["nbr_units"] = u["figures"]
        if u.get("badge"):
            unit["badge"] = u["badge"]
        at(u["at"])["unit"] = unit
    for o in scenario.get("objectives", []):
        if len(o["hexes"]) == 1 and not o.get("permanent") and o.get("medals", 1) == 1:
            tag = "medal1" if o["side"] == ALLIES else "medal2"
            at(o["hexes"][0]).setdefault("tags", []).append({"name": tag})
    p1, p2 = AXIS, ALLIES
    return {
        "meta_data": {"software": "wargame (tools/build_memoir_scenarios.py data)"},
        "game_info": {
            "side_player1": p1, "side_player2": p2,
            "starting": "PLAYER1" if scenario["first_player"] == p1 else "PLAYER2",
            "cards_player1": scenario["cards"][p1], "cards_player2": scenario["cards"][p2],
            "victory_player1": scenario["medals_to_win"][p1],
            "victory_player2": scenario["medals_to_win"][p2],
        },
        "board": {
            "type": scenario["board"]["size"].upper(), "face": scenario["board"]["face"],
            "hexagons": [hexagons[k] for k in sorted(hexagons)],
            "labels": [{"row": p["at"][0], "col": p["at"][1], "text": [p["name"]]}
                       for p in scenario.get("places", [])],
        },
    }
