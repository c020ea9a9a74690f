"""The campaign's hard computer player (issue #34): plans each phase, values it in points.

``HardPolicy`` plays either side of Campanha da Normandia and Operação Dragoon. It builds on
the greedy player (``wargame.bots.greedy``) and changes what a teacher would call its plan:

* **Everything in victory points** (``wargame.bots.campaign_eval``, CN/OD 11.2): an attack is
  worth the expected points of its result (steps at ``step_vp``: an Allied unit destroyed
  gives the Axis 10 points, CN 11.2.2, a German one gives the Allies 2 less the third forgiven
  at the end), plus the chance it clears a victory city times that city's points.
* **Only what the side may know** (CN/OD 5.1.1): every preview of an attack goes through a
  ``Belief``, where the enemy's counters count at the mean values of their type.
* **The Axis defends** (movement phase, ``_axis_orders``):
  1. reinforcements enter at the entry hex nearest the city most short of defence;
  2. victory cities the Allies passed through and left empty are retaken (control is the side
     that last entered a hex, docs/rules-notes.md "Control and victory");
  3. every city within ``REACH`` hexes of an Allied unit keeps at least one unit;
  4. the units already in a city stay; the city's *need* (the defence that keeps the
     believed threat on it -- the attack of the Allied units that could reach a hex next to
     it next turn, and of guns in range -- at odds of 1-1 or less after its terrain columns,
     CN 5.1.1-5.1.2) chooses where reinforcements enter and which unit covers a city;
  5. a unit that began engaged, did not move and holds dominant terrain stays: it owes no
     attack (CN 4.1.2);
  6. the other units play greedy's way, one move at a time, through the ``Belief``: break
     contact from a hopeless owed attack, attack groups, advance.
* **The Allies** move as the greedy player (attack groups at 2:1 plus a column per terrain
  column, carpet bombing, naval support in every preview) but through the ``Belief``, with
  the victory cities weighted by their points to both sides.
* **Combat** (both sides): the attacks on offer are valued in points with the air points
  shared by the exact optimiser (``wargame.bots.air_plan``); bombardments count at the
  enemy's step value. Forced attacks (CN/OD 4.1.2) take the least bad target.

It does no search: its cost per campaign is measured by ``bench/campaign_history.py --cpu``
(docs/bots.md), not limited by a clock, which would make a choice depend on the machine.
"""

from __future__ import annotations

from collections.abc import Iterable

from wargame.bots.air_plan import optimise_air, planned_attack, value_table
from wargame.bots.campaign_eval import (
    Belief,
    attack_value,
    city_points,
    estimated_values,
    step_vp,
    victory_hexes,
)
from wargame.bots.greedy import GreedyPolicy, _checked
from wargame.hexgrid import Hex
from wargame.operational.actions import (
    Action,
    Attack,
    Bombard,
    Enter,
    Move,
)
from wargame.operational.combat import assess_bombardment, terrain_columns
from wargame.operational.state import State

__all__ = ["HardPolicy", "threat_map"]

ALLIED_ATTACK = 0.5  # points: the least an Allied attack not forced must be worth
AXIS_ATTACK = 1.0  # the same for the Axis
AIR_CHARGE = 0.3
REACH = 14  # hexes: a city this near an enemy unit is within a motorised unit's road march  # points charged per air point (the Allies keep some for the Axis phase)


