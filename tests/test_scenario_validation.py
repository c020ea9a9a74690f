"""Broken or hand-edited scenario files get a ScenarioError naming file, field and expectation;
no other exception escapes (fuzzed with hypothesis)."""

import copy
import json
import shutil

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wargame.cli import main as cli_main
from wargame.paths import scenario_dir
from wargame.scenario import ScenarioError, load_scenario

SRC = scenario_dir("normandy")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    dst = tmp_path_factory.mktemp("normandy")
    for name in ("scenario.yaml", "tables.yaml", "map.json", "units.yaml", "setup.yaml"):
        shutil.copy(SRC / name, dst / name)
    return dst


def test_bundled_normandy_is_valid():
    scn = load_scenario("normandy")
    assert len(scn.units) == 231


def test_validate_command_reports_file_and_field(folder, tmp_path, capsys):
    bad = tmp_path / "bad"
    shutil.copytree(folder, bad)
    data = yaml.safe_load((bad / "units.yaml").read_text())
    data["units"][3]["attack"] = "strong"
    (bad / "units.yaml").write_text(yaml.safe_dump(data, allow_unicode=True))
    assert cli_main(["scenario", "validate", str(bad / "scenario.yaml")]) == 1
    err = capsys.readouterr()
    text = err.out + err.err
    assert "units.yaml" in text and "units[3].attack" in text and "whole number" in text
    assert cli_main(["scenario", "validate", str(folder / "scenario.yaml")]) == 0


# --- mutations ---------------------------------------------------------------------------
def _paths(data, prefix=()):
    if isinstance(data, dict):
        for k, v in data.items():
            yield prefix + (k,)
            yield from _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data[:6]):
            yield prefix + (i,)
            yield from _paths(v, prefix + (i,))


JUNK = st.one_of(st.none(), st.integers(-5, 5000), st.text(max_size=6), st.booleans(),
                 st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def _mutate(data, draw):
    paths = list(_paths(data))
    path = draw(st.sampled_from(paths))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    how = draw(st.sampled_from(["delete", "replace"]))
    if how == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(JUNK)
    return data


SMALL_FILES = {
    "units.yaml": yaml.safe_load((SRC / "units.yaml").read_text()),
    "setup.yaml": yaml.safe_load((SRC / "setup.yaml").read_text()),
    "scenario.yaml": yaml.safe_load((SRC / "scenario.yaml").read_text()),
}


@pytest.mark.slow  # 30 s (measured on 2 busy cores)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), name=st.sampled_from(sorted(SMALL_FILES)))
def test_fuzzed_files_give_only_scenario_errors(folder, tmp_path_factory, data, name):
    work = tmp_path_factory.mktemp("fuzz")
    for f in folder.iterdir():
        (work / f.name).symlink_to(f)
    mutated = _mutate(copy.deepcopy(SMALL_FILES[name]), data.draw)
    (work / name).unlink()
    (work / name).write_text(yaml.safe_dump(mutated, allow_unicode=True))
    try:
        load_scenario(work / "scenario.yaml")
    except ScenarioError as exc:
        assert exc.file and exc.field and exc.expected
        assert str(exc).startswith(exc.file)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_fuzzed_map_gives_only_scenario_errors(data):
    from wargame.operational.board import board_from_dict

    base = json.loads((SRC / "map.json").read_text())
    small = {k: v for k, v in base.items() if k != "hexes"}
    small["hexes"] = dict(list(base["hexes"].items()))
    mutated = _mutate(small, data.draw)
    try:
        board_from_dict(mutated, source="map.json", terrain_names={"open", "city", "rough", "forest", "bocage",
                                                                   "marsh", "hill", "sea"})
    except ScenarioError as exc:
        assert exc.field


@pytest.mark.parametrize("cut", [0.3, 0.7])
def test_truncated_file_names_the_file(folder, tmp_path, cut):
    bad = tmp_path / "cut"
    shutil.copytree(folder, bad)
    text = (bad / "map.json").read_text()
    (bad / "map.json").write_text(text[: int(len(text) * cut)])
    with pytest.raises(ScenarioError) as exc:
        load_scenario(bad / "scenario.yaml")
    assert "map.json" in str(exc.value) and "valid JSON" in str(exc.value)


@pytest.mark.parametrize("edit, field, expected", [
    (lambda m: m["rules"].__setitem__("naval_suport", m["rules"].pop("naval_support")),
     "rules.naval_suport", "did you mean 'naval_support'"),
    (lambda m: m["rules"]["naval_support"].__setitem__("columns", 0),
     "rules.naval_support.columns", ">= 1"),
    (lambda m: m["rules"]["mulberries"].__setitem__("port", "12a4"),
     "rules.mulberries.port", "four-digit hex id"),
    (lambda m: m["rules"]["no_retreat"][0].__setitem__("place", "Atlantis"),
     "rules.no_retreat[0].place", "a place name of the map"),
    (lambda m: m["rules"]["first_turn_landing"].__setitem__("unit", "gb-nobody"),
     "rules.first_turn_landing.unit", "a unit id from units.yaml"),
])
def test_rule_options_are_typed(folder, tmp_path, capsys, edit, field, expected):
    bad = tmp_path / "bad"
    shutil.copytree(folder, bad)
    meta = yaml.safe_load((bad / "scenario.yaml").read_text())
    edit(meta)
    (bad / "scenario.yaml").write_text(yaml.safe_dump(meta, allow_unicode=True))
    with pytest.raises(ScenarioError) as exc:
        load_scenario(bad / "scenario.yaml")
    assert exc.value.file.endswith("scenario.yaml") and exc.value.field == field
    assert expected in exc.value.expected
    assert cli_main(["scenario", "validate", str(bad / "scenario.yaml")]) == 1
    assert field in capsys.readouterr().err


def test_long_values_are_cut_in_messages(folder, tmp_path):
    bad = tmp_path / "long"
    shutil.copytree(folder, bad)
    data = yaml.safe_load((bad / "units.yaml").read_text())
    data["units"][0]["attack"] = "x" * 5000
    (bad / "units.yaml").write_text(yaml.safe_dump(data, allow_unicode=True))
    with pytest.raises(ScenarioError) as exc:
        load_scenario(bad / "scenario.yaml")
    assert len(str(exc.value).partition(", found ")[2]) <= 80


def test_a_bundled_id_wins_over_a_folder_of_that_name_here(tmp_path, monkeypatch):
    """Run from a folder that holds a 'normandy' folder (tests/ does), 'normandy' still means
    the bundled scenario, not ./normandy."""
    from wargame.scenario import load_scenario

    (tmp_path / "normandy").mkdir()
    monkeypatch.chdir(tmp_path)
    assert load_scenario("normandy").id == "normandy"
    with pytest.raises(ScenarioError, match="scenario.yaml"):
        load_scenario("./normandy")  # an explicit path is a path
