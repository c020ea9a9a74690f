"""A room's seat as a dashboard store: ``CampaignSeatStore`` and ``MemoirSeatStore``.

The room (``wargame.rooms.Room``) holds the one authoritative state on the server; a seat's
store only shows it. Its ``act`` sends the action to ``room.act(token, action,
expected_version)``, which decides (the seat's side must be the one to act; a stale version
loses against the other seat's action) and stores it in SQLite before answering; the store
then copies the room's state (``room.state()`` is a clone: the store never mutates the room's
own). A refusal (``NotYourTurn``, ``SeatRefused``, the engine's ``IllegalAction``) shows in the
message bar and changes nothing.

The other seats learn of a change through ``room.subscribe``: the callback runs on the acting
thread (another session's, or the room's computer player), keeps the change's events and calls
``on_change`` (not for the store's own act, which syncs itself when the room answers) (the seat page schedules ``sync`` in its own Bokeh session:
``wargame.ui.room_page``). ``sync`` brings the store to the room's version: the new events when
every change in between was heard, else a replay of the room's log (a page loaded late, or a
missed notification).

In a room there is no undo, no load, no new game and no computer switch: the room's log is the
game every seat shares (docs/rooms-seats.md). No Panel import here.

Language (issue #16): a seat's store has its own ``lang`` (``seat_store(room, seat, lang)``;
default the seat's stored language, else the current one). Its commands, its ``sync`` and its
watchers run in it (``GameStore.batch``), so two seats of one room read the same game each in
its own language at the same time, and a refusal of the room reaches a seat in its language.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from wargame.errors import IllegalAction
from wargame.paths import MEMOIR_PREFIX
from wargame.protocol import GameState
from wargame.ui.memoir_model import MemoirStore
from wargame.ui.model import CampaignState
from wargame.ui.store import TEACHER, GameStore
from wargame.ui.text import ROOMS

STALE_CLICK_S = 0.5
"""A command arriving this soon after the same seat acted from another tab was made on the
page as it was before (issue #27: two tabs of one seat pressing at once; the room's version
guard cannot see it once this page has synced; nobody reads a new position in half a
second). News from the other side does not hold a seat back."""

__all__ = ["STALE_CLICK_S", "SeatMixin", "CampaignSeatStore", "MemoirSeatStore", "seat_store",
           "viewer_of", "replay_store", "show_position", "memoir_replay_store",
           "campaign_replay_store"]


def viewer_of(seat: Any) -> str:
    """The store's ``viewer`` for a room's seat: the game's side, or 'teacher'."""
    return TEACHER if seat.side is None else str(seat.side)


class SeatMixin:
    """What turns a dashboard store into a room's seat (mixed in before the store class)."""

    room: Any
    token: str
    on_change: Callable[[], None] | None

    def _init_seat(self, room: Any, token: str) -> None:
        self.room = room
        self.token = token
        self.on_change = None
        self._heard: dict[int, list[Any]] = {}  # version -> the events of that change
        self._heard_lock = threading.Lock()
        self._closed = False
        seat = room.seat_for(token)
        self._seat_name = seat.name if seat is not None else None
        self._news_at = float("-inf")  # when this seat last acted from another tab
        self._acting = False  # inside this session's own room.act
        self.sync()
        self._unsubscribe: Callable[[], None] | None = room.subscribe(self._notified)

    # ------------------------------------------------------------------ the room's news
    def _notified(self, change: Any) -> None:
        """Called by the room on the acting thread: quick, and never raises into ``act``."""
        try:
            with self._heard_lock:
                self._heard[int(change.version)] = list(change.events)
            if self._acting:
                # this store's own act, on this thread: the act syncs when the room answers.
                # A sync scheduled in the page's session now would wait there for the store's
                # lock, which the act holds, and hold up every page of the server meanwhile
                # (issue #31: bench/rooms.py)
                return
            if change.seat == self._seat_name:
                self._news_at = time.monotonic()  # this seat, from another tab
            callback = self.on_change
            if callback is not None and not self._closed:
                callback()
        except Exception:  # noqa: BLE001 - a broken page must not break another seat's act
            pass

    def close(self) -> None:
        """Stop listening to the room (the session ended)."""
        self._closed = True
        self.on_change = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    @property
    def version(self) -> int:
        return len(self.state.action_log)  # type: ignore[attr-defined]  # a mixin of GameStore, whose state this is

    def sync(self) -> bool:
        """Bring the store to the room's position; True when it changed."""
        store: GameStore = self  # type: ignore[assignment]  # this mixin is only mixed into a GameStore
        with store.batch():
            state: GameState = self.room.state()
            new_version = len(state.action_log)
            first = not getattr(self, "_synced", False)
            mine = self.version
            if not first and new_version == mine:
                return False
            with self._heard_lock:
                heard = [self._heard.get(v) for v in range(mine + 1, new_version + 1)]
                for v in [v for v in self._heard if v <= new_version]:
                    del self._heard[v]
            got = [h for h in heard if h is not None]
            if not first and new_version > mine and len(got) == len(heard):
                store.state = state
                store._record([list(h) for h in got])
                store._position_changed(signal_state=False)
                news = [e for h in got for e in h]
                if news:
                    store.say(store.news(news))  # in this seat's words
            else:  # a new page, or changes not heard: the room's log replayed
                events, marks = store.replay_events(state)
                store.clear_selection()
                store._set_state(state, events, marks)
            self._synced = True
            return True

    # ------------------------------------------------------------------ commands
    def act(self, action: Any) -> bool:
        """Send the action to the room; a refusal shows its reason and changes nothing."""
        store: GameStore = self  # type: ignore[assignment]  # this mixin is only mixed into a GameStore
        with store.batch():
            if time.monotonic() - self._news_at < STALE_CLICK_S:
                self.sync()  # show where the game is now
                store.say(ROOMS["look_again"], error=True)  # one act per version shown
                return False
            before = self.version
            self._acting = True  # the room tells this store too, inside room.act
            try:
                events = self.room.act(self.token, action, expected_version=before)
            except IllegalAction as exc:
                store.refuse(exc)
                message, error = store.message, store.error
                self.sync()  # the refusal may say the game moved on: show where it is now
                store.say(message, error)
                return False
            finally:
                self._acting = False
            with self._heard_lock:
                self._heard.setdefault(before + 1, list(events))
            self.sync()
            store.say(store.action_message(action, list(events)))
        return True

    def _not_in_room(self) -> bool:
        store: GameStore = self  # type: ignore[assignment]  # this mixin is only mixed into a GameStore
        with store.batch():  # in the store's language
            store.say(ROOMS["room_no_undo"], error=True)
        return False

    def undo(self, steps: int = 1) -> bool:
        return self._not_in_room()

    def load_text(self, text: str | bytes) -> bool:
        return self._not_in_room()

    def restart(self, seed: int, game: Any = None) -> None:
        self._not_in_room()

    def computer_play(self, limit: int = 5000) -> int:
        return 0  # the room plays its computer seats (wargame.rooms)


