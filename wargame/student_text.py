"""Plain words for students (issue #28 item 3): the events, the results and the odds as
sentences a 14-year-old reads on a projector, and a hover glossary for the game's jargon.

The mode is a property of the viewer (``wargame.viewer.Viewer.student``), never of the stored
event: ``wargame.event_text.event_line(event, viewer, state)`` calls ``student_line`` for a
student viewer. Student lines carry no rule citation, no seed and no internal id; units are
named by their designation in the viewer's language (``unit_designation``: "Regimento de
Infantaria 16") and, in Memoir '44, by kind, side and place ("a infantaria aliada no bosque,
flanco esquerdo"), since no unit number or coordinate is drawn on that board.

Catalogues (English here, Portuguese in the .po): ``student.campaign`` (every kind the
campaign engine emits), ``student.bfn`` (every Battle for Normandy ``msg``), ``student.memoir``
(every Memoir '44 kind), ``student.results`` (every CRT, bombardment and carpet bombing result
code of both campaign games, and every Memoir '44 die face), ``student.words`` (the pieces put
into them: unit phrases, places, odds words), ``glossary`` (the jargon and its explanation,
shown on hover). tests/test_student_text.py enumerates the kinds and codes from the engines'
own code and tables, so a new kind without a student text fails.

Sides as subjects have their own sentence per side ("Os Aliados jogam", "O Eixo joga"), so
Portuguese verbs agree with them. Pure: imports only ``wargame.i18n`` (and the Memoir board's
coordinate helpers when a state is given).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from wargame.designations import DESIGNATIONS, unit_designation
from wargame.event_text import (
    EVENT_WORDS,
    PHASES,
    _code_of,
    _date,
    _day_month,
    _word,
    card_title_of,
    title_in_language,
)
from wargame.i18n import Catalogue, language

__all__ = ["without_rules", "glossed_html", "column_grade", "contracted", "STUDENT_CAMPAIGN", "STUDENT_BFN", "STUDENT_MEMOIR", "STUDENT_RESULTS",
           "STUDENT_WORDS", "GLOSSARY", "GLOSSARY_TERMS", "DESIGNATIONS", "student_line",
           "result_sentence", "odds_words", "odds_grade", "glossed", "unit_designation",
           "memoir_unit_phrase", "face_sentence"]

STUDENT_CAMPAIGN = Catalogue("student.campaign", {
    "game_start": "New game: {title}.",
    "game_start_public": "New game: {title}.",
    "phase": "Turn {turn} ({date}): {phase_name}.",
    "move": "{unit} moves to {to}.",
    "enter": "{unit} arrives on the map at {hex}.",
    "exit": "{unit} leaves the map by the {edge} edge.",
    "return": "{unit} may come back by the {edge} edge on turn {turn}.",
    "attack": "Attack on {target}: {attack} attack points against {defence} defence points. "
              "{odds}.",
    "defence": "The defenders of {target} get help: {air} air points, artillery: {artillery}.",
    "roll": "The dice show {total}: {result}.",
    "bombard": "Bombardment of {target} (strength {value}).",
    "bombard_none": "Bombardment of {target}: too weak to do anything.",
    "loss": "{unit} takes a loss: its counter is turned over and it gets weaker.",
    "eliminated": "{unit} is destroyed{why}.",
    "retreat": "{unit} falls back to {to}.",
    "retreat_off": "{unit} falls back off the map by the {edge} edge.",
    "stays": "{unit} holds on at {hex}: it does not have to fall back.",
    "advance": "{unit} advances into {to}.",
    "recover": "{unit} gets its losses back.",
    "air_points.allied": "The Allies have {points} air points this turn.",
    "air_points.axis": "The Axis has {points} air points this turn.",
    "carpet": "Carpet bombing on {hex}: {result}.",
    "withdrawn": "{unit} is taken off the map: it is needed elsewhere.",
    "drop": "{unit} parachutes onto {hex}: {outcome}.",
    "landing": "{unit} lands at {hex}.",
    "landing_failed": "{unit} cannot land at {hex} and is lost.",
    "mulberry": "Artificial harbour {name}: {status}.",
    "maquis": "{unit} ends the phase in a maquis area, where the Resistance fights.",
    "game_over": "The game is over after turn {turn}. Victory points: Allies {allied}, "
                 "Axis {axis}. {winner}",
    "control.allied": "The Allies take {place}.",
    "control.axis": "The Axis takes {place}.",
    # pieces
    "why.no_retreat": " (it had nowhere to fall back to)",
    "why.maquis": " (in a maquis area)",
    "why.no_room": " (no room to land)",
    "why.no_landing": " (it could not land)",
    "why.carpet": " (by the carpet bombing)",
    "why.second_loss": " (it was its second loss)",
    "why.emp": " (in the exchange)",
    "drop.intact": "it lands safely",
    "drop.losses": "it lands scattered and takes losses",
    "mulberry.cancelled": "it can no longer be built",
    "mulberry.installed": "it now works at {hex}",
    "mulberry.storm.destroyed": "the storm (die {die}) destroys it",
    "mulberry.storm.survives": "it survives the storm (die {die})",
    "winner.allied": "The Allies win.",
    "winner.axis": "The Axis wins.",
    "winner.draw": "It is a draw.",
    "artillery.none": "none",
})
"""Student sentences of the campaign engine's events (id = the event's kind; a side as the
subject has one per side)."""

STUDENT_BFN = Catalogue("student.bfn", {
    "dd": "Swimming (DD) tanks at {beach}: {fate}.",
    "dd.ashore": "they reach the beach",
    "dd.swamped": "the waves sink them",
    "pinned_roll": "{unit} is next to the carpet bombing{fate}.",
    "pinned": ": its own side's bombs keep it from moving",
    "carpet_declared": "Carpet bombing is ordered on {n} hexes ({cost} air points).",
    "carpet_friendly": "Carpet bombing on {hex} also hits {unit}: {result}.",
    "battleships.leave": "{day}: the battleships leave the coast.",
    "battleships.stay": "{day}: the battleships stay and keep firing.",
    "division.withdrawn": "{day}: {division} is withdrawn from the battle.",
    "division.stays": "{day}: {division} stays in the battle.",
    "mulberry_cancelled": "Artificial harbour {name}: it can no longer be built.",
    "mulberry_progress": "Artificial harbour {name}: building, {progress} of {target} done.",
    "mulberry_storm.survives": "Artificial harbour {name}: it survives the storm.",
    "mulberry_storm.damaged": "Artificial harbour {name}: the storm sets the work back to "
                              "{progress} of {target}.",
    "mulberry_working": "Artificial harbour {name}: it now works at {hex}.",
    "pegasus.ok": "The gliders land by Pegasus Bridge: the Orne bridges are taken.",
    "pegasus.off": "The gliders miss Pegasus Bridge.",
    "pegasus_drop": "{unit} lands by glider at {hex}, unharmed.",
})
"""Student sentences of the Battle for Normandy variants' events (id = the ``msg`` datum,
with its outcome when it has two)."""

STUDENT_MEMOIR = Catalogue("student.memoir", {
    "setup.allied": "{title}: the cards are dealt; the Allies play first.",
    "setup.axis": "{title}: the cards are dealt; the Axis plays first.",
    "airdrop": "A paratrooper unit lands {where}.",
    "airdrop.lost": "A paratrooper unit lands in the wrong place and is lost.",
    "airdrop_point.allied": "The Allies drop paratroopers {where}.",
    "airdrop_point.axis": "The Axis drops paratroopers {where}.",
    "card_played.allied": "The Allies play the card {card}.",
    "card_played.axis": "The Axis plays the card {card}.",
    "ordered": "{unit} {where} gets an order.",
    "moved": "{unit} moves {where}.",
    "exited.allied": "{unit} gets through the enemy lines: a medal for the Allies.",
    "exited.axis": "{unit} gets through the enemy lines: a medal for the Axis.",
    "eliminated.allied": "{unit} loses its last figure: a medal for the Allies.",
    "eliminated.axis": "{unit} loses its last figure: a medal for the Axis.",
    "flags_ignored": "{unit} holds firm in spite of a flag ({why}).",
    "retreat": "{unit} falls back {where}.",
    "retreat_blocked": "{unit} cannot fall back and loses figures instead.",
    "take_ground": "{unit} takes the ground the enemy left: it moves {where}.",
    "overrun": "{unit} breaks through and may attack again.",
    "wire_removed": "The barbed wire {where} is cleared.",
    "sandbags_placed": "Sandbags are put up {where}.",
    "sandbags_removed": "The sandbags {where} are gone.",
    "ambush.allied": "Ambush! The Allies fire first with {unit}.",
    "ambush.axis": "Ambush! The Axis fires first with {unit}.",
    "attack_cancelled": "The attack of {unit} is called off.",
    "finest_hour": "Their Finest Hour: the dice show {faces}.",
    "keep.allied": "The Allies keep one card and put the other away.",
    "keep.axis": "The Axis keeps one card and puts the other away.",
    "reshuffle": "The used cards are shuffled into a new deck.",
    "objective.allied": "The Allies take an objective {where}: one more medal.",
    "objective.axis": "The Axis takes an objective {where}: one more medal.",
    "turn_end.allied": "The Allies' turn {turn} is over.",
    "turn_end.axis": "The Axis's turn {turn} is over.",
    "deck_exhausted": "No cards are left to draw.",
    "why.sudden_death": " (they reached a victory goal)",
    "why.deck": " (the cards ran out)",
}, plurals={
    # counted (wargame.i18n Catalogue.plural): "1 card", "2 cards"
    "orders_done.allied": ("The Allies have given {count} order.",
                           "The Allies have given {count} orders."),
    "orders_done.axis": ("The Axis has given {count} order.", "The Axis has given {count} orders."),
    "battle": ("{unit} {where} attacks the enemy {target} with {dice} die: {faces}.",
               "{unit} {where} attacks the enemy {target} with {dice} dice: {faces}."),
    "battle.card": ("The card strikes the enemy {target} with {dice} die: {faces}.",
                    "The card strikes the enemy {target} with {dice} dice: {faces}."),
    "hits": ("{unit} loses {hits} figure; {left} left.", "{unit} loses {hits} figures; {left} left."),
    "medics": ("Medics and mechanics: {unit} gets {restored} figure back.",
               "Medics and mechanics: {unit} gets {restored} figures back."),
    "draw.allied": ("The Allies draw {count} card.", "The Allies draw {count} cards."),
    "draw.axis": ("The Axis draws {count} card.", "The Axis draws {count} cards."),
    "victory.allied": ("The Allies win with {medals} medal{why}.",
                       "The Allies win with {medals} medals{why}."),
    "victory.axis": ("The Axis wins with {medals} medal{why}.",
                     "The Axis wins with {medals} medals{why}."),
})
"""Student sentences of Memoir '44's events (id = the kind, per side when a side is the
subject)."""

STUDENT_RESULTS = Catalogue("student.results", {
    # CN/OD 5.1.6: the defender's part ...
    "DE": "one defending unit is destroyed and the others fall back one hex",
    "DRB": "the defenders fall back one hex and one of them takes a loss",
    "DRI": "the defenders fall back one hex without losses",
    "DVB": "the defence holds, but one defending unit takes a loss",
    "DVI": "the defence holds without losses",
    # ... and the attacker's
    "AVI": "the attackers take no losses",
    "AVB": "one attacking unit takes a loss",
    "ARI": "the attackers fall back one hex without losses",
    "ARB": "the attackers fall back one hex and one of them takes a loss",
    "AE": "the attackers fall back one hex and one of them is destroyed",
    "EMP": "an exchange: the defender loses units and the attacker loses at least as much",
    "IMP": "an impasse: nobody moves and nobody takes a loss",
    # CN/OD 6.2, 8.0 bombardment; CN 6.3 carpet bombing
    "DI": "the bombs do no harm",
    "DB": "one defending unit takes a loss",
    "DA": "every unit in the hex is destroyed",
    "advance": "the attackers may move into the empty hex",
    # M44 p.12 Battle: the dice faces
    "m44.infantry": "an infantry symbol: hits infantry",
    "m44.armor": "a tank symbol: hits a tank",
    "m44.grenade": "a grenade: hits any unit",
    "m44.flag": "a flag: the target must fall back",
    "m44.star": "a star: no hit (only some cards use it)",
})
"""Every result code of the campaign tables and every Memoir '44 die face, as a sentence."""

