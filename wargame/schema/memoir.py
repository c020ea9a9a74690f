"""Models of the Memoir '44 files: the ``scenarios/memoir44/scenarios.yaml`` index (rulebook
number -> .m44 file, instructions and special rules as data) and the SED ``.m44`` layouts.

Hex coordinates are the .m44 ones: ``[row, col]`` with a doubled column (row + col even).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from .common import Bool, Int, Model, NonNegInt, OpenModel, PosInt, Str, Version1, expect

__all__ = [
    "MemoirIndex",
    "MemoirEntry",
    "MemoirSpecial",
    "M44File",
    "M44Hexagon",
    "M44_TERRAIN",
    "M44_RECT_TERRAIN",
    "M44_OBSTACLES",
    "MemoirScenarioFile",
    "SCENARIO_TERRAIN",
]

MSide = Literal["AXIS", "ALLIES", "axis", "allied"]  # the file words, or the ids (issue #27)
Kind = Literal["inf", "tank", "gun"]
# terrain names the engine knows (curve and church are read as river and buildings)
M44_TERRAIN = (
    "woods",
    "hills",
    "buildings",
    "river",
    "curve",
    "church",
    "hedgerow",
    "plain",
    "beach",
    "ocean",
)
M44_RECT_TERRAIN = ("bunker", "bridge")
M44_OBSTACLES = ("wire", "sand", "hedgehog")


def _hex(v: Any) -> Any:
    if (
        isinstance(v, list | tuple)
        and len(v) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
    ):
        row, col = v
        # rows 0-8; 0-16 on the Breakthrough board (its files are checked against their size)
        if not 0 <= row <= 16 or col < 0 or (row + col) % 2:
            raise expect("m44.hex", list(v))
    return v


M44Hex = Annotated[
    list[Annotated[Int, Field(ge=0)]],
    Field(min_length=2, max_length=2, description="an .m44 hex [row, col], row + col even"),
]


def _hexes_check(*fields: str):
    def check(cls: Any, v: Any) -> Any:
        items = v if isinstance(v, list) else []
        for i, h in enumerate(items):
            try:
                _hex(h)
            except Exception:
                raise expect(
                    "m44.hex", h, f"[{i}]"
                ) from None
        return v

    return field_validator(*fields)(check)


class Airdrop(Model):
    side: MSide
    figures: PosInt
    center: M44Hex
    range: NonNegInt
    unit: Str

    _one = field_validator("center")(lambda cls, v: _hex(v))


class ReconAsAirPower(Model):
    side: MSide
    hexes: list[M44Hex]

    _hexes = _hexes_check("hexes")


class ObjectiveSpec(Model):
    side: MSide
    hexes: list[M44Hex] | Literal["adjacent_to_river_row_0"]
    permanent: Bool = False
    medals: PosInt = 1

    _hexes = _hexes_check("hexes")


class SuddenDeath(Model):
    side: MSide
    hexes: Annotated[list[M44Hex], Field(min_length=1)]
    required: PosInt

    _hexes = _hexes_check("hexes")


class MemoirSpecial(Model):
    """Special rules of a scenario, by name (the engine knows only these)."""

    bunker_owner: MSide | None = Field(None, description="side that may claim bunkers")
    resistance_side: MSide | None = Field(None, description="its inf2 units are the Resistance")
    draw_schedule: dict[MSide, dict[PosInt, NonNegInt]] = Field(
        {}, description="{side: {own turn number: cards drawn}} instead of 1"
    )
    airdrop: Airdrop | None = None
    cliffs: list[M44Hex] = []
    cliffs_no_armour: Bool = False
    steep_hills: Bool = False
    impassable: list[M44Hex] = []
    impassable_terrain: list[Str] = []
    seawalls: dict[MSide, list[M44Hex]] = {}
    elimination_medals: dict[MSide, dict[Kind, PosInt]] = {}
    no_reshuffle: Bool = False
    deck_exhausted_winner: MSide | None = None
    recon_as_air_power: ReconAsAirPower | None = None
    recon_as_barrage: Bool = False
    artillery_blocked_by: list[Str] = []
    wide_river: list[M44Hex] = []
    bridge_deck: list[M44Hex] = []
    bridge_ends: list[Annotated[list[M44Hex], Field(min_length=2, max_length=2)]] = []
    exit_medals: MSide | None = None
    objectives: Literal["from_tags"] | list[ObjectiveSpec] | None = None
    sudden_death: list[SuddenDeath] = []
    last_unit_loses: Bool = Field(False, description="a side with no unit on the board loses "
                                                     "(imported layouts)")

    _hexes = _hexes_check("cliffs", "impassable", "wide_river", "bridge_deck")

    @field_validator("draw_schedule", mode="before")
    @classmethod
    def _turn_keys(cls, v: Any) -> Any:
        # JSON object keys are text: a turn number "1" is read as 1
        if isinstance(v, dict):
            return {side: {int(k) if isinstance(k, str) and k.isdigit() and len(k) < 4 else k: n
                           for k, n in turns.items()} if isinstance(turns, dict) else turns
                    for side, turns in v.items()}
        return v

    @field_validator("seawalls")
    @classmethod
    def _walls(cls, v: dict[str, list[list[int]]]) -> dict[str, list[list[int]]]:
        for side, hexes in v.items():
            for i, h in enumerate(hexes):
                try:
                    _hex(h)
                except Exception:
                    raise expect(
                        "m44.hex", h, f"{side}[{i}]"
                    ) from None
        return v

    @field_validator("bridge_ends")
    @classmethod
    def _ends(cls, v: list[list[list[int]]]) -> list[list[list[int]]]:
        for i, pair in enumerate(v):
            for j, h in enumerate(pair):
                try:
                    _hex(h)
                except Exception:
                    raise expect(
                        "m44.hex", h, f"[{i}][{j}]"
                    ) from None
        return v

    @field_validator("impassable_terrain", "artillery_blocked_by")
    @classmethod
    def _terrain(cls, v: list[str]) -> list[str]:
        for i, name in enumerate(v):
            if name not in M44_TERRAIN:
                raise expect("m44.terrain", name, f"[{i}]", names=list(M44_TERRAIN))
        return v


class MemoirEntryTexts(Model):
    """An entry's title in another language (wargame/localized.py)."""

    title: Annotated[Str, Field(min_length=1, max_length=120)]


