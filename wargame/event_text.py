"""The engines' events, phase names and decision prompts in the viewer's language (issue #16).

An event keeps the English ``text`` it was made with (logs, saves, tests, recorded games); what
a viewer reads is ``event_line(event)``: the event rendered again from its kind and plain data
with the templates of the catalogues below in the current language (``wargame.i18n.language``),
or its stored text when it cannot be rendered (an event of an older version, unknown data).
Rendering in English reproduces the stored text of every event: tests/test_event_text.py
checks it on seeded bot games of every engine, which proves the templates and the data are
complete.

Catalogues (English here, Portuguese in ``wargame/locale/pt/LC_MESSAGES/wargame.po``):
``events.campaign`` the CN/OD engine's events (``wargame.operational``), ``events.bfn`` the
Battle for Normandy variants' events, ``events.memoir`` Memoir '44's, ``events.words`` the
words put into them (edges, sides, why a unit was eliminated, dice faces...), ``phases`` the
campaign phases, ``decisions`` the prompts of the pending decisions of both engines.

Data values are codes or raw data (hex ids, numbers, unit and place names, result codes such
as ``DRB``); the few English fragments older events carry as values (``why`` = " (EMP)",
``outcome`` = "with losses", ``side`` = "Allied") are a fixed set, read here as codes through
``events.words``. Pure: the engines import this module for their English texts; it imports
nothing but ``wargame.i18n``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from wargame.designations import unit_designation
from wargame.i18n import Catalogue, format_day, language, using_language

__all__ = ["CAMPAIGN_EVENTS", "BFN_EVENTS", "MEMOIR_EVENTS", "EVENT_WORDS", "PHASES", "DECISIONS",
           "PHASE_NAMES", "edge_name", "side_name", "face_name", "victory_line", "campaign_text", "bfn_text", "memoir_text", "render_event",
           "event_line", "phase_name", "decision_prompt", "memoir_prompt"]

CAMPAIGN_EVENTS = Catalogue("events.campaign", {
    "game_start": "New game: {title}, seed {seed}.",
    "game_start_public": "New game: {title}.",
    "phase": "Turn {turn} ({date}): {phase_name}.",
    "move": "{unit} moves {frm} -> {to} ({cost} MP).",
    "enter": "{unit} enters the map at {hex}.",
    "exit": "{unit} leaves the map by the {edge} edge.",
    "return": "{unit} may return by the {edge} edge from turn {turn}.",
    "attack": "Attack on {target}: {attack} against {defence} = {ratio}, column {column}{shifts}.",
    "defence": "Defence of {target} declared: +{air} air points, artillery {artillery}.",
    "roll": "Dice {dice} = {total}: {result}.",
    "bombard": "Bombardment of {target}: value {value}, column {column}.",
    "bombard_none": "Bombardment of {target}: value {value}, no effect.",
    "loss": "{unit} takes a loss (flipped).",
    "eliminated": "{unit} is eliminated{why}.",
    "retreat": "{unit} retreats {frm} -> {to}.",
    "retreat_off": "{unit} retreats off the map by the {edge} edge.",
    "stays": "{unit} holds {hex} (no retreat needed).",
    "advance": "{unit} advances to {to}.",
    "recover": "{unit} recovers its losses.",
    "air_points": "{side} air points this turn: {points}.",
    "carpet": "Carpet bombing on {hex}: dice {total} -> {result}.",
    "withdrawn": "{unit} is withdrawn from the map.",
    "drop": "{unit} drops on {hex}: die {die}, {outcome}.",
    "landing": "{unit} lands on {hex}.",
    "landing_failed": "{unit} could not land on {hex} and is destroyed.",
    "mulberry": "Mulberry {name}: {status}.",
    "maquis": "{unit} ends the phase in a maquis area.",
    "game_over": "Game over after turn {turn}. Victory points: Allied {allied}, Axis {axis}. "
                 "{winner}",
    "control": "{side} takes {place}.",
    # the parts put into the sentences above
    "shift": "; {reason} {columns}",
    "mulberry.cancelled": "can no longer be installed",
    "mulberry.installed": "installed at {hex}",
    "mulberry.storm": "storm die {die}: {fate}",
    "mulberry.destroyed": "destroyed",
    "mulberry.survives": "survives",
    "winner.allied": "Allied victory.",
    "winner.axis": "Axis victory.",
    "winner.draw": "A draw.",
})
"""The events of ``wargame.operational`` (``SnapshotRules._emit``): id = the event's kind."""

