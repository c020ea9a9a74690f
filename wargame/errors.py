"""One family of refusals for every game.

An illegal action raises a subclass of ``IllegalAction`` carrying the reason and the rule it
breaks (``"CN 4.1.1"``, ``"OD 8.0"``, ``"M44 p.12 Retreat"``); the state is left unchanged.
The subclass says what kind of refusal it is, so a caller (the dashboard, a bot, a room) can
react to the kind without parsing text, as python-chess does with ``IllegalMoveError``.

Both engines raise these classes; ``wargame.operational.actions.IllegalAction`` and
``wargame.memoir.IllegalAction`` are this same class.

Texts (issue #16): a refusal is made with ``refuse(MovementRefused, "campaign.move.beyond_reach",
"CN 4.0", hex="1234", mp=4)``: the reason is the catalogue template of ``key`` (the refusal
catalogues of ``wargame.error_texts``) rendered in the current language, since a refusal is
shown only to the one who acted. ``key`` and ``data`` stay on the exception, so a caller can
show it again in another language (``exc.render("pt")``: a room seat, a bot's explanation).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from wargame.error_texts import english_refusal, render_refusal

__all__ = [
    "IllegalAction",
    "MalformedAction",
    "GameOver",
    "NotYourTurn",
    "WrongPhase",
    "MovementRefused",
    "StackingRefused",
    "EngagementRefused",
    "EntryRefused",
    "CombatRefused",
    "SupportRefused",
    "DecisionRefused",
    "EndPhaseRefused",
    "CardRefused",
    "OrderRefused",
    "SeatRefused",
    "REFUSAL_KINDS",
    "refuse",
    "battle_refusal",
    "Reason",
]


E = TypeVar("E", bound="IllegalAction")


class IllegalAction(Exception):
    """An action the rules refuse. ``rule`` cites the section (e.g. ``"CN 4.1.1"``)."""

    kind = "illegal"

    def __init__(self, reason: str, rule: str = "", *, key: str = "",
                 data: Mapping[str, Any] | None = None) -> None:
        self.reason = reason
        self.rule = rule
        self.key = key
        """The catalogue id of the reason (``"campaign.move.beyond_reach"``), "" if none."""
        self.data = dict(data) if data else {}
        """The values the reason's template names (unit and place names as they are)."""
        super().__init__(f"{rule}: {reason}" if rule else reason)

    @classmethod
    def keyed(cls: type[E], key: str, rule: str = "", **data: Any) -> E:
        """This refusal with the reason of catalogue ``key`` in the current language."""
        return cls(render_refusal(key, data), rule, key=key, data=data)

    def render(self, lang: str | None = None) -> str:
        """The reason in ``lang`` (default: the current language); the stored reason when the
        refusal has no key."""
        if not self.key:
            return self.reason
        from wargame.i18n import using_language

        with using_language(lang):
            return render_refusal(self.key, self.data)


class MalformedAction(IllegalAction, ValueError):
    """Not an action of this game, or its fields have the wrong type or shape (also a
    ``ValueError``: it is refused before any rule is consulted)."""

    kind = "malformed"


class GameOver(IllegalAction):
    """The game has ended: nothing more may be played."""

    kind = "game_over"


class NotYourTurn(IllegalAction):
    """The other side must act (its phase, or a decision it owns is pending)."""

    kind = "not_your_turn"


class WrongPhase(IllegalAction):
    """This kind of action belongs to another phase of the turn."""

    kind = "wrong_phase"


class MovementRefused(IllegalAction):
    """Movement points, path, terrain or a unit that may not move (CN/OD 4, M44 p.6)."""

    kind = "movement"


class StackingRefused(IllegalAction):
    """Too many units in a hex (CN/OD 4.1.1; one unit a hex in Memoir '44)."""

    kind = "stacking"


class EngagementRefused(IllegalAction):
    """Zones of engagement forbid it (CN/OD 4.1.2)."""

    kind = "engagement"


class EntryRefused(IllegalAction):
    """Reinforcement entry, landings, exits and withdrawals (CN/OD 4.2, 3.0, 11.1)."""

    kind = "entry"


class CombatRefused(IllegalAction):
    """An attack, battle or bombardment the rules do not allow (target, range, line of sight,
    a hex attacked twice, a unit that already attacked)."""

    kind = "combat"


class SupportRefused(IllegalAction):
    """Air points or artillery support the rules do not allow (CN/OD 6, 8)."""

    kind = "support"


class DecisionRefused(IllegalAction):
    """An answer that is not one of the pending decision's options (losses, retreats, advance
    after combat, defence declarations, Memoir's ambush, retreat and take-ground choices)."""

    kind = "decision"


class EndPhaseRefused(IllegalAction):
    """The phase cannot end yet (obligatory attacks, CN/OD 4.1.2)."""

    kind = "end_phase"


class CardRefused(IllegalAction):
    """A command card that cannot be played now (M44 p.5, Appendix 4)."""

    kind = "card"


class OrderRefused(IllegalAction):
    """A unit that cannot be ordered by the card played (M44 p.6 Issue Orders)."""

    kind = "order"


class SeatRefused(IllegalAction):
    """A room refuses the seat, not the move: an unknown seat link, a spectator, a seat the
    computer holds, or a view older than the game (``wargame.rooms``; rule ``"rooms"``)."""

    kind = "seat"

    def __init__(self, reason: str, rule: str = "rooms", *, key: str = "",
                 data: Mapping[str, Any] | None = None) -> None:
        super().__init__(reason, rule, key=key, data=data)


REFUSAL_KINDS: dict[str, type[IllegalAction]] = {
    cls.kind: cls
    for cls in (IllegalAction, MalformedAction, GameOver, NotYourTurn, WrongPhase,
                MovementRefused, StackingRefused, EngagementRefused, EntryRefused,
                CombatRefused, SupportRefused, DecisionRefused, EndPhaseRefused, CardRefused,
                OrderRefused, SeatRefused)
}


def refuse(cls: type[E], key: str, rule: str = "", **data: Any) -> E:
    """``cls`` (a kind of refusal) with the reason of catalogue ``key`` rendered from ``data`` in
    the current language: ``raise refuse(StackingRefused, "campaign.stacking.limit", "CN 4.1.1",
    limit=3)``."""
    return cls(render_refusal(key, data), rule, key=key, data=data)


class Reason(str):
    """Why a Memoir '44 unit may not battle (``MemoirState.can_battle``, ``battle_dice``): the
    English text those return (what logs and tests read), made from the refusal catalogue's
    ``key`` and ``data``, which it keeps, so that the refusal raised from it carries the key
    from where the engine decided (issue #35), not one guessed back from the text."""

    key: str
    data: dict[str, Any]

    def __new__(cls, key: str, **data: Any) -> Reason:
        self = super().__new__(cls, english_refusal(key, data))
        self.key = key
        self.data = data
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # copy and pickle: rebuilt from the key
        return (_reason, (self.key, self.data))


def _reason(key: str, data: dict[str, Any]) -> Reason:
    return Reason(key, **data)


def battle_refusal(why: str, rule: str) -> CombatRefused:
    """The refusal of a Memoir '44 battle for ``why`` (a ``Reason`` of ``battle_dice``), keyed
    so that it shows in the current language; a reason without a key is shown as it is."""
    if not isinstance(why, Reason):
        return CombatRefused(str(why), rule)
    return CombatRefused.keyed(why.key, rule, **why.data)
