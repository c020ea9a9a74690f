"""The save file: a seed, the options, the action log and a fingerprint of the position.

Loading a save replays the log from the seed and compares the fingerprint, so a truncated or
hand-edited save is refused (wargame/protocol.py: ``fingerprint()``, ``action_log``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from .common import Int, Model, PosInt, Str

__all__ = ["SaveFile", "MIN_SEED", "MAX_SEED"]

# a seed is a signed 64-bit whole number (a rooms file stores 0 .. 2**63 - 1 in an SQLite
# INTEGER; the command line's --seed may be negative): a 5,000-digit one is refused naming the
# field (issue #31), not by Python's limit on int-from-text
MIN_SEED, MAX_SEED = -(2**63), 2**63 - 1
Seed = Annotated[Int, Field(ge=MIN_SEED, le=MAX_SEED)]


class SaveFile(Model):
    """A saved game of either engine (JSON)."""

    format: Literal["wargame-save"]
    format_version: PosInt
    game: Str = Field(description="the game family (wargame.registry): campaign, memoir")
    scenario: Str = Field(description="the scenario id (normandy, dragoon, memoir44-5...)")
    options: dict[Str, Any] = Field({}, description="the game's options (variants...)")
    seed: Seed = Field(description="the dice seed: a whole number from -2**63 to 2**63 - 1, "
                       "not true/false")
    dice: Literal[1, 2] = Field(1, description="the dice version the game was played with "
                                "(wargame/dice.py); absent in saves of format 2: version 1")
    actions: list[dict[Str, Any]] = Field(description="the action log, each action as a mapping")
    fingerprint: dict[Str, Any] = Field(
        description="summary of the final position, checked on load"
    )

    @field_validator("game")
    @classmethod
    def _a_known_family(cls, value: str) -> str:
        """One of the registered game families (issue #27: a family is one registry entry)."""
        from wargame.registry import FAMILIES

        kinds = [f.kind for f in reversed(FAMILIES)]
        if value not in kinds:
            raise ValueError(f"expected one of {', '.join(kinds)}")
        return value
