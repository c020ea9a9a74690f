"""Battle for Normandy §19 (Allied special rules) as optional variants of Campanha da Normandia.

Each variant is a named option, off by default: ``Game("normandy", variants=["bfn-19.1"])``,
``wargame serve --variant bfn-19.1`` (``bfn`` switches on all of them). The save file records
the variants, and replay reproduces the game: every die comes from the state's seeded
``Dice``.

BFN plays days of AM, PM and night turns with battalions; CN plays 3-day turns of regiments
(turn 0 = 6 June, turn n covers 6 June + 3n-2 ... 6 June + 3n). The adaptations (and why)
are in ``docs/notes-incoming/bfn.md``; in short:

* daily BFN rolls are rolled day by day at the start of each CN turn, for the days of the
  turn just played (``days_to_roll``): what happened on a day counts from the first CN turn
  starting after it (``effective_turn``);
* BFN modifiers become CRT column shifts (CN has no DRMs);
* BFN's supply points (CN has none) become the turn's Allied air points.

The engine (``wargame/operational/state.py``) calls the hooks at the end of this module;
the dice procedures above them are pure functions of a ``Dice`` (the analysis module and the
tests use the same functions).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any, ClassVar

from wargame.dice import Dice
from wargame.hexgrid import Hex
from wargame.operational import actions as _actions
from wargame.operational.actions import Action, IllegalAction

if TYPE_CHECKING:  # pragma: no cover
    from wargame.operational.state import Game, State

__all__ = [
    "Variant", "VARIANTS", "ALL_VARIANTS", "normalize_variants", "enabled", "variant_option",
    "turn_first_day", "turn_last_day", "effective_turn", "day_offset", "day_of",
    "withdrawal_check", "roll_withdrawal_day", "mulberry_progress", "storm_damage",
    "simulate_mulberry", "friendly_fire_pinned", "dd_landing", "pegasus_landing",
    "CarpetBombArea", "DD_VALUES", "BEACH_HARBOURS",
]


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
D_DAY = date(1944, 6, 6)


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
WITHDRAWAL_FIRST = date(1944, 6, 30)   # BFN 19.1, 19.2
WITHDRAWAL_LAST = date(1944, 7, 5)


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
MULBERRY_FIRST_DAY = date(1944, 6, 8)   # chosen in the night interphase of 7 June
STORM_TURN = 5                # CN 9.0: the storm of 19-22 June


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


# BFN 19.6.2: a d10 (0-9) at or under the beach's DD value lands the DD tanks. Omaha's 3 is
# BFN's own example; the others are ours (docs/notes-incoming/bfn.md). Juno: no DDs (19.6.3).
DD_VALUES: dict[str, int] = {"Utah": 8, "Omaha": 3, "Gold": 7, "Sword": 7}


def dd_landing(beach: str, dice: Dice) -> tuple[bool, int]:
    die = dice.d10()
    return die <= DD_VALUES[beach], die


PEGASUS_UNIT = "gb-5p-6ab"
PEGASUS_FACES = frozenset({1, 2, 3, 4})


def pegasus_landing(dice: Dice) -> tuple[bool, int]:
    die = dice.d6()
    return die in PEGASUS_FACES, die


# Mulberry sites: Omaha and Gold are CN 9.0's two harbours; the others are the beach hex and
# the sea hex off it (a choice of ours).
BEACH_HARBOURS: dict[str, dict[str, str]] = {
    "Utah": {"name": "Utah", "hex": "1508", "landing": "1409"},
    "Omaha": {"name": "American", "hex": "2009", "landing": "2010"},
    "Gold": {"name": "British", "hex": "2409", "landing": "2410"},
    "Juno": {"name": "Juno", "hex": "2708", "landing": "2709"},
    "Sword": {"name": "Sword", "hex": "3010", "landing": "3011"},
}
BRITISH_SECTOR_FROM_COLUMN = 22   # BFN 19.1: coast from Port-en-Bessin east (Gold, Juno, Sword)
BEACHES = ("Utah", "Omaha", "Gold", "Juno", "Sword")
AIRBORNE = ("us-82", "us-101")
CARPET_FROM_TURN = 14             # BFN 19.3.1: after 15 July (turn 14 = 16-18 July)
CARPET_USES = 2
CARPET_HEXES = 10
CARPET_AIR_COST = 10              # BFN 19.3.2's 10 CSP, as CN air points
INFANTRY_TYPES = frozenset({"infantry", "ranger_commando", "naval_infantry", "bicycle_infantry"})


# ------------------------------------------------------------------------------ the new action
@dataclass(frozen=True)
class CarpetBombArea(Action):
    """BFN 19.3: heavy bombers on ten contiguous hexes, declared before Allied movement."""

    kind: ClassVar[str] = "carpet_bomb_area"
    targets: tuple[str, ...]


_actions.ACTION_TYPES.setdefault(CarpetBombArea.kind, CarpetBombArea)


# ------------------------------------------------------------------------------ engine hooks
def _flags(state: State) -> dict[str, Any]:
    return state.flags.setdefault("bfn", {})


def _emit(state: State, kind: str, rule: str, text: str, **data: Any) -> None:
    from wargame.operational.state import Event

    state.events.append(Event(kind, text, rule, data))


def variant_tables(tables: Any, variants: tuple[str, ...]) -> Any:
    """BFN 19.5: a 'commando' movement class (non-motorized, hills at half cost)."""
    if not any(n.partition(":")[0] == "bfn-19.5" for n in variants):
        return tables
    if "hill" not in tables.terrain or "non_motorized" not in tables.movement_classes:
        return tables
    from dataclasses import replace

    def add(cost: dict, half: bool) -> dict:
        base = cost.get("non_motorized")
        return {**cost, "commando": (None if base is None else (base / 2 if half else base))}

    terrain = {n: replace(t, cost=add(t.cost, n == "hill")) for n, t in tables.terrain.items()}
    hexsides = {n: replace(t, cost=add(t.cost, False)) for n, t in tables.hexsides.items()}
    road = {**tables.road_cost, "commando": tables.road_cost["non_motorized"]}
    return replace(tables, terrain=terrain, hexsides=hexsides, road_cost=road,
                   movement_classes=(*tables.movement_classes, "commando"))


def movement_class(state: State, uid: str, default: str) -> str:
    """BFN 19.5: Rangers and Commandos pay half for hills."""
    if default == "non_motorized" and state.game.units[uid].type == "ranger_commando" \
            and enabled(state.game, "bfn-19.5") and "commando" in state.game.tables.movement_classes:
        return "commando"
    return default


def no_recovery(state: State, uid: str) -> bool:
    """BFN 19.5: Rangers and Commandos never receive replacements: no CN 7.0 recovery."""
    return enabled(state.game, "bfn-19.5") and state.game.units[uid].type == "ranger_commando"


def start_of_turn(state: State) -> None:
    """The daily BFN rolls for the days of the turn just played (19.1, 19.2, 19.4), the
    turn-5 storm (19.4.2) and, on the first turn, the DD landing rolls (19.6.2)."""
    game = state.game
    if not any(enabled(game, v) for v in ("bfn-19.1", "bfn-19.2", "bfn-19.4", "bfn-19.6")):
        return
    f = _flags(state)
    if state.turn == game.scenario.first_turn and enabled(game, "bfn-19.6"):
        _dd_rolls(state, f)
    if enabled(game, "bfn-19.4"):
        _mulberry_cancel(state, f)
    for k in days_to_roll(state.turn):
        if k < f.get("next_day", 0):
            continue
        day = day_of(k)
        if enabled(game, "bfn-19.1") and "battleships" not in f:
            gone, die = withdrawal_check(day, state.dice)
            if die is not None or gone:
                _emit(state, "bfn", "BFN 19.1", f"{day:%d %B}: battleship withdrawal roll "
                      + (f"{die}+{(day - WITHDRAWAL_FIRST).days}" if die is not None else "automatic")
                      + (": the battleships leave" if gone else ": they stay"), day=day.isoformat(), die=die)
            if gone:
                f["battleships"] = day.isoformat()
        if enabled(game, "bfn-19.2"):
            airborne = f.setdefault("airborne", {})
            for div in AIRBORNE:
                if div in airborne:
                    continue
                gone, die = withdrawal_check(day, state.dice)
                if die is not None or gone:
                    _emit(state, "bfn", "BFN 19.2", f"{day:%d %B}: {game.divisions[div].name if div in game.divisions else div} "
                          f"withdrawal roll " + (f"{die}+{(day - WITHDRAWAL_FIRST).days}" if die is not None else "automatic")
                          + (": withdrawn" if gone else ": stays"), day=day.isoformat(), die=die, division=div)
                if gone:
                    airborne[div] = day.isoformat()
        if enabled(game, "bfn-19.4") and day >= MULBERRY_FIRST_DAY:
            for m in mulberry_harbours(state):
                h = f["mulberry"][m["name"]]
                if h["status"] in ("cancelled", "working") or h["progress"] >= MULBERRY_TARGET:
                    continue
                if state.control.get(Hex.from_id(m["landing"])) != "allied":
                    continue
                h["progress"], die = mulberry_progress(h["progress"], state.dice)
                h["status"] = "building" if h["status"] == "planned" else h["status"]
                _emit(state, "mulberry", "BFN 19.4.1", f"Mulberry {m['name']}: {day:%d %B} d6 {die}, "
                      f"progress {h['progress']}/{MULBERRY_TARGET}.", name=m["name"], die=die, progress=h["progress"])
        f["next_day"] = k + 1
    if enabled(game, "bfn-19.4"):
        storm = (game.rule("mulberries") or {}).get("storm_turn", STORM_TURN)
        if state.turn == storm:
            for m in mulberry_harbours(state):
                h = f["mulberry"][m["name"]]
                if h["status"] == "cancelled" or h["progress"] <= 0:
                    continue
                h["progress"], die, damage = storm_damage(h["progress"], state.dice)
                _emit(state, "mulberry", "BFN 19.4.2", f"Mulberry {m['name']}: storm die {die}, "
                      + ("survives." if damage is None else f"damaged by {damage}: progress {h['progress']}/21."),
                      name=m["name"], die=die, damage=damage, progress=h["progress"])
                if damage is not None and h["status"] == "working":
                    h["status"] = "repairing"
        statuses = state.flags.setdefault("mulberries", {})
        for m in mulberry_harbours(state):
            h = f["mulberry"][m["name"]]
            if h["status"] != "cancelled" and h["progress"] >= MULBERRY_TARGET and h["status"] != "working":
                h["status"] = "working"
                _emit(state, "mulberry", "BFN 19.4.1", f"Mulberry {m['name']}: working at {m['hex']}.",
                      name=m["name"], status="operating")
            statuses[m["name"]] = "operating" if h["status"] == "working" else h["status"]


def _mulberry_cancel(state: State, f: dict) -> None:
    """CN 9.0 kept, read as the campaign reads it (docs/rules-notes.md): a harbour is lost when
    German units are back on its landing hex after turn 0, once the Allies had taken it;
    Germans who never left only delay it (no progress while the hex is not Allied)."""
    mul = f.setdefault("mulberry", {})
    for m in mulberry_harbours(state):
        h = mul.setdefault(m["name"], {"progress": 0, "status": "planned"})
        landing = Hex.from_id(m["landing"])
        if state.control.get(landing) == "allied":
            h["taken"] = True
        if h["status"] == "cancelled" or state.turn <= state.game.scenario.first_turn:
            continue
        if not (h.get("taken") or h.get("progress", 0) > 0):
            continue
        if any(state.side_of(u) == "axis" for u in state.units_at(landing)):
            h["status"] = "cancelled"
            _emit(state, "mulberry", "CN 9.0", f"Mulberry {m['name']}: can no longer be built.",
                  name=m["name"], status="cancelled")


def replaces_cn_mulberries(game: Game) -> bool:
    return enabled(game, "bfn-19.4")


def mulberry_beaches(game: Game) -> tuple[str, str]:
    option = variant_option(game, "bfn-19.4")
    if option:
        a, b = option.split("+")
        return a, b
    return "Omaha", "Gold"   # BFN 19.4.1: historically


def mulberry_harbours(state_or_game: Any, cn_rule: dict | None = None) -> list[dict]:
    """The Mulberries in play: the two chosen beaches under BFN 19.4, else CN 9.0's list."""
    game = getattr(state_or_game, "game", state_or_game)
    if enabled(game, "bfn-19.4"):
        return [BEACH_HARBOURS[b] for b in mulberry_beaches(game)]
    return list((cn_rule or game.rule("mulberries") or {}).get("harbours", []))