def _radius(movement: float) -> int:
    """Hexes a unit may cover in one phase, roughly (open ground 1 point, bocage 2-3)."""
    return max(1, int(movement) // 3)


def threat_map(state: State | Belief, side: str, hexes: Iterable[Hex]) -> dict[Hex, float]:
    """For each hex, the believed attack the enemy of ``side`` could bring against it next
    turn: every enemy unit within its movement radius plus one (it moves next to the hex and
    attacks, CN/OD 4.1.2, 5.0), every gun within its radius plus its range (CN/OD 8.0). The
    enemy's values are estimates (``estimated_values``, CN/OD 5.1.1)."""
    real = state._state if isinstance(state, Belief) else state
    enemy = "axis" if side == "allied" else "allied"
    units = []
    for uid, us in real.units.items():
        if us.status != "on_map" or real.game.units[uid].side != enemy:
            continue
        a, _, mv = estimated_values(real, uid)
        reach = _radius(mv) + 1 + real.game.units[uid].range
        units.append((us.hex, a, reach))
    out = {}
    for h in hexes:
        out[h] = sum(a for where, a, reach in units if h.distance(where) <= reach)
    return out


class HardPolicy(GreedyPolicy):
    """The hard campaign player (module doc); ``choose(state)`` returns one legal action and
    depends on the position and the seed alone."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__()
        self.seed = int(seed)  # accepted as every policy's; the play is deterministic anyway

    # a queued action whose hex filled up is skipped, not the rest of the plan (GreedyPolicy.choose)
    SKIPS_STALE_ACTIONS = True

    def explain(self, state: State) -> str:
        """One line on how the position stands for the side to act, in points."""
        side = state.side_to_act or "allied"
        vp = state.victory_points()
        return (f"{side}: {vp[side]} points against {vp['axis' if side == 'allied' else 'allied'] }"
                f" (a step is worth {step_vp(state, side):.1f} to it)")

    # ------------------------------------------------------------------ movement
    def _movement_plan(self, state: State, done: set[str]) -> list[Action]:
        side = state.phase.side
        if side is None:
            return []
        belief = Belief(state, side)
        if side == "axis":
            entry = self._axis_entry(state)
            if entry is not None:
                return [entry]
            return self._axis_orders(state, belief, done)
        return super()._movement_plan(belief, done)  # type: ignore[arg-type]  # a Belief answers the State queries it reads (the enemy as this side believes it)

    def objectives(self, state: State, side: str) -> dict[Hex, int]:
        """Enemy units (weight 5) and the victory cities not held, by their points to both
        sides (CN/OD 11.2: taking a city swings both scores)."""
        out = super().objectives(state, side)
        for h in victory_hexes(state.game):
            if state.control.get(h) != side:
                out[h] = max(out.get(h, 0), int(city_points(state, h)))
        return out

    # ---- the Axis
    def _axis_cities(self, state: State) -> list[Hex]:
        """Victory city hexes the Allies do not hold, most points first."""
        cities = [h for h in victory_hexes(state.game) if state.control.get(h) != "allied"]
        return sorted(cities, key=lambda h: (-city_points(state, h), h))

    def _needs(self, state: State, belief: Belief, cities: list[Hex]) -> dict[Hex, float]:
        """Defence each city hex needs against the threat on it: odds of 1-1 or less after its
        terrain columns (CN 5.1.1-5.1.2), counted as threat / (1 + columns)."""
        threat = threat_map(belief, "axis", cities)
        out = {}
        for c in cities:
            cols = terrain_columns(state, c)[0]
            out[c] = threat[c] / (1.0 + cols)
        return out

    def _axis_entry(self, state: State) -> Action | None:
        """CN 4.2.1: a waiting reinforcement enters at the entry hex nearest the city most
        short of defence (the most threatened one when none is short)."""
        waiting = [u for u in sorted(state.units) if state.units[u].status == "waiting"
                   and state.side_of(u) == "axis"]
        if not waiting:
            return None
        goal = self._sector_goal(state, Belief(state, "axis"))
        for uid in waiting:
            hexes = state.legal_entry_hexes(uid)
            if hexes:
                h = min(hexes, key=lambda x: (x.distance(goal) if goal else 0, x))
                return Enter(uid, h.id)
        return None

    def _sector_goal(self, state: State, belief: Belief) -> Hex | None:
        cities = self._axis_cities(state)
        if not cities:
            return None
        needs = self._needs(state, belief, cities)
        have = {c: sum(state.defence_of(u) for u in state.units_at(c)
                       if state.side_of(u) == "axis") for c in cities}
        return max(cities, key=lambda c: (needs[c] - have[c], city_points(state, c), c))

    def _axis_orders(self, state: State, belief: Belief, done: set[str]) -> list[Action]:
        movers = [u for u in sorted(state.units) if state.units[u].status == "on_map"
                  and state.side_of(u) == "axis" and u not in done
                  and state.move_refusal(u) is None]
        if not movers:
            return []
        board = state.game.board
        limit = state.game.scenario.stacking_limit
        enemy = state.occupied_by("allied")
        dests = {u: state.legal_destinations(u) for u in movers}
        stay: set[str] = set()
        orders: dict[str, Hex] = {}
        count: dict[Hex, int] = {}  # Axis units ending at each hex, as planned
        for uid, us in state.units.items():
            if us.status == "on_map" and state.side_of(uid) == "axis" and uid not in movers:
                count[us.hex] = count.get(us.hex, 0) + 1
        for u in movers:
            count[state.units[u].hex] = count.get(state.units[u].hex, 0) + 1

        def send(uid: str, h: Hex) -> None:
            here = state.units[uid].hex
            count[here] -= 1
            count[h] = count.get(h, 0) + 1
            orders[uid] = h

        def free(uid: str) -> bool:
            return uid not in stay and uid not in orders

        armour = {u for u in movers if state.unit_type(u).armoured}

        # garrisons of the cities; a top-up of each garrison to its ``need`` (as in
        # reinforcement routing) was tried and dropped: against greedy Allies in Normandy it
        # kept units from the attacks that score (docs/bots.md, issue #34)
        cities = self._axis_cities(state)
        needs = self._needs(state, belief, cities)
        have: dict[Hex, float] = {}
        for c in cities:
            have[c] = 0.0
            for u in state.units_at(c):
                if state.side_of(u) == "axis":
                    have[c] += state.defence_of(u)
                    if u in movers:
                        stay.add(u)
        # retake the victory cities the Allies passed through and left empty: control is the
        # side that last entered (docs/rules-notes.md "Control and victory")
        lost = sorted((h for h in victory_hexes(state.game) if state.control.get(h) == "allied"
                       and h not in enemy), key=lambda h: (-city_points(state, h), h))
        for c in lost:
            options = [u for u in movers if free(u) and c in dests[u] and count.get(c, 0) < limit]
            calm = [u for u in options if not dests[u][c].engaged]
            if calm or (options and city_points(state, c) >= 20):
                u = min(calm or options, key=lambda x: (x in armour, dests[x][c].cost, x))
                send(u, c)
                have[c] = state.defence_of(u)
        # every city within reach of the enemy's mobile units keeps at least one unit: an
        # empty city is taken by any unit passing through it; a held one must be attacked
        for c in sorted(cities, key=lambda h: (min((h.distance(e) for e in enemy), default=99),
                                               -city_points(state, h), h)):
            if count.get(c, 0) > 0 or min((c.distance(e) for e in enemy), default=99) > REACH:
                continue
            options = [u for u in movers if free(u) and c in dests[u]]
            calm = [u for u in options if not dests[u][c].engaged]
            if calm:
                u = min(calm, key=lambda x: (x in armour, state.defence_of(x) if needs[c] <= 0
                                             else -state.defence_of(x), dests[x][c].cost, x))
                send(u, c)
                have[c] += state.defence_of(u)
        # 3. an engaged unit that began there, did not move and holds dominant terrain stays:
        # it owes no attack (CN 4.1.2)
        for uid in movers:
            if not free(uid) or not state.units[uid].started_engaged:
                continue
            here = state.units[uid].hex
            adjacent = [n for n in board.neighbours(here) if n in enemy]
            if adjacent and state.dominant(here, adjacent):
                stay.add(uid)
        # 4. the others play greedy's way, one move at a time: break contact from a hopeless
        # owed attack, gather attack groups (an Allied unit destroyed is worth 10 points to
        # the Axis, CN 11.2.2), advance towards the objectives
        done.update(stay, orders)
        if orders:
            return [Move(uid, h.id) for uid, h in orders.items()]
        return GreedyPolicy._one_move(self, belief, "axis", done)  # type: ignore[arg-type]  # a Belief answers the State queries it reads (the enemy as this side believes it)

    # ------------------------------------------------------------------ combat
    def _combat_choice(self, state: State) -> list[Action]:
        side = state.phase.side
        belief = Belief(state, side)
        actions = state.legal_actions()
        enters = [a for a in actions if isinstance(a, Enter)]
        if enters:
            return [enters[0]]
        forced = state.end_phase_refusal() is not None
        threshold = ALLIED_ATTACK if side == "allied" else AXIS_ATTACK

        def objective(_s, distribution, attackers, defenders) -> float:
            target = state.units[defenders[0]].hex if defenders else None
            if target is None:
                return 0.0
            return attack_value(state, side, distribution, attackers, defenders, target)

        offered = [planned_attack(state, a) for a in actions if isinstance(a, Attack)]
        table = value_table(belief, offered, objective=objective, charge=AIR_CHARGE,  # type: ignore[arg-type]  # a Belief answers the State queries it reads (the enemy as this side believes it)
                            missing=-99.0)
        rows = {p.target: (p, row) for p, row in zip(offered, table, strict=True)}
        worth = [t for t, (p, row) in rows.items()
                 if max(row.values()) > threshold or (forced and set(p.attackers) & state.must_attack)]
        plan = None
        if worth:
            plan = optimise_air(belief, [rows[t][0] for t in worth],  # type: ignore[arg-type]  # a Belief answers the State queries it reads (the enemy as this side believes it)
                                points=state.air_points.get(side, 0),
                                table=[rows[t][1] for t in worth])
        best: tuple[float, Action] | None = None
        for a in actions:
            if isinstance(a, Attack):
                if forced and not (set(a.attackers) & state.must_attack):
                    continue
                support, row = rows[a.target]
                air = plan.air_for(a.target) if plan is not None and a.target in worth else 0
                if air not in row:
                    air = max(row, key=lambda x: (row[x], -x))
                scored = (row[air], Attack(a.target, a.attackers, support.artillery, air))
            elif isinstance(a, Bombard):
                if forced:
                    continue
                scored = self._bombard_points(state, a)
            else:
                continue
            if best is None or scored[0] > best[0]:
                best = scored
        if best is None:
            return []
        if forced or best[0] > threshold:
            return [_checked(state, best[1])]
        return []

    def _bombard_points(self, state: State, bombard: Bombard) -> tuple[float, Action]:
        """CN/OD 6.2, 8.0: a bombardment's expected steps (DB one, DE all) at the enemy's
        step value in points."""
        h = Hex.from_id(bombard.target)
        a = assess_bombardment(state, h, bombard.artillery, 0)
        defenders = state.units_at(h)
        every = sum(1 if state.units[u].reduced else 2 for u in defenders)
        steps = sum(float(p) * (1.0 if r == "DB" else every if r == "DE" else 0.0)
                    for r, p in a.distribution.items())
        side = state.phase.side
        return steps * step_vp(state, "axis" if side == "allied" else "allied"), bombard

