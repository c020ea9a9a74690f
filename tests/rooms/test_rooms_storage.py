"""Rooms: nothing lost. Resume from the SQLite file, replay move by move, export as a save,
delete, and refuse files that are not a rooms database (wargame/rooms/db.py)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.rooms.roomkit import fingerprint, opener, play, token_to_act
from wargame.errors import SeatRefused
from wargame.rooms import RoomManager, RoomsDBError
from wargame.saves import from_save, parse_save_text


@pytest.mark.parametrize("game_id, variants, n", [
    ("normandy", (), 40),
    ("demo", (), 30),
    ("memoir44-1", (), 60),
    ("normandy", ("bfn",), 20),
])
def test_reopening_resumes_every_room_at_the_same_fingerprint(db_path, game_id, variants, n):
    with RoomManager(db_path, games=opener) as m:
        rooms = [m.create(game_id, variants, seed=s) for s in (1, 2)]
        for room in rooms:
            play(room, n)
        before = {r.id: (fingerprint(r.state()), r.version, r.actions(), len(r.events()),
                         {k: s.token for k, s in r.seats.items()}, r.code) for r in rooms}
    with RoomManager(db_path, games=opener) as m:
        assert m.unloaded == {}
        for room_id, (fp, version, actions, events, tokens, code) in before.items():
            room = m.get(room_id)
            assert fingerprint(room.state()) == fp
            assert room.version == version and room.actions() == actions
            assert len(room.events()) == events
            assert {k: s.token for k, s in room.seats.items()} == tokens
            assert m.by_code(code) is room
            assert m.by_token(tokens["axis"])[0] is room
        # the resumed room plays on
        room = m.get(rooms[0].id)
        play(room, 3)
        assert room.version == before[room.id][1] + 3 or room.state().is_terminal


def test_state_at_is_the_position_after_n_actions(manager):
    room = manager.create("normandy", seed=3)
    policy_states = [fingerprint(room.state())]
    for _ in range(60):
        play(room, 1)
        policy_states.append(fingerprint(room.state()))
    for n in (0, 1, 17, 50, 51, 59, 60, 3):
        assert fingerprint(room.state_at(n)) == policy_states[n]
    with pytest.raises(ValueError, match="from 0 to 60"):
        room.state_at(61)
    with pytest.raises(ValueError):
        room.state_at(-1)


def test_save_text_loads_to_the_same_fingerprint(manager):
    for game_id in ("normandy", "memoir44-2"):
        room = manager.create(game_id, seed=11)
        play(room, 25)
        data = parse_save_text(room.save_text(), "room.json")
        state = from_save(data, "room.json")
        assert fingerprint(state) == fingerprint(room.state())
        assert data["seed"] == 11 and len(data["actions"]) == room.version


def test_demo_room_exports_a_save_of_the_demo_game(manager):
    room = manager.create("demo", seed=5)
    play(room, 10)
    state = from_save(json.loads(room.save_text()), game=room.game)
    assert fingerprint(state) == fingerprint(room.state())


def test_delete_closes_the_room_and_its_links(db_path):
    with RoomManager(db_path, games=opener) as m:
        keep, gone = m.create("memoir44-1", seed=1), m.create("memoir44-1", seed=2)
        play(gone, 2)
        told = []
        gone.subscribe(told.append)
        token = token_to_act(gone)
        assert m.delete(gone.id) is True
        assert told and told[-1].deleted and told[-1].room_id == gone.id
        assert m.get(gone.id) is None and m.by_code(gone.code) is None
        assert m.by_token(token) is None
        with pytest.raises(SeatRefused, match="deleted"):
            gone.act(token, gone.state().legal_actions()[0])
        assert [s.id for s in m.rooms()] == [keep.id]
        assert m.delete(gone.id) is False
        assert m.delete("no-such-room") is False
    with RoomManager(db_path, games=opener) as m:
        assert [s.id for s in m.rooms()] == [keep.id]


def test_listing_summarises_every_room(manager):
    a = manager.create("normandy", seed=1)
    b = manager.create("memoir44-1", seed=2, computer={"axis": "easy"})
    play(a, 3)
    rows = manager.rooms()
    assert [r.id for r in rows] == [a.id, b.id]
    assert rows[0].version == 3 and rows[0].game_id == "normandy" and rows[0].outcome is None
    assert rows[0].side_to_act in ("allied", "axis")
    assert rows[1].computer == {"axis": "easy"} and rows[1].code == b.code


def test_a_room_that_no_longer_replays_is_reported_not_fatal(db_path):
    with RoomManager(db_path, games=opener) as m:
        good, bad = m.create("memoir44-1", seed=1), m.create("memoir44-1", seed=2)
        play(good, 3)
        play(bad, 3)
    with sqlite3.connect(db_path) as c:
        c.execute("UPDATE actions SET action = ? WHERE room_id = ? AND n = 1",
                  (json.dumps({"kind": "play_card", "card": 424242}), bad.id))
    with RoomManager(db_path, games=opener) as m:
        assert m.get(good.id) is not None and m.get(bad.id) is None
        assert "actions[1]" in m.unloaded[bad.id]


# ------------------------------------------------------------------ files that are not rooms
def _expect_one_line(path, *words):
    with pytest.raises(RoomsDBError) as info:
        RoomManager(path, games=opener)
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    assert "wargame rooms database" in message or "wargame-rooms" in message
    for word in words:
        assert word in message
    return message


def test_a_text_file_is_refused(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_text("hello, this is not a database\n" * 10)
    _expect_one_line(path, "not an SQLite database")


def test_a_foreign_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as c:
        c.execute("CREATE TABLE students (name TEXT)")
    _expect_one_line(path, "students")


def test_a_newer_schema_is_refused(db_path):
    RoomManager(db_path, games=opener).close()
    with sqlite3.connect(db_path) as c:
        c.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    _expect_one_line(db_path, "schema_version", "99")


def test_a_damaged_file_is_refused(db_path):
    with RoomManager(db_path, games=opener) as m:
        for seed in range(4):
            play(m.create("memoir44-1", seed=seed), 40)
    data = bytearray(db_path.read_bytes())
    assert len(data) > 8192
    for i in range(4096, len(data) - 100, 997):  # scribble over every page after the first
        data[i:i + 64] = b"\xa5" * 64
    db_path.write_bytes(bytes(data))
    _expect_one_line(db_path, "damaged")


def test_a_folder_is_refused(tmp_path):
    _expect_one_line(tmp_path, "a folder")


def test_a_missing_folder_is_refused(tmp_path):
    _expect_one_line(tmp_path / "nowhere" / "rooms.sqlite", "no folder")