def _dd_rolls(state: State, f: dict) -> None:
    """BFN 19.6.2: one DD landing roll per beach with turn-0 landings and a DD value."""
    if "dd" in f:
        return
    dd = f.setdefault("dd", {})
    beach_hexes = {b: set(state.game.board.places.get(b, ())) for b in DD_VALUES}
    for beach in DD_VALUES:
        landing = any(state.side_of(u) == "allied" and h in beach_hexes[beach] for u, h in state.game.scenario.setup)
        if not landing:
            continue
        ok, die = dd_landing(beach, state.dice)
        dd[beach] = ok
        _emit(state, "bfn", "BFN 19.6.2", f"DD tanks at {beach}: d10 {die} against {DD_VALUES[beach]}: "
              + ("ashore" if ok else "swamped"), beach=beach, die=die, ok=ok)


def naval_rule(state: State, rule: dict) -> dict:
    """BFN 19.1: once the battleships leave, CN 10.0's column only off the British sector."""
    if not enabled(state.game, "bfn-19.1"):
        return rule
    gone = _flags(state).get("battleships")
    if gone is None or state.turn < effective_turn(date.fromisoformat(gone)):
        return rule
    coast = state.game.board.places.get(rule.get("invasion_coast", ""), ())
    american = [h.id for h in coast if int(h.id[:2]) < BRITISH_SECTOR_FROM_COLUMN]
    return {**rule, "places": [], "landing_turns": [], "excluded": [*rule.get("excluded", []), *american]}


