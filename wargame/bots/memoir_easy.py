"""A Memoir '44 heuristic opponent ("easy"): exact dice odds, good ground, no look-ahead.

Every choice is scored in *medals* (the victory currency, M44 p.14 Victory) from the exact
battle dice distributions of ``wargame.memoir.dice`` (M44 p.12 Resolving Combat):

- a battle is worth P(eliminating the target) x its medals, plus a little per expected figure
  lost and per flag (M44 p.12 Retreat), rolled with the engine's own ``battle_dice`` (range,
  line of sight, terrain protection, card bonuses);
- a hex is worth the best battle a unit could fight from it, the medals of an objective on it,
  minus the battles the enemy could fight against it (its cover, M44 p.17 Terrain), plus a
  small pull toward the nearest enemy;
- a card is worth the units it would order (greedily, by what each could achieve this turn),
  or its targets (Air Power, Barrage), or the figures it could bring back (Medics).

Pending decisions: retreat to the safest hex, take ground when the new hex is as good (armour
always: it earns an overrun, M44 p.13), always ambush, keep the better Recon card.

The policy reads only public information (the board, its own hand, the cards played) and
keeps no memory: its choice depends on the position alone and is deterministic. It never
looks at the state's dice: a card that rolls when played (Their Finest Hour) is tried on a
copy with dice of its own.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from wargame.dice import Dice
from wargame.hexgrid import Hex
from wargame.memoir import rules
from wargame.memoir.actions import Action, Unit
from wargame.memoir.board import ALLIES, hex_to_m44, other_side
from wargame.memoir.cards import card
from wargame.memoir.dice import outcome_distribution
from wargame.memoir.game import MemoirState

__all__ = ["MemoirEasyPolicy", "attack_value", "EasyBrain", "decide", "card_value", "unit_medals",
           "Weights", "EASY", "order_units", "support_card_value"]

KILL_FIGURE = 0.12  # medals per expected figure lost short of elimination
FLAG = 0.04  # medals per flag that makes a surviving unit retreat
THREAT_WEIGHT = 0.3  # share of an enemy unit's possible battle counted as a threat
ADVANCE = 0.015  # medals per hex closer to the nearest enemy
OBJECTIVE = 0.6  # share of an objective's medals for standing on it
UNLIMITED = 99  # the retreat room of a unit whose blocked retreats are not counted


@dataclass(frozen=True)
class Weights:
    """The weights of easy's scoring, in medals (defaults: the easy player's own, ``EASY``).
    The normal player scores with its own, measured set (``memoir_search.NORMAL_WEIGHTS``)."""

    kill_figure: float = KILL_FIGURE
    flag: float = FLAG
    threat: float = THREAT_WEIGHT
    advance: float = ADVANCE
    objective: float = OBJECTIVE
    # a flag the unit has no room to retreat for costs a figure (M44 p.12 Retreat); easy
    # ignores it (every flag a mere push)
    retreat_room: bool = False
    # an enemy's reach in threats: armour moves up to 3 hexes and still battles, special
    # forces 2 (M44 p.8-9); easy counts one hex of movement for every unit
    threat_reach: bool = False
    # armour's close assault counts its overrun: the chance the target leaves its hex times
    # the best battle the tank could fight from there (M44 p.13 Armor Overrun); easy ignores it
    overrun: bool = False
    # each enemy unit battles one target: its threat to a unit is shared out among the units
    # it could battle, in proportion to what each battle is worth (M44 p.9 Battle: a unit battles
    # once a turn); easy counts every enemy's full threat against every unit in its reach
    threat_share: bool = False


EASY = Weights()


@lru_cache(maxsize=4096)
def attack_value(dice: int, kind: str, figures: int, medals: int = 1,
                 stars: bool = False, kill: float = KILL_FIGURE, flag: float = FLAG,
                 room: int = UNLIMITED) -> float:
    """Expected medals of rolling ``dice`` at a unit of ``kind`` with ``figures`` left:
    P(elimination) x ``medals`` + ``kill`` per figure lost + ``flag`` per flag on a
    survivor (exact, ``outcome_distribution``); each flag beyond the ``room`` the unit has to
    retreat costs a figure (M44 p.12 Retreat)."""
    if dice <= 0 or figures <= 0:
        return 0.0
    total = 0.0
    for (hits, flags), p in outcome_distribution(dice, kind, stars).items():
        pf = float(p)
        lost = hits + max(0, flags - room)
        if lost >= figures:
            total += pf * medals
        else:
            total += pf * (kill * lost + flag * min(flags, room, 2))
    return total


@lru_cache(maxsize=4096)
def vacate_chance(dice: int, kind: str, figures: int, steps: int, ignore: int,
                  stars: bool = False) -> float:
    """The chance that ``dice`` rolled at a unit of ``kind`` with ``figures`` left empty its
    hex: it is eliminated (each flag beyond its ``steps`` of retreat room and the ``ignore``
    flags it may disregard costs a figure), or it survives with a flag it must retreat for and
    has a hex to retreat to (M44 p.12 Retreat; p.13 Take Ground)."""
    if dice <= 0 or figures <= 0:
        return 0.0
    total = 0.0
    for (hits, flags), p in outcome_distribution(dice, kind, stars).items():
        lost = hits + max(0, flags - steps - ignore)
        if lost >= figures or (flags > ignore and steps >= 1):
            total += float(p)
    return total


def unit_medals(state: MemoirState, u: Unit) -> int:
    per = (state.scenario.opt("elimination_medals") or {}).get(u.side, {})
    return int(per.get(u.kind, 1))


def _terrain(state: MemoirState) -> rules.Terrainish:
    return rules.Terrainish(state.scenario, state.occupancy(), state.sandbags, state.wire)


_NUMBERS = itertools.count()  # the numbers of ``_Tables.places``: never given twice


class _Tables:
    """What easy's scoring has worked out on a scenario's board, for every brain (speed only):

    - ``places``: the live units of a side, as (id, hex, kind, special) in id order -> a number
      that stands for them in the keys below;
    - ``threats``: ``EasyBrain._threats`` by its key;
    - ``nearest``: (number of the enemies, hex) -> the distance to the nearest of them;
    - ``in_reach``: (number of the enemies, hex, reach) -> the positions in their list of
      those within that distance of the hex;
    - ``ignore``: (hex, side, sandbags there) -> may a unit there ignore a flag (1 or 0).

    All are emptied together past 20,000 places or 100,000 entries in a table (memory).
    """

    def __init__(self, scenario: object) -> None:
        self.scenario = scenario
        self.clear()

    def clear(self) -> None:
        self.places: dict[tuple, int] = {}
        self.threats: dict[tuple, tuple[tuple[int, float], ...]] = {}
        self.nearest: dict[tuple[int, Hex], int] = {}
        self.in_reach: dict[tuple[int, Hex, int], tuple[int, ...]] = {}
        self.ignore: dict[tuple[Hex, str, bool], int] = {}

    def number(self, key: tuple) -> int:
        no = self.places.get(key)
        if no is None:
            if max(len(self.places), len(self.threats) // 5, len(self.nearest) // 5,
                   len(self.in_reach) // 5) > 20_000:
                # a fresh start (numbers are never reused, so a brain holding an old one
                # only misses)
                self.clear()
            no = self.places[key] = next(_NUMBERS)
        return no


_TABLES: dict[int, _Tables] = {}  # by the scenario's id


def _side_of(st: MemoirState, side: str) -> tuple[list[Unit], int]:
    """``EasyBrain._side`` worked out."""
    units = st.live_units(side)
    return units, _tables(st).number(tuple([(e.id, e.hex, e.kind, e.special) for e in units]))


def _tables(state: MemoirState) -> _Tables:
    scenario = state.scenario
    hit = _TABLES.get(id(scenario))
    if hit is None or hit.scenario is not scenario:
        if len(_TABLES) > 64:
            _TABLES.clear()
        hit = _TABLES[id(scenario)] = _Tables(scenario)
    return hit


class EasyBrain:
    """The scoring functions of the easy policy over one state (read-only for the caller:
    hypothetical placements happen on a private copy)."""

    def __init__(self, state: MemoirState, w: Weights = EASY) -> None:
        self.state = state
        self.w = w
        self._copy: MemoirState | None = None
        # the private copy's units of each side and their number (``_Tables``) where they stand
        # (``hex_score`` moves one unit and puts it back: ``_moving`` is its side meanwhile)
        self._at_rest: dict[str, tuple[list[Unit], int]] = {}
        self._moving: str | None = None
        self._loads: dict[str, dict[int, tuple[float, dict[int, float]]]] = {}

    def value(self, dice: int, kind: str, figures: int, medals: int = 1,
              stars: bool = False, room: int = UNLIMITED) -> float:
        """``attack_value`` with this brain's weights."""
        return attack_value(dice, kind, figures, medals, stars, self.w.kill_figure, self.w.flag,
                            room)

    def room(self, st: MemoirState, u: Unit) -> int:
        """The flags ``u`` can take where it stands without losing a figure when the weights
        count blocked retreats (``w.retreat_room``; else ``UNLIMITED``, easy's view): the hexes
        it could retreat (M44 p.12 Retreat: toward its own edge, never through a unit, up to
        3 counted), one more where it may ignore a flag (sandbags, bunkers, hedgehogs)."""
        if not self.w.retreat_room:
            return UNLIMITED
        return 3 - st.retreat_options(u, 3)[1] + self._ignore(st, u)

    # ------------------------------------------------------------------ basic values
    def battle_value(self, st: MemoirState, u: Unit, target: Unit, dice: int | None = None
                     ) -> float:
        n = st.battle_dice(u, target, check_order=False)[0] if dice is None else dice
        v = self.value(n, target.kind, target.figures, unit_medals(st, target),
                       room=self.room(st, target))
        return v + self.overrun_value(st, u, target, n)

    def overrun_value(self, st: MemoirState, u: Unit, target: Unit, dice: int) -> float:
        """With ``w.overrun``, what armour ``u``'s close assault on ``target`` is worth beyond
        its own dice (M44 p.13 Armor Overrun: a tank whose close assault empties the hex may
        take it and battle once more in the turn): the chance the hex is emptied times the
        best battle from it at another enemy (line of sight ignored)."""
        if (not self.w.overrun or u.kind != "tank" or u.hex.distance(target.hex) != 1
                or u.id in st.ctx.overrun or st.ctx.no_overrun
                or st.board.terrain(target.hex) in rules.NO_BATTLE_TERRAIN):
            return 0.0
        t = _terrain(st)
        if not rules.can_enter(t, u.kind, target.hex):
            return 0.0
        follow = 0.0
        for e in st.live_units(other_side(u.side)):
            if e.id == target.id:
                continue
            n = rules.base_dice(u.kind, target.hex.distance(e.hex))
            if n == 0:
                continue
            n -= rules.protection(t, e.hex, e.side, u.kind, target.hex)
            follow = max(follow, self.value(n, e.kind, e.figures, unit_medals(st, e),
                                            room=self.room(st, e)))
        if follow <= 0.0:
            return 0.0
        steps, ignore = self.retreat_room(st, target)
        return vacate_chance(dice, target.kind, target.figures, steps, ignore) * follow

    def retreat_room(self, st: MemoirState, u: Unit) -> tuple[int, int]:
        """(hexes ``u`` could retreat from where it stands, up to 3; flags it may ignore)."""
        _, lost = st.retreat_options(u, 3)
        return 3 - lost, self._ignore(st, u)

    def _ignore(self, st: MemoirState, u: Unit) -> int:
        """1 if ``u`` may ignore a flag where it stands (``rules.ignorable_flags``), else 0."""
        key = (u.hex, u.side, u.hex in st.sandbags)
        table = _tables(st).ignore
        ignore = table.get(key)
        if ignore is None:
            ignore = table[key] = 1 if rules.ignorable_flags(_terrain(st), u.hex, u.side) else 0
        return ignore

    def best_battle(self, st: MemoirState, u: Unit) -> tuple[float, Unit | None]:
        reach = len(rules.RANGE[u.kind]) - 1
        best, who = 0.0, None
        enemies, no = self._side(st, other_side(u.side))
        table = _tables(st).in_reach
        key = (no, u.hex, reach)
        near = table.get(key)
        if near is None:
            near = table[key] = tuple(i for i, e in enumerate(enemies)
                                      if u.hex.distance(e.hex) <= reach)
        for i in near:
            e = enemies[i]
            v = self.battle_value(st, u, e)
            if v > best:
                best, who = v, e
        return best, who

    def threat(self, st: MemoirState, u: Unit, h: Hex) -> float:
        """What the enemy could do to ``u`` standing on ``h`` next turn (line of sight
        ignored), weighted by ``w.threat``: each enemy unit battles after one hex of movement,
        or with ``w.threat_reach`` as far as it may move and still battle (``_approach``)."""
        room = self.room(st, u) if u.hex == h else UNLIMITED
        loads = self._enemy_loads(u.side) if self.w.threat_share else None
        total = 0.0
        for eid, v in self._threats(st, u, h, room):
            if loads is not None:
                load, per = loads.get(eid, (0.0, {}))
                load += v - per.get(u.id, 0.0)
                v *= v / load if load > 0.0 else 1.0
            total += v
        return self.w.threat * total

    def _threats(self, st: MemoirState, u: Unit, h: Hex, room: int
                 ) -> tuple[tuple[int, float], ...]:
        """(enemy id, ``_threat_of``) for each enemy unit of ``u`` on ``st`` that could fight a
        battle against ``u`` standing on ``h`` next turn, in their order. The result depends
        only on the enemies' places, ``u``'s side, kind and figures, ``h`` (its sandbags),
        ``room`` and the weights, so it is kept in a table shared by every brain of the
        scenario (speed only: a player's next decision asks mostly the same questions)."""
        enemies, no = self._side(st, other_side(u.side))
        w = self.w
        key = (no, u.side, u.kind, u.figures, h, h in st.sandbags, room, w.kill_figure, w.flag,
               w.threat_reach)
        table = _tables(st).threats
        hit = table.get(key)
        if hit is None:
            t = _terrain(st)
            found = []
            for e in enemies:
                v = self._threat_of(st, t, e, u, h, room)
                if v > 0.0:
                    found.append((e.id, v))
            hit = table[key] = tuple(found)
        return hit

    def _side(self, st: MemoirState, side: str) -> tuple[list[Unit], int]:
        """The live units of ``side`` on ``st`` (in id order: callers must not change the list)
        and the number that stands for their places in the scenario's tables."""
        if st is self._copy and side != self._moving:
            return self._at_rest[side]
        return _side_of(st, side)

    def _threat_of(self, st: MemoirState, t: rules.Terrainish, e: Unit, u: Unit, h: Hex,
                   room: int) -> float:
        """The battle enemy ``e`` could fight next turn against ``u`` standing on ``h``."""
        d = e.hex.distance(h)
        if d > 7:
            return 0.0
        d_eff = d if e.kind == "gun" else max(1, d - self._approach(e))
        n = rules.base_dice(e.kind, d_eff)
        if n == 0:
            return 0.0
        n -= rules.protection(t, h, u.side, e.kind, e.hex)
        return self.value(n, u.kind, u.figures, unit_medals(st, u), room=room)

    def _enemy_loads(self, side: str) -> dict[int, tuple[float, dict[int, float]]]:
        """For each enemy of ``side`` on this brain's state: the total of the battles it could
        fight next turn against ``side``'s units where they stand, and each of them."""
        if side not in self._loads:
            st = self.state
            mine = [u.id for u in st.live_units(side)]
            # for each enemy, its battle against each of side's units (0.0: none)
            pers: dict[int, dict[int, float]] = {
                e.id: dict.fromkeys(mine, 0.0) for e in st.live_units(other_side(side))}
            for u in st.live_units(side):
                for eid, v in self._threats(st, u, u.hex, self.room(st, u)):
                    pers[eid][u.id] = v
            self._loads[side] = {eid: (sum(per.values()), per) for eid, per in pers.items()}
        return self._loads[side]

    def _approach(self, e: Unit) -> int:
        """The hexes enemy unit ``e`` is reckoned to move before it battles (M44 p.8-9)."""
        if not self.w.threat_reach:
            return 1
        if e.kind == "tank":
            return 3
        return 2 if e.special == "special" else 1

    def objective_value(self, st: MemoirState, side: str, h: Hex) -> float:
        v = 0.0
        for i, obj in enumerate(st.scenario.objectives):
            if obj.side != side or h not in obj.hexes:
                continue
            if obj.permanent and st.permanent.get(str(i)) == side:
                continue
            v += obj.medals * (1.0 if obj.permanent else self.w.objective)
        return v

    def nearest_enemy(self, st: MemoirState, side: str, h: Hex) -> int:
        enemies, no = self._side(st, other_side(side))
        table = _tables(st).nearest
        d = table.get((no, h))
        if d is None:
            q, r = h
            # Hex.distance, inline
            ds = [(abs(q - x) + abs(r - y) + abs(q - x + r - y)) // 2
                  for x, y in [e.hex for e in enemies]]
            d = table[(no, h)] = min(ds) if ds else 0
        return d

    def can_fire_after(self, st: MemoirState, u: Unit, h: Hex, cost: int) -> bool:
        """M44 p.6-9: may ``u`` battle after moving ``cost`` hexes to ``h`` this turn?"""
        effect = st.ctx.effect
        if effect == "dig_in" or st.board.terrain(h) == "ocean":
            return False
        if u.kind == "gun":
            return cost == 0
        if u.kind == "inf":
            limit = 1
            if u.special == "special" or effect == "infantry_assault":
                limit = 2
            if effect == "behind_enemy_lines":
                limit = 3
            if cost > limit:
                return False
        if cost > 0 and st.board.terrain(h) in rules.NO_BATTLE_TERRAIN \
                and u.special != "resistance":
            return False
        return True

    def _work(self) -> MemoirState:
        if self._copy is None:
            self._copy = copy = self.state.clone()
            self._at_rest = {side: _side_of(copy, side) for side in (ALLIES, other_side(ALLIES))}
        return self._copy

    def hex_score(self, u0: Unit, h: Hex, cost: int, fire: bool = True) -> tuple[float, float]:
        """(score, fire part) of unit ``u0`` standing on ``h`` after moving ``cost`` hexes."""
        st = self._work()
        u = st.units[u0.id]
        orig = u.hex
        if h != orig:
            st.place(u, h)
            self._moving = u.side
        try:
            fire_v = 0.0
            if fire and self.can_fire_after(st, u, h, cost):
                fire_v = self.best_battle(st, u)[0]
                if st.ctx.effect == "artillery_bombard" and u.kind == "gun":
                    fire_v *= 2
            score = (fire_v + self.objective_value(st, u.side, h) - self.threat(st, u, h)
                     - self.w.advance * self.nearest_enemy(st, u.side, h))
        finally:
            if h != orig:
                st.place(u, orig)
                self._moving = None
        return score, fire_v

    def destinations(self, st: MemoirState, u: Unit) -> dict[Hex, int]:
        opts = dict(st.move_options(u.id)) if st.max_move(u) > 0 else {}
        opts[u.hex] = 0
        return opts

    def order_potential(self, st: MemoirState, u: Unit) -> tuple[float, float]:
        """(gain of ordering ``u`` under the card in play, expected battle value)."""
        if st.ctx.effect == "dig_in":
            if u.hex in st.sandbags:
                return 0.01, 0.0
            return 0.02 + 0.5 * self.threat(st, u, u.hex), 0.0
        base = self.hex_score(u, u.hex, 0, fire=False)[0]
        best, best_fire = base, 0.0
        for h, c in self.destinations(st, u).items():
            s, f = self.hex_score(u, h, c)
            if s > best:
                best, best_fire = s, f
        return 0.01 + best - base, best_fire


