"""User-facing text of the dashboards in one place (English now, Portuguese next).

``wargame/i18n.py`` holds the engine's event messages; these are the dashboard's own labels.
"""

from __future__ import annotations

RESULT_WORDS: dict[str, str] = {
    "DRB": "defender retreats with a loss",
    "DRI": "defender retreats intact",
    "DE": "defender eliminated",
    "DVB": "defender holds with a loss",
    "DVI": "defender holds intact",
    "EMP": "bloody stalemate: both sides eliminate units",
    "IMP": "stalemate: no effect",
    "AE": "attacker eliminated",
    "AVB": "attacker holds with a loss",
    "ARB": "attacker falls back with a loss",
    "ARI": "attacker falls back intact",
    "AVI": "attacker holds intact",
    "DB": "one defending unit takes a loss",
    "DA": "every unit in the hex eliminated",
    "DI": "no effect",
}

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

PHASE_HELP: dict[str, str] = {
    "allied_movement": "Allied movement: click a unit, then a shaded hex.",
    "allied_combat": "Allied combat: click an enemy hex to plan an attack.",
    "axis_movement": "Axis movement: click a unit, then a shaded hex.",
    "axis_combat": "Axis combat: click an enemy hex to plan an attack.",
    "game_over": "The game is over.",
}

UI: dict[str, str] = {
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
}


def result_words(result: str) -> str:
    """``"DRB AVB"`` -> "DRB AVB: defender retreats with a loss; attacker holds with a loss"."""
    parts = [RESULT_WORDS.get(code, code) for code in result.split()]
    return f"{result}: " + "; ".join(parts)


def type_letter(unit_type: str) -> str:
    return TYPE_LETTERS.get(unit_type, unit_type[:2].upper())


# Rooms: the landing page, the seat pages and their messages (wargame.ui.rooms, .room_page,
# .seats; docs/rooms-seats.md)
ROOMS = {
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
    "teacher_note": "Teacher's view: both sides visible; the seats play.",
    "over": "The game is over.",
    "room_no_undo": "Not in a room: the room's game is shared by every seat (no undo, load or "
                    "new game; the teacher can start another room).",
}