BFN_EVENTS = Catalogue("events.bfn", {
    "dd": "DD tanks at {beach}: d10 {die} against {value}: {fate}",
    "dd.ashore": "ashore",
    "dd.swamped": "swamped",
    "pinned_roll": "{unit} next to the carpet: d10 {die}{fate}",
    "pinned": ": does not move (friendly fire)",
    "carpet_declared": "Carpet bombing declared on {targets} ({cost} air points).",
    "carpet_friendly": "Carpet bombing on {hex} (friendly fire on {unit}): dice {total} -> "
                       "{result}.",
    "battleships": "{day}: battleship withdrawal roll {roll}{fate}",
    "battleships.leave": ": the battleships leave",
    "battleships.stay": ": they stay",
    "division": "{day}: {division} withdrawal roll {roll}{fate}",
    "division.withdrawn": ": withdrawn",
    "division.stays": ": stays",
    "roll": "{die}+{days}",
    "automatic": "automatic",
    "mulberry_cancelled": "Mulberry {name}: can no longer be built.",
    "mulberry_progress": "Mulberry {name}: {day} d6 {die}, progress {progress}/{target}.",
    "mulberry_storm": "Mulberry {name}: storm die {die}, {fate}",
    "mulberry_survives": "survives.",
    "mulberry_damaged": "damaged by {damage}: progress {progress}/{target}.",
    "mulberry_working": "Mulberry {name}: working at {hex}.",
    "pegasus": "Pegasus Bridge coup de main: d6 {die}: {fate}",
    "pegasus.ok": "the Orne bridges are taken; the brigade lands intact",
    "pegasus.off": "gliders off target",
    "pegasus_drop": "{unit} drops on {hex}: intact (Pegasus).",
})
"""The Battle for Normandy variants' events (``wargame.operational.bfn_rules``): id = the
event's ``msg`` datum."""

EVENT_WORDS = Catalogue("events.words", {
    "edge.north": "north", "edge.south": "south", "edge.east": "east", "edge.west": "west",
    "side.allied": "Allied", "side.axis": "Axis",
    "artillery.none": "none",
    "why.no_retreat": " (no retreat possible)",
    "why.maquis": " (maquis area)",
    "why.no_room": " (no room to land)",
    "why.no_landing": " (could not land)",
    "why.carpet": " (carpet bombing)",
    "why.second_loss": " (second loss)",
    "why.emp": " (EMP)",
    "drop.intact": "intact",
    "drop.losses": "with losses",
    # column shifts (CN/OD 5.1.2-5.1.4, 9.0, 10.0; BFN 19.5-19.7)
    "shift.terrain": "terrain: {name}",
    "shift.coastal": "coastal fortifications",
    "shift.encirclement": "encirclement",
    "shift.division": "divisional integrity: {name}",
    "shift.naval": "naval support",
    "shift.first_turn": "turn {turn}: attacker loses a column",
    "shift.mulberries": "Mulberries lost: Allies lose a column",
    "shift.maquis_defenders": "defenders forced into a maquis area",
    "shift.maquis_attackers": "attackers forced into a maquis area",
    "shift.commandos": "Rangers/Commandos against fortifications",
    "shift.avre": "Hobart's funnies (AVRE) on the beaches",
    "shift.dd": "DD tanks ashore",
    "shift.engineers": "assault engineers with the infantry",
    "terrain.open": "open", "terrain.city": "city", "terrain.rough": "rough",
    "terrain.forest": "forest", "terrain.bocage": "bocage", "terrain.marsh": "marsh",
    "terrain.hill": "hill", "terrain.village": "village", "terrain.fortification": "fortification",
    "terrain.airfield": "airfield", "terrain.river": "river", "terrain.canal": "canal",
    "terrain.woods": "woods", "terrain.mountain": "mountain", "terrain.border": "border",
    # the victory points' lines (CN/OD 11.2, wargame.operational.victory)
    "vp.destroyed": "{side} units destroyed x{n}",
    "vp.exited": "{side} units exited x{n}",
    "vp.divisions_exited": "{side} divisions exited x{n}",
    "vp.other_cities": "other cities x{n}",
    "vp.on_map": "{side} units on the map x{n}",
    "vp.none_left": "no {side} unit left",
    # Memoir '44
    "m44.side.allied": "Allied player", "m44.side.axis": "Axis player",
    # who plays first, in the set-up line (issue #32: "Allies starts")
    "m44.first.allied": "the Allies play first", "m44.first.axis": "the Axis plays first",
    "m44.kind.inf": "inf", "m44.kind.tank": "tank", "m44.kind.gun": "gun",
    "m44.face.infantry": "infantry", "m44.face.armor": "armor", "m44.face.grenade": "grenade",
    "m44.face.flag": "flag", "m44.face.star": "star",
    "m44.flag.sandbags": "sandbags", "m44.flag.bunker": "bunker", "m44.flag.hedgehog": "hedgehog",
    "m44.how.takes": "takes",
    "m44.why.sudden_death": " (sudden death)",
    "m44.why.deck": " (command deck exhausted)",
    "m44.why.no_units": " (no units left)",
    "m44.unit.card": "card",
    "outcome.vp": "{rule} 11.2 victory points",
    "outcome.medals": "M44 p.14 Victory medals",
    "m44.option.left": "left", "m44.option.center": "center", "m44.option.right": "right",
    "m44.option.air_power": "air_power", "m44.option.barrage": "barrage",
    "m44.drop.off_board": "off the board {hex}: lost",
    "m44.drop.occupied": "on an occupied hex {hex}: lost",
    "m44.drop.impassable": "on impassable ground {hex}: lost",
    "m44.drop.safe": "safely at {hex}: unit {unit} of 4 figures",
})
"""Words put into the events' sentences."""

