"""Texts of the pages' layout (issue 28: steady pages): the warning's second button, the
reinforcements' groups and help line, a unit selected where it is drawn at sea, values hidden
from the viewer said in words. English here; Portuguese in the ``.po`` catalogue
(``wargame.i18n``)."""

from __future__ import annotations

from wargame.i18n import Catalogue

__all__ = ["LAYOUT_TEXT"]

LAYOUT_TEXT = Catalogue("ui.layout", {
    "end_phase_keep": "Not yet: keep playing",
    "reinforcements_help": "Open a group, pick a unit, then click one of its entry hexes "
                           "(shaded blue on the map).",
    "group_one": "Turn {turn}, entering at {place}: 1 unit",
    "group_many": "Turn {turn}, entering at {place}: {n} units",
    "at_sea_selected": "{unit} is at sea, landing at {place}: selected on its beach.",
    "hidden_values": "The defenders' strength is hidden from your side: the odds and the "
                     "chances of each result are shown only after the roll.",
    "air_planned_left": "Air points (0-{max}): {left} left after this attack",
})
