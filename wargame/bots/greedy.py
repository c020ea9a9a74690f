"""A computer opponent for the campaign games (Campanha da Normandia, Operação Dragoon).

``GreedyPolicy`` plays one side (or both) with plain, explainable heuristics, so a class can
play the Allies against the computer's Germans, or watch two bots replay the campaign:

* **Combat**: every legal attack is valued with the exact result distribution of the column
  it would be resolved at (``State.preview_attack``: terrain, encirclement, divisions, naval
  support, turn rules) as expected losses in steps, the defender's minus the attacker's.
  Attacks worth it are made best first; artillery in range joins, and air points are added
  when they buy a better expected result. Units engaged this phase that must attack
  (CN/OD 4.1.2) attack even at poor odds, at the best target they have.
* **Movement**: enemy hexes are ranked by the victory points near them and their weakness;
  for each, the units that can reach a hex next to it are gathered until the summed attack
  beats the defence by the side's required ratio plus one per terrain column; those units
  move in (entering the zone of engagement commits them, 4.1.2). Every other unit moves
  towards the nearest objective (enemy units and victory cities it does not hold) without
  entering an enemy zone, preferring terrain that gives columns in defence, and a unit
  holding a victory city of its side stays there.
* **Carpet bombing** (CN 6.3): the Allies use it on the hex whose seven hexes hold the most
  German units, when there are at least three.
* **Decisions** (losses, retreats, advances, EMP, defence declarations) are answered by
  ``auto_answer``.

The policy is deterministic: no randomness of its own, so a bot game replays exactly from its
seed and action log. It knows nothing the player at the table would not see.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from wargame.bots.air_plan import BOT_AIR_CHARGE, optimise_air, planned_attack, value_table
from wargame.bots.campaign_random import auto_answer
from wargame.hexgrid import Hex
from wargame.operational.actions import (
    Action,
    Attack,
    Bombard,
    CarpetBomb,
    EndPhase,
    Enter,
    IllegalAction,
    Move,
)
from wargame.operational.combat import assess_bombardment, terrain_columns
from wargame.operational.state import State
from wargame.operational.tables import split_result

__all__ = ["GreedyPolicy", "Posture", "expected_steps", "map_hex"]


@dataclass(frozen=True)
class Posture:
    """How boldly a side plays."""

    engage_ratio: float  # summed attack / defence needed to move in next to an enemy hex
    attack_threshold: float  # expected steps gained needed to attack when not forced


ATTACKER = Posture(engage_ratio=2.0, attack_threshold=0.15)
DEFENDER = Posture(engage_ratio=3.0, attack_threshold=0.4)

# Expected losses in steps (a full-strength unit has two, a reduced one one) per result code
# of the defender (first word) and attacker (second word); CN/OD 5.1.6. A retreat is worth
# half a step (ground given up, maybe a worse hex).
_RETREAT = 0.5


def map_hex(state: State, uid: str) -> Hex:
    """The hex of ``uid``, a unit on the map (the bots move and count only those)."""
    here = state.units[uid].hex
    if here is None:
        raise ValueError(f"unit {uid} is not on the map")
    return here


def _steps(state: State, uids: Iterable[str]) -> int:
    return sum(1 if state.units[u].reduced else 2 for u in uids)


def expected_steps(state: State, distribution: dict[str, Fraction], attackers: Sequence[str],
                   defenders: list[str]) -> float:
    """Expected steps the defender loses minus the steps the attacker loses, for a CRT
    distribution (``Assessment.distribution``)."""
    d_all = _steps(state, defenders)
    a_all = _steps(state, attackers)
    value = 0.0
    for result, p in distribution.items():
        d_code, a_code = split_result(result)
        gain = 0.0
        if d_code == "DE":
            gain += d_all
        elif d_code == "DRB":
            gain += 1 + _RETREAT
        elif d_code == "DRI":
            gain += _RETREAT
        elif d_code == "DVB":
            gain += 1
        elif d_code == "EMP":
            gain += 0.0  # CN 5.1.6: both sides lose matching strength, the defender retreats
        if a_code == "AE":
            gain -= a_all
        elif a_code == "ARB":
            gain -= 1 + _RETREAT
        elif a_code == "ARI":
            gain -= _RETREAT
        elif a_code == "AVB":
            gain -= 1
        value += float(p) * gain
    return value



def carpet_hits(state: State, center: Hex, axis: set[Hex]) -> int:
    """German units (on the ``axis`` hexes) in the seven hexes a carpet bombing of ``center``
    hits (CN 6.3)."""
    return sum(len(state.units_at(n)) for n in (center, *state.game.board.neighbours(center))
               if n in axis)

class GreedyPolicy:
    """Heuristic play for the campaign engine; ``choose(state)`` returns one legal action.

    ``sides`` names the sides it plays ("allied", "axis"); asked to choose for another side it
    still answers (so one policy can play both). ``postures`` overrides the default posture:
    the side that invaded (the scenario's first mover) attacks, the other defends.
    """

    # True: a queued action no longer legal is skipped and the next one tried; False (greedy's
    # own play, unchanged): the plan is made again from the position
    SKIPS_STALE_ACTIONS = False


    def __init__(self, postures: dict[str, Posture] | None = None) -> None:
        self.postures = postures or {}
        # A cache, not a memory: position key -> (turn and phase, units done this phase, the
        # rest of the plan). The key is the action log (it fixes the position, given the
        # seed), so after an undo the policy finds the entry it made on that very position and
        # chooses as it did then: its choice depends on the position alone.
        self._memo: OrderedDict[tuple, tuple[tuple, frozenset[str], tuple[Action, ...]]] = OrderedDict()

    _MEMO_SIZE = 20_000

    @staticmethod
    def _key(state: State, then: Action | None = None) -> tuple:
        tail = [json.dumps(a, sort_keys=True) for a in state.action_log[-2:]]
        if then is not None:
            tail = (tail + [json.dumps(then.to_dict(), sort_keys=True)])[-2:]
        return (state.seed, len(state.action_log) + (then is not None), tuple(tail))

    def _remember(self, state: State, action: Action, phase: tuple, done: set[str],
                  plan: list[Action]) -> Action:
        self._memo[self._key(state, action)] = (phase, frozenset(done), tuple(plan))
        while len(self._memo) > self._MEMO_SIZE:
            self._memo.popitem(last=False)
        return action

    # ------------------------------------------------------------------ entry point
    def choose(self, state: State) -> Action:
        if state.pending is not None:
            return auto_answer(state)
        phase = (state.turn, state.phase)
        entry = self._memo.get(self._key(state))
        if entry is not None and entry[0] == phase:
            done, plan = set(entry[1]), list(entry[2])
        else:  # the first call of a phase (or a game loaded mid-phase): units that moved
            done = {u for u, us in state.units.items() if us.moved and us.status == "on_map"}
            plan = []
        while plan:
            action = plan.pop(0)
            if _still_legal(state, action):
                return self._remember(state, action, phase, done, plan)
            if not self.SKIPS_STALE_ACTIONS:
                break  # the plan is made again from this position
        if state.phase.is_movement:
            plan = self._movement_plan(state, done)
        else:
            plan = self._combat_choice(state)
        if not plan:
            return EndPhase()
        return self._remember(state, plan[0], phase, done, plan[1:])

    def posture(self, state: State, side: str) -> Posture:
        if side in self.postures:
            return self.postures[side]
        return ATTACKER if side == "allied" else DEFENDER

    # ------------------------------------------------------------------ objectives
    def objectives(self, state: State, side: str) -> dict[Hex, int]:
        """Hexes worth going to, with their weight: enemy units, and the victory cities the
        side does not hold (weighted by their points, CN/OD 11.2)."""
        enemy = state.other(side)
        out: dict[Hex, int] = {h: 5 for h in state.occupied_by(enemy)}
        board = state.game.board
        for v in state.game.rule("victory", []) or []:
            if v.get("kind") != "city":
                continue
            pts = int(v["points"].get(side, 0))
            for h in board.places.get(v["place"], ()):
                if state.control.get(h) != side:
                    out[h] = max(out.get(h, 0), pts)
        return out

    @staticmethod
    def _holds_city(state: State, uid: str, held: set[Hex]) -> bool:
        """The unit is the last one in a victory city its side holds (``held``): it stays."""
        here = state.units[uid].hex
        return here in held and len(state.units_at(here)) == 1

    def _held_cities(self, state: State, side: str) -> set[Hex]:
        board = state.game.board
        out: set[Hex] = set()
        for v in state.game.rule("victory", []) or []:
            if v.get("kind") == "city":
                out.update(h for h in board.places.get(v["place"], ()) if state.control.get(h) == side)
        return out

    # ------------------------------------------------------------------ movement
    def _movement_plan(self, state: State, done: set[str]) -> list[Action]:
        side = state.phase.side
        if side is None:
            return []
        # CN 6.3: carpet bombing comes before any Allied move
        targets = state.carpet_targets()
        if targets:
            best = self._carpet_target(state, targets)
            if best is not None:
                return [CarpetBomb(best.id)]
        entry = self._entry(state, side)
        if entry is not None:
            return [entry]
        return self._one_move(state, side, done)

    def _carpet_target(self, state: State, targets: list[Hex]) -> Hex | None:
        axis = state.occupied_by("axis")
        best = max(targets, key=lambda h: (carpet_hits(state, h, axis), h))
        return best if carpet_hits(state, best, axis) >= 3 else None

    def _entry(self, state: State, side: str) -> Action | None:
        """Bring on the first waiting reinforcement, at the entry hex nearest an objective."""
        goals = self.objectives(state, side)
        for uid in sorted(state.units):
            us = state.units[uid]
            if us.status != "waiting" or state.side_of(uid) != side:
                continue
            hexes = state.legal_entry_hexes(uid)
            if hexes:
                h = min(hexes, key=lambda x: (_distance(x, goals), x))
                return Enter(uid, h.id)
        return None

    def _one_move(self, state: State, side: str, done: set[str]) -> list[Action]:
        """The next move: first the moves of an attack group, then advances; [] when done.
        ``done`` holds the units already moved (or left in place) this phase; it grows."""
        movers = [u for u in sorted(state.units) if state.units[u].status == "on_map"
                  and state.side_of(u) == side and u not in done and state.move_refusal(u) is None]
        if not movers:
            return []
        for uid in movers:  # engaged units facing a hopeless obligatory attack pull back first
            if state.engaged(uid):
                dest = self._withdrawal(state, side, uid)
                if dest is not None:
                    done.add(uid)
                    return [Move(uid, dest.id)]
        group = self._attack_group(state, side, movers)
        if group:
            done.update(uid for uid, _ in group)
            return [Move(uid, h.id) for uid, h in group]
        for uid in movers:
            done.add(uid)
            dest = self._advance(state, side, uid)
            if dest is not None:
                return [Move(uid, dest.id)]
        return []

    def _attack_group(self, state: State, side: str, movers: list[str]) -> list[tuple[str, Hex]]:
        """Units that together can engage one enemy hex at the posture's ratio, and where
        each goes. Enemy hexes near valuable objectives and weakly held come first."""
        posture = self.posture(state, side)
        enemy = state.other(side)
        board = state.game.board
        goals = self.objectives(state, side)
        held = self._held_cities(state, side)
        reach = {}
        for uid in movers:
            if self._holds_city(state, uid, held):
                continue
            if state.game.units[uid].attack <= 0 or state.game.units[uid].range > 0:
                continue  # artillery supports from a distance (CN/OD 8.0)
            reach[uid] = state.legal_destinations(uid)
        if not reach:
            return []
        candidates = []
        for e in state.occupied_by(enemy):
            defence = sum(state.defence_of(u) for u in state.units_at(e))
            cols, _ = terrain_columns(state, e)
            value = max((w for h, w in goals.items() if h.distance(e) <= 1), default=5)
            candidates.append((-(value / max(1, defence + 2 * cols)), e, defence, cols))
        candidates.sort(key=lambda c: (c[0], c[1]))
        for _, e, defence, cols in candidates[:30]:
            around = set(board.neighbours(e))
            present = [u for n in around for u in state.units_at(n) if state.side_of(u) == side
                       and not state.units[u].attacked]
            strength = sum(state.attack_of(u) for u in present)
            need = (posture.engage_ratio + cols) * max(1, defence)
            group: list[tuple[str, Hex]] = []
            room: dict[Hex, int] = {}
            for uid in sorted(reach, key=lambda u: -state.attack_of(u)):
                if strength >= need:
                    break
                if any(uid == g for g, _ in group) or state.units[uid].hex in around:
                    continue
                reach_u = reach[uid]
                spots = [h for h in around if h in reach_u]  # max() below orders them
                spots = [h for h in spots if room.get(h, state.stack_room(h, side, uid)) > 0]
                if not spots:
                    continue
                h = max(spots, key=lambda x: (terrain_columns(state, x)[0], -reach[uid][x].cost, x))
                room[h] = room.get(h, state.stack_room(h, side, uid)) - 1
                group.append((uid, h))
                strength += state.attack_of(uid)
            if group and strength >= need:
                return group
        return []

    def _withdrawal(self, state: State, side: str, uid: str) -> Hex | None:
        """CN/OD 4.1.2: a unit next to the enemy at the end of movement must attack (unless it
        began there, did not move and holds dominant terrain). When the best attack it could
        make with the friends next to the same enemy is worse than the posture accepts, it
        breaks contact (one extra point) to the best hex outside enemy zones; None to stay."""
        if self._holds_city(state, uid, self._held_cities(state, side)):
            return None
        here = map_hex(state, uid)
        board = state.game.board
        enemy = state.occupied_by(state.other(side))
        adjacent = [n for n in board.neighbours(here) if n in enemy]
        if not adjacent or state.may_stay_engaged(here, side, adjacent):
            return None
        best = -99.0
        for e in adjacent:
            friends = tuple(sorted({u for n in board.neighbours(e) for u in state.units_at(n)
                                    if state.side_of(u) == side and state.game.units[u].attack > 0}))
            if uid not in friends:
                continue
            try:
                a = state.preview_attack(e.id, friends)
            except (IllegalAction, ValueError):
                continue
            best = max(best, expected_steps(state, a.distribution, friends, state.units_at(e)))
        if best >= -self.posture(state, side).attack_threshold - 0.3:
            return None
        goals = self.objectives(state, side)
        options = [h for h, r in state.legal_destinations(uid).items() if not r.engaged]
        if not options:
            return None
        return min(options, key=lambda h: (-terrain_columns(state, h)[0], _distance(h, goals), h))

    def _advance(self, state: State, side: str, uid: str) -> Hex | None:
        """Towards the nearest objective, outside enemy zones, into good defensive terrain;
        None to stay."""
        if self._holds_city(state, uid, self._held_cities(state, side)):
            return None
        here = map_hex(state, uid)
        if state.engaged(uid):
            return None  # holding the line (breaking contact costs a point, 4.1.2)
        goals = self.objectives(state, side)
        if not goals:
            return None
        options = {h: r for h, r in state.legal_destinations(uid).items() if not r.engaged}

        def score(h: Hex) -> tuple:
            return (_distance(h, goals), -terrain_columns(state, h)[0], h)

        best = min([here, *options], key=score)
        return None if best == here else best

    # ------------------------------------------------------------------ combat
    def _combat_choice(self, state: State) -> list[Action]:
        side = state.phase.side
        assert side is not None, "a combat phase is a side's"
        posture = self.posture(state, side)
        actions = state.legal_actions()
        enters = [a for a in actions if isinstance(a, Enter)]
        if enters:
            return [enters[0]]  # CN turn 0: the commandos join the 6th Airborne
        forced = state.end_phase_refusal() is not None
        # every attack on offer with its value at each amount of air (CN/OD 6.1-6.2), then the
        # air points shared among the attacks worth making by the exact optimiser
        # (wargame.bots.air_plan), instead of each attack taking what suits it alone
        offered = [planned_attack(state, a) for a in actions if isinstance(a, Attack)]
        table = value_table(state, offered, objective=expected_steps, charge=BOT_AIR_CHARGE,
                            missing=-99.0)
        rows = {p.target: (p, row) for p, row in zip(offered, table, strict=True)}
        worth = [t for t, (p, row) in rows.items()
                 if max(row.values()) > posture.attack_threshold
                 or (forced and set(p.attackers) & state.must_attack)]
        plan = None
        if worth:
            plan = optimise_air(state, [rows[t][0] for t in worth],
                                points=state.air_points.get(side, 0),
                                table=[rows[t][1] for t in worth])
        best: tuple[float, Action] | None = None
        scored: tuple[float, Action]
        for a in actions:
            if isinstance(a, Attack):
                support, row = rows[a.target]
                air = plan.air_for(a.target) if plan is not None and a.target in worth else 0
                if air not in row:
                    air = max(row, key=lambda x: (row[x], -x))
                scored = (row[air], Attack(a.target, a.attackers, support.artillery, air))
            elif isinstance(a, Bombard):
                scored = self._bombard_value(state, a)
            else:
                continue
            if forced and isinstance(a, Attack) and not (set(a.attackers) & state.must_attack):
                continue
            if best is None or scored[0] > best[0]:
                best = scored
        if best is None:
            return []
        if forced or best[0] > posture.attack_threshold:
            return [_checked(state, best[1])]
        return []

    def _bombard_value(self, state: State, bombard: Bombard) -> tuple[float, Action]:
        a = assess_bombardment(state, Hex.from_id(bombard.target), bombard.artillery, 0)
        value = sum(float(p) * (1.0 if r in ("DB",) else 2.0 if r == "DE" else 0.0)
                    for r, p in a.distribution.items())
        return value, bombard


def _checked(state: State, action: Action) -> Action:
    """The action if the engine accepts it (tried on a copy), else the same attack without
    air and artillery: rules on support (e.g. OD 10.0) are the engine's to judge."""
    try:
        state.clone().apply(action)
        return action
    except IllegalAction:
        if isinstance(action, Attack):
            return Attack(action.target, action.attackers)
        return EndPhase()


def _still_legal(state: State, action: Action) -> bool:
    """A queued move is still legal (an earlier move of the plan may have filled its hex)."""
    if isinstance(action, Move):
        return Hex.from_id(action.to) in state.legal_destinations(action.unit)
    return True


def _distance(h: Hex, goals: dict[Hex, int]) -> float:
    """Distance to the nearest objective, each objective's weight pulling it closer; 0 for
    every hex when no objective is left (no enemy on the map, every victory city held), so
    that the choices it orders fall back on their other keys (issue 30)."""
    return min((h.distance(g) - w / 10 for g, w in goals.items()), default=0.0)