MEMOIR_EVENTS = Catalogue("events.memoir", {
    "setup": "{title}: {axis_cards} Axis and {allies_cards} Allied cards dealt; {first}.",
    "airdrop": "Paradrop figure {n} lands {where}.",
    "airdrop_point": "{side} drops paratroopers over {hex}.",
    "card_played": "{side} plays {card}{note}.",
    "ordered": "{side} orders unit {unit} ({kind} at {hex}).",
    "moved": "Unit {unit} moves {frm} -> {to}.",
    "exited": "Unit {unit} leaves the board from {frm}: a medal for {side}.",
    "flags_ignored": "Unit {unit} ignores a flag ({why}).",
    "retreat": "Unit {unit} retreats {frm} -> {to}.",
    "take_ground": "Unit {unit} takes ground at {to}.",
    "overrun": "Unit {unit} may battle again (armor overrun).",
    "wire_removed": "Wire removed at {hex}.",
    "sandbags_placed": "Sandbags placed at {hex}.",
    "sandbags_removed": "Sandbags removed at {hex}.",
    "ambush": "{side} ambushes with unit {unit}.",
    "attack_cancelled": "Unit {unit}'s attack is cancelled.",
    "finest_hour": "Their Finest Hour: {faces}.",
    "keep": "{side} keeps one card and discards the other.",
    "reshuffle": "The discard pile is shuffled into a new deck.",
    "objective": "{side} {how} an objective medal at {hex}.",
    "turn_end": "End of {side}'s turn {turn}.",
    "deck_exhausted": "The command deck is exhausted.",
}, plurals={
    # counted (wargame.i18n Catalogue.plural): "1 figure", "2 figures"; the count is the datum
    # MEMOIR_COUNTS names
    "orders_done": ("{side} has ordered {count} unit.", "{side} has ordered {count} units."),
    "battle": ("Unit {unit} battles {target} at distance {distance} with {dice} die: {faces}.",
               "Unit {unit} battles {target} at distance {distance} with {dice} dice: {faces}."),
    "hits": ("Unit {unit} loses {hits} figure, {left} left.",
             "Unit {unit} loses {hits} figures, {left} left."),
    "eliminated": ("Unit {unit} is eliminated; {side} gains {medals} medal.",
                   "Unit {unit} is eliminated; {side} gains {medals} medals."),
    "retreat_blocked": (
        "Unit {unit} cannot complete {steps} retreat step and loses figures.",
        "Unit {unit} cannot complete {steps} retreat steps and loses figures."),
    "medics": ("Medics & Mechanics on unit {unit}: {faces}, {restored} figure back.",
               "Medics & Mechanics on unit {unit}: {faces}, {restored} figures back."),
    "draw": ("{side} draws {count} card.", "{side} draws {count} cards."),
    "victory": ("{side} wins with {medals} medal{why}.", "{side} wins with {medals} medals{why}."),
})
"""The events of ``wargame.memoir`` (``Event(kind, data)``): id = the event's kind."""
MEMOIR_COUNTS = {"orders_done": "count", "battle": "dice", "hits": "hits",
                 "eliminated": "medals", "retreat_blocked": "steps", "medics": "restored",
                 "draw": "count", "victory": "medals"}
"""The datum that counts in each counted event of ``MEMOIR_EVENTS``."""

