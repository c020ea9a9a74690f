"""The air-point optimiser: how to share the air points left among the attacks of a combat
phase so that the phase's expected result is the best possible (issue #19). Used by the greedy
bot and the attack panel; pure Python on the engine only, so it sits with the bots, below the
rooms and the dashboard (pyproject's import contracts).

Rules: CN/OD 6.1 (the air points of a turn are spent on combats, in attack or defence, and
what is not spent is lost), CN 6.0 / OD 6.2 (at least ``strike_min`` and at most
``strike_max`` points on one combat; no air power on some turns), CN/OD 5.1.6 (the results),
OD 10.0 (no air support for guerrillas not stacked with other Allied units).

Each attack's value at each amount of air comes exactly from the CRT distribution the engine
computes (``State.preview_attack``: odds, column shifts, 2d6 bands). The allocation is then a
knapsack solved exactly by dynamic programming over attacks x points (``optimise_air``): with
n attacks, P points and at most ``strike_max`` points per attack it costs
O(n * P * strike_max) additions after the n * (strike_max + 1) previews.

Objectives (``OBJECTIVES``):
- ``steps``: expected steps the defender loses (DE: every step in the hex; DRB and DVB one
  step; EMP: the defender gives up at least one piece, counted as its smallest piece's
  steps, CN 5.1.6 "elimina uma ou mais peças, à sua escolha").
- ``clear``: the chance the defender leaves the hex (DE, DRB, DRI, EMP: CN/OD 5.1.6).
Summed over the attacks, so ``clear`` is the expected number of hexes cleared.

The defender's own answer (defence air, artillery) is not known when the points are shared
out and is left out, as in the attack panel's preview. ``sequential_air`` is the way the
greedy bot shared points before this module (each attack in turn takes the amount best for
itself alone, with a small charge per point): the bench (bench/air_plan.py) compares the two
on positions from bot games. Pure Python; no UI.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from wargame.errors import IllegalAction
from wargame.hexgrid import Hex
from wargame.operational.tables import split_result

if TYPE_CHECKING:
    from wargame.operational.state import State

__all__ = [
    "OBJECTIVES",
    "AirPlan",
    "BOT_AIR_CHARGE",
    "PlannedAttack",
    "air_amounts",
    "optimise_air",
    "planned_attack",
    "sequential_air",
    "value_table",
]

BOT_AIR_CHARGE = 0.02
"""What the greedy bot charges itself per air point (it keeps points for the enemy's phase)."""
CLEARING = frozenset({"DE", "DRB", "DRI", "EMP"})  # CN/OD 5.1.6: the defender leaves the hex


@dataclass(frozen=True)
class PlannedAttack:
    """An attack declared (or about to be) in a combat phase, without its air points."""

    target: str
    attackers: tuple[str, ...]
    artillery: tuple[str, ...] = ()


@dataclass(frozen=True)
class AirPlan:
    """Air points per attack (in the order the attacks were given) and what they are worth."""

    attacks: tuple[PlannedAttack, ...]
    allocation: tuple[int, ...]
    values: tuple[float, ...]  # the objective of each attack at its allocation
    points: int  # the points there were to share
    objective: str

    @property
    def value(self) -> float:
        return sum(self.values)

    @property
    def spent(self) -> int:
        return sum(self.allocation)

    def air_for(self, target: str) -> int:
        """The points this plan gives the attack on ``target`` (0 if it has none)."""
        return next((a for p, a in zip(self.attacks, self.allocation, strict=True)
                     if p.target == target), 0)


def _steps(state: State, uids: Sequence[str]) -> int:
    return sum(1 if state.units[u].reduced else 2 for u in uids)


def _defender_steps(state: State, distribution: dict[str, Fraction], attackers: Sequence[str],
                    defenders: list[str]) -> float:
    every = _steps(state, defenders)
    smallest = min((_steps(state, [u]) for u in defenders), default=0)
    value = 0.0
    for result, p in distribution.items():
        code, _ = split_result(result)
        if code == "DE":
            value += float(p) * every
        elif code in ("DRB", "DVB"):
            value += float(p) * min(1, every)
        elif code == "EMP":
            value += float(p) * smallest
    return value


def _clear(state: State, distribution: dict[str, Fraction], attackers: Sequence[str],
           defenders: list[str]) -> float:
    return sum(float(p) for r, p in distribution.items() if split_result(r)[0] in CLEARING)


Objective = Callable[["State", dict[str, Fraction], Sequence[str], list[str]], float]
"""(state, CRT distribution, attackers, defenders) -> the value of that distribution."""
OBJECTIVES: dict[str, Objective] = {"steps": _defender_steps, "clear": _clear}


def air_amounts(state: State, side: str, points: int | None = None) -> list[int]:
    """The amounts of air one attack may receive now: 0, then ``strike_min``..``strike_max``
    within the points left (CN 6.0 / OD 6.2; none on a turn without air power, CN/OD 6.0)."""
    air = state.game.tables.air
    left = state.air_points.get(side, 0) if points is None else points
    if state.turn in air.no_air_turns:
        return [0]
    top = min(left, air.strike_max)
    return [0, *range(max(1, air.strike_min), top + 1)]


def planned_attack(state: State, attack: Any) -> PlannedAttack:
    """An attack on offer (an ``Attack`` of ``legal_actions``) with the artillery that may
    fire for it: every gun of its side in range that is not itself attacking (CN/OD 8.0:
    attack or fire, not both), and none for unstacked guerrillas or for attackers forced into a
    maquis area (OD 10.0)."""
    attackers = tuple(attack.attackers)
    if not state.guerrilla_supported(attackers):
        return PlannedAttack(attack.target, attackers)  # OD 10.0: no artillery, no air
    side = state.game.units[attackers[0]].side
    support = tuple(u for u in state.artillery_in_range(side, Hex.from_id(attack.target))
                    if u not in attackers)
    if support and state.support_refusal(attackers, 0, support) is not None:
        support = ()  # OD 10.0: attackers forced into a maquis area fire without guns
    return PlannedAttack(attack.target, attackers, support)


def value_table(state: State, attacks: Sequence[PlannedAttack], points: int | None = None,
                objective: str | Objective = "steps", charge: float = 0.0,
                missing: float = 0.0) -> list[dict[int, float]]:
    """For each attack, the objective at every amount of air the rules allow it, less
    ``charge`` per air point (amounts the engine refuses, e.g. air for unstacked guerrillas,
    OD 10.0, are left out). ``objective``: a name of ``OBJECTIVES`` or such a function. Every
    row has 0; ``missing`` there when the engine cannot even preview the attack without air."""
    score = objective if callable(objective) else _objective(objective)
    out: list[dict[int, float]] = []
    for attack in attacks:
        side = state.game.units[attack.attackers[0]].side
        defenders = state.units_at(Hex.from_id(attack.target))
        supported = state.guerrilla_supported(attack.attackers)
        row: dict[int, float] = {}
        for air in air_amounts(state, side, points):
            if air and not supported:
                break  # OD 10.0
            try:
                a = state.preview_attack(attack.target, attack.attackers, attack.artillery, air)
            except (IllegalAction, ValueError):
                continue
            row[air] = score(state, a.distribution, attack.attackers, defenders) - charge * air
        if 0 not in row:
            row[0] = missing
        out.append(row)
    return out


def _objective(name: str) -> Objective:
    if name not in OBJECTIVES:
        raise ValueError(f"objective: expected one of {sorted(OBJECTIVES)}, got {name!r}")
    return OBJECTIVES[name]


def _points(state: State, attacks: Sequence[PlannedAttack], points: int | None) -> int:
    if points is not None:
        if points < 0:
            raise ValueError(f"points: expected a whole number >= 0, got {points}")
        return points
    if not attacks:
        return 0
    return state.air_points.get(state.game.units[attacks[0].attackers[0]].side, 0)


def optimise_air(state: State, attacks: Sequence[PlannedAttack], points: int | None = None,
                 objective: str = "steps",
                 table: list[dict[int, float]] | None = None) -> AirPlan:
    """The allocation of at most ``points`` air points (default: the attacking side's points
    left, CN/OD 6.1) over ``attacks`` that maximises the summed objective, exactly (dynamic
    programming over attacks x points). Among allocations of equal value the one spending
    fewer points wins, then the one giving points to earlier attacks."""
    attacks = tuple(attacks)
    total = _points(state, attacks, points)
    rows = table if table is not None else value_table(state, attacks, total, objective)
    # best[k][p]: (value, -spent) of the first k attacks with at most p points
    best: list[list[tuple[float, int]]] = [[(0.0, 0)] * (total + 1)]
    choice: list[list[int]] = []
    for row in rows:
        prev = best[-1]
        cur: list[tuple[float, int]] = []
        pick: list[int] = []
        for p in range(total + 1):
            top, take = (-1.0, 0), 0
            for air, v in sorted(row.items()):
                if air > p:
                    break
                before = prev[p - air]
                cand = (round(before[0] + v, 12), before[1] - air)
                if cand > top:
                    top, take = cand, air
            cur.append(top)
            pick.append(take)
        best.append(cur)
        choice.append(pick)
    allocation = [0] * len(attacks)
    p = total
    for k in range(len(attacks) - 1, -1, -1):
        allocation[k] = choice[k][p]
        p -= allocation[k]
    values = tuple(rows[k][a] for k, a in enumerate(allocation))
    return AirPlan(attacks, tuple(allocation), values, total, objective)


def sequential_air(state: State, attacks: Sequence[PlannedAttack], points: int | None = None,
                   objective: str = "steps", charge: float = BOT_AIR_CHARGE,
                   table: list[dict[int, float]] | None = None) -> AirPlan:
    """The greedy bot's former way: the attacks in the order given, each taking the amount
    (within the points still left) that is best for itself alone, less ``charge`` per point."""
    attacks = tuple(attacks)
    total = _points(state, attacks, points)
    rows = table if table is not None else value_table(state, attacks, total, objective)
    left = total
    allocation = []
    for row in rows:
        options = [(v - charge * air, -air) for air, v in row.items() if air <= left]
        _, neg = max(options)
        allocation.append(-neg)
        left += neg
    values = tuple(rows[k][a] for k, a in enumerate(allocation))
    return AirPlan(attacks, tuple(allocation), values, total, objective)
