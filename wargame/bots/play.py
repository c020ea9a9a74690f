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
    """The campaign player ``name``. ``hard`` may carry its search settings after a colon,
    ``hard:worlds=2,model=greedy,styles=plan+hold`` (``HardPolicy``: rollouts per style at
    each Axis movement phase, the player that stands for the Allies in them, the styles
    compared; docs/bots.md)."""
    base, _, settings = name.partition(":")
    if base == "hard":
        from wargame.bots.campaign_hard import HardPolicy

        return HardPolicy(seed, **_hard_settings(settings))
    if settings:
        raise ValueError(f"the {base!r} player takes no settings (got {settings!r:.60})")
    return GreedyPolicy() if base == "greedy" else RandomPolicy(seed)


def _hard_settings(text: str) -> dict[str, Any]:
    """``worlds=2,model=greedy,styles=plan+hold`` as ``HardPolicy``'s keyword arguments."""
    out: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, sep, value = item.partition("=")
        if not sep or key not in ("worlds", "model", "styles", "margin"):
            raise ValueError(f"hard player setting {item!r:.40}: expected worlds=N, model=hard|"
                             "greedy, styles=plan+hold+strike+fill or margin=POINTS")
        if key == "worlds":
            if not value.isdigit() or not 0 <= int(value) <= 16:
                raise ValueError(f"worlds: expected a whole number 0-16, got {value!r:.20}")
            out[key] = int(value)
        elif key == "margin":
            try:
                out[key] = float(value)
            except ValueError:
                raise ValueError(f"margin: expected points, got {value!r:.20}") from None
            if not 0 <= out[key] < 1000:
                raise ValueError(f"margin: expected points 0-1000, got {value!r:.20}")
        elif key == "styles":
            out[key] = tuple(value.split("+"))
        else:
            out[key] = value
    return out


def postured_greedy(postures: dict[str, Any]) -> Policy:
    """The greedy player under a study's postures (side -> (attack, defence) weights)."""
    from wargame.bots.greedy import Posture

    return GreedyPolicy({s: Posture(float(p[0]), float(p[1])) for s, p in postures.items()})


def memoir_policy(game: GameDefinition, name: str, seed: int = 0) -> Policy:
    if ":" in name:
        raise ValueError(f"Memoir '44 players take no settings by name (got {name!r:.60})")
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
