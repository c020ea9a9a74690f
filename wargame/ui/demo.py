"""A small, deterministic demo scenario for the dashboard (browser tests, teaching, offline use
when a full scenario's data is missing). Built with ``small_scenario`` on Normandy's tables."""

from __future__ import annotations

import dataclasses
from typing import Any

from wargame.operational.synthetic import small_scenario, unit
from wargame.scenario import Scenario

__all__ = ["demo_scenario", "DEMO_ID"]

DEMO_ID = "demo"


def demo_scenario() -> Scenario:
    """12 x 10 hexes: sea to the west, bocage, marsh, forest, rough, a hill, a river, a road, a
    fortified hill, an airfield, a village and a town; three Allied and two German units, one
    reinforcement per side."""
    terrain = {f"01{r:02d}": "sea" for r in range(1, 11)}
    terrain.update({
        "0503": "bocage", "0603": "bocage", "0504": "bocage",
        "0308": "marsh", "0309": "marsh",
        "0903": "forest", "0904": "forest",
        "0807": "rough", "1006": "hill", "1005": "hill",
        "1007": "city",
    })
    flags: dict[str, Any] = {
        "1005": {"fortification": True},
        "0307": {"airfield": True},
        "0607": {"village": True},
        "0205": {"village": True, "name": "Port-en-Demo"},
        "1007": {"name": "Villedemo"},
    }
    units = [
        unit("us-inf-1", "allied", "infantry", 3, 3, 6, division="us-1"),
        unit("us-inf-2", "allied", "infantry", 3, 3, 6, division="us-1"),
        unit("us-arm-1", "allied", "armour", 5, 4, 8),
        unit("us-art-1", "allied", "artillery", 4, 2, 4, rng=3),
        unit("uk-inf-1", "allied", "infantry", 3, 4, 6, nation="british"),
        unit("de-inf-1", "axis", "infantry", 2, 3, 6),
        unit("de-inf-2", "axis", "infantry", 3, 4, 6),
        unit("de-pz-1", "axis", "armour", 6, 5, 8),
    ]
    east = [f"12{r:02d}" for r in range(1, 11)]
    scn = small_scenario(
        cols=12,
        rows=10,
        terrain=terrain,
        flags=flags,
        rivers=[("0804", "0904"), ("0805", "0904"), ("0805", "0905"), ("0806", "0905"),
                ("0806", "0906")],
        roads=[["0205", "0305", "0405", "0505", "0605"], ["0807", "0907", "1007", "1107"]],
        units=units,
        setup={"us-inf-1": "0405", "us-art-1": "0406", "us-arm-1": "0306", "uk-inf-1": "0408",
               "de-inf-1": "0705", "de-inf-2": "1007"},
        reinforcements=[
            {"turn": 1, "unit": "us-inf-2", "entry": {"kind": "hex", "hexes": ["0202", "0203"]}},
            {"turn": 2, "unit": "de-pz-1", "entry": {"kind": "edge", "edge": "east"}},
        ],
        divisions={"us-1": {"name": "1st Infantry Division", "nation": "american"}},
        edges={"east": east},
        places={"Villedemo": ["1007"], "Port-en-Demo": ["0205"]},
        rules={
            "victory": [
                {"kind": "city", "place": "Villedemo", "points": {"allied": 20, "axis": 20}},
                {"kind": "destroyed", "side": "axis", "scorer": "allied", "points": 5},
                {"kind": "destroyed", "side": "allied", "scorer": "axis", "points": 5},
            ],
            "carpet_bombing": {"from_turn": 2, "uses": 2},
        },
        turns=(1, 4),
    )
    return dataclasses.replace(scn, id=DEMO_ID, title="Demo: a small Normandy-like map",
                               first_day="1944-06-06", days_per_turn=3)
