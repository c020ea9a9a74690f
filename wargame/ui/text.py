"""User-facing text of the dashboards in one place, in English and Portuguese (issue #16).

``wargame/i18n.py`` holds the engine's event messages; these are the dashboard's own labels.
The tables the dashboards show are ``wargame.i18n.Catalogue`` objects: ``UI["key"]`` gives the
text in the current language (``wargame.i18n.language()``); the Portuguese is in
``wargame/locale/pt/LC_MESSAGES/wargame.po`` (``python tools/i18n.py update``, then translate).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from wargame.event_text import RESULT_CODES
from wargame.i18n import Catalogue

# The rulebook's result codes in the command line's words: one table, one word per concept
# (wargame.event_text.RESULT_CODES).
RESULT_WORDS = RESULT_CODES

TYPE_LETTERS: dict[str, str] = {
    "infantry": "I",
    "motorized_infantry": "MI",
    "paratroop": "P",
    "glider": "G",
    "ranger_commando": "R",
    "commando": "C",
    "naval_infantry": "N",
    "bicycle_infantry": "B",
    "armour": "A",
    "armoured_infantry": "AI",
    "mechanized_cavalry": "MC",
    "assault_gun": "AG",
    "mechanized_artillery": "MA",
    "artillery": "Ar",
    "coastal_artillery": "CA",
    "anti_aircraft": "AA",
    "rocket_launcher": "RL",
    "mountain": "M",
    "guerrilla": "FFI",
}

PHASE_HELP = Catalogue("ui.phase_help", {
    "allied_movement": "Allied movement: click a unit, then a shaded hex.",
    "allied_combat": "Allied combat: click an enemy hex to plan an attack.",
    "axis_movement": "Axis movement: click a unit, then a shaded hex.",
    "axis_combat": "Axis combat: click an enemy hex to plan an attack.",
    "game_over": "The game is over.",
})

_UI: dict[str, str] = {
    "no_unit": "No unit selected. Click a counter on the map.",
    "hidden": "hidden (CN 5.1.1)",
    "no_history": "No historical track for this scenario (no history.yaml in its folder).",
    "no_decision": "No decision pending.",
    "no_target": "Click an enemy hex on the map in your combat phase.",
    "no_reinforcements": "No reinforcements waiting this turn.",
    "moved": "Moved {unit} to {to}.",
    "entered": "{unit} entered at {hex}.",
    "select_entry": "{unit}: click a highlighted entry hex.",
    "selected": "Selected {unit}: {n} hexes reachable.",
    "illegal": "Not allowed: {reason}",
    "loaded": "Game loaded: turn {turn}, {phase}.",
    "saved": "Save written.",
    "undone": "Undone: {what}.",
    "nothing_to_undo": "Nothing to undo.",
    "new_game": "New game, seed {seed}.",
    "bad_save": "Could not load the save: {error}",
    "computer_played": "The computer ({side}) played {n} actions: {summary}. Now: {phase}.",
    "computer_on": "The computer plays the {side}.",
    "computer_off": "Nobody is played by the computer: both sides are yours.",
    "computer_undone": "Undone: {what}, with the computer's {n} actions after it.",
    "computer_told": "The computer ({side}) played: {story} Now: {phase}.",
    "story_more": "(and {n} more: see the log)",
    "student_switch": "Expert words (rule numbers, codes)",
    "odds_words": "In words: {odds}.",
    "card_section": "Section: {section}",
}


def result_words(result: str) -> str:
    """``"DRB AVB"`` -> "DRB AVB: defender retreats with a loss; attacker holds with a loss"."""
    parts = [RESULT_WORDS.get(code, code) for code in result.split()]
    return f"{result}: " + "; ".join(parts)


def type_letter(unit_type: str) -> str:
    return TYPE_LETTERS.get(unit_type, unit_type[:2].upper())


# Rooms: the landing page, the seat pages and their messages (wargame.ui.rooms, .room_page,
# .seats; docs/rooms-seats.md). Each seat's page shows them in its own language.
ROOMS = Catalogue("ui.rooms", {
    "title": "wargame: rooms for a class",
    "intro": "Create a game and give each team its seat's link. Each seat sees only its own "
             "side; the teacher's link shows both sides, the history and the log.",
    "game": "Game",
    "variants": "Variant rules (Battle for Normandy 19)",
    "seed": "Seed (empty: a random one)",
    "computer_allied": "Computer plays the Allies",
    "computer_axis": "Computer plays the Axis",
    "create": "Create the room",
    "created": "Room {code} created: give each team its link.",
    "seat.allied": "Allied seat",
    "seat.axis": "Axis seat",
    "seat.teacher": "Teacher (both sides, no moves)",
    "computer_seat": "played by the computer ({policy})",
    "code": "Room code: {code}",
    "join": "Join with a room code",
    "join_button": "Show the room's links",
    "join_unknown": "No room has the code {code}.",
    "join_links": "Room {code}: pick your team's link (a seat is not locked to one computer: "
                  "take only your own team's).",
    "rooms": "Rooms on this server",
    "refresh": "Refresh the list",
    "open": "Open",
    "replay": "Replay",
    "export": "Export save",
    "delete": "Delete",
    "confirm_delete": "Delete room {code} and its whole game for good?",
    "deleted": "Room {code} deleted.",
    "no_rooms": "No rooms yet.",
    "room_row": "{code}: {game}{variants}, {version} actions, {outcome}",
    "ongoing": "in play",
    "replay_title": "Replay of room {code}: after {n} of {total} actions",
    "fingerprint": "Position fingerprint {fingerprint}",
    "unknown_seat": "This link does not open any seat on this server",
    "unknown_seat_help": "Check that the whole link was copied, or ask the teacher for the "
                         "room's links (the room may have been deleted).",
    "seat_header": "Room {code}: {seat}. {turn_note}",
    "your_turn": "Your side is to act.",
    "their_turn": "Waiting for the {side}.",
    "their_turn.allied": "Waiting for the Allies.",
    "their_turn.axis": "Waiting for the Axis.",
    "teacher_note": "Teacher's view: both sides visible; the seats play.",
    "over": "The game is over.",
    "look_again": "The game has just changed (the other side, or this seat in another tab): "
                  "look at it again, then choose.",
    "room_no_undo": "Not in a room: the room's game is shared by every seat (no undo, load or "
                    "new game; the teacher can start another room).",
    "seed_random": "random",
    "nobody": "nobody",
    "seed_bad": "seed: a whole number from 0, got {seed!r}",
    "room": "Room",
    "cancel": "Cancel",
    "col.code": "code",
    "col.game": "game",
    "col.actions": "actions",
    "col.result": "result",
    "actions": "Actions",
    "actions_count": "{count} actions",
    "lang": "Language of the seat pages",
    "lang_switch": "Language:",
    # the teacher's page: a class's rooms at once (issue #29)
    "class_title": "Rooms for a class",
    "class_count": "Rooms",
    "class_game": "of the game",
    "class_lang": "seats in",
    "class_create": "Create the rooms",
    "class_created": "{n} rooms of {game} created, seats in {lang}: give each team its code, "
                     "link or QR code.",
    "class_count_bad": "rooms: a whole number from 1 to {most}",
    "class_show": "Links and QR codes",
    "copy": "Copy the link",
    "copied": "Copied",
    "qr_title": "QR code of the link of the {seat}, room {code}",
    "key_short": "{source}: the teacher's key must have at least {least} characters (got {n}); "
                 "leave it out for a random one",
    "key_locked": "Too many wrong keys from this computer",
    "key_locked_help": "Wait {seconds} seconds, then open the teacher's link again (the whole "
                       "link, as the server printed it).",
})
# ---------------------------------------------------------------------- actions in words
# wargame.ui.describe: one sentence per action kind of both engines (units by name, hexes by
# the map's place names), for "Done:", "Undone:" and status texts.
ACTION_WORDS = Catalogue("ui.actions", {
    "nobody": "no unit",
    "near": "{hex} near {place}",
    "move": "{unit} moves to {to}",
    "enter": "{unit} enters the map at {hex}",
    "exit": "{unit} leaves the map by the {edge} edge",
    "end_phase": "end of the phase",
    "attack": "attack on {target} by {units}{support}",
    "bombard": "bombardment of {target}{support}",
    "with_artillery": "with artillery {units}",
    "with_air": "with {n} air points",
    "declare_defence": "defence declared: {n} air points, {artillery}",
    "no_artillery": "no artillery",
    "carpet_bomb": "carpet bombing around {target}",
    "carpet_bomb_area": "carpet bombing of {n} hexes from {target} (Battle for Normandy 19.3)",
    "choose_loss": "{unit} takes the loss",
    "retreat": "{unit} retreats to {to}",
    "retreat_stay": "{unit} stays in place",
    "retreat_edge": "{unit} retreats off the map by the {edge} edge",
    "advance": "{unit} advances to {to}",
    "end_advance": "no advance after combat",
    "emp_eliminate": "{units} eliminated in the exchange (EMP)",
    # Memoir '44
    "m44_hex": "row {row}, column {col}",
    "m44_unit": "{side} {kind} (unit {id})",
    "m44_unit_unknown": "unit {id}",
    "m44_play": "card played: {card} {option}",
    "m44_order": "orders {unit}",
    "m44_end_orders": "done ordering units",
    "m44_move": "{unit} moves to {hex}",
    "m44_end_moves": "done moving",
    "m44_battle": "{unit} battles the unit at {hex}",
    "m44_end_battles": "end of the battles",
    "m44_retreat": "{unit} retreats to {hex}",
    "m44_take_ground": "{unit} takes ground at {hex}",
    "m44_skip_overrun": "no armour overrun",
    "m44_hold": "{unit} holds its ground",
    "m44_exit": "{unit} leaves the board",
    "m44_keep": "keeps {card}",
    "m44_ambush": "ambush with {card}",
    "m44_no_ambush": "no ambush",
    "m44_air_target": "air strike on {hex}",
    "m44_air_strike": "air strike resolved",
    "m44_barrage": "barrage on {hex}",
    "m44_medics": "medics and mechanics on {unit}",
    "m44_remove_wire": "{unit} removes the wire at {hex}",
    "m44_sand": "sandbags at {hex}",
    "m44_reshuffle": "the deck is reshuffled",
})

# The options of a pending decision (the Decision panel's choices, wargame.ui.describe.
# describe_option): hexes by the map's place names, as ACTION_WORDS.
OPTION_WORDS = Catalogue("ui.options", {
    "loss": "{unit} ({attack}-{defence})",
    "retreat": "{unit}: retreat to {to}",
    "retreat_via": "{unit}: retreat to {to}, by {via}",
    "retreat_stay": "{unit}: stay in place",
    "retreat_edge": "{unit}: off the map by the {edge} edge",
    "advance": "{unit}: advance to {to}",
    "advance_via": "{unit}: advance to {to}, by {via}",
    "end_advance": "no (further) advance",
    "defence": "{n} air points, {artillery}",
    "no_artillery": "no artillery",
    "emp_eliminate": "eliminate {units}",
})

MEMOIR_KIND_WORDS = Catalogue("ui.memoir_kinds", {"inf": "infantry", "tank": "armour",
                                                   "gun": "artillery"})

STATUS_WORDS = Catalogue("ui.status", {
    "on_map": "on the map",
    "waiting": "waiting to enter",
    "at_sea": "at sea, landing this turn",
    "eliminated": "eliminated",
    "exited": "left the map",
    "removed": "removed",
})

_UI.update({
    "done": "Done: {what}.",
    "new_game_confirm": "Really start a new game? (this game is lost unless saved)",
    "new_game_cancel": "Keep playing",
    "seed_placeholder": "random",
    "must_attack": "{n} units must attack before the phase ends (ringed in red on the map)",
    "end_phase_loses": "Ending the phase now loses {units} ({why}). Click End phase again "
                       "to confirm.",
    "end_phase_confirm": "End phase anyway",
    "defence_attack": "Attack on {target} by {units}{support}: odds {ratio}, column {column} "
                      "before your answer.",
    "at_sea": "At sea, off {beach}",
    "reduced": "(reduced)",
    "independent": "independent",
})

SIDE_WORDS = Catalogue("ui.sides", {"allied": "Allied", "axis": "Axis"})  # every game's ids
# the sides as a noun of their own ("Waiting for the Allies", "The computer plays the Axis")
SIDE_NAMES = Catalogue("ui.side_names", {"allied": "Allies", "axis": "Axis"})


def their_turn(side: str | None) -> str:
    """"Waiting for the Allies." in the current language (a whole sentence per side, so the
    Portuguese contracts its article: "À espera dos Aliados", "À espera do Eixo"); ``side``
    a side id ("allied", "axis"; "allies" too, the URL word)."""
    key = {"allies": "allied"}.get(str(side).lower(), str(side).lower())
    return ROOMS.get(f"their_turn.{key}") or ROOMS["their_turn"].format(side=side)


# the computer players (wargame.registry policies) as the pages name them; the ids stay the
# command line's (wargame autoplay --allied greedy)
PLAYER_WORDS = Catalogue("ui.players", {
    "hard": "hard (plans each phase)",
    "greedy": "greedy (goes for the cities)",
    "random": "random (no plan)",
    "easy": "easy",
    "normal": "normal",
    "auto": "auto",
    # the difficulty levels (wargame.registry GameFamily.levels, issue #33), the words a class
    # chooses its opponent by
    "level.beginner": "beginner",
    "level.normal": "normal",
    "level.hard": "hard",
})


def player_word(policy: str) -> str:
    """A computer player's name for people ("greedy" -> "ambicioso (vai às cidades)"); a
    player that stands for a difficulty level is named by it ("easy" -> "principiante",
    "hard" -> "difícil": ``wargame.registry.level_of``)."""
    from wargame.registry import level_of

    level = level_of(policy)
    if level is not None and f"level.{level}" in PLAYER_WORDS:
        return PLAYER_WORDS[f"level.{level}"]
    return PLAYER_WORDS.get(policy, policy)


# The Battle for Normandy 19 variant rules (wargame.operational.variants.VARIANTS) as the
# new-game controls show them: "<id>.title", "<id>.description". The English is the
# engine's own (tests/test_portuguese_finished.py checks they agree; ``variant_choices``
# shows the engine's English for any text that no longer matches).
VARIANT_WORDS = Catalogue("ui.variants", {
    "bfn-19.1.title": "Battleship withdrawal",
    "bfn-19.1.description": "Naval support thins out on a random day 30 June - 5 July; the "
                            "British ships stay.",
    "bfn-19.2.title": "Airborne withdrawal",
    "bfn-19.2.description": "The 82nd and 101st Airborne leave on a random day 30 June - 5 "
                            "July (not turn 13).",
    "bfn-19.3.title": "Carpet bombing (BFN)",
    "bfn-19.3.description": "Ten contiguous target hexes after 15 July, twice a game, with "
                            "friendly fire.",
    "bfn-19.4.title": "Mulberry construction",
    "bfn-19.4.description": "Mulberries built by dice to 21 on two chosen beaches; 3d6 storm "
                            "damage.",
    "bfn-19.5.title": "Commandos and Rangers",
    "bfn-19.5.description": "Rangers and Commandos: +1 column against fortifications, half "
                            "cost on hills, no recovery.",
    "bfn-19.6.title": "Hobart's funnies and DD tanks",
    "bfn-19.6.description": "Turn 0: AVREs help British/Canadian beach attacks; DD tanks roll "
                            "per beach.",
    "bfn-19.7.title": "Assault engineers",
    "bfn-19.7.description": "Turn 0: infantry-only attacks from the sea or a beach get one "
                            "column.",
    "bfn-19.8.title": "Pegasus Bridge",
    "bfn-19.8.description": "The 5th Parachute Brigade drops at the Orne bridges with a "
                            "pathfinder roll.",
})


def variant_word(variant_id: str, field: str, english: str) -> str:
    """A variant's ``field`` ("title", "description") in the current language; ``english``
    (the engine's text) when the catalogue has none for it or its English differs."""
    key = f"{variant_id}.{field}"
    if VARIANT_WORDS.english.get(key) != english:
        return english
    return VARIANT_WORDS[key]


# the lines ``wargame serve`` prints when it starts (wargame.ui.serve), in --lang's language
SERVE_WORDS = Catalogue("ui.serve", {
    "dashboard": "The game is at {url} (Ctrl+C stops the server)",
    "rooms": "Rooms: {url}  teacher's page: {teacher}",
})


def nation_word(nation: str) -> str:
    """A nation id of the units' data ("american") in the current language."""
    return LEGEND.get(f"nation.{nation}", nation)

# the dashboard's Legend tab (wargame.ui.campaign_panels.legend_html)
UNIT_TYPE_WORDS = Catalogue("ui.unit_types", {
    kind: kind.replace("_", " ") for kind in TYPE_LETTERS})
MAP_WORDS = Catalogue("ui.map", {
    # the hover tooltip of a hex (wargame/ui/hexmap.py)
    "tip.hex": "hex",
    "tip.terrain": "terrain",
    "tip.place": "place",
    "tip.units": "units",
    "tip.at_sea": "(at sea)",
    # features listed after the terrain
    "feature.fortification": "fortification",
    "feature.airfield": "airfield",
    "feature.village": "village",
    "feature.maquis": "maquis area",
    "feature.bunker": "bunker",
    "feature.bridge": "bridge",
    "feature.hedgehog": "hedgehog",
    # Memoir '44's terrain (M44 p.15-19) and the objective mark
    "m44.terrain.plain": "countryside",
    "m44.terrain.woods": "woods",
    "m44.terrain.hills": "hills",
    "m44.terrain.buildings": "town",
    "m44.terrain.hedgerow": "hedgerows",
    "m44.terrain.river": "river",
    "m44.terrain.ocean": "sea",
    "m44.terrain.beach": "beach",
    "m44.terrain.mountain": "mountain",
    "m44.medal": "medal",
})


LEGEND = Catalogue("ui.legend", {
    "adm": "attack, defence and movement under the letter",
    "stack.key": "number in a black circle",
    "stack": "units in the stack (hover to list them)",
    "reduced.key": "striped, pale counter",
    "reduced": "reduced unit (flipped)",
    "at_sea.key": "dashed outline, off the coast",
    "at_sea": "units at sea, landing on the beach next to them",
    "nation.american": "American",
    "nation.british": "British",
    "nation.canadian": "Canadian",
    "nation.french": "French",
    "nation.german": "German",
    "nation.russian": "Eastern volunteers",
    "reach": "hexes you can reach (green: many points left, yellow: few)",
    "entry": "entry hexes of a reinforcement",
    "target": "the hex you attack",
    "decision": "hexes a decision asks for (click one)",
    "zde.key": "small red x on land",
    "zde": "zone of engagement of an enemy unit: moving in stops you",
    "must_attack.key": "red ring round a counter",
    "must_attack": "this unit must attack before the combat phase ends",
    "selected.key": "gold outline",
    "selected": "the selected unit or hex",
    "mp.key": "number on a reachable hex",
    "mp": "movement points left there (! = engaged)",
    "terrain.key": "triangles, circles, y marks",
    "terrain": "hills, forest, bocage (terrain: hover a hex)",
    "rivers.key": "blue lines",
    "rivers": "rivers and canals",
    "roads.key": "brown lines",
    "roads": "roads",
})


class Rows:
    """The (text, text) rows of a legend table, in the language current when iterated."""

    def __init__(self, make: Callable[[], list[tuple[str, str]]]) -> None:
        self._make = make

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self._make())

    def __len__(self) -> int:
        return len(self._make())


