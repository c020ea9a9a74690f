"""Helpers for the tests, outside the installed package: ``LoadedDice`` (dice that roll given
faces), plus the synthetic maps of ``wargame.operational.synthetic`` (which the dashboard's demo
scenario also uses) so a test imports its helpers from one place::

    from tests.helpers import LoadedDice, small_scenario, unit

Importable as ``tests.helpers`` because pyproject's pytest options put the repository root on
``sys.path`` (``pythonpath = ["."]``).
"""

from __future__ import annotations

from wargame.dice import Dice
from wargame.operational.synthetic import small_scenario, unit

__all__ = ["LoadedDice", "small_scenario", "unit"]


class LoadedDice(Dice):
    """Dice that read from a list (faces as ``die`` returns them: a d10 reading 0 is 1), then
    fall back to the seeded generator; for tests that need a given roll."""

    def __init__(self, values: list[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.values = list(values)

    def die(self, sides: int) -> int:
        if self.values:
            value = self.values.pop(0)
            assert 1 <= value <= sides, f"loaded {value} on a d{sides}"
            self.sides_log.append(sides)
            return value
        return super().die(sides)


def omaha_retreat(seed: int = 1946, target: str = "2010"):
    """The Normandy dashboard model at its first retreat decision: End phase of the landings,
    then the attack on ``target`` (Colleville, Omaha) answered automatically until the defender
    must choose where to retreat (seed 1946, dice version 2: a defence declaration, a loss,
    then the retreat; it was seed 1944 with dice 1)."""
    from wargame.ui.model import CampaignState

    m = CampaignState("normandy", seed=seed)
    m.end_phase()
    m.set_target(target)
    m.declare_attack()
    while m.s.pending is not None and not m.retreat_targets():
        m.auto()
    return m
