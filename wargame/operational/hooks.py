"""The declared extension points of the campaign engine, for optional rules.

The engine calls the hooks of ``game.hooks`` (a ``RuleHooks``) at fixed points of the turn;
this base class does nothing at any of them, so a game without optional rules plays the
rulebook as written. A set of optional rules (Battle for Normandy §19: ``bfn_rules.py``)
subclasses it and overrides the hooks it needs, reading the state only through public
``State`` methods and attributes.

Rules: CN/OD 3.0 (the points of the turn where hooks run: start of turn, start of phase,
end of movement), 4.0 (movement refusals and classes), 4.2.2 (withdrawals), 4.2.3 (drops),
5.1 (column shifts), 6.3 (carpet bombing), 7.0 (recovery), 9.0 (Mulberries), 10.0 (naval
support); BFN 19.1-19.8 use them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from wargame.errors import IllegalAction
from wargame.hexgrid import Hex
from wargame.operational.actions import Action
from wargame.operational.combat import Shift

if TYPE_CHECKING:  # pragma: no cover
    from wargame.operational.state import Game
    from wargame.operational.state_protocol import CampaignSelf
    from wargame.operational.tables import Tables

__all__ = ["RuleHooks"]


class RuleHooks:
    """Optional rules plug in here; every hook's default keeps the rulebook's behaviour."""

    # ---------------------------------------------------------------- the game's data
    def tables(self, tables: Tables, variants: tuple[str, ...]) -> Tables:
        """The game's tables with the optional rules' changes (called once, by ``Game``)."""
        return tables

    def mulberry_harbours(self, game: Game, cn_rule: dict | None = None) -> list[dict]:
        """CN 9.0: the Mulberry harbours in play (``name``, ``hex``, ``landing``)."""
        return list((cn_rule or game.rule("mulberries") or {}).get("harbours", []))

    def replaces_mulberries(self, game: Game) -> bool:
        """True when the optional rules build the Mulberries themselves instead of CN 9.0."""
        return False

    def replaces_carpet_bombing(self, game: Game) -> bool:
        """True when the optional rules replace CN 6.3's carpet bombing."""
        return False

    # ---------------------------------------------------------------- points of the turn
    def on_turn_start(self, state: CampaignSelf) -> None:
        """After the turn's air points (CN 6.0), before withdrawals (4.2.2) and Mulberries."""

    def on_phase_start(self, state: CampaignSelf) -> None:
        """After the phase's units are reset and its obligatory attacks listed (CN/OD 3.0)."""

    def on_movement_end(self, state: CampaignSelf, side: str) -> None:
        """After recovery (CN 7.0) and maquis losses (OD 10.0) at the end of ``side``'s
        movement phase, before the combat phase starts."""

    # ---------------------------------------------------------------- actions
    def extra_actions(self, state: CampaignSelf) -> list[Action]:
        """Actions of the optional rules to list in ``legal_actions`` (movement phases)."""
        return []

    def action_handler(self, state: CampaignSelf, action: Action) -> Callable[[Action], None] | None:
        """The handler of an action the engine does not know, or None (then it is refused).
        The handler raises an ``IllegalAction`` subclass to refuse it."""
        return None

    def move_refusal(self, state: CampaignSelf, uid: str) -> IllegalAction | None:
        """Why ``uid`` may not move this phase, beyond the rulebook's reasons (CN 4.0)."""
        return None

    # ---------------------------------------------------------------- rules adjusted
    def movement_class(self, state: CampaignSelf, uid: str, default: str) -> str:
        """The movement class ``uid`` moves with (CN/OD 4.0); ``default`` is its type's."""
        return default

    def no_recovery(self, state: CampaignSelf, uid: str) -> bool:
        """True when ``uid`` may not recover its loss (CN 7.0)."""
        return False

    def withdrawal_rules(self, state: CampaignSelf, rules: list[dict]) -> list[dict]:
        """The withdrawals in force (CN/OD 4.2.2: ``turn``, ``divisions``, ``units``, ``rule``)."""
        return rules

    def drop_override(self, state: CampaignSelf, uid: str, h: Hex) -> bool:
        """True when the optional rules decided ``uid``'s starting drop on ``h`` (CN 4.2.3)."""
        return False

    def naval_rule(self, state: CampaignSelf, rule: dict[str, Any]) -> dict[str, Any]:
        """The naval support rule in force now (CN 10.0, OD 9.0)."""
        return rule

    def combat_shifts(self, state: CampaignSelf, attackers: tuple[str, ...],
                      defenders: list[str]) -> list[Shift]:
        """Extra column shifts for an attack (CN 5.1), each with its reason and rule."""
        return []