LEGEND_LETTERS = Rows(lambda: [
    (letter, UNIT_TYPE_WORDS[kind]) for kind, letter in TYPE_LETTERS.items()] + [
    ("a-d-m", LEGEND["adm"])] + [
    (LEGEND[f"{k}.key"], LEGEND[k]) for k in ("stack", "reduced", "at_sea")])
LEGEND_COLOURS = Rows(lambda: [
    (LEGEND["nation.american"], "#a9bf72"), (LEGEND["nation.british"], "#d8b77a"),
    (LEGEND["nation.canadian"], "#e0a070"), (LEGEND["nation.french"], "#8fb0e0"),
    (LEGEND["nation.german"], "#9aa39a"), (LEGEND["reach"], "#b8c35a"),
    (LEGEND["entry"], "#1f77b4"), (LEGEND["target"], "#d62728"),
    (LEGEND["decision"], "#9467bd"),
])
LEGEND_MARKS = Rows(lambda: [
    (LEGEND[f"{k}.key"], LEGEND[k])
    for k in ("zde", "must_attack", "selected", "mp", "terrain", "rivers", "roads")])

_UI["target"] = "Target {target}: choose attackers, artillery and air points, then roll."

# Memoir '44 command cards in our own words (short; from the pt-PT rulebook's card list,
# M44 pp. 20-21): shown under each card of the hand
CARD_TEXT = Catalogue("ui.cards", {
    "recon": "Order 1 unit in this section. At the end of the turn draw two cards and keep one.",
    "probe": "Order 2 units in this section.",
    "attack": "Order 3 units in this section.",
    "assault": "Order every unit in this section.",
    "general_advance": "Order 2 units in each section: left, centre and right.",
    "pincer_move": "Order 2 units on each flank (left and right).",
    "recon_in_force": "Order 1 unit in each section.",
    "air_power": "Strike up to 4 adjacent enemy hexes: 2 dice each for the Allies, 1 for the "
                 "Axis; terrain gives no cover; unit symbols, grenades and stars hit.",
    "ambush": "When an enemy unit attacks one of yours at close range, fire first; it fights "
              "back only if it stays and survives.",
    "armor_assault": "Order 4 armour units; in close combat they roll 1 extra die. No armour: "
                     "order 1 unit.",
    "artillery_bombard": "Order all artillery: move up to 3 hexes, or fire twice. No artillery: "
                         "order 1 unit.",
    "barrage": "Fire 4 dice at any one enemy unit, terrain ignored; unit symbols and grenades "
               "hit, flags make it retreat.",
    "behind_enemy_lines": "One infantry unit moves up to 3 hexes, fights with 1 extra die, then "
                          "moves up to 3 more.",
    "close_assault": "Every infantry and armour unit next to the enemy fights with 1 extra die, "
                     "without moving first.",
    "counter_attack": "Play the card your opponent just played (left and right swap).",
    "dig_in": "Order 4 infantry units to dig in: each puts sandbags on its hex.",
    "direct_from_hq": "Order any 4 units.",
    "firefight": "Order 4 units not next to the enemy to fire without moving, with 1 extra die.",
    "infantry_assault": "Order all infantry in one section: move 2 and fight, or move 3 "
                        "without fighting.",
    "medics_mechanics": "Pick one unit that lost figures: roll a die per card in your hand; each "
                        "matching symbol or star brings a figure back.",
    "move_out": "Order 4 infantry units. No infantry: order 1 unit.",
    "finest_hour": "Roll a die per card in your hand: each symbol orders a unit of that kind, "
                   "each star any unit; they fight with 1 extra die.",
})

