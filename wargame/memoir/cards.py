"""Command cards: the 60-card deck and what each card orders.

M44 Components: 60 command cards, 40 section cards and 20 tactic cards. The rulebook does not
list the split; we use the printed deck as BGA encodes it (``modules/php/Managers/Cards.php``,
standard deck): Recon 2/2/2, Probe 4/5/4, Attack 3/4/3, Assault 2/2/2 (left/centre/right),
General Advance 1, Pincer Move 1, Recon in Force 3; one of each tactic card except Armor
Assault, Counter-Attack, Direct from HQ, Infantry Assault and Move Out, which have two copies.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import CENTER, LEFT, RIGHT

__all__ = ["Card", "DECK", "card", "SECTION_CARDS", "TACTIC_CARDS", "deck_ids"]


@dataclass(frozen=True)
class Card:
    id: int
    name: str  # machine name, e.g. "probe", "air_power"
    title: str
    section: str | None = None  # for single-section cards, as seen by the player
    # Section cards: units per section {section: count}; None count = all units there.
    per_section: tuple[tuple[str, int | None], ...] = ()

    @property
    def is_section(self) -> bool:
        return bool(self.per_section)


ALL = None

_SECTION_SPECS = [
    # name, title, units per section, copies (left, centre, right)
    ("recon", "Recon", 1, (2, 2, 2)),
    ("probe", "Probe", 2, (4, 5, 4)),
    ("attack", "Attack", 3, (3, 4, 3)),
    ("assault", "Assault", ALL, (2, 2, 2)),
]

_MULTI_SECTION = [
    ("general_advance", "General Advance", ((LEFT, 2), (CENTER, 2), (RIGHT, 2)), 1),
    ("pincer_move", "Pincer Move", ((LEFT, 2), (RIGHT, 2)), 1),
    ("recon_in_force", "Recon in Force", ((LEFT, 1), (CENTER, 1), (RIGHT, 1)), 3),
]

_TACTICS = [
    ("air_power", "Air Power", 1),
    ("ambush", "Ambush", 1),
    ("armor_assault", "Armor Assault", 2),
    ("artillery_bombard", "Artillery Bombard", 1),
    ("barrage", "Barrage", 1),
    ("behind_enemy_lines", "Behind Enemy Lines", 1),
    ("close_assault", "Close Assault", 1),
    ("counter_attack", "Counter-Attack", 2),
    ("dig_in", "Dig-In", 1),
    ("direct_from_hq", "Direct from HQ", 2),
    ("firefight", "Firefight", 1),
    ("infantry_assault", "Infantry Assault", 2),
    ("medics_mechanics", "Medics & Mechanics", 1),
    ("move_out", "Move Out!", 2),
    ("finest_hour", "Their Finest Hour", 1),
]


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    for name, title, n, copies in _SECTION_SPECS:
        for section, count in zip((LEFT, CENTER, RIGHT), copies, strict=True):
            for _ in range(count):
                cards.append(
                    Card(len(cards), name, f"{title} ({section})", section, ((section, n),))
                )
    for name, title, per, count in _MULTI_SECTION:
        for _ in range(count):
            cards.append(Card(len(cards), name, title, None, per))
    for name, title, count in _TACTICS:
        for _ in range(count):
            cards.append(Card(len(cards), name, title))
    return tuple(cards)


DECK: tuple[Card, ...] = _build()
SECTION_CARDS = tuple(c for c in DECK if c.is_section)
TACTIC_CARDS = tuple(c for c in DECK if not c.is_section)


def card(card_id: int) -> Card:
    return DECK[card_id]


def deck_ids() -> list[int]:
    return [c.id for c in DECK]
