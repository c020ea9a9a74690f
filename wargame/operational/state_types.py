"""The value types of the campaign engine: phases, unit states, events, decisions and the
combat in progress.

Rules: CN/OD 3.0 (the four phases of a turn), 4.2.2 (units returning by an edge), 5.x (the
combat in progress and its pending decisions), 7.0 (reduced units), OD 10.0 (maquis
counters).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from wargame.hexgrid import Hex
from wargame.operational.actions import Action

__all__ = ["Phase", "PHASES", "UnitState", "Event", "Decision", "Combat"]


class Phase(StrEnum):
    ALLIED_MOVEMENT = "allied_movement"
    ALLIED_COMBAT = "allied_combat"
    AXIS_MOVEMENT = "axis_movement"
    AXIS_COMBAT = "axis_combat"
    GAME_OVER = "game_over"

    @property
    def side(self) -> str | None:
        if self is Phase.GAME_OVER:
            return None
        return self.value.split("_")[0]

    @property
    def acting(self) -> str:
        """``side`` of a phase of play (not GAME_OVER: the rules that ask check it first)."""
        side = self.side
        if side is None:
            raise RuntimeError("the game is over: no side acts (engine bug)")
        return side

    @property
    def is_movement(self) -> bool:
        return self.value.endswith("movement")

    @property
    def is_combat(self) -> bool:
        return self.value.endswith("combat")


# CN/OD 3.0: Allied movement, Allied combat, Axis movement, Axis combat.
PHASES = (Phase.ALLIED_MOVEMENT, Phase.ALLIED_COMBAT, Phase.AXIS_MOVEMENT, Phase.AXIS_COMBAT)


@dataclass
class UnitState:
    status: str  # waiting | on_map | at_sea | eliminated | exited | withdrawn
    hex: Hex | None = None
    reduced: bool = False
    spent: int = 0  # half movement points spent this phase
    stopped: bool = False
    moved: bool = False
    started_engaged: bool = False
    attacked: bool = False
    fired: bool = False
    available: int | None = None  # turn from which a waiting unit may enter
    entry_edge: str | None = None  # for units that may return by the edge they left (CN 4.2.2)
    entered_turn: int | None = None
    maquis_phases: int = 0  # OD 10.0: Axis movement phases ended inside a maquis area
    in_maquis: bool = False  # OD 10.0: forced into a maquis area by a retreat

    @property
    def at(self) -> Hex:
        """``hex`` where the unit must have one (on the map, or at sea off its landing hex);
        typed ``Hex`` for the rules that read it, and a unit without one there is an engine
        bug, said so rather than passed on as None."""
        if self.hex is None:
            raise RuntimeError(f"a unit {self.status!r} has no hex here (engine bug)")
        return self.hex


@dataclass(frozen=True)
class Event:
    kind: str
    text: str
    rule: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "rule": self.rule, "data": self.data}


@dataclass(frozen=True)
class Decision:
    kind: str  # defence | loss | retreat | advance | emp_defender | emp_attacker
    side: str
    prompt: str  # in English; in the viewer's language: wargame.event_text.decision_prompt
    rule: str
    options: tuple[Action, ...]
    unit: str | None = None
    prompt_id: str = ""  # the prompt's id in the ``decisions`` catalogue (wargame.event_text)
    args: tuple[tuple[str, Any], ...] = ()  # its placeholders' values


@dataclass
class Combat:
    kind: str  # attack | bombard
    side: str  # the attacking side
    target: Hex
    attackers: list[str]
    artillery: list[str]
    air: int
    defenders: list[str]
    defence_air: int = 0
    defence_artillery: list[str] = field(default_factory=list)
    assessment: Any = None
    result: str | None = None
    steps: list[tuple] = field(default_factory=list)
    lost: set[str] = field(default_factory=set)
    retreat_queue: list[str] = field(default_factory=list)
    retreat_side: str | None = None
    attacker_won: bool = False
    emp_value: int = 0
    advanced: set[str] = field(default_factory=set)