# M44 p.5 Command cards: the titles the hand, the log and the action texts show. The printed
# cards of the Portuguese edition keep their English titles; the glossary's Portuguese names
# (docs/glossary.md) are shown in pt, so a player reads one language on the screen.
CARD_TITLES = Catalogue("m44.cards", {
    "recon": "Recon",
    "probe": "Probe",
    "attack": "Attack",
    "assault": "Assault",
    "general_advance": "General Advance",
    "pincer_move": "Pincer Move",
    "recon_in_force": "Recon in Force",
    "air_power": "Air Power",
    "ambush": "Ambush",
    "armor_assault": "Armor Assault",
    "artillery_bombard": "Artillery Bombard",
    "barrage": "Barrage",
    "behind_enemy_lines": "Behind Enemy Lines",
    "close_assault": "Close Assault",
    "counter_attack": "Counter-Attack",
    "dig_in": "Dig-In",
    "direct_from_hq": "Direct from HQ",
    "firefight": "Firefight",
    "infantry_assault": "Infantry Assault",
    "medics_mechanics": "Medics & Mechanics",
    "move_out": "Move Out!",
    "finest_hour": "Their Finest Hour",
    "section": "{title} ({section})",
    "section.left": "left",
    "section.center": "center",
    "section.right": "right",
})


# The rulebook's result codes (CN/OD 5.1.6, 6.2 tables) in words: one table for the command
# line's odds (wargame.cli.CODES) and the dashboards (wargame.ui.text.RESULT_WORDS), so each
# code has one word in each language (IMP "impasse", EMP "exchange"; docs/glossary.md).
RESULT_CODES = Catalogue("codes", {
    "DE": "defence eliminated (one unit; the rest retreat)",
    "DRB": "defence retreats, one unit takes a loss",
    "DRI": "defence retreats intact",
    "DVB": "defence wins, one unit takes a loss",
    "DVI": "defence wins intact",
    "AVI": "attack wins intact",
    "AVB": "attack wins, one unit takes a loss",
    "ARI": "attack retreats intact",
    "ARB": "attack retreats, one unit takes a loss",
    "AE": "attack retreats, one unit eliminated",
    "EMP": "exchange: defender eliminates units, attacker loses at least as much",
    "IMP": "impasse: nobody moves",
    "DI": "defence intact",
    "DB": "one defending unit takes a loss",
    "DA": "every unit in the hex is eliminated",
})


PHASES = Catalogue("phases", {
    "allied_movement": "Allied movement",
    "allied_combat": "Allied combat",
    "axis_movement": "Axis movement",
    "axis_combat": "Axis combat",
    "game_over": "game over",
})
"""The campaign phases (CN/OD 3.0) by ``Phase`` value."""
PHASE_NAMES: Mapping[str, str] = PHASES.english
"""The phases' English names (the engine's event texts and refusals)."""

DECISIONS = Catalogue("decisions", {
    # CN/OD 5.1.1-5.3 (wargame.operational.combat_steps)
    "defence": "declare the defence of {target}",
    "retreat": "retreat {unit}",
    "loss": "choose which unit takes the loss",
    "loss.eliminated": "choose which unit is eliminated",
    "emp_defender": "EMP: eliminate one or more defending units",
    "emp_attacker": "EMP: eliminate attacking units worth at least {value} attack points",
    "advance": "advance into {target}?",
    # Memoir '44 (wargame.memoir.pending)
    "m44.ambush": "Ambush: answer the close assault first?",
    "m44.retreat": "Choose the hex the unit retreats to",
    "m44.take_ground": "Take the ground the enemy left?",
    "m44.keep": "Recon: keep one of the cards drawn",
    "m44.airdrop": "Airdrop: choose the hex to drop the paratroopers over",
    "m44.ignore_flag": "Ignore the first flag (sandbags, bunker or hedgehog)?",
    # the answers offered (wargame.ui.model.describe_option) and what goes with them
    "opt.and": "{first} and {second}",
    "end.no_landing": "could not land on {place}",
})
"""The prompts of pending decisions: campaign ``Decision.prompt_id`` with ``Decision.args``,
Memoir '44 ``m44.<kind>``."""


# ------------------------------------------------------------------------------ helpers
def _english(cat: Catalogue, key: str, **data: Any) -> str:
    return cat.english[key].format(**data)


def campaign_text(kind: str, **data: Any) -> str:
    """The English text of a campaign event made from its data as the engine gives it (the
    engine's ``_emit``); an unknown kind or missing datum gives ``kind: data``."""
    template = CAMPAIGN_EVENTS.english.get(kind, kind)
    try:
        return template.format(**data)
    except (KeyError, IndexError):
        return f"{kind}: {data}"


