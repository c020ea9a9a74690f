"""Rooms, property: whatever seats send (the right seat or not, legal or not, fresh or stale
views), the stored log is the room's action log, a refusal changes nothing, and reopening the
file gives the same position."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rooms.roomkit import fingerprint, opener
from wargame.errors import IllegalAction
from wargame.rooms import RoomManager

JUNK = [
    {"kind": "play_card", "card": 10_000},
    {"kind": "end_phase"},
    {"kind": "move", "unit": "nobody", "path": ["0101"]},
    {"kind": "no-such-kind"},
    {"kind": "attack", "target": "9999", "attackers": []},
    {},
]

step = st.tuples(
    st.sampled_from(["to_act", "to_act", "allied", "axis", "teacher", "bogus"]),
    st.one_of(st.integers(0, 200), st.sampled_from(range(len(JUNK))).map(lambda i: -1 - i)),
    st.sampled_from(["none", "fresh", "stale"]),
)


@settings(max_examples=12, deadline=None)
@given(game_id=st.sampled_from(["memoir44-1", "demo", "memoir44-3"]),
       seed=st.integers(0, 10_000), steps=st.lists(step, max_size=30))
def test_any_sequence_keeps_the_stored_log_and_the_position(game_id, seed, steps):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rooms.sqlite"
        with RoomManager(path, games=opener) as m:
            room = m.create(game_id, seed=seed)
            accepted: list[str] = []
            for seat_name, choice, view in steps:
                state = room.state()
                if seat_name == "to_act":
                    seat_name = getattr(room.seat_of_side(state.side_to_act), "name", "bogus")
                token = room.seats[seat_name].token if seat_name in room.seats else "bogus"
                legal = state.legal_actions()
                action = JUNK[-1 - choice] if choice < 0 or not legal else \
                    legal[choice % len(legal)]
                expected = {"none": None, "fresh": room.version,
                            "stale": room.version - 1}[view]
                before, version = fingerprint(state), room.version
                try:
                    room.act(token, action, expected_version=expected)
                except IllegalAction:
                    assert room.version == version
                    assert fingerprint(room.state()) == before
                else:
                    assert room.version == version + 1
                    accepted.append(seat_name)
                    assert seat_name == room.seat_of_side(state.side_to_act).name
                stored = m.db.actions(room.id)
                assert [a.action for a in stored] == room.actions() == room.state().action_log
                assert [a.seat for a in stored] == accepted
            final, room_id = fingerprint(room.state()), room.id
        with RoomManager(path, games=opener) as m:
            assert fingerprint(m.get(room_id).state()) == final
