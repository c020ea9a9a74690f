"""The typed records of a turn in progress: the card played, its order slots, what each ordered
unit has done, queued strikes, and the decisions that interrupt the turn.

Rules: M44 p.5 Game Play (one card, its orders, moves and battles make a turn), p.6 Issue
Orders (a card's slots: sections, unit types, count), Appendix 4 Command Cards (the tactic
cards' slots and bonuses; Counter-Attack copies the last card the enemy played), p.12
Retreat, p.13 Take Ground, Ambush and Recon (the pending decisions).

Each record converts to the plain JSON of a save (``to_dict``) and back (``from_dict``);
``from_dict`` also reads the dicts of format 1 saves (missing keys take their defaults).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wargame.hexgrid import Hex

__all__ = ["Slot", "PlayedCard", "Strike", "TakeGroundOffer", "PendingDecision", "TurnContext"]


def _hex(p: Any) -> Hex | None:
    return None if p is None else Hex(*p)


def _pair(h: Hex | None) -> list[int] | None:
    return None if h is None else [h.q, h.r]


@dataclass(frozen=True)
class Slot:
    """Units a card may order: of these ``kinds`` (``None``: any), in these board ``sections``
    (``None``: anywhere), ``count`` of them (``None``: all), passing ``filter`` (``"adjacent"``
    or ``"not_adjacent"`` to an enemy, or ``None``)."""

    kinds: tuple[str, ...] | None = None
    count: int | None = None
    filter: str | None = None
    sections: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        if self.sections is not None:
            d["sections"] = list(self.sections)
        if self.kinds is not None:
            d["kinds"] = list(self.kinds)
        d["count"] = self.count
        if self.filter is not None:
            d["filter"] = self.filter
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Slot:
        kinds, sections = d.get("kinds"), d.get("sections")
        return cls(None if kinds is None else tuple(kinds), d.get("count"), d.get("filter"),
                   None if sections is None else tuple(sections))


@dataclass(frozen=True)
class PlayedCard:
    """The last card a side played, as Counter-Attack copies it: its ``effect`` and
    ``option``, the ``card`` id, and the board ``slots`` of a section card or the board
    section of an Infantry Assault."""

    effect: str
    option: str | None = None
    card: int | None = None
    slots: tuple[Slot, ...] | None = None
    infantry_section: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"effect": self.effect, "option": self.option, "card": self.card}
        if self.slots is not None:
            d["slots"] = [s.to_dict() for s in self.slots]
        if self.infantry_section is not None:
            d["infantry_section"] = self.infantry_section
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> PlayedCard | None:
        if d is None:
            return None
        slots = d.get("slots")
        return cls(d["effect"], d.get("option"), d.get("card"),
                   None if slots is None else tuple(Slot.from_dict(s) for s in slots),
                   d.get("infantry_section"))


@dataclass(frozen=True)
class Strike:
    """A card's attack waiting its turn (Air Power, Barrage): ``dice`` at the unit on ``hex``;
    ``stars`` hit too (Air Power), ``symbols`` hit their unit type."""

    hex: Hex
    dice: int
    stars: bool
    symbols: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "strike", "hex": [self.hex.q, self.hex.r], "dice": self.dice,
                "stars": self.stars, "symbols": self.symbols}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Strike:
        return cls(Hex(*d["hex"]), d["dice"], d["stars"], d.get("symbols", True))


@dataclass(frozen=True)
class TakeGroundOffer:
    """After this battle, unit ``unit`` may take ``from_hex`` if the defender leaves it."""

    unit: int
    from_hex: Hex

    def to_dict(self) -> dict[str, Any]:
        return {"take_ground": self.unit, "from_hex": [self.from_hex.q, self.from_hex.r]}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> TakeGroundOffer | None:
        if not d or d.get("take_ground") is None:
            return None
        return cls(d["take_ground"], Hex(*d["from_hex"]))


# TurnContext's fields changed in place (``TurnContext.copy``); ``test_memoir_engine`` checks
# that this is every list and dict field
_CONTAINERS = ("ordered", "moved", "battles", "battled", "entered", "stopped", "overrun",
               "air_targets", "queue", "discard_after")

PENDING_KINDS = ("ambush", "retreat", "take_ground", "keep", "airdrop", "ignore_flag")


@dataclass(frozen=True)
class PendingDecision:
    """A decision owned by ``owner`` that interrupts the turn. By ``kind``:

    - ``"ambush"``: the defender may play ``card`` against ``attacker``'s close assault on
      ``target``;
    - ``"retreat"``: ``unit`` retreats to one of ``options``, then ``then`` is offered;
    - ``"take_ground"``: ``unit`` may move into ``hex``;
    - ``"keep"``: Recon, keep one of ``cards``;
    - ``"airdrop"``: Sainte-Mere-Eglise, drop the paratroopers over one of ``options``;
    - ``"ignore_flag"``: ``unit``, hit by ``flags`` flags on sandbags, a bunker or a hedgehog,
      may ignore the first; then ``then`` is offered, or, after an Ambush (``attacker`` and
      ``target`` set), the ambushed close assault goes on if the unit stayed.
    """

    kind: str
    owner: str
    unit: int | None = None
    options: tuple[Hex, ...] = ()
    then: TakeGroundOffer | None = None
    hex: Hex | None = None
    attacker: int | None = None
    target: int | None = None
    card: int | None = None
    cards: tuple[int, ...] = ()
    flags: int = 0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "owner": self.owner}
        if self.kind == "ambush":
            d.update(attacker=self.attacker, target=self.target, card=self.card)
        elif self.kind == "retreat":
            d.update(unit=self.unit, options=[[h.q, h.r] for h in self.options],
                     then=None if self.then is None else self.then.to_dict())
        elif self.kind == "take_ground":
            d.update(unit=self.unit, hex=_pair(self.hex))
        elif self.kind == "keep":
            d["cards"] = list(self.cards)
        elif self.kind == "airdrop":
            d["options"] = [[h.q, h.r] for h in self.options]
        elif self.kind == "ignore_flag":
            d.update(unit=self.unit, flags=self.flags, attacker=self.attacker,
                     target=self.target, then=None if self.then is None else self.then.to_dict())
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PendingDecision:
        return cls(d["kind"], d["owner"], d.get("unit"),
                   tuple(Hex(*p) for p in d.get("options", ())),
                   TakeGroundOffer.from_dict(d.get("then")), _hex(d.get("hex")),
                   d.get("attacker"), d.get("target"), d.get("card"), tuple(d.get("cards", ())),
                   int(d.get("flags", 0)))


@dataclass
class TurnContext:
    """What the turn in progress has done so far (empty before a card is played)."""

    card: int | None = None  # the card played, until it is discarded at the end of the turn
    played_card: int | None = None  # the card played, once discarded
    effect: str | None = None  # what the card does now (its name, "fallback", ...)
    counter: bool = False  # played as Counter-Attack
    recon_alt: str | None = None  # Recon played as "air_power" or "barrage" (scenarios)
    slots: tuple[Slot, ...] = ()
    ordered: list[int] = field(default_factory=list)
    moved: dict[int, int] = field(default_factory=dict)  # unit -> hexes moved
    battles: dict[int, int] = field(default_factory=dict)  # unit -> battles left
    battled: list[int] = field(default_factory=list)
    entered: list[int] = field(default_factory=list)  # entered terrain that forbids battle
    # entered a hex where a move must stop (woods, hedgerows, villages, wire): no more moving,
    # taking ground included, this turn
    stopped: list[int] = field(default_factory=list)
    overrun: list[int] = field(default_factory=list)  # armour that had its overrun this turn
    overrun_now: int | None = None  # the overrun battle to fight before any other
    second_move_done: bool = False  # Behind Enemy Lines
    no_overrun: bool = False
    bonus_all: int = 0  # extra dice in every battle
    bonus_close: int = 0  # extra dice for armour in close assault
    air_section: str | None = None  # Recon as Air Power: targets in this section only
    air_targets: list[Hex] = field(default_factory=list)
    queue: list[Strike] = field(default_factory=list)
    discard_after: list[int] = field(default_factory=list)  # an Ambush played this turn
    ambush_by: str | None = None
    end_turn: bool = False  # to do next: draw and end the turn
    finish_turn: bool = False  # to do next: the end of turn checks and the other side

    def copy(self) -> TurnContext:
        """An independent copy (its lists and dicts copied; their items are immutable)."""
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        for name in _CONTAINERS:
            d[name] = d[name].copy()
        return new

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.card, "played_card": self.played_card, "effect": self.effect,
            "counter": self.counter, "recon_alt": self.recon_alt,
            "slots": [s.to_dict() for s in self.slots],
            "ordered": list(self.ordered),
            "moved": {str(k): v for k, v in self.moved.items()},
            "battles": {str(k): v for k, v in self.battles.items()},
            "battled": list(self.battled), "entered": list(self.entered),
            "stopped": list(self.stopped),
            "overrun": list(self.overrun), "overrun_now": self.overrun_now,
            "second_move_done": self.second_move_done, "no_overrun": self.no_overrun,
            "bonus_all": self.bonus_all, "bonus_close": self.bonus_close,
            "air_section": self.air_section,
            "air_targets": [[h.q, h.r] for h in self.air_targets],
            "queue": [s.to_dict() for s in self.queue],
            "discard_after": list(self.discard_after), "ambush_by": self.ambush_by,
            "end_turn": self.end_turn, "finish_turn": self.finish_turn,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TurnContext:
        return cls(
            card=d.get("card"), played_card=d.get("played_card"), effect=d.get("effect"),
            counter=bool(d.get("counter", False)), recon_alt=d.get("recon_alt"),
            slots=tuple(Slot.from_dict(s) for s in d.get("slots") or ()),
            ordered=list(d.get("ordered", ())),
            moved={int(k): v for k, v in (d.get("moved") or {}).items()},
            battles={int(k): v for k, v in (d.get("battles") or {}).items()},
            battled=list(d.get("battled", ())), entered=list(d.get("entered", ())),
            stopped=list(d.get("stopped", ())),
            overrun=list(d.get("overrun", ())), overrun_now=d.get("overrun_now"),
            second_move_done=bool(d.get("second_move_done", False)),
            no_overrun=bool(d.get("no_overrun", False)),
            bonus_all=int(d.get("bonus_all", 0)), bonus_close=int(d.get("bonus_close", 0)),
            air_section=d.get("air_section"),
            air_targets=[Hex(*p) for p in d.get("air_targets") or ()],
            queue=[Strike.from_dict(s) for s in d.get("queue") or ()],
            discard_after=list(d.get("discard_after") or ()), ambush_by=d.get("ambush_by"),
            end_turn=bool(d.get("end_turn", False)),
            finish_turn=bool(d.get("finish_turn", False)),
        )