class CampaignSeatStore(SeatMixin, CampaignState):
    """A campaign (Normandy, Dragoon) seat of a room."""

    def __init__(self, room: Any, token: str, viewer: str | None,
                 lang: str | None = None) -> None:
        CampaignState.__init__(self, room.game, seed=room.seed, viewer=viewer, lang=lang)
        self._init_seat(room, token)


class MemoirSeatStore(SeatMixin, MemoirStore):
    """A Memoir '44 seat of a room."""

    def __init__(self, room: Any, token: str, viewer: str | None,
                 lang: str | None = None) -> None:
        scenario = str(room.game_id).removeprefix(MEMOIR_PREFIX)
        MemoirStore.__init__(self, scenario, seed=room.seed, viewer=viewer, lang=lang)
        self.game = room.game
        self._init_seat(room, token)


def seat_store(room: Any, seat: Any, lang: str | None = None) -> SeatMixin:
    """The store of ``seat`` (a ``wargame.rooms.Seat``) in ``room``, in ``lang`` (default: the
    seat's own language, else the current one), of the game's family (``wargame.registry``)."""
    from wargame.registry import family_of, resolve

    cls = resolve(family_of(str(room.game_id)).seat_store)
    return cls(room, seat.token, viewer_of(seat), lang or getattr(seat, "lang", None))


class _ReplayMixin:
    """A read-only store: the teacher's replay of a room (``show_position``)."""

    def act(self, action: Any) -> bool:
        store: GameStore = self  # type: ignore[assignment]  # this mixin is only mixed into a GameStore
        with store.batch():  # in the store's language
            store.say(ROOMS["room_no_undo"], error=True)
        return False

    def undo(self, steps: int = 1) -> bool:
        return self.act(None)

    def load_text(self, text: str | bytes) -> bool:
        return self.act(None)

    def restart(self, seed: int, game: Any = None) -> None:
        self.act(None)

    def computer_play(self, limit: int = 5000) -> int:
        return 0


class CampaignReplayStore(_ReplayMixin, CampaignState):
    pass


class MemoirReplayStore(_ReplayMixin, MemoirStore):
    pass


def replay_store(room: Any, lang: str | None = None) -> GameStore:
    """A read-only teacher's store of ``room``'s game (positions set by ``show_position``), in
    ``lang`` (None: the current language), of the game's family (``wargame.registry``)."""
    from wargame.registry import family_of, resolve

    return resolve(family_of(str(room.game_id)).replay_store)(room, lang)


def memoir_replay_store(room: Any, lang: str | None = None) -> GameStore:
    store: GameStore = MemoirReplayStore(str(room.game_id).removeprefix(MEMOIR_PREFIX),
                                         seed=room.seed, viewer=TEACHER, lang=lang)
    store.game = room.game
    return store


def campaign_replay_store(room: Any, lang: str | None = None) -> GameStore:
    return CampaignReplayStore(room.game, seed=room.seed, viewer=TEACHER, lang=lang)


def show_position(store: GameStore, room: Any, n: int) -> None:
    """Show the position after ``n`` of the room's actions (``Room.state_at``) with its log."""
    state = room.state_at(n)
    by_action = getattr(room, "events_by_action", None)
    with store.batch():
        if callable(by_action):
            events = list(store.opening_events(room.game.new_state(room.seed,
                                                                   room.dice_version)))
            marks: list[int] = []
            for action_events in by_action()[:n]:
                marks.append(len(events))
                events.extend(action_events)
        else:
            events, marks = store.replay_events(state)
        store.clear_selection()
        store._set_state(state, events, marks)
        store.say(f"{n} / {room.version}")
