"""The seat stores (wargame.ui.seats) against a room: acting goes through the room, a refusal
changes nothing, the other seat follows the room's changes; no undo, load or new game."""

from __future__ import annotations

from tests.support.fake_rooms import FakeRoom
from wargame.memoir import ALLIES, AXIS
from wargame.ui.seats import CampaignSeatStore, MemoirSeatStore, seat_store, viewer_of


def _memoir_pair():
    room = FakeRoom("memoir44-1", 44)
    allied = seat_store(room, room.seats["allied"])
    axis = seat_store(room, room.seats["axis"])
    return room, allied, axis


def test_seat_store_kinds_and_viewers():
    room, allied, axis = _memoir_pair()
    assert isinstance(allied, MemoirSeatStore) and allied.viewer == ALLIES
    assert axis.viewer == AXIS
    assert viewer_of(room.seats["teacher"]) == "teacher"
    camp = FakeRoom("demo", 3)
    store = seat_store(camp, camp.seats["axis"])
    assert isinstance(store, CampaignSeatStore) and store.viewer == "axis"


def test_memoir_act_goes_to_the_room_and_the_other_seat_follows():
    room, allied, axis = _memoir_pair()
    heard: list[int] = []
    axis.on_change = lambda: heard.append(room.version)
    play = next(a for a in allied.legal if a.kind == "play")
    before_axis = axis.state.fingerprint()
    assert allied.act(play)
    assert room.version == 1 and len(allied.state.action_log) == 1
    assert heard == [1]
    assert axis.state.fingerprint() == before_axis  # not yet synced in its session
    assert axis.sync()
    assert axis.state.fingerprint() == allied.state.fingerprint() == room.state().fingerprint()
    assert axis.log == allied.log
    assert not axis.sync()  # nothing new


def test_refusals_change_nothing():
    room, allied, axis = _memoir_pair()
    fp = room.state().fingerprint()
    play = next(a for a in allied.legal if a.kind == "play")
    assert not axis.act(play)  # the Axis seat out of turn
    # a seat reads student words: the reason without the rule it cites (issue #28, #32)
    assert axis.error and "is to act" in axis.message and "(rooms)" not in axis.message
    axis.student = False  # expert words: the rule too
    assert not axis.act(play) and "(rooms)" in axis.message
    assert room.version == 0 and room.state().fingerprint() == fp
    teacher = seat_store(room, room.seats["teacher"])
    assert not teacher.act(play) and teacher.error
    assert room.version == 0
    # two seats at once: the stale one loses, then shows the room's position
    other = seat_store(room, room.seats["allied"])
    assert allied.act(play)
    assert not other.act(play)
    assert other.error and room.version == 1
    assert other.state.fingerprint() == room.state().fingerprint()
    assert not allied.undo() and allied.error and room.version == 1
    assert not allied.load_text("{}") and room.version == 1


def test_a_missed_notification_is_caught_up_by_replay_and_close_unsubscribes():
    room, allied, axis = _memoir_pair()
    axis.close()
    play = next(a for a in allied.legal if a.kind == "play")
    allied.act(play)
    assert axis.sync()  # nothing heard: the room's log is replayed
    assert axis.state.fingerprint() == room.state().fingerprint()
    assert axis.log == allied.log
    assert len(room._subs) == 1


def test_campaign_seat_moves_and_the_other_seat_sees_the_move():
    room = FakeRoom("demo", 3)
    first = room.game.sides[0]
    mover = seat_store(room, room.seats["allied" if first == "allied" else "axis"])
    other = seat_store(room, room.seats["axis" if first == "allied" else "allied"])
    s = mover.s
    uid = next(u for u, us in s.units.items()
               if us.status == "on_map" and s.side_of(u) == mover.side
               and s.legal_destinations(u))
    mover.select_unit(uid)
    dest = next(iter(mover.reachable()))
    assert mover.move_selected_to(dest.id)
    assert room.version == 1
    other.sync()
    assert other.s.units[uid].hex == dest
    assert other.hidden(uid)
    # the other seat's click only selects: it cannot move the enemy
    other.select_hex(dest.id)
    assert other.selected_unit == uid and room.version == 1


def test_seat_stores_on_the_real_room_manager(tmp_path):
    from wargame.rooms import RoomManager

    with RoomManager(tmp_path / "rooms.sqlite") as manager:
        room = manager.create("memoir44-1", seed=44)
        allied = seat_store(room, room.seats["allied"])
        axis = seat_store(room, room.seats["axis"])
        heard: list[int] = []
        axis.on_change = lambda: heard.append(1)
        play = next(a for a in allied.legal if a.kind == "play")
        assert not axis.act(play) and axis.error and room.version == 0
        assert allied.act(play) and room.version == 1 and heard
        assert axis.sync()
        assert axis.state.fingerprint() == room.state().fingerprint()
        axis.close()
        allied.close()


def test_a_seats_own_act_tells_the_other_pages_but_not_its_own(tmp_path):
    """Issue #31: the acting page syncs itself when the room answers; a sync scheduled in its
    session during the act would wait there for the store's lock (held by the act) and hold up
    the server's other pages. Another tab of the same seat and the other seat are told."""
    from wargame.rooms import RoomManager

    with RoomManager(tmp_path / "rooms.sqlite", start_computers=False) as manager:
        room = manager.create("memoir44-1", seed=44)
        allied = seat_store(room, room.seats["allied"])
        tab = seat_store(room, room.seats["allied"])  # the same seat in another tab
        axis = seat_store(room, room.seats["axis"])
        told = {"allied": 0, "tab": 0, "axis": 0}
        for name, store in (("allied", allied), ("tab", tab), ("axis", axis)):
            store.on_change = lambda name=name: told.__setitem__(name, told[name] + 1)
        play = next(a for a in allied.legal if a.kind == "play")
        assert allied.act(play) and room.version == 1
        assert told == {"allied": 0, "tab": 1, "axis": 1}
        assert allied.version == 1  # the act synced its own store
        assert tab.sync() and axis.sync()
        assert tab.state.fingerprint() == axis.state.fingerprint() == room.state().fingerprint()
        for store in (allied, tab, axis):
            store.close()