def withdrawal_rules(state: State, rules: list[dict]) -> list[dict]:
    """BFN 19.2: the airborne divisions' turn comes from their rolled day, not CN's turn 13."""
    if not enabled(state.game, "bfn-19.2"):
        return rules
    airborne = _flags(state).get("airborne", {})
    out = []
    for w in rules:
        divs = [d for d in w.get("divisions", []) if d in AIRBORNE]
        if not divs:
            out.append(w)
            continue
        rest = [d for d in w.get("divisions", []) if d not in AIRBORNE]
        if rest or w.get("units"):
            out.append({**w, "divisions": rest})
        for d in divs:
            turn = effective_turn(date.fromisoformat(airborne[d])) if d in airborne else 10 ** 6
            out.append({"turn": turn, "divisions": [d], "rule": "BFN 19.2"})
    return out


def drop_override(state: State, uid: str, h: Hex) -> bool:
    """BFN 19.8: the Pegasus Bridge coup de main; True when it decided the drop."""
    if uid != PEGASUS_UNIT or not enabled(state.game, "bfn-19.8"):
        return False
    ok, die = pegasus_landing(state.dice)
    _emit(state, "bfn", "BFN 19.8", f"Pegasus Bridge coup de main: d6 {die}: "
          + ("the Orne bridges are taken; the brigade lands intact" if ok else "gliders off target"),
          die=die, ok=ok)
    if ok:
        _emit(state, "drop", "BFN 19.8", f"{state.game.units[uid].name} drops on {h.id}: intact (Pegasus).",
              unit=state.game.units[uid].name, hex=h.id, die=die, outcome="intact")
    return ok


