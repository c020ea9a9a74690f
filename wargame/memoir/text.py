"""User-facing text of the Memoir '44 engine in one place.

Events carry a key and plain data; ``render(key, data)`` turns them into an English sentence
with the templates of ``wargame.event_text`` (catalogue ``events.memoir``), which also says
them in the viewer's language (issue #16).
"""

from __future__ import annotations

from wargame.event_text import MEMOIR_EVENTS, memoir_text

MESSAGES_EN: dict[str, str] = dict(MEMOIR_EVENTS.english)
"""The events' English templates (``wargame.event_text.MEMOIR_EVENTS``, catalogue
``events.memoir``)."""


def render(key: str, data: dict) -> str:
    """An event's English text from its kind and data (sides as people read them: "Allies",
    "Axis"); ``wargame.event_text.event_line`` says it in the viewer's language."""
    return memoir_text(key, data)


# ``wargame scenario import`` (wargame.memoir.m44, wargame.memoir.imports): what an .m44 layout
# holds that the engine cannot play, what the import leaves out, and the id checks. A catalogue
# (wargame.i18n; Portuguese in wargame/locale/pt/LC_MESSAGES/wargame.po): read in the current
# language (``wargame --lang pt scenario import``); the imported file itself is written in
# English (wargame.memoir.imports).
from wargame.i18n import Catalogue  # noqa: E402 - here to keep this table's lines together

IMPORT_TEXT_EN = Catalogue("memoir.import", {
    "unsupported.board": "board type {name} (only STANDARD, OVERLORD and BRKTHRU)",
    "report.approximated": "Plays approximately ({count}):",
    "report.left_out": "Left out, not played ({count}):",
    "report.read": "Read as in the file ({count}):",
    "ui.label": "Import scenario (.m44)",
    "nation.British": "British",
    "nation.Commonwealth": "Commonwealth",
    "nation.Soviet": "Soviet",
    "nation.French": "French",
    "nation.Italian": "Italian",
    "nation.Japanese": "Japanese",
    "nation.Chinese": "Chinese",
    "ui.done": "Imported: {title} (memoir44-{id}).",
    "ui.too_large": "the file is larger than {mb} MB",
    "unsupported.terrain": "terrain {name} (no known effect) at {hexes}",
    "unsupported.obstacle": "obstacle {name} (no known effect) at {hexes}",
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
    "note.tags_objectives": "medal tags read as objectives: medal0 for either side, medal1, "
                            "medal4 and medal6 for the Allies, the others for the Axis",
    "provenance": "imported by wargame scenario import from {file} (a Scenario Editor layout)",
    "briefing": "A scenario imported from {file}.",
    "id.bad": "a scenario name of lower-case letters, digits, - and _ (at most 40), got {id!r}",
    "id.bundled": "{id!r} is a bundled scenario id: choose another name with --id",
    "id.exists": "an imported scenario {id!r} exists already ({path}): use --replace to "
                 "overwrite it",
}, plurals={
    # counted (wargame.i18n Catalogue.plural)
    "unsupported": ("cannot play {count} thing of this layout: {problems}",
                    "cannot play {count} things of this layout: {problems}"),
})
