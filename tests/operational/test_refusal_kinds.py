"""Refusals name their kind: each illegal action raises the matching ``wargame.errors``
subclass, keeps its reason and rule, and leaves the state exactly as it was."""

from __future__ import annotations

import json

import pytest

from tests.helpers import small_scenario, unit
from wargame import errors
from wargame.operational.actions import (
    Action,
    Attack,
    Bombard,
    ChooseLoss,
    EndPhase,
    Enter,
    Exit,
    Move,
)
from wargame.operational.state import Game, State


def _game(units, setup, **kw) -> Game:
    return Game(small_scenario(units=units, setup=setup, **kw))


def _refused(state: State, action: object, kind: type[errors.IllegalAction], rule: str) -> str:
    before = json.dumps(state.fingerprint(), sort_keys=True)
    log, events = len(state.action_log), len(state.events)
    with pytest.raises(errors.IllegalAction) as exc:
        state.apply(action)  # type: ignore[arg-type]  # the test feeds non-actions on purpose
    assert type(exc.value) is kind, f"{exc.value!r} is {type(exc.value).__name__}, not {kind.__name__}"
    assert exc.value.rule == rule
    assert json.dumps(state.fingerprint(), sort_keys=True) == before
    assert (len(state.action_log), len(state.events)) == (log, events)
    return exc.value.reason


def _to_allied_combat(state: State) -> State:
    state.apply(EndPhase())
    return state


def test_movement_refusals() -> None:
    g = _game([unit("a", "allied", m=2), unit("g", "axis")], {"a": "0303", "g": "0808"},
              terrain={"0304": "forest"})
    s = g.new_state()
    reason = _refused(s, Move("a", "0309"), errors.MovementRefused, "CN 4.0")
    assert "beyond the unit's movement" in reason
    _refused(s, Move("a", "0808"), errors.EngagementRefused, "CN 4.1.2")
    _refused(s, Move("nobody", "0304"), errors.MalformedAction, "CN")
    _refused(s, Move("a", "zz"), errors.MalformedAction, "")
    _refused(s, "move a", errors.MalformedAction, "")
    _refused(s, Move("g", "0807"), errors.NotYourTurn, "CN 3.0")


def test_stacking_and_zone_of_engagement_refusals() -> None:
    units = [unit(f"a{i}", "allied") for i in range(5)] + [unit("g", "axis")]
    setup = {"a0": "0303", "a1": "0304", "a2": "0304", "a3": "0304", "a4": "0304", "g": "0306"}
    s = _game(units, setup).new_state()
    _refused(s, Move("a0", "0304"), errors.StackingRefused, "CN 4.1.1")
    s.apply(Move("a0", "0305"))  # next to g: stops there
    _refused(s, Move("a0", "0205"), errors.EngagementRefused, "CN 4.1.2")


def test_phase_refusals() -> None:
    g = _game([unit("a", "allied"), unit("g", "axis")], {"a": "0303", "g": "0304"})
    s = g.new_state()
    _refused(s, Attack("0304", ("a",)), errors.WrongPhase, "CN 3.0")
    _to_allied_combat(s)
    reason = _refused(s, EndPhase(), errors.EndPhaseRefused, "CN 4.1.2")
    assert "must attack" in reason
    _refused(s, Move("a", "0302"), errors.WrongPhase, "CN 3.0")
    _refused(s, ChooseLoss("a"), errors.DecisionRefused, "")


def test_combat_and_support_refusals() -> None:
    units = [unit("a", "allied"), unit("b", "allied"), unit("g", "axis"),
             unit("art", "allied", "artillery", 2, 1, 4, rng=3)]
    s = _to_allied_combat(_game(units, {"a": "0303", "b": "0909", "g": "0304", "art": "0302"})
                          .new_state())
    reason = _refused(s, Attack("0304", ("b",)), errors.CombatRefused, "CN 5.0")
    assert "not adjacent" in reason
    _refused(s, Attack("0606", ("a",)), errors.CombatRefused, "CN 5.0")
    _refused(s, Attack("0304", ("a",), air=99), errors.SupportRefused, "CN 6.1")
    _refused(s, Bombard("0304", ("art",), 5), errors.SupportRefused, "CN 8.0")
    # the same unit twice is refused before the rules, as a malformed action (wargame.errors)
    _refused(s, Attack("0304", ("a", "a")), errors.MalformedAction, "")


def test_entry_and_exit_refusals() -> None:
    units = [unit("r", "allied"), unit("e", "allied"), unit("g", "axis")]
    g = _game(units, {"e": "0101", "g": "0909"},
              reinforcements=[{"unit": "r", "turn": 2, "entry": {"kind": "edge", "edge": "north"}}],
              edges={"north": ["0101", "0201", "0301"]})
    s = g.new_state()
    reason = _refused(s, Enter("r", "0301"), errors.EntryRefused, "CN 11.1")
    assert "arrives on turn 2" in reason
    _refused(s, Exit("e", "north"), errors.EntryRefused, "CN 4.2.2")


def test_game_over_refusal() -> None:
    g = _game([unit("a", "allied"), unit("g", "axis")], {"a": "0101", "g": "0909"}, turns=(1, 1))
    s = g.new_state()
    for _ in range(4):
        s.apply(EndPhase())
    assert s.is_terminal
    _refused(s, EndPhase(), errors.GameOver, "CN 11.2")


def test_every_refusal_is_still_an_illegal_action() -> None:
    assert all(issubclass(cls, errors.IllegalAction) for cls in errors.REFUSAL_KINDS.values())
    assert issubclass(errors.MovementRefused, Exception) and Action is not None
