"""Actions of the campaign engine: small frozen values that serialize to plain JSON.

Every action has a ``kind``; ``action_from_dict`` rebuilds one from its JSON form, so a game's
action log replays it exactly.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from wargame.errors import IllegalAction

__all__ = [
    "Action",
    "Move",
    "Enter",
    "Exit",
    "EndPhase",
    "Attack",
    "DeclareDefence",
    "Bombard",
    "CarpetBomb",
    "ChooseLoss",
    "Retreat",
    "Advance",
    "EndAdvance",
    "EmpEliminate",
    "action_from_dict",
    "IllegalAction",
]


@dataclass(frozen=True)
class Action:
    kind: ClassVar[str] = "action"

    def to_dict(self) -> dict[str, Any]:
        data = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data

    def describe(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in asdict(self).items())
        return f"{self.kind}({args})"


@dataclass(frozen=True)
class Move(Action):
    """Move a unit to a hex along the cheapest legal path (or along ``path`` if given)."""

    kind: ClassVar[str] = "move"
    unit: str
    to: str
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Enter(Action):
    """Bring a reinforcement onto the map at an entry hex (CN/OD 4.2.1), then optionally on."""

    kind: ClassVar[str] = "enter"
    unit: str
    hex: str
    to: str | None = None


@dataclass(frozen=True)
class Exit(Action):
    """Leave the board by a permitted edge from an edge hex (CN/OD 4.2.2)."""

    kind: ClassVar[str] = "exit"
    unit: str
    edge: str


@dataclass(frozen=True)
class EndPhase(Action):
    kind: ClassVar[str] = "end_phase"


@dataclass(frozen=True)
class Attack(Action):
    """Declare a ground attack on one enemy hex (CN/OD 5.1.1): the attacker commits its
    units, artillery and air points before the defence is declared."""

    kind: ClassVar[str] = "attack"
    target: str
    attackers: tuple[str, ...]
    artillery: tuple[str, ...] = ()
    air: int = 0


@dataclass(frozen=True)
class DeclareDefence(Action):
    """The defender's answer to an attack: air points and supporting artillery (5.1.1, 8.0)."""

    kind: ClassVar[str] = "declare_defence"
    air: int = 0
    artillery: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bombard(Action):
    """Artillery-only (8.0) or air-only (6.2) bombardment of an enemy hex."""

    kind: ClassVar[str] = "bombard"
    target: str
    artillery: tuple[str, ...] = ()
    air: int = 0


@dataclass(frozen=True)
class CarpetBomb(Action):
    """CN 6.3: heavy bombers on a hex and its six neighbours, before Allied movement."""

    kind: ClassVar[str] = "carpet_bomb"
    center: str


@dataclass(frozen=True)
class ChooseLoss(Action):
    """Pick the unit that takes the loss (or is eliminated) for a combat result."""

    kind: ClassVar[str] = "choose_loss"
    unit: str


@dataclass(frozen=True)
class Retreat(Action):
    """Retreat a unit along ``path`` (one hex, two under encirclement 5.3.3), ``path=()``
    to stay where a rule allows it, or ``edge`` to retreat off the board (4.2.2)."""

    kind: ClassVar[str] = "retreat"
    unit: str
    path: tuple[str, ...] = ()
    edge: str | None = None


@dataclass(frozen=True)
class Advance(Action):
    """Advance after combat (5.2): one unit along one or two hexes from the vacated hex."""

    kind: ClassVar[str] = "advance"
    unit: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class EndAdvance(Action):
    kind: ClassVar[str] = "end_advance"


@dataclass(frozen=True)
class EmpEliminate(Action):
    """EMP (5.1.6): the defender eliminates one or more units; the attacker then eliminates
    units whose attack adds up to at least the defence eliminated."""

    kind: ClassVar[str] = "emp_eliminate"
    units: tuple[str, ...]


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        Move, Enter, Exit, EndPhase, Attack, DeclareDefence, Bombard, CarpetBomb, ChooseLoss,
        Retreat, Advance, EndAdvance, EmpEliminate,
    )
}


def action_from_dict(data: dict[str, Any]) -> Action:
    if not isinstance(data, dict) or data.get("kind") not in ACTION_TYPES:
        raise ValueError(f"not an action: {data!r}; expected kind in {sorted(ACTION_TYPES)}")
    cls = ACTION_TYPES[data["kind"]]
    kwargs = {}
    for f in fields(cls):
        if f.name in data:
            value = data[f.name]
            kwargs[f.name] = tuple(value) if isinstance(value, list) else value
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"action {data!r}: {exc}") from None
