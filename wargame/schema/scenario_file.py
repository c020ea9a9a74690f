"""The campaign scenario.yaml model."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import Field, field_validator, model_validator

from .common import Int, Model, PosInt, Side, Str, Version1, expect, expect_value, ref_error
from .rules import Rules

__all__ = ["ScenarioFile", "ScenarioMeta", "Turns", "TurnDates"]


class Turns(Model):
    first: Int
    last: Int

    @model_validator(mode="after")
    def _order(self) -> Turns:
        if self.last < self.first:
            raise ref_error("last", "meta.last_turn", self.last)
        return self


class TurnDates(Model):
    first_day: Annotated[Str | dt.date, Field(description="a date YYYY-MM-DD")] | None = None
    days_per_turn: PosInt = 1
    first_turn_days: PosInt | None = Field(
        None, description="days of the first turn when it differs from days_per_turn "
        "(CN 2.4.1: turn 0 is D-Day alone)")

    @field_validator("first_day", mode="before")
    @classmethod
    def _iso(cls, v: Any) -> Any:
        if v is None or isinstance(v, dt.date):
            return v
        try:
            dt.date.fromisoformat(str(v))
        except ValueError:
            raise expect("meta.date", v) from None
        return v


FileName = Annotated[Str, Field(description="a file name in the scenario folder")]


class ScenarioTexts(Model):
    """The texts of scenario.yaml in another language (wargame.localized)."""

    title: Annotated[Str, Field(min_length=1)] | None = None
    description: Annotated[Str, Field(min_length=1)] | None = None


class ScenarioMeta(Model):
    """The content of scenario.yaml without the file names (scenarios built in memory)."""

    id: Str | None = None
    game: Str | None = None
    title: Str | None = None
    description: Str | None = None
    pt: ScenarioTexts | None = Field(None, description="title and description in Portuguese")
    turns: Turns
    turn_dates: TurnDates | None = None
    stacking_limit: PosInt = 4
    sides: list[Side] = ["allied", "axis"]
    first_side: Side = "allied"
    default_control: Side = Field("axis", description="informative: see rules.default_control")
    rules: Rules | None = None


class ScenarioFile(ScenarioMeta):
    """scenarios/<id>/scenario.yaml: what the scenario is, its files, turns and rule options."""

    format_version: Version1
    tables: FileName
    map: FileName
    units: FileName
    setup: FileName
    history: FileName | None = None

    @model_validator(mode="before")
    @classmethod
    def _version_first(cls, data: Any) -> Any:
        """A file of another format version is reported as such, before anything else."""
        version = data.get("format_version") if isinstance(data, dict) else None
        if isinstance(data, dict) and (version != 1 or isinstance(version, bool)):
            raise expect_value(1, data.get("format_version"), "format_version")
        return data
