"""The ``rules:`` section of a campaign scenario.yaml: one model per named rule option.

The engine (wargame/operational) reads these options by name (``game.rule("naval_support")``)
as plain mappings; the models describe and check them, the engine still gets the mapping as
written. Every option is optional: a scenario without it does not play that rule.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, ValidationInfo, field_validator

from .common import Bool, HexId, Int, Model, Nation, NonNegInt, PosInt, Side, Str, ctx, expect

__all__ = ["Rules", "RULE_OPTIONS"]

Faces = list[Annotated[Int, Field(ge=1, le=6)]]
Cite = Annotated[Str, Field(description="the rule cited in events, e.g. 'CN 10.0'")]


def _names(kind: str, key: str):
    """A validator: every name in the field (a name or a list of names) is one of ``kind``;
    ``key``: the expectation's id in the loader catalogue (wargame/error_texts.py)."""

    def check(cls: Any, v: Any, info: ValidationInfo) -> Any:
        known = ctx(info, kind)
        if known is None or v is None:
            return v
        items = v if isinstance(v, list) else [v]
        for i, name in enumerate(items):
            if name not in known:
                raise expect(key, name, f"[{i}]" if isinstance(v, list) else "")
        return v

    return check


def _place_check(*fields: str):
    return field_validator(*fields)(_names("places", "rules.place_name"))


class Exits(Model):
    allied: list[Str] = []
    axis: list[Str] = []

    _edges = field_validator("allied", "axis")(_names("edges", "rules.edge_name"))


class EntryTurnMovement(Model):
    """CN 4.2.1: the turn a side's units enter they move this far, as this class."""

    side: Side
    movement: NonNegInt
    movement_class: Str

    _mc = field_validator("movement_class")(
        _names("movement_classes", "rules.movement_class")
    )


class SetupLandings(Model):
    """CN 11.1.1 / OD 5.3: the side's units set up in enemy hexes attack from the sea."""

    side: Side
    rule: Cite = "CN 11.1.1"


class SetupDrops(Model):
    """CN/OD 4.2.3: paratroops dropped at the start roll a die: listed faces land intact."""

    rule: Cite | None = None
    types: list[Str] = ["paratroop"]
    intact: dict[Nation, Faces]

    _types = field_validator("types")(_names("unit_types", "rules.unit_type"))


class TypesRule(Model):
    """CN 4.2.3: units of these types set up on the map do not move on the first turn."""

    types: list[Str]
    rule: Cite | None = None

    _types = field_validator("types")(_names("unit_types", "rules.unit_type"))


class DropFallback(Model):
    """CN 4.2.3: airborne units whose drop zone is lost land on a beach from this turn."""

    turn: Int
    beaches: dict[Nation, list[Str]]

    @field_validator("beaches")
    @classmethod
    def _beaches(cls, v: dict[str, list[str]], info: ValidationInfo) -> dict[str, list[str]]:
        known = ctx(info, "places")
        for nation, names in v.items():
            for i, name in enumerate(names):
                if known is not None and name not in known:
                    raise expect("rules.place_name", name, f"{nation}[{i}]")
        return v


class FirstTurnLanding(Model):
    """CN 3.0 observation, 11.1.3: one unit lands after the first combat phase."""

    unit: Str
    hex: HexId
    join_division: Str | None = None
    fallback_beaches: list[Str] = []
    rule: Cite | None = None

    _unit = field_validator("unit")(_names("units", "setup.unit_id"))
    _hex = field_validator("hex")(_names("hexes", "map.hex"))
    _div = field_validator("join_division")(_names("divisions", "rules.division"))
    _beaches = _place_check("fallback_beaches")


class CoastalFortification(Model):
    """CN 5.1.2: this side, attacked in a coast hex, shifts the odds this many columns."""

    side: Side
    columns: PosInt


class NoRetreat(Model):
    """CN 5.1.2 / OD 5.3: this side's units in the place ignore retreat results."""

    place: Str
    side: Side
    other_hex_held: Bool = False

    _place = _place_check("place")


class Recovery(Model):
    """CN/OD 7.0: units of these sides recover when disengaged a whole movement phase."""

    sides: list[Side]
    no_turns: list[Int] = []
    rule: Cite | None = None


class NavalSupport(Model):
    """CN 10.0 / OD 9.0: columns in favour of the Allies in the listed cases."""

    rule: Cite | None = None
    columns: PosInt
    landing_turns: list[Int] = []
    places: list[Str] = []
    invasion_coast: Str | None = None
    range: NonNegInt = 3
    excluded: list[HexId] = []
    coast_hexes: Bool = False

    _places = _place_check("places", "invasion_coast")
    _excluded = field_validator("excluded")(_names("hexes", "map.hex"))


class Advance(Model):
    """CN/OD 5.2: advance after combat, a second hex across these terrains."""

    first_terrain: list[Str] = ["open"]
    second_terrain: list[Str] = ["open", "city"]
    no_fortification: Bool = True
    bridges: Bool = False

    _terrain = field_validator("first_terrain", "second_terrain")(
        _names("terrain_or_feature", "rules.terrain_or_feature")
    )


