"""Automatic answers and random play for the campaign games (CN, OD).

``auto_answer`` answers a pending decision sensibly (keep the strongest units, retreat away
from the enemy, advance when it is safe). ``RandomPolicy`` plays random legal actions. Its
generator is derived from its seed and the length of the game's action log at each call, and
its move budget is counted in the log, so its choice depends on the position alone (never on
what it chose before an undo) and never touches the game's dice.
"""

from __future__ import annotations

import random
from typing import Any

from wargame.hexgrid import Hex
from wargame.operational.actions import (
    Action,
    Advance,
    Attack,
    Bombard,
    EndAdvance,
    EndPhase,
    Enter,
    Move,
    Retreat,
)
from wargame.operational.state import State

__all__ = ["auto_answer", "RandomPolicy", "moves_this_phase"]


def _value(state: State, uid: str) -> int:
    return state.attack_of(uid) + state.defence_of(uid)


def auto_answer(state: State) -> Action:
    """A sensible answer to the pending decision."""
    d = state.pending
    if d is None:
        raise ValueError("no decision is pending")
    options: list[Any] = list(d.options)  # the decision kind's own option class
    if d.kind == "defence":
        return max(options, key=lambda o: (o.air, len(o.artillery)))
    if d.kind == "loss":
        return min(options, key=lambda o: (_value(state, o.unit), o.unit))
    if d.kind in ("emp_defender", "emp_attacker"):
        return min(options, key=lambda o: (sum(_value(state, u) for u in o.units), o.units))
    if d.kind == "retreat":
        if d.unit is None:
            raise ValueError("a retreat decision names the unit that retreats")
        side = state.side_of(d.unit)
        enemy = state.occupied_by(state.other(side))

        def score(o: Retreat):
            if not o.path and not o.edge:
                return (0, 0, "")  # staying is best when allowed
            if o.edge:
                return (2, 0, o.edge)
            h = Hex.from_id(o.path[-1])
            near = min((h.distance(e) for e in enemy), default=99)
            return (1 if len(o.path) == 1 else 3, -near, o.path[-1])

        return min(options, key=score)
    if d.kind == "advance":
        advances = [o for o in options if isinstance(o, Advance) and len(o.path) == 1]
        return advances[0] if advances else EndAdvance()
    return options[0]


def moves_this_phase(state: State) -> int:
    """Moves and entries in the action log since the current phase began."""
    n = 0
    for data in reversed(state.action_log):
        kind = data.get("kind")
        if kind == "end_phase":
            break
        if kind in ("move", "enter", "exit"):
            n += 1
    return n


class RandomPolicy:
    """Random legal play, biased towards ending phases so games finish."""

    def __init__(self, seed: int = 0, move_budget: int = 6, attack_probability: float = 0.5) -> None:
        self.seed = int(seed)
        self.move_budget = move_budget
        self.attack_probability = attack_probability

    def _rng(self, state: State) -> random.Random:
        # a stable function of (seed, position in the log): no memory between calls
        return random.Random(self.seed * 1_000_003 + len(state.action_log))

    def choose(self, state: State) -> Action:
        if state.pending is not None:
            return auto_answer(state)
        rng = self._rng(state)
        if state.phase.is_movement:
            action = self._movement(state, rng, moves_this_phase(state))
            return action if action is not None else EndPhase()
        actions = state.legal_actions()
        end = [a for a in actions if isinstance(a, EndPhase)]
        attacks = [a for a in actions if isinstance(a, Attack | Bombard)]
        if attacks and (not end or rng.random() < self.attack_probability):
            return rng.choice(attacks)
        if end:
            return end[0]
        return rng.choice(actions)

    def _movement(self, state: State, rng: random.Random, moved: int) -> Action | None:
        """A random move, entry or exit, drawing the unit first (cheap on big maps)."""
        side = state.phase.side
        waiting = [u for u, us in sorted(state.units.items())
                   if us.status == "waiting" and state.side_of(u) == side and state.entry_hexes(u)]
        if waiting and moved < self.move_budget * 3:
            uid = rng.choice(waiting)
            hexes = state.legal_entry_hexes(uid)
            if hexes:
                return Enter(uid, rng.choice(hexes).id)
        if moved >= self.move_budget:
            return None
        movers = [u for u, us in sorted(state.units.items())
                  if us.status == "on_map" and state.side_of(u) == side
                  and state.move_refusal(u) is None]
        rng.shuffle(movers)
        for uid in movers[:10]:
            options: list[Action] = [Move(uid, h.id) for h in sorted(state.legal_destinations(uid))]
            options += state.exit_actions(uid)
            if options:
                return rng.choice(options)
        return None
