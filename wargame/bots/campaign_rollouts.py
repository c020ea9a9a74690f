"""Rollouts of the hard Axis's movement plans (issue #34, item 1: "search where it pays").

At the start of each Axis movement phase the hard Axis may choose between a few *styles* of
plan, each a whole movement phase of ``HardPolicy`` with one setting changed (``STYLES``):

* ``plan``: the hard Axis as it is (garrisons, screen, greedy's moves for the rest);
* ``hold``: every threatened city topped up to its need (the believed attack at 1-1 or less
  after its terrain columns, CN 5.1.1-5.1.2), and the units left over only break contact from
  a hopeless owed attack (CN/OD 4.1.2): no attack groups, no advance;
* ``strike``: attack groups at 2:1 (greedy's attacking posture) instead of 3:1: an Allied unit
  destroyed gives the Axis 10 points (CN 11.2.2);
* ``fill``: ``plan`` with every threatened city topped up to its need.

Each style is played out ``worlds`` times: its movement phase, the Axis combat phase (the hard
player's) and the whole Allied turn that follows (``model``'s), to the next Axis movement
phase, and valued there in points (``rollout_value``: the margin of CN/OD 11.2 if the game
ended then, plus the material worth of the steps left, ``MATERIAL_VP``). The style of best
mean is played; ``plan`` wins ties.

**What it may know.** A rollout never reads what the Axis player may not: it plays on
``believed_game``, where every Allied counter has the mean values of its type (CN/OD 5.1.1:
the enemy's values are hidden, the counter mix is known), and with dice of its own, seeded
from the player's seed, the turn and the world's number (never the game's generator, whose
next rolls are the game's future). World ``w`` rolls the same dice for every style (common
random numbers), so the styles are compared on the same luck.

**Cost.** A count (``worlds``), not a clock, so the same position gives the same choice on
any machine; ``bench/campaign_history.py --cpu`` prints the CPU time per campaign
(docs/bots.md).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import json
from typing import TYPE_CHECKING

from wargame.bots.campaign_eval import MATERIAL_VP, _estimates, _kill_points, vp_margin
from wargame.dice import Dice
from wargame.operational.state_types import Phase

if TYPE_CHECKING:
    from wargame.operational.state import Game, State
    from wargame.protocol import Policy

__all__ = ["STYLES", "believed_game", "rollout_state", "rollout_value", "play_out"]

STYLES = ("plan", "hold", "strike", "fill")
MAX_ROLLOUT_ACTIONS = 5000  # a turn of Normandy is a few hundred actions


@functools.lru_cache(maxsize=8)
def believed_game(game: Game, side: str) -> Game:
    """``game`` as ``side`` may know it (CN/OD 5.1.1): every enemy counter's attack, defence
    and movement are the means of the enemy's counters of its type (``_estimates``, full and
    reduced), rounded; ``side``'s own counters, the board, tables and rules are the game's."""
    est = _estimates(game)
    units = {}
    for uid, d in game.units.items():
        if d.side == side:
            units[uid] = d
            continue
        a, df, mv = est[(d.side, d.type, False)]
        ra, rd, _ = est[(d.side, d.type, True)]
        units[uid] = dataclasses.replace(d, attack=round(a), defence=round(df),
                                         movement=round(mv), reduced_attack=round(ra),
                                         reduced_defence=round(rd))
    twin = copy.copy(game)
    twin.units = units
    return twin


def world_seed(seed: int, turn: int, world: int) -> int:
    """The dice seed of rollout world ``world`` of ``turn`` (a stable hash, not Python's)."""
    text = f"campaign-rollout:{seed}:{turn}:{world}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def rollout_state(state: State, side: str, seed: int) -> State:
    """A copy of ``state`` on ``believed_game(state.game, side)`` with fresh dice of ``seed``:
    the position as ``side`` knows it, its future rolls not the game's."""
    twin = state.clone()
    twin.game = believed_game(state.game, side)
    twin.dice = Dice(seed, state.dice.version)  # the clone's position caches start empty
    return twin


def rollout_value(state: State, side: str) -> float:
    """What the position is worth to ``side`` in points: the CN/OD 11.2 margin if the game
    ended now (``vp_margin``), each side's steps left at their material worth
    (``MATERIAL_VP``), and a reduced unit's lost step at half the points its destruction
    would give the enemy."""
    kill = _kill_points(state.game)
    value = vp_margin(state, side)
    for uid, us in state.units.items():
        if us.status == "eliminated":
            continue
        owner = state.side_of(uid)
        sign = 1.0 if owner == side else -1.0
        steps = 1 if us.reduced else 2
        value += sign * steps * MATERIAL_VP.get(owner, 2.0)
        if us.reduced:
            value -= sign * kill[owner] / 2
    return value


def play_out(state: State, side: str, mover: Policy, rest: Policy, model: Policy) -> State:
    """Play ``state`` in place from ``side``'s movement phase: ``mover`` plays that phase,
    ``rest`` the side's later phases and decisions, ``model`` the other side, until ``side``'s
    next movement phase (or the end of the game)."""
    turn = state.turn
    movement = Phase.AXIS_MOVEMENT if side == "axis" else Phase.ALLIED_MOVEMENT
    n = 0
    while not state.is_terminal and n < MAX_ROLLOUT_ACTIONS:
        if state.turn != turn and state.phase == movement and state.pending is None:
            break
        actor = state.side_to_act
        if actor is None:
            break
        if actor == side:
            policy = mover if state.turn == turn and state.phase == movement else rest
        else:
            policy = model
        state.apply(policy.choose(state))
        n += 1
    return state


def phase_key(state: State) -> tuple:
    """The key of the current phase in a game: the seed, the turn, the phase, and the log up
    to the last End phase (the actions before this phase began, or fewer)."""
    log = state.action_log
    start = len(log)
    while start > 0 and log[start - 1].get("kind") != "end_phase":
        start -= 1
    tail = json.dumps(log[start - 1], sort_keys=True) if start else ""
    return (state.seed, state.turn, str(state.phase), start, tail)
