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
  1. reinforcements enter at the entry hex nearest the city most short of defence, outside
     the Allied zones where such a hex is free (CN 4.2.1; inside one a unit would owe an
     attack or a point to break contact, 4.1.2);
  2. victory cities the Allies passed through and left empty are retaken (control is the side
     that last entered a hex, docs/rules-notes.md "Control and victory");
  3. every city an Allied unit could enter next turn (``enemy_reach``: the Allied units on
     the map and the reinforcements due, at their type's mean movement, none of the Axis in
     the way) keeps at least one unit, the cities worth most first;
  4. a screen: while an empty city is still open to an Allied unit (``multi_reach``, with the
     units placed so far in the way: a zone of engagement stops a move, CN/OD 4.1.2), a free
     unit goes, out of Allied zones, to the hex of the Allies' route with the most defensive
     columns, or into the city;
  5. the units already in a city stay, except where the city is the full entry hex of
     reinforcements due (``shut_entries``, CN 4.1.1, 4.2.1: Avranches): the strongest stay
     and the others make room; the city's *need* (the believed attack that could
     reach it next turn, at odds of 1-1 or less after its terrain columns, CN 5.1.1-5.1.2)
     chooses where reinforcements enter and which unit covers a city;
  6. a unit that began engaged, did not move and holds dominant terrain (or a Caen hex with
     the Allies in the other, CN 5.1.2) stays: it owes no attack (CN 4.1.2,
     ``State.may_stay_engaged``);
  7. the other units play greedy's way, one move at a time, through the ``Belief``: break
     contact from a hopeless owed attack, attack groups (an Allied unit destroyed is worth 10
     points to the Axis, CN 11.2.2), advance.
* **The Allies** move as the greedy player (attack groups at 2:1 plus a column per terrain
  column, carpet bombing, naval support in every preview) but through the ``Belief``, with
  the victory cities weighted by their points to both sides and, in Dragoon, the other cities
  the Axis would score (OD 11.2.2); a unit advances towards the objectives still open to one
  more unit (``_open_goals``: an enemy hex whose approaches hold the attack it needs, or as
  many units as can attack it, CN/OD 4.1.1, 5.1.1-5.1.2, no longer pulls the units behind).
* **Combat** (both sides): the attacks on offer are valued in points with the air points
  shared by the exact optimiser (``wargame.bots.air_plan``); bombardments count at the
  enemy's step value. Forced attacks (CN/OD 4.1.2) take the least bad target. Defending
  against an EMP (CN/OD 5.1.6: the defender eliminates units of its choice, the attacker at
  least their defence in attack), it gives up the units worth most in points to it
  (``_emp_defence``), not the weakest one as greedy does; any other loss of its own (a step,
  a unit, its side of an EMP) is the one that costs fewest points (``_cheapest_loss``: a
  full unit reduced rather than a reduced one destroyed, CN/OD 7.0, 11.2).

