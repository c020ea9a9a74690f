"""Whole-file damage gives a ScenarioError naming the file: tables.yaml emptied, turned into a
list or a string, or missing its columns; YAML aliases; files over the size limit; JSON and
YAML nested too deeply (never a RecursionError)."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml

from wargame.memoir.m44 import to_m44
from wargame.memoir.scenario import check_memoir, scenario_from_m44
from wargame.paths import scenario_dir, scenarios_root
from wargame.scenario import load_scenario
from wargame.scenario_errors import MAX_FILE_BYTES, ScenarioError, load_json, short_repr
from wargame.schema.common import MAX_DEPTH, too_deep

FILES = ("scenario.yaml", "tables.yaml", "map.json", "units.yaml", "setup.yaml")


@pytest.fixture
def dragoon(tmp_path):
    for name in FILES:
        shutil.copy(scenario_dir("dragoon") / name, tmp_path / name)
    return tmp_path


def _tables(folder):
    return yaml.safe_load((folder / "tables.yaml").read_text(encoding="utf-8"))


def _load_refused(folder, name):
    with pytest.raises(ScenarioError) as exc:
        load_scenario(folder / "scenario.yaml")
    err = exc.value
    assert err.file.endswith(name) and err.field and err.expected, str(err)
    return err


@pytest.mark.parametrize("text", ["", "[]", "[1, 2]", "just a string", "42", "null", "{}",
                                  "- crt\n- terrain\n"])
def test_tables_that_are_not_a_mapping_of_tables(dragoon, text):
    (dragoon / "tables.yaml").write_text(text, encoding="utf-8")
    _load_refused(dragoon, "tables.yaml")


@pytest.mark.parametrize("change, field", [
    (lambda t: t["crt"].pop("columns"), "crt.columns"),
    (lambda t: t["crt"].__setitem__("columns", []), "crt.columns"),
    (lambda t: t["crt"]["rows"]["7"].pop(), "crt.rows.7"),
    (lambda t: t["bombardment"].pop("columns"), "bombardment.columns"),
    (lambda t: t["bombardment"]["rows"].pop("2-12"), "bombardment.rows.2-12"),
    (lambda t: t["crt"]["rows"].pop("7"), "crt.rows.7"),
    (lambda t: t.pop("terrain"), "terrain"),
    (lambda t: t.__setitem__("terrain", []), "terrain"),
    (lambda t: t.__setitem__("unit_types", "infantry"), "unit_types"),
    (lambda t: t["air_power"].pop("per_turn"), "air_power.per_turn"),
])
def test_tables_missing_columns_or_tables(dragoon, change, field):
    data = _tables(dragoon)
    change(data)
    (dragoon / "tables.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    err = _load_refused(dragoon, "tables.yaml")
    assert err.field.startswith(field), str(err)


@pytest.mark.parametrize("name", ["scenario.yaml", "tables.yaml", "units.yaml", "setup.yaml"])
def test_yaml_aliases_are_refused_in_every_file(dragoon, name):
    path = dragoon / name
    path.write_text("zz_anchor: &a [1, 2]\nzz_use: *a\n" + path.read_text(encoding="utf-8"),
                    encoding="utf-8")
    err = _load_refused(dragoon, name)
    assert "aliases" in err.expected or "alias" in str(err)


@pytest.mark.parametrize("name", ["map.json", "units.yaml"])
def test_files_over_the_size_limit_are_refused(dragoon, name):
    with (dragoon / name).open("a", encoding="utf-8") as fh:
        fh.write(" " * (MAX_FILE_BYTES + 1))
    err = _load_refused(dragoon, name)
    assert "MB" in err.expected


@pytest.mark.parametrize("depth", [MAX_DEPTH + 5, 900, 5000, 200_000])
def test_deep_json_map_is_a_scenario_error(dragoon, depth):
    (dragoon / "map.json").write_text('{"hexes": ' + "[" * depth + "]" * depth + "}",
                                      encoding="utf-8")
    err = _load_refused(dragoon, "map.json")
    assert "nested" in err.expected


@pytest.mark.parametrize("depth", [MAX_DEPTH + 5, 900, 5000])
def test_deep_yaml_is_a_scenario_error(dragoon, depth):
    (dragoon / "units.yaml").write_text("units: " + "[" * depth + "]" * depth + "\n",
                                        encoding="utf-8")
    err = _load_refused(dragoon, "units.yaml")
    assert "nested" in err.expected


def test_deep_or_huge_m44_is_a_scenario_error(tmp_path):
    deep = tmp_path / "deep.m44"
    deep.write_text('{"board": {"hexagons": ' + "[" * 100_000 + "]" * 100_000 + "}}",
                    encoding="utf-8")
    for check in (scenario_from_m44, check_memoir, load_json):
        with pytest.raises(ScenarioError) as exc:
            check(deep)
        assert exc.value.file == str(deep) and "nested" in exc.value.expected
    huge = tmp_path / "huge.m44"
    huge.write_bytes(b"{" + b" " * MAX_FILE_BYTES + b"}")
    with pytest.raises(ScenarioError) as exc:
        check_memoir(huge)
    assert "MB" in exc.value.expected


def test_m44_aliases_cannot_exist_and_an_m44_is_json_only(tmp_path):
    text = json.dumps(to_m44(load_json(scenarios_root() / "memoir44" / "6.json")))
    bad = tmp_path / "5.m44"
    bad.write_text("game_info: &a {}\nboard: *a\n" + text, encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        scenario_from_m44(bad)
    assert "valid JSON" in exc.value.expected


def test_depth_is_measured_without_recursion():
    value: list = []
    for _ in range(300_000):
        value = [value]
    assert too_deep(value) is not None and too_deep({"a": [[1]]}) is None
    assert len(short_repr(value)) <= 80 and len(short_repr("x" * 10**6)) <= 80
    data = json.loads(json.dumps({"a": {"b": [[[1]]]}}))
    assert too_deep(data, limit=3) == "a.b[0][0]"