class MemoirEntry(Model):
    file: Annotated[Str, Field(pattern=r"^[A-Za-z0-9_.-]+\.m44$", description="an .m44 file name")]
    title: Str
    pt: MemoirEntryTexts | None = Field(None, description="the title in Portuguese")
    cards: dict[MSide, PosInt]
    starts: MSide
    medals: dict[MSide, PosInt]
    m44_differences: list[Str] = []
    special: MemoirSpecial | None = None

    @field_validator("cards", "medals")
    @classmethod
    def _both(cls, v: dict[str, int]) -> dict[str, int]:
        for side, side_id in (("AXIS", "axis"), ("ALLIES", "allied")):
            if side not in v and side_id not in v:
                raise expect("m44.both_sides", v, side)
        return v


class MemoirIndex(Model):
    """scenarios/memoir44/scenarios.yaml."""

    format_version: Version1
    scenarios: Annotated[dict[Str, MemoirEntry], Field(min_length=1)]

    @field_validator("scenarios", mode="before")
    @classmethod
    def _ids(cls, v: Any) -> Any:
        # rulebook numbers are YAML integers; ids are their text
        if isinstance(v, dict):
            return {
                str(k) if isinstance(k, int) and not isinstance(k, bool) else k: x
                for k, x in v.items()
            }
        return v


# --- .m44 ------------------------------------------------------------------------------------
class Named(OpenModel):
    name: Str


class M44Terrain(OpenModel):
    name: Literal[M44_TERRAIN]  # type: ignore[valid-type]  # a Literal over a tuple of names built at import: pydantic reads it, mypy cannot
    orientation: Int | None = None


class M44Rect(OpenModel):
    name: Literal[M44_RECT_TERRAIN]  # type: ignore[valid-type]  # a Literal over a tuple of names built at import: pydantic reads it, mypy cannot


class M44Obstacle(OpenModel):
    name: Literal[M44_OBSTACLES]  # type: ignore[valid-type]  # a Literal over a tuple of names built at import: pydantic reads it, mypy cannot


class M44Unit(OpenModel):
    name: Annotated[
        Str,
        Field(
            pattern=r"^(inf|tank|gun)2?[a-z]{2,4}$",
            description="kind, 2 for elite/special, then nation: infger, tank2us, infbrit",
        ),
    ]
    nbr_units: Annotated[Int, Field(ge=1, le=4, description="figures: 1 to 4")] | None = None
    badge: Str | None = None


class M44Hexagon(OpenModel):
    row: Annotated[Int, Field(ge=0, le=16, description="0-8; 0-16 on the Breakthrough board")]
    col: NonNegInt
    terrain: M44Terrain | None = None
    rect_terrain: M44Rect | None = None
    obstacle: M44Obstacle | None = None
    unit: M44Unit | None = None
    tags: list[Named] = []

    @model_validator(mode="after")
    def _even(self) -> M44Hexagon:
        if (self.row + self.col) % 2:
            raise expect("m44.row_col_even", self.col, "col")
        return self


