"""What-ifs as data: a YAML file of changes applied to a copy of a campaign scenario.

    name: early French armour
    scenario: dragoon
    variants: []
    postures: {axis: {engage_ratio: 2.0, attack_threshold: 0.1}}
    reinforcements:
      - {unit: fr-cc1-1db, turn: 1}            # lands with the first wave
      - {unit: us-art-7a, hex: "0723"}         # enters at another hex
    rules:
      naval_support: {columns: 3}              # merged into scenario.yaml rules (OD 9.0)
    counters:
      - {side: axis, types: [infantry], defence: 1}   # reconstructed values, tried otherwise

The file is checked by ``wargame.schema.whatif.WhatIfFile`` against the scenario (units,
hexes, turns, edges, beaches), and the merged rules by the scenario's own ``Rules`` model, so
every problem is one ``ScenarioError`` naming the file and the field. ``apply`` never changes
the loaded scenario: it returns a modified copy.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from wargame.hexgrid import Hex
from wargame.operational.variants import normalize_variants
from wargame.scenario import Entry, Scenario, UnitDef
from wargame.scenario_errors import ScenarioError, load_yaml
from wargame.schema.common import Model, validate
from wargame.schema.rules import Rules
from wargame.schema.whatif import CounterChange, WhatIfFile

__all__ = ["WhatIf", "load_whatif", "whatif_from_data", "apply_whatif"]


class _RulesOnly(Model):
    rules: Rules


@dataclass(frozen=True)
class WhatIf:
    """A checked what-if: ``data`` is its plain JSON form (sent to the study's workers)."""

    name: str
    source: str
    data: dict[str, Any]

    @property
    def variants(self) -> tuple[str, ...]:
        return tuple(self.data.get("variants") or ())

    @property
    def postures(self) -> dict[str, tuple[float, float]]:
        return {side: (float(p["engage_ratio"]), float(p["attack_threshold"]))
                for side, p in (self.data.get("postures") or {}).items()}


def _context(scenario: Scenario) -> dict[str, Any]:
    board, tables = scenario.board, scenario.tables
    return {
        "scenario_id": scenario.id,
        "reinforcement_units": {r.unit for r in scenario.reinforcements},
        "turns": (scenario.first_turn, scenario.last_turn),
        "hexes": {h.id for h in board.hexes},
        "edges": set(board.edges),
        "places": set(board.places),
        "units": set(scenario.units),
        "unit_index": {uid: (u.side, u.type) for uid, u in scenario.units.items()},
        "divisions": set(scenario.divisions),
        "terrain": set(tables.terrain),
        "terrain_or_feature": set(tables.terrain) | set(tables.features),
        "unit_types": set(tables.unit_types),
        "movement_classes": set(tables.movement_classes),
        "normalize_variants": normalize_variants,
    }


def _merge(base: Any, change: Any) -> Any:
    """Mappings merge key by key; anything else replaces."""
    if isinstance(base, dict) and isinstance(change, dict):
        out = dict(base)
        for k, v in change.items():
            out[k] = _merge(base.get(k), v)
        return out
    return change


def whatif_from_data(data: Any, scenario: Scenario, source: str = "<what-if>") -> WhatIf:
    """Check parsed what-if data against ``scenario``; ``ScenarioError`` names file and field."""
    model = validate(WhatIfFile, data, source, _context(scenario))
    if model.rules:
        merged = _merge(scenario.rules, model.rules)
        validate(_RulesOnly, {"rules": merged}, source, _context(scenario))
    plain = model.model_dump(mode="json")
    name = model.name or Path(source).stem
    return WhatIf(name=name, source=str(source), data=plain)


def load_whatif(path: str | Path, scenario: Scenario) -> WhatIf:
    """Load and check a what-if YAML file against ``scenario``."""
    return whatif_from_data(load_yaml(Path(path)), scenario, str(path))


def apply_whatif(scenario: Scenario, whatif: WhatIf) -> Scenario:
    """A copy of ``scenario`` with the what-if's reinforcement, rule and counter changes (variants and
    postures are the study's: ``WhatIf.variants``, ``WhatIf.postures``)."""
    data = whatif.data
    schedule = list(scenario.reinforcements)
    index = {r.unit: i for i, r in enumerate(schedule)}
    for i, change in enumerate(data.get("reinforcements") or ()):
        if change["unit"] not in index:
            raise ScenarioError.keyed(whatif.source, f"reinforcements[{i}].unit",
                                      "whatif.reinforcement_unit_plain", change["unit"])
        r = schedule[index[change["unit"]]]
        entry = r.entry
        if change.get("hex") is not None:
            entry = Entry(kind="hex", hexes=(Hex.from_id(change["hex"]),))
        elif change.get("edge") is not None:
            entry = Entry(kind="edge", hexes=tuple(sorted(scenario.board.edges[change["edge"]])),
                          edge=change["edge"])
        elif change.get("beaches") is not None:
            hexes = tuple(h for name in change["beaches"] for h in scenario.board.places[name])
            entry = Entry(kind="beach", hexes=hexes, beaches=tuple(change["beaches"]))
        turn = r.turn if change.get("turn") is None else int(change["turn"])
        note = change.get("note") or f"what-if {whatif.name}"
        schedule[index[change["unit"]]] = replace(r, turn=turn, entry=entry, note=note)
    rules = _merge(scenario.rules, data.get("rules") or {})
    units = _changed_counters(scenario, whatif)
    return replace(scenario, reinforcements=tuple(schedule), rules=rules, units=units)


def _changed_counters(scenario: Scenario, whatif: WhatIf) -> dict[str, UnitDef]:
    """The scenario's units with the what-if's ``counters`` changes: each matching change adds
    its points to both sides of the counter (attack and defence at least 1, movement at least
    0), and the unit's provenance says so (the values shown are no longer the reconstruction's
    own, docs/normandy-counters.md)."""
    changes = [CounterChange(**c) for c in whatif.data.get("counters") or ()]
    if not changes:
        return scenario.units
    out = dict(scenario.units)
    for uid, u in scenario.units.items():
        hits = [c for c in changes if c.selects(uid, u.side, u.type)]
        if not hits:
            continue
        da = sum(c.attack for c in hits)
        dd = sum(c.defence for c in hits)
        dm = sum(c.movement for c in hits)
        said = ", ".join(f"{k} {v:+d}" for k, v in (("attack", da), ("defence", dd),
                                                     ("movement", dm)) if v)
        out[uid] = replace(
            u, attack=max(1, u.attack + da), defence=max(1, u.defence + dd),
            movement=max(0, u.movement + dm), reduced_attack=max(1, u.reduced_attack + da),
            reduced_defence=max(1, u.reduced_defence + dd),
            provenance=f"{u.provenance}; what-if {whatif.name}: {said}".lstrip("; "))
    return out
