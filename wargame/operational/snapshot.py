"""Events, snapshots for refused actions, clones and the JSON views of a position.

Rules: none of the rulebooks; docs/DESIGN.md "A game is state": an illegal action leaves the
state unchanged (``_snapshot``/``_restore``), ``clone`` is an independent copy, and
``fingerprint``/``to_json`` are plain JSON.
"""

from __future__ import annotations

import copy
from typing import Any, Self

from wargame.dice import Dice
from wargame.event_text import campaign_text
from wargame.operational.state_protocol import RulesBase
from wargame.operational.state_types import Event
from wargame.viewer import Viewer


class SnapshotRules(RulesBase):
    """Events, snapshot/restore, clone, fingerprint."""

    def _emit(self, kind: str, rule: str, **data: Any) -> None:
        self.events.append(Event(kind, campaign_text(kind, **data), rule, data))

    _MUTABLE = ("turn", "phase", "units", "air_points", "attacked_hexes", "control", "must_attack", "carpet_turns",
                "combat", "pending", "flags")

    def _copy_mutable(self) -> dict[str, Any]:
        """An independent copy of every field in ``_MUTABLE``, made field by field (a generic
        ``deepcopy`` of the units was more than half of a bot campaign's time, issue #19):
        a ``UnitState`` holds only immutable values (str, int, bool, frozen ``Hex``), so a
        shallow copy of each is a deep one; ``control``, ``air_points``, the sets and the list
        hold immutable items; ``pending`` is a frozen Decision of frozen actions; the rare
        ``combat`` and the small ``flags`` are deep-copied."""
        new = object.__new__
        units = {}
        for uid, us in self.units.items():
            twin = new(type(us))
            twin.__dict__.update(us.__dict__)
            units[uid] = twin
        return {
            "turn": self.turn,
            "phase": self.phase,
            "units": units,
            "air_points": dict(self.air_points),
            "attacked_hexes": set(self.attacked_hexes),
            "control": dict(self.control),
            "must_attack": set(self.must_attack),
            "carpet_turns": list(self.carpet_turns),
            "combat": copy.deepcopy(self.combat) if self.combat is not None else None,
            "pending": self.pending,
            "flags": copy.deepcopy(self.flags) if self.flags else {},
        }

    def _snapshot(self) -> dict[str, Any]:
        """What ``_restore`` needs to undo a refused action. Taken before every guarded
        ``apply``, so it is cheap: each unit is kept as (the object, a copy of its fields),
        and a restore puts the fields back into the same objects."""
        snap = {k: getattr(self, k) for k in self._MUTABLE if k != "units"}
        snap.update(air_points=dict(self.air_points), attacked_hexes=set(self.attacked_hexes),
                    control=dict(self.control), must_attack=set(self.must_attack),
                    carpet_turns=list(self.carpet_turns),
                    combat=copy.deepcopy(self.combat) if self.combat is not None else None,
                    flags=copy.deepcopy(self.flags) if self.flags else {})
        snap["units"] = [(uid, us, us.__dict__.copy()) for uid, us in self.units.items()]
        snap["_events"] = len(self.events)
        snap["_rng"] = self.dice.getstate()
        snap["_sides"] = len(self.dice.sides_log)
        snap["_forced"] = list(getattr(self.dice, "_forced", ()))
        return snap

    def _restore(self, snap: dict[str, Any]) -> None:
        for k in self._MUTABLE:
            if k != "units":
                setattr(self, k, snap[k])
        units = {}
        for uid, us, fields in snap["units"]:
            us.__dict__ = fields
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