# ---------------------------------------------------------------------- decisions
def _where(h: Hex | None) -> str:
    """A hex as the rulebook names it: (row, column)."""
    if h is None:
        return "-"
    r, c = hex_to_m44(h)
    return f"({r},{c})"


def _card_title(a: Action) -> str:
    c = card(a.card)
    return c.title + (f" [{a.option}]" if a.option else "")


def order_units(st: MemoirState, brain: EasyBrain,
                pots: dict[int, tuple[float, float]] | None = None
                ) -> tuple[float, float, list[int]]:
    """Greedily order units on ``st`` (order phase, played in place): the best potential
    first (``pots``: the units' order potentials, computed here when not given). Returns
    (total gain, total expected battle value, units ordered)."""
    if pots is None:
        pots = {u.id: brain.order_potential(st, u) for u in st.live_units(st.active)}
    total = fire = 0.0
    ordered: list[int] = []
    while st.phase == "order" and not st.pending and not st.winner:
        acts = [a for a in st.legal_actions() if a.kind == "order"]
        if not acts:
            break
        best = max(acts, key=lambda a: (pots.get(a.unit, (0.0, 0.0))[0], -a.unit))
        g, f = pots.get(best.unit, (0.0, 0.0))
        if g <= 0:
            break
        st.apply(best, validate=False)
        total += g
        fire += f
        ordered.append(best.unit)
    return total, fire, ordered


