"""The initial placement is legal (CN/OD 4.1.1) and every reference and cost is sane: a
ScenarioError names setup.yaml (or the file at fault), the field and what was expected."""

from __future__ import annotations

import copy
import json
import shutil

import pytest
import yaml

from wargame.paths import scenario_dir
from wargame.scenario import load_scenario
from wargame.scenario_errors import ScenarioError

FILES = ("scenario.yaml", "tables.yaml", "map.json", "units.yaml", "setup.yaml")


@pytest.fixture
def dragoon(tmp_path):
    for name in FILES:
        shutil.copy(scenario_dir("dragoon") / name, tmp_path / name)
    return tmp_path


def _edit(folder, name, change):
    path = folder / name
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if name.endswith(".json") else yaml.safe_load(text)
    change(data)
    path.write_text(json.dumps(data) if name.endswith(".json")
                    else yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def _refused(folder, name, field, words):
    with pytest.raises(ScenarioError) as exc:
        load_scenario(folder / "scenario.yaml")
    err = exc.value
    assert err.file.endswith(name) and (field is None or err.field == field), str(err)
    assert words in err.expected, str(err)
    return err


def _units(folder):
    data = yaml.safe_load((folder / "units.yaml").read_text(encoding="utf-8"))
    return {u["id"]: u for u in data["units"]}


def _setup(folder):
    return yaml.safe_load((folder / "setup.yaml").read_text(encoding="utf-8"))["setup"]


def test_the_bundled_setups_are_legal():
    for sid in ("dragoon", "normandy"):
        scn = load_scenario(sid)
        assert scn.setup


def test_too_many_units_of_a_side_in_a_hex(dragoon):
    units, setup = _units(dragoon), _setup(dragoon)
    axis = [i for i, p in enumerate(setup) if units[p["unit"]]["side"] == "axis"][:5]

    def stack(data):
        for i in axis:
            data["setup"][i]["hex"] = data["setup"][axis[0]]["hex"]

    _edit(dragoon, "setup.yaml", stack)
    err = _refused(dragoon, "setup.yaml", f"setup[{axis[4]}].hex", "at most 4 units")
    assert "4.1.1" in err.expected


def test_a_lower_stacking_limit_is_obeyed(dragoon):
    # 0723 holds three German regiments at the start (OD 11.1.1)
    _edit(dragoon, "scenario.yaml", lambda d: d.__setitem__("stacking_limit", 2))
    _refused(dragoon, "setup.yaml", "setup[9].hex", "at most 2 units")


def test_both_sides_in_one_hex_only_for_setup_landings(dragoon):
    units, setup = _units(dragoon), _setup(dragoon)
    axis = next(i for i, p in enumerate(setup) if units[p["unit"]]["side"] == "axis")
    allied = [i for i, p in enumerate(setup) if units[p["unit"]]["side"] == "allied"]
    # with the landing rule, an Allied unit on a German hex waits at sea to land: legal
    _edit(dragoon, "setup.yaml",
          lambda d: d["setup"][allied[-1]].__setitem__("hex", d["setup"][axis]["hex"]))
    load_scenario(dragoon / "scenario.yaml")
    _edit(dragoon, "scenario.yaml", lambda d: d["rules"].pop("setup_landings"))
    # the bundled landing hex 1323 is the first refused now
    _refused(dragoon, "setup.yaml", None, "one side only")


@pytest.mark.parametrize("where, words", [("sea", "sea is not"), ("border", "border is not")])
def test_units_are_placed_on_land(dragoon, where, words):
    hexes = json.loads((dragoon / "map.json").read_text(encoding="utf-8"))["hexes"]
    target = next(h for h, spec in sorted(hexes.items()) if spec["terrain"] == where)
    _edit(dragoon, "setup.yaml", lambda d: d["setup"][0].__setitem__("hex", target))
    err = _refused(dragoon, "setup.yaml", "setup[0].hex", "land hex")
    assert words in err.expected


def test_a_unit_on_a_terrain_its_class_may_not_enter(dragoon):
    units, setup = _units(dragoon), _setup(dragoon)
    hexes = json.loads((dragoon / "map.json").read_text(encoding="utf-8"))["hexes"]
    mountain = next(h for h, spec in sorted(hexes.items()) if spec["terrain"] == "mountain")
    i = next((i for i, p in enumerate(setup) if units[p["unit"]]["type"] == "armour"), None)
    if i is None:  # no armour at the start: make the first unit an armoured one
        i = 0
        _edit(dragoon, "units.yaml", lambda d: next(
            u for u in d["units"] if u["id"] == setup[0]["unit"]).__setitem__("type", "armour"))
    _edit(dragoon, "setup.yaml", lambda d: d["setup"][i].__setitem__("hex", mountain))
    _refused(dragoon, "setup.yaml", f"setup[{i}].hex", "armour unit may enter")


@pytest.mark.parametrize("target", ["9999", "0000"])
def test_units_off_the_map_are_refused(dragoon, target):
    _edit(dragoon, "setup.yaml", lambda d: d["setup"][3].__setitem__("hex", target))
    _refused(dragoon, "setup.yaml", "setup[3].hex", "a hex of the map")


@pytest.mark.parametrize("cost", [0, -1, -0.5, float("inf"), float("nan"), 10**30])
def test_movement_costs_are_positive_and_finite(dragoon, cost):
    _edit(dragoon, "tables.yaml", lambda d: d["terrain"]["woods"]["cost"].__setitem__(
        "armour", cost))
    _refused(dragoon, "tables.yaml", "terrain.woods.cost.armour", "a number")


@pytest.mark.parametrize("cost", [0, -1, float("inf")])
def test_road_costs_are_positive_and_finite(dragoon, cost):
    _edit(dragoon, "tables.yaml", lambda d: d["road"]["cost"].__setitem__("motorized", cost))
    _refused(dragoon, "tables.yaml", "road.cost.motorized", "a number")


@pytest.mark.parametrize("name, change, field, words", [
    ("setup.yaml", lambda d: d["setup"][2].__setitem__("unit", "nobody"), "setup[2].unit",
     "a unit id"),
    ("setup.yaml", lambda d: d["reinforcements"][0].__setitem__("unit", "nobody"),
     "reinforcements[0].unit", "a unit id"),
    ("units.yaml", lambda d: d["units"][0].__setitem__("type", "cavalry"), "units[0].type",
     "one of"),
    ("map.json", lambda d: d["hexes"]["0101"].__setitem__("terrain", "lava"),
     "hexes.0101.terrain", "one of"),
    ("scenario.yaml", lambda d: d["rules"]["withdrawals"][0].__setitem__("units", ["nobody"]),
     "rules.withdrawals[0].units[0]", "a unit id"),
    ("scenario.yaml", lambda d: d["rules"]["withdrawals"][1].__setitem__("divisions", ["x"]),
     "rules.withdrawals[1].divisions[0]", "division"),
])
def test_every_reference_exists(dragoon, name, change, field, words):
    _edit(dragoon, name, change)
    _refused(dragoon, name, field, words)


def test_a_unit_id_listed_twice_is_refused(dragoon):
    _edit(dragoon, "units.yaml", lambda d: d["units"].append(copy.deepcopy(d["units"][0])))
    err = _refused(dragoon, "units.yaml", None, "a unique id")
    assert err.field.startswith("units[") and err.field.endswith("].id")


def test_a_unit_placed_twice_is_refused(dragoon):
    _edit(dragoon, "setup.yaml", lambda d: d["setup"].append(copy.deepcopy(d["setup"][0])))
    _refused(dragoon, "setup.yaml", None, "a unit placed once")


def test_a_unit_both_placed_and_a_reinforcement_is_refused(dragoon):
    def both(d):
        d["reinforcements"][0]["unit"] = d["setup"][0]["unit"]
    _edit(dragoon, "setup.yaml", both)
    err = _refused(dragoon, "setup.yaml", "reinforcements[0].unit", "listed once in setup")
    assert "de-ri-157" in str(err)
