"""Playing games with computer players, for every game through the protocol.

A policy is anything with ``choose(state) -> action`` (``wargame.protocol.Policy``) whose
choice depends on the position alone, so undo, replay and rooms see a bot play the same way on
the same position. ``make_policy`` names the bundled ones; ``play`` runs a game to its end (or
a bound) with one policy per side. The dashboard's computer opponent, ``wargame autoplay`` and
the analysis studies all use these two functions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wargame.bots.campaign_random import RandomPolicy
from wargame.bots.greedy import GreedyPolicy
from wargame.bots.memoir_easy import MemoirEasyPolicy
from wargame.bots.memoir_random import MemoirRandomPolicy
from wargame.bots.memoir_search import MemoirSearchPolicy
from wargame.protocol import GameDefinition, GameState, Policy

__all__ = ["POLICY_NAMES", "make_policy", "play", "play_policies", "play_random_game"]

def _policy_names() -> dict[str, tuple[str, ...]]:
    from wargame.registry import FAMILIES

    return {f.kind: f.policies for f in reversed(FAMILIES)}


POLICY_NAMES: dict[str, tuple[str, ...]] = _policy_names()
"""Each game family's computer players (``wargame.registry``), the default first."""


def make_policy(game: GameDefinition, name: str, seed: int = 0) -> Policy:
    """The policy ``name`` of ``game``'s family (``wargame.registry``)."""
    from wargame.registry import family_of_game

    return family_of_game(game).make_policy(game, name, seed)


def campaign_policy(game: GameDefinition, name: str, seed: int = 0) -> Policy:
    if name == "hard":
        from wargame.bots.campaign_hard import HardPolicy

        return HardPolicy(seed)
    return GreedyPolicy() if name == "greedy" else RandomPolicy(seed)


def postured_greedy(postures: dict[str, Any]) -> Policy:
    """The greedy player under a study's postures (side -> (attack, defence) weights)."""
    from wargame.bots.greedy import Posture

    return GreedyPolicy({s: Posture(float(p[0]), float(p[1])) for s, p in postures.items()})


def memoir_policy(game: GameDefinition, name: str, seed: int = 0) -> Policy:
    if name == "easy":
        return MemoirEasyPolicy(seed)
    if name == "normal":
        return MemoirSearchPolicy(seed)
    if name == "hard":
        from wargame.bots.memoir_hard import MemoirHardPolicy

        return MemoirHardPolicy(seed)
    return MemoirRandomPolicy(seed)


def play(state: GameState, policies: dict[str, Policy], max_actions: int = 200_000,
         on_action: Callable[[GameState, Any], None] | None = None) -> GameState:
    """Play until the game ends (or ``max_actions``), each side's actions and the decisions
    it must answer chosen by its policy. ``state`` is played in place and returned."""
    n = 0
    while not state.is_terminal and n < max_actions:
        side = state.side_to_act
        if side is None:
            break
        action = policies[side].choose(state)
        state.apply(action)
        n += 1
        if on_action is not None:
            on_action(state, action)
    return state


play_policies = play  # the name the campaign code used


def play_random_game(state: GameState, seed: int = 0, max_actions: int = 100_000,
                     on_action: Callable[[GameState, Any], None] | None = None) -> GameState:
    """Both sides played by one random policy of ``seed`` (its own generator, never the
    game's dice, so the game replays from its log)."""
    policy = make_policy(state.game, "random", seed)
    return play(state, dict.fromkeys(state.game.sides, policy), max_actions, on_action)
