"""Mutated scenario files (a key dropped, a wrong type, a negative number, an unknown rule
option, a bad hex id) give a ScenarioError naming the file and a field: never a raw
TypeError, KeyError or RecursionError."""

import copy
import json
import shutil

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wargame.memoir.m44 import to_m44
from wargame.memoir.scenario import check_memoir
from wargame.paths import scenario_dir, scenarios_root
from wargame.scenario import load_scenario
from wargame.scenario_errors import ScenarioError

SRC = scenario_dir("dragoon")
FILES = ("scenario.yaml", "tables.yaml", "map.json", "units.yaml", "setup.yaml")


def _read(folder, name):
    text = (folder / name).read_text(encoding="utf-8")
    return json.loads(text) if name.endswith(".json") else yaml.safe_load(text)


DATA = {name: _read(SRC, name) for name in FILES}


def _leaves(data, prefix=()):
    if isinstance(data, dict):
        for k, v in data.items():
            if k in ("build",):  # free-form build notes of the map generator
                continue
            yield from _leaves(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _leaves(v, prefix + (i,))
    else:
        yield prefix, data


LEAVES = {name: list(_leaves(data)) for name, data in DATA.items()}
HEX_IDS = [
    (name, p)
    for name, leaves in LEAVES.items()
    for p, v in leaves
    if isinstance(v, str) and len(v) == 4 and v.isdigit()
]
NUMBERS_MUST_BE_POSITIVE = (
    [("tables.yaml", p) for p, v in LEAVES["tables.yaml"] if "cost" in p and v is not None]
    + [
        ("units.yaml", p)
        for p, v in LEAVES["units.yaml"]
        if p[-1] in ("attack", "defence", "movement", "range")
    ]
    + [
        ("scenario.yaml", ("stacking_limit",)),
        ("scenario.yaml", ("rules", "naval_support", "columns")),
        ("scenario.yaml", ("turn_dates", "days_per_turn")),
    ]
)
REQUIRED = (
    [
        ("units.yaml", ("units", i, k))
        for i in range(0, 60, 7)
        for k in ("id", "side", "nation", "type", "attack", "defence", "movement")
    ]
    + [("setup.yaml", ("setup", i, k)) for i in range(0, 20, 3) for k in ("unit", "hex")]
    + [
        ("setup.yaml", ("reinforcements", i, k))
        for i in range(0, 30, 4)
        for k in ("unit", "turn", "entry")
    ]
    + [
        ("scenario.yaml", (k,))
        for k in ("format_version", "turns", "tables", "map", "units", "setup")
    ]
    + [
        ("scenario.yaml", ("rules", "naval_support", "columns")),
        ("scenario.yaml", ("rules", "withdrawals", 0, "turn")),
        ("scenario.yaml", ("rules", "victory", 0, "place")),
        ("scenario.yaml", ("rules", "setup_drops", "intact")),
    ]
    + [
        ("tables.yaml", (k,))
        for k in ("crt", "bombardment", "terrain", "unit_types", "air_power", "road")
    ]
    + [("tables.yaml", ("air_power", "per_turn")), ("tables.yaml", ("crt", "rows", "7"))]
    + [
        ("map.json", ("hexes",)),
        ("map.json", ("hexes", "0101", "terrain")),
        ("map.json", ("hexsides", 0, "between")),
    ]
)
JUNK_TYPES = {
    str: [3, ["x"], {"a": 1}],
    int: ["x", [1], True],
    float: ["x", [1]],
    bool: ["maybe", 1, [True]],
    type(None): [[None]],
}


def _set(data, path, value=None, delete=False):
    node = data
    for key in path[:-1]:
        node = node[key]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    dst = tmp_path_factory.mktemp("dragoon")
    for name in FILES:
        shutil.copy(SRC / name, dst / name)
    return dst


@st.composite
def mutations(draw):
    kind = draw(st.sampled_from(["drop", "wrong_type", "negative", "unknown_rule", "bad_hex"]))
    if kind == "drop":
        name, path = draw(st.sampled_from(REQUIRED))
        return kind, name, path, None
    if kind == "wrong_type":
        name = draw(st.sampled_from(FILES))
        path, value = draw(st.sampled_from(LEAVES[name]))
        junk = [
            j
            for j in JUNK_TYPES.get(type(value), [[1]])
            if not (isinstance(value, str) and isinstance(j, str))
        ]
        return kind, name, path, draw(st.sampled_from(junk))
    if kind == "negative":
        name, path = draw(st.sampled_from(NUMBERS_MUST_BE_POSITIVE))
        return (
            kind,
            name,
            path,
            draw(st.sampled_from([-1, -5, 0]))
            if "cost" in path or path[-1] in ("stacking_limit", "columns", "days_per_turn")
            else draw(st.sampled_from([-1, -7])),
        )
    if kind == "unknown_rule":
        key = draw(st.sampled_from(["naval_suport", "victroy", "stacking", "exit", "x"]))
        return (
            kind,
            "scenario.yaml",
            ("rules", key),
            draw(st.sampled_from([1, {"columns": 2}, [1]])),
        )
    name, path = draw(st.sampled_from(HEX_IDS))
    return kind, name, path, draw(st.sampled_from(["12a4", "123", "12345", "", "ab12"]))


@pytest.mark.slow  # 24 s (measured on 2 busy cores)
@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(m=mutations())
def test_each_mutation_is_a_scenario_error_naming_file_and_field(folder, tmp_path_factory, m):
    kind, name, path, value = m
    work = tmp_path_factory.mktemp("mut")
    for f in FILES:
        (work / f).symlink_to(folder / f)
    data = copy.deepcopy(DATA[name])
    if kind == "drop":
        _set(data, path, delete=True)
    else:
        _set(data, path, value)
    (work / name).unlink()
    text = json.dumps(data) if name.endswith(".json") else yaml.safe_dump(data, allow_unicode=True)
    (work / name).write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(work / "scenario.yaml")
    err = exc.value
    assert err.file.endswith(name), (m, str(err))
    assert err.field and err.field not in ("(structure)", "(top level)") and err.expected, (
        m,
        str(err),
    )
    assert str(err).startswith(err.file)
    found = str(err).partition(", found ")[2]
    assert len(found) <= 80


M44_DIR = scenarios_root() / "memoir44"
INDEX = yaml.safe_load((M44_DIR / "scenarios.yaml").read_text(encoding="utf-8"))
# the bundled Omaha Beach written back as an .m44 layout (the editor's files are not shipped)
M44 = to_m44(json.loads((M44_DIR / "5.json").read_text(encoding="utf-8")))
M44_LEAVES = [
    (p, v)
    for p, v in _leaves(M44["board"]["hexagons"])
    if p[-1] in ("row", "col", "name", "nbr_units")
]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_mutated_memoir_files_give_scenario_errors(tmp_path_factory, data):
    work = tmp_path_factory.mktemp("m44")
    if data.draw(st.booleans()):
        path, value = data.draw(st.sampled_from(M44_LEAVES))
        mutated = copy.deepcopy(M44)
        junk = data.draw(
            st.sampled_from(
                [j for j in JUNK_TYPES.get(type(value), [[1]]) if not isinstance(j, type(value))]
                + [-3]
            )
        )
        _set(mutated["board"]["hexagons"], path, junk)
        target = work / "11.m44"
        target.write_text(json.dumps(mutated), encoding="utf-8")
    else:
        mutated = copy.deepcopy(INDEX)
        leaves = [(p, v) for p, v in _leaves(mutated) if "m44_differences" not in p]
        path, value = data.draw(st.sampled_from(leaves))
        junk = data.draw(st.sampled_from(JUNK_TYPES.get(type(value), [[1]]) + [{"x": -1}]))
        if isinstance(value, str) and isinstance(junk, str):
            junk = [junk]
        _set(mutated, path, junk)
        target = work / "scenarios.yaml"
        target.write_text(yaml.safe_dump(mutated, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        check_memoir(target)
    assert exc.value.file.endswith(target.name) and exc.value.field, str(exc.value)