STUDENT_WORDS = Catalogue("student.words", {
    "odds": "{ratio}: {grade}",
    "ratio": "{a} to {b}",
    "grade.very_good": "very favourable to the attacker",
    "grade.good": "favourable to the attacker",
    "grade.even": "an even fight",
    "grade.bad": "favourable to the defender",
    "grade.very_bad": "very favourable to the defender",
    "hidden": "the defenders' strength is hidden",
    "near": "the hex near {place}",
    "hex": "hex {hex}",
    "mulberry.American": "American", "mulberry.British": "British",
    "list_and": "{first} and {last}",
    # Memoir '44 units by kind and side (the subject of a sentence)
    "m44.unit.inf.allied": "the Allied infantry", "m44.unit.inf.axis": "the Axis infantry",
    "m44.unit.tank.allied": "the Allied tank", "m44.unit.tank.axis": "the Axis tank",
    "m44.unit.gun.allied": "the Allied artillery", "m44.unit.gun.axis": "the Axis artillery",
    "m44.unit.unknown": "a unit",
    # Memoir '44 places by terrain and section
    "m44.at.plain": "in the open", "m44.at.woods": "in the woods", "m44.at.hills": "on the hill",
    "m44.at.buildings": "in the village", "m44.at.hedgerow": "in the hedgerows",
    "m44.at.river": "at the river", "m44.at.ocean": "at sea", "m44.at.beach": "on the beach",
    "m44.at.mountain": "on the mountain", "m44.at.other": "on the battlefield",
    "m44.to.plain": "into the open", "m44.to.woods": "into the woods",
    "m44.to.hills": "onto the hill", "m44.to.buildings": "into the village",
    "m44.to.hedgerow": "into the hedgerows", "m44.to.river": "to the river",
    "m44.to.ocean": "out to sea", "m44.to.beach": "onto the beach",
    "m44.to.mountain": "onto the mountain", "m44.to.other": "across the battlefield",
    "m44.section.left": "left flank", "m44.section.center": "centre",
    "m44.section.right": "right flank",
    "m44.place": "{terrain} ({section})",
    "m44.face.infantry": "infantry", "m44.face.armor": "tank", "m44.face.grenade": "grenade",
    "m44.face.flag": "flag", "m44.face.star": "star",
    "m44.faces": "{n} x {face}",
    "m44.flag.sandbags": "behind sandbags", "m44.flag.bunker": "in a bunker",
    "m44.flag.hedgehog": "behind hedgehogs",
})
"""The pieces put into the student sentences."""

