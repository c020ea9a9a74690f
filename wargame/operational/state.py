"""The campaign engine: a ``Game`` (scenario + rules, immutable) and its ``State``.

``state.legal_actions()`` lists what the side to act may do; ``state.apply(action)`` returns
the events it caused. An illegal action raises ``IllegalAction`` naming the rule and leaves
the state unchanged. Choices that interrupt a phase (defence declaration, losses, retreats,
advance, EMP) are pending ``Decision``s owned by one side. All dice come from the state's
seeded ``Dice``; the action log replays a game exactly.

This module is the façade: ``State`` is assembled from one mixin class per rule area, each in
its own module (``sequence``, ``movement_rules``, ``reinforcements``, ``combat_steps``,
``losses``, ``retreat``, ``advance``, ``air``, ``artillery``, ``bombardment``, ``naval``,
``mulberries``, ``maquis``, ``victory``, ``queries``, ``snapshot``); the value types live in
``state_types``. Everything importable from here before the split still is.
"""

from __future__ import annotations

from typing import Any

from wargame.dice import DICE_VERSION, Dice
from wargame.errors import MalformedAction, refuse
from wargame.hexgrid import Hex
from wargame.operational.actions import Action, IllegalAction, action_from_dict
from wargame.operational.advance import AdvanceRules
from wargame.operational.air import AirRules
from wargame.operational.artillery import ArtilleryRules
from wargame.operational.bfn_rules import BattleForNormandyRules
from wargame.operational.bombardment import BombardmentRules
from wargame.operational.combat_steps import CombatSteps
from wargame.operational.hooks import RuleHooks
from wargame.operational.losses import LossRules
from wargame.operational.maquis import MaquisRules
from wargame.operational.movement import StepCosts
from wargame.operational.movement_rules import MovementRules
from wargame.operational.mulberries import MulberryRules
from wargame.operational.naval import NavalRules
from wargame.operational.queries import BoardQueries
from wargame.operational.reinforcements import ReinforcementRules
from wargame.operational.retreat import RetreatRules
from wargame.operational.sequence import SequenceRules
from wargame.operational.snapshot import SnapshotRules
from wargame.operational.state_types import PHASES, Combat, Decision, Event, Phase, UnitState
from wargame.operational.variants import check_variants_apply, normalize_variants
from wargame.operational.victory import VictoryRules
from wargame.scenario import Scenario, load_scenario

__all__ = ["Game", "State", "Phase", "PHASES", "Decision", "Event", "UnitState", "Combat",
           "IllegalAction"]


class Game:
    """Rules + scenario, immutable. ``Game("normandy")`` loads a bundled scenario."""

    def __init__(self, scenario: Scenario | str, variants: tuple[str, ...] | list[str] = ()) -> None:
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        self.variants = normalize_variants(variants)  # BFN 19: optional variant rules
        check_variants_apply(self.scenario.id, self.scenario.game, self.variants)
        # BFN 19: the optional rules plug into the engine's declared hooks (hooks.py)
        self.hooks: RuleHooks = BattleForNormandyRules()
        self.tables = self.hooks.tables(self.scenario.tables, self.variants)
        self.board = self.scenario.board
        self.units = self.scenario.units
        self.divisions = self.scenario.divisions
        self.steps = StepCosts(self.tables, self.board)
        self.rule_prefix = self.tables.rule_prefix

    def rule(self, name: str, default: Any = None) -> Any:
        return self.scenario.rule(name, default)

    def new_state(self, seed: int = 0, dice_version: int = DICE_VERSION) -> State:
        return State(self, seed, dice_version)

    # ------------------------------------------------------------------ the game protocol
    kind = "campaign"

    @property
    def scenario_id(self) -> str:
        return self.scenario.id

    @property
    def sides(self) -> tuple[str, str]:
        return ("allied", "axis")  # CN/OD 3.0: the Allied player moves first each turn

    def options_json(self) -> dict[str, Any]:
        return {"variants": list(self.variants)}

    def action_from_dict(self, data: Any) -> Action:
        """An action back from its JSON form; ``MalformedAction`` when it is not one."""
        try:
            return action_from_dict(data)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise refuse(MalformedAction, "action.not_campaign_action", error=str(exc)) from None




class State(
    SequenceRules,
    MovementRules,
    ReinforcementRules,
    CombatSteps,
    LossRules,
    RetreatRules,
    AdvanceRules,
    AirRules,
    ArtilleryRules,
    BombardmentRules,
    NavalRules,
    MulberryRules,
    MaquisRules,
    VictoryRules,
    BoardQueries,
    SnapshotRules,
):
    """One moment of play."""

    def __init__(self, game: Game, seed: int = 0, dice_version: int = DICE_VERSION) -> None:
        self.game = game
        self.seed = int(seed)
        self.dice = Dice(self.seed, dice_version)
        self.turn = game.scenario.first_turn
        self.phase = Phase.ALLIED_MOVEMENT
        self.units: dict[str, UnitState] = {}
        self.air_points: dict[str, int] = {"allied": 0, "axis": 0}
        self.attacked_hexes: set[tuple[str, Hex]] = set()
        self.control: dict[Hex, str] = {}
        self.must_attack: set[str] = set()
        self.carpet_turns: list[int] = []
        self.combat: Combat | None = None
        self.pending: Decision | None = None
        self.action_log: list[dict] = []
        self.events: list[Event] = []
        self.flags: dict[str, Any] = {}
        self._cache: dict[Any, Any] = {}
        self._applying = True
        self._setup()
        self._applying = False
