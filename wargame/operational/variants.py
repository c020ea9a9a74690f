"""Battle for Normandy §19 (Allied special rules) as optional variants of Campanha da Normandia.

Each variant is a named option, off by default: ``Game("normandy", variants=["bfn-19.1"])``,
``wargame serve --variant bfn-19.1`` (``bfn`` switches on all of them). The save file records
the variants, and replay reproduces the game: every die comes from the state's seeded
``Dice``.

BFN plays days of AM, PM and night turns with battalions; CN plays 3-day turns of regiments
(turn 0 = 6 June, turn n covers 6 June + 3n-2 ... 6 June + 3n). The adaptations (and why)
are in ``docs/bfn-variants.md``; in short:

* daily BFN rolls are rolled day by day at the start of each CN turn, for the days of the
  turn just played (``days_to_roll``): what happened on a day counts from the first CN turn
  starting after it (``effective_turn``);
* BFN modifiers become CRT column shifts (CN has no DRMs);
* BFN's supply points (CN has none) become the turn's Allied air points.

The engine calls the hooks of ``bfn_rules.py`` (the rules as they act on a game); this module
holds the registry of variants, the calendar and the dice procedures, pure functions of a
``Dice`` that the engine, the analysis module and the tests share.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from wargame.dice import Dice
from wargame.hexgrid import Hex
from wargame.operational import actions as _actions
from wargame.operational.actions import Action
from wargame.paths import scenario_dir
from wargame.scenario_errors import ScenarioError, load_yaml

if TYPE_CHECKING:  # pragma: no cover
    from wargame.operational.state import Game
    from wargame.operational.state_protocol import CampaignSelf

__all__ = [
    "check_variants_apply",
    "Variant", "VARIANTS", "ALL_VARIANTS", "normalize_variants", "enabled", "variant_option",
    "turn_first_day", "turn_last_day", "effective_turn", "day_offset", "day_of",
    "withdrawal_check", "roll_withdrawal_day", "mulberry_progress", "storm_damage",
    "simulate_mulberry", "friendly_fire_pinned", "dd_landing", "pegasus_landing",
    "CarpetBombArea", "DD_VALUES", "BEACH_HARBOURS", "VariantData", "load_variant_data",
]


# ------------------------------------------------------------------------------ Normandy data
VARIANT_DATA_FILE = "variants.yaml"


@dataclass(frozen=True)
class VariantData:
    """The Normandy data of the BFN 19 variants (``scenarios/normandy/variants.yaml``)."""

    d_day: date
    withdrawal_first_day: date
    withdrawal_last_day: date
    mulberry_first_day: date
    storm_turn: int
    beaches: tuple[str, ...]
    mulberry_sites: dict[str, dict[str, str]]
    mulberry_default_beaches: tuple[str, str]
    british_sector_from_column: int
    airborne_divisions: tuple[str, ...]
    pegasus_unit: str
    dd_values: dict[str, int]
    avre_nations: frozenset[str]
    commando_type: str
    infantry_types: frozenset[str]


def load_variant_data(folder: Path | None = None) -> VariantData:
    """Read and check ``variants.yaml`` of the Normandy scenario (or of ``folder``); a missing
    or malformed field raises ``ScenarioError`` naming the file and the field."""
    path = (folder if folder is not None else scenario_dir("normandy")) / VARIANT_DATA_FILE
    data = load_yaml(path)
    if not isinstance(data, dict):
        raise ScenarioError.keyed(path, "(top level)", "variants.mapping", data)

    def need(name: str, kind: type | tuple[type, ...], key: str) -> Any:
        """The field ``name`` of type ``kind``; else the error expecting the loader
        catalogue's ``key`` (wargame/error_texts.py)."""
        value = data.get(name)
        if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
            raise ScenarioError.keyed(path, name, key, value)
        return value

    def names(name: str) -> tuple[str, ...]:
        value = need(name, list, "variants.names")
        if not value or not all(isinstance(v, str) and v for v in value):
            raise ScenarioError.keyed(path, name, "variants.names", value)
        return tuple(value)

    beaches = names("beaches")
    sites = need("mulberry_sites", dict, "variants.sites")
    for beach, site in sites.items():
        if beach not in beaches:
            raise ScenarioError.keyed(path, f"mulberry_sites.{beach}", "variants.beach_of", beach,
                                      beaches=list(beaches))
        for key in ("name", "hex", "landing"):
            if not isinstance(site, dict) or not isinstance(site.get(key), str):
                raise ScenarioError.keyed(path, f"mulberry_sites.{beach}.{key}", "variants.string_hex",
                                          site.get(key) if isinstance(site, dict) else site)
    default = names("mulberry_default_beaches")
    if len(default) != 2 or not all(b in sites for b in default):
        raise ScenarioError.keyed(path, "mulberry_default_beaches", "variants.default_beaches",
                                  list(default))
    dd = need("dd_values", dict, "variants.dd_values")
    for beach, value in dd.items():
        if beach not in beaches or not isinstance(value, int):
            raise ScenarioError.keyed(path, f"dd_values.{beach}", "variants.dd_value", value)
    return VariantData(
        d_day=need("d_day", date, "variants.date"),
        withdrawal_first_day=need("withdrawal_first_day", date, "variants.date"),
        withdrawal_last_day=need("withdrawal_last_day", date, "variants.date"),
        mulberry_first_day=need("mulberry_first_day", date, "variants.date"),
        storm_turn=need("storm_turn", int, "variants.turn"),
        beaches=beaches,
        mulberry_sites={b: dict(site) for b, site in sites.items()},
        mulberry_default_beaches=(default[0], default[1]),
        british_sector_from_column=need("british_sector_from_column", int, "variants.column"),
        airborne_divisions=names("airborne_divisions"),
        pegasus_unit=need("pegasus_unit", str, "units.unit_id"),
        dd_values=dict(dd),
        avre_nations=frozenset(names("avre_nations")),
        commando_type=need("commando_type", str, "units.unit_type"),
        infantry_types=frozenset(names("infantry_types")),
    )


