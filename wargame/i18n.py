"""User-facing text in one place: English now, Portuguese next.

Engines create events with a message key and data; ``t(key, **data)`` renders them.
"""

from __future__ import annotations

LANGUAGE = "en"

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "game_start": "New game: {title}, seed {seed}.",
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
        "game_over": "Game over after turn {turn}. Victory points: Allied {allied}, Axis {axis}. {winner}",
        "control": "{side} takes {place}.",
    }
}

PHASE_NAMES = {
    "allied_movement": "Allied movement",
    "allied_combat": "Allied combat",
    "axis_movement": "Axis movement",
    "axis_combat": "Axis combat",
    "game_over": "game over",
}


def t(key: str, **data: object) -> str:
    template = MESSAGES[LANGUAGE].get(key, key)
    try:
        return template.format(**data)
    except (KeyError, IndexError):
        return f"{key}: {data}"
