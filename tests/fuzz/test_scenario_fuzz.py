"""Mutated campaign scenario folders (Dragoon, sometimes Normandy): a key dropped, a wrong type,
a negative, zero or huge number, swapped hex ids, units of both sides stacked in one hex, units
at sea or off the map, unknown keys, YAML aliases, deep nesting, huge lists. Each copy is
either refused with a ``ScenarioError`` naming the file and a field, or accepted and then
plays 100 seeded random actions without any other exception and without hanging (issue 13).
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.fuzzlib import (
    JUNK,
    NUMBERS,
    Tally,
    delete,
    fuzz_case,
    fuzz_settings,
    get,
    leaves,
    paths,
    put,
)
from wargame.bots.play import play_random_game
from wargame.operational.state import Game
from wargame.paths import scenario_dir
from wargame.scenario import load_scenario

FILES = ("scenario.yaml", "tables.yaml", "map.json", "units.yaml", "setup.yaml")
SCENARIOS = ("dragoon", "normandy")


def _read(sid: str, name: str) -> object:
    text = (scenario_dir(sid) / name).read_text(encoding="utf-8")
    return json.loads(text) if name.endswith(".json") else yaml.safe_load(text)


DATA = {sid: {name: _read(sid, name) for name in FILES} for sid in SCENARIOS}
SEA = {sid: sorted(h for h, spec in DATA[sid]["map.json"]["hexes"].items()
                   if spec["terrain"] == "sea") for sid in SCENARIOS}
LAND = {sid: sorted(h for h, spec in DATA[sid]["map.json"]["hexes"].items()
                    if spec["terrain"] != "sea") for sid in SCENARIOS}
PATHS = {sid: {name: [p for p in paths(data) if "build" not in p]
               for name, data in files.items()} for sid, files in DATA.items()}
LEAVES = {sid: {name: [(p, v) for p, v in leaves(data) if "build" not in p]
                for name, data in files.items()} for sid, files in DATA.items()}
HEX_LEAVES = {sid: [(name, p) for name, ls in LEAVES[sid].items() for p, v in ls
                    if isinstance(v, str) and len(v) == 4 and v.isdigit()] for sid in SCENARIOS}
NUMBER_LEAVES = {sid: [(name, p) for name, ls in LEAVES[sid].items() for p, v in ls
                       if isinstance(v, int | float) and not isinstance(v, bool)]
                 for sid in SCENARIOS}
RULE_PATHS = {sid: [("rules",) + p for p in paths(DATA[sid]["scenario.yaml"]["rules"])]
              for sid in SCENARIOS}
OPS = ("drop", "retype", "number", "rules", "swap_hex", "hex_elsewhere", "stack", "sea",
       "unknown_key", "alias", "deep", "huge_list")
DEEP = "__FUZZ_DEEP__"
ALIAS = "__FUZZ_ALIAS__"
TALLY = Tally("scenario mutations")


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    TALLY.finish()


@st.composite
def mutation(draw, sid: str):
    """One edit of the parsed files: (op, file name, path, value)."""
    op = draw(st.sampled_from(OPS))
    setup_n = len(DATA[sid]["setup.yaml"]["setup"])
    if op == "drop":
        name = draw(st.sampled_from(FILES))
        return op, name, draw(st.sampled_from(PATHS[sid][name])), None
    if op == "retype":
        name = draw(st.sampled_from(FILES))
        return op, name, draw(st.sampled_from(LEAVES[sid][name]))[0], draw(JUNK)
    if op == "number":
        name, path = draw(st.sampled_from(NUMBER_LEAVES[sid]))
        return op, name, path, draw(st.sampled_from(NUMBERS))
    if op == "rules":
        return op, "scenario.yaml", draw(st.sampled_from(RULE_PATHS[sid])), draw(JUNK)
    if op == "swap_hex":
        a = draw(st.sampled_from(HEX_LEAVES[sid]))
        b = draw(st.sampled_from(HEX_LEAVES[sid]))
        return op, a[0], a[1], b
    if op == "hex_elsewhere":
        name, path = draw(st.sampled_from(HEX_LEAVES[sid]))
        where = draw(st.sampled_from(["land", "sea", "off"]))
        value = (draw(st.sampled_from(LAND[sid])) if where == "land" else
                 draw(st.sampled_from(SEA[sid])) if where == "sea" and SEA[sid] else
                 draw(st.sampled_from(["9999", "0000", "5001", "0199"])))
        return op, name, path, value
    if op == "stack":
        picks = draw(st.lists(st.integers(0, setup_n - 1), min_size=2, max_size=40, unique=True))
        return op, "setup.yaml", ("setup",), picks
    if op == "sea":
        picks = draw(st.lists(st.integers(0, setup_n - 1), min_size=1, max_size=5, unique=True))
        return op, "setup.yaml", ("setup",), (picks, draw(st.sampled_from(SEA[sid] or ["9999"])))
    if op == "unknown_key":
        name = draw(st.sampled_from(FILES))
        dicts = [()] + [p for p in PATHS[sid][name] if isinstance(get(DATA[sid][name], p), dict)]
        return op, name, draw(st.sampled_from(dicts)), draw(JUNK)
    if op == "huge_list":
        name = draw(st.sampled_from(FILES))
        lists = [p for p in PATHS[sid][name] if isinstance(get(DATA[sid][name], p), list)]
        if not lists:
            return "drop", name, draw(st.sampled_from(PATHS[sid][name])), None
        return op, name, draw(st.sampled_from(lists)), draw(st.sampled_from([50, 500]))
    # alias and deep: a sentinel replaced in the written text
    name = draw(st.sampled_from([f for f in FILES if op == "deep" or f.endswith(".yaml")]))
    return op, name, draw(st.sampled_from(PATHS[sid][name])), None


def _apply(files: dict, m: tuple) -> None:
    try:
        _edit(files, m)
    except (KeyError, IndexError, TypeError):  # a path an earlier edit removed or retyped
        pass


def _edit(files: dict, m: tuple) -> None:
    op, name, path, value = m
    data = files[name]
    if op == "drop":
        delete(data, path)
    elif op in ("retype", "number", "rules", "hex_elsewhere"):
        put(data, path, value)
    elif op == "swap_hex":
        other_name, other_path = value
        a, b = get(data, path), get(files[other_name], other_path)
        put(data, path, b)
        put(files[other_name], other_path, a)
    elif op == "stack":
        setup = data["setup"]
        picks = [i for i in value if i < len(setup)]
        for i in picks:
            setup[i]["hex"] = setup[picks[0]]["hex"]
    elif op == "sea":
        picks, sea = value
        for i in picks:
            if i < len(data["setup"]):
                data["setup"][i]["hex"] = sea
    elif op == "unknown_key":
        get(data, path)["zz_unknown"] = value
    elif op == "huge_list":
        target = get(data, path)
        target[:] = (target * value)[: max(value, len(target))] if target else [None] * value
    else:  # alias, deep
        put(data, path, ALIAS if op == "alias" else DEEP)


def _write(folder: Path, name: str, data: object) -> None:
    if name.endswith(".json"):
        text = json.dumps(data)
    else:
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    if ALIAS in text:
        text = "zz_anchor: &fuzz [1, 2]\n" + text.replace(ALIAS, "*fuzz")
    if DEEP in text:
        text = text.replace(f'"{DEEP}"' if name.endswith(".json") else DEEP,
                            "[" * 5000 + "]" * 5000)
    (folder / name).write_text(text, encoding="utf-8")


@fuzz_settings(8)
@given(sid=st.sampled_from(["dragoon"] * 5 + ["normandy"]), data=st.data(),
       seed=st.integers(0, 2**16))
def test_mutated_scenarios_are_refused_or_play(tmp_path_factory, sid, data, seed):
    edits = data.draw(st.lists(mutation(sid), min_size=1, max_size=3))
    files = copy.deepcopy(DATA[sid])
    for m in edits:
        _apply(files, m)
    folder = tmp_path_factory.mktemp(sid)
    touched = {m[1] for m in edits}
    for name in FILES:
        if name in touched:
            _write(folder, name, files[name])
        else:
            shutil.copy(scenario_dir(sid) / name, folder / name)
    fuzz_case(TALLY, edits, lambda: load_scenario(folder / "scenario.yaml"),
              lambda file: file.startswith(str(folder)),
              lambda scn: play_random_game(Game(scn).new_state(seed), seed, max_actions=100))
