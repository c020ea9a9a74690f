"""User-facing text of the Memoir '44 engine in one place (English now, Portuguese next).

Events carry a key and plain data; ``render(key, data)`` turns them into a sentence. The lead
may merge these templates into ``wargame/i18n.py``.
"""

from __future__ import annotations

MESSAGES_EN: dict[str, str] = {
    "setup": "{title}: {axis_cards} Axis and {allies_cards} Allied cards dealt; {starts} starts.",
    "airdrop": "Paradrop figure {n} lands {where}.",
    "airdrop_point": "{side} drops paratroopers over {hex}.",
    "card_played": "{side} plays {card}{note}.",
    "ordered": "{side} orders unit {unit} ({kind} at {hex}).",
    "orders_done": "{side} has ordered {count} unit(s).",
    "moved": "Unit {unit} moves {frm} -> {to}.",
    "exited": "Unit {unit} leaves the board from {frm}: a medal for {side}.",
    "battle": "Unit {unit} battles {target} at distance {distance} with {dice} dice: {faces}.",
    "hits": "Unit {unit} loses {hits} figure(s), {left} left.",
    "eliminated": "Unit {unit} is eliminated; {side} gains {medals} medal(s).",
    "flags_ignored": "Unit {unit} ignores a flag ({why}).",
    "retreat": "Unit {unit} retreats {frm} -> {to}.",
    "retreat_blocked": "Unit {unit} cannot complete {steps} retreat step(s) and loses figures.",
    "take_ground": "Unit {unit} takes ground at {to}.",
    "overrun": "Unit {unit} may battle again (armor overrun).",
    "wire_removed": "Wire removed at {hex}.",
    "sandbags_placed": "Sandbags placed at {hex}.",
    "sandbags_removed": "Sandbags removed at {hex}.",
    "ambush": "{side} ambushes with unit {unit}.",
    "attack_cancelled": "Unit {unit}'s attack is cancelled.",
    "medics": "Medics & Mechanics on unit {unit}: {faces}, {restored} figure(s) back.",
    "finest_hour": "Their Finest Hour: {faces}.",
    "draw": "{side} draws {count} card(s).",
    "keep": "{side} keeps one card and discards the other.",
    "reshuffle": "The discard pile is shuffled into a new deck.",
    "objective": "{side} {how} an objective medal at {hex}.",
    "turn_end": "End of {side}'s turn {turn}.",
    "victory": "{side} wins with {medals} medal(s){why}.",
    "deck_exhausted": "The command deck is exhausted.",
}


def render(key: str, data: dict) -> str:
    template = MESSAGES_EN.get(key, key)
    try:
        return template.format(**data)
    except (KeyError, IndexError, ValueError):
        return f"{key}: {data}"


# ``wargame scenario import`` (wargame.memoir.m44, wargame.memoir.imports): what an .m44 layout
# holds that the engine cannot play, what the import leaves out, and the id checks. A catalogue
# (wargame.i18n; Portuguese in wargame/locale/pt/LC_MESSAGES/wargame.po): read in the current
# language (``wargame --lang pt scenario import``); the imported file itself is written in
# English (wargame.memoir.imports).
from wargame.i18n import Catalogue  # noqa: E402 - here to keep this table's lines together

IMPORT_TEXT_EN = Catalogue("memoir.import", {
    "unsupported": "cannot play {count} thing(s) of this layout: {problems}",
    "unsupported.board": "board type {name} (only STANDARD and OVERLORD)",
    "unsupported.terrain": "terrain {name} at {hexes}",
    "unsupported.obstacle": "obstacle {name} at {hexes}",
    "unsupported.unit": "unit {name} (expansion figures) at {hexes}",
    "unsupported.nation": "unit {name} (a nation outside the base game) at {hexes}",
    "more_hexes": " and {count} more",
    "more_problems": "; and {count} more",
    "note.texts": "texts (name, history, briefing, victory conditions, special rules) are not "
                  "imported: special rules written in words are not played",
    "note.tag": "tag {name} at {hexes} ignored",
    "note.option": "game_info.{key} ignored",
    "note.victory": "victory conditions other than medals ignored",
    "note.recognised": "recognised as the bundled scenario {number} ({title}): its rulebook "
                       "set-up, special rules and briefing are used",
    "note.tags_objectives": "medal tags read as objectives held by medal1 Allies, medal2 Axis",
    "provenance": "imported by wargame scenario import from {file} (a Scenario Editor layout)",
    "briefing": "A scenario imported from {file}.",
    "id.bad": "a scenario name of lower-case letters, digits, - and _ (at most 40), got {id!r}",
    "id.bundled": "{id!r} is a bundled scenario id: choose another name with --id",
    "id.exists": "an imported scenario {id!r} exists already ({path}): use --replace to "
                 "overwrite it",
})