def _beach_of(state: State, uid: str) -> str | None:
    us = state.units[uid]
    if us.hex is None:
        return None
    for b in BEACHES:
        if us.hex in state.game.board.places.get(b, ()):
            return b
    return None


def combat_shifts(state: State, attackers: tuple[str, ...], defenders: list[str]) -> list:
    """Column shifts of BFN 19.5, 19.6 and 19.7 for an attack (CN has no DRMs)."""
    from wargame.operational.combat import Shift

    game = state.game
    out: list = []
    if not attackers or not defenders or state.units[defenders[0]].hex is None:
        return out
    side = state.side_of(attackers[0])
    if side != "allied":
        return out
    target = state.units[defenders[0]].hex
    fortified = game.board.hexes[target].fortification or (
        bool(game.rule("coastal_fortification")) and target in game.board.coast)
    if enabled(game, "bfn-19.5") and fortified and any(game.units[u].type == "ranger_commando" for u in attackers):
        shifts_reason = "Rangers/Commandos against fortifications"
        out.append(Shift(shifts_reason, +1, "BFN 19.5"))
    if state.turn != game.scenario.first_turn:
        return out
    from_beach = [u for u in attackers if state.units[u].status == "at_sea" or _beach_of(state, u)]
    if enabled(game, "bfn-19.6") and from_beach:
        if fortified and any(game.units[u].nation in ("british", "canadian") for u in from_beach):
            out.append(Shift("Hobart's funnies (AVRE) on the beaches", +1, "BFN 19.6.1"))
        dd = _flags(state).get("dd", {})
        beaches = {b for u in from_beach if (b := _beach_of(state, u))}
        if any(dd.get(b) for b in beaches):
            out.append(Shift("DD tanks ashore", +1, "BFN 19.6.2"))
    if enabled(game, "bfn-19.7") and from_beach and len(from_beach) == len(attackers) \
            and all(game.units[u].type in INFANTRY_TYPES for u in attackers):
        out.append(Shift("assault engineers with the infantry", +1, "BFN 19.7"))
    return out


