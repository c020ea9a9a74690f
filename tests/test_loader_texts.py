"""The loaders' expectations speak the reader's language too (issue #16).

Every ``ScenarioError`` of the loaders (the data files' models, the map, tables, variants,
history and what-if readers, Memoir '44's scenarios) takes its expectation from the ``loader``
catalogue (wargame/error_texts.py) by key; the English is the one the loaders always gave, and
under ``using_language("pt")`` the whole message is Portuguese, still naming file and field."""

from __future__ import annotations

import ast
import copy
import shutil
from pathlib import Path

import pytest
import yaml

from wargame import i18n
from wargame.error_texts import LOADER
from wargame.scenario import load_scenario
from wargame.scenario_errors import ScenarioError

ROOT = Path(__file__).resolve().parent.parent
WARGAME_FILES = sorted((ROOT / "wargame").rglob("*.py"))

# the calls that name an expectation by key, and the position of that key
KEYED_CALLS = {"expect": 0, "ref_error": 1, "check_in": 2, "check_once": 3, "keyed": 2,
               "loader_text": 0, "_names": 1, "need": 2}


def _english(node: ast.expr) -> bool:
    """A literal text, or an f-string, with words in it (not "1" or f"{version}")."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and any(c.isalpha() for c in node.value)
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.Constant) and any(c.isalpha() for c in str(v.value))
                   for v in node.values)
    return False


def _trees() -> list[tuple[Path, ast.AST]]:
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in WARGAME_FILES]


def _error_classes(trees: list[tuple[Path, ast.AST]]) -> set[str]:
    """ScenarioError and the classes of wargame/ derived from it (by name, transitively)."""
    bases: dict[str, set[str]] = {}
    for _, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                    for b in node.bases)
    found = {"ScenarioError"}
    while True:
        more = {name for name, parents in bases.items() if parents & found} - found
        if not more:
            return found
        found |= more


def test_no_loader_error_in_wargame_is_given_a_literal_english_expectation():
    trees = _trees()
    classes = _error_classes(trees)
    offenders = []
    for path, tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id not in classes:
                continue
            expected = node.args[2] if len(node.args) > 2 else next(
                (k.value for k in node.keywords if k.arg == "expected"), None)
            if expected is not None and _english(expected):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == [], "give these ScenarioErrors a loader key (ScenarioError.keyed)"


def test_every_expectation_named_by_key_is_a_loader_entry():
    seen = 0
    offenders = []
    for path, tree in _trees():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else (
                node.func.attr if isinstance(node.func, ast.Attribute) else "")
            at = KEYED_CALLS.get(name)
            if at is None or len(node.args) <= at:
                continue
            if name in ("need", "_names") and path.stem not in ("variants", "rules"):
                continue  # other modules' helpers of the same name
            arg = node.args[at]
            if isinstance(arg, ast.JoinedStr) or (
                    isinstance(arg, ast.Constant) and arg.value not in LOADER.english):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(arg)}")
            seen += isinstance(arg, ast.Constant)
            # other expressions: a helper passing its own key parameter on
    assert offenders == []
    assert seen > 150  # the scan does see the loaders' calls


def test_the_scan_catches_a_literal_expectation():
    tree = ast.parse('raise ScenarioError(path, "hexes", "a hex of the map", h)\n'
                     'raise ScenarioError(path, "v", f"{version}", v)\n'
                     'raise expect(f"a turn {a}..{b}", v)\n')
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert [_english(c.args[2]) for c in calls if c.func.id == "ScenarioError"] == [True, False]
    assert [_english(c.args[0]) for c in calls if c.func.id == "expect"] == [True]


# --- real files, in Portuguese ------------------------------------------------------------
@pytest.fixture
def normandia(tmp_path):
    folder = tmp_path / "normandia"
    shutil.copytree(ROOT / "scenarios" / "normandy", folder)
    return folder


def _edit_yaml(path: Path, edit) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _both(load) -> tuple[ScenarioError, str]:
    """The error raised under Portuguese, and the same load's message in English."""
    with i18n.using_language("pt"), pytest.raises(ScenarioError) as exc:
        load()
    with pytest.raises(ScenarioError) as english:
        load()
    assert exc.value.render("en") == str(english.value)
    return exc.value, str(english.value)