GLOSSARY_TERMS = Catalogue("glossary.terms", {
    "engaged": "engaged",
    "zone_of_engagement": "zone of engagement",
    "divisional_integrity": "divisional integrity",
    "column": "column",
    "ratio": "ratio",
    "air_points": "air points",
    "movement_points": "movement points",
    "encirclement": "encirclement",
    "bocage": "bocage",
    "maquis": "maquis",
    "mulberry": "Mulberry",
    "carpet_bombing": "carpet bombing",
    "reduced": "reduced",
    "step": "loss",
    "advance": "advance after combat",
    "retreat": "retreat",
    "stacking": "stack",
    "medal": "medal",
    "section": "section",
    "flag": "flag",
})
"""The jargon as it appears on the pages, in each language (hover: ``GLOSSARY``)."""

GLOSSARY = Catalogue("glossary", {
    "engaged": "next to an enemy unit: it must stop there and may have to attack",
    "zone_of_engagement": "the six hexes around an enemy unit: moving in stops you",
    "divisional_integrity": "units of the same division attacking together get a bonus",
    "column": "the column of the combat table used for this attack: further right is better "
              "for the attacker",
    "ratio": "the attack points divided by the defence points (5 to 1: five times as strong)",
    "air_points": "how many aircraft a side can send this turn to help attacks",
    "movement_points": "how far a unit can still go: each hex costs points by its terrain",
    "encirclement": "the defenders have no free hex to fall back to: the attacker gets a bonus",
    "bocage": "Normandy's small fields with high hedges: hard to move and attack in",
    "maquis": "the French Resistance's hiding places in the hills",
    "mulberry": "an artificial harbour the Allies built off the beaches",
    "carpet_bombing": "heavy bombers drop bombs on a whole area at once",
    "reduced": "the counter is turned over after a loss: the unit is weaker",
    "step": "a unit that takes a loss is turned over; a second loss destroys it",
    "advance": "after winning, attackers may move into the hex the enemy left",
    "retreat": "falling back one hex after a lost fight",
    "stacking": "several units in one hex",
    "medal": "Memoir '44 is won by collecting medals: one for each enemy unit wiped out",
    "section": "the board is cut into three parts: left flank, centre, right flank; cards "
               "order units in one of them",
    "flag": "a die face that makes the target fall back one hex",
    **{f"code.{c}": t for c, t in {
        "DE": "Defence Eliminated", "DRB": "Defence Retreats with a loss (B: baixa)",
        "DRI": "Defence Retreats Intact", "DVB": "Defence holds (Vence) with a loss",
        "DVI": "Defence holds (Vence) Intact", "AVI": "Attack wins (Vence) Intact",
        "AVB": "Attack wins (Vence) with a loss", "ARI": "Attack Retreats Intact",
        "ARB": "Attack Retreats with a loss", "AE": "Attack Eliminated",
        "EMP": "an exchange (Empate)", "IMP": "an impasse",
        "DI": "Defence Intact", "DB": "Defence takes a loss (Baixa)",
        "DA": "every defender destroyed (Aniquilada)"}.items()},
})
"""What each term of ``GLOSSARY_TERMS`` means (and each result code's letters: ``code.X``)."""

