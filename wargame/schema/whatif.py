"""The what-if file of a campaign study (``wargame study --whatif FILE``, docs/studies.md).

A small YAML file naming the changes a study makes to a bundled campaign scenario: variant
rules (BFN 19), the computer players' postures, a reinforcement's entry turn or hex (the
schedule of setup.yaml, CN/OD 11.1.3-11.1.4), rule options (scenario.yaml ``rules``) and the
values of the reconstructed counters (``counters``: which side, types or units, and by how
much their attack, defence or movement change).
Cross-references (units, hexes, turns, edges, beaches) are checked against the scenario
passed in the validation context, so every error names the file and the field.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationInfo, field_validator, model_validator

from .common import HexId as _HexId
from .common import (
    Int,
    Model,
    Number,
    Side,
    Str,
    Version1,
    check_in,
    check_once,
    ctx,
    expect,
    ref_error,
)

__all__ = ["CounterChange", "PostureSpec", "ReinforcementChange", "WhatIfFile"]


class PostureSpec(Model):
    """How boldly the greedy bot plays a side (``wargame.bots.greedy.Posture``)."""

    engage_ratio: Number = Field(description="summed attack / defence needed to move in")
    attack_threshold: Number = Field(description="expected steps gained needed to attack")

    @field_validator("engage_ratio")
    @classmethod
    def _positive(cls, v: float) -> float:
        if v <= 0:
            raise expect("schema.gt", v, limit=0)
        return v


class ReinforcementChange(Model):
    """A reinforcement arriving on another turn and/or at another place."""

    unit: Str = Field(description="a reinforcement unit id of the scenario (setup.yaml)")
    turn: Int | None = Field(None, description="the new entry turn")
    hex: _HexId | None = Field(None, description="enter at this hex instead")
    edge: Str | None = Field(None, description="enter by this map edge instead")
    beaches: list[Str] | None = Field(None, description="land on these beaches instead")
    note: Str = ""

    @field_validator("unit")
    @classmethod
    def _unit(cls, v: str, info: ValidationInfo) -> str:
        names = ctx(info, "reinforcement_units")
        shown = ", ".join(sorted(names)[:6]) + (", ..." if names and len(names) > 6 else "")
        return check_in(v, names, "whatif.reinforcement_unit", units=shown)

    @field_validator("turn")
    @classmethod
    def _turn(cls, v: int | None, info: ValidationInfo) -> int | None:
        turns = ctx(info, "turns")
        if v is not None and turns is not None and not turns[0] <= v <= turns[1]:
            raise expect("whatif.turn_range", v, first=turns[0], last=turns[1])
        return v

    @field_validator("hex")
    @classmethod
    def _hex(cls, v: str | None, info: ValidationInfo) -> str | None:
        return v if v is None else check_in(v, ctx(info, "hexes"), "map.hex")

    @field_validator("edge")
    @classmethod
    def _edge(cls, v: str | None, info: ValidationInfo) -> str | None:
        edges = ctx(info, "edges")
        return v if v is None else check_in(v, edges, "whatif.map_edge",
                                           edges=", ".join(sorted(edges or ())))

    @field_validator("beaches")
    @classmethod
    def _beaches(cls, v: list[str] | None, info: ValidationInfo) -> list[str] | None:
        if v is None:
            return v
        if not v:
            raise expect("whatif.beach_names", v)
        places = ctx(info, "places")
        for name in v:
            check_in(name, places, "whatif.beach")
        return v

    @model_validator(mode="after")
    def _one_change(self) -> ReinforcementChange:
        places = [k for k in ("hex", "edge", "beaches") if getattr(self, k) is not None]
        if len(places) > 1:
            raise ref_error(places[1], "whatif.one_entry", places)
        if self.turn is None and not places:
            raise ref_error("turn", "whatif.some_change", None)
        return self


class CounterChange(Model):
    """Counters' values changed by a number of points: every unit that matches all the filters
    given (``side``, ``types``, ``units``) gets ``attack``, ``defence`` and ``movement`` added
    to both sides of its counter (attack and defence stay at least 1, movement at least 0).
    The Normandy and Dragoon counters are reconstructions (docs/normandy-counters.md): this is
    how a study asks what other values would change."""

    side: Side | None = Field(None, description="only this side's units")
    types: list[Str] = Field([], description="only units of these types (tables.yaml)")
    units: list[Str] = Field([], description="only these unit ids (units.yaml)")
    attack: Int = Field(0, description="points added to the attack (negative: taken off)")
    defence: Int = Field(0, description="points added to the defence")
    movement: Int = Field(0, description="points added to the movement allowance")
    note: Str = ""

    @field_validator("types", "units")
    @classmethod
    def _known(cls, v: list[str], info: ValidationInfo) -> list[str]:
        names, key = {"types": ("unit_types", "units.unit_type"),
                      "units": ("units", "units.unit_id")}[str(info.field_name)]
        for name in v:
            check_in(name, ctx(info, names), key)
        return v

    @field_validator("attack", "defence", "movement")
    @classmethod
    def _bounded(cls, v: int) -> int:
        if not -20 <= v <= 20:
            raise expect("whatif.counter_points", v)
        return v

    @model_validator(mode="after")
    def _some(self, info: ValidationInfo) -> CounterChange:
        if not (self.attack or self.defence or self.movement):
            raise ref_error("defence", "whatif.counter_change", None)
        index = ctx(info, "unit_index")
        if index is not None and not any(self.selects(uid, side, utype)
                                         for uid, (side, utype) in index.items()):
            raise ref_error("types", "whatif.counter_match", None)
        return self

    def selects(self, uid: str, side: str, utype: str) -> bool:
        """Whether the unit ``uid`` (of ``side`` and type ``utype``) is changed."""
        return ((self.side is None or side == self.side)
                and (not self.types or utype in self.types)
                and (not self.units or uid in self.units))


class WhatIfFile(Model):
    """A what-if: the changes a study makes to its scenario (docs/studies.md)."""

    format_version: Version1 = 1
    name: Str | None = Field(None, description="a short label for tables and charts")
    description: Str = ""
    scenario: Str | None = Field(None, description="the scenario id it was written for")
    variants: list[Str] = Field([], description="BFN 19 variant rules (docs/bfn-variants.md)")
    postures: dict[Side, PostureSpec] = Field({}, description="greedy bot postures per side")
    reinforcements: list[ReinforcementChange] = []
    rules: dict[Str, Any] = Field({}, description="rule options merged into scenario.yaml rules")
    counters: list[CounterChange] = Field([], description="counters' values changed")

    @field_validator("scenario")
    @classmethod
    def _scenario(cls, v: str | None, info: ValidationInfo) -> str | None:
        want = ctx(info, "scenario_id")
        if v is not None and want is not None and v != want:
            raise expect("whatif.scenario", v, scenario=repr(want))
        return v

    @model_validator(mode="after")
    def _once(self) -> WhatIfFile:
        check_once(self.reinforcements, "unit", "reinforcements", "whatif.unit_once")
        return self
