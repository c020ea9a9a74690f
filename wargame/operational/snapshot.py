"""Events, snapshots for refused actions, clones and the JSON views of a position.

Rules: none of the rulebooks; DESIGN.md "A game is state": an illegal action leaves the
state unchanged (``_snapshot``/``_restore``), ``clone`` is an independent copy, and
``fingerprint``/``to_json`` are plain JSON.
"""

from __future__ import annotations

import copy
from typing import Any, Self

from wargame.dice import Dice
from wargame.i18n import t
from wargame.operational.state_types import Event


class SnapshotRules:
    """Events, snapshot/restore, clone, fingerprint."""

    def _emit(self, kind: str, rule: str, **data: Any) -> None:
        self.events.append(Event(kind, t(kind, **data), rule, data))

    _MUTABLE = ("turn", "phase", "units", "air_points", "attacked_hexes", "control", "must_attack", "carpet_turns",
                "combat", "pending", "flags")

    def _snapshot(self) -> dict[str, Any]:
        snap = {k: copy.deepcopy(getattr(self, k)) for k in self._MUTABLE}
        snap["_events"] = len(self.events)
        snap["_rng"] = self.dice._rng.getstate()
        snap["_sides"] = len(self.dice.sides_log)
        snap["_forced"] = list(getattr(self.dice, "_forced", ()))
        return snap

    def _restore(self, snap: dict[str, Any]) -> None:
        for k in self._MUTABLE:
            setattr(self, k, snap[k])
        del self.events[snap["_events"]:]
        self.dice._rng.setstate(snap["_rng"])
        del self.dice.sides_log[snap["_sides"]:]
        if hasattr(self.dice, "_forced"):
            self.dice._forced = snap["_forced"]

    def clone(self) -> Self:
        other = type(self).__new__(type(self))
        other.game = self.game
        other.seed = self.seed
        other.dice = self.dice.copy() if type(self.dice) is Dice else copy.deepcopy(self.dice)
        for k in self._MUTABLE:
            setattr(other, k, copy.deepcopy(getattr(self, k)))
        other.log = list(self.log)
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
            "control": {h.id: side for h, side in sorted(self.control.items())},
            "must_attack": sorted(self.must_attack),
            "carpet_turns": list(self.carpet_turns),
            "attacked_hexes": sorted([s, h.id] for s, h in self.attacked_hexes),
            "pending_options": [a.to_dict() for a in self.pending.options] if self.pending else [],
            "actions": len(self.log),
        })
        return data
