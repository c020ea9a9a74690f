"""Helpers of the rooms tests (importable as ``tests.rooms.roomkit``): one game opener per
process (game definitions are immutable, so the rooms of every test share them), and a way to
drive a room with a computer policy through the seats' tokens."""

from __future__ import annotations

import json
from typing import Any

from wargame.bots.play import make_policy
from wargame.games import open_game
from wargame.rooms import Room

_GAMES: dict[tuple[str, tuple[str, ...]], Any] = {}


def opener(game_id: str, variants: tuple[str, ...]) -> Any:
    """``open_game`` plus the dashboard's synthetic ``demo``."""
    key = (game_id, tuple(variants))
    if key not in _GAMES:
        if game_id == "demo":
            from wargame.operational.state import Game
            from wargame.ui.demo import demo_scenario

            _GAMES[key] = Game(demo_scenario(), variants=variants)
        else:
            _GAMES[key] = open_game(game_id, variants)
    return _GAMES[key]


def token_to_act(room: Room) -> str:
    """The token of the seat whose side must act now."""
    with room.read() as state:
        side = state.side_to_act
    seat = room.seat_of_side(side)
    assert seat is not None, f"no seat for {side!r}"
    return seat.token


def play(room: Room, n: int, policy_name: str | None = None, until=None) -> int:
    """Play up to ``n`` actions through the seats' tokens with a policy (greedy in campaigns,
    random in Memoir '44); stop early when ``until(state)`` is true. Returns actions played."""
    name = policy_name or ("greedy" if room.game.kind == "campaign" else "random")
    policy = make_policy(room.game, name, room.seed)
    for i in range(n):
        state = room.state()
        if state.is_terminal or (until is not None and until(state)):
            return i
        action = policy.choose(state)
        room.act(token_to_act(room), action, expected_version=room.version)
    return n


def fingerprint(state: Any) -> str:
    return json.dumps(state.fingerprint(), sort_keys=True)
