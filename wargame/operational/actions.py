"""Actions of the campaign engine: small frozen values that serialize to plain JSON.

Every action has a ``kind``; ``action_from_dict`` rebuilds one from its JSON form, so a game's
action log replays it exactly.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from wargame.errors import IllegalAction, MalformedAction, refuse
from wargame.scenario_errors import short_repr

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
        data: dict[str, Any] = {"kind": self.kind}
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


MAX_LIST = 64  # no unit list or path of the campaign games comes near this
MAX_TEXT = 64


def check_fields(action: Action) -> None:
    """Structural check before the rules: every field has its declared type (hex and unit ids
    are short texts, air points whole numbers >= 0, lists of distinct ids). Raises
    ``MalformedAction`` naming the field, so no malformed action reaches the rules as a
    TypeError, and no unit or air point is counted twice."""
    for f in fields(action):
        value = getattr(action, f.name)
        declared = str(f.type)
        if declared == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise refuse(MalformedAction, "action.field.whole_number", kind=action.kind,
                             field=f.name, value=short_repr(value, 40))
            if not 0 <= value <= 1000:
                raise refuse(MalformedAction, "action.field.range", kind=action.kind, field=f.name)
        elif declared == "str" or declared == "str | None":
            if value is None and declared == "str | None":
                continue
            if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
                raise refuse(MalformedAction, "action.field.short_text", kind=action.kind,
                             field=f.name, value=short_repr(value, 40))
        elif declared == "tuple[str, ...]":
            if not isinstance(value, tuple) or len(value) > MAX_LIST or not all(
                    isinstance(v, str) and 0 < len(v) <= MAX_TEXT for v in value):
                raise refuse(MalformedAction, "action.field.id_list", kind=action.kind, field=f.name,
                             value=short_repr(value, 40))
            if len(set(value)) != len(value):
                raise refuse(MalformedAction, "action.field.twice", kind=action.kind, field=f.name,
                             value=short_repr(list(value), 60))


def action_from_dict(data: dict[str, Any]) -> Action:
    """An action back from its JSON form; ``MalformedAction`` (a ValueError too) when the
    kind is unknown, a field is missing or unknown, or a field has the wrong type."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str) or (
            data["kind"] not in ACTION_TYPES):
        raise refuse(MalformedAction, "action.unknown_kind", data=short_repr(data),
                     kinds=sorted(ACTION_TYPES))
    cls = ACTION_TYPES[data["kind"]]
    names = {f.name for f in fields(cls)}
    unknown = sorted(str(k) for k in data if k != "kind" and k not in names)
    if unknown:
        raise refuse(MalformedAction, "action.unknown_fields", kind=cls.kind,
                     fields=short_repr(unknown, 60), count=len(unknown))
    kwargs = {}
    for f in fields(cls):
        if f.name in data:
            value = data[f.name]
            kwargs[f.name] = tuple(value) if isinstance(value, list) else value
    try:
        action = cls(**kwargs)
    except TypeError as exc:
        raise refuse(MalformedAction, "action.bad_fields", data=short_repr(data),
                     error=str(exc)) from None
    check_fields(action)
    return action