MEMOIR_LEGEND_WORDS = Catalogue("ui.memoir_legend", {
    "units.key": "INF / ARM / ART",
    "units": "infantry, armour, artillery; figures left / at the start",
    "sections.key": "dashed lines",
    "sections": "the three sections: left flank, centre, right flank (as the Allied player sees "
                "them)",
    "ordered.key": "orange outline",
    "ordered": "units ordered this turn",
    "wire.key": "grey cross-hatched edge",
    "wire": "barbed wire: a unit entering stops; infantry on it rolls 1 die less",
    "sandbags.key": "brown thick edge",
    "sandbags": "sandbags: the unit inside takes no hit from a flag",
})
MEMOIR_LEGEND = Rows(lambda: [
    (MEMOIR_LEGEND_WORDS[f"{k}.key"], MEMOIR_LEGEND_WORDS[k])
    for k in ("units", "sections", "ordered", "wire", "sandbags")])

_UI.update({
    "bombard_arty_help": "Artillery-only bombardment (8.0): tick artillery in range first.",
    "bombard_air_help": "Air-only strike (6.2): choose air points first.",
    "bombard_arty": "Artillery-only bombardment",
    "bombard_air": "Air-only strike",
    "bombard_odds": "{what}: value {value}, column {column}; {odds}",
    "air_suggestion": "Air-point optimiser: put {air} of your {points} points here (best split "
                      "over the {attacks} attacks still open: {value:.2f} enemy steps lost "
                      "expected in this phase, {gain:+.2f} over spending the points attack by "
                      "attack)",
    "air_suggestion.same": "Air-point optimiser: put {air} of your {points} points here (best "
                           "split over the {attacks} attacks still open: {value:.2f} enemy "
                           "steps lost expected in this phase; spending the points attack by "
                           "attack does as well)",
    # what the suggestion adds to the best plan with the air set now (issue #32: never
    # "+0.00": a suggestion that adds nothing is not shown)
    "air_use": "Optimiser: use {air} air points here ({better:+.2f} enemy steps lost expected "
               "this phase)",
    "air_use.here": "Optimiser: use {air} air points here ({here:.2f} enemy steps lost "
                    "expected from this attack)",
    "seed_label": "Seed {seed}, ",
    "save_refused": "A room's page gives no save file: the teacher exports the game from the "
                    "teachers' page.",
    "show_hands": "Show the hands on this screen",
})