# --- BFN 19.3 carpet bombing ----------------------------------------------------------------
def carpet_refusal(state: State, targets: tuple[str, ...]) -> IllegalAction | None:
    from wargame.operational.state import Phase

    r = "BFN 19.3"
    if not enabled(state.game, "bfn-19.3"):
        return IllegalAction("this game does not use BFN carpet bombing", r)
    if state.pending is not None or state.phase is not Phase.ALLIED_MOVEMENT:
        return IllegalAction("carpet bombing is declared at the start of the Allied movement phase", "BFN 19.3.1")
    f = _flags(state)
    used = f.get("carpet_turns", [])
    if state.turn < CARPET_FROM_TURN:
        return IllegalAction(f"carpet bombing only after 15 July (turn {CARPET_FROM_TURN})", "BFN 19.3.1")
    if len(used) >= CARPET_USES or state.turn in used:
        return IllegalAction(f"at most {CARPET_USES} carpet bombings a game, one a turn", "BFN 19.3.1")
    if any(us.moved for u, us in state.units.items() if state.side_of(u) == "allied"):
        return IllegalAction("the targets are chosen before any Allied unit moves", "BFN 19.3.3")
    if state.air_points.get("allied", 0) < CARPET_AIR_COST:
        return IllegalAction(f"a carpet bombing costs {CARPET_AIR_COST} Allied air points", "BFN 19.3.2")
    try:
        hexes = [Hex.from_id(t) for t in targets]
    except (ValueError, TypeError):
        return IllegalAction(f"{targets!r} are not hex ids", r)
    if len(hexes) != CARPET_HEXES or len(set(hexes)) != CARPET_HEXES:
        return IllegalAction(f"choose {CARPET_HEXES} different target hexes", "BFN 19.3.3")
    board = state.game.board
    if not all(h in board.hexes and board.is_land(h) for h in hexes):
        return IllegalAction("every target must be a land hex of the map", "BFN 19.3.3")
    if not _connected(board, set(hexes)):
        return IllegalAction("the target hexes must be contiguous", "BFN 19.3.3")
    return None


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


