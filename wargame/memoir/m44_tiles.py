"""What the Scenario Editor's names mean to our engine: terrain tiles, nations, badges, medal
tags, and the editor variants of a layout (issue 32, docs/memoir44-import.md).

``normalize(raw)`` turns a parsed ``.m44`` of any editor version into the form the base-game
reader expects (upper-case board type, face, sides and starting player; numbers written as text
read as numbers; every tile, nation and badge resolved to what the engine plays) and returns the
import report: what was read exactly, what plays approximately (and how), what is left out.
What has no known effect is returned as a problem (refused by name with its hexes).

The tile names and the Days of Wonder terrain card number of each (the "Terrain N" summary
cards of the Terrain Pack and later expansions) are the ones the Board Game Arena adaptation
lists (github.com/bga-devs/bga-memoir, modules/php/Terrains/*.php, read as documentation of
the file format); the effects are cited per tile in docs/memoir44-import.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

# the files' side words (the engine's ids are allied/axis: board.OLD_SIDE_IDS renames them when
# a scenario is read, issue #27)
AXIS, ALLIES = "AXIS", "ALLIES"


__all__ = ["Tile", "TILES", "NATIONS", "Report", "Line", "normalize", "label_to_hex",
           "BOARD_ROWS", "BOARD_WIDTH", "BOARD_SIZE", "BOARD_HEXES", "MAX_HEXAGONS", "bunker_sides",
           "troop_key"]

# board type -> (hexes in an even row, rows). M44 Breakthrough: the Breakthrough board is as
# wide as the standard board (13 hexes) and 17 rows deep; its section lines are those of the
# standard board.
BOARD_WIDTH = {"STANDARD": 13, "OVERLORD": 26, "BRKTHRU": 13}
BOARD_ROWS = {"STANDARD": 9, "OVERLORD": 9, "BRKTHRU": 17}
BOARD_SIZE = {"STANDARD": "standard", "OVERLORD": "overlord", "BRKTHRU": "breakthrough"}
# the hexes of each board: long rows (even) of BOARD_WIDTH hexes, short rows (odd) of one less
BOARD_HEXES = {kind: (rows + 1) // 2 * BOARD_WIDTH[kind] + rows // 2 * (BOARD_WIDTH[kind] - 1)
               for kind, rows in BOARD_ROWS.items()}
MAX_HEXAGONS = max(BOARD_HEXES.values())
"""The longest hexagon list a layout may have (each hex listed once, M44 p.6: OVERLORD's 230);
a longer one is refused before any work on its entries (issue #31)."""


@dataclass(frozen=True)
class Tile:
    """An editor tile as our engine plays it: ``terrain`` (an engine terrain, or None to keep
    the hex's own), ``rect`` (bunker/bridge), ``obstacle``, ``impassable`` (no unit may enter),
    and ``lost``: empty when the engine plays the tile's card exactly, else what is not played
    (the tile is then an approximation the import report lists)."""

    card: str
    terrain: str | None = None
    rect: str | None = None
    obstacle: str | None = None
    impassable: bool = False
    lost: str = ""
    key: str = ""  # the first editor name of the tile: its texts' ids (card.KEY, lost.KEY)


def _tiles() -> dict[str, Tile]:
    t: dict[str, Tile] = {}

    def add(names: str, tile: Tile) -> None:
        # the card and lost texts are the English of the catalogue memoir.import_tiles
        # (wargame.memoir.text): the report says them in the reader's language
        tile = replace(tile, key=names.split()[0].lower())
        for name in names.split():
            t[name.lower()] = tile

    # --- the base game's own tiles (M44 p.17 Terrain, Appendix 2)
    for name in ("woods", "hills", "buildings", "river", "hedgerow", "plain", "beach", "ocean"):
        add(name, Tile(f"base game: {name}", terrain=name))
    add("curve", Tile("base game: river (bend)", terrain="river"))
    add("church", Tile("base game: village (church)", terrain="buildings"))
    add("bunker", Tile("base game: bunker", rect="bunker"))
    add("bridge", Tile("base game: bridge", rect="bridge"))
    add("wire", Tile("base game: wire", obstacle="wire"))
    add("sand", Tile("base game: sandbags", obstacle="sand"))
    add("hedgehog", Tile("base game: hedgehogs", obstacle="hedgehog"))
    # --- winter, desert and Pacific versions of base terrain: the same card, the same effects
    add("wforest", Tile("Terrain 3 Forests (winter)", terrain="woods"))
    add("whill dhill", Tile("Terrain 6 Hills (winter, desert)", terrain="hills"))
    add("wvillage bled pvillage", Tile("Terrain 14 Towns & Villages (winter, desert, Pacific)",
                                       terrain="buildings"))
    add("wchurch", Tile("Terrain 19 Churches (winter)", terrain="buildings"))
    add("pbeach", Tile("Terrain 1 Beaches (Pacific)", terrain="beach"))
    add("wbridge pbridge", Tile("Terrain 9 Bridges (winter, Pacific)", rect="bridge"))
    add("station", Tile("Terrain 39 Railroad station (as Towns & Villages)", terrain="buildings"))
    # --- Terrain Pack tiles the engine plays with an existing terrain's exact effects
    add("lakea lakeb lakec pond", Tile("Terrain 26 Lakes: impassable, line of sight open",
                                      terrain="river"))
    add("riverfl riverfr rivery wriverfl pmouth", Tile(
        "Terrain 8 Rivers & Waterways (forks, river mouth)", terrain="river"))
    add("descarpment", Tile("Terrain 63 Escarpments: impassable, blocks line of sight",
                            terrain="hills", impassable=True))
    # --- approximations: the nearest engine terrain, and what is then not played
    roads = ("road roadcurve roadx roady roadfl roadfr droad droadcurve droadx droady droadfl "
             "droadfr wroad wroadcurve wroadx wroady wroadfl wroadfr")
    add(roads, Tile("Terrain 42 Roads", terrain=None,
                    lost="the road move (one more hex along a road) is not played"))
    add("hillroad hillcurve", Tile("Terrain 42b Roads over hills", terrain="hills",
                                   lost="the road move (one more hex along a road) is not "
                                        "played"))
    add("rail railcurve railfl railfr railx wrail wrailcurve", Tile(
        "Terrain 38 Railroads", terrain=None,
        lost="armour and artillery stopping on the tracks is not played"))
    add("railbridge wrailbridge", Tile(
        "Terrain 37 Railroad bridges", rect="bridge",
        lost="armour and artillery stopping on the bridge is not played"))
    add("marshes wmarshes", Tile(
        "Terrain 28 Marshes", terrain="plain",
        lost="stopping on entering and leaving, no artillery, armour not battling after "
             "entering are not played (open ground)"))
    add("mountain", Tile("Terrain 30 Mountains", terrain="hills",
                         lost="played as hills: armour and artillery may enter"))
    add("highground", Tile("Terrain 25 High ground", terrain="hills",
                           lost="played as hills"))
    add("whillforest", Tile("Terrain 48 Hills with forests", terrain="hills",
                            lost="played as hills (the forest is not played)"))
    add("whillvillage", Tile("Terrain 49 Hills with villages", terrain="hills",
                             lost="played as hills (the village is not played)"))
    add("pjungle", Tile("Terrain 57 Jungles", terrain="woods",
                        lost="played as woods (the jungle's entry rules are not played)"))
    add("palmtrees", Tile("Terrain 32 Palm forests", terrain="woods",
                          lost="played as woods"))
    add("oasis", Tile("Terrain 31 Oasis", terrain="woods",
                      lost="played as woods (ignoring a flag there is not played)"))
    add("wruins", Tile("Terrain 45 City ruins", terrain="buildings",
                       lost="played as a village (no armour/artillery ban, no flag ignored)"))
    add("fortress", Tile("Terrain 24 Fortresses", terrain="buildings",
                         lost="played as a village (armour and artillery may enter)"))
    add("factory wfactory", Tile("Terrain 21 Factory complex", terrain="buildings",
                                 lost="played as a village"))
    add("casemate wbunker dbunker pbunker", Tile(
        "Terrain 22 Field bunkers", rect="bunker",
        lost="played as a bunker of the side of the unit on it"))
    add("wriver wcurved wriverfr", Tile(
        "Terrain 47 Frozen rivers", terrain="plain",
        lost="played as open ground (the winter ice rule is not played)"))
    add("wadi wcurve", Tile("Terrain 44 Wadis & gullies", terrain="plain",
                            lost="played as open ground (its cover and entry rules are not "
                                 "played)"))
    add("dridge", Tile("Terrain 64 Ergs & ridges", terrain="plain",
                       lost="played as open ground (stopping on entry is not played)"))
    add("wtrenches ptrenches", Tile("Terrain 51 Trenches", obstacle="sand",
                                    lost="played as sandbags (no stop, artillery may enter)"))
    return t


TILES: dict[str, Tile] = _tiles()

# nation code in a unit name (infru, tank2brit) -> (side, nation). Sides as the BGA adaptation
# reads them (modules/php/Managers/Units.php $nations).
NATIONS: dict[str, tuple[str, str]] = {
    "ger": (AXIS, "German"), "jp": (AXIS, "Japanese"), "it": (AXIS, "Italian"),
    "us": (ALLIES, "American"), "brit": (ALLIES, "British"), "gb": (ALLIES, "Commonwealth"),
    "ru": (ALLIES, "Soviet"), "fr": (ALLIES, "French"), "ch": (ALLIES, "Chinese"),
}
# a nation's own rules: left out and reported, never played, as no public source we can cite
# states their text (docs/memoir44-import.md, "Nations"); the editor options that switch some of
# them on are reported with the rule they name (OPTION_RULES)
NATION_RULES = {
    "Soviet": "the Soviet Commissar rule (Eastern Front)",
    "Japanese": "the Imperial Japanese Army rules (Pacific Theater: Banzai, Seishin)",
    "British": "the British Commonwealth Forces rule",
    "Commonwealth": "the British Commonwealth Forces rule",
    "Italian": "the Italian Royal Army rule (Mediterranean Theater)",
    "French": "the French Army rule (Mediterranean Theater)",
    "Chinese": "the Chinese Nationalist Army rules (Pacific Theater)",
}
# the editor options of the nations' rules (as the BGA adaptation reads them, Scenario.php)
# -> the rule (an id of NATION_RULES or OPTION_ONLY_RULES)
OPTION_RULES = {
    "russian_commissar_rule": "Soviet", "italy_royal_army": "Italian",
    "italy_high_command": "ItalianHighCommand", "british_commonwealth": "British",
    "gung_ho": "Marines",
}
OPTION_ONLY_RULES = {
    "ItalianHighCommand": "the Italian High Command rule (Mediterranean Theater)",
    "Marines": "the US Marine Corps rule (Gung Ho, Pacific Theater)",
}
# badges that change nothing in play (nation and special forces emblems: the unit is the
# figure's own kind); BGA's TROOP_CLASSES lists the others as troop types.
DECORATIVE_BADGES = {"1", "2", "4", "9", "10", "22", "24", "25", "38"}
BADGE_TROOPS = {
    "3": "French Resistance", "5": "Big Gun", "6": "Combat Engineers", "8": "Combat Engineers",
    "12": "Combat Engineers", "28": "Combat Engineers", "31": "Combat Engineers",
    "26": "Snipers", "27": "Snipers", "29": "Cavalry", "30": "Ski Troops", "33": "Flame-thrower "
    "tanks", "35": "Mobile Artillery", "37": "Anti-Tank guns", "41": "Mortars",
    "45": "Machine guns", "46": "Heavy Anti-Tank guns",
}
UNIT_NAME = re.compile(r"^(inf|tank|gun)(2?)([a-z]+)$")
# medal tags: medal0 scores for either side; medal1, medal4, medal6 for the Allies; the others
# (medal2, medal7...) for the Axis (BGA modules/php/Managers/Tokens.php)
ALLIED_MEDALS = {"medal1", "medal4", "medal6"}
MEDAL_TAG = re.compile(r"^medal\d+$")
UPPER_KEYS = ("side_player1", "side_player2", "starting", "front", "type")
NUMBER_KEYS = ("cards_player1", "cards_player2", "victory_player1", "victory_player2")


def troop_key(troop: str) -> str:
    """A badge's troop name as a message id (``Combat Engineers`` -> ``combat_engineers``)."""
    return re.sub(r"[^a-z0-9]+", "_", troop.lower()).strip("_")


@dataclass(frozen=True)
class Line:
    """One line of an import report: a message id of the catalogue ``memoir.import_report``
    (``line.KEY``; a problem: ``memoir.import``'s ``unsupported.KEY``) and its data (names as
    the file writes them, ids of tiles, nations, troops and sides), said in the reader's
    language by ``wargame.memoir.text.report_line`` (issue 32)."""

    key: str
    data: tuple[tuple[str, str | int | bool], ...] = ()

    @property
    def args(self) -> dict[str, str | int | bool]:
        return dict(self.data)


@dataclass
class Report:
    """What an import read, approximated and left out: lines, each with the hexes it concerns
    (each part maps a ``Line`` to them, in file order)."""

    read: dict[Line, list[tuple[int, int]]] = field(default_factory=dict)
    approximated: dict[Line, list[tuple[int, int]]] = field(default_factory=dict)
    left_out: dict[Line, list[tuple[int, int]]] = field(default_factory=dict)
    problems: dict[Line, list[tuple[int, int]]] = field(default_factory=dict)
    problem_fields: dict[Line, str] = field(default_factory=dict)
    objectives: list[dict[str, Any]] = field(default_factory=list)  # from the medal tags
    sudden_death: list[dict[str, Any]] = field(default_factory=list)  # game_info.victory

    def add(self, part: str, key: str, at: tuple[int, int] | None = None,
            **data: str | int | bool) -> None:
        hexes = getattr(self, part).setdefault(Line(key, tuple(sorted(data.items()))), [])
        if at is not None:
            hexes.append(at)

    def refuse(self, key: str, at: tuple[int, int] | None, where: str,
               **data: str | int | bool) -> None:
        self.add("problems", key, at, **data)
        self.problem_fields.setdefault(Line(key, tuple(sorted(data.items()))), where)


def _copy(raw: dict[str, Any]) -> dict[str, Any]:
    """A copy of the parts ``normalize`` changes (a shallow one elsewhere: a hostile file's
    deep nesting is left for the schema to refuse, never walked here)."""
    data = dict(raw)
    if isinstance(data.get("game_info"), dict):
        data["game_info"] = dict(data["game_info"])
    board = data.get("board")
    if isinstance(board, dict):
        board = data["board"] = dict(board)
        if isinstance(board.get("hexagons"), list):
            board["hexagons"] = [
                {k: dict(v) if isinstance(v, dict) else v for k, v in h.items()}
                if isinstance(h, dict) else h for h in board["hexagons"]]
    return data


def _upper(d: dict[str, Any], key: str) -> None:
    if isinstance(d.get(key), str):
        d[key] = d[key].strip().upper()


def _number(d: dict[str, Any], key: str) -> None:
    v = d.get(key)
    if isinstance(v, str) and re.fullmatch(r"\s*-?\d{1,4}\s*", v):
        d[key] = int(v)
    elif isinstance(v, float) and v.is_integer():
        d[key] = int(v)


def label_to_hex(label: str) -> tuple[int, int] | None:
    """An editor hex label (``G5``: column letter, row number from 1 at the top; upper case on
    the long rows, lower case on the short ones) as (row, doubled col)."""
    m = re.fullmatch(r"([A-Za-z])(\d{1,2})", label.strip()) if isinstance(label, str) else None
    if m is None:
        return None
    letter, row = m.group(1), int(m.group(2)) - 1
    index = ord(letter.lower()) - ord("a")
    col = 2 * index + (row % 2)
    return (row, col) if row >= 0 else None


def normalize(raw: dict[str, Any]) -> tuple[dict[str, Any], Report]:
    """A copy of ``raw`` in the base-game form the reader checks, and the import report. Only
    well-formed parts are changed; the schema reports the rest afterwards."""
    data = _copy(raw)
    report = Report()
    info = data.get("game_info")
    if isinstance(info, dict):
        for key in UPPER_KEYS:
            _upper(info, key)
        for key in NUMBER_KEYS:
            _number(info, key)
        options = info.get("options")
        if isinstance(options, dict):
            for key in sorted(k for k, v in options.items() if v):
                _option(report, str(key))
        for key in ("country_player1", "country_player2"):
            _upper(info, key)
    board = data.get("board")
    if not isinstance(board, dict):
        return data, report
    _upper(board, "type")
    _upper(board, "face")
    kind = board.get("type")
    if isinstance(kind, str) and kind not in BOARD_WIDTH:
        report.refuse("board", None, "board.type", name=repr(kind[:40]))
    hexagons = board.get("hexagons")
    nations_seen: dict[str, None] = {}
    medal_groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for i, item in enumerate(hexagons if isinstance(hexagons, list) else []):
        if not isinstance(item, dict):
            continue
        _number(item, "row")
        _number(item, "col")
        row, col = item.get("row"), item.get("col")
        if not (isinstance(row, int) and not isinstance(row, bool)
                and isinstance(col, int) and not isinstance(col, bool)):
            continue
        at = (row, col)
        _tiles_of(item, i, at, report)
        unit = item.get("unit")
        if isinstance(unit, dict) and isinstance(unit.get("name"), str):
            _unit_of(item, unit, i, at, report, nations_seen)
        _tags_of(item, i, at, report, medal_groups)
    for nation in nations_seen:
        if nation in NATION_RULES:  # docs/memoir44-import.md, "Nations"
            report.add("left_out", "nation_rule", nation=nation)
    report.objectives = [
        {"side": side, "hexes": sorted([r, c] for r, c in g["hexes"]),
         "permanent": g["permanent"], "medals": g["medals"]}
        for g in medal_groups.values() for side in g["sides"]]
    _victory(info, report)
    if board.get("groups"):
        report.add("left_out", "groups")
    top_options = data.get("options")
    if isinstance(top_options, dict):
        for key in sorted(k for k, v in top_options.items() if v):
            _option(report, str(key))
    texts = data.get("text")
    blocks = [b for b in texts.values() if isinstance(b, dict)] if isinstance(texts, dict) else []
    if any(isinstance(b.get("rules"), str) and b["rules"].strip() for b in blocks):
        report.add("left_out", "text_rules")
    # a victory text that says more than "6 medals" holds conditions in words
    if any(isinstance(b.get("victory"), str) and not re.fullmatch(
            r"\W*\d+\s*(medals?|médailles?|medaillen?|medaglie|medallas?)?\W*", b["victory"],
            re.I) for b in blocks):
        report.add("left_out", "text_victory")
    conditions = info.get("victory_conditions") if isinstance(info, dict) else None
    if isinstance(conditions, list) and any(
            not (isinstance(c, dict) and set(c) <= {"standard"}) for c in conditions):
        report.add("left_out", "victory_conditions")
    return data, report


def _option(report: Report, key: str) -> None:
    """An editor option set in the file: left out, with the nation's rule it switches on."""
    rule = OPTION_RULES.get(key.strip().lower())
    if rule is not None:
        report.add("left_out", "option_rule", option=key[:40], rule=rule)
    else:
        report.add("left_out", "option", option=key[:40])


def _victory(info: Any, report: Report) -> None:
    """``game_info.victory.condition``: group sudden death (M44 Sudden Death Victory: holding
    ``number`` hexes of the group wins at once) is played; any other condition is left out."""
    victory = info.get("victory") if isinstance(info, dict) else None
    conditions = victory.get("condition") if isinstance(victory, dict) else None
    if victory is None:
        return
    for cond in conditions if isinstance(conditions, list) else [victory]:
        sd = cond.get("group_sudden_death") if isinstance(cond, dict) else None
        side = sd.get("side") if isinstance(sd, dict) else None
        hexes = [label_to_hex(g) for g in sd.get("group") or [] if isinstance(g, str)] \
            if isinstance(sd, dict) and isinstance(sd.get("group"), list) else []
        number = sd.get("number") if isinstance(sd, dict) else None
        number = int(number) if isinstance(number, int | str) and str(number).isdigit() else 0
        cells = [h for h in hexes if h is not None]
        if isinstance(side, str) and side.upper() in (AXIS, ALLIES) and hexes \
                and len(cells) == len(hexes) and 1 <= number <= len(hexes):
            report.sudden_death.append({"side": side.upper(), "hexes": sorted(
                [r, c] for r, c in set(cells)), "required": number})
            report.add("read", "sudden_death", who=side.upper(), number=number,
                       total=len(set(hexes)))
        else:
            report.add("left_out", "victory_condition", condition=str(cond)[:60])


def _tiles_of(item: dict[str, Any], i: int, at: tuple[int, int], report: Report) -> None:
    terrain = rect = obstacle = None
    impassable = False
    if any(item.get(key) is not None and not (isinstance(item[key], dict) and isinstance(
            item[key].get("name"), str)) for key in ("terrain", "rect_terrain", "obstacle")):
        return  # malformed: left as it is for the schema to name
    for key in ("terrain", "rect_terrain", "obstacle"):
        value = item.get(key)
        if not isinstance(value, dict) or not isinstance(name := value.get("name"), str):
            continue
        tile = TILES.get(name.strip().lower())
        if tile is None:
            report.refuse("obstacle" if key == "obstacle" else "terrain", at,
                          f"board.hexagons[{i}].{key}.name", name=repr(name[:40]))
            continue
        if tile.terrain is not None and (terrain is None or key == "terrain"):
            terrain = tile.terrain
        rect = tile.rect or rect
        if tile.rect == "bunker" and value.get("original_owner") in (AXIS, ALLIES):
            item["_bunker_owner"] = value["original_owner"]
        obstacle = tile.obstacle or obstacle
        impassable = impassable or tile.impassable
        behavior = " ".join(str(value[k]) for k in ("behavior", "behavior2", "properties")
                            if value.get(k))
        if behavior:  # a rule attached to the tile (sea wall, fordable stream, cliff...)
            report.add("approximated", "tile_mark", at, name=name[:40], mark=behavior[:60],
                       tile=tile.key)
        if tile.lost:
            report.add("approximated", "tile_lost", at, name=name[:40], tile=tile.key)
        elif name.strip().lower() not in ("plain",):
            report.add("read", "tile", at, name=name[:40], tile=tile.key)
    for key in ("terrain", "rect_terrain", "obstacle"):
        item.pop(key, None)
    if terrain is not None and terrain != "plain":
        item["terrain"] = {"name": terrain}
    if rect is not None:
        item["rect_terrain"] = {"name": rect}
    if obstacle is not None:
        item["obstacle"] = {"name": obstacle}
    if impassable:
        item["_impassable"] = True


def _unit_of(item: dict[str, Any], unit: dict[str, Any], i: int, at: tuple[int, int],
             report: Report, nations_seen: dict[str, None]) -> None:
    _number(unit, "nbr_units")
    name = unit["name"].strip().lower()
    m = UNIT_NAME.match(name)
    if m is None or m.group(3) not in NATIONS:
        report.refuse("unit" if m is None else "nation", at, f"board.hexagons[{i}].unit.name",
                      name=repr(unit["name"][:40]))
        return
    kind, elite, code = m.groups()
    side, nation = NATIONS[code]
    nations_seen.setdefault(nation, None)
    unit["name"] = name
    unit["_side"] = side
    unit["_nation"] = nation
    if nation not in ("German", "American"):
        report.add("read", "nation", at, nation=nation, who=side)
    behavior = unit.get("behavior")
    if behavior == "FRENCH_RESISTANCE" and kind == "inf" and elite:
        unit["_special"] = "resistance"
        report.add("read", "resistance_mark", at)
    elif behavior:
        report.add("approximated", "unit_mark", at, name=name[:40], mark=str(behavior)[:30])
    if unit.get("equipment"):
        report.add("approximated", "equipment", at, name=name[:40],
                   equipment=repr(str(unit["equipment"])[:20]))
    badge = unit.get("badge")
    number = re.sub(r"^badge", "", str(badge)) if badge not in (None, "", 0) else ""
    if number and number not in DECORATIVE_BADGES:
        troop = BADGE_TROOPS.get(number)
        if troop == "French Resistance" and kind == "inf" and elite:
            unit["_special"] = "resistance"
            report.add("read", "resistance_badge", at)
        else:
            report.add("approximated", "badge" if troop else "badge_unknown", at,
                       troop=troop_key(troop or ""), badge=number[:10],
                       kind=f"{kind}2" if elite and kind == "inf" else kind)


def _tags_of(item: dict[str, Any], i: int, at: tuple[int, int], report: Report,
             groups: dict[tuple[Any, ...], dict[str, Any]]) -> None:
    tags = item.get("tags")
    if not isinstance(tags, list):
        return
    for tag in tags:
        name = tag.get("name") if isinstance(tag, dict) else None
        if not isinstance(name, str):
            continue
        low = name.strip().lower()
        if not MEDAL_TAG.match(low):
            behavior = tag.get("behavior")
            if behavior:
                report.add("left_out", "tag_mark", at, name=repr(name[:20]),
                           mark=str(behavior)[:30])
            else:
                report.add("left_out", "tag", at, name=repr(name[:20]))
            continue
        medal = tag.get("medal") if isinstance(tag.get("medal"), dict) else {}
        side = medal.get("side") if isinstance(medal.get("side"), str) else None
        sides = ((side.upper(),) if side and side.upper() in (AXIS, ALLIES)
                 else (AXIS, ALLIES) if low == "medal0"
                 else (ALLIES,) if low in ALLIED_MEDALS else (AXIS,))
        hexes = {at}
        for label in tag.get("group") or [] if isinstance(tag.get("group"), list) else []:
            other = label_to_hex(label) if isinstance(label, str) else None
            if other is not None:
                hexes.add(other)
        need = medal.get("nbr_hex", 1)
        need = int(need) if isinstance(need, int | str) and str(need).isdigit() else 1
        counts = medal.get("counts_for", 1)
        counts = int(counts) if isinstance(counts, int | str) and str(counts).isdigit() else 1
        permanent = medal.get("permanent") in (True, "true", 1)
        key = (sides, tuple(sorted(hexes)), permanent, counts, need,
               bool(medal.get("majority")), bool(medal.get("any_hex")),
               bool(medal.get("last_to_occupy")))
        group = groups.setdefault(key, {"sides": list(sides), "hexes": set(), "permanent":
                                        permanent, "medals": max(counts, 1)})
        group["hexes"].add(at)
        group["hexes"].update(hexes)
        who = sides[0] if len(sides) == 1 else "either"
        report.add("read", "medal_permanent" if permanent else "medal_held", at, tag=low[:20],
                   who=who)
        if need > 1 or medal.get("majority") or medal.get("last_to_occupy"):
            report.add("approximated", "medal_group", at, tag=low[:20], need=need)


def bunker_sides(raw: dict[str, Any]) -> dict[tuple[int, int], str]:
    """The side of each bunker: the side of the unit on it; an empty bunker belongs to the
    player whose half of the board it is in (docs/rules-notes.md, "Imported bunkers")."""
    board = raw["board"]
    info = raw.get("game_info") or {}
    top = info.get("side_player1") if info.get("side_player1") in (AXIS, ALLIES) else AXIS
    bottom = ALLIES if top == AXIS else AXIS
    rows = BOARD_ROWS.get(board.get("type"), 9)
    out = {}
    for item in board["hexagons"]:
        if (item.get("rect_terrain") or {}).get("name") != "bunker":
            continue
        at = (int(item["row"]), int(item["col"]))
        unit = item.get("unit")
        owner = item.get("_bunker_owner")
        if owner in (AXIS, ALLIES):  # the file says whose bunker it is
            out[at] = owner
        elif isinstance(unit, dict) and unit.get("_side"):
            out[at] = unit["_side"]
        else:
            out[at] = top if at[0] < rows // 2 else bottom
    return out
