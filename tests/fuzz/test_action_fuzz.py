"""Malformed actions (random mappings, legal actions with one field broken, units or air
points listed twice, fractional or huge numbers, deep nesting) through the protocol:
``game.action_from_dict`` then ``state.apply``, for a campaign and two Memoir '44 games at a
few positions. Only ``IllegalAction`` subclasses come out, and a refused action leaves the
state unchanged (issue 13: no raw TypeError, nothing counted twice)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.fuzzlib import JUNK, Hang, Tally, deep, fuzz_settings, hang_guard
from wargame.bots.play import play_random_game
from wargame.errors import IllegalAction, MalformedAction
from wargame.games import open_game
from wargame.operational.actions import ACTION_TYPES

TALLY = Tally("malformed actions")
GAMES = ("dragoon", "memoir44-1", "memoir44-5")
DEPTHS = (0, 15, 60)


def _position(sid: str, n: int):
    state = open_game(sid).new_state(5)
    play_random_game(state, 9, max_actions=n)
    return state


POSITIONS = {(sid, n): _position(sid, n) for sid in GAMES for n in DEPTHS}
LEGAL = {key: [a.to_dict() for a in state.legal_actions()][:200]
         for key, state in POSITIONS.items()}
CAMPAIGN_FIELDS = sorted({f for cls in ACTION_TYPES.values()
                          for f in cls.__dataclass_fields__} | {"zz"})
MEMOIR_FIELDS = ["unit", "hex", "card", "option", "zz"]
MEMOIR_KINDS = sorted({a["kind"] for key, acts in LEGAL.items() if key[0] != "dragoon"
                       for a in acts} | {"order", "move", "battle", "play_card", "retreat"})
UNITS = sorted(POSITIONS[("dragoon", 0)].game.units)[:30]
VALUES = st.one_of(
    JUNK,
    st.sampled_from(UNITS),
    st.lists(st.sampled_from(UNITS), max_size=4),  # duplicates allowed: counted once or refused
    st.sampled_from(["1013", "0723", "north", "east", [0, 0], [3, -2], [10**9, 1]]),
    st.integers(-3, 50),
    st.sampled_from(["<deep>", "<long>", "<many>", 2.5, -0.0, 10**30]),
)
# big values are drawn as tokens (hypothesis prints every draw) and built after drawing
BIG = {"<deep>": lambda: deep(3000), "<long>": lambda: "x" * 10_000,
       "<many>": lambda: list(range(5000))}


def _realize(value):
    if isinstance(value, str) and value in BIG:
        return BIG[value]()
    if isinstance(value, dict):
        return {k: _realize(v) for k, v in value.items()}
    return value


def _snapshot(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True, default=str)


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    TALLY.finish()


@st.composite
def action_data(draw, key):
    sid = key[0]
    campaign = sid == "dragoon"
    legal = LEGAL[key]
    how = draw(st.sampled_from(["random", "broken_legal", "twice", "not_a_mapping"]))
    if how == "not_a_mapping":
        # (a non-mapping nested deep: test_a_deep_non_mapping_is_malformed below)
        return draw(JUNK)
    if how == "random" or not legal:
        kinds = sorted(ACTION_TYPES) if campaign else MEMOIR_KINDS
        data = {"kind": draw(st.one_of(st.sampled_from(kinds), JUNK))}
        names = CAMPAIGN_FIELDS if campaign else MEMOIR_FIELDS
        for name in draw(st.lists(st.sampled_from(names), max_size=4, unique=True)):
            data[name] = draw(VALUES)
        return data
    data = dict(draw(st.sampled_from(legal)))
    if how == "twice":  # an id listed twice, fractional or huge air points
        lists = [k for k, v in data.items() if isinstance(v, list) and v]
        if lists:
            k = draw(st.sampled_from(lists))
            data[k] = data[k] + [data[k][0]] * draw(st.integers(1, 3))
        elif campaign:
            data["air"] = draw(st.sampled_from([0.5, 2.5, -1, 10**9, True, "3"]))
        return data
    keys = sorted(data) + ["zz"]
    data[draw(st.sampled_from(keys))] = draw(VALUES)
    return data


@fuzz_settings(60)
@given(key=st.sampled_from(sorted(POSITIONS)), data=st.data())
def test_malformed_actions_are_refused_and_change_nothing(key, data):
    drawn = data.draw(action_data(key))
    kind = drawn.get("kind") if isinstance(drawn, dict) else None
    if key[0] != "dragoon" and isinstance(drawn, dict) and (not isinstance(kind, str)
                                                            or kind == "<deep>"):
        # the deep case of test_a_deep_non_mapping_is_malformed (outside this branch)
        drawn = {k: ("<many>" if v == "<deep>" else v) for k, v in drawn.items()}
    raw = _realize(drawn)
    state = POSITIONS[key]
    before = _snapshot(state)
    trial = state.clone()
    outcome = "accepted (legal)"
    try:
        with TALLY.timed(drawn), hang_guard():
            try:
                action = trial.game.action_from_dict(raw)
                trial.apply(action)
            except MalformedAction:
                outcome = "malformed"
            except IllegalAction:
                outcome = "illegal"
            if outcome != "accepted (legal)":
                assert _snapshot(trial) == before, ("a refused action changed the state", raw)
    except Hang as exc:
        TALLY.check("hang", raw, exc)
        return
    except AssertionError:
        raise
    except Exception as exc:
        TALLY.check("exception", (key, raw), exc)
        return
    assert _snapshot(state) == before  # the position itself is never touched
    TALLY.add(outcome)


@pytest.mark.parametrize("sid", GAMES)
def test_every_legal_action_survives_its_json_round_trip(sid):
    state = POSITIONS[(sid, 15)]
    for action in state.legal_actions()[:50]:
        assert state.game.action_from_dict(action.to_dict()) == action


def test_a_deep_non_mapping_is_malformed():
    for sid in GAMES:
        for raw in (deep(5000), {"kind": None, "unit": deep(3000)}):
            with pytest.raises(MalformedAction):
                POSITIONS[(sid, 0)].game.action_from_dict(raw)


@pytest.mark.parametrize("raw", [
    {"kind": "declare_defence", "artillery": ["de-art-lxii"] * 3},  # counted once: refused
    {"kind": "declare_defence", "air": 2.5},  # fractional air points
    {"kind": "declare_defence", "air": True},
    {"kind": "attack", "target": "1013", "attackers": ["a", "a"]},
    {"kind": "bombard", "target": "1013", "air": 10**6},
    {"kind": "move", "unit": "x", "to": "1013", "path": "1013"},
    {"kind": "end_phase", "unit": "x"},
    {"kind": ["end_phase"]},
])
def test_issue_13_campaign_actions_are_malformed(raw):
    game = POSITIONS[("dragoon", 0)].game
    with pytest.raises(MalformedAction):
        game.action_from_dict(raw)


@pytest.mark.parametrize("raw", [
    {"kind": "order", "unit": 1.0}, {"kind": "order", "unit": True},
    {"kind": "move", "unit": 1, "hex": [1, 2, 3]}, {"kind": "move", "unit": 1, "hex": "0101"},
    {"kind": "play_card", "card": "3"}, {"kind": "order", "unit": 1, "units": [1]},
    {"kind": "x" * 1000}, {"kind": "choose", "option": ["a"]},
])
def test_memoir_actions_are_malformed(raw):
    game = POSITIONS[("memoir44-1", 0)].game
    with pytest.raises(MalformedAction):
        game.action_from_dict(raw)
