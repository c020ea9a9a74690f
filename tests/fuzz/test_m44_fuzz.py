"""Mutated Memoir '44 ``.m44`` layouts (every bundled scenario written back as one): keys dropped, wrong types, odd
numbers, swapped or repeated hexes, units moved to the ocean or off the board, unknown keys,
deep nesting, huge lists, other board types and faces. ``scenario_from_m44`` either refuses
with a ``ScenarioError`` naming the file and a field, or the scenario plays 100 seeded random
actions without any other exception and without hanging (issue 13)."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.fuzzlib import (
    JUNK,
    NUMBERS,
    Tally,
    deep,
    delete,
    fuzz_case,
    fuzz_settings,
    get,
    leaves,
    paths,
    put,
)
from wargame.bots.play import play_random_game
from wargame.memoir.game import MemoirGame
from wargame.memoir.m44 import to_m44
from wargame.memoir.scenario import index, scenario_from_m44
from wargame.paths import scenarios_root
from wargame.scenario_errors import MAX_FILE_BYTES, ScenarioError, load_yaml

ROOT = scenarios_root() / "memoir44"
# the hand-written instructions (scenarios.yaml) and each bundled scenario as an .m44 layout
ENTRY = {f"{sid}.m44": (str(sid), e)
         for sid, e in load_yaml(ROOT / "scenarios.yaml")["scenarios"].items()}
FILES = sorted(ENTRY)
DATA = {f: to_m44(index()[ENTRY[f][0]]) for f in FILES}
PATHS = {f: [p for p in paths(d, limit=200) if p[0] in ("board", "game_info")]
         for f, d in DATA.items()}
LEAVES = {f: [p for p, _ in leaves(d, limit=200) if p[0] in ("board", "game_info")]
          for f, d in DATA.items()}
UNITS = {f: [i for i, h in enumerate(d["board"]["hexagons"]) if "unit" in h]
         for f, d in DATA.items()}
OPS = ("drop", "retype", "number", "coords", "same_hex", "ocean", "off_board", "unit_name",
       "unknown_key", "deep", "huge_list", "board", "game_info")
TALLY = Tally(".m44 mutations")


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    TALLY.finish()


@st.composite
def mutation(draw, name: str):
    op = draw(st.sampled_from(OPS))
    hexagons = DATA[name]["board"]["hexagons"]
    n = len(hexagons)
    i = draw(st.integers(0, n - 1))
    if op == "drop":
        return op, draw(st.sampled_from(PATHS[name])), None
    if op == "retype":
        return op, draw(st.sampled_from(LEAVES[name])), draw(JUNK)
    if op == "number":
        key = draw(st.sampled_from(["row", "col"]))
        return op, ("board", "hexagons", i, key), draw(st.sampled_from(NUMBERS + [9, 25, 51]))
    if op == "coords":  # a hex moved to another place of the board (maybe occupied)
        row = draw(st.integers(0, 8))
        col = draw(st.integers(0, 12)) * 2 + row % 2
        return op, ("board", "hexagons", i), (row, col)
    if op == "same_hex":  # a unit copied onto another unit's hex
        j = draw(st.sampled_from(UNITS[name] or [0]))
        return op, ("board", "hexagons", i), j
    if op == "ocean":
        j = draw(st.sampled_from(UNITS[name] or [0]))
        return op, ("board", "hexagons", j, "terrain"), {"name": "ocean"}
    if op == "off_board":
        j = draw(st.sampled_from(UNITS[name] or [0]))
        return op, ("board", "hexagons", j), draw(st.sampled_from([(8, 50), (7, 25), (0, 52)]))
    if op == "unit_name":
        j = draw(st.sampled_from(UNITS[name] or [0]))
        value = draw(st.sampled_from(["infger", "tank2us", "gun2ger", "inf2gb", "tankus",
                                      "tank2fr", "gunger"]))
        return op, ("board", "hexagons", j, "unit"), {"name": value,
                                                      "nbr_units": draw(st.integers(1, 4))}
    if op == "unknown_key":
        dicts = [p for p in PATHS[name] if isinstance(get(DATA[name], p), dict)]
        return op, draw(st.sampled_from(dicts)), draw(JUNK)
    if op == "deep":
        return op, draw(st.sampled_from(PATHS[name])), draw(st.sampled_from([30, 3000]))
    if op == "huge_list":
        return op, ("board", "hexagons"), draw(st.sampled_from([2, 40]))
    if op == "board":
        return op, ("board", draw(st.sampled_from(["type", "face"]))), draw(st.sampled_from(
            ["STANDARD", "OVERLORD", "BEACH", "COUNTRY", "WINTER", "DESERT"]))
    key = draw(st.sampled_from(["side_player1", "side_player2", "starting", "cards_player1",
                                "cards_player2", "victory_player1", "victory_player2"]))
    return op, ("game_info", key), draw(st.sampled_from(
        ["AXIS", "ALLIES", "PLAYER1", "PLAYER2", 0, 1, 10, 11, 60, -1, None]))


def _edit(data: dict, m: tuple) -> None:
    op, where, value = m
    if op == "drop":
        delete(data, where)
    elif op in ("retype", "number", "ocean", "unit_name", "board", "game_info"):
        put(data, where, value)
    elif op in ("coords", "off_board"):
        hexagon = get(data, where)
        hexagon["row"], hexagon["col"] = value
    elif op == "same_hex":
        hexagons = data["board"]["hexagons"]
        source = hexagons[value]
        copy_ = dict(get(data, where))
        copy_["row"], copy_["col"] = source["row"], source["col"]
        hexagons.append(copy_)
    elif op == "unknown_key":
        get(data, where)["zz_unknown"] = value
    elif op == "deep":
        put(data, where, deep(value))
    else:
        hexagons = data["board"]["hexagons"]
        hexagons[:] = hexagons * value


@fuzz_settings(25)
@given(name=st.sampled_from(FILES), data=st.data(), seed=st.integers(0, 2**16),
       with_entry=st.booleans())
def test_mutated_m44_files_are_refused_or_play(tmp_path_factory, name, data, seed, with_entry):
    edits = data.draw(st.lists(mutation(name), min_size=1, max_size=3))
    raw = copy.deepcopy(DATA[name])
    for m in edits:
        try:
            _edit(raw, m)
        except (KeyError, IndexError, TypeError):  # a path an earlier edit removed
            pass
    path = tmp_path_factory.mktemp("m44") / name
    try:
        text = json.dumps(raw)
    except (RecursionError, ValueError):
        text = json.dumps(DATA[name])
    path.write_text(text, encoding="utf-8")
    sid, entry = ENTRY[name]
    fuzz_case(TALLY, edits, lambda: scenario_from_m44(path, entry if with_entry else None, sid),
              lambda file: file.startswith(str(path)),
              lambda scn: play_random_game(MemoirGame(scn).new_state(seed), seed, max_actions=100))


@pytest.mark.parametrize("text, words", [
    ('{"board": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested"),
    ('{"board": ' + "[" * 500 + "]" * 500 + "}", "nested"),
    ("{" * 50 + "}" * 50, "valid JSON"),
    ('{"game_info": {}, "board": {"type": "STANDARD", "hexagons": [', "valid JSON"),
])
def test_hostile_m44_text_is_a_scenario_error(tmp_path, text, words):
    path = tmp_path / "bad.m44"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        scenario_from_m44(path)
    assert exc.value.file == str(path) and words in exc.value.expected, str(exc.value)


def test_oversize_m44_and_json_are_refused_before_parsing(tmp_path):
    path = tmp_path / "big.m44"
    path.write_text('{"pad": "' + "x" * MAX_FILE_BYTES + '"}', encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        scenario_from_m44(path)
    assert exc.value.file == str(path) and "MB" in exc.value.expected


def test_a_bundled_layout_loads_from_a_path_with_and_without_its_entry(tmp_path):
    for name in FILES:
        sid, entry = ENTRY[name]
        (tmp_path / name).write_text(json.dumps(DATA[name]), encoding="utf-8")
        with_entry = scenario_from_m44(tmp_path / name, entry, sid)
        alone = scenario_from_m44(tmp_path / name)
        # the same layout (special forces are Resistance only by the entry's special rules)
        assert [(u.side, u.kind, u.hex) for u in with_entry.units] == [
            (u.side, u.kind, u.hex) for u in alone.units]
        assert with_entry.cards == {  # the file's side words read as the ids (issue #27)
            {"AXIS": "axis", "ALLIES": "allied"}[k]: int(v) for k, v in entry["cards"].items()}
        assert set(alone.cards) == {"axis", "allied"} and alone.starts in alone.cards


@pytest.mark.parametrize("name, times", [("overlord.m44", 2), ("5.m44", 3), ("5.m44", 1000)])
def test_a_hexagon_list_longer_than_the_board_is_refused_before_its_entries_are_read(
        tmp_path, monkeypatch, name, times):
    """make fuzz (issue #31): the hexagon list blown up 1,600 times (120,000 entries, under the
    file size limit) took 2.5 s of CPU to be refused, entry by entry. A list longer than the
    board has hexes (each listed once, M44 p.6) is now refused before any entry is read."""
    raw = copy.deepcopy(DATA[name])
    raw["board"]["hexagons"] = raw["board"]["hexagons"] * times
    path = tmp_path / name
    path.write_text(json.dumps(raw), encoding="utf-8")

    def read_entries(data):
        raise AssertionError("the entries were read")

    monkeypatch.setattr("wargame.memoir.m44.normalize", read_entries)
    with pytest.raises(ScenarioError) as exc:
        scenario_from_m44(path)
    board = raw["board"]["type"]
    most = {"STANDARD": 113, "OVERLORD": 230}[board]
    assert exc.value.file == str(path) and exc.value.field == "board.hexagons", str(exc.value)
    assert f"at most {most} hexagons" in exc.value.expected and board in exc.value.expected
    assert str(len(raw["board"]["hexagons"])) in str(exc.value)


def test_a_full_board_is_not_too_long(tmp_path):
    """Every hex of the largest board listed once is read (the limit is the board, not less)."""
    raw = copy.deepcopy(DATA["overlord.m44"])
    hexagons = raw["board"]["hexagons"]
    listed = {(h["row"], h["col"]) for h in hexagons}
    hexagons += [{"row": r, "col": c} for r in range(9) for c in range(r % 2, 51, 2)
                 if (r, c) not in listed]
    assert len(hexagons) == 230
    path = tmp_path / "full.m44"
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert len(scenario_from_m44(path).units) == len(UNITS["overlord.m44"])