DATA = load_variant_data()


@dataclass(frozen=True)
class Variant:
    id: str
    title: str
    description: str
    rule: str
    alias: str
    adaptation: str


VARIANTS: dict[str, Variant] = {v.id: v for v in (
    Variant("bfn-19.1", "Battleship withdrawal",
            "Naval support thins out on a random day 30 June - 5 July; the British ships stay.",
            "BFN 19.1", "bfn_battleship_withdrawal",
            "d6 each day from 30 June, withdrawn on 6+ (+1 per day after 30 June, automatic on "
            "5 July). From the first CN turn after that day, CN 10.0's column applies only in "
            "the British sector (coast from column 22 east: Warspite, Ramillies, Rodney, "
            "Roberts, Erebus stay); none at Cherbourg or off Utah and Omaha."),
    Variant("bfn-19.2", "Airborne withdrawal",
            "The 82nd and 101st Airborne leave on a random day 30 June - 5 July (not turn 13).",
            "BFN 19.2", "bfn_airborne_withdrawal",
            "The 19.1 procedure rolled per division; the division leaves at the start of the "
            "first CN turn after its day (turn 9, 10 or 11) instead of CN 4.2.2's turn 13, "
            "encircled units as soon as freed."),
    Variant("bfn-19.3", "Carpet bombing (BFN)",
            "Ten contiguous target hexes after 15 July, twice a game, with friendly fire.",
            "BFN 19.3", "bfn_carpet_bombing",
            "Replaces CN 6.3: declared before any Allied move from turn 14 (16-18 July), at most "
            "twice, once a turn; costs 10 of the turn's Allied air points (BFN's 10 supply "
            "points). Allied units next to a target roll a d10 (0-9): on 0 or 9 they cannot "
            "move. At the end of Allied movement every target hex with units and every Allied "
            "unit next to a target rolls on CN's carpet bombing table."),
    Variant("bfn-19.4", "Mulberry construction",
            "Mulberries built by dice to 21 on two chosen beaches; 3d6 storm damage.",
            "BFN 19.4", "bfn_mulberry_construction",
            "Replaces CN 9.0's turn-4 install and turn-5 storm. One d6 per harbour per day from "
            "8 June while its landing hex is Allied; working from the first turn after it "
            "reaches 21. Storm (turn 5, 19 June): d6, odd = damaged (CN 9.0's odds), then 3d6 "
            "off the progress (21 - 3d6 if built) and repairs by the same dice. Working "
            "Mulberries give CN 9.0's benefits (free landing, no turn-9 penalty). Beaches: "
            "Omaha and Gold, or 'bfn-19.4:Utah+Sword'."),
    Variant("bfn-19.5", "Commandos and Rangers",
            "Rangers and Commandos: +1 column against fortifications, half cost on hills, "
            "no recovery.",
            "BFN 19.5", "bfn_commandos",
            "BFN's +1 DRM against strongpoints is one column right when a Ranger/Commando unit "
            "attacks a fortified or German coastal hex; hills (CN 'cota', the slopes) cost half; "
            "no replacements means they never recover losses (CN 7.0)."),
    Variant("bfn-19.6", "Hobart's funnies and DD tanks",
            "Turn 0: AVREs help British/Canadian beach attacks; DD tanks roll per beach.",
            "BFN 19.6", "bfn_hobart",
            "Turn 0 only: British and Canadian attacks on coastal hexes from the sea or from a "
            "beach get one column (AVRE +1 against strongpoints). Each beach rolls a d10 (0-9) "
            "for its DD tanks: at or under the beach's value (Utah 8, Omaha 3, Gold 7, Sword 7; "
            "Juno none, BFN 19.6.3) the landing attacks from that beach get one more column."),
    Variant("bfn-19.7", "Assault engineers",
            "Turn 0: infantry-only attacks from the sea or a beach get one column.",
            "BFN 19.7", "bfn_assault_engineers",
            "BFN's +1 to the hit number of infantry stacks attacking from a beach during the "
            "invasion becomes one column for attacks on turn 0 made only by infantry-class "
            "units (infantry, Rangers/Commandos) landing from the sea or standing on a beach."),
    Variant("bfn-19.8", "Pegasus Bridge",
            "The 5th Parachute Brigade drops at the Orne bridges with a pathfinder roll.",
            "BFN 19.8", "bfn_pegasus",
            "A d6 for the coup de main before CN 4.2.3's die: 1-4 (the gliders on target) the "
            "5th Parachute Brigade lands intact at 3111 holding the bridges; 5-6 the brigade "
            "rolls CN 4.2.3's die as usual."),
)}
ALL_VARIANTS = "bfn"
_ALIASES = {v.alias: v.id for v in VARIANTS.values()}