def bfn_text(data: Mapping[str, Any]) -> str:
    """The English text of a BFN event (``wargame.operational.bfn_rules``) from its data
    (``msg``: the template)."""
    with using_language("en"):
        return _bfn(data["msg"], data)


def memoir_text(kind: str, data: Mapping[str, Any]) -> str:
    """The English text of a Memoir '44 event (``wargame.memoir.actions.Event.text``)."""
    try:
        return _memoir(kind, data, english=True)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return f"{kind}: {dict(data)}"


def _code_of(value: str, prefix: str) -> str:
    """The ``events.words`` id whose English is ``value`` (the English fragments older events
    carry as data), or KeyError."""
    for key, text in EVENT_WORDS.english.items():
        if key.startswith(prefix) and text == value:
            return key
    raise KeyError(value)


def _word(key: str, default: str | None = None) -> str:
    if key in EVENT_WORDS:
        return EVENT_WORDS[key]
    if default is None:
        raise KeyError(key)
    return default


def _number(value: Any) -> str:
    """A number as the language writes it (1.5 -> "1,5" in Portuguese)."""
    text = str(value)
    return text.replace(".", ",") if language() == "pt" and isinstance(value, float) else text


def _date(iso: str) -> str:
    """A turn's date: the ISO date in English (as the stored texts have it), the long
    Portuguese form in Portuguese."""
    if not iso or language() == "en":
        return iso
    return _long_day(iso, language())


@cache
def _long_day(iso: str, lang: str) -> str:
    return format_day(iso, lang)  # Babel takes about a millisecond a date: once each


def _day_month(iso: str) -> str:
    """"06 June" (the BFN daily rolls' English), "06 de junho" in Portuguese."""
    return _short_day(iso, language())


@cache
def _short_day(iso: str, lang: str) -> str:
    day = dt.date.fromisoformat(iso)
    if lang == "en":
        return f"{day:%d %B}"
    from babel.dates import format_date

    from wargame.i18n import BABEL_LOCALES

    return format_date(day, format="dd 'de' MMMM", locale=BABEL_LOCALES[lang])


_SHIFT_FIXED = {EVENT_WORDS.english[k]: k for k in (
    "shift.coastal", "shift.encirclement", "shift.naval", "shift.mulberries",
    "shift.maquis_defenders", "shift.maquis_attackers", "shift.commandos", "shift.avre",
    "shift.dd", "shift.engineers")}


def _shift_reason(reason: str) -> str:
    if reason in _SHIFT_FIXED:
        return EVENT_WORDS[_SHIFT_FIXED[reason]]
    if reason.startswith("terrain: "):
        name = reason.removeprefix("terrain: ")
        return EVENT_WORDS["shift.terrain"].format(name=_word(f"terrain.{name}", name))
    if reason.startswith("divisional integrity: "):
        return EVENT_WORDS["shift.division"].format(
            name=reason.removeprefix("divisional integrity: "))
    if reason.startswith("turn ") and reason.endswith(": attacker loses a column"):
        turn = reason.removeprefix("turn ").removesuffix(": attacker loses a column")
        return EVENT_WORDS["shift.first_turn"].format(turn=turn)
    raise KeyError(reason)


def shift_reason(reason: str) -> str:
    """A column shift's reason (``Shift.reason``, English) in the current language; the
    English itself for a reason the catalogue does not know."""
    try:
        return _shift_reason(reason)
    except KeyError:
        return reason


_TITLES: dict[str, dict[str, str]] = {}
"""A scenario's English title -> {language: its title there}: the game_start event keeps the
English title (saves, logs); a log read in Portuguese shows the scenario's own Portuguese
title ("Campanha da Normandia: 6 de junho a 24 de julho de 1944"). Filled by
``wargame.scenario.Scenario`` as scenarios are made (``register_title``)."""


def register_title(english: str, translations: Mapping[str, Mapping[str, str]]) -> None:
    """Know ``english``'s titles in other languages (``{"pt": {"title": ...}}``)."""
    texts = {lang: str(t["title"]) for lang, t in (translations or {}).items()
             if isinstance(t, Mapping) and t.get("title")}
    if texts:
        _TITLES[str(english)] = texts


def title_in_language(english: Any) -> str:
    """A scenario title as an event stores it (English) in the current language; itself
    when no scenario made so far has it in that language."""
    return _TITLES.get(str(english), {}).get(language(), str(english))


