"""Events, snapshots for refused actions, clones and the JSON views of a position.

Rules: none of the rulebooks; docs/DESIGN.md "A game is state": an illegal action leaves the
state unchanged (``_snapshot``/``_restore``), ``clone`` is an independent copy, and
``fingerprint``/``to_json`` are plain JSON. All three follow one declared set of fields,
``MUTABLE_FIELDS``; ``to_json`` shows every one of them, ``fingerprint`` (stored in saves) the
summary it always had.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from enum import Enum
from fractions import Fraction
from typing import Any, Self

from wargame.dice import Dice
from wargame.event_text import campaign_text
from wargame.hexgrid import Hex
from wargame.operational.state_protocol import RulesBase
from wargame.operational.state_types import Event, UnitState
from wargame.viewer import Viewer


def _same(value: Any) -> Any:
    """An immutable value (int, Phase, a frozen Decision of frozen actions) is its own copy."""
    return value


def _deep_or_none(value: Any) -> Any:
    return copy.deepcopy(value) if value is not None else None


def _deep_flags(value: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(value) if value else {}


def _fields_copy(units: dict[str, UnitState]) -> dict[str, UnitState]:
    """A copy of every unit, made field by field: a ``UnitState`` holds only immutable values
    (str, int, bool, frozen ``Hex``), so a shallow copy of each is a deep one (a generic
    ``deepcopy`` of the units was more than half of a bot campaign's time, issue #19)."""
    new = object.__new__
    out = {}
    for uid, us in units.items():
        twin = new(type(us))
        twin.__dict__.update(us.__dict__)
        out[uid] = twin
    return out


# The fields of a campaign position that actions change, each with how to copy it independently:
# what a clone copies, what a refused action restores (``_snapshot``/``_restore``) and what
# ``to_json`` shows (so the "unchanged after a refusal" checks see every one of them). ``control``,
# ``air_points``, the sets and the list hold immutable items; ``combat`` (rare) and ``flags``
# (small) are deep-copied. A new field of ``State`` goes here or in ``FIXED_FIELDS``
# (tests/operational/test_snapshot_fields.py checks that every field is in one of them).
MUTABLE_FIELDS: dict[str, Callable[[Any], Any]] = {
    "turn": _same,
    "phase": _same,
    "units": _fields_copy,
    "air_points": dict,
    "attacked_hexes": set,
    "control": dict,
    "must_attack": set,
    "carpet_turns": list,
    "combat": _deep_or_none,
    "pending": _same,
    "flags": _deep_flags,
}
# The other fields: set once (game, seed), kept by their own means (the dice's state, the logs,
# which a refused action truncates), or a cache of the position.
FIXED_FIELDS = frozenset({"game", "seed", "dice", "action_log", "events", "_cache", "_applying"})


def _plain(value: Any) -> Any:
    """``value`` as plain JSON, in a stable order: hexes by id, sets sorted, dataclasses as dicts
    of their fields, fractions as "p/q"."""
    if isinstance(value, Hex):
        return value.id
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        items = sorted((str(_plain(k)), _plain(v)) for k, v in value.items())
        return dict(items)
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class SnapshotRules(RulesBase):
    """Events, snapshot/restore, clone, fingerprint."""

    def _emit(self, kind: str, rule: str, **data: Any) -> None:
        self.events.append(Event(kind, campaign_text(kind, **data), rule, data))

    def _copy_mutable(self) -> dict[str, Any]:
        """An independent copy of every field in ``MUTABLE_FIELDS``."""
        return {name: copier(getattr(self, name)) for name, copier in MUTABLE_FIELDS.items()}

    def _snapshot(self) -> dict[str, Any]:
        """What ``_restore`` needs to undo a refused action. Taken before every guarded
        ``apply``, so it is cheap: each unit is kept as (the object, a copy of its fields),
        and a restore puts the fields back into the same objects (callers may hold them)."""
        snap = {name: copier(getattr(self, name)) for name, copier in MUTABLE_FIELDS.items()
                if name != "units"}
        snap["units"] = [(uid, us, us.__dict__.copy()) for uid, us in self.units.items()]
        snap["_events"] = len(self.events)
        snap["_rng"] = self.dice.getstate()
        snap["_sides"] = len(self.dice.sides_log)
        snap["_forced"] = list(getattr(self.dice, "_forced", ()))
        return snap

    def _restore(self, snap: dict[str, Any]) -> None:
        for name in MUTABLE_FIELDS:
            if name != "units":
                setattr(self, name, snap[name])
        units = {}
        for uid, us, unit_fields in snap["units"]:
            us.__dict__ = unit_fields
            units[uid] = us
        self.units = units
        del self.events[snap["_events"]:]
        self.dice.setstate(snap["_rng"])
        del self.dice.sides_log[snap["_sides"]:]
        if hasattr(self.dice, "_forced"):
            self.dice._forced = snap["_forced"]

    def clone(self) -> Self:
        other = type(self).__new__(type(self))
        other.game = self.game
        other.seed = self.seed
        other.dice = self.dice.copy() if type(self.dice) is Dice else copy.deepcopy(self.dice)
        for k, value in self._copy_mutable().items():
            setattr(other, k, value)
        other.action_log = list(self.action_log)
        other.events = list(self.events)
        other._cache = {}
        other._applying = False
        return other

    def fingerprint(self) -> dict[str, Any]:
        """A plain-JSON summary of the position, compared after replaying a save."""
        return {
            "turn": self.turn,
            "phase": self.phase.value,
            "units": {u: [us.status, us.hex.id if us.hex else None, us.reduced] for u, us in sorted(self.units.items())},
            "air_points": dict(self.air_points),
            "dice_draws": self.dice.draws,
            "pending": self.pending.kind if self.pending else None,
        }

    def to_json(self) -> dict[str, Any]:
        """The whole position as plain JSON (the save format is seed + action log)."""
        data = self.fingerprint()
        data.update({
            "game": "campaign",
            "scenario": self.game.scenario.id,
            "variants": list(self.game.variants),
            "seed": self.seed,
            "dice": self.dice.version,  # the dice version (wargame/dice.py)
            "control": {h.id: side for h, side in sorted(self.control.items())},
            "must_attack": sorted(self.must_attack),
            "carpet_turns": list(self.carpet_turns),
            "attacked_hexes": sorted([s, h.id] for s, h in self.attacked_hexes),
            "pending_options": [a.to_dict() for a in self.pending.options] if self.pending else [],
            "actions": len(self.action_log),
            # the rest of MUTABLE_FIELDS (the fingerprint has turn, phase, units, air points
            # and the pending decision's kind): the combat being resolved and the rules' flags
            "combat": _plain(self.combat),
            "flags": _plain(self.flags),
        })
        return data

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` may know of the position (``wargame.viewer``), as plain JSON: the
        ``to_json`` position without the seed and the dice's state (unless solo), with the
        counter values (attack, defence, movement) of the units whose side the viewer sees
        (CN/OD 5.1.1: "o atacante não pode verificar os pontos de defesa das unidades que vai
        atacar antes de declarar"), and the pending decision's answers only for a viewer who
        may give them or sees that side."""
        data = self.to_json()
        # the combat in progress and the rules' flags stay on the server: what a viewer needs of
        # them reaches it as events and the pending decision (a viewer is shown what it saw
        # before to_json carried them, issue #35)
        data.pop("combat", None)
        data.pop("flags", None)
        data["viewer"] = {"side": viewer.side, "role": viewer.role}
        if not viewer.sees_seed:
            data.pop("seed", None)
            data.pop("dice_draws", None)
        values = {}
        for uid, us in sorted(self.units.items()):
            # every counter of a seen side still in the game: on the map, at sea, waiting to
            # enter (its owner plans with its values before it lands or arrives)
            if us.status != "eliminated" and viewer.sees_values_of(self.side_of(uid)):
                values[uid] = [self.attack_of(uid), self.defence_of(uid),
                               self.movement_of(uid)[0]]
        data["values"] = values
        if self.pending is not None and not (viewer.may_act_for(self.pending.side)
                                             or viewer.sees_values_of(self.pending.side)):
            data["pending_options"] = []
        return data
