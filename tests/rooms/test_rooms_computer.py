"""Rooms: seats held by the computer (wargame.bots.play policies) play in the background,
each action stored and told like a human's."""

from __future__ import annotations

import pytest

from tests.rooms.roomkit import fingerprint, opener, play, token_to_act
from wargame.errors import SeatRefused
from wargame.rooms import RoomManager

WAIT = 120  # seconds: a bound against a hang, never a timing assertion


def test_memoir_computer_answers_each_human_action(manager):
    room = manager.create("memoir44-1", seed=4, computer={"axis": "easy"})
    told = []
    room.subscribe(told.append)
    assert room.wait_idle(WAIT)
    with pytest.raises(SeatRefused, match="computer holds the axis seat"):
        room.act(room.seats["axis"].token, {"kind": "end_turn"})
    for _ in range(40):
        assert room.wait_idle(WAIT)
        state = room.state()
        if state.is_terminal:
            break
        assert state.side_to_act == "allied"  # the computer never leaves its turn pending
        play(room, 1)
    assert room.wait_idle(WAIT)
    seats = [a.seat for a in manager.db.actions(room.id)]
    assert "axis" in seats and "allied" in seats
    assert [c.version for c in told] == list(range(told[0].version, room.version + 1))
    assert room.actions() == room.state().action_log
    assert room.computer_error is None


def test_campaign_computer_plays_first_when_it_holds_the_first_side(db_path):
    with RoomManager(db_path, games=opener) as m:
        room = m.create("normandy", seed=3, computer={"allied": "greedy"})
        assert room.wait_idle(WAIT)
        state = room.state()
        assert room.version > 0 and state.side_to_act == "axis"
        # the Allied computer attacked; the Axis human answers the defence declaration
        decision = state.pending_decision
        assert decision is not None and decision.side == "axis", state.phase
        room.act(room.seats["axis"].token, decision.options[0])
        assert room.wait_idle(WAIT)
        assert room.state().side_to_act == "axis" or room.state().is_terminal
        stored = m.db.actions(room.id)
        assert {a.seat for a in stored} == {"allied", "axis"}
        fp, version, room_id = fingerprint(room.state()), room.version, room.id
    with RoomManager(db_path, games=opener) as m:
        room = m.get(room_id)
        assert room.wait_idle(WAIT)
        assert room.version == version and fingerprint(room.state()) == fp


def test_resume_lets_a_computer_finish_a_turn_it_was_playing(db_path):
    # the computer's run is bounded: stopped after 2 actions it continues on reopening
    with RoomManager(db_path, games=opener, max_computer_actions=2) as m:
        room = m.create("normandy", seed=3, computer={"allied": "greedy"})
        assert room.wait_idle(WAIT)
        assert room.version == 2 and room.state().side_to_act == "allied"
        room_id = room.id
    with RoomManager(db_path, games=opener) as m:
        room = m.get(room_id)
        assert room.wait_idle(WAIT)
        assert room.version > 2 and room.state().side_to_act == "axis"


def test_the_computer_never_acts_for_a_human_seat(manager):
    room = manager.create("memoir44-1", seed=9, computer={"allied": "random"})
    assert room.wait_idle(WAIT)
    state = room.state()
    assert state.side_to_act == "axis"
    version = room.version
    assert room.wait_idle(WAIT) and room.version == version
    room.act(token_to_act(room), state.legal_actions()[0])
    assert room.wait_idle(WAIT)