def _campaign(kind: str, data: Mapping[str, Any]) -> str:
    """A campaign event in the current language from its kind and data (KeyError when the
    data cannot say it)."""
    msg = data.get("msg")
    if msg is not None:
        return _bfn(msg, data)
    d = dict(data)
    if "unit" in d and language() != "en":  # issue #28: the designation in the language
        d["unit"] = unit_designation(str(d["unit"]))
    if kind == "game_start":
        d["title"] = title_in_language(d["title"])
    elif kind == "phase":
        d["date"] = _date(str(d["date"]))
        code = d.get("phase") or next(k for k, v in PHASE_NAMES.items() if v == d["phase_name"])
        d["phase_name"] = PHASES[code]
    elif kind == "move":
        d["cost"] = _number(d["cost"])
    elif kind in ("exit", "return", "retreat_off"):
        d["edge"] = _word(f"edge.{d['edge']}")
    elif kind == "attack":
        shifts = (d.get("assessment") or {}).get("shifts")
        if shifts is None:
            raise KeyError("shifts")
        d["shifts"] = "".join(CAMPAIGN_EVENTS["shift"].format(
            reason=_shift_reason(s["reason"]), columns=f"{s['columns']:+d}") for s in shifts)
    elif kind == "defence":
        if d["artillery"] == EVENT_WORDS.english["artillery.none"]:
            d["artillery"] = EVENT_WORDS["artillery.none"]
    elif kind == "eliminated":
        d["why"] = EVENT_WORDS[_code_of(str(d["why"]), "why.")] if d["why"] else ""
    elif kind in ("air_points", "control"):
        d["side"] = _word(f"side.{str(d['side']).lower()}")
    elif kind == "drop":
        d["outcome"] = EVENT_WORDS[_code_of(str(d["outcome"]), "drop.")]
    elif kind == "carpet" and d.get("friendly"):
        return BFN_EVENTS["carpet_friendly"].format(**d)
    elif kind == "mulberry":
        d["status"] = _mulberry_status(d)
    elif kind == "game_over":
        allied, axis = int(d["allied"]), int(d["axis"])
        who = "allied" if allied > axis else "axis" if axis > allied else "draw"
        d["winner"] = CAMPAIGN_EVENTS[f"winner.{who}"]
    return CAMPAIGN_EVENTS[kind].format(**d)


def _mulberry_status(d: Mapping[str, Any]) -> str:
    """CN 9.0's Mulberry events: ``code`` cancelled | installed (``hex``) | storm (``die``,
    ``destroyed``)."""
    code = d["code"]
    if code == "storm":
        fate = "mulberry.destroyed" if d["destroyed"] else "mulberry.survives"
        return CAMPAIGN_EVENTS["mulberry.storm"].format(die=d["die"], fate=CAMPAIGN_EVENTS[fate])
    return CAMPAIGN_EVENTS[f"mulberry.{code}"].format(**d)


def _bfn(msg: str, d: Mapping[str, Any]) -> str:
    """A Battle for Normandy event (``msg`` = its template id) in the current language."""
    b = BFN_EVENTS
    if language() != "en" and d.get("name"):  # issue #28: designations in the language
        d = {**d, "name": unit_designation(str(d["name"]))}
    if msg == "dd":
        return b["dd"].format(beach=d["beach"], die=d["die"], value=d["value"],
                              fate=b["dd.ashore" if d["ok"] else "dd.swamped"])
    if msg == "pinned_roll":
        return b["pinned_roll"].format(unit=d["name"], die=d["die"],
                                       fate=b["pinned"] if d["pinned"] else "")
    if msg == "carpet_declared":
        return b["carpet_declared"].format(targets=", ".join(d["targets"]), cost=d["cost"])
    if msg in ("battleships", "division"):
        roll = b["roll"].format(die=d["die"], days=d["days"]) if d["die"] is not None \
            else b["automatic"]
        fate = {("battleships", True): "battleships.leave", ("battleships", False): "battleships.stay",
                ("division", True): "division.withdrawn", ("division", False): "division.stays"}
        return b[msg].format(day=_day_month(d["day"]), roll=roll, division=d.get("name", ""),
                             fate=b[fate[msg, bool(d["gone"])]])
    if msg == "mulberry_progress":
        return b[msg].format(name=d["name"], day=_day_month(d["day"]), die=d["die"],
                             progress=d["progress"], target=d["target"])
    if msg == "mulberry_storm":
        fate = b["mulberry_survives"] if d["damage"] is None else b["mulberry_damaged"].format(
            damage=d["damage"], progress=d["progress"], target=d["target"])
        return b[msg].format(name=d["name"], die=d["die"], fate=fate)
    if msg == "pegasus":
        return b[msg].format(die=d["die"], fate=b["pegasus.ok" if d["ok"] else "pegasus.off"])
    return b[msg].format(**d)