**Search** (``worlds`` > 0, ``wargame.bots.campaign_rollouts``): at each Axis movement phase
the Axis plays out a few styles of plan (``styles``) through the Allied turn that follows,
on the position as it may know it and with dice of its own, and plays the style worth most
in points. Its cost is a count of rollouts, not a clock (a clock would make a choice depend
on the machine); ``bench/campaign_history.py --cpu`` measures it per campaign (docs/bots.md).
"""

from __future__ import annotations

from wargame.bots.air_plan import optimise_air, planned_attack, value_table
from wargame.bots.campaign_eval import (
    Belief,
    attack_value,
    carpet_value,
    city_points,
    emp_cover_steps,
    loss_vp,
    step_vp,
    victory_hexes,
)
from wargame.bots.campaign_reach import (
    _axis_points,
    _enemy_movers,
    _other_cities,
    enemy_reach,
    multi_reach,
    shut_entries,
    threat_map,
)
from wargame.bots.campaign_rollouts import (
    STYLES,
    phase_key,
    play_out,
    rollout_state,
    rollout_value,
    world_seed,
)
from wargame.bots.greedy import (
    ATTACKER,
    GreedyPolicy,
    _checked,
    _distance,
    carpet_hits,
    map_hex,
)
from wargame.hexgrid import Hex
from wargame.operational.actions import (
    Action,
    Attack,
    Bombard,
    ChooseLoss,
    EmpEliminate,
    Enter,
    Move,
)
from wargame.operational.combat import assess_bombardment, terrain_columns
from wargame.operational.state import State

__all__ = ["HardPolicy", "threat_map", "enemy_reach"]

ALLIED_ATTACK = 0.5  # points: the least an Allied attack not forced must be worth
AXIS_ATTACK = 1.0  # the same for the Axis
CARPET_UNITS = 3  # carpet bombing (two a campaign, CN 6.3) only where it hits this many Germans
TOP_UP_POINTS = 40  # a city worth this much to the Axis alone is garrisoned to its need
AIR_CHARGE = 0.3  # points charged per air point (the Allies keep some for the Axis phase)


class HardPolicy(GreedyPolicy):
    """The hard campaign player (module doc); ``choose(state)`` returns one legal action and
    depends on the position and the seed alone."""

    def __init__(self, seed: int = 0, worlds: int = 0, style: str = "plan",
                 model: str = "hard", styles: tuple[str, ...] = STYLES,
                 margin: float = 0.0) -> None:
        super().__init__({"axis": ATTACKER} if style == "strike" else None)
        self.seed = int(seed)  # the rollouts' dice derive from it; the play is deterministic
        if style not in STYLES:
            raise ValueError(f"style must be one of {', '.join(STYLES)}, not {style!r}")
        if model not in ("hard", "greedy"):
            raise ValueError(f"model must be 'hard' or 'greedy', not {model!r}")
        self.style = style
        if not styles or set(styles) - set(STYLES):
            raise ValueError(f"styles must be among {', '.join(STYLES)}, not {styles!r}")
        self.styles = tuple(styles)  # the styles the rollouts compare
        self.margin = float(margin)  # points another style must gain over ``style`` to be played
        self.worlds = int(worlds)  # rollouts per style at each Axis movement phase (0: none)
        self.model = model
        self._styled: dict[str, HardPolicy] = {}
        self._chosen: dict[tuple, tuple[str, dict[str, float]]] = {}

    def choose(self, state: State) -> Action:
        """The hard player's action; at an Axis movement phase with ``worlds`` > 0, the
        action of the style its rollouts chose for the phase (``campaign_rollouts``)."""
        if state.pending is not None and state.pending.kind == "emp_defender":
            return self._emp_defence(state)
        if state.pending is not None and state.pending.kind in ("loss", "emp_attacker"):
            return self._cheapest_loss(state)
        if (self.worlds > 0 and state.pending is None and state.phase.is_movement
                and state.phase.side == "axis"):
            style = self.phase_style(state)[0]
            if style != self.style:
                child = self._styled.get(style)
                if child is None:
                    child = self._styled[style] = HardPolicy(self.seed, style=style)
                return child.choose(state)
        return super().choose(state)

    def phase_style(self, state: State) -> tuple[str, dict[str, float]]:
        """(the style to play this Axis movement phase, each style's mean rollout value in
        points), worked out once per phase (a game loaded in the middle of a phase is searched
        from where it stands)."""
        key = phase_key(state)
        got = self._chosen.get(key)
        if got is not None:
            return got
        means: dict[str, float] = {}
        for style in self.styles:
            total = 0.0
            for w in range(self.worlds):
                twin = rollout_state(state, "axis", world_seed(self.seed, state.turn, w))
                # fresh players for each rollout: a player's plan memo is keyed by the log's
                # length and last actions, which two worlds may share at different positions
                model = HardPolicy(self.seed) if self.model == "hard" else GreedyPolicy()
                mover = HardPolicy(self.seed, style=style)
                play_out(twin, "axis", mover, HardPolicy(self.seed), model)
                total += rollout_value(twin, "axis")
            means[style] = total / self.worlds
        best = max(self.styles, key=lambda s: (means[s], s == self.style, -STYLES.index(s)))
        if self.style in means and means[best] < means[self.style] + self.margin:
            best = self.style  # not enough gain over the player's own style to leave it
        got = self._chosen[key] = (best, means)
        if len(self._chosen) > 64:
            self._chosen.pop(next(iter(self._chosen)))
        return got

    def _emp_defence(self, state: State) -> Action:
        """CN/OD 5.1.6, EMP: "o jogador defensor elimina uma ou mais peças, à sua escolha", and
        the attacker loses units of at least their defence in attack. The choice worth most in
        points: the attacker's steps lost (the cheapest cover of that defence, as the bots
        answer it, at the attack values this side believes, CN/OD 5.1.1) at their value, less
        its own steps at theirs (``step_vp``); the greedy players give up one unit, the
        weakest (``auto_answer``)."""
        d = state.pending
        assert d is not None and state.combat is not None, "an EMP is answered in a combat"
        side = d.side
        enemy = state.other(side)
        belief = Belief(state, side)
        attackers = [u for u in (*state.combat.attackers, *state.combat.artillery)
                     if state.units[u].status in ("on_map", "at_sea")]
        waning = side == "allied"  # the hard Allies' view of steps (step_vp)
        own, theirs = step_vp(state, side, waning), step_vp(state, enemy, waning)

        options = [o for o in d.options if isinstance(o, EmpEliminate)]

        def worth(option: EmpEliminate) -> float:
            need = sum(state.defence_of(u) for u in option.units)
            return (emp_cover_steps(belief, attackers, need) * theirs  # type: ignore[arg-type]  # a Belief answers the State queries it reads
                    - sum(1 if state.units[u].reduced else 2 for u in option.units) * own)

        def kept(option: EmpEliminate) -> tuple:  # on a tie, the weakest units go (as ``auto_answer``)
            return (-sum(state.attack_of(u) + state.defence_of(u) for u in option.units),
                    tuple(option.units))

        return max(options, key=lambda o: (worth(o), -len(o.units), kept(o)))

    def _cheapest_loss(self, state: State) -> Action:
        """CN/OD 5.1.6: the loss ("a critério do jogador") that costs fewest points
        (``loss_vp``): a full unit reduced before a reduced one eliminated (its destruction
        scores for the enemy, CN/OD 11.2); for an EMP, the covering set of fewest points.
        Greedy gives up its weakest unit (``auto_answer``), often the reduced one."""
        d = state.pending
        assert d is not None
        waning = d.side == "allied"  # the hard Allies' view of steps (step_vp)
        eliminate = d.kind != "loss" or bool(state.flags.get("loss_eliminates"))
        options: list[tuple[tuple[str, ...], Action]] = [
            ((o.unit,), o) if isinstance(o, ChooseLoss) else (tuple(o.units), o)
            for o in d.options if isinstance(o, ChooseLoss | EmpEliminate)]

        def key(item: tuple[tuple[str, ...], Action]) -> tuple:
            units = item[0]
            cost = sum(loss_vp(state, u, eliminate, waning) for u in units)
            return (round(cost, 6), sum(state.attack_of(u) + state.defence_of(u) for u in units),
                    units)

        return min(options, key=key)[1]

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

    def _carpet_target(self, state: State, targets: list[Hex]) -> Hex | None:
        """CN 6.3 for the hard Allies: among the hexes whose seven hexes hold at least three
        German units (greedy's rule: two bombings a campaign are not spent on less), the one
        worth most in points (``carpet_value``: the table is rolled for every hex of the seven
        that holds units, its own among them), if worth anything. Greedy's choice (the most
        German units) ignores its own: at c78d4f9 the greedy Allies lost 15 units to their own
        carpet bombing in three Normandy games (docs/bots.md, issue #34)."""
        side = state.phase.side or "allied"
        axis = state.occupied_by(state.other(side))
        worth = {h: carpet_value(state, side, h, waning=side == "allied")
                 for h in targets if carpet_hits(state, h, axis) >= CARPET_UNITS}
        if not worth:
            return None
        best = max(worth, key=lambda h: (worth[h], h))
        return best if worth[best] > 0 else None

    def objectives(self, state: State, side: str) -> dict[Hex, int]:
        """Enemy units (weight 5) and the victory cities not held, by their points to both
        sides (CN/OD 11.2: taking a city swings both scores)."""
        out = super().objectives(state, side)
        for h in victory_hexes(state.game):
            if state.control.get(h) != side:
                out[h] = max(out.get(h, 0), int(city_points(state, h)))
        for h, pts in _other_cities(state.game, side) if side == "allied" else ():
            if state.control.get(h) != side:
                out[h] = max(out.get(h, 0), pts)
        return out

    def _advance(self, state: State, side: str, uid: str) -> Hex | None:
        """The Allies advance as greedy does, but towards the objectives still open to one
        more unit (``_open_goals``): an objective already besieged, or an empty city already
        reached, no longer pulls the units behind, which go for the next one."""
        if side != "allied":
            return super()._advance(state, side, uid)
        if self._holds_city(state, uid, self._held_cities(state, side)):
            return None
        here = map_hex(state, uid)
        if state.engaged(uid):
            return None  # holding the line (breaking contact costs a point, 4.1.2)
        goals = self._open_goals(state, side, uid)
        if not goals:
            return None
        options = [h for h, r in state.legal_destinations(uid).items() if not r.engaged]
        best = min([here, *options],
                   key=lambda h: (_distance(h, goals), -terrain_columns(state, h)[0], h))
        return None if best == here else best

    def _open_goals(self, state: State, side: str, uid: str) -> dict[Hex, int]:
        """``objectives`` less those one more unit would add nothing to:

        - an enemy hex whose approaches (the hexes within 2 of it) already hold the side's
          attack at the posture's ratio after its terrain columns (``_attack_group``'s ratio,
          CN/OD 5.1.1-5.1.2), or as many units as can attack it (4 a free land neighbour,
          CN/OD 4.1.1): the units behind go for the next objective instead of queueing;
        - an empty objective hex with a unit of the side in it or next to it (it enters next).

        When one is left out, the enemy units in the field further than 2 are left out too:
        the unit goes for the cities (CN/OD 11.2). The unit keeps the objectives it is
        already near (within 2); all of them when none is left open."""
        goals = self.objectives(state, side)
        board = state.game.board
        here = map_hex(state, uid)
        ratio = self.posture(state, side).engage_ratio
        limit = state.game.scenario.stacking_limit
        mine = [(map_hex(state, u), state.attack_of(u)) for u, us in state.units.items()
                if us.status == "on_map" and us.hex is not None and u != uid
                and state.side_of(u) == side]
        out: dict[Hex, int] = {}
        for g, w in goals.items():
            if here.distance(g) <= 2:
                out[g] = w
                continue
            held = [u for u in state.units_at(g) if state.side_of(u) != side]
            if not held:
                if not any(h.distance(g) <= 1 for h, _ in mine):
                    out[g] = w
                continue
            near = [a for h, a in mine if h.distance(g) <= 2]
            need = (ratio + terrain_columns(state, g)[0]) * max(1, sum(
                state.defence_of(u) for u in held))
            room = sum(limit for n in board.neighbours(g) if board.is_land(n)
                       and not any(state.side_of(u) != side for u in state.units_at(n)))
            if sum(near) < need and len(near) < room:
                out[g] = w
        if len(out) < len(goals):
            # a unit some objective could do without goes for the ground that scores (the
            # cities, CN/OD 11.2), not for the enemy units in the field beyond its reach
            cities = set(victory_hexes(state.game)) | {h for h, _ in _other_cities(state.game,
                                                                                  side)}
            out = {g: w for g, w in out.items() if g in cities or here.distance(g) <= 2} or out
        return out or goals

    # ---- the Axis
    def _reach(self, state: State) -> tuple[dict[Hex, float], frozenset[Hex]]:
        """``enemy_reach`` for the Axis, remembered while the Allied positions stay the same
        (all through an Axis phase): it depends on them alone."""
        key = (state.turn, tuple(sorted((u, us.status, us.hex.id if us.hex else "")
                                        for u, us in state.units.items()
                                        if state.side_of(u) == "allied")))
        memo = self.__dict__.setdefault("_reach_memo", {})
        got = memo.get(key)
        if got is None:
            memo.clear()
            got = memo[key] = enemy_reach(Belief(state, "axis"), "axis")
        return got

    def _axis_cities(self, state: State) -> list[Hex]:
        """Victory city hexes the Allies do not hold, most points first."""
        cities = [h for h in victory_hexes(state.game) if state.control.get(h) != "allied"]
        return sorted(cities, key=lambda h: (-city_points(state, h), h))

    def _needs(self, state: State, belief: Belief, cities: list[Hex]) -> dict[Hex, float]:
        """Defence each city hex needs against the threat on it: odds of 1-1 or less after its
        terrain columns (CN 5.1.1-5.1.2), counted as threat / (1 + columns)."""
        threat = self._reach(state)[0]
        out = {}
        for c in cities:
            cols = terrain_columns(state, c)[0]
            out[c] = threat.get(c, 0.0) / (1.0 + cols)
        return out

    def _axis_entry(self, state: State) -> Action | None:
        """CN 4.2.1: a waiting reinforcement enters at the entry hex nearest the city most
        short of defence (the most threatened one when none is short), outside the Allied
        zones of engagement when it can (CN 4.1.2: inside one it would owe an attack)."""
        waiting = [u for u in sorted(state.units) if state.units[u].status == "waiting"
                   and state.side_of(u) == "axis"]
        if not waiting:
            return None
        lost = self._last_word(state)
        if lost:
            # the last movement phase: the reinforcements go for the empty cities the Allies
            # hold that no German unit on the map can reach (``_last_word``)
            for uid in waiting:
                hexes = state.legal_entry_hexes(uid)
                if hexes:
                    h = min(hexes, key=lambda x: (min((x.distance(c) - city_points(state, c) / 10,
                                                       c) for c in lost), x))
                    return Enter(uid, h.id)
        goal = self._sector_goal(state, Belief(state, "axis"))
        for uid in waiting:
            hexes = state.legal_entry_hexes(uid)
            if hexes:
                zoc = state.zoc_of("allied")
                h = min(hexes, key=lambda x: (x in zoc, x.distance(goal) if goal else 0, x))
                return Enter(uid, h.id)
        return None

    def _last_word(self, state: State) -> set[Hex]:
        """In the Axis's movement phase of the last turn (the last move of the game: control is
        the side that last entered a hex, and CN/OD 11.2 counts the cities held at the end),
        the victory city hexes the Allies hold and have left empty that no German unit on the
        map can reach this phase; empty otherwise."""
        if state.turn < state.game.scenario.last_turn:
            return set()
        enemy = state.occupied_by("allied")
        targets = {h for h in victory_hexes(state.game)
                   if state.control.get(h) == "allied" and h not in enemy}
        for u in sorted(state.units):
            if not targets:
                break
            if (state.units[u].status == "on_map" and state.side_of(u) == "axis"
                    and state.move_refusal(u) is None):
                targets -= set(state.legal_destinations(u))
        return targets

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
            if (us.status == "on_map" and us.hex is not None and state.side_of(uid) == "axis"
                    and uid not in movers):
                count[us.hex] = count.get(us.hex, 0) + 1
        for u in movers:
            count[map_hex(state, u)] = count.get(map_hex(state, u), 0) + 1

        def send(uid: str, h: Hex) -> None:
            here = map_hex(state, uid)
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
        shut = shut_entries(state, "axis")
        for c in cities:
            have[c] = 0.0
            inside = [u for u in state.units_at(c) if state.side_of(u) == "axis"]
            # a city that is also the full entry hex of reinforcements due (Avranches 1125,
            # CN 11.1.4) keeps room for them (CN 4.1.1, 4.2.1): the strongest units stay, the
            # others go on. Before, the 3rd Parachute and 77th Divisions' first four regiments
            # sat in Avranches from turn 2 to 14 and a dozen regiments due there never entered
            # (docs/bots.md, issue #34)
            room = limit - min(shut.get(c, 0), limit)
            if shut.get(c):
                inside.sort(key=lambda u: (u in movers, -state.defence_of(u), u))
            for n, u in enumerate(inside):
                if n >= room and u in movers:
                    continue
                have[c] += state.defence_of(u)
                if u in movers:
                    stay.add(u)
        # retake the victory cities the Allies passed through and left empty: control is the
        # side that last entered (docs/rules-notes.md "Control and victory")
        lost = sorted((h for h in victory_hexes(state.game) if state.control.get(h) == "allied"
                       and h not in enemy), key=lambda h: (-city_points(state, h), h))
        # on the last turn any unit will do: no Allied move follows, and a unit that must
        # attack from the city (CN 4.1.2) leaves it German whatever the result
        last = state.turn >= state.game.scenario.last_turn
        for c in lost:
            options = [u for u in movers if free(u) and c in dests[u] and count.get(c, 0) < limit]
            calm = [u for u in options if not dests[u][c].engaged]
            if calm or (options and (city_points(state, c) >= 20 or last)):
                u = min(calm or options, key=lambda x: (x in armour, dests[x][c].cost, x))
                send(u, c)
                have[c] = state.defence_of(u)
        # every city within reach of the enemy's mobile units keeps at least one unit: an
        # empty city is taken by any unit passing through it; a held one must be attacked
        threat, ends = self._reach(state)
        for c in sorted(cities, key=lambda h: (-city_points(state, h), -threat.get(h, 0.0), h)):
            if count.get(c, 0) > 0 or c not in ends:
                continue
            options = [u for u in movers if free(u) and c in dests[u]]
            calm = [u for u in options if not dests[u][c].engaged]
            if calm:
                u = min(calm, key=lambda x: (x in armour, state.defence_of(x) if needs[c] <= 0
                                             else -state.defence_of(x), dests[x][c].cost, x))
                send(u, c)
                have[c] += state.defence_of(u)
        # the cities worth most to the Axis (OD 11.2.2: Marseille and Toulon 60, Lyon 40;
        # no Normandy city is worth 40) are topped up to their need while units can get in
        top_up = 0 if self.style in ("hold", "fill") else TOP_UP_POINTS
        for c in sorted(cities, key=lambda h: (-_axis_points(state, h), h)):
            if _axis_points(state, c) < top_up or c not in ends:
                continue
            while have[c] < needs[c] and count.get(c, 0) < limit:
                options = [u for u in movers if free(u) and c in dests[u]
                           and not dests[u][c].engaged]
                if not options:
                    break
                u = min(options, key=lambda x: (x in armour, dests[x][c].cost, x))
                send(u, c)
                have[c] += state.defence_of(u)
        # a screen across the Allies' roads to the cities still open (CN/OD 4.1.2)
        self._screen(state, cities, movers, dests, armour, count, limit, free, send)
        # 3. an engaged unit that began there, did not move and holds dominant terrain (or
        # half of Caen beside the Allies in the other, CN 5.1.2) stays: it owes no attack
        # (CN 4.1.2)
        for uid in movers:
            if not free(uid) or not state.units[uid].started_engaged:
                continue
            here = map_hex(state, uid)
            adjacent = [n for n in board.neighbours(here) if n in enemy]
            if adjacent and state.may_stay_engaged(here, "axis", adjacent):
                stay.add(uid)
        # 4. the others play greedy's way, one move at a time: break contact from a hopeless
        # owed attack, gather attack groups (an Allied unit destroyed is worth 10 points to
        # the Axis, CN 11.2.2), advance towards the objectives
        done.update(stay, orders)
        if orders:
            return [Move(uid, h.id) for uid, h in orders.items()]
        if self.style == "hold":  # only break contact from a hopeless owed attack (4.1.2)
            for uid in movers:
                if uid in done or not state.engaged(uid):
                    continue
                done.add(uid)
                dest = self._withdrawal(belief, "axis", uid)  # type: ignore[arg-type]  # a Belief answers the State queries it reads
                if dest is not None:
                    return [Move(uid, dest.id)]
            return []
        return GreedyPolicy._one_move(self, belief, "axis", done)  # type: ignore[arg-type]  # a Belief answers the State queries it reads (the enemy as this side believes it)

    def _screen(self, state: State, cities: list[Hex], movers: list[str],
                dests: dict, armour: set[str], count: dict[Hex, int], limit: int,
                free, send) -> None:
        """A screen across the Allies' roads to the empty victory cities (CN/OD 4.1.2: a unit
        entering a zone of engagement stops). While some empty city could be entered by an
        Allied unit next turn (``multi_reach``, with the screen planned so far in the way), the
        most valuable one's Allied route is cut: a free unit goes, out of Allied zones, to
        the hex of that route with the most defensive terrain columns, nearest the Allies on
        a tie, or into the city itself."""
        enemy_movers = _enemy_movers(state, "allied")
        if not enemy_movers:
            return
        skip: set[Hex] = set()
        for _ in range(len(movers)):
            planned = {h for h, n in count.items() if n > 0}
            # units free to move count where they will be, not where they are
            for u in movers:
                if free(u) and count.get(map_hex(state, u), 0) <= 1:
                    planned.discard(map_hex(state, u))
            came = multi_reach(state, enemy_movers, planned)
            exposed = [c for c in cities if c in came and c not in planned and c not in skip]
            if not exposed:
                return
            c = max(exposed, key=lambda h: (city_points(state, h), -h.distance(
                min(state.occupied_by("allied") or {h}, key=lambda e: e.distance(h))), h))
            path = []
            h: Hex | None = c
            while h is not None:
                path.append(h)
                h = came.get(h)
            best = None
            for i, h in enumerate(path):  # 0: the city, the last: an Allied start
                if count.get(h, 0) >= limit:
                    continue
                for u in movers:
                    if not free(u) or h not in dests[u] or dests[u][h].engaged:
                        continue
                    key = (terrain_columns(state, h)[0] + (2 if h == c else 0), i,
                           u not in armour, -state.defence_of(u), u)
                    if best is None or key > best[0]:
                        best = (key, u, h)
            if best is None:
                skip.add(c)
                continue
            send(best[1], best[2])

    # ------------------------------------------------------------------ combat
    def _combat_choice(self, state: State) -> list[Action]:
        side = state.phase.side
        assert side is not None, "a combat phase is a side's"
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
            # each row lifted to start at 0: the optimiser's search starts from a value of -1,
            # so a row all below it (an attack from the sea that fails unless it gets air,
            # CN 11.1.1) would get no air; a constant per attack leaves the best sharing as is
            lifted = [{x: v - min(rows[t][1].values()) for x, v in rows[t][1].items()}
                      for t in worth]
            plan = optimise_air(belief, [rows[t][0] for t in worth],  # type: ignore[arg-type]  # a Belief answers the State queries it reads (the enemy as this side believes it)
                                points=state.air_points.get(side, 0), table=lifted)
        best: tuple[float, Action] | None = None
        scored: tuple[float, Action]
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
        return steps * step_vp(state, "axis" if side == "allied" else "allied",
                               waning=side == "allied"), bombard

