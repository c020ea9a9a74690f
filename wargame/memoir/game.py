"""Memoir '44 as state, legal actions and events.

``MemoirGame`` (scenario + rule options, immutable) creates ``MemoirState`` objects. A state
lists ``legal_actions()`` for the side to act (``side_to_act``); ``apply(action)`` returns the events
it caused or raises ``IllegalAction`` (reason and rule) leaving the state unchanged. Decisions
that interrupt a turn (ambush, retreat path, take ground, Recon keep-1) are pending decisions
owned by one side. All randomness comes from the state's seeded ``wargame.dice.Dice``.

Turn sequence (M44 p.5 Game Play): 1 play a command card, 2 order units, 3 move, 4 battle,
5 draw a command card.

This module is the façade: ``MemoirState`` is assembled from one mixin per rulebook area --
``sequence`` (turn flow, draw, victory), ``command`` (cards and tactic effects), ``orders``,
``movement``, ``battle``, ``retreat`` (retreat, take ground, ambush), ``pending`` (pending
decisions) and ``serialize`` (JSON, replay) -- over ``position.StateBase`` (units, occupancy,
medals). The values (``Action``, ``Event``, ``Unit``) live in ``actions``; the typed records of a
turn in progress (``TurnContext``, ``PendingDecision``, ``Slot``, ``PlayedCard``) in ``context``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from wargame.dice import DICE_VERSION
from wargame.errors import IllegalAction, MalformedAction, refuse

from .actions import Action, Event, Unit
from .battle import BattleMixin
from .board import ALLIES, AXIS, CENTER, LEFT, RIGHT
from .command import CommandMixin
from .movement import MovementMixin
from .orders import OrdersMixin
from .pending import PendingMixin
from .retreat import RetreatMixin
from .scenario import Scenario, load_scenario
from .sequence import SequenceMixin
from .serialize import FORMAT_VERSION, SerializeMixin

__all__ = [
    "FORMAT_VERSION",
    "Action",
    "Event",
    "IllegalAction",
    "Unit",
    "MemoirGame",
    "MemoirState",
    "LEFT",
    "CENTER",
    "RIGHT",
]


@dataclass(frozen=True)
class MemoirGame:
    """Scenario plus rule options; immutable."""

    scenario: Scenario
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def from_scenario(cls, scenario_id: str | int, **options: Any) -> MemoirGame:
        return cls(load_scenario(scenario_id), tuple(sorted(options.items())))

    def option(self, name: str, default: Any = None) -> Any:
        return dict(self.options).get(name, default)

    # ------------------------------------------------------------------ the game protocol
    kind: ClassVar[str] = "memoir"

    @property
    def scenario_id(self) -> str:
        return f"memoir44-{self.scenario.id}"

    @property
    def sides(self) -> tuple[str, str]:
        return (ALLIES, AXIS)

    def options_json(self) -> dict[str, Any]:
        return {"options": dict(self.options)}

    def new_state(self, seed: int = 0, dice_version: int = DICE_VERSION) -> MemoirState:
        return MemoirState.new(self, seed, dice_version)

    def action_from_dict(self, data: Any) -> Action:
        """An action back from its JSON form; ``MalformedAction`` when it is not one (the
        structural checks are ``Action.from_dict``'s)."""
        try:
            return Action.from_dict(data)
        except MalformedAction:
            raise  # its reason keyed: said in the page's language (issue #32)
        except (TypeError, ValueError, KeyError) as exc:
            raise refuse(MalformedAction, "action.not_memoir_action", detail=str(exc)) from None


class MemoirState(SequenceMixin, CommandMixin, OrdersMixin, MovementMixin, BattleMixin,
                  RetreatMixin, PendingMixin, SerializeMixin):
    """One moment of a Memoir '44 game."""

    game_class: ClassVar[type[MemoirGame]] = MemoirGame
