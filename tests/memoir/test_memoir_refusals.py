"""Refusals are specific: each kind of illegal action raises its own IllegalAction subclass
(wargame.errors), keeps its reason and rule, and leaves the state unchanged."""

from __future__ import annotations

import pytest
from m44helpers import H, faces, make_state, order, play, uid

from wargame.errors import (
    CardRefused,
    CombatRefused,
    DecisionRefused,
    GameOver,
    IllegalAction,
    MalformedAction,
    MovementRefused,
    OrderRefused,
    WrongPhase,
)
from wargame.memoir import ALLIES, AXIS, Action, card

HANDS = {ALLIES: ["attack:center", "attack:center", "attack:left", "attack:right"],
         AXIS: ["attack:center", "attack:center", "attack:left", "attack:right"]}
UNITS = [(ALLIES, "inf", (6, 12)), (ALLIES, "inf", (6, 2)), (ALLIES, "tank", (7, 13)),
         (AXIS, "inf", (3, 13)), (AXIS, "inf", (0, 12))]


def refused(st, action, cls, rule_start: str):
    before_fp, before_json = st.fingerprint(), st.to_json()
    with pytest.raises(cls) as exc:
        st.apply(action)
    assert isinstance(exc.value, IllegalAction) and exc.value.reason
    assert exc.value.rule.startswith(rule_start), exc.value.rule
    assert st.fingerprint() == before_fp and st.to_json() == before_json
    return exc.value


def test_card_order_and_phase_refusals():
    st = make_state(UNITS, hands=HANDS)
    not_mine = st.hands[AXIS][0]
    refused(st, Action("play", card=not_mine), CardRefused, "M44 p.5 Play a Command Card")
    refused(st, Action("order", unit=uid(st, (6, 12))), WrongPhase, "M44 p.5")
    play(st, "attack", section="center")
    err = refused(st, Action("order", unit=uid(st, (6, 2))), OrderRefused, "M44 p.6 Issue Orders")
    assert "cannot order" in err.reason
    refused(st, Action("order", unit=999), OrderRefused, "M44 p.6 Issue Orders")
    refused(st, Action("end_moves"), WrongPhase, "M44 p.6 Issue Orders")
    refused(st, "not an action", MalformedAction, "M44 p.5 Game Play")


def test_movement_and_combat_refusals():
    st = make_state(UNITS, hands=HANDS)
    play(st, "attack", section="center")
    order(st, (6, 12))
    refused(st, Action("move", unit=uid(st, (6, 12)), hex=H(3, 11)), MovementRefused,
            "M44 p.6 Move")
    refused(st, Action("move", unit=uid(st, (7, 13)), hex=H(6, 14)), MovementRefused,
            "M44 p.6 Move")
    st.apply(Action("end_moves"))
    refused(st, Action("battle", unit=uid(st, (6, 12)), hex=H(0, 12)), CombatRefused,
            "M44 p.10 Combat Range")
    refused(st, Action("battle", unit=uid(st, (6, 12)), hex=H(4, 4)), CombatRefused,
            "M44 p.9 Battle")
    refused(st, Action("battle", unit=uid(st, (7, 13)), hex=H(3, 13)), CombatRefused,
            "M44 p.9 Battle")  # not ordered


def test_decision_and_game_over_refusals():
    # a flag with two retreat hexes open leaves a retreat decision to the Axis
    st = make_state([(ALLIES, "inf", (4, 12)), (AXIS, "inf", (3, 13)), (AXIS, "inf", (0, 0))],
                    hands=HANDS, dice=faces("flag", "star", "star"))
    play(st, "attack", section="center")
    order(st, (4, 12))
    st.apply(Action("end_moves"))
    st.apply(Action("battle", unit=uid(st, (4, 12)), hex=H(3, 13)))
    assert st.pending and st.pending_decision.kind == "retreat"
    refused(st, Action("end_battles"), DecisionRefused, "M44 p.12 Retreat")
    refused(st, Action("retreat", unit=uid(st, (3, 13)), hex=H(8, 8)), DecisionRefused,
            "M44 p.12 Retreat")
    st.winner = ALLIES
    refused(st, Action("end_battles"), GameOver, "M44 p.5 Game Play")
    assert card(st.hands[ALLIES][0]).title  # the hand is untouched