def test_a_unit_set_up_on_an_unknown_hex_is_reported_in_portuguese(normandia):
    setup = normandia / "setup.yaml"
    _edit_yaml(setup, lambda d: d["setup"][0].update(hex="9999"))
    error, english = _both(lambda: load_scenario(normandia))
    assert str(error) == (f"{setup}: campo 'setup[0].hex': esperava-se um hexágono do mapa, "
                          "encontrado '9999'")
    assert english == f"{setup}: field 'setup[0].hex': expected a hex of the map, found '9999'"


def test_a_unit_listed_twice_in_the_units_file_is_reported_in_portuguese(normandia):
    units = normandia / "units.yaml"
    _edit_yaml(units, lambda d: d["units"].append(copy.deepcopy(d["units"][0])))
    error, english = _both(lambda: load_scenario(normandia))
    count = len(yaml.safe_load(units.read_text(encoding="utf-8"))["units"]) - 1
    uid = error.found
    assert str(error) == (f"{units}: campo 'units[{count}].id': esperava-se um id único, "
                          f"encontrado {uid!r}")
    assert english == f"{units}: field 'units[{count}].id': expected a unique id, found {uid!r}"


def test_a_bad_crt_is_reported_in_portuguese(normandia):
    tables = normandia / "tables.yaml"

    def short_row(d):
        band = next(iter(d["crt"]["rows"]))
        d["crt"]["rows"][band] = d["crt"]["rows"][band][:-1]

    _edit_yaml(tables, short_row)
    error, english = _both(lambda: load_scenario(normandia))
    band = next(iter(yaml.safe_load(tables.read_text(encoding="utf-8"))["crt"]["rows"]))
    columns = len(yaml.safe_load(tables.read_text(encoding="utf-8"))["crt"]["columns"])
    assert str(error) == (f"{tables}: campo 'crt.rows.{band}': esperava-se {columns} células, "
                          f"uma por coluna, encontrado {columns - 1}")
    assert english == (f"{tables}: field 'crt.rows.{band}': expected {columns} cells, one per "
                       f"column, found {columns - 1}")

    _edit_yaml(tables, lambda d: d["crt"]["columns"].__setitem__(0, "3:1"))
    error, english = _both(lambda: load_scenario(normandia))
    assert str(error) == (f"{tables}: campo 'crt.columns[0]': esperava-se razões escritas 'N-1' "
                          "ou '1-N', encontrado '3:1'")
    assert english == (f"{tables}: field 'crt.columns[0]': expected odds labels 'N-1' or "
                       "'1-N', found '3:1'")


def test_a_bad_map_is_reported_in_portuguese():
    from wargame.operational.board import board_from_dict

    data = {"hexes": {"0101": {"terrain": "open"}, "0105": {"terrain": "open"}},
            "hexsides": [{"kind": "river", "between": ["0101", "0105"]}]}
    error, english = _both(lambda: board_from_dict(data, "map.json"))
    assert str(error) == ("map.json: campo 'hexsides[0].between': esperava-se dois hexágonos "
                          "adjacentes, encontrado ['0101', '0105']")
    assert english == ("map.json: field 'hexsides[0].between': expected two adjacent hexes, "
                       "found ['0101', '0105']")
    data = {"hexes": {"0101": {"terrain": "lava"}}}
    error, _ = _both(lambda: board_from_dict(data, "map.json", {"open", "sea"}))
    assert str(error) == ("map.json: campo 'hexes.0101.terrain': esperava-se um de "
                          "['open', 'sea'], encontrado 'lava'")


def test_a_bad_variants_file_is_reported_in_portuguese(normandia):
    from wargame.operational.variants import load_variant_data

    path = normandia / "variants.yaml"
    _edit_yaml(path, lambda d: d.pop("mulberry_sites"))
    error, english = _both(lambda: load_variant_data(normandia))
    # the braces of the expectation are text, in both languages
    assert str(error) == (f"{path}: campo 'mulberry_sites': esperava-se um mapeamento praia -> "
                          "{name, hex, landing}")
    assert english == (f"{path}: field 'mulberry_sites': expected a mapping beach -> "
                       "{name, hex, landing}")


@pytest.fixture(scope="module")
def normandy():
    return load_scenario("normandy")


@pytest.fixture(scope="module")
def history_data():
    return yaml.safe_load((ROOT / "scenarios" / "normandy" / "history.yaml").read_text(
        encoding="utf-8"))