# ------------------------------------------------------------------------- helpers
def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def result_sentence(result: str) -> str:
    """A campaign result ("DRB AVB", "EMP", "DB") as a sentence: each code's words, and that
    the attackers may advance when the defenders left the hex and the attackers stayed
    (CN/OD 5.2)."""
    codes = str(result).split()
    parts = [STUDENT_RESULTS[c] if c in STUDENT_RESULTS else c for c in codes]
    if any(c in ("DE", "DRB", "DRI") for c in codes) and any(c in ("AVI", "AVB")
                                                               for c in codes):
        parts.append(STUDENT_RESULTS["advance"])  # CN 5.2: advance into the vacated hex
    return "; ".join(parts)


def face_sentence(face: str) -> str:
    """A Memoir '44 die face and what it does (M44 p.12)."""
    key = f"m44.{face}"
    return STUDENT_RESULTS[key] if key in STUDENT_RESULTS else str(face)


_GRADES = ("very_good", "good", "even", "bad", "very_bad")


def odds_grade(distribution: Mapping[str, Any]) -> str:
    """How good a CRT column is for the attacker, read from the column itself
    (``distribution``: result -> chance, ``Tables.crt_distribution``): the chance that the
    defenders leave the hex (DE, DRB, DRI; EMP, whose survivors fall back) minus the chance
    that the attackers fall back (DVB, DVI, ARI, ARB, AE). The thresholds (3/4, 1/4, -1/4,
    -3/4) are ours (docs/rules-notes.md: "Odds in words")."""
    good = bad = Fraction(0)
    for result, p in distribution.items():
        codes = str(result).split()
        if any(c in ("DE", "DRB", "DRI", "EMP") for c in codes):
            good += Fraction(p)
        if any(c in ("DVB", "DVI", "ARI", "ARB", "AE") for c in codes):
            bad += Fraction(p)
    score = good - bad
    if score >= Fraction(3, 4):
        return "very_good"
    if score >= Fraction(1, 4):
        return "good"
    if score > Fraction(-1, 4):
        return "even"
    if score > Fraction(-3, 4):
        return "bad"
    return "very_bad"