_MEMOIR_SIMPLE = (frozenset(MEMOIR_EVENTS) | frozenset(MEMOIR_EVENTS.plurals)) - {
    "ordered", "battle", "medics", "finest_hour", "flags_ignored", "objective", "victory",
    "airdrop", "card_played"}


def _memoir(kind: str, data: Mapping[str, Any], english: bool = False) -> str:
    """A Memoir '44 event in the current language, or in English (``english``: the stored
    text, made without looking the language up)."""
    words: Mapping[str, str] = EVENT_WORDS.english if english else EVENT_WORDS

    def word(key: str, default: Any) -> str:
        return words[key] if key in words else str(default)

    d = dict(data)
    # a counted event's form for its count ("1 figure", "2 figures")
    template = MEMOIR_EVENTS.counted(kind, d.get(MEMOIR_COUNTS.get(kind, "")), english)
    if kind == "setup":  # who plays first, the verb agreeing with the side (M44 p.5)
        d["first"] = word(f"m44.first.{d.get('starts')}", d.get("starts"))
    for key in ("side", "starts"):
        if key in d:
            d[key] = word(f"m44.side.{d[key]}", d[key])
    if kind == "setup" and not english:
        d["title"] = title_in_language(d["title"])  # the scenario's own title ("Ponte Pegasus")
    if kind in _MEMOIR_SIMPLE:
        return template.format(**d)
    if kind == "ordered":
        d["kind"] = word(f"m44.kind.{d['kind']}", d["kind"])
    elif kind in ("battle", "medics", "finest_hour"):
        faces = [f.strip() for f in str(d["faces"]).split(",") if f.strip()]
        d["faces"] = ", ".join(word(f"m44.face.{f}", f) for f in faces)
        if kind == "battle" and d["unit"] == "card":
            d["unit"] = words["m44.unit.card"]
    elif kind == "flags_ignored":
        d["why"] = word(f"m44.flag.{d['why']}", d["why"])
    elif kind == "objective":
        d["how"] = word(f"m44.how.{d['how']}", d["how"])
    elif kind == "victory":
        d["why"] = words[_code_of(str(d["why"]), "m44.why.")] if d["why"] else ""
    elif kind == "airdrop" and "fate" in d:
        d["where"] = words[f"m44.drop.{d['fate']}"].format(hex=d["at"], unit=d.get("id"))
    elif kind == "card_played":
        if not english:
            d["card"] = card_title_of(str(d["card"]))
        if d.get("option"):
            d["note"] = f" ({word('m44.option.' + str(d['option']), d['option'])})"
    return template.format(**d)


# ------------------------------------------------------------------------------ public
def render_event(event: Any) -> str:
    """``event`` (a campaign ``Event(kind, text, rule, data)`` or a Memoir '44
    ``Event(kind, data)``) in the current language; KeyError (or another lookup error) when its
    data cannot say it."""
    if hasattr(event, "rule"):
        return _campaign(event.kind, event.data)
    return _memoir(event.kind, event.data)


STUDENT_RENDERER = "wargame.student_text:student_line"
"""The renderer of student words (issue #28), named and loaded on first use like the
registry's describers (``wargame.registry.resolve``): ``wargame.student_text`` builds on this
module's words, so this module does not import it."""


@cache
def _student_renderer() -> Any:
    import importlib

    module, _, name = STUDENT_RENDERER.partition(":")
    return getattr(importlib.import_module(module), name)


def event_line(event: Any, viewer: Any = None, state: Any = None) -> str:
    """What a viewer reads for ``event``: its stored English text in English, else the event
    rendered in the current language, or the stored text when it cannot be. ``viewer`` (a
    ``wargame.viewer.Viewer``; None: the game's owner) that may not see the seed reads the
    opening line without it (issue #27: with the seed and the log anyone knows every die to
    come). A student viewer (``viewer.student``, issue #28) reads the event in student words
    (``wargame.student_text``; ``state``, the game now, names places and Memoir units), or
    the expert line when the event's data cannot say it."""
    if getattr(viewer, "student", False):
        try:
            return _student_renderer()(event, state)
        except (KeyError, IndexError, ValueError, TypeError, AttributeError, StopIteration):
            pass
    if viewer is not None and not viewer.sees_seed and getattr(event, "kind", "") == "game_start":
        try:
            return CAMPAIGN_EVENTS["game_start_public"].format(
                title=title_in_language(event.data["title"]))
        except (KeyError, TypeError, AttributeError):
            return CAMPAIGN_EVENTS["game_start_public"].format(title="")
    if language() == "en":
        return event.text
    try:
        return render_event(event)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError, StopIteration):
        return event.text


