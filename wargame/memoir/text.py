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
