"""One act per version from every page (issue #27): two tabs of one seat pressing at once give
one winner, even when the second tab's page has synced before its click arrives."""

from __future__ import annotations

import pytest

from wargame.rooms import RoomManager
from wargame.ui import seats
from wargame.ui.seats import seat_store


@pytest.fixture
def memoir_room(tmp_path):
    with RoomManager(tmp_path / "r.sqlite", start_computers=False) as manager:
        yield manager.create("memoir44-1", seed=5)


def two_tabs(room, name="allied"):
    tabs = [seat_store(room, room.seats[name], "en") for _ in range(2)]
    for tab in tabs:
        tab.on_change = tab.sync  # a served page syncs on its next tick
    return tabs


def test_the_second_tab_after_its_page_synced_is_refused(memoir_room):
    a, b = two_tabs(memoir_room)
    assert memoir_room.state().side_to_act == "allied"
    assert a.auto()  # the first tab's Auto: one action
    assert memoir_room.version == 1 and b.version == 1  # the second page has synced
    assert not b.auto()  # its click was made on the page before: refused, nothing played
    assert memoir_room.version == 1
    assert b.error and "look at it again" in b.message
    assert a.auto()  # the tab that acted goes on (its own action is no news to it)
    assert memoir_room.version == 2


def test_after_a_moment_the_other_tab_acts(memoir_room, monkeypatch):
    a, b = two_tabs(memoir_room)
    assert a.auto()
    b._news_at -= seats.STALE_CLICK_S  # the page has been looked at
    assert b.auto()
    assert memoir_room.version == 2


def test_a_stale_tab_that_has_not_synced_is_refused_by_the_room(memoir_room):
    a, b = two_tabs(memoir_room)
    b.on_change = None  # its page has not heard yet
    assert a.auto()
    assert not b.auto()  # the room's version guard
    assert memoir_room.version == 1


def test_news_from_the_other_side_does_not_hold_a_seat_back(tmp_path):
    with RoomManager(tmp_path / "r.sqlite", start_computers=False) as manager:
        room = manager.create("memoir44-1", seed=5)
        (allied,) = two_tabs(room)[:1]
        (axis,) = two_tabs(room, "axis")[:1]
        while room.state().side_to_act == "allied":
            assert allied.auto()
        assert axis.auto()  # at once after the Allies' last action
        assert room.version >= 2
