"""One entry per game family (issue #27): what differs between the campaigns and Memoir '44 above
the engines, so that serve, seats, rooms, saves, studies, policies and the CLI dispatch through
this table instead of asking which game they hold.

A ``GameFamily`` says which scenario ids it owns, how to open a game of it, which computer
players it has (the first is the default), the words its sides are called by (message ids of
``wargame.ui.text.SIDE_WORDS``), how to read the computer's side from a URL or a flag, and, by
dotted name (the registry imports no front end: ``wargame.ui`` resolves them), its solo
dashboard, its seat store and its replay store. A new game family is one ``register`` call
(tests/test_registry.py registers a tiny test-only game and plays it in a room, in
``wargame autoplay`` and through a save).

Pure: no UI or bot import at module level.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from wargame.paths import MEMOIR_PREFIX

__all__ = ["GameFamily", "FAMILIES", "register", "unregister", "family_of", "family_of_game",
           "family_of_target", "resolve", "level_of"]


@dataclass(frozen=True)
class GameFamily:
    kind: str                                 # ``game.kind`` of its games
    owns: Callable[[str], bool]               # does a scenario id belong to this family?
    opener: str                               # "module:function"(scenario_id, variants, options)
    policies: tuple[str, ...]                 # its computer players, the default first
    policy_factory: str                       # "module:function"(game, name, seed) -> Policy
    dashboard: str = ""                       # "module:Class"(scenario_id, seed, computer, lang)
    seat_store: str = ""                      # "module:Class"(room, token, viewer, lang)
    replay_store: str = ""                    # "module:function"(room, lang) -> a read-only store
    store_dashboard: str = ""                 # "module:function"(store) -> its dashboard
    describer: str = ""                       # "module:function"(state, action dict) -> words
    computer_sides: Mapping[str, str] = field(default_factory=dict)  # URL word -> game side
    default_seed: int = 1944
    takes_variants: bool = False              # Battle for Normandy variants (BFN 19)
    window_title: str = "wargame"             # the served page's title
    scenarios: str = ""                       # "module:function"() -> [{id, game, title}] of
                                              # a family whose scenarios are not bundled files
    whatif: bool = False                      # what-if files change its scenarios (studies)
    scenario_columns: bool = False            # studies count losses by nation and the victory
                                              # cities that fell (its games carry a CN/OD
                                              # Scenario: rule("victory"), units' nations)
    postured: str = ""                        # "module:function"(postures) -> the policy that
                                              # plays a study's greedy postures (side -> pair)
    claims_target: str = ""                   # "module:function"(target) -> bool: is this
                                              # ``wargame scenario validate`` target its data?
    validator: str = ""                       # "module:function"(target) -> (title, units,
                                              # hexes), or raises ScenarioError
    renamed_sides: str = ""                   # "module:function"(plain JSON) -> the same with
                                              # its side words of before issue #27 renamed to
                                              # today's ids (old saves, rooms, state files)

    def rename_sides(self, data: Any) -> Any:
        """``data`` with this family's old side words as today's ids (unchanged if none)."""
        return resolve(self.renamed_sides)(data) if self.renamed_sides else data
    # the difficulty each computer player stands for, in plain words for a class (issue #33:
    # principiante, normal, difícil): policy -> level id (``wargame.ui.text.PLAYER_WORDS``
    # "level.<id>"); one table for the new-game panel and the rooms' landing page
    levels: Mapping[str, str] = field(default_factory=dict)

    def open(self, scenario_id: str, variants: tuple[str, ...] = (),
             options: dict[str, Any] | None = None) -> Any:
        return resolve(self.opener)(scenario_id, tuple(variants), options)

    def make_policy(self, game: Any, name: str, seed: int = 0) -> Any:
        """The computer player ``name``; a name may carry settings after a colon
        (``hard:worlds=2``), which the family's factory checks."""
        if name.partition(":")[0] not in self.policies:
            raise ValueError(f"no computer player {name!r} for {self.kind} games; known: "
                             f"{', '.join(self.policies)}")
        return resolve(self.policy_factory)(game, name, seed)


