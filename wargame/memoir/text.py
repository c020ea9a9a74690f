"""User-facing text of the Memoir '44 engine in one place.

Events carry a key and plain data; ``render(key, data)`` turns them into an English sentence
with the templates of ``wargame.event_text`` (catalogue ``events.memoir``), which also says
them in the viewer's language (issue #16).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
    "nation.German": "German",
    "nation.American": "American",
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
    "report.at": "{line} at {hexes}",
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


# The import report's lines (wargame.memoir.m44_tiles.Report: a key and its data each, issue 32),
# said in the reader's language by ``report_line``: ``line.KEY`` the line, the others the words
# its data names (a side, a nation's own rules, a badge's troop, a figure's kind).
from .m44_tiles import (  # noqa: E402
    BADGE_TROOPS,
    NATION_RULES,
    OPTION_ONLY_RULES,
    TILES,
    troop_key,
)

REPORT_TEXT = Catalogue("memoir.import_report", {
    "line.option": "editor option '{option}' (not played)",
    "line.option_rule": "editor option '{option}': {rule} (not played)",
    "line.nation_rule": "{rule} ({nation} units play as their side's units)",
    "line.groups": "the board's hex groups (rules written in words refer to them)",
    "line.text_rules": "the special rules written in the scenario's text (not played)",
    "line.text_victory": "the victory conditions written in the scenario's text (temporary or "
                         "permanent objectives, medals at start...) beyond the medal tags (not "
                         "played)",
    "line.victory_conditions": "victory conditions other than medals (not played)",
    "line.sudden_death": "sudden death: {win} holding {number} of {total} hexes",
    "line.victory_condition": "victory condition {condition} (not played)",
    "line.tile_mark": "{name} marked {mark} ({card}): the mark's rule is not played",
    "line.tile_lost": "{name} ({card}): {lost}",
    "line.tile": "{name} ({card})",
    "line.nation": "{nation} units (played as {side} units)",
    "line.resistance_mark": "French Resistance (inf2 marked FRENCH_RESISTANCE)",
    "line.resistance_badge": "French Resistance (inf2, badge 3)",
    "line.unit_mark": "{name} marked {mark}: the mark's rule is not played",
    "line.equipment": "{name} with equipment {equipment}: the equipment is not played",
    "line.badge": "{troop} (badge {badge}) played as {kind}: their own rules are not played",
    "line.badge_unknown": "badge {badge} played as {kind}: its own rules are not played",
    "line.tag": "tag {name}: a marker for a rule in words (not played)",
    "line.tag_mark": "tag {name} ({mark}): a marker for a rule in words (not played)",
    "line.medal_held": "{tag}: a temporary (held) objective for {who}",
    "line.medal_permanent": "{tag}: a permanent objective for {who}",
    "who.AXIS": "the Axis",
    "who.ALLIES": "the Allies",
    "who.either": "either side",
    "win.AXIS": "the Axis wins",
    "win.ALLIES": "the Allies win",
    "side.AXIS": "Axis",
    "side.ALLIES": "Allied",
    "kind.inf": "infantry",
    "kind.inf2": "infantry (special forces)",
    "kind.tank": "armour",
    "kind.gun": "artillery",
    **{f"rule.{nation}": rule for nation, rule in {**NATION_RULES, **OPTION_ONLY_RULES}.items()},
    **{f"troop.{troop_key(troop)}": troop for troop in sorted(set(BADGE_TROOPS.values()))},
}, plurals={
    # counted (wargame.i18n Catalogue.plural)
    "line.medal_group": ("{tag}: an objective needing {need} hex of its group (or the "
                         "majority, or the last to occupy) scores while one hex is held",
                         "{tag}: an objective needing {need} hexes of its group (or the "
                         "majority, or the last to occupy) scores while one hex is held"),
})
"""The import report's lines and words (English; Portuguese in the .po)."""

TILE_TEXT = Catalogue("memoir.import_tiles", {
    **{f"card.{tile.key}": tile.card for tile in TILES.values()},
    **{f"lost.{tile.key}": tile.lost for tile in TILES.values() if tile.lost},
})
"""Each editor tile's Days of Wonder card and, for an approximated tile, what is not played
(``wargame.memoir.m44_tiles.TILES``: its ``card`` and ``lost`` are these English texts)."""


def hexes_text(hexes: Sequence[Sequence[int]], most: int = 6) -> str:
    """``(r,c), (r,c) and 3 more`` (the first ``most`` hexes, in the current language)."""
    shown = ", ".join(f"({r},{c})" for r, c in hexes[:most])
    more = len(hexes) - most
    return shown + (IMPORT_TEXT_EN["more_hexes"].format(count=more) if more > 0 else "")


def report_line(key: str, data: Mapping[str, Any], hexes: Sequence[Sequence[int]] = ()) -> str:
    """One import report line in the current language: ``line.KEY`` with its ``data``, the
    words the data names (tile, nation, side, troop, kind) said in the same language, and the
    hexes it concerns."""
    args: dict[str, Any] = dict(data)
    tile = TILES.get(str(args.get("tile", "")).lower())
    if tile is not None:
        args["card"] = TILE_TEXT[f"card.{tile.key}"]
        args["lost"] = TILE_TEXT[f"lost.{tile.key}"] if tile.lost else ""
    rule_id = args.get("rule")
    if isinstance(rule_id, str):  # an editor option's nation rule
        args["rule"] = REPORT_TEXT.get(f"rule.{rule_id}", rule_id)
    nation = args.get("nation")
    if isinstance(nation, str):
        rule = f"rule.{nation}"
        args["rule"] = REPORT_TEXT[rule] if rule in REPORT_TEXT else ""
        name = f"nation.{nation}"
        args["nation"] = IMPORT_TEXT_EN[name] if name in IMPORT_TEXT_EN else nation
    who = args.get("who")
    if isinstance(who, str):
        args["who"] = REPORT_TEXT.get(f"who.{who}", who)
        args["win"] = REPORT_TEXT.get(f"win.{who}", who)
        args["side"] = REPORT_TEXT.get(f"side.{who}", who)
    for word, prefix in (("troop", "troop."), ("kind", "kind.")):
        if isinstance(args.get(word), str):
            args[word] = REPORT_TEXT.get(prefix + args[word], args[word])
    if f"line.{key}" in REPORT_TEXT.plurals:  # a counted line: by the number it counts
        text = REPORT_TEXT.plural(f"line.{key}", args.get("need"))
    else:
        text = REPORT_TEXT[f"line.{key}"] if f"line.{key}" in REPORT_TEXT else key
    try:
        text = text.format(**args)
    except (KeyError, IndexError, ValueError):  # a line of a newer version: its key as it is
        text = f"{key} {data}"
    if hexes:
        text = IMPORT_TEXT_EN["report.at"].format(line=text, hexes=hexes_text(list(hexes)))
    return text