def _ratio_words(label: str) -> str:
    m = re.fullmatch(r"(\d+)-(\d+)", str(label))
    return STUDENT_WORDS["ratio"].format(a=m.group(1), b=m.group(2)) if m else str(label)


def odds_words(column_label: str, grade: str | None = None) -> str:
    """A CRT column in words, once: "5 to 1: very favourable to the attacker" ("5 contra 1:
    muito favorável ao atacante"); without a ``grade`` only the ratio."""
    ratio = _ratio_words(column_label)
    if grade not in _GRADES:
        return ratio
    return STUDENT_WORDS["odds"].format(ratio=ratio, grade=STUDENT_WORDS[f"grade.{grade}"])


def column_grade(state: Any, label: str) -> str | None:
    """The grade (``odds_grade``) of the CRT column ``label`` of ``state``'s game, or None."""
    tables = getattr(getattr(state, "game", None), "tables", None)
    if tables is None or label not in getattr(tables, "crt_columns", ()):
        return None
    return odds_grade(tables.crt_distribution(label))


_TERMS_CACHE: dict[str, list[tuple[re.Pattern[str], str]]] = {}


def _term_patterns() -> list[tuple[re.Pattern[str], str]]:
    lang = language()
    if lang not in _TERMS_CACHE:
        out = []
        for key in GLOSSARY_TERMS:
            # the term or its plural ("sections", "medalhas"; pt -ção -> -ções: "secções")
            term = re.escape(GLOSSARY_TERMS[key]).replace("ção", "ç(?:ão|ões)")
            out.append((re.compile(r"(?<![\w>])(" + term + r"(?:s|es)?)(?![\w<])",
                                   re.IGNORECASE), GLOSSARY[key]))
        for key in GLOSSARY:
            if key.startswith("code."):
                code = key.removeprefix("code.")
                out.append((re.compile(r"(?<![\w>])(" + code + r")(?![\w<])"),
                            GLOSSARY[key] + ": " + STUDENT_RESULTS[code]))
        out.sort(key=lambda p: -len(p[0].pattern))
        _TERMS_CACHE[lang] = out
    return _TERMS_CACHE[lang]


def glossed(text: str) -> str:
    """HTML: ``text`` escaped, each glossary term (and result code) in it wrapped in
    ``<abbr class="wg-term" title="its meaning">`` so hovering it explains it. Each term is
    marked once (its first appearance)."""
    return glossed_html(html.escape(str(text)))


_TAG = re.compile(r"(<[^>]*>)")


def glossed_html(markup: str) -> str:
    """``markup`` (HTML) with each glossary term of its text (not inside a tag, not already
    marked) wrapped as ``glossed`` does."""
    parts = _TAG.split(str(markup))
    done: set[str] = set()
    inside_abbr = False
    for i, part in enumerate(parts):
        if part.startswith("<"):
            inside_abbr = part.startswith("<abbr") or (inside_abbr and part != "</abbr>")
            continue
        if inside_abbr or not part.strip():
            continue
        spans: list[tuple[int, int, str]] = []
        for pattern, meaning in _term_patterns():
            if pattern.pattern in done:
                continue
            m = pattern.search(part)
            if m and not any(m.start() < e and b < m.end() for b, e, _ in spans):
                spans.append((m.start(), m.end(), meaning))
                done.add(pattern.pattern)
        text, at = "", 0
        for b, e, meaning in sorted(spans):
            text += (f"{part[at:b]}<abbr class=\"wg-term\" title=\"{html.escape(meaning)}\">"
                     f"{part[b:e]}</abbr>")
            at = e
        text += part[at:]
        parts[i] = text
    return "".join(parts)


# ------------------------------------------------------------------------- places
def _campaign_place(state: Any, hid: Any) -> str:
    """A campaign hex by its place name: "Bayeux", "near Bayeux", else "hex 2011"."""
    if state is None:
        return STUDENT_WORDS["hex"].format(hex=hid)
    from wargame.hexgrid import Hex

    try:
        h = Hex.from_id(str(hid))
    except (ValueError, TypeError):
        return str(hid)
    board = getattr(getattr(state, "game", None), "board", None)
    hexes = getattr(board, "hexes", {}) if board is not None else {}
    named = getattr(board, "name_in", lambda n: n)
    info = hexes.get(h)
    if info is not None and getattr(info, "name", None):
        return named(info.name)
    for dist in (1, 2):
        for other in h.ring(dist):
            o = hexes.get(other)
            if o is not None and getattr(o, "name", None):
                return STUDENT_WORDS["near"].format(place=named(o.name))
    return STUDENT_WORDS["hex"].format(hex=h.id)


