"""Every bundled game behind one door: ``open_game("normandy")``, ``open_game("memoir44-1")``.

Callers above the engines (dashboards, saves, bots, the CLI, rooms) make games here and then
use only the protocol of ``wargame.protocol``; they never ask which engine they hold.
"""

from __future__ import annotations

from typing import Any

from wargame.paths import MEMOIR_PREFIX
from wargame.protocol import GameDefinition

__all__ = ["open_game", "open_memoir", "open_campaign", "MEMOIR_PREFIX", "is_memoir_id"]



def is_memoir_id(scenario_id: str) -> bool:
    return str(scenario_id).startswith(MEMOIR_PREFIX)


def open_game(scenario_id: str, variants: tuple[str, ...] | list[str] = (),
              options: dict[str, Any] | None = None) -> GameDefinition:
    """The game definition for a bundled scenario id (``wargame scenario list``), opened by
    its family (``wargame.registry``).

    ``variants`` are the Battle for Normandy variant rules of a campaign (BFN 19);
    ``options`` are Memoir '44 rule options. Unknown ids raise ``ValueError`` naming the
    known ones (via the engines' loaders).
    """
    from wargame.registry import family_of

    scenario_id = str(scenario_id)
    return family_of(scenario_id).open(scenario_id, tuple(variants), options)


def open_memoir(scenario_id: str, variants: tuple[str, ...] = (),
                options: dict[str, Any] | None = None) -> GameDefinition:
    """A Memoir '44 game (the registry's opener for ``memoir44-*`` ids)."""
    if variants:
        raise ValueError("Battle for Normandy variants apply to the campaign games only")
    from wargame.memoir.game import MemoirGame

    return MemoirGame.from_scenario(scenario_id[len(MEMOIR_PREFIX):], **(options or {}))


def open_campaign(scenario_id: str, variants: tuple[str, ...] = (),
                  options: dict[str, Any] | None = None) -> GameDefinition:
    """A campaign of the CN/OD family (the registry's opener for the other ids)."""
    if options:
        raise ValueError(f"unknown rule options for a campaign: {sorted(options)}")
    from wargame.operational.state import Game

    return Game(scenario_id, variants=variants)


def validate_campaign(target: Any) -> tuple[str, int, int]:
    """``wargame scenario validate`` of a campaign scenario (an id or a YAML file): its title,
    units and hexes, or a ``ScenarioError`` naming the file and field."""
    from wargame.history import check_scenario

    scenario = check_scenario(target)
    return scenario.title, len(scenario.units), len(scenario.board.hexes)


def game_from_json(kind: str, scenario_id: str, options: dict[str, Any]) -> GameDefinition:
    """The inverse of ``game.kind, game.scenario_id, game.options_json()``."""
    return open_game(scenario_id, variants=tuple(options.get("variants") or ()),
                     options=dict(options.get("options") or {}) or None)
