"""The rooms' pages without a browser: landing (create, join with a code), the teacher's list
(replay, export, delete with confirmation), a seat page and an unknown seat link."""

from __future__ import annotations

import json

import pytest

from tests.support.fake_rooms import FakeManager
from wargame.ui.memoir import MemoirDashboard
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


def _drawn(dash) -> list:
    """Every widget in the dashboard's layout (what reaches the page)."""
    import panel as pn

    return dash.__panel__().select(pn.widgets.Widget)


def _is_drawn(widget, dash) -> bool:
    return any(w is widget for w in _drawn(dash))


@pytest.mark.slow  # 9.7 s (measured on 2 busy cores); lost its mark when it was renamed
def test_seat_page_draws_no_room_breaking_controls():
    """Issue #27: controls a viewer cannot use are not drawn (not merely hidden)."""
    manager = FakeManager()
    room = manager.create("normandy")
    dash, store = seat_dashboard(room, room.seats["axis"])
    assert store.viewer == "axis"
    for name in ("undo", "load", "new", "computer", "hide", "save", "seed", "variants"):
        assert not _is_drawn(getattr(dash.turn, name), dash), name
    assert _is_drawn(dash.turn.end, dash)  # the seat's own End phase (shown on its turn)
    assert dash.turn.seed.value in (None, 0)  # the seed replays the game: never sent to a seat
    tdash, tstore = seat_dashboard(room, room.seats["teacher"])
    assert tstore.viewer == "teacher"
    for name in ("end", "end_anyway", "save", "undo", "carpet"):
        assert not _is_drawn(getattr(tdash.turn, name), tdash), name
    assert not _is_drawn(tdash.attack.roll, tdash) if hasattr(tdash.attack, "roll") else True
    mroom = manager.create("memoir44-2")
    mdash, mstore = seat_dashboard(mroom, mroom.seats["allied"])
    for widget in (mdash.controls.undo, mdash.controls.save, mdash.controls.load,
                   mdash.new_button, mdash.chooser, mdash.computer_side, mdash.controls.reveal):
        assert not _is_drawn(widget, mdash)
    assert _is_drawn(mdash.controls.end, mdash) and mdash.controls.end.visible
    tmdash, _ = seat_dashboard(mroom, mroom.seats["teacher"])
    assert [w for w in _drawn(tmdash) if isinstance(w, type(tmdash.controls.end))] == []
    assert _is_drawn(tmdash.controls.reveal, tmdash)
    solo = MemoirDashboard(scenario="2", seed=1)
    assert all(_is_drawn(w, solo) for w in (solo.controls.undo, solo.controls.save,
                                             solo.new_button))


def _panes(page) -> list:
    """The page's panes, those of its top row too (the header and the language switch share
    one line: issue 28)."""
    out = []
    for o in page.objects:
        out += list(getattr(o, "objects", None) or [o])
    return out


def _header(page) -> str:
    return next(o.object for o in _panes(page) if "wg-seat-header" in str(getattr(o, "object", "")))


def _switch(page) -> str:
    return next(o.object for o in _panes(page) if "wg-lang-switch" in str(getattr(o, "object", "")))


def test_two_seats_of_one_room_each_in_its_own_language(tmp_path):
    """Issue #16: the Allied seat opened with ?lang=pt reads Portuguese while the Axis seat
    reads English, the same game at the same time; a refusal reaches a seat in its language;
    the ?lang= choice is stored as the seat's language."""
    from wargame.rooms import RoomManager
    from wargame.ui.serve import room_game

    with RoomManager(tmp_path / "r.sqlite", games=room_game) as manager:
        room = manager.create("memoir44-1", seed=3, lang="en")
        allied_page = seat_page(manager, room.seats["allied"].token, lang="pt")
        axis_page = seat_page(manager, room.seats["axis"].token)
        assert f"Sala {room.code}: Lugar dos Aliados." in _header(allied_page)
        assert f"Room {room.code}: Axis seat." in _header(axis_page)
        assert "Língua:" in _switch(allied_page) and "<b data-lang='pt'>" in _switch(allied_page)
        assert f"?seat={room.seats['allied'].token}&amp;lang=en" in _switch(allied_page)
        assert "Language:" in _switch(axis_page)
        assert room.seats["allied"].lang == "pt" and room.seats["axis"].lang == "en"
        # the Allied seat's link without ?lang= now opens in Portuguese (its stored choice)
        assert "Lugar dos Aliados" in _header(seat_page(manager, room.seats["allied"].token))

        _, allied = seat_dashboard(room, room.seats["allied"])
        _, axis = seat_dashboard(room, room.seats["axis"])
        assert (allied.lang, axis.lang) == ("pt", "en")
        first = {room.seats["allied"].side: allied, room.seats["axis"].side: axis}
        acting = first[allied.state.side_to_act]
        waiting = axis if acting is allied else allied
        action = acting.legal[0]
        assert not waiting.act(action)
        expected = "não é a vez do lugar" if waiting is allied else "it is not the"
        assert expected in waiting.message and waiting.error
        assert acting.act(action)
        waiting.sync()
        assert allied.version == axis.version == room.version == 1
        assert allied.state.fingerprint() == axis.state.fingerprint()


def test_landing_and_teacher_pages_in_portuguese_and_the_rooms_language(tmp_path):
    manager = FakeManager()
    page = Landing(manager, lang="pt")
    assert page.create.name == "Criar a sala" and page.seat_lang.value == "pt"
    assert "nobody" not in page.computer_axis.options and "ninguém" in page.computer_axis.options
    page.game.value = "memoir44-1"
    room = page.do_create()
    assert {s.lang for s in room.seats.values()} == {"pt"}
    assert "Lugar dos Aliados" in page.links.object and "Código da sala" in page.links.object
    page.seed.value = "-1"
    assert page.do_create() is None and "semente" in page.message.object
    english = Landing(manager)
    assert english.create.name == "Create the room" and english.seat_lang.value == "en"
    english.seat_lang.value = "pt"  # an English page may create a Portuguese room
    assert {s.lang for s in english.do_create().seats.values()} == {"pt"}
    teacher = TeacherRooms(manager, lang="pt", key="k1")
    assert "Salas neste servidor" in teacher.table.object and teacher.cancel.name == "Cancelar"
    assert "?key=k1&amp;lang=en" in teacher.view().objects[0].object
    assert "não abre nenhum lugar" in teacher_page(manager, "wrong", "k1", lang="pt").object
    assert "does not open" in seat_page(manager, "nope").object
    assert "não abre nenhum lugar" in seat_page(manager, "nope", lang="pt").object


def test_a_seat_store_says_no_undo_in_its_own_language():
    manager = FakeManager()
    room = manager.create("normandy")
    _, store = seat_dashboard(room, room.seats["allied"], lang="pt")
    assert not store.undo() and "Não é possível numa sala" in store.message
    _, other = seat_dashboard(room, room.seats["axis"])
    assert not other.undo() and "Not in a room" in other.message