def card_value(state: MemoirState, a: Action, w: Weights = EASY) -> tuple[float, str]:
    """The value of playing card action ``a`` now and a short reason."""
    st = state.clone()
    st.dice = Dice(7919 + len(state.history))  # never the game's own future dice
    st.apply(a, validate=False)
    brain = EasyBrain(st, w)
    side = state.active
    if st.winner:
        return (100.0 if st.winner == side else -100.0), "ends the game"
    if st.phase == "order":
        gain, fire, ordered = order_units(st, brain)
        return gain, (f"{len(ordered)} units ordered, {fire:.2f} medals expected from "
                      "battles")
    return support_card_value(st, side, brain)


def support_card_value(st: MemoirState, side: str, brain: EasyBrain) -> tuple[float, str]:
    """The value and reason of a card just played by ``side`` on ``st`` that orders no unit:
    Air Power and Barrage by their best targets, Medics by the figures it could bring back."""
    enemy = other_side(side)
    if st.phase == "air":
        per = 2 if side == ALLIES else 1  # M44 Air Power: dice a hex
        vals = sorted((brain.value(per, e.kind, e.figures, unit_medals(st, e), True)
                       for e in st.live_units(enemy)), reverse=True)
        v = sum(vals[:3])
        return v, f"air strike worth {v:.2f} medals"
    if st.phase == "barrage":
        v = max((brain.value(4, e.kind, e.figures, unit_medals(st, e))
                 for e in st.live_units(enemy)), default=0.0)
        return v, f"barrage worth {v:.2f} medals"
    if st.phase == "medics":
        missing = max((u.max_figures - u.figures for u in st.live_units(side)), default=0)
        n = len(st.hands[side]) + 1
        v = 0.1 * min(missing, n / 3)
        return v, f"medics could bring back {min(missing, n / 3):.1f} figures"
    return 0.0, "no orders"


