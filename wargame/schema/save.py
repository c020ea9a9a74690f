"""The save file: a seed, the options, the action log and a fingerprint of the position.

Loading a save replays the log from the seed and compares the fingerprint, so a truncated or
hand-edited save is refused (wargame/protocol.py: ``fingerprint()``, ``action_log``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from .common import Int, Model, PosInt, Str

__all__ = ["SaveFile"]


class SaveFile(Model):
    """A saved game of either engine (JSON)."""

    format: Literal["wargame-save"]
    format_version: PosInt
    game: Str = Field(description="the game family (wargame.registry): campaign, memoir")
    scenario: Str = Field(description="the scenario id (normandy, dragoon, memoir44-5...)")
    options: dict[Str, Any] = Field({}, description="the game's options (variants...)")
    seed: Int = Field(description="the dice seed: a whole number, not true/false")
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
