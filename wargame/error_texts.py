"""The texts of refusals and of the loaders' errors (issue #16): catalogues, one per kind.

A refusal's key is ``<area>.<id>``: ``campaign.move.beyond_reach`` is the id ``move.beyond_reach``
of the ``refusals.campaign`` catalogue (Campanha da Normandia, Operação Dragoon and the Battle
for Normandy variants), ``memoir.`` of ``refusals.memoir`` (Memoir '44), ``action.`` of
``refusals.action`` (malformed actions and the game's end, common to both engines).
``render_refusal(key, data)`` fills the template in the current language; the values of data
keys named in ``TERM_KEYS`` (a side, a phase, a terrain, a map edge, a decision...) are English
ids shown through ``refusals.terms``; unit and place names are shown as they are.

The loaders' errors (``ScenarioError``: file, field, what was expected, what was found) use the
``loader`` catalogue: the frame ``{file}: field '{field}': expected ...`` and the expectations
the loaders name by key (``ScenarioError.keyed``).

The English texts are the ones the engines have always given (tests and recorded games match
them); the Portuguese, in ``wargame/locale/pt/LC_MESSAGES/wargame.po``, uses the rulebooks'
terms (docs/glossary.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wargame.i18n import Catalogue, language

__all__ = [
    "REFUSALS_CAMPAIGN", "REFUSALS_MEMOIR", "REFUSALS_ACTION", "TERMS", "LOADER", "TERM_KEYS",
    "REFUSAL_CATALOGUES", "render_refusal", "refusal_template", "english_refusal",
    "loader_text", "RULES", "rule_text",
]

REFUSALS_CAMPAIGN = Catalogue("refusals.campaign", {
    # CN/OD 4.0 movement, 4.1.1 stacking, 4.1.2 zones of engagement
    "move.wrong_phase": "units move only in their side's movement phase",
    "move.not_your_phase": "it is the {phase} phase",
    "move.not_on_map": "{unit} is not on the map",
    "move.zero_movement": "units with movement 0 cannot move",
    "move.stopped": "the unit entered an enemy zone of engagement and must stop",
    "move.paratroops_first_turn": "paratroops dropped on the first turn do not move",
    "move.wait_contact": "dropped units move only after contacting other Allied units",
    "move.enemy_hex": "two enemy units never share a hex",
    "move.prohibited_terrain": "{terrain} is prohibited to this unit",
    "move.beyond_reach": "{hex} is beyond the unit's movement ({mp} MP) this phase",
    "move.path_end": "the path must end at the destination",
    "move.path_maquis": "the path enters a maquis area at {hex}: only Allied units move "
                        "through maquis areas",
    "move.path_zoc": "the path enters an enemy zone of engagement at {hex} and must stop there",
    "move.path_cost": "the path costs more than the unit's {mp} MP",
    "move.pinned": "pinned by friendly fire: the unit does not move",
    "stacking.limit": "stacking limit {limit}",
    # CN/OD 4.2 reinforcements, landings, leaving the map
    "entry.wrong_phase": "reinforcements enter in their side's movement phase",
    "entry.not_waiting": "{unit} is not waiting to enter",
    "entry.arrives_later": "{unit} arrives on turn {turn}",
    "entry.not_entry_hex": "{hex} is not one of this unit's entry hexes",
    "entry.cost": "the unit cannot pay the entry hex's cost ({mp} MP)",
    "landing.where": "lands after the Allied combat phase of the first turn, at {hex} once "
                     "taken, otherwise on another British beach",
    "landing.must_join": "after landing it must move to a hex held by the 6th Airborne",
    "landing.join_hex": "{hex} is not a hex held by the 6th Airborne with room",
    "landing.no_move": "landing elsewhere, it does not move",
    "exit.edge_side": "{side} units may not leave by the {edge} edge",
    "exit.not_on_edge": "{hex} is not on the {edge} edge",
    "exit.cost": "leaving the board costs 1 movement point",
    # CN/OD 5 combat
    "combat.wrong_phase": "attacks happen in the combat phase",
    "combat.no_enemy": "no enemy unit in {hex}",
    "combat.hex_attacked": "{hex} was already attacked this turn",
    "combat.no_attackers": "an attack needs attacking units (artillery alone bombards)",
    "combat.listed_twice": "a unit is listed twice",
    "combat.unit_attacked": "{unit} already attacked this phase",
    "combat.unit_fired": "{unit} already fired this phase: one combat a phase",
    "combat.armour_mountains": "armoured units cannot attack into mountains",
    "combat.not_adjacent": "{unit} is not adjacent to {hex}",
    "combat.one_armour_bocage": "only one armoured unit may attack a bocage hex",
    "combat.left_behind": "{unit} is engaged and must take part in the attack on {hex}: it has "
                          "no other hex to attack, and a hex is attacked once a turn",
    "advance.not_legal": "not a legal advance",
    "end.must_attack": "{unit} is engaged and must attack",
    # CN/OD 6 air power, 8 artillery, OD 10 maquis, CN 9 Mulberries
    "air.negative": "air points cannot be negative",
    "air.no_air_turn": "no air power on turn {turn}",
    "air.points_left": "only {points} air points left this turn",
    "air.strike_max": "at most {max} air points per combat",
    "air.strike_min": "an air strike needs at least {min} points",
    "artillery.not_available": "{unit} is not artillery in range or was already used this phase",
    "artillery.in_target_hex": "{unit} is in the attacked hex: it defends there",
    "artillery.out_of_range": "{hex} is beyond {unit}'s range of {range}",
    "artillery.adjacent": "{unit} is next to {hex}: engaged artillery attacks it as a unit and "
                          "suffers the combat's results",
    "artillery.must_attack": "{unit} is engaged and must attack a hex next to it (its one "
                             "combat this phase)",
    "artillery.listed_twice": "an artillery unit is listed twice",
    "artillery.attack_and_fire": "a unit cannot both attack and fire as artillery",
    "artillery.maquis": "units forced into a maquis area get no artillery support",
    "support.guerrilla": "guerrillas get no air or artillery support unless stacked with other "
                         "Allied units",
    "bombard.no_air_with_artillery": "artillery-only attacks get no air support",
    "bombard.needs_support": "a bombardment needs artillery or air points",
    "bombard.no_mulberries": "without Mulberries the Allies make no artillery-only attacks",
    # CN 6.3 carpet bombing; BFN 19.3
    "carpet.none": "this game has no carpet bombing",
    "carpet.limits": "carpet bombing: before any Allied move, from turn {turn}, at most {uses} "
                     "times on non-consecutive turns, not already used this turn",
    "carpet.bfn_off": "this game does not use BFN carpet bombing",
    "carpet.bfn_phase": "carpet bombing is declared at the start of the Allied movement phase",
    "carpet.bfn_from": "carpet bombing only after 15 July (turn {turn})",
    "carpet.bfn_uses": "at most {uses} carpet bombings a game, one a turn",
    "carpet.bfn_before_moves": "the targets are chosen before any Allied unit moves",
    "carpet.bfn_cost": "a carpet bombing costs {points} Allied air points",
    "carpet.bfn_count": "choose {count} different target hexes",
    "carpet.bfn_land": "every target must be a land hex of the map",
    "carpet.bfn_contiguous": "the target hexes must be contiguous",
    # pending decisions
    "pending.decision": "a decision is pending: {prompt}",
    "pending.short": "a decision is pending",
    "pending.answer_only": "{action} is only an answer to a pending decision",
})

REFUSALS_MEMOIR = Catalogue("refusals.memoir", {
    # M44 p.5-6: cards, orders, moves
    "phase.card": "play a command card first, not {memoir_action}",
    "phase.order": "order units or end orders, not {memoir_action}",
    "phase.move": "move units or end movement, not {memoir_action}",
    "phase.battle": "battle, remove wire or end battles, not {memoir_action}",
    "phase.none": "no action possible in phase {memoir_phase}",
    "card.not_in_hand": "card {card} is not in {side}'s hand",
    "card.not_that_way": "{title} cannot be played that way",
    "order.no_unit": "no unit {unit} on the board",
    "order.already": "unit {unit} already has an order",
    "order.not_assignable": "the card cannot order unit {unit} (section, type or count)",
    "move.not_movable": "unit {unit} may not move now (not ordered or already moved)",
    "move.cannot_reach": "unit {unit} cannot reach {hex} (distance, terrain or units in the way)",
    "exit.refused": "only an ordered unit of the scenario's side on the enemy's edge row may "
                    "leave the board",
    # M44 p.9-13 battle
    "battle.no_unit": "no unit {unit} of {side}",
    "battle.no_target": "no unit to battle at {hex}",
    "battle.overrun_first": "unit {unit} must battle its overrun first (or give it up)",
    "wire.infantry_only": "only infantry on a wire hex may remove it",
    # why a unit may not battle (wargame.memoir.battle: can_battle, battle_dice)
    "why.no_order": "the unit has no order",
    "why.already_battled": "the unit has already battled",
    "why.ocean": "M44 Ocean: a unit in the ocean may not battle",
    "why.infantry_moved": "infantry that moved {moved} hexes may not battle",
    "why.gun_moved": "artillery moves or battles",
    "why.entered_terrain": "M44 Terrain: no battle on the turn the unit entered this terrain",
    "why.not_enemy": "the target is not an enemy unit",
    "why.out_of_range": "target out of range ({distance} hexes)",
    "why.adjacent_first": "a unit adjacent to an enemy must battle an adjacent unit",
    "why.no_sight": "no line of sight",
    "why.no_sight_saverne": "no line of sight (Saverne Gap: artillery may not fire over hills)",
    "why.rhine": "Arnhem special rules: infantry may not fire across the Rhine",
    "why.close_assault": "Close Assault: only adjacent targets",
    "why.no_dice": "terrain leaves no dice to roll",
    # cards' own steps
    "medics.choose": "choose a unit that has lost figures",
    "medics.not_damaged": "unit {unit} has not lost figures",
    "air.targets": "Air Power targets: up to 4 enemy units in adjacent hexes",
    "air.at_least_one": "choose at least one target",
    "air.phase": "choose Air Power targets or strike",
    "barrage.target": "Barrage targets one enemy unit",
    "barrage.phase": "choose the Barrage target",
    "pending.answer": "{side} must answer the pending {decision} decision with one of {options}",
})

REFUSALS_ACTION = Catalogue("refusals.action", {
    "game_over": "the game is over",
    "no_unit": "no unit {unit}",
    "not_action": "not an action: {action}",
    "not_campaign_action": "not an action of the campaign games: {error}",
    "not_memoir_action": "not a Memoir '44 action: {detail}",
    "not_legal": "{action} is not one of the legal actions (unexpected arguments?)",
    "not_hex_id": "{what} {hex} is not a hex id",
    "not_on_map": "{what} {hex} is not on the map",
    "not_hex_ids": "{targets} are not hex ids",
    "unknown_kind": "not an action: {data}; expected kind in {kinds}",
    "bad_fields": "action {data}: {error}",
    "field.whole_number": "{kind}: '{field}' must be a whole number, not {value}",
    "field.range": "{kind}: '{field}' must be between 0 and 1000",
    "field.short_text": "{kind}: '{field}' must be a short text (an id), not {value}",
    "field.id_list": "{kind}: '{field}' must be a list of ids, not {value}",
    "field.twice": "{kind}: '{field}' names the same id twice: {value}",
    # a Memoir '44 action's JSON form (wargame.memoir.actions.Action.from_dict, issue #32)
    "memoir.not_mapping": "not a Memoir '44 action: an action is a mapping, not {value}",
    "memoir.short_text": "not a Memoir '44 action: '{field}' must be a short text, not {value}",
    "memoir.whole_number": "not a Memoir '44 action: '{field}' must be a whole number, not "
                           "{value}",
    "memoir.hex": "not a Memoir '44 action: 'hex' must be two whole numbers [q, r], not {value}",
}, plurals={
    # counted (wargame.i18n Catalogue.plural): the datum ``count``
    "unknown_fields": ("{kind}: unknown field {fields}", "{kind}: unknown fields {fields}"),
    "memoir.unknown_fields": ("not a Memoir '44 action: unknown field {fields}",
                              "not a Memoir '44 action: unknown fields {fields}"),
})

TERMS = Catalogue("refusals.terms", {
    # sides (the ids of every game, issue #27)
    "side.allied": "allied",
    "side.axis": "axis",
    # the campaign games' phases (CN/OD 3.0)
    "phase.allied_movement": "Allied movement",
    "phase.allied_combat": "Allied combat",
    "phase.axis_movement": "Axis movement",
    "phase.axis_combat": "Axis combat",
    "phase.game_over": "game over",
    # the map's edges
    "edge.north": "north",
    "edge.south": "south",
    "edge.east": "east",
    "edge.west": "west",
    # terrain (scenarios/*/tables.yaml)
    "terrain.open": "open",
    "terrain.city": "city",
    "terrain.rough": "rough",
    "terrain.forest": "forest",
    "terrain.woods": "woods",
    "terrain.bocage": "bocage",
    "terrain.marsh": "marsh",
    "terrain.hill": "hill",
    "terrain.mountain": "mountain",
    "terrain.sea": "sea",
    "terrain.border": "border",
    "terrain.off the map": "off the map",
    # the hexes an action names
    "what.destination": "destination",
    "what.target": "target",
    "what.entry hex": "entry hex",
    "what.landing hex": "landing hex",
    "what.path hex": "path hex",
    "what.carpet bombing hex": "carpet bombing hex",
    # Memoir '44's phases and decisions
    "memoir_phase.card": "card",
    "memoir_phase.order": "order",
    "memoir_phase.move": "move",
    "memoir_phase.battle": "battle",
    "memoir_phase.medics": "medics",
    "memoir_phase.air": "air",
    "memoir_phase.barrage": "barrage",
    "decision.ambush": "ambush",
    "decision.retreat": "retreat",
    "decision.take_ground": "take_ground",
    "decision.keep": "keep",
    "decision.airdrop": "airdrop",
    "decision.ignore_flag": "ignore_flag",
    # the kinds of Memoir '44 actions a phase refuses (the phase.* refusals, issue #32)
    "memoir_action.accept_flags": "'accept_flags'",
    "memoir_action.air_strike": "'air_strike'",
    "memoir_action.air_target": "'air_target'",
    "memoir_action.airdrop": "'airdrop'",
    "memoir_action.ambush": "'ambush'",
    "memoir_action.barrage": "'barrage'",
    "memoir_action.battle": "'battle'",
    "memoir_action.end_battles": "'end_battles'",
    "memoir_action.end_moves": "'end_moves'",
    "memoir_action.end_orders": "'end_orders'",
    "memoir_action.exit": "'exit'",
    "memoir_action.hold": "'hold'",
    "memoir_action.ignore_flag": "'ignore_flag'",
    "memoir_action.keep": "'keep'",
    "memoir_action.medics": "'medics'",
    "memoir_action.move": "'move'",
    "memoir_action.no_ambush": "'no_ambush'",
    "memoir_action.order": "'order'",
    "memoir_action.play": "'play'",
    "memoir_action.remove_wire": "'remove_wire'",
    "memoir_action.retreat": "'retreat'",
    "memoir_action.skip_overrun": "'skip_overrun'",
    "memoir_action.take_ground": "'take_ground'",
})

RULES = Catalogue("refusals.rules", {
    # the rules a Memoir '44 refusal cites (wargame.memoir.actions R_*, pending, command,
    # battle, movement) and a room's: shown after the reason in the message bar (issue #32: the
    # sections' English titles on a Portuguese page). The Campanha da Normandia and Operação
    # Dragoon cite numbers only ("CN 4.1.1"), shown as they are.
    "M44 p.5 Game Play": "M44 p.5 Game Play",
    "M44 p.5 Play a Command Card": "M44 p.5 Play a Command Card",
    "M44 p.6 Issue Orders": "M44 p.6 Issue Orders",
    "M44 p.6 Move": "M44 p.6 Move",
    "M44 p.9 Battle": "M44 p.9 Battle",
    "M44 p.10 Combat Range": "M44 p.10 Combat Range",
    "M44 p.11 Line of Sight": "M44 p.11 Line of Sight",
    "M44 p.12 Retreat": "M44 p.12 Retreat",
    "M44 p.13 Take Ground": "M44 p.13 Take Ground",
    "M44 p.13 Armor Overrun": "M44 p.13 Armor Overrun",
    "M44 p.13 Draw a Command Card": "M44 p.13 Draw a Command Card",
    "M44 p.17 Terrain": "M44 p.17 Terrain",
    "M44 Appendix 4 Command Cards": "M44 Appendix 4 Command Cards",
    "M44 Air Power": "M44 Air Power",
    "M44 Ambush": "M44 Ambush",
    "M44 Barrage": "M44 Barrage",
    "M44 Medics & Mechanics": "M44 Medics & Mechanics",
    "M44 Overlord Omaha Beach": "M44 Overlord Omaha Beach",
    "M44 Recon": "M44 Recon",
    "M44 Sainte-Mere-Eglise special rules": "M44 Sainte-Mere-Eglise special rules",
    "M44 Sandbags": "M44 Sandbags",
    "M44 Wire": "M44 Wire",
    "rooms": "rooms",
})


def rule_text(rule: str) -> str:
    """The rule a refusal cites, in the current language (``RULES``); a rule not listed (the
    campaign games' numbers) as it is."""
    return RULES[rule] if rule in RULES else rule


TERM_KEYS = {"side": "side", "phase": "phase", "edge": "edge", "terrain": "terrain",
             "what": "what", "memoir_phase": "memoir_phase", "decision": "decision",
             "memoir_action": "memoir_action"}
"""Data keys whose values are English ids shown through ``TERMS`` (a value not listed there is
shown as it is)."""
_TERM_NAMES = frozenset(TERM_KEYS)

REFUSAL_CATALOGUES = {"campaign": REFUSALS_CAMPAIGN, "memoir": REFUSALS_MEMOIR,
                      "action": REFUSALS_ACTION}


_ENGLISH = {f"{area}.{mid}": text for area, cat in REFUSAL_CATALOGUES.items()
            for mid, text in cat.english.items()}


def refusal_template(key: str, data: Mapping[str, Any] | None = None,
                     english: bool = False) -> str:
    """The template of refusal ``key`` (``area.id``) in the current language (``english``: in
    English); a counted refusal's form for ``data["count"]``."""
    if (english or language() == "en") and key in _ENGLISH:
        return _ENGLISH[key]  # the common case, on the engines' paths that list legal actions
    area, _, mid = key.partition(".")
    return REFUSAL_CATALOGUES[area].counted(mid, (data or {}).get("count"), english)


def _shown(name: str, value: Any) -> Any:
    group = TERM_KEYS.get(name)
    if group is not None:
        tid = f"{group}.{value}"
        english = TERMS.english.get(tid)
        if english is not None:
            return english if language() == "en" else TERMS[tid]
    return value


def render_refusal(key: str, data: Mapping[str, Any]) -> str:
    """Refusal ``key`` with ``data`` filled in, in the current language. A template whose
    placeholders the data does not fill is shown unfilled rather than failing the refusal."""
    template = refusal_template(key, data)
    if not data:
        return template
    try:
        if _TERM_NAMES.isdisjoint(data):
            return template.format_map(data)
        return template.format_map({k: _shown(k, v) for k, v in data.items()})
    except (KeyError, IndexError, ValueError):
        return template


def english_refusal(key: str, data: Mapping[str, Any]) -> str:
    """Refusal ``key`` with ``data`` filled in, in English whatever the current language (the
    text of a Memoir '44 battle ``Reason``, ``wargame.errors``)."""
    template = refusal_template(key, data, english=True)
    return template.format_map(data) if data else template


LOADER = Catalogue("loader", {
    # the frame of every ScenarioError
    "frame": "{file}: field '{field}': expected {expected}",
    "frame.found": "{file}: field '{field}': expected {expected}, found {found}",
    # a file the loader read but cannot play, said in a sentence (wargame.memoir.m44)
    "frame.said": "{file}: field '{field}': {said}",
    # fields that are not a path in the data
    "field.(file)": "(file)",
    "field.(top level)": "(top level)",
    "field.(structure)": "(structure)",
    "field.(scenario)": "(scenario)",
    "field.(syntax)": "(syntax)",
    "field.line": "line {line}",
    "field.line_column": "line {line} column {column}",
    # reading files (wargame/scenario_errors.py)
    "file.too_large": "a file of at most {mb} MB",
    "file.existing": "an existing file",
    # read_bytes (issue #31): only regular files are opened
    "file.regular": "a regular file (this is a {kind})",
    "file.readable": "a file this program may read",
    "file.kind.folder": "folder",
    "file.kind.fifo": "named pipe (FIFO)",
    "file.kind.socket": "socket",
    "file.kind.device": "device",
    "file.kind.other": "special file",
    "file.utf8": "UTF-8 text",
    "yaml.valid": "valid YAML without aliases",
    "yaml.nesting": "YAML nested less deeply",
    "json.valid": "valid JSON",
    "json.nesting": "JSON nested less deeply",
    # scenarios (wargame/scenario.py)
    "scenario.drop_division": "the division whose hexes it drops on",
    "scenario.setup_terrain": "a land hex of the map that a {unit_type} unit may enter "
                              "({terrain} is not)",
    "scenario.setup_stacking": "at most {limit} units of a side a hex (stacking_limit, "
                               "CN/OD 4.1.1)",
    "scenario.setup_one_side": "units of one side only in a hex (CN/OD 4.1.1; "
                               "rules.setup_landings allows landings on enemy hexes)",
    "scenario.which": "a bundled scenario id or a scenario folder/file",
    "scenario.format": "the documented format (docs/data-formats.md)",
    # saves (wargame/saves.py)
    "save.legal_action": "a legal action when replayed",
    "save.object": "a JSON object (a wargame save)",
    "save.variant_list": "a list of variant names",
    "save.mapping": "a mapping",
    "save.max_actions": "at most {count} actions",
    "save.action_kind": "the action's kind (text)",
    "save.known_variants": "known variant names (BFN 19)",
    "save.scenario": "a bundled scenario and valid rule options",
    "save.fingerprint": "the position reached by replaying the actions (the file was edited "
                        "or damaged)",
    "save.dice_format": "no dice field in a save of format 2 (written before the dice had "
                        "versions: it replays with dice version 1)",
    "save.too_large": "a save of at most {mb} MB",
    "save.utf8": "UTF-8 JSON text",
    "save.json": "complete, valid JSON (is the file truncated?)",
    "save.existing": "an existing save file",
    "save.newer": "a save this version can read: this save was written by a newer wargame "
                  "(format {version}); this version reads up to format {newest}",
    # the data files' models (wargame/schema/common.py): pydantic's kinds of error
    "schema.missing": "this field (missing)",
    "schema.documented_key": "a documented key",
    "schema.documented_key_close": "a documented key (did you mean '{close}'? see "
                                   "docs/data-formats.md)",
    "schema.documented_key_misspelt": "a documented key (misspelt? see docs/data-formats.md)",
    "schema.whole_number": "a whole number",
    "schema.number": "a number",
    "schema.finite": "a number, not NaN or infinity",
    "schema.digits": "a number of at most {digits} digits",
    "schema.bool": "true or false",
    "schema.text": "a text string",
    "schema.list": "a list",
    "schema.mapping": "a mapping",
    "schema.one_of": "one of {options}",
    "schema.hex_id": "a four-digit hex id CCRR",
    "schema.pattern": "text matching {pattern}",
    "schema.ge": "a number >= {limit}",
    "schema.gt": "a number > {limit}",
    "schema.le": "a number <= {limit}",
    "schema.non_empty": "a non-empty value",
    "schema.non_empty_text": "a non-empty text",
    "schema.tag_among": "a {tag} among {tags}",
    "schema.tag_missing": "a mapping with a '{tag}'",
    # Memoir '44 scenarios (wargame/memoir/scenario.py)
    "memoir.scenario_id": "a scenario id among {ids}",
    # the data files' models' own checks (wargame/schema/*.py)
    "schema.nested_max": "data nested at most {depth} levels deep",
    "schema.nested_less": "data nested less deeply",
    "schema.iso_date": "an ISO date YYYY-MM-DD",
    "map.hex": "a hex of the map",
    "map.hex_in_hexes": "a hex id present in 'hexes'",
    "map.hex_ids": "a list of hex ids",
    "map.terrain_name": "a terrain name",
    "map.place_names": "place names of the map",
    "map.edges_of": "one of the map's edges {edges}",
    "tables.crt_bands": "a row for every 2d6 band {bands}",
    "tables.odds_labels": "odds labels 'N-1' or '1-N'",
    "tables.odds_order": "odds columns in increasing order, each once",
    "tables.row_cells": "{count} cells, one per column",
    "tables.cells": "{count} cells",
    "tables.result_codes": "result codes among {codes}",
    "tables.ranges_no_gaps": "ranges that follow each other without gaps",
    "tables.bound_high": "a bound >= low (or null: no upper bound)",
    "tables.strike_max": "a number >= strike_min",
    "tables.movement_class_of": "a movement class of {classes}",
    "tables.road_cost_every_class": "a road cost for every movement class ({classes})",
    "tables.terrain_spec": "a mapping with cost and/or combat",
    "tables.required": "this field is required",
    "units.unit_type": "a unit type",
    "units.reduced": "values between 0 and the full values",
    "units.unique_id": "a unique id",
    "units.unit_id": "a unit id",
    "setup.unit_id": "a unit id from units.yaml",
    "setup.placed_once": "a unit placed once",
    "setup.listed_once": "a unit listed once in setup and reinforcements",
    "rules.place_name": "a place name of the map",
    "rules.edge_name": "an edge name of the map",
    "rules.movement_class": "a movement class of tables.yaml",
    "rules.unit_type": "a unit type of tables.yaml",
    "rules.division": "a division of units.yaml",
    "rules.terrain_or_feature": "a terrain or feature of tables.yaml",
    "rules.terrain": "a terrain of tables.yaml",
    "rules.variants": "known BFN variant names",
    "meta.last_turn": "a whole number >= first",
    "meta.date": "a date YYYY-MM-DD",
    "m44.hex": "an .m44 hex [row 0-8 (0-16 Breakthrough), col] with row + col even",
    "m44.terrain": "a terrain name among {names}",
    "m44.both_sides": "a number for AXIS and for ALLIES",
    "m44.row_col_even": "row + col even (doubled columns)",
    "m44.board_column": "a column of the {board} board (0 to {last})",
    "m44.board_hex": "a hex of the {board} board (col 0 to {last})",
    "m44.board_row": "a row of the {board} board (0 to {last})",
    "m44.hex_once": "each hex listed once (one unit a hex, M44 p.6)",
    "m44.hexagon_count": "at most {count} hexagons, each hex listed once (the {board} board "
                         "has {count} hexes, M44 p.6)",
    "m44.other_side": "the other side than side_player1",
    "m44.objectives": "objectives in the top-level objectives list",
    "m44.layout": "a JSON object (an .m44 layout)",
    "m44.base_game": "terrain, obstacles and units with a known effect",
    "whatif.reinforcement_unit": "a reinforcement unit of the scenario ({units})",
    "whatif.reinforcement_unit_plain": "a reinforcement unit of the scenario",
    "whatif.turn_range": "a turn {first}..{last}",
    "whatif.map_edge": "a map edge ({edges})",
    "whatif.beach_names": "a non-empty list of beach names",
    "whatif.beach": "a beach (a place of the map)",
    "whatif.one_entry": "one new entry (hex, edge or beaches), not several",
    "whatif.some_change": "a new turn, hex, edge or beaches (nothing changes)",
    "whatif.scenario": "the study's scenario {scenario}",
    "whatif.unit_once": "each unit changed once",
    "whatif.counter_points": "a whole number of points from -20 to 20",
    "whatif.counter_change": "some points added to attack, defence or movement (nothing "
                             "changes)",
    "whatif.counter_match": "filters (side, types, units) that some unit of the scenario "
                            "matches",
    # map.json (wargame/operational/board.py)
    "board.json_object": "a JSON object",
    "board.hexes": "a non-empty object of hex id -> hex data",
    "board.hex_spec": "an object with a terrain",
    "board.string": "a string",
    "board.hexside": "an object with kind and between: [hex, hex]",
    "board.adjacent_pair": "two adjacent hexes",
    "board.hexside_kind": "a hexside kind such as river or canal",
    "board.road": "a list of at least two hex ids",
    "board.adjacent_to": "a hex adjacent to {hex}",
    "board.edges": "an object of edge name -> hex ids",
    "board.places": "an object of place name -> hex ids",
    "board.offmap_roads": "a list of off-map road links",
    "board.offmap_road": "an object with from, to and road_hexes (a whole number from 0 to 1000)",
    "board.names": "an object of English name -> the name in this language",
    # the BFN 19 variants' data (wargame/operational/variants.py)
    "variants.mapping": "a mapping of the BFN 19 variant data",
    "variants.names": "a list of names",
    "variants.sites": "a mapping beach -> {{name, hex, landing}}",
    "variants.beach_of": "one of the beaches {beaches}",
    "variants.string_hex": "a string (hex ids quoted)",
    "variants.default_beaches": "two beaches of mulberry_sites",
    "variants.dd_values": "a mapping beach -> d10 value",
    "variants.dd_value": "a beach with an integer d10 value",
    "variants.date": "a date (YYYY-MM-DD)",
    "variants.turn": "a turn number",
    "variants.column": "a hex column number",
    # history files (wargame/history.py)
    "history.from_folder": "a scenario loaded from a folder (to find its history.yaml)",
    "history.file_name": "a file name in the scenario folder",
    "history.text_missing": "a non-empty text (missing)",
    "history.first_day": "a first_day (history needs dates)",
    "history.language": "{lang} (the language in the file name)",
    "history.scenario_id": "the scenario id {scenario}",
    "history.turn_once": "each turn once",
    "history.only_turns_of": "only the turns of {source}",
    "history.every_turn_of": "an entry for every turn of {source}",
    "history.note_turn": "a note exactly where {source} has one (turn {turn})",
    "history.note": "a note exactly where {source} has one",
    "history.event_texts": "one text per event of turn {turn}, in order, with the same dates "
                           "{dates}",
    "history.places_of": "the places of {source}, in order: {places}",
    "history.top": "a mapping with provenance, sources and turns",
    "history.sources": "a non-empty list of works",
    "history.source": "a non-empty text naming a work",
    "history.city_entries": "city entries (kind: city)",
    "history.victory_city": "a {rule} victory city of the scenario ({cities})",
    "history.turns": "a list with one entry per turn",
    "history.turn_entry": "a mapping with turn, dates, title, text...",
    "history.turn_number": "a turn number {first}..{last}",
    "history.every_turn": "an entry for every turn {first}..{last}",
    "history.dates": "a mapping {{first, last}} of ISO dates",
    "history.turn_date": "{date} ({rule} turn {turn}, scenario turn_dates)",
    "history.events": "a non-empty list of {{date, text}}",
    "history.event": "a mapping {{date, text}}",
    "history.event_date": "a date within the turn, {first}..{last}",
    "history.cities": "a list of victory city names",
    "history.city_once": "each city once",
    "history.hexes_map": "a mapping {{city: [hex ids]}}",
    "history.in_part": "a city held only in part (it is in allied_cities)",
    "history.hex_list": "a non-empty list of hex ids among {hexes}",
    "history.city_hexes": "hex ids of {city} on the map ({hexes})",
    "history.part": "part of the city (all hexes held: list it in allied_cities)",
    "history.after": "a list of {{place, when, note}}",
    "history.after_item": "a mapping {{place, when, note}}",
    "history.not_yet": "a city not yet Allied at the end of turn {turn}",
}, plurals={
    # counted (wargame.i18n Catalogue.plural): the datum ``count``
    "schema.min_items": ("at least {count} item", "at least {count} items"),
    "schema.max_items": ("at most {count} item", "at most {count} items"),
})


def loader_text(key: str, **data: Any) -> str:
    """The loader catalogue's ``key`` with ``data``, in the current language."""
    text = LOADER.counted(key, data.get("count"))
    if not data and "{" not in text:
        return text
    try:
        return text.format(**{k: _shown(k, v) for k, v in data.items()})
    except (KeyError, IndexError, ValueError):
        return text