def _best(items: Iterable[tuple[float, Action, str]]) -> tuple[float, Action, str]:
    return max(items, key=lambda t: t[0])


def decide(state: MemoirState, w: Weights = EASY) -> tuple[Action, str]:
    """The easy policy's action for ``state`` and a one-line reason (scored with ``w``)."""
    acts = state.legal_actions()
    if not acts:
        raise ValueError("decide: the position has no legal action (game over?)")
    if len(acts) == 1:
        return acts[0], "the only legal action"
    if state.pending:
        return _pending(state, acts, w)
    ph = state.phase
    if ph == "card":
        scored = []
        for a in acts:
            v, why = card_value(state, a, w)
            scored.append((v, a, why))
        v, a, why = max(scored, key=lambda t: t[0])
        return a, f"played {_card_title(a)}: {why}"
    if ph == "order":
        st = state.clone()
        brain = EasyBrain(st, w)
        pots = {u.id: brain.order_potential(st, u) for u in st.live_units(st.active)}
        orders = [a for a in acts if a.kind == "order"]
        if orders:
            best = max(orders, key=lambda a: (pots[a.unit][0], -a.unit))
            g, f = pots[best.unit]
            if g > 0:
                return best, (f"ordered unit {best.unit}: worth {g:.2f} medals "
                              f"({f:.2f} from its battle)")
        return Action("end_orders"), "no other unit worth ordering"
    if ph == "move":
        return _move(state, acts, w)
    if ph == "battle":
        return _battle(state, acts, w)
    value = EasyBrain(state, w).value
    if ph == "air":
        targets = [a for a in acts if a.kind == "air_target"]
        if targets:
            per = 2 if state.active == ALLIES else 1

            def air(a: Action) -> float:
                e = state.unit_at(a.hex)
                return value(per, e.kind, e.figures, unit_medals(state, e), True)
            best = max(targets, key=air)
            return best, f"air power on {_where(best.hex)}: {air(best):.2f} medals expected"
        return Action("air_strike"), "air strike on the targets chosen"
    if ph == "barrage":
        shots = [a for a in acts if a.kind == "barrage"]
        if shots:
            def bar(a: Action) -> float:
                e = state.unit_at(a.hex)
                return value(4, e.kind, e.figures, unit_medals(state, e))
            best = max(shots, key=bar)
            return best, f"barrage on {_where(best.hex)}: {bar(best):.2f} medals expected"
    if ph == "medics":
        heal = [a for a in acts if a.kind == "medics"]
        if heal:
            best = max(heal, key=lambda a: state.units[a.unit].max_figures
                       - state.units[a.unit].figures)
            return best, f"medics for unit {best.unit}, the most depleted"
    return acts[-1], "nothing better to do"


