"""The values of a Memoir '44 game: actions, events and units, and the rules cited in refusals.

Rules: M44 p.5 Game Play (an action is one decision of the side to act), p.4 Units (a unit is
a side, a kind -- infantry, armour, artillery -- and its figures), Appendix 1 Special units
(``special``: special forces, French resistance, elite armour).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from wargame.errors import MalformedAction, refuse
from wargame.hexgrid import Hex
from wargame.scenario_errors import short_repr

from .board import hex_to_m44
from .cards import DECK, card
from .scenario import Scenario
from .text import render

__all__ = ["Action", "Event", "Unit", "GameSpec"]


class GameSpec(Protocol):
    """What a state reads of its game: the scenario and the rule options."""

    @property
    def scenario(self) -> Scenario: ...
    @property
    def options(self) -> tuple[tuple[str, Any], ...]: ...

    def option(self, name: str, default: Any = None) -> Any: ...


ACTION_KEYS = frozenset({"kind", "unit", "hex", "card", "option"})
MAX_TEXT = 200
MAX_NUMBER = 10_000


@dataclass(frozen=True)
class Action:
    """One decision. ``kind`` names it; the other fields are its arguments."""

    kind: str
    unit: int | None = None
    hex: Hex | None = None
    card: int | None = None
    option: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        if self.unit is not None:
            d["unit"] = self.unit
        if self.hex is not None:
            d["hex"] = [self.hex.q, self.hex.r]
        if self.card is not None:
            d["card"] = self.card
        if self.option is not None:
            d["option"] = self.option
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Action:
        """The action of its JSON form. Structural checks first, so no malformed field
        reaches the rules: ``MalformedAction`` (a ``ValueError``) naming the field, its reason
        a refusal key of ``wargame.error_texts`` (``action.memoir.*``) so that a Portuguese
        page shows it in Portuguese (issue #32): ``kind`` and ``option`` short texts, ``unit``
        and ``card`` whole numbers, ``hex`` two whole numbers, no unknown key."""
        if not isinstance(d, dict):
            raise refuse(MalformedAction, "action.memoir.not_mapping", R_TURN,
                         value=short_repr(d, 40))
        unknown = sorted(str(k) for k in d if k not in ACTION_KEYS)
        if unknown:
            raise refuse(MalformedAction, "action.memoir.unknown_fields", R_TURN,
                         fields=short_repr(unknown, 60), count=len(unknown))
        kind = d.get("kind")
        if not isinstance(kind, str) or not 0 < len(kind) <= MAX_TEXT:
            raise refuse(MalformedAction, "action.memoir.short_text", R_TURN, field="kind",
                         value=short_repr(kind, 40))
        for name in ("unit", "card"):
            value = d.get(name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                      or abs(value) > MAX_NUMBER):
                raise refuse(MalformedAction, "action.memoir.whole_number", R_TURN,
                             field=name, value=short_repr(value, 40))
        option = d.get("option")
        if option is not None and (not isinstance(option, str) or len(option) > MAX_TEXT):
            raise refuse(MalformedAction, "action.memoir.short_text", R_TURN, field="option",
                         value=short_repr(option, 40))
        h = d.get("hex")
        if h is not None and not (
                isinstance(h, list | tuple) and len(h) == 2
                and all(isinstance(c, int) and not isinstance(c, bool) and abs(c) <= MAX_NUMBER
                        for c in h)):
            raise refuse(MalformedAction, "action.memoir.hex", R_TURN,
                         value=short_repr(h, 40))
        return cls(kind, d.get("unit"), Hex(*h) if h is not None else None, d.get("card"),
                   option)

    def __str__(self) -> str:
        parts = [self.kind]
        if self.card is not None:
            ok = isinstance(self.card, int) and 0 <= self.card < len(DECK)
            parts.append(card(self.card).title if ok else f"card {self.card}")
        if self.unit is not None:
            parts.append(f"unit {self.unit}")
        if self.hex is not None:
            parts.append(f"{hex_to_m44(self.hex)}")
        if self.option:
            parts.append(self.option)
        return " ".join(parts)


@dataclass(frozen=True)
class Event:
    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return render(self.kind, self.data)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data}


@dataclass(frozen=True)
class Unit:
    """A unit on (or off) the board. Frozen: only its state changes it, through
    ``StateBase.place`` and ``StateBase.set_figures``, which keep the state's caches of who is
    where in step."""

    id: int
    side: str
    kind: str  # inf, tank, gun
    hex: Hex | None
    figures: int
    max_figures: int
    special: str | None = None  # special, resistance, elite

    @property
    def alive(self) -> bool:
        return self.hex is not None and self.figures > 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "side": self.side, "kind": self.kind,
            "hex": None if self.hex is None else [self.hex.q, self.hex.r],
            "figures": self.figures, "max_figures": self.max_figures, "special": self.special,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Unit:
        h = d["hex"]
        return cls(d["id"], d["side"], d["kind"], None if h is None else Hex(*h), d["figures"],
                   d["max_figures"], d.get("special"))


def _m44(h: Hex | None) -> str:
    if h is None:
        return "-"
    r, c = hex_to_m44(h)
    return f"({r},{c})"


# Rules cited in IllegalAction messages.
R_TURN = "M44 p.5 Game Play"
R_CARD = "M44 p.5 Play a Command Card"
R_ORDER = "M44 p.6 Issue Orders"
R_MOVE = "M44 p.6 Move"
R_BATTLE = "M44 p.9 Battle"
R_RANGE = "M44 p.10 Combat Range"
R_LOS = "M44 p.11 Line of Sight"
R_RETREAT = "M44 p.12 Retreat"
R_TAKE = "M44 p.13 Take Ground"
R_DRAW = "M44 p.13 Draw a Command Card"
R_TERRAIN = "M44 p.17 Terrain"
R_CARDS = "M44 Appendix 4 Command Cards"

NO_MOVE_CARDS = {"close_assault", "firefight"}