# ------------------------------------------------------------------------------ names
def normalize_variants(names: tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """Canonical variant names in rule order. ``bfn`` means all; aliases are accepted;
    ``bfn-19.4:BEACH+BEACH`` chooses the Mulberry beaches. Unknown names raise ValueError."""
    chosen: dict[str, str] = {}
    for raw in names or ():
        name = str(raw).strip()
        if not name:
            continue
        if name == ALL_VARIANTS:
            for vid in VARIANTS:
                chosen.setdefault(vid, vid)
            continue
        base, _, param = name.partition(":")
        base = _ALIASES.get(base, base)
        if base not in VARIANTS:
            known = ", ".join([ALL_VARIANTS, *VARIANTS])
            raise ValueError(f"unknown variant {raw!r}; known: {known}")
        if param:
            if base != "bfn-19.4":
                raise ValueError(f"variant {base} takes no option ({raw!r})")
            beaches = [b.strip().capitalize() for b in param.split("+")]
            if len(beaches) != 2 or len(set(beaches)) != 2 or not all(b in BEACH_HARBOURS for b in beaches):
                raise ValueError(f"{raw!r}: choose two different beaches of {', '.join(BEACH_HARBOURS)}")
            chosen[base] = f"{base}:{'+'.join(beaches)}"
        else:
            chosen.setdefault(base, base)
    return tuple(chosen[v] for v in VARIANTS if v in chosen)


def variants_apply_to(game_name: str | None) -> bool:
    """BFN 19: the variants adapt Campanha da Normandia's rules and read Normandy's data
    (scenarios/normandy/variants.yaml): they apply to that game's scenarios only."""
    return game_name == "normandy"


def offers_variants(scenario_id: str) -> bool:
    """The scenarios whose new-game controls offer the BFN 19 variants: the Normandy campaign
    itself (the small demo reads Normandy's data but is not the campaign)."""
    return scenario_id == "normandy"


def check_variants_apply(scenario_id: str, game_name: str | None,
                         variants: tuple[str, ...]) -> None:
    """``ValueError`` when ``variants`` are asked of a scenario they do not apply to
    (``variants_apply_to``)."""
    if variants and not variants_apply_to(game_name):
        raise ValueError(f"the Battle for Normandy variants ({', '.join(variants)}) apply to "
                         f"Campanha da Normandia scenarios only; {scenario_id!r} is a "
                         f"{game_name} scenario")


def _names(game: Game) -> tuple[str, ...]:
    names = game.__dict__.get("_bfn_names")
    if names is None:
        scenario_names = (game.scenario.rule("variants") or []) if hasattr(game.scenario, "rule") else []
        names = normalize_variants([*game.variants, *scenario_names])
        game.__dict__["_bfn_names"] = names
    return names


def enabled(game: Game, vid: str) -> bool:
    """Is variant ``vid`` on (from ``game.variants`` or the scenario's ``rules: variants:``)?"""
    return any(n.partition(":")[0] == vid for n in _names(game))


def variant_option(game: Game, vid: str) -> str | None:
    for n in _names(game):
        base, _, param = n.partition(":")
        if base == vid:
            return param or None
    return None


# ------------------------------------------------------------------------------ dates (CN 2.4.1)
D_DAY = DATA.d_day


def turn_first_day(turn: int) -> date:
    """CN 2.4.1: turn 0 is 6 June; turn n (n >= 1) covers 6 June + 3n-2 ... 6 June + 3n."""
    return D_DAY if turn <= 0 else D_DAY + timedelta(days=3 * turn - 2)


def turn_last_day(turn: int) -> date:
    return D_DAY + timedelta(days=3 * max(turn, 0))


def day_offset(day: date) -> int:
    return (day - D_DAY).days


def day_of(offset: int) -> date:
    return D_DAY + timedelta(days=offset)


def effective_turn(day: date) -> int:
    """The first CN turn starting after ``day``: when a BFN night roll on ``day`` takes effect."""
    k = day_offset(day)
    return (k + 2) // 3 + 1


def days_to_roll(turn: int) -> range:
    """Day offsets rolled at the start of ``turn``: the days of the previous turn."""
    if turn <= 0:
        return range(0)
    return range(day_offset(turn_first_day(turn - 1)) if turn > 1 else 0, day_offset(turn_first_day(turn)))


# ------------------------------------------------------------------------------ dice procedures
WITHDRAWAL_FIRST = DATA.withdrawal_first_day   # BFN 19.1, 19.2
WITHDRAWAL_LAST = DATA.withdrawal_last_day


def withdrawal_check(day: date, dice: Dice) -> tuple[bool, int | None]:
    """BFN 19.1/19.2 for one day: a d6 plus the days since 30 June, withdrawn on 6 or more;
    automatic (no die) on 5 July. Returns (withdrawn, die)."""
    i = (day - WITHDRAWAL_FIRST).days
    if i < 0:
        return False, None
    if day >= WITHDRAWAL_LAST:
        return True, None
    die = dice.d6()
    return die + i >= 6, die


def roll_withdrawal_day(dice: Dice) -> date:
    """The whole BFN 19.1 procedure: the day of withdrawal."""
    day = WITHDRAWAL_FIRST
    while True:
        gone, _ = withdrawal_check(day, dice)
        if gone:
            return day
        day += timedelta(days=1)


MULBERRY_TARGET = 21          # BFN 19.4.1
MULBERRY_FIRST_DAY = DATA.mulberry_first_day   # chosen in the night interphase of 7 June
STORM_TURN = DATA.storm_turn                   # CN 9.0: the storm of 19-22 June


def mulberry_progress(progress: int, dice: Dice) -> tuple[int, int]:
    """BFN 19.4.1: one d6 of construction (or repair) progress, capped at 21."""
    die = dice.d6()
    return min(MULBERRY_TARGET, progress + die), die


def storm_damage(progress: int, dice: Dice) -> tuple[int, int, int | None]:
    """BFN 19.4.2 with CN 9.0's odds: a d6, odd = damaged; damage is 3d6 off the progress
    (a finished harbour drops to 21 - 3d6), never below 0. Returns (progress, die, damage)."""
    die = dice.d6()
    if die % 2 == 0:
        return progress, die, None
    damage = sum(dice.roll(3, 6))
    return max(0, progress - damage), die, damage


def simulate_mulberry(dice: Dice, captured_turn: int = 0, last_turn: int = 16,
                      storm_turn: int = STORM_TURN) -> dict[int, bool]:
    """One harbour under the engine's day-by-day procedure: turn -> working at that turn."""
    progress = 0
    working: dict[int, bool] = {}
    for turn in range(0, last_turn + 1):
        for k in days_to_roll(turn):
            if day_of(k) >= MULBERRY_FIRST_DAY and turn - 1 >= captured_turn and progress < MULBERRY_TARGET:
                progress, _ = mulberry_progress(progress, dice)
        if turn == storm_turn and progress > 0:
            progress, _, _ = storm_damage(progress, dice)
        working[turn] = progress >= MULBERRY_TARGET
    return working


FRIENDLY_FIRE_FACES = frozenset({0, 9})   # BFN 19.3.3: a d10 reading 0-9


def friendly_fire_pinned(dice: Dice) -> tuple[bool, int]:
    die = dice.d10()
    return die in FRIENDLY_FIRE_FACES, die


# BFN 19.6.2: a d10 (0-9) at or under the beach's DD value lands the DD tanks (values in
# variants.yaml; Juno: no DDs, 19.6.3).
DD_VALUES: dict[str, int] = DATA.dd_values


def dd_landing(beach: str, dice: Dice) -> tuple[bool, int]:
    die = dice.d10()
    return die <= DD_VALUES[beach], die


PEGASUS_UNIT = DATA.pegasus_unit
PEGASUS_FACES = frozenset({1, 2, 3, 4})


def pegasus_landing(dice: Dice) -> tuple[bool, int]:
    die = dice.d6()
    return die in PEGASUS_FACES, die


# Mulberry sites (BFN 19.4), the British sector (19.1), the beaches and the airborne divisions
# (19.2): Normandy data, in variants.yaml.
BEACH_HARBOURS: dict[str, dict[str, str]] = DATA.mulberry_sites
BRITISH_SECTOR_FROM_COLUMN = DATA.british_sector_from_column
BEACHES = DATA.beaches
AIRBORNE = DATA.airborne_divisions
CARPET_FROM_TURN = 14             # BFN 19.3.1: after 15 July (turn 14 = 16-18 July)
CARPET_USES = 2
CARPET_HEXES = 10
CARPET_AIR_COST = 10              # BFN 19.3.2's 10 CSP, as CN air points
INFANTRY_TYPES = DATA.infantry_types


# ------------------------------------------------------------------------------ the new action
@dataclass(frozen=True)
class CarpetBombArea(Action):
    """BFN 19.3: heavy bombers on ten contiguous hexes, declared before Allied movement."""

    kind: ClassVar[str] = "carpet_bomb_area"
    targets: tuple[str, ...]


_actions.ACTION_TYPES.setdefault(CarpetBombArea.kind, CarpetBombArea)


# ------------------------------------------------------------------------------ harbours and targets
def mulberry_beaches(game: Game) -> tuple[str, str]:
    option = variant_option(game, "bfn-19.4")
    if option:
        a, b = option.split("+")
        return a, b
    return DATA.mulberry_default_beaches   # BFN 19.4.1: historically


def mulberry_harbours(state_or_game: Any, cn_rule: dict | None = None) -> list[dict]:
    """The Mulberries in play: the two chosen beaches under BFN 19.4, else CN 9.0's list."""
    game = getattr(state_or_game, "game", state_or_game)
    if enabled(game, "bfn-19.4"):
        return [BEACH_HARBOURS[b] for b in mulberry_beaches(game)]
    return list((cn_rule or game.rule("mulberries") or {}).get("harbours", []))


def _connected(board: Any, hexes: set[Hex]) -> bool:
    start = next(iter(hexes))
    seen = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in board.neighbours(h):
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == hexes


def carpet_area_around(state: CampaignSelf, center: Hex) -> tuple[str, ...]:
    """A canonical target area: the ten land hexes nearest ``center`` (ties by id)."""
    board = state.game.board
    area = [center]
    seen = {center}
    frontier = [center]
    while len(area) < CARPET_HEXES and frontier:
        nxt = []
        for h in frontier:
            for n in sorted(board.neighbours(h)):
                if n not in seen and board.is_land(n):
                    seen.add(n)
                    nxt.append(n)
        nxt.sort(key=lambda n: (n.distance(center), n.id))
        for n in nxt:
            if len(area) < CARPET_HEXES:
                area.append(n)
        frontier = nxt
    return tuple(h.id for h in area)
