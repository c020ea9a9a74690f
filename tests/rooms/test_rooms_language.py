"""A language per seat (issue #16): stored with the room, kept across a restart, old files
without it still open; the room's refusals and summaries in the language they are read in."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.rooms.roomkit import opener, token_to_act
from wargame.errors import NotYourTurn, SeatRefused
from wargame.i18n import using_language
from wargame.rooms import RoomManager


def other_token(room) -> str:
    """The token of the player seat that is not to act."""
    acting = token_to_act(room)
    return next(s.token for s in room.seats.values() if s.side and s.token != acting)


def test_the_rooms_language_is_every_seats_default_and_each_seat_keeps_its_own(db_path):
    with RoomManager(db_path, games=opener) as m:
        room = m.create("memoir44-1", seed=3, lang="pt")
        assert {s.lang for s in room.seats.values()} == {"pt"}
        assert room.set_language("axis", "en").lang == "en"
        assert room.seats["axis"].lang == "en" and room.seats["allied"].lang == "pt"
        plain = m.create("memoir44-1", seed=4)
        assert {s.lang for s in plain.seats.values()} == {None}  # the server's language
        rid, pid = room.id, plain.id
    with RoomManager(db_path, games=opener) as m:  # a restart: the choices are the file's
        room = m.get(rid)
        assert {n: s.lang for n, s in room.seats.items()} == {
            "allied": "pt", "axis": "en", "teacher": "pt"}
        found = m.by_token(room.seats["axis"].token)
        assert found is not None and found[1].lang == "en"
        assert m.get(pid).seats["allied"].lang is None


def test_a_bad_language_or_seat_is_refused_and_nothing_is_stored(db_path):
    with RoomManager(db_path, games=opener) as m:
        with pytest.raises(ValueError, match="lang"):
            m.create("memoir44-1", lang="klingon")
        assert m.rooms() == []
        room = m.create("memoir44-1", lang="en")
        with pytest.raises(ValueError, match="one of en, pt"):
            room.set_language("allied", "fr")
        with pytest.raises(ValueError, match="seat"):
            room.set_language("referee", "pt")
        assert room.seats["allied"].lang == "en"
        assert room.set_language("allied", "pt-PT").lang == "pt"  # as check_language reads it


def test_a_file_written_before_seat_languages_opens_and_takes_one(db_path):
    """Files of schema 1 written before issue #16 have no ``lang`` in their seats: they open
    unchanged (no migration), their seats in the server's language until one is chosen."""
    with RoomManager(db_path, games=opener) as m:
        rid = m.create("memoir44-1", seed=3, lang="pt").id
    conn = sqlite3.connect(db_path)
    seats = json.loads(conn.execute("SELECT seats FROM rooms").fetchone()[0])
    old = {name: {k: v for k, v in s.items() if k != "lang"} for name, s in seats.items()}
    conn.execute("UPDATE rooms SET seats = ?", (json.dumps(old),))
    conn.commit()
    conn.close()
    with RoomManager(db_path, games=opener) as m:
        room = m.get(rid)
        assert room is not None and not m.unloaded
        assert {s.lang for s in room.seats.values()} == {None}
        room.set_language("teacher", "pt")
    with RoomManager(db_path, games=opener) as m:
        assert m.get(rid).seats["teacher"].lang == "pt"


def test_refusals_come_in_the_language_they_are_read_in(manager):
    room = manager.create("memoir44-1", seed=3)
    state = room.state()
    action = next(iter(state.legal_actions()))
    waiting = other_token(room)
    with using_language("pt"), pytest.raises(NotYourTurn) as pt:
        room.act(waiting, action)
    with pytest.raises(NotYourTurn) as en:
        room.act(waiting, action)
    assert "não é a vez do lugar" in str(pt.value) and pt.value.rule == "rooms"
    assert "it is not the" in str(en.value) and "seat's turn" in str(en.value)
    with using_language("pt"), pytest.raises(SeatRefused) as spectator:
        room.act(room.seats["teacher"].token, action)
    assert "espectadores" in str(spectator.value)
    with using_language("pt"), pytest.raises(SeatRefused) as ahead:
        room.act(token_to_act(room), action, expected_version=5)  # a page ahead of the room
    assert "posição mais recente" in str(ahead.value) and "recarregue" in str(ahead.value)
    room.act(token_to_act(room), action, expected_version=0)
    stale = room.state().legal_actions()[0]
    with using_language("pt"), pytest.raises(SeatRefused) as moved:
        room.act(token_to_act(room), stale, expected_version=0)  # a page behind the room
    assert "a partida avançou" in str(moved.value)
    assert room.version == 1


def test_a_damaged_file_is_named_in_the_language_of_the_reader(tmp_path):
    from wargame.rooms import RoomsDBError

    bad = tmp_path / "notes.sqlite"
    bad.write_text("not a database", encoding="utf-8")
    with using_language("pt"), pytest.raises(RoomsDBError) as pt:
        RoomManager(bad, games=opener)
    assert "não é uma base de dados SQLite" in str(pt.value) and "notes.sqlite" in str(pt.value)
    with pytest.raises(RoomsDBError) as en:
        RoomManager(bad, games=opener)
    assert "not an SQLite database" in str(en.value)


def test_the_result_is_stored_in_english_and_shown_in_the_readers_language(db_path):
    """The result noted in the file (listed without a replay) does not depend on the language
    of the seat that played the last action; a summary is in the language it is read in."""
    from tests.rooms.roomkit import play

    with RoomManager(db_path, games=opener) as m:
        room = m.create("memoir44-1", seed=3, lang="pt")
        with using_language("pt"):
            play(room, 5000)
            assert room.state().is_terminal
            outcome = room.summary().outcome
            assert "venceu" in outcome or "empate" in outcome
            assert "Victory medals" not in outcome and "sudden death" not in outcome
        english = room.summary().outcome
        assert " won (" in english or english.startswith("draw")
        rid = room.id
    with RoomManager(db_path, games=opener) as m:  # not resumed: the stored note
        with using_language("pt"):
            listed = next(r for r in m.rooms() if r.id == rid)
        assert listed.outcome == english