def card_title(card: Any) -> str:
    """A Memoir '44 command card's title in the current language: "Attack (right)",
    "Ataque (direita)" (``card``: a ``wargame.memoir.cards.Card``)."""
    return _card_title(card.name, card.section)


def card_title_of(english: str) -> str:
    """The card whose English title (as an event stores it: "Attack (right)", "Air Power") is
    ``english``, in the current language; ``english`` itself for a title no card has."""
    found = re.fullmatch(r"(.+) \((left|center|right)\)", english)
    title, section = (found.group(1), found.group(2)) if found else (english, None)
    name = _CARD_NAMES.get(title)
    return english if name is None else _card_title(name, section)


def _card_title(name: str, section: str | None) -> str:
    title = CARD_TITLES[name]
    if not section:
        return title
    return CARD_TITLES["section"].format(title=title, section=CARD_TITLES[f"section.{section}"])


_CARD_NAMES = {title: name for name, title in CARD_TITLES.english.items()
               if not name.startswith("section")}
"""English card title -> card name (the keys of ``CARD_TITLES``)."""


def outcome_reason(reason: str) -> str:
    """A game's ``Outcome.reason`` in the current language ("CN 11.2 victory points",
    "M44 p.14 Victory medals", " (sudden death)"...); an unknown reason as it is."""
    text = str(reason)
    found = re.fullmatch(r"(CN|OD) 11\.2 victory points", text)
    if found:
        return EVENT_WORDS["outcome.vp"].format(rule=found.group(1))
    if text == EVENT_WORDS.english["outcome.medals"]:
        return EVENT_WORDS["outcome.medals"]
    for key in ("m44.why.sudden_death", "m44.why.deck", "m44.why.no_units"):
        if text == EVENT_WORDS.english[key]:
            return EVENT_WORDS[key]
    return text


def edge_name(edge: str) -> str:
    """A map edge ("north", "east"...) in the current language."""
    return _word(f"edge.{edge}", edge)


def side_name(side: str) -> str:
    """A campaign side ("allied", "axis") in the current language."""
    return _word(f"side.{side}", side)


def face_name(face: str) -> str:
    """A Memoir '44 battle die face ("infantry", "grenade"...) in the current language."""
    return _word(f"m44.face.{face}", face)


def _vp_patterns() -> list[tuple[str, re.Pattern[str]]]:
    out = []
    for key, text in EVENT_WORDS.english.items():
        if key.startswith("vp."):
            pattern = re.escape(text).replace(r"\{side\}", "(?P<side>[a-z_]+)").replace(
                r"\{n\}", "(?P<n>[0-9]+)")
            out.append((key, re.compile(pattern)))
    return out


_VP_PATTERNS = _vp_patterns()


def victory_line(what: str) -> str:
    """A line of ``State.victory_points()["lines"]`` (English: "axis units destroyed x3", or a
    place's name) in the current language; a place's name as it is."""
    if language() == "en":
        return what
    for key, pattern in _VP_PATTERNS:
        m = pattern.fullmatch(what)
        if m:
            found = m.groupdict()
            if "side" in found:
                found["side"] = side_name(found["side"])
            return EVENT_WORDS[key].format(**found)
    return what


def phase_name(phase: str) -> str:
    """A campaign phase's name in the current language (``Phase.value``)."""
    return PHASES[phase] if phase in PHASES else phase


def decision_prompt(decision: Any) -> str:
    """A campaign pending decision's prompt in the current language (its stored English
    ``prompt`` when it has no ``prompt_id``)."""
    key = getattr(decision, "prompt_id", "") or ""
    if language() == "en" or key not in DECISIONS:
        return decision.prompt
    try:
        return DECISIONS[key].format(**dict(getattr(decision, "args", ()) or ()))
    except (KeyError, IndexError, ValueError):
        return decision.prompt


def memoir_prompt(kind: str) -> str:
    """A Memoir '44 pending decision's prompt in the current language (the kind if unknown)."""
    key = f"m44.{kind}"
    return DECISIONS[key] if key in DECISIONS else kind.replace("_", " ")
