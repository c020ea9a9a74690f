"""What a campaign position is worth to a side, in victory points (issue #34, item 2).

The campaign games are won on points (CN/OD 11.2): cities held at the end, units destroyed
(CN 11.2.1: 2 a German unit, of which the German player forgives a third at the end, 11.2.2;
CN 11.2.2: 10 an Allied unit; OD 11.2.1: 2 a German unit) and, in Dragoon, divisions exited
and no German left. The hard players (``wargame.bots.campaign_hard``) value everything in
those points, so each side plays to win the game, not the next combat:

- ``vp_margin``: the side's points minus the other's if the game ended now
  (``State.victory_points``, the end-of-game third included);
- ``step_vp``: what one step of a side's unit is worth: half the points its destruction gives
  the enemy, plus its worth as material (a unit that holds or takes cities later);
- ``attack_value``: the expected points an attack gains its side, from the exact CRT
  distribution (CN/OD 5.1.6): steps lost on both sides at ``step_vp``, plus the chance the
  defender leaves a victory city times that city's points to both sides;
- ``Belief``: the position as one side may know it. CN/OD 5.1.1 hides the enemy's counter
  values ("o atacante não pode verificar os pontos de defesa das unidades que vai atacar antes
  de declarar"); a player knows the counter mix, so an enemy unit counts at the mean values of
  the enemy's units of its type (full or reduced), the same table as ``state.view`` leaves
  out. Previews through a ``Belief`` never read a hidden enemy value.

Pure Python on the engine; no randomness.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from wargame.hexgrid import Hex
from wargame.operational.combat import assess_attack
from wargame.operational.tables import split_result

if TYPE_CHECKING:
    from wargame.operational.combat import Assessment
    from wargame.operational.state import Game, State

__all__ = ["Belief", "estimated_values", "vp_margin", "step_vp", "city_points", "attack_value",
           "emp_cover_steps", "loss_vp", "MATERIAL_VP"]

# What one step is worth as material, beyond the points its unit's destruction gives the
# enemy: a German step holds ground (the cities) for later turns; an Allied step takes it.
# Chosen by hand (docs/bots.md "hard"), not fitted.
MATERIAL_VP = {"allied": 2.0, "axis": 4.0}
_RETREAT_VP = 0.5  # a retreat: ground given up, maybe a worse hex (as greedy's half step)


@functools.lru_cache(maxsize=16)
def _estimates(game: Game) -> dict[tuple[str, str, bool], tuple[float, float, float]]:
    """(side, unit type, reduced) -> mean (attack, defence, movement) of the scenario's units of
    that kind: what the counter mix tells a player about a counter he may not inspect."""
    sums: dict[tuple[str, str, bool], list[float]] = {}
    for d in game.units.values():
        for reduced in (False, True):
            a = d.reduced_attack if reduced else d.attack
            df = d.reduced_defence if reduced else d.defence
            acc = sums.setdefault((d.side, d.type, reduced), [0.0, 0.0, 0.0, 0.0])
            acc[0] += a
            acc[1] += df
            acc[2] += d.movement
            acc[3] += 1
    return {k: (v[0] / v[3], v[1] / v[3], v[2] / v[3]) for k, v in sums.items()}


def estimated_values(state: State, uid: str) -> tuple[float, float, float]:
    """The (attack, defence, movement) a player of the other side believes ``uid`` has."""
    d = state.game.units[uid]
    return _estimates(state.game)[(d.side, d.type, bool(state.units[uid].reduced))]


class Belief:
    """``state`` as ``side`` may know it: the enemy's attack and defence are estimates
    (``estimated_values``), everything else is the state's own (the board, positions, rules).
    Pass it where the engine's pure functions take a state (``assess_attack``), or call
    ``preview_attack`` on it. Read-only: never apply actions through it."""

    def __init__(self, state: State, side: str) -> None:
        self._state = state
        self.side = side

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)

    def attack_of(self, uid: str) -> int:
        if self._state.game.units[uid].side == self.side:
            return self._state.attack_of(uid)
        return round(estimated_values(self._state, uid)[0])

    def defence_of(self, uid: str) -> int:
        if self._state.game.units[uid].side == self.side:
            return self._state.defence_of(uid)
        return round(estimated_values(self._state, uid)[1])

    def preview_attack(self, target: str, attackers: tuple[str, ...],
                       artillery: tuple[str, ...] = (), air: int = 0, defence_air: int = 0,
                       defence_artillery: tuple[str, ...] = ()) -> Assessment:
        """``State.preview_attack`` with the believed values (odds rounded as the engine's)."""
        return assess_attack(self, Hex.from_id(target), tuple(attackers), tuple(artillery),  # type: ignore[arg-type]  # the belief has the State queries assess_attack reads
                             air, defence_air, tuple(defence_artillery))


def vp_margin(state: State, side: str) -> float:
    """CN/OD 11.2: the side's victory points minus the other's, if the game ended now."""
    vp = state.victory_points()
    other = "axis" if side == "allied" else "allied"
    return float(vp[side]) - float(vp[other])


@functools.lru_cache(maxsize=16)
def _kill_points(game: Game) -> dict[str, float]:
    """Points a unit of ``side`` destroyed swings to the enemy (CN/OD 11.2; the German third
    forgiven at the end, CN 11.2.2, counted as two thirds of the points), with the points it
    would have scored its side by being on the map at the end (OD 11.2.2: 2 a German unit)."""
    out = {"allied": 0.0, "axis": 0.0}
    for v in game.rule("victory", []) or []:
        if v.get("kind") == "destroyed":
            pts = float(v["points"])
            if v.get("forgive_third"):
                pts *= 2 / 3
            out[v["side"]] += pts
        elif v.get("kind") == "on_map":  # OD 11.2.2: the points a unit left on the map scores
            out[v["side"]] += float(v["points"])
    return out


def step_vp(state: State, side: str, waning: bool = False) -> float:
    """The points one step of ``side`` is worth: half of what its unit's destruction gives the
    enemy (a unit has two steps, CN/OD 5.1.6) plus its worth as material (``MATERIAL_VP``).
    ``waning``: the material worth shrinks with the turns left (a unit holds or takes ground
    only while there are turns to play), down to the points alone on the last turn; the
    hard Allies value both sides' steps this way (docs/bots.md, issue #34)."""
    material = MATERIAL_VP.get(side, 2.0)
    if waning:
        sc = state.game.scenario
        material *= max(0, sc.last_turn - state.turn + 1) / max(1, sc.last_turn - sc.first_turn + 1)
    return _kill_points(state.game)[side] / 2 + material


def loss_vp(state: State, uid: str, eliminate: bool, waning: bool = False) -> float:
    """Points its side gives up when its unit ``uid`` takes a loss (CN/OD 5.1.6, 7.0): each
    step lost at its material worth, and the points the unit's destruction gives the enemy
    (CN/OD 11.2) when the loss eliminates it (DE, AE, EMP, or the step of a reduced unit)."""
    side = state.side_of(uid)
    kill = _kill_points(state.game)[side]
    material = step_vp(state, side, waning) - kill / 2  # a step's worth as material
    reduced = state.units[uid].reduced
    if eliminate or reduced:
        return kill + material * (1 if reduced else 2)
    return material


@functools.lru_cache(maxsize=16)
def _city_points(game: Game) -> dict[Hex, tuple[int, int]]:
    """Victory city hex -> (its points to the Allies, to the Axis), shared by hexes as the
    engine counts them (docs/rules-notes.md: a city of two hexes is shared by hexes held)."""
    out: dict[Hex, tuple[int, int]] = {}
    for v in game.rule("victory", []) or []:
        if v.get("kind") == "city":
            hexes = game.board.places.get(v["place"], ())
            for h in hexes:
                out[h] = (int(v["points"].get("allied", 0)) // max(1, len(hexes)),
                          int(v["points"].get("axis", 0)) // max(1, len(hexes)))
    return out


def city_points(state: State, h: Hex) -> float:
    """What changing hands of victory city hex ``h`` swings the margin by (both sides' points,
    CN/OD 11.2); 0 for another hex."""
    pts = _city_points(state.game).get(h)
    return float(pts[0] + pts[1]) if pts else 0.0


def victory_hexes(game: Game) -> dict[Hex, tuple[int, int]]:
    return _city_points(game)


def _steps(state: State, uids: Sequence[str]) -> int:
    return sum(1 if state.units[u].reduced else 2 for u in uids)


def _emp_losses(state: State, side: str, attackers: Sequence[str],
                defenders: Sequence[str]) -> tuple[int, int]:
    """Steps each side loses to an EMP (CN/OD 5.1.6), as the bots answer it
    (``auto_answer``: each side gives up what is worth least): the defender one unit, its
    weakest (at ``side``'s belief of its values, CN/OD 5.1.1); the attacker the cheapest set of
    whole units whose attack covers that unit's defence (all of them when none does)."""
    if not defenders or not attackers:
        return 0, 0

    def believed(u: str) -> tuple[float, float]:
        if state.game.units[u].side == side:
            return float(state.attack_of(u)), float(state.defence_of(u))
        a, d, _ = estimated_values(state, u)
        return a, d

    gone = min(defenders, key=lambda u: (sum(believed(u)), u))
    return _steps(state, [gone]), emp_cover_steps(state, attackers, believed(gone)[1])


def emp_cover_steps(state: State, attackers: Sequence[str], need: float) -> int:
    """CN/OD 5.1.6, EMP: the steps the attacker loses when it gives up the cheapest set of
    whole units whose attack (``state.attack_of``: pass a ``Belief`` for another side's
    view) covers ``need``, the defence eliminated; all of them when none does."""
    steps = {u: 1 if state.units[u].reduced else 2 for u in attackers}
    attack = {u: state.attack_of(u) for u in attackers}
    if sum(attack.values()) <= need:
        return sum(steps.values())
    single = [u for u in attackers if attack[u] >= need]
    if single:
        lost = [min(single, key=lambda u: (steps[u], attack[u], u))]
    else:
        lost, total = [], 0
        for u in sorted(attackers, key=lambda u: (-attack[u], u)):
            lost.append(u)
            total += attack[u]
            if total >= need:
                break
    return sum(steps[u] for u in lost)


def attack_value(state: State, side: str, distribution: dict[str, Fraction],
                 attackers: Sequence[str], defenders: Sequence[str], target: Hex) -> float:
    """Expected victory points an attack gains ``side`` (CN/OD 5.1.6 results): the defender's
    steps lost at ``step_vp`` of its side, the attacker's own at its side's, and the chance
    the hex is cleared times its city points (the attacker may advance and take it, 5.2)."""
    enemy = "axis" if side == "allied" else "allied"
    d_all = _steps(state, defenders)
    a_all = _steps(state, attackers)
    waning = side == "allied"  # the hard Allies' view (step_vp)
    d_step, a_step = step_vp(state, enemy, waning), step_vp(state, side, waning)
    city = city_points(state, target) if state.control.get(target) != side else 0.0
    # CN 11.1.1 / OD 5.3: a unit attacking from the sea that cannot land (the hex not cleared,
    # or an attacker retreat: it stays at sea) is destroyed at the end of the combat phase
    at_sea = _steps(state, [u for u in attackers if state.units[u].status == "at_sea"])
    value = 0.0
    emp = _emp_losses(state, side, attackers, defenders) if "EMP" in distribution else (0, 0)
    for result, p in distribution.items():
        d_code, a_code = split_result(result)
        gain = 0.0
        cleared = False
        if d_code == "DE":
            gain += d_all * d_step
            cleared = True
        elif d_code == "DRB":
            gain += d_step + _RETREAT_VP
            cleared = True
        elif d_code == "DRI":
            gain += _RETREAT_VP
            cleared = True
        elif d_code == "DVB":
            gain += d_step
        elif d_code == "EMP":
            # CN/OD 5.1.6: the defender eliminates units of its choice, the attacker units of
            # at least their defence in attack, the rest of the defenders retreat
            d_lost = emp[0]
            gain += d_lost * d_step + (_RETREAT_VP if len(defenders) > 1 else 0.0)
            cleared = True
        if cleared:
            gain += 0.7 * city  # the attacker may advance into it (5.2); not sure to hold
        loss = 0.0
        if a_code == "AE":
            loss = a_all * a_step
        elif a_code == "ARB":
            loss = a_step + _RETREAT_VP
        elif a_code == "ARI":
            loss = _RETREAT_VP
        elif a_code == "AVB":
            loss = a_step
        elif d_code == "EMP":
            loss = emp[1] * a_step
        if at_sea and (not cleared or a_code in ("ARB", "ARI")):
            loss = max(loss, at_sea * a_step)  # the units at sea are lost (CN 11.1.1, OD 5.3)
        value += float(p) * (gain - loss)
    return value


def carpet_value(state: State, side: str, center: Hex, waning: bool = False) -> float:
    """Expected points to ``side`` of carpet bombing ``center`` (CN 6.3): the table is rolled
    for the hex and each neighbour that holds units of either side ("Se houver unidades aliadas
    ... devem-se jogar os dados igualmente"); DB costs the weakest unit a step, DE eliminates
    it, DA every unit there (the engine's ``_do_carpet``). The enemy's losses count for
    ``side`` and its own against, each at ``loss_vp``; the weakest is picked by the values
    ``side`` may know (CN 5.1.1: the enemy's at the counter mix, ``estimated_values``)."""
    dist = state.game.tables.carpet_distribution()

    def believed(u: str) -> float:
        if state.game.units[u].side == side:
            return float(state.attack_of(u) + state.defence_of(u))
        a, d, _ = estimated_values(state, u)
        return a + d

    total = 0.0
    for h in (center, *state.game.board.neighbours(center)):
        units = list(state.units_at(h))
        if not units:
            continue
        sign = -1.0 if state.game.units[units[0]].side == side else 1.0
        weakest = min(units, key=lambda u: (believed(u), u))
        value = (float(dist.get("DA", 0)) * sum(loss_vp(state, u, True, waning) for u in units)
                 + float(dist.get("DE", 0)) * loss_vp(state, weakest, True, waning)
                 + float(dist.get("DB", 0)) * loss_vp(state, weakest, False, waning))
        total += sign * value
    return total