def _move(state: MemoirState, acts: list[Action], w: Weights = EASY) -> tuple[Action, str]:
    exits = [a for a in acts if a.kind == "exit"]
    if exits:
        return exits[0], f"unit {exits[0].unit} leaves the board for a medal"
    brain = EasyBrain(state, w)
    base: dict[int, float] = {}
    best: tuple[float, Action, str] | None = None
    for a in acts:
        if a.kind != "move":
            continue
        u = state.units[a.unit]
        if u.id not in base:
            base[u.id] = brain.hex_score(u, u.hex, 0)[0]
        cost = state.move_options(u.id).get(a.hex, 1)
        s, f = brain.hex_score(u, a.hex, cost)
        gain = s - base[u.id]
        if best is None or gain > best[0]:
            best = (gain, a, f"moved unit {u.id} to {_where(a.hex)}: +{gain:.2f} medals "
                             f"({f:.2f} from its battle)")
    if best is not None and best[0] > 1e-9:
        return best[1], best[2]
    return Action("end_moves"), "no move improves a unit's position"


def _battle(state: MemoirState, acts: list[Action], w: Weights = EASY) -> tuple[Action, str]:
    brain = EasyBrain(state, w)
    best: tuple[float, Action, str] | None = None
    for a in acts:
        if a.kind == "battle":
            u, e = state.units[a.unit], state.unit_at(a.hex)
            n = state.battle_dice(u, e)[0]
            v = brain.battle_value(state, u, e, n)
            why = (f"unit {u.id} battles {e.kind} at {_where(a.hex)} with {n} dice: "
                   f"{v:.2f} medals expected")
        elif a.kind == "remove_wire":
            v, why = 0.005, f"unit {a.unit} removes the wire"
        else:
            continue
        if best is None or v > best[0]:
            best = (v, a, why)
    if best is not None:
        return best[1], best[2]
    moves = [a for a in acts if a.kind == "move"]  # Behind Enemy Lines: the second move
    if moves:
        mv, why = _move(state, moves, w)
        if mv.kind == "move":
            return mv, why
    return Action("end_battles"), "no battle left"