def resolve(dotted: str) -> Any:
    """The object named ``module:name``."""
    module, _, name = dotted.partition(":")
    return getattr(importlib.import_module(module), name)


FAMILIES: list[GameFamily] = [
    GameFamily(
        kind="memoir", owns=lambda sid: str(sid).startswith(MEMOIR_PREFIX),
        opener="wargame.games:open_memoir", policies=("random", "easy", "normal", "hard"),
        policy_factory="wargame.bots.play:memoir_policy",
        dashboard="wargame.ui.memoir:memoir_dashboard",
        seat_store="wargame.ui.seats:MemoirSeatStore",
        replay_store="wargame.ui.seats:memoir_replay_store",
        store_dashboard="wargame.ui.memoir:dashboard_of_store",
        describer="wargame.ui.describe:describe_memoir_action",
        computer_sides={"axis": "axis", "allied": "allied", "allies": "allied"},
        claims_target="wargame.memoir.scenario:is_memoir_target",
        renamed_sides="wargame.memoir.board:renamed_sides",
        validator="wargame.memoir.scenario:check_memoir",
        default_seed=44, window_title="wargame: Memoir '44",
        levels={"easy": "beginner", "normal": "normal", "hard": "hard"}),
    GameFamily(
        kind="campaign", owns=lambda sid: True,  # every other bundled id (the last entry)
        opener="wargame.games:open_campaign", policies=("greedy", "random", "hard"),
        policy_factory="wargame.bots.play:campaign_policy",
        dashboard="wargame.ui.campaign:campaign_dashboard",
        seat_store="wargame.ui.seats:CampaignSeatStore",
        replay_store="wargame.ui.seats:campaign_replay_store",
        store_dashboard="wargame.ui.campaign:dashboard_of_store",
        describer="wargame.ui.describe:describe_campaign_action",
        computer_sides={"axis": "axis", "allied": "allied", "allies": "allied"},
        whatif=True, scenario_columns=True, postured="wargame.bots.play:postured_greedy",
        validator="wargame.games:validate_campaign",
        default_seed=1944, takes_variants=True, window_title="wargame: campaign dashboard"),
]
"""Searched in order: the first family that owns a scenario id is its family."""


def register(family: GameFamily) -> GameFamily:
    """Add a family, searched before the bundled ones (its ``owns`` decides)."""
    FAMILIES.insert(0, family)
    return family


def unregister(family: GameFamily) -> None:
    if family in FAMILIES:
        FAMILIES.remove(family)


def family_of(scenario_id: str) -> GameFamily:
    """The family of a scenario id (``normandy``, ``memoir44-1``...)."""
    for family in FAMILIES:
        if family.owns(str(scenario_id)):
            return family
    raise ValueError(f"no game family owns scenario {scenario_id!r}")  # pragma: no cover


def family_of_game(game: Any) -> GameFamily:
    """The family of a game definition (by its ``kind``)."""
    for family in FAMILIES:
        if family.kind == getattr(game, "kind", None):
            return family
    raise ValueError(f"no game family of kind {getattr(game, 'kind', None)!r}")


def family_of_target(target: Any) -> GameFamily:
    """The family whose data a ``wargame scenario validate`` target (an id or a file) is: the
    first that claims it, else the family of the id (the campaigns own every other one)."""
    for family in FAMILIES:
        if family.claims_target and resolve(family.claims_target)(target):
            return family
    return family_of(str(target))


def level_of(policy: str) -> str | None:
    """The plain-words difficulty a computer player stands for (``GameFamily.levels``:
    "easy" -> "beginner"), or None for a player without one."""
    for family in FAMILIES:
        if policy in family.levels:
            return family.levels[policy]
    return None
