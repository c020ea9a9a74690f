"""Combat arithmetic (CN/OD 5.1): strengths, odds, column shifts with their reasons.

``assess_attack`` is pure: it reads a state and returns what a declared attack would be
resolved at, with every shift named and cited. The dashboard shows it before the dice roll;
the engine resolves with the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from wargame.hexgrid import Hex
from wargame.operational.tables import odds_ratio, ratio_column, ratio_label

if TYPE_CHECKING:  # pragma: no cover
    from wargame.operational.state_protocol import CampaignSelf

__all__ = ["Shift", "Assessment", "assess_attack", "terrain_columns", "BombardAssessment", "assess_bombardment"]


@dataclass(frozen=True)
class Shift:
    reason: str
    columns: int  # + right (favours the attacker), - left (favours the defender)
    rule: str

    def to_dict(self) -> dict:
        return {"reason": self.reason, "columns": self.columns, "rule": self.rule}


@dataclass(frozen=True)
class Assessment:
    target: str
    attack: int
    defence: int
    attack_air: int
    defence_air: int
    ratio: str
    base_column: int
    shifts: tuple[Shift, ...]
    column: int
    column_label: str
    distribution: dict[str, Fraction] = field(default_factory=dict)

    @property
    def net_shift(self) -> int:
        return sum(s.columns for s in self.shifts)


def terrain_columns(state: CampaignSelf, target: Hex, attacker_hexes: set[Hex] | None = None, *, bombardment: bool = False) -> tuple[int, str]:
    """Best terrain of the defender's hex (CN/OD 5.1.2, OD: "the terrain giving most columns").

    Hex terrain, village and fortification count; a river or canal counts when every
    attacking unit attacks across one (rivers are hexsides); bombardment ignores rivers
    (CN/OD 6.2, 8.0: "exceto rio").
    """
    tables = state.game.tables
    board = state.game.board
    info = board.hexes[target]
    best, name = 0, "open"
    t = tables.terrain.get(info.terrain)
    if t is not None:
        value = t.bombardment_combat if bombardment else t.combat
        if value > best:
            best, name = value, info.terrain
    for flag in ("village", "fortification", "airfield"):
        if getattr(info, flag) and flag in tables.features:
            f = tables.features[flag]
            value = f.bombardment_combat if bombardment else f.combat
            if value > best:
                best, name = value, flag
    if not bombardment and attacker_hexes:
        kinds = [board.river_between(a, target) for a in attacker_hexes]
        if all(kinds):
            for kind in set(kinds):
                side = tables.hexsides.get(kind)
                if side is not None and side.combat > best:
                    best, name = side.combat, f"{kind} crossing"
    return best, name


def _full_divisions(state: CampaignSelf, units: set[str]) -> list[str]:
    """CN/OD 5.1.4: divisions taking part with all their elements (none lost, all present)."""
    out = []
    divisions = {div for u in units if (div := state.game.units[u].division)}
    for div in sorted(divisions):
        d = state.game.divisions.get(div)
        if d is None or not d.divisional_bonus:
            continue
        members = state.game.scenario.division_units(div)
        if all(m in units for m in members):
            out.append(div)
    return out


def assess_attack(
    state: CampaignSelf,
    target: Hex,
    attackers: tuple[str, ...],
    artillery: tuple[str, ...] = (),
    air: int = 0,
    defence_air: int = 0,
    defence_artillery: tuple[str, ...] = (),
) -> Assessment:
    game = state.game
    tables = game.tables
    side = game.units[attackers[0] if attackers else artillery[0]].side
    defenders = state.units_at(target)
    attack = sum(state.attack_of(u) for u in attackers + artillery) + air
    defence = sum(state.defence_of(u) for u in defenders) + defence_air
    defence += sum(state.attack_of(u) for u in defence_artillery)  # docs/rules-notes.md
    ratio = odds_ratio(attack, defence)
    base = ratio_column(ratio, tables.crt_columns)
    shifts: list[Shift] = []
    attacker_hexes = {h for h in map(state.position, attackers) if h is not None}
    cols, name = terrain_columns(state, target, attacker_hexes)
    if cols:
        shifts.append(Shift(f"terrain: {name}", -cols, f"{state.rule_prefix} 5.1.2"))
    defender_side = state.other(side)
    coastal = game.rule("coastal_fortification")
    if coastal and defender_side == coastal["side"] and target in game.board.coast:
        # CN 5.1.2 observations: Germans attacked in any coast hex get a column (fortifications).
        shifts.append(Shift("coastal fortifications", -int(coastal["columns"]), "CN 5.1.2"))
    if defenders and state.encircled(target, defender_side):
        shifts.append(Shift("encirclement", +1, f"{state.rule_prefix} 5.1.3"))
    for div in _full_divisions(state, set(attackers) | set(artillery)):
        shifts.append(Shift(f"divisional integrity: {game.divisions[div].name}", +1, f"{state.rule_prefix} 5.1.4"))
    for div in _full_divisions(state, set(defenders) | set(defence_artillery)):
        shifts.append(Shift(f"divisional integrity: {game.divisions[div].name}", -1, f"{state.rule_prefix} 5.1.4"))
    naval = state.naval_support_columns(target, attackers)
    if naval:
        sign = +1 if side == "allied" else -1
        shifts.append(Shift("naval support", sign * naval, state.naval_rule))
    for shift in state.turn_shifts(side):
        shifts.append(shift)
    for shift in state.maquis_shifts(attackers, defenders):
        shifts.append(shift)
    net = sum(s.columns for s in shifts)
    column = tables.shifted_column(base, net)
    return Assessment(
        target=target.id,
        attack=attack,
        defence=defence,
        attack_air=air,
        defence_air=defence_air,
        ratio=ratio_label(ratio),
        base_column=base,
        shifts=tuple(shifts),
        column=column,
        column_label=tables.crt_columns[column],
        distribution=tables.crt_distribution(column),
    )


@dataclass(frozen=True)
class BombardAssessment:
    target: str
    strength: int
    vulnerability: int
    value: int
    base_column: int | None
    shifts: tuple[Shift, ...]
    column: int | None
    column_label: str | None
    distribution: dict[str, Fraction]


def assess_bombardment(state: CampaignSelf, target: Hex, artillery: tuple[str, ...], air: int) -> BombardAssessment:
    """CN/OD 6.2 (air) and 8.0 (artillery): strength x sum of vulnerabilities, terrain columns
    to the left except rivers."""
    tables = state.game.tables
    defenders = state.units_at(target)
    if air:
        strength = air
        vuln = sum(tables.unit_type(state.game.units[u].type).air_vulnerability for u in defenders)
    else:
        strength = sum(state.attack_of(u) for u in artillery)
        vuln = sum(tables.unit_type(state.game.units[u].type).artillery_vulnerability for u in defenders)
    value = strength * vuln
    base = tables.bombardment_column(value)
    cols, name = terrain_columns(state, target, bombardment=True)
    shifts = (Shift(f"terrain: {name}", -cols, f"{state.rule_prefix} 6.2"),) if cols else ()
    column = None if base is None else max(0, base - cols)
    dist = tables.bombardment_distribution(column) if column is not None else {"DI": Fraction(1)}
    return BombardAssessment(
        target=target.id,
        strength=strength,
        vulnerability=vuln,
        value=value,
        base_column=base,
        shifts=shifts,
        column=column,
        column_label=None if column is None else tables.bombardment_columns[column].label,
        distribution=dist,
    )