def _pending(state: MemoirState, acts: list[Action], w: Weights = EASY
             ) -> tuple[Action, str]:
    p = state.pending[-1]
    brain = EasyBrain(state, w)
    if p.kind == "ambush":
        return acts[0], "ambush: strike the assaulting unit first"
    if p.kind == "retreat":
        u = state.units[p.unit]
        scored = [(brain.hex_score(u, a.hex, 0, fire=False)[0], a) for a in acts]
        v, a = max(scored, key=lambda t: t[0])
        return a, f"retreat unit {u.id} to {_where(a.hex)}, the safest hex"
    if p.kind == "take_ground":
        u = state.units[p.unit]
        take = next(a for a in acts if a.kind == "take_ground")
        hold = next(a for a in acts if a.kind == "hold")
        if u.kind == "tank":
            return take, "armour takes ground for an overrun"
        here = brain.hex_score(u, u.hex, 0, fire=False)[0]
        there = brain.hex_score(u, take.hex, 0, fire=False)[0]
        if there >= here - 0.02:
            return take, f"take ground: the new hex is as good ({there:.2f} vs {here:.2f})"
        return hold, f"hold: the new hex is worse ({there:.2f} vs {here:.2f})"
    if p.kind == "ignore_flag":
        return acts[0], "ignore the first flag: keep the protected hex"
    if p.kind == "airdrop":
        return acts[0], f"drop the paratroopers over the suggested hex {_where(acts[0].hex)}"
    if p.kind == "keep":
        def keep_value(a: Action) -> float:
            return card_value(_as_hand(state, p.owner, a.card), Action("play", card=a.card),
                              w)[0] \
                if _playable_alone(a.card) else 0.2
        best = max(acts, key=keep_value)
        return best, f"keep {card(best.card).title}"
    return acts[0], "first option"


def _playable_alone(cid: int) -> bool:
    return card(cid).name not in ("counter_attack", "ambush", "infantry_assault")


def _as_hand(state: MemoirState, side: str, cid: int) -> MemoirState:
    """A copy of ``state`` where ``side`` is about to play card ``cid`` (to value it)."""
    st = state.clone()
    st.pending = []
    st.winner = None
    st.active = side
    st.phase = "card"
    st.ctx = type(st.ctx)()
    st.hands[side] = [cid]
    return st


class MemoirEasyPolicy:
    """The "easy" computer player: ``decide`` (exact dice odds, good ground, no look-ahead).

    Deterministic and memory-less; ``seed`` is accepted for the common constructor only."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: MemoirState) -> Action:
        return decide(state)[0]

    def explain(self, state: MemoirState) -> str:
        return decide(state)[1]