def _m44_hex(where: Any) -> Any:
    """A Memoir event's "(row,col)" as the board's hex (wargame.memoir.board.m44_to_hex:
    q = (col - row) // 2, r = row; not imported: the engines import this module's neighbour
    wargame.event_text)."""
    from wargame.hexgrid import Hex

    m = re.fullmatch(r"\((\d+),(\d+)\)", str(where))
    return Hex((int(m.group(2)) - int(m.group(1))) // 2, int(m.group(1))) if m else None


def _m44_place(state: Any, where: Any, to: bool = False) -> str:
    """A Memoir hex as a student sees it: its terrain and its section ("in the woods (left
    flank)"; sections as the board draws them, the Allied player's left), "into the woods"
    with ``to``."""
    h = _m44_hex(where) if not hasattr(where, "q") else where
    board = getattr(getattr(getattr(state, "game", None), "scenario", None), "board", None)
    if h is None or board is None:
        return ""
    terrain = board.terrain(h)
    prefix = "m44.to." if to else "m44.at."
    key = f"{prefix}{terrain}" if f"{prefix}{terrain}" in STUDENT_WORDS else f"{prefix}other"
    sections = sorted(board.board_sections(h))
    if len(sections) != 1:
        return STUDENT_WORDS[key]
    return STUDENT_WORDS["m44.place"].format(
        terrain=STUDENT_WORDS[key], section=STUDENT_WORDS[f"m44.section.{sections[0]}"])


def memoir_unit_phrase(state: Any, uid: Any) -> str:
    """A Memoir '44 unit as the subject of a sentence: "the Allied infantry" (kind and side
    from the state: they never change)."""
    units = getattr(state, "units", None) or {}
    u = units.get(uid) if isinstance(units, Mapping) else None
    if u is None:
        return STUDENT_WORDS["m44.unit.unknown"]
    key = f"m44.unit.{u.kind}.{u.side}"
    return STUDENT_WORDS[key] if key in STUDENT_WORDS else STUDENT_WORDS["m44.unit.unknown"]


def _faces(faces: str) -> str:
    counts: dict[str, int] = {}
    for f in (x.strip() for x in str(faces).split(",")):
        if f:
            counts[f] = counts.get(f, 0) + 1
    words = [STUDENT_WORDS["m44.faces"].format(
        n=n, face=STUDENT_WORDS[f"m44.face.{f}"] if f"m44.face.{f}" in STUDENT_WORDS else f)
        for f, n in counts.items()]
    return ", ".join(words) if words else "-"


# ------------------------------------------------------------------------- events
def _side_key(value: Any) -> str:
    return "allied" if str(value).lower().startswith("allie") else "axis"


def _campaign_line(kind: str, data: Mapping[str, Any], state: Any) -> str:
    msg = data.get("msg")
    if msg is not None:
        return _bfn_line(str(msg), data, state)
    s = STUDENT_CAMPAIGN
    d = dict(data)
    place = lambda key: _campaign_place(state, d[key])  # noqa: E731
    if "unit" in d:
        d["unit"] = _cap(unit_designation(str(d["unit"])))
    if kind in ("game_start", "game_start_public"):
        return s[kind].format(title=title_in_language(d.get("title", "")))
    if kind == "phase":
        code = d.get("phase") or next(k for k, v in PHASES.english.items()
                                      if v == d["phase_name"])
        return s[kind].format(turn=d["turn"], date=_date(str(d["date"])), phase_name=PHASES[code])
    if kind in ("move", "retreat", "advance"):
        return s[kind].format(unit=d["unit"], to=place("to"))
    if kind in ("enter", "landing", "landing_failed", "stays", "drop"):
        extra = {}
        if kind == "drop":
            code = _code_of(str(d["outcome"]), "drop.").removeprefix("drop.")
            extra["outcome"] = s[f"drop.{code}"]
        return s[kind].format(unit=d["unit"], hex=place("hex"), **extra)
    if kind in ("exit", "return", "retreat_off"):
        return s[kind].format(unit=d["unit"], edge=_word(f"edge.{d['edge']}"),
                              turn=d.get("turn", ""))
    if kind == "attack":
        grade = column_grade(state, str(d["column"]))
        return s[kind].format(target=place("target"), attack=d["attack"], defence=d["defence"],
                              odds=_cap(odds_words(str(d["column"]), grade)))
    if kind == "defence":
        arty = d["artillery"]
        arty = s["artillery.none"] if arty == EVENT_WORDS.english["artillery.none"] else \
            ", ".join(unit_designation(a.strip()) for a in str(arty).split(","))
        return s[kind].format(target=place("target"), air=d["air"], artillery=arty)
    if kind in ("roll", "carpet"):
        extra = {"hex": place("hex")} if kind == "carpet" else {}
        if kind == "carpet" and d.get("friendly"):
            return STUDENT_BFN["carpet_friendly"].format(
                hex=place("hex"), unit=d["unit"], result=result_sentence(str(d["result"])))
        return s[kind].format(total=d["total"], result=result_sentence(str(d["result"])), **extra)
    if kind in ("bombard", "bombard_none"):
        return s[kind].format(target=place("target"), value=d["value"])
    if kind in ("loss", "recover", "withdrawn", "maquis"):
        return s[kind].format(unit=d["unit"])
    if kind == "eliminated":
        why = _code_of(str(d["why"]), "why.") if d["why"] else ""
        return s[kind].format(unit=d["unit"], why=s[why] if why else "")
    if kind == "air_points":
        return s[f"air_points.{_side_key(d['side'])}"].format(points=d["points"])
    if kind == "control":
        name = re.sub(r" \(\d{4}\)$", "", str(d["place"]))
        board = getattr(getattr(state, "game", None), "board", None)
        name = getattr(board, "name_in", lambda n: n)(name)
        return s[f"control.{_side_key(d['side'])}"].format(place=name)
    if kind == "mulberry":
        code = d["code"]
        if code == "storm":
            status = s["mulberry.storm.destroyed" if d["destroyed"] else
                       "mulberry.storm.survives"].format(die=d["die"])
        else:
            status = s[f"mulberry.{code}"].format(hex=place("hex") if "hex" in d else "")
        return s[kind].format(name=_mulberry_name(d["name"]), status=status)
    if kind == "game_over":
        allied, axis = int(d["allied"]), int(d["axis"])
        who = "allied" if allied > axis else "axis" if axis > allied else "draw"
        return s[kind].format(turn=d["turn"], allied=allied, axis=axis,
                              winner=s[f"winner.{who}"])
    raise KeyError(kind)


def _mulberry_name(name: Any) -> str:
    key = f"mulberry.{name}"
    return STUDENT_WORDS[key] if key in STUDENT_WORDS else str(name)


def _bfn_line(msg: str, d: Mapping[str, Any], state: Any) -> str:
    b = STUDENT_BFN
    unit = _cap(unit_designation(str(d.get("name", d.get("unit", "")))))
    if msg == "dd":
        return b["dd"].format(beach=d["beach"], fate=b["dd.ashore" if d["ok"] else "dd.swamped"])
    if msg == "pinned_roll":
        return b["pinned_roll"].format(unit=unit, fate=b["pinned"] if d["pinned"] else "")
    if msg == "carpet_declared":
        return b["carpet_declared"].format(n=len(d["targets"]), cost=d["cost"])
    if msg == "carpet_friendly":
        return b[msg].format(hex=_campaign_place(state, d["hex"]), unit=unit,
                             result=result_sentence(str(d["result"])))
    if msg == "battleships":
        return b["battleships.leave" if d["gone"] else "battleships.stay"].format(
            day=_day_month(d["day"]))
    if msg == "division":
        return b["division.withdrawn" if d["gone"] else "division.stays"].format(
            day=_day_month(d["day"]), division=unit_designation(str(d.get("name", ""))))
    if msg == "mulberry_storm":
        key = "mulberry_storm.survives" if d["damage"] is None else "mulberry_storm.damaged"
        return b[key].format(name=_mulberry_name(d["name"]), progress=d.get("progress"), target=d.get("target"))
    if msg == "pegasus":
        return b["pegasus.ok" if d["ok"] else "pegasus.off"]
    if msg in ("mulberry_progress", "mulberry_cancelled"):
        return b[msg].format(name=_mulberry_name(d["name"]), progress=d.get("progress"),
                             target=d.get("target"))
    if msg in ("mulberry_working", "pegasus_drop"):
        return b[msg].format(name=_mulberry_name(d.get("name", "")), unit=unit,
                             hex=_campaign_place(state, d["hex"]))
    return b[msg].format(**d)


def _memoir_line(kind: str, data: Mapping[str, Any], state: Any) -> str:
    s = STUDENT_MEMOIR
    d = dict(data)
    side = str(d.get("side") or d.get("starts") or "")
    unit = _cap(memoir_unit_phrase(state, d["unit"])) if "unit" in d and d["unit"] != "card" \
        else ""
    u = (getattr(state, "units", None) or {}).get(d.get("unit"))
    at = _m44_place(state, u.hex) if u is not None and getattr(u, "hex", None) else ""
    if kind == "setup":
        return s[f"setup.{d['starts']}"].format(title=title_in_language(d["title"]))
    if kind == "airdrop":
        if d.get("fate") not in (None, "safe"):
            return s["airdrop.lost"]
        return s[kind].format(where=_m44_place(state, d["at"]))
    if kind == "airdrop_point":
        return s[f"{kind}.{side}"].format(where=_m44_place(state, d["hex"]))
    if kind == "card_played":
        return s[f"{kind}.{side}"].format(card=card_title_of(str(d["card"])))
    if kind == "ordered":
        return s[kind].format(unit=unit, where=_m44_place(state, d["hex"]))
    if kind in ("moved", "retreat", "take_ground"):
        return s[kind].format(unit=unit, where=_m44_place(state, d["to"], to=True))
    if kind == "exited":
        return s[f"{kind}.{side}"].format(unit=unit)
    if kind == "battle":
        faces = _faces(d["faces"])
        target = _m44_place(state, d["target"])
        if d["unit"] == "card":
            return s.plural("battle.card", d["dice"]).format(target=target, dice=d["dice"],
                                                             faces=faces)
        return s.plural(kind, d["dice"]).format(unit=unit, where=at, target=target,
                                                dice=d["dice"], faces=faces)
    if kind in ("hits",):
        return s.plural(kind, d["hits"]).format(unit=unit, hits=d["hits"], left=d["left"])
    if kind in ("eliminated",):
        return s[f"{kind}.{side}"].format(unit=unit)
    if kind == "flags_ignored":
        why = STUDENT_WORDS.get(f"m44.flag.{d['why']}", str(d["why"]))
        return s[kind].format(unit=unit, why=why)
    if kind in ("retreat_blocked", "overrun", "attack_cancelled"):
        return s[kind].format(unit=unit)
    if kind in ("wire_removed", "sandbags_placed", "sandbags_removed"):
        return s[kind].format(where=_m44_place(state, d["hex"]))
    if kind == "ambush":
        return s[f"{kind}.{side}"].format(unit=memoir_unit_phrase(state, d["unit"]))
    if kind == "medics":
        return s.plural(kind, d["restored"]).format(unit=memoir_unit_phrase(state, d["unit"]),
                                                    restored=d["restored"])
    if kind == "finest_hour":
        return s[kind].format(faces=_faces(d["faces"]))
    if kind in ("draw", "keep", "orders_done"):
        return s.counted(f"{kind}.{side}", d.get("count")).format(count=d.get("count", ""))
    if kind == "objective":
        return s[f"{kind}.{side}"].format(where=_m44_place(state, d["hex"]))
    if kind == "turn_end":
        return s[f"{kind}.{side}"].format(turn=d["turn"])
    if kind == "victory":
        why = ""
        if d.get("why"):
            code = _code_of(str(d["why"]), "m44.why.").removeprefix("m44.why.")
            why = s[f"why.{code}"]
        return s.plural(f"{kind}.{side}", d["medals"]).format(medals=d["medals"], why=why)
    if kind in ("reshuffle", "deck_exhausted"):
        return s[kind]
    raise KeyError(kind)


_CONTRACTIONS = {"pt": [(re.compile(r"\b(de|em|a|por) (o|a|os|as)\b"),
                        lambda m: _PT_CONTRACT[m.group(1), m.group(2)])]}
_PT_CONTRACT = {("de", "o"): "do", ("de", "a"): "da", ("de", "os"): "dos", ("de", "as"): "das",
                ("em", "o"): "no", ("em", "a"): "na", ("em", "os"): "nos", ("em", "as"): "nas",
                ("a", "o"): "ao", ("a", "a"): "à", ("a", "os"): "aos", ("a", "as"): "às",
                ("por", "o"): "pelo", ("por", "a"): "pela", ("por", "os"): "pelos",
                ("por", "as"): "pelas"}


def contracted(text: str) -> str:
    """Portuguese contracts a preposition with the article of the place put after it ("em o
    hexágono" -> "no hexágono", "de a infantaria" -> "da infantaria"); other languages as
    they are."""
    for pattern, repl in _CONTRACTIONS.get(language(), ()):
        text = pattern.sub(repl, text)
    return text


_CITATION = re.compile(r"\s*\(\s*(?:CN|OD|BFN) \d+(?:\.\d+)*\s*\)|,\s*(?:CN|OD|BFN) \d+(?:\.\d+)*|"
                       r"\s*\(M44 p\.\s*\d+[^)]*\)|\s*\b(?:CN|OD|BFN) \d+(?:\.\d+)*")


def without_rules(text: str, viewer: Any = None) -> str:
    """``text`` without its rule citations ("(CN 5.1.1)", ", CN 6.3") for a student viewer
    (``viewer.student``; None: always); as it is for an expert."""
    if viewer is not None and not getattr(viewer, "student", False):
        return text
    return _CITATION.sub("", str(text))


def student_line(event: Any, state: Any = None) -> str:
    """``event`` in student words in the current language (KeyError or another lookup error
    when its data cannot say it: the caller falls back). ``state``: the game now (place names,
    Memoir units' kinds); without it places are hex numbers."""
    if hasattr(event, "rule"):
        return contracted(_campaign_line(event.kind, event.data, state))
    return contracted(_memoir_line(event.kind, event.data, state))