def carpet_area_around(state: State, center: Hex) -> tuple[str, ...]:
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


def extra_actions(state: State) -> list[Action]:
    """Legal BFN actions to list: one canonical carpet area around each German-held hex."""
    if not enabled(state.game, "bfn-19.3") or state.turn < CARPET_FROM_TURN:
        return []
    out = []
    for h in sorted(state.occupied_by("axis")):
        a = CarpetBombArea(carpet_area_around(state, h))
        if len(a.targets) == CARPET_HEXES and carpet_refusal(state, a.targets) is None:
            out.append(a)
    return out


def action_handler(state: State, action: Action):
    if isinstance(action, CarpetBombArea):
        return lambda a: _do_carpet_area(state, a)
    return None


def _do_carpet_area(state: State, a: CarpetBombArea) -> None:
    refusal = carpet_refusal(state, a.targets)
    if refusal:
        raise refusal
    f = _flags(state)
    f.setdefault("carpet_turns", []).append(state.turn)
    state.air_points["allied"] -= CARPET_AIR_COST
    targets = {Hex.from_id(t) for t in a.targets}
    pinned = []
    for uid in sorted(state.units):
        us = state.units[uid]
        if us.status != "on_map" or state.side_of(uid) != "allied":
            continue
        if us.hex in targets or any(n in targets for n in state.game.board.neighbours(us.hex)):
            hit, die = friendly_fire_pinned(state.dice)
            if hit:
                pinned.append(uid)
            _emit(state, "bfn", "BFN 19.3.3", f"{state.game.units[uid].name} next to the carpet: d10 {die}"
                  + (": does not move (friendly fire)" if hit else ""), unit=uid, die=die, pinned=hit)
    f["carpet"] = {"targets": sorted(a.targets), "pinned": pinned}
    _emit(state, "bfn", "BFN 19.3", f"Carpet bombing declared on {', '.join(sorted(a.targets))} "
          f"({CARPET_AIR_COST} air points).", targets=sorted(a.targets))


def move_refusal(state: State, uid: str) -> IllegalAction | None:
    carpet = state.flags.get("bfn", {}).get("carpet")
    if carpet and uid in carpet["pinned"]:
        return IllegalAction("pinned by friendly fire: the unit does not move", "BFN 19.3.3")
    return None


def end_of_movement(state: State, side: str) -> None:
    """BFN 19.3.3: at the end of Allied movement the bombs fall on the targets and on Allied
    units next to them, each through CN 6.3's carpet bombing table."""
    f = state.flags.get("bfn", {})
    carpet = f.get("carpet")
    if side != "allied" or not carpet:
        return
    f.pop("carpet")
    targets = {Hex.from_id(t) for t in carpet["targets"]}
    board = state.game.board
    for h in sorted(targets):
        victims = state.units_at(h)
        if victims:
            _carpet_roll(state, h, victims)
    near = sorted(u for u, us in state.units.items() if us.status == "on_map" and state.side_of(u) == "allied"
                  and us.hex not in targets and any(n in targets for n in board.neighbours(us.hex)))
    for uid in near:
        if state.units[uid].status == "on_map":
            _carpet_roll(state, state.units[uid].hex, [uid], friendly=True)


def _carpet_roll(state: State, h: Hex, victims: list[str], friendly: bool = False) -> None:
    d1, d2 = state.dice.two_d6()
    result = state.game.tables.carpet_result(d1 + d2)
    rule = "BFN 19.3.3" if friendly else "CN 6.3"
    what = f" (friendly fire on {state.game.units[victims[0]].name})" if friendly else ""
    _emit(state, "carpet", rule, f"Carpet bombing on {h.id}{what}: dice {d1 + d2} -> {result}.",
          hex=h.id, total=d1 + d2, result=result, friendly=friendly)
    if result == "DB":
        state._take_loss(state._weakest(victims), rule)
    elif result == "DE":
        state._eliminate(state._weakest(victims), " (carpet bombing)", rule)
    elif result == "DA":
        for uid in victims:
            state._eliminate(uid, " (carpet bombing)", rule)
