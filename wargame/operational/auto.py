"""Automatic players for the campaign engine.

``auto_answer`` answers a pending decision sensibly (keep the strongest units, retreat away
from the enemy, advance when it is safe). ``RandomPolicy`` plays random legal actions with a
seeded generator of its own (never the game's dice), so a bot game replays exactly from the
action log.
"""

from __future__ import annotations

import random

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

__all__ = ["auto_answer", "RandomPolicy", "play_random_game", "play_policies"]


def _value(state: State, uid: str) -> int:
    return state.attack_of(uid) + state.defence_of(uid)


def auto_answer(state: State) -> Action:
    """A sensible answer to the pending decision."""
    d = state.pending
    if d is None:
        raise ValueError("no decision is pending")
    options = list(d.options)
    if d.kind == "defence":
        return max(options, key=lambda o: (o.air, len(o.artillery)))
    if d.kind == "loss":
        return min(options, key=lambda o: (_value(state, o.unit), o.unit))
    if d.kind in ("emp_defender", "emp_attacker"):
        return min(options, key=lambda o: (sum(_value(state, u) for u in o.units), o.units))
    if d.kind == "retreat":
        side = state.side_of(d.unit)
        enemy = state.occupied_by(state.other(side))

        def score(o: Retreat):
            if not o.path and not o.edge:
                return (0, 0, "")  # staying is best when allowed
            if o.edge:
                return (2, 0, o.edge)
            last = o.path[-1]
            from wargame.hexgrid import Hex

            h = Hex.from_id(last)
            near = min((h.distance(e) for e in enemy), default=99)
            return (1 if len(o.path) == 1 else 3, -near, last)

        return min(options, key=score)
    if d.kind == "advance":
        advances = [o for o in options if isinstance(o, Advance) and len(o.path) == 1]
        return advances[0] if advances else EndAdvance()
    return options[0]


class RandomPolicy:
    """Random legal play, biased towards ending phases so games finish."""

    def __init__(self, seed: int = 0, move_budget: int = 6, attack_probability: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.move_budget = move_budget
        self.attack_probability = attack_probability
        self._moves_this_phase = 0
        self._phase_key = None

    def choose(self, state: State) -> Action:
        if state.pending is not None:
            return auto_answer(state)
        key = (state.turn, state.phase)
        if key != self._phase_key:
            self._phase_key = key
            self._moves_this_phase = 0
        if state.phase.is_movement:
            action = self._movement(state)
            if action is not None:
                return action
            return EndPhase()
        actions = state.legal_actions()
        end = [a for a in actions if isinstance(a, EndPhase)]
        attacks = [a for a in actions if isinstance(a, Attack | Bombard)]
        if attacks and (not end or self.rng.random() < self.attack_probability):
            return self.rng.choice(attacks)
        if end:
            return end[0]
        return self.rng.choice(actions)

    def _movement(self, state: State) -> Action | None:
        """A random move, entry or exit, drawing the unit first (cheap on big maps)."""
        side = state.phase.side
        waiting = [u for u, us in sorted(state.units.items())
                   if us.status == "waiting" and state.side_of(u) == side and state.entry_hexes(u)]
        if waiting and self._moves_this_phase < self.move_budget * 3:
            uid = self.rng.choice(waiting)
            hexes = state.legal_entry_hexes(uid)
            if hexes:
                self._moves_this_phase += 1
                return Enter(uid, self.rng.choice(hexes).id)
        if self._moves_this_phase >= self.move_budget:
            return None
        movers = [u for u, us in sorted(state.units.items())
                  if us.status == "on_map" and state.side_of(u) == side and state.move_refusal(u) is None]
        self.rng.shuffle(movers)
        for uid in movers[:10]:
            options: list[Action] = [Move(uid, h.id) for h in sorted(state.legal_destinations(uid))]
            options += state.exit_actions(uid)
            if options:
                self._moves_this_phase += 1
                return self.rng.choice(options)
        return None


def play_policies(state: State, policies: dict[str, object], max_actions: int = 200000,
                  on_action=None) -> State:
    """Play until the game ends, each side's actions (and the decisions it must answer)
    chosen by its policy (anything with ``choose(state) -> Action``)."""
    n = 0
    while not state.is_over and n < max_actions:
        action = policies[state.side_to_act].choose(state)
        state.apply(action)
        n += 1
        if on_action is not None:
            on_action(state, action)
    return state


def play_random_game(state: State, seed: int = 0, max_actions: int = 100000, on_action=None) -> State:
    policy = RandomPolicy(seed)  # one policy for both sides, as before (its own generator)
    return play_policies(state, {"allied": policy, "axis": policy}, max_actions, on_action)

