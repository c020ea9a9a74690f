"""Memoir '44 rules engine: board, units, cards, dice, orders, combat, retreat, medals.

Pure Python (no pandas, Panel or Bokeh). Start with::

    from wargame.memoir import MemoirGame
    game = MemoirGame.from_scenario(1)          # rulebook scenario number (or "overlord")
    state = game.new_state(seed=7)
    state.legal_actions(); state.apply(action)  # -> list[Event]
"""

from .board import ALLIES, AXIS, LAYOUT, Board, hex_to_m44, m44_to_hex
from .cards import DECK, Card, card
from .dice import hits_distribution, outcome_distribution
from .game import (
    FORMAT_VERSION,
    Action,
    Event,
    IllegalAction,
    MemoirGame,
    MemoirState,
    Unit,
)
from .scenario import Scenario, load_scenario, scenario_ids

__all__ = [
    "ALLIES", "AXIS", "LAYOUT", "Board", "hex_to_m44", "m44_to_hex",
    "DECK", "Card", "card", "hits_distribution", "outcome_distribution",
    "FORMAT_VERSION", "Action", "Event", "IllegalAction", "MemoirGame", "MemoirState", "Unit",
    "Scenario", "load_scenario", "scenario_ids",
]