# the largest doubled column of each board: 13 hexes a row (standard), 26 (Overlord)
MAX_COL = {"STANDARD": 24, "OVERLORD": 50, "BRKTHRU": 24}
# rows of each board: 9; the Breakthrough board 17 (M44 Breakthrough)
MAX_ROW = {"STANDARD": 8, "OVERLORD": 8, "BRKTHRU": 16}


class M44Board(OpenModel):
    type: Literal["STANDARD", "OVERLORD", "BRKTHRU"]
    face: Literal["COUNTRY", "BEACH", "WINTER", "DESERT"] = "COUNTRY"
    hexagons: list[M44Hexagon]

    @model_validator(mode="after")
    def _on_board_once(self) -> M44Board:
        seen: set[tuple[int, int]] = set()
        last = MAX_COL[self.type]
        for i, h in enumerate(self.hexagons):
            if h.col > last:
                raise expect("m44.board_column", h.col, f"hexagons[{i}].col",
                             board=self.type.lower(), last=last)
            if h.row > MAX_ROW[self.type]:
                raise expect("m44.board_row", h.row, f"hexagons[{i}].row",
                             board=self.type.lower(), last=MAX_ROW[self.type])
            if (h.row, h.col) in seen:
                raise expect("m44.hex_once", [h.row, h.col], f"hexagons[{i}]")
            seen.add((h.row, h.col))
        return self


Cards = Annotated[Int, Field(ge=1, le=10, description="command cards in hand: 1 to 10")]
Medals = Annotated[Int, Field(ge=1, le=20, description="medals to win: 1 to 20")]


class M44GameInfo(OpenModel):
    side_player1: MSide | None = None
    side_player2: MSide | None = None
    starting: Literal["PLAYER1", "PLAYER2"] | None = None
    cards_player1: Cards | None = None
    cards_player2: Cards | None = None
    victory_player1: Medals | None = None
    victory_player2: Medals | None = None

    @model_validator(mode="after")
    def _two_sides(self) -> M44GameInfo:
        if self.side_player1 is not None and self.side_player1 == self.side_player2:
            raise expect("m44.other_side", self.side_player2, "side_player2")
        return self


class M44File(OpenModel):
    """A scenario layout saved by the Scenario Editor (SED): JSON. Only what the engine reads
    is described; other keys are kept as they are."""

    meta_data: dict[str, Any] = {}
    game_info: M44GameInfo
    board: M44Board


# --- the project's own scenario files ---------------------------------------------------------
# terrain names of the engine (the .m44 ``curve`` and ``church`` are written as river, buildings)
SCENARIO_TERRAIN = ("plain", "woods", "hills", "buildings", "river", "hedgerow", "beach", "ocean")
UNIT_SPECIAL = ("special", "resistance", "elite")
FigureCount = Annotated[Int, Field(ge=1, le=4, description="figures: 1 to 4")]


class ScenarioBoard(Model):
    size: Literal["standard", "overlord", "breakthrough"] = Field(
        description="standard: 13 x 9 hexes; overlord: two boards side by side, 26 x 9; "
                    "breakthrough: 13 x 17")
    face: Literal["COUNTRY", "BEACH", "WINTER", "DESERT"] = Field(
        "COUNTRY", description="the printed side of the board (drawing only: terrain is listed)")


class ScenarioHex(Model):
    at: M44Hex
    terrain: Literal[SCENARIO_TERRAIN] = "plain"  # type: ignore[valid-type]  # a Literal over a tuple of names built at import: pydantic reads it, mypy cannot
    bridge: Bool = False
    bunker: Bool = False
    bunker_side: MSide | None = Field(
        None, description="the side that may claim this bunker (imports: the unit on it)")
    obstacle: Literal[M44_OBSTACLES] | None = Field(  # type: ignore[valid-type]  # a Literal over a tuple of names built at import: pydantic reads it, mypy cannot
        None, description="wire and sand (sandbags) can be removed in play; hedgehog stays")

    _one = field_validator("at")(lambda cls, v: _hex(v))


class ScenarioUnit(Model):
    at: M44Hex
    side: MSide
    kind: Kind
    figures: FigureCount
    special: Literal[UNIT_SPECIAL] | None = Field(  # type: ignore[valid-type]  # a Literal over a tuple of names built at import: pydantic reads it, mypy cannot
        None, description="special forces, French Resistance or elite armour (M44 Appendix 1)")
    badge: Str | None = None
    nation: Annotated[Str, Field(max_length=20)] | None = Field(
        None, description="the nation on the counter (British, Soviet...): plays as its side's")

    _one = field_validator("at")(lambda cls, v: _hex(v))


