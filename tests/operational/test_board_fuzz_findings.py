"""What ``make fuzz`` found in map.json's loader (issue #31, run of 2026-11-27 with 2,000
examples): an ``offmap_roads`` that is not a list of links, or a language's ``names`` that is
not an object, was a raw TypeError; now a ScenarioError naming the file and the field."""

from __future__ import annotations

import json

import pytest

from wargame.operational.board import board_from_dict
from wargame.paths import scenario_dir
from wargame.scenario_errors import ScenarioError

TERRAINS = {"open", "city", "rough", "forest", "bocage", "marsh", "hill", "sea"}
BASE = json.loads((scenario_dir("normandy") / "map.json").read_text(encoding="utf-8"))


def load(**changes):
    return board_from_dict({**BASE, **changes}, source="map.json", terrain_names=TERRAINS)


def test_the_bundled_offmap_roads_still_load():
    board = load()
    assert board.offmap_roads == BASE["offmap_roads"] and board.offmap_roads


@pytest.mark.parametrize("value, field", [
    (1, "offmap_roads"),
    ("1125", "offmap_roads"),
    ([1], "offmap_roads[0]"),
    ([{"from": "1125", "to": "1825"}], "offmap_roads[0]"),
    ([{"from": "1125", "to": "1825", "road_hexes": 10**9}], "offmap_roads[0]"),
    ([{"from": "1125", "to": "9999", "road_hexes": 10}], "offmap_roads[0].to"),
    ([{"from": None, "to": "1825", "road_hexes": 10}], "offmap_roads[0].from"),
])
def test_a_broken_offmap_road_is_a_scenario_error(value, field):
    with pytest.raises(ScenarioError) as exc:
        load(offmap_roads=value)
    assert exc.value.file == "map.json" and exc.value.field == field


@pytest.mark.parametrize("names", [1, "Cota 112", [1, 2]])
def test_names_that_are_not_an_object_are_a_scenario_error(names):
    with pytest.raises(ScenarioError) as exc:
        load(pt={"names": names})
    assert exc.value.field == "pt.names" and "object" in str(exc.value)
