"""What ``make fuzz`` found in tables.yaml's loader (issue #31, run of 2026-12-07 with 2,000
examples): a movement class without a road cost (``road.cost.special`` or
``road.cost.non_motorized`` dropped) loaded, and the first move along a road raised a raw
KeyError in play; now a ScenarioError naming the file and the field (CN/OD terrain effects
table: the road has a cost for every movement class)."""

from __future__ import annotations

import shutil

import pytest
import yaml

from wargame import i18n
from wargame.paths import scenario_dir
from wargame.scenario import load_scenario
from wargame.scenario_errors import ScenarioError


def _copy(tmp_path, sid: str):
    folder = tmp_path / sid
    shutil.copytree(scenario_dir(sid), folder)
    tables = yaml.safe_load((folder / "tables.yaml").read_text(encoding="utf-8"))
    return folder, tables


@pytest.mark.parametrize("sid, dropped", [("dragoon", "special"), ("dragoon", "non_motorized"),
                                          ("normandy", "armour")])
def test_a_movement_class_without_a_road_cost_is_a_scenario_error(tmp_path, sid, dropped):
    folder, tables = _copy(tmp_path, sid)
    classes = tables["movement_classes"]
    del tables["road"]["cost"][dropped]
    (folder / "tables.yaml").write_text(yaml.safe_dump(tables), encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(folder / "scenario.yaml")
    err = exc.value
    assert err.file.endswith("tables.yaml") and err.field == "road.cost", str(err)
    assert "road cost for every movement class" in err.expected and str(classes) in err.expected
    assert dropped not in str(err.found)
    with i18n.using_language("pt"):
        assert "custo de estrada para cada classe de movimentação" in err.render()


@pytest.mark.parametrize("sid", ["dragoon", "normandy"])
def test_the_bundled_tables_give_every_class_a_road_cost(sid):
    scn = load_scenario(sid)
    assert set(scn.tables.road_cost) == set(
        yaml.safe_load((scenario_dir(sid) / "tables.yaml").read_text())["movement_classes"])
