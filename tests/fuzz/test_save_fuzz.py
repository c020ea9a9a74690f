"""Mutated saves (a campaign and a Memoir '44 game): keys dropped, wrong types, deep nesting,
huge lists, wrong or reordered actions, another scenario or seed. ``from_save`` either refuses
with a ``ScenarioError`` naming the source and a field, or gives a state; nothing else escapes
and no input hangs (issue 13)."""

from __future__ import annotations

import copy
import json
from itertools import cycle, islice

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.fuzzlib import (
    JUNK,
    Tally,
    deep,
    delete,
    fuzz_case,
    fuzz_settings,
    leaves,
    paths,
    put,
)
from wargame.bots.play import play_random_game
from wargame.games import open_game
from wargame.saves import from_save, parse_save_text, to_save
from wargame.scenario_errors import ScenarioError

SOURCE = "fuzzed-save.json"
TALLY = Tally("save mutations")


def _save(sid: str, n: int) -> dict:
    state = open_game(sid).new_state(11)
    play_random_game(state, 3, max_actions=n)
    return json.loads(json.dumps(to_save(state)))


SAVES = {"dragoon": _save("dragoon", 40), "memoir44-5": _save("memoir44-5", 40)}
OPS = ("drop", "retype", "nest", "huge_list", "action_field", "action_junk", "swap_actions",
       "truncate", "header")


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    TALLY.finish()


def test_the_saves_load_unchanged():
    for save in SAVES.values():
        state = from_save(copy.deepcopy(save), SOURCE)
        assert len(state.action_log) == len(save["actions"])


@st.composite
def mutation(draw, save: dict):
    op = draw(st.sampled_from(OPS))
    n = len(save["actions"])
    if op == "drop":
        return op, draw(st.sampled_from(list(paths(save)))), None
    if op == "retype":
        return op, draw(st.sampled_from([p for p, _ in leaves(save)])), draw(JUNK)
    if op == "nest":
        where = draw(st.sampled_from([("options",), ("actions",), ("fingerprint",), ("seed",),
                                      ("actions", 0), ("options", "variants")]))
        return op, where, draw(st.sampled_from([50, 3000, 100_000]))
    if op == "huge_list":
        return op, draw(st.sampled_from(["repeat", "end_phase", "variants"])), draw(
            st.sampled_from([10, 1000, 50_000]))
    if op == "action_field":
        i = draw(st.integers(0, n - 1))
        keys = sorted(save["actions"][i]) + ["zz"]
        return op, ("actions", i, draw(st.sampled_from(keys))), draw(JUNK)
    if op == "action_junk":
        junk = draw(st.dictionaries(st.sampled_from(["kind", "unit", "hex", "units", "card",
                                                     "option", "points", "x"]), JUNK, max_size=4))
        return op, ("actions", draw(st.integers(0, n - 1))), junk
    if op == "swap_actions":
        return op, (draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))), None
    if op == "truncate":
        return op, draw(st.integers(0, n)), None
    key = draw(st.sampled_from(["scenario", "game", "seed", "format_version", "options"]))
    value = draw(st.sampled_from({
        "scenario": ["normandy", "dragoon", "memoir44-5", "memoir44-999", "../dragoon", ""],
        "game": ["campaign", "memoir"],
        "seed": [0, -1, 2**70, 12],
        "format_version": [1, 2, 3, 10**9],
        "options": [{}, {"variants": ["nope"]}, {"options": {"x": 1}},
                    {"variants": ["sea_movement"]}],
    }[key]))
    return op, (key,), value


def _edit(save: dict, m: tuple) -> None:
    op, where, value = m
    if op == "drop":
        delete(save, where)
    elif op in ("retype", "action_field", "action_junk", "header"):
        put(save, where, value)
    elif op == "nest":
        put(save, where, deep(value))
    elif op == "huge_list":
        if where == "repeat":
            acts = save["actions"]
            save["actions"] = list(islice(cycle(acts), value)) if acts else []
        elif where == "end_phase":
            save["actions"] = save["actions"] + [{"kind": "end_phase"}] * value
        else:
            save["options"]["variants"] = ["x"] * value
    elif op == "swap_actions":
        i, j = where
        acts = save["actions"]
        acts[i], acts[j] = acts[j], acts[i]
    else:
        save["actions"] = save["actions"][:where]


@fuzz_settings(25)
@given(sid=st.sampled_from(sorted(SAVES)), data=st.data(), as_text=st.booleans())
def test_mutated_saves_are_refused_or_load(sid, data, as_text):
    edits = data.draw(st.lists(mutation(SAVES[sid]), min_size=1, max_size=3))
    save = copy.deepcopy(SAVES[sid])
    for m in edits:
        try:
            _edit(save, m)
        except (KeyError, IndexError, TypeError):  # a path an earlier edit removed
            pass
    text = None
    if as_text:  # through the text parser too (a deep list is written as brackets)
        try:
            text = json.dumps(save)
        except (RecursionError, ValueError):
            text = None
    fuzz_case(TALLY, edits,
              lambda: from_save(parse_save_text(text, SOURCE) if text is not None else save, SOURCE),
              lambda file: file == SOURCE, max_message=500, accepted="loaded")


def test_deeply_nested_save_text_is_a_scenario_error():
    text = '{"format": "wargame-save", "options": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(ScenarioError) as exc:
        from_save(parse_save_text(text, SOURCE), SOURCE)
    assert exc.value.file == SOURCE and "nested" in exc.value.expected
    save = copy.deepcopy(SAVES["dragoon"])
    save["options"] = {"variants": deep(100_000)}
    with pytest.raises(ScenarioError) as exc:
        from_save(save, SOURCE)
    assert exc.value.field.startswith("options"), str(exc.value)


@pytest.mark.parametrize("data", [
    "<deep list>", {"format": "wargame-campaign-save", "format_version": "<deep list>"}])
def test_deep_values_before_validation_are_scenario_errors(data):
    if data == "<deep list>":
        data = deep(5000)
    else:
        data = dict(data, format_version=deep(5000))
    with pytest.raises(ScenarioError):
        from_save(data, SOURCE)