class CarpetBombing(Model):
    """CN 6.3: from this turn, this many times, on non-consecutive turns."""

    from_turn: Int
    uses: PosInt


class Withdrawal(Model):
    """CN/OD 4.2.2: these divisions/units leave the map on this turn (unless encircled)."""

    turn: Int
    divisions: list[Str] = []
    units: list[Str] = []
    rule: Cite | None = None

    _divs = field_validator("divisions")(_names("divisions", "rules.division"))
    _units = field_validator("units")(_names("units", "setup.unit_id"))


class Harbour(Model):
    name: Str
    hex: HexId
    landing: HexId
    nations: list[Str] = []  # CN 9.0: whose units land there (empty: every nation of the side)

    _hexes = field_validator("hex", "landing")(_names("hexes", "map.hex"))


class Mulberries(Model):
    """CN 9.0: the artificial harbours and Cherbourg."""

    install_turn: Int
    delay_turns: NonNegInt
    storm_turn: Int
    penalty_turn: Int
    port: HexId
    harbours: list[Harbour]

    _port = field_validator("port")(_names("hexes", "map.hex"))


class DropUnitsWaitContact(Model):
    """OD 4.2.3: these dropped units move only after contacting other friendly units."""

    units: list[Str]

    _units = field_validator("units")(_names("units", "setup.unit_id"))


class MaquisAreas(Model):
    """OD 10.0: maquis hexes are closed to these sides."""

    closed_to: list[Side] = ["axis"]


class _Score(Model):
    scorer: Side
    points: Int


class CityVictory(Model):
    kind: Literal["city"]
    place: Str
    points: dict[Side, Int]

    _place = _place_check("place")


class DestroyedVictory(_Score):
    kind: Literal["destroyed"]
    side: Side
    forgive_third: Bool = False


class ExitedVictory(_Score):
    kind: Literal["exited", "divisions_exited"]
    side: Side
    edges: list[Str]
    intact: Bool = False

    _edges = field_validator("edges")(_names("edges", "rules.edge_name"))


class SideVictory(_Score):
    kind: Literal["none_left", "on_map"]
    side: Side


class OtherCitiesVictory(_Score):
    kind: Literal["other_cities"]


Victory = Annotated[
    CityVictory | DestroyedVictory | ExitedVictory | SideVictory | OtherCitiesVictory,
    Field(discriminator="kind"),
]


class Rules(Model):
    """Named rule options of the engine (each cited where the engine plays it)."""

    exits: Exits | None = Field(None, description="CN/OD 4.2.2: edges each side may exit by")
    may_return: list[Side] = Field([], description="CN 4.2.2: sides whose exited units return")
    offmap_road_sides: list[Side] = Field([], description="CN 4.2.2: sides using off-map roads")
    entry_turn_movement: EntryTurnMovement | None = None
    setup_landings: SetupLandings | None = None
    setup_drops: SetupDrops | None = None
    no_move_first_turn_types: TypesRule | None = None
    drop_fallback: DropFallback | None = None
    first_turn_landing: FirstTurnLanding | None = None
    one_armour_terrain: list[Str] = Field([], description="CN 5.1.2: one armoured unit attacks")
    coastal_fortification: CoastalFortification | None = None
    no_retreat: list[NoRetreat] = []
    attack_penalty_turns: dict[Side, list[Int]] = Field(
        {}, description="CN 5.1.1: turns on which the side's attacks lose a column"
    )
    recovery: Recovery | None = None
    naval_support: NavalSupport | None = None
    advance: Advance | None = None
    carpet_bombing: CarpetBombing | None = None
    withdrawals: list[Withdrawal] = []
    mulberries: Mulberries | None = None
    drop_units_wait_contact: DropUnitsWaitContact | None = None
    maquis_areas: MaquisAreas | None = None
    initial_control: dict[Str, Side] = Field({}, description="place name -> side holding it")
    default_control: Side = Field("axis", description="side holding objectives nobody occupies")
    control_on_passing: bool = Field(
        True, description="CN/OD 11.2 (our reading): a unit passing through a hex takes it; "
                          "false: only where a move, retreat or advance ends")
    victory: list[Victory] = Field([], description="CN/OD 11.2: victory points")
    variants: list[Str] = Field(
        [], description="BFN 19 variant rules always on (docs/bfn-variants.md)"
    )

    _one_armour = field_validator("one_armour_terrain")(
        _names("terrain", "rules.terrain")
    )

    @field_validator("initial_control")
    @classmethod
    def _control(cls, v: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        known = ctx(info, "places")
        for name in v:
            if known is not None and name not in known:
                raise expect("rules.place_name", name, name)
        return v

    @field_validator("variants")
    @classmethod
    def _variants(cls, v: list[str], info: ValidationInfo) -> list[str]:
        # the engine's variant names (wargame.operational.variants.normalize_variants), given
        # in the context by the loaders: the schema sits below the engines (pyproject's layers)
        normalize = ctx(info, "normalize_variants")
        if normalize is None:
            return v
        try:
            normalize(v)
        except ValueError as exc:
            raise expect("rules.variants", str(exc)) from None
        return v


RULE_OPTIONS = tuple(Rules.model_fields)