UI = Catalogue("ui", _UI, plurals={
    # counted (wargame.i18n Catalogue.plural)
    "hands_hidden": ("{side}: {n} card, hidden (the switch above shows it)",
                     "{side}: {n} cards, hidden (the switch above shows them)"),
})

# the campaign dashboard's own labels, headings and lines (wargame.ui.campaign)
WORDS = Catalogue("ui.campaign", {
    "deselect": "Deselect",
    "unit": "Unit",
    "card.name": "name",
    "card.type": "type",
    "card.nation": "nation / side",
    "card.division": "division",
    "card.adm": "attack-defence-movement",
    "card.status": "status",
    "card.hex": "hex",
    "card.range": "artillery range",
    "card.mp_left": "movement points left",
    "card.engaged": "engaged",
    "card.engaged_yes": "yes: next to an enemy unit",
    "also_in": "Also in {hex}: {units} (click the hex again to cycle)",
    "reinforcements": "Reinforcements",
    "later": "Later:",
    "later_unit": "{unit} (turn {turn})",
    "attack": "Attack",
    "attack_on": "Attack on {target}",
    "attacks_in_combat": "Attacks happen in combat phases.",
    "defenders": "Defenders: {units}; terrain: {terrain}",
    "attackers": "Attackers",
    "attacking_units": "Attacking units",
    "attacker_label": "{unit} ({attack}) in {hex}",
    "artillery": "Artillery",
    "artillery_in_range": "Artillery in range",
    "air_points": "Air points",
    "air_points_range": "Air points (0-{max}; {left} left this turn)",
    "roll": "Roll the attack",
    "artillery_only": "Artillery only",
    "air_only": "Air-only strike",
    "pick_attackers": "Pick at least one attacking unit (or bombard).",
    "defence_answer": "The defender may answer ({rule}) with {answer}: then ratio <b>{ratio}</b>, "
                      "column <b>{column}</b>.",
    "defence_answer_hidden": "The defender may answer ({rule}) with {answer}.",
    "answer_artillery": "artillery {units}",
    "answer_air": "up to {n} air points",
    "odds": "Attack <b>{attack}</b> (air {air}) against defence <b>{defence}</b> = ratio "
            "<b>{ratio}</b>; base column {base}, net shift {shift:+d} &rarr; column "
            "<b class=\"wg-column\">{column}</b>",
    "odds_hidden": "Attack {attack} (air {air}) against defence {hidden}",
    "shift": "shift",
    "columns": "columns",
    "rule": "rule",
    "no_shifts": "no column shifts",
    "results_in_words": "Results in words",
    "result": "result",
    "probability": "probability",
    "decision": "Decision",
    "decision_for": "Decision for the {side} player",
    "click_purple": "Click a purple hex on the map, or pick below.",
    "confirm": "Confirm",
    "auto": "Auto",
    "turn_line": "Turn <b>{turn}</b>{date}: <b>{phase}</b>.",
    "turn_points": "Air points: Allied {air_allied}, Axis {air_axis}; VP Allied {vp_allied}, "
                   "Axis {vp_axis}",
    "air_left": "Air points left: Allied {allied}, Axis {axis}",
    "heavy_bombers": "Heavy bombers: {used} of {uses} uses (from turn {turn}, CN 6.3)",
    "vp_now": "Victory points now: Allied <b>{allied}</b>, Axis <b>{axis}</b>",
    "actions": "{n} actions",
    "end_phase": "End phase",
    "undo": "Undo",
    "save": "Save",
    "load": "Load a save:",
    "seed": "Seed (empty: new dice)",
    "new_game": "New game",
    "hide_enemy": "Enemy values hidden (CN 5.1.1)",
    "computer_plays": "Computer plays",
    "computer_level": "Computer's level",
    "computer.none": "nobody (two players)",
    "computer.axis": "the Axis",
    "computer.allied": "the Allies",
    "carpet_centre": "Carpet bombing centre",
    "carpet_bomb": "Carpet bomb",
    "variants": "Variant rules for a new game (Battle for Normandy 19)",
    "about_variants": "About the variants",
    "event_log": "Event log",
    "history": "History",
    "history_overlay": "Show cities the Allies really held",
    "no_entry": "No entry for turn {turn}.",
    "none": "none",
    "in_part": "(and in part: hexes {hexes})",
    "allied_cities": "Allied-held cities at the end of the turn:",
    "counters": "Counters",
    "colours": "Colours",
    "marks": "Marks on the map",
    "tab.game": "Game",
    "tab.log": "Log",
    "tab.new_game": "New game",
    "tab.history": "History",
    "tab.legend": "Legend",
    "fallback": "Scenario {scenario!r} could not be loaded ({error}); showing the small demo "
                "scenario instead.",
})

# the phases' names as the dashboards show them (the engines name them in events with
# wargame.event_text.PHASE_NAMES)
PHASE_WORDS = Catalogue("ui.phases", {
    "allied_movement": "Allied movement",
    "allied_combat": "Allied combat",
    "axis_movement": "Axis movement",
    "axis_combat": "Axis combat",
    "game_over": "game over",
})