class ImportReportLine(Model):
    """One line of an import report: the message id (``line.KEY`` of the catalogue
    ``memoir.import_report``), its data and the hexes it concerns; said in the reader's
    language (``wargame.memoir.imports.entry_text``)."""

    key: Annotated[Str, Field(pattern=r"^[a-z_]{1,40}$")]
    data: dict[Annotated[Str, Field(max_length=40)], Str | Int | Bool] = {}
    hexes: list[M44Hex] = []


# a line is a keyed line, or (a file imported before the lines had keys) English text
ReportEntry = ImportReportLine | Str


class ImportReport(Model):
    """What ``wargame scenario import`` read, played approximately and left out (issue 32)."""

    read: list[ReportEntry] = []
    approximated: list[ReportEntry] = []
    left_out: list[ReportEntry] = []


class ScenarioObjective(Model):
    side: MSide = Field(description="the side that scores it")
    hexes: Annotated[list[M44Hex], Field(min_length=1)]
    permanent: Bool = Field(False, description="kept once won, even if the unit leaves")
    medals: PosInt = 1

    _hexes = _hexes_check("hexes")


class ScenarioPlace(Model):
    at: M44Hex
    name: Annotated[Str, Field(min_length=1, max_length=80)]

    _one = field_validator("at")(lambda cls, v: _hex(v))


class MemoirScenarioTexts(Model):
    """A scenario file's title and briefing in another language (wargame/localized.py)."""

    title: Annotated[Str, Field(min_length=1, max_length=120)]
    briefing: Str = ""


class MemoirScenarioFile(Model):
    """One Memoir '44 scenario in the project's own format: scenarios/memoir44/<id>.json
    (written by tools/build_memoir_scenarios.py) and the scenarios imported by
    ``wargame scenario import`` into the user scenario folder. Hexes are .m44 [row, col]."""

    format_version: Version1
    id: Annotated[Str, Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$",
                             description="the id after memoir44-: 1 .. 16, overlord, a name")]
    title: Annotated[Str, Field(min_length=1, max_length=120)]
    number: PosInt | None = Field(None, description="the rulebook's scenario number")
    date: Str | None = None
    board: ScenarioBoard
    first_player: MSide
    cards: dict[MSide, Cards]
    medals_to_win: dict[MSide, Medals]
    terrain: list[ScenarioHex] = Field(description="every hex that is not plain open ground")
    units: Annotated[list[ScenarioUnit], Field(min_length=1)] = Field(
        description="units at set-up, in order (a unit's id is its place in this list)")
    objectives: list[ScenarioObjective] = []
    special: MemoirSpecial = MemoirSpecial()
    places: list[ScenarioPlace] = []
    briefing: Str = ""
    pt: MemoirScenarioTexts | None = Field(None, description="title and briefing in Portuguese")
    notes: list[Str] = []
    front: Str | None = Field(None, description="the editor's front: WESTERN, EASTERN...")
    import_report: ImportReport | None = Field(
        None, description="an import's report; approximated or left out non-empty: the "
                          "scenario plays with approximations")
    provenance: Annotated[Str, Field(min_length=1)]

    @field_validator("cards", "medals_to_win")
    @classmethod
    def _both(cls, v: dict[str, int]) -> dict[str, int]:
        for side, side_id in (("AXIS", "axis"), ("ALLIES", "allied")):
            if side not in v and side_id not in v:
                raise expect("m44.both_sides", v, side)
        return v

    @field_validator("special")
    @classmethod
    def _no_objectives(cls, v: MemoirSpecial) -> MemoirSpecial:
        if v.objectives is not None:
            raise expect("m44.objectives", "objectives", "objectives")
        return v

    @model_validator(mode="after")
    def _on_board_once(self) -> MemoirScenarioFile:
        key = {"breakthrough": "BRKTHRU"}.get(self.board.size, self.board.size.upper())
        last, last_row = MAX_COL[key], MAX_ROW[key]
        for name, items in (("terrain", self.terrain), ("units", self.units),
                            ("places", self.places)):
            seen: set[tuple[int, int]] = set()
            for i, item in enumerate(items):
                row, col = item.at
                if row > last_row:
                    raise expect("m44.board_row", row, f"{name}[{i}].at", board=self.board.size,
                                 last=last_row)
                if col > last:
                    raise expect("m44.board_hex", item.at, f"{name}[{i}].at", board=self.board.size,
                                 last=last)
                if name != "places" and (row, col) in seen:
                    raise expect("m44.hex_once", item.at, f"{name}[{i}].at")
                seen.add((row, col))
        for i, o in enumerate(self.objectives):
            for j, (row, col) in enumerate(o.hexes):
                if col > last or row > last_row:
                    raise expect("m44.board_hex", o.hexes[j], f"objectives[{i}].hexes[{j}]",
                                 board=self.board.size, last=last)
        return self
