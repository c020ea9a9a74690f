"""The rooms' pages without a browser: landing (create, join with a code), the teacher's list
(replay, export, delete with confirmation), a seat page and an unknown seat link."""

from __future__ import annotations

import json

from fake_rooms import FakeManager

from wargame.ui.room_page import seat_dashboard, seat_page
from wargame.ui.rooms import Landing, TeacherRooms, check_key, teacher_page


def test_landing_creates_a_room_and_shows_its_seat_links():
    manager = FakeManager()
    page = Landing(manager)
    page.game.value = "memoir44-1"
    assert not page.variants.visible
    assert "easy" in page.computer_axis.options.values()
    page.seed.value = "12"
    room = page.do_create()
    assert room is not None and room.seed == 12 and room.game_id == "memoir44-1"
    links = page.links.object
    for seat in room.seats.values():
        assert f"room?seat={seat.token}" in links
    assert room.code in links
    page.seed.value = "-3"
    assert page.do_create() is None and "seed" in page.message.object
    page.game.value = "normandy"
    assert page.variants.visible and "greedy" in page.computer_allied.options.values()


def test_join_with_a_code_shows_the_player_seats_only():
    manager = FakeManager()
    room = manager.create("memoir44-1")
    page = Landing(manager)
    page.code.value = room.code.lower()
    assert page.do_join() is room
    assert room.seats["allied"].token in page.joined.object
    assert room.seats["axis"].token in page.joined.object
    assert room.seats["teacher"].token not in page.joined.object
    page.code.value = "NOPE99<script>"
    assert page.do_join() is None and "<script>" not in page.joined.object


def test_teacher_list_replays_exports_and_deletes_after_confirmation():
    manager = FakeManager()
    room = manager.create("memoir44-1", seed=5)
    store = seat_dashboard(room, room.seats["allied"])[1]
    play = next(a for a in store.legal if a.kind == "play")
    assert store.act(play)
    teacher = TeacherRooms(manager)
    assert room.code in teacher.table.object
    assert room.seats["teacher"].token in teacher.table.object
    replay = teacher.open_replay()
    assert replay.total == 1
    assert len(replay.store.state.action_log) == 1
    replay.step(-1)
    assert len(replay.store.state.action_log) == 0
    assert replay.store.state.fingerprint() == room.state_at(0).fingerprint()
    save = json.loads(teacher._export().getvalue())
    assert len(save["actions"]) == 1
    teacher.ask_delete()
    assert teacher.confirm.visible and room.code in teacher.confirm.label
    teacher.cancel.clicks += 1
    assert not teacher.confirm.visible and manager.get(room.id) is room
    teacher.ask_delete()
    assert teacher.do_delete() and manager.get(room.id) is None
    assert room.code not in teacher.table.object


def test_teacher_page_needs_the_key():
    manager = FakeManager()
    assert check_key("k1", "k1") and not check_key("", "k1") and not check_key(None, "k1")
    page = teacher_page(manager, "wrong", "k1")
    assert "does not open" in page.object


def test_unknown_seat_link_is_a_short_clear_page():
    token = "x" * 150 + "<b>"
    page = seat_page(FakeManager(), token)
    assert "does not open any seat" in page.object
    assert "xxxx" not in page.object
    assert seat_page(FakeManager(), None).object == page.object


def test_seat_page_hides_the_room_breaking_controls():
    manager = FakeManager()
    room = manager.create("normandy")
    dash, store = seat_dashboard(room, room.seats["axis"])
    assert store.viewer == "axis"
    for name in ("undo", "load", "new", "computer", "hide", "save", "seed"):
        assert not getattr(dash.turn, name).visible, name
    assert dash.turn.seed.value in (None, 0)  # the seed replays the game: never sent to a seat
    tdash, tstore = seat_dashboard(room, room.seats["teacher"])
    assert tstore.viewer == "teacher" and tdash.turn.save.visible
    mroom = manager.create("memoir44-2")
    mdash, mstore = seat_dashboard(mroom, mroom.seats["allied"])
    assert not mdash.controls.undo.visible and not mdash.new_button.visible
    assert mdash.controls.end.visible