def test_a_bad_history_file_is_reported_in_portuguese(normandy, history_data):
    from wargame.history import history_from_data

    data = copy.deepcopy(history_data)
    data["turns"][1]["allied_cities"] = ["Atlantis"]
    error, english = _both(lambda: history_from_data(data, normandy, source="h.yaml"))
    assert str(error).startswith("h.yaml: campo 'turns[1].allied_cities[0]': esperava-se uma "
                                 "cidade de vitória (CN 11.2) do cenário (Caen, ")
    assert str(error).endswith("), encontrado 'Atlantis'")
    assert english.startswith("h.yaml: field 'turns[1].allied_cities[0]': expected a CN 11.2 "
                              "victory city of the scenario (Caen, ")

    data = copy.deepcopy(history_data)
    data["turns"][1]["dates"]["first"] = "1944-06-08"
    error, english = _both(lambda: history_from_data(data, normandy, source="h.yaml"))
    assert str(error) == ("h.yaml: campo 'turns[1].dates.first': esperava-se 1944-06-07 "
                          "(CN 2.4.1, turno 1, turn_dates do cenário), encontrado '1944-06-08'")
    assert english == ("h.yaml: field 'turns[1].dates.first': expected 1944-06-07 (CN 2.4.1 "
                       "turn 1, scenario turn_dates), found '1944-06-08'")

    data = copy.deepcopy(history_data)
    data["turns"][1]["events"] = "x"
    error, english = _both(lambda: history_from_data(data, normandy, source="h.yaml"))
    assert str(error) == ("h.yaml: campo 'turns[1].events': esperava-se uma lista não vazia de "
                          "{date, text}, encontrado 'x'")
    assert english == ("h.yaml: field 'turns[1].events': expected a non-empty list of "
                       "{date, text}, found 'x'")


def test_a_bad_whatif_file_is_reported_in_portuguese(normandy, tmp_path):
    from wargame.analysis.whatif import load_whatif

    path = tmp_path / "late.yaml"
    path.write_text("reinforcements:\n  - {unit: nope, turn: 3}\n", encoding="utf-8")
    error, english = _both(lambda: load_whatif(path, normandy))
    assert str(error).startswith(f"{path}: campo 'reinforcements[0].unit': esperava-se uma "
                                 "unidade de reforço do cenário (")
    assert str(error).endswith("), encontrado 'nope'")
    assert english.startswith(f"{path}: field 'reinforcements[0].unit': expected a "
                              "reinforcement unit of the scenario (")
    unit = sorted(r.unit for r in normandy.reinforcements)[0]
    path.write_text(f"reinforcements:\n  - {{unit: {unit}, turn: 99}}\n", encoding="utf-8")
    error, english = _both(lambda: load_whatif(path, normandy))
    last = normandy.last_turn
    assert str(error) == (f"{path}: campo 'reinforcements[0].turn': esperava-se um turno "
                          f"{normandy.first_turn}..{last}, encontrado 99")
    assert english == (f"{path}: field 'reinforcements[0].turn': expected a turn "
                       f"{normandy.first_turn}..{last}, found 99")


def test_an_unknown_memoir_scenario_id_is_refused_in_portuguese():
    from wargame.games import open_game
    from wargame.memoir.scenario import bundled_dir, scenario_ids

    error, english = _both(lambda: open_game("memoir44-nope"))
    ids = scenario_ids()
    assert str(error).startswith(f"{bundled_dir()}: campo 'scenarios': esperava-se o "
                                 "identificador de um cenário entre ['")
    assert str(error).endswith("], encontrado 'nope'")
    assert english.startswith(f"{bundled_dir()}: field 'scenarios': expected a scenario id "
                              "among ['")
    assert all(repr(sid) in english for sid in ids)
    # still a KeyError, as the unknown id always was, for the callers catching that
    assert isinstance(error, KeyError)
    assert str(error) == error.args[0]


def test_a_bad_m44_layout_is_reported_in_portuguese(tmp_path):
    from wargame.memoir.m44 import read_m44_file

    path = tmp_path / "x.m44"
    path.write_text("[1, 2]", encoding="utf-8")
    error, english = _both(lambda: read_m44_file(path))
    assert str(error) == (f"{path}: campo '(nível de topo)': esperava-se um objeto JSON (um "
                          "cenário .m44), encontrado 'list'")
    assert english == (f"{path}: field '(top level)': expected a JSON object (an .m44 layout), "
                       "found 'list'")
