"""Rooms: one authoritative game on the server, a seat per side, every action stored first.

A ``Room`` holds one game state (protocol of ``wargame.protocol``, so every game works: the
campaigns with their variants, Memoir '44 scenarios) and three seats (``SEAT_NAMES``): the
Allied and Axis players and the teacher, who watches. Each seat's link carries an unguessable
token (``secrets``); a six-character room code lets students find the room by typing it.

Authority (``Room.act``, under the room's lock): the token must be a player's seat of this
room (a spectator's or an unknown token: ``SeatRefused``), the seat's side must be
``state.side_to_act``, which covers the phases and the pending decisions alike (a defence
declaration, losses or retreat after an attack belong to the defender: ``NotYourTurn``), a
view older than the game is refused (``expected_version``: two seats acting at once, one
wins), and the engine refuses illegal actions. A refusal changes nothing and stores nothing.
An accepted action is committed to SQLite (``wargame.rooms.db``) before ``act`` returns, then
the subscribers are told (``Change``). A seat held by the computer (``make_policy``) is played
by a background thread while that seat is to act, each of its actions stored and told like a
human's.

``RoomManager(path)`` opens the file and resumes the stored rooms by replaying their logs from
their seeds (``wargame.saves.replay``, the engines' fast path), each when first reached (and at
once those whose computer may have to act): after ``kill -9`` and a restart every room
continues from its last acknowledged action with the same links.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from wargame.checkpoints import Checkpoints
from wargame.errors import GameOver, IllegalAction, NotYourTurn, SeatRefused
from wargame.event_text import outcome_reason
from wargame.games import open_game
from wargame.i18n import LANGUAGES, check_language, using_language
from wargame.protocol import GameDefinition, GameState, Policy
from wargame.rooms.db import (
    RoomRow,
    RoomsBusy,
    RoomsDB,
    RoomsDBError,
    RoomsFull,
    _FileTrouble,
)
from wargame.rooms.text import TEXT, seat_word
from wargame.saves import replay, to_save
from wargame.scenario_errors import ScenarioError, short_repr

__all__ = [
    "SEAT_NAMES",
    "PLAYER_SEATS",
    "Seat",
    "Change",
    "RoomSummary",
    "Room",
    "RoomManager",
    "GameOpener",
    "CODE_ALPHABET",
]

log = logging.getLogger(__name__)

SEAT_NAMES = ("allied", "axis", "teacher")
PLAYER_SEATS = ("allied", "axis")  # game.sides[0] and game.sides[1], first player first
# no 0/O, 1/I/L: a code a student reads off the board and types without a doubt
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MAX_SEED = 2**63 - 1  # an SQLite INTEGER
MAX_COMPUTER_ACTIONS = 20_000  # one run of a computer seat: a bound, never reached in play
CHECKPOINT_EVERY = 50

GameOpener = Callable[[str, tuple[str, ...]], GameDefinition]


def default_opener(game_id: str, variants: tuple[str, ...]) -> GameDefinition:
    """``wargame.games.open_game``: every bundled id (``wargame scenario list``). The
    dashboard's synthetic ``demo`` lives in ``wargame.ui``; the UI passes its own opener."""
    return open_game(game_id, variants)


@dataclass(frozen=True)
class Seat:
    name: str            # "allied" | "axis" | "teacher"
    token: str           # secrets.token_urlsafe(16): the seat's link carries it
    side: str | None     # the game's own side ("allied", "axis"); None for the teacher
    computer: str | None  # a policy name of wargame.bots.play when the computer holds the seat
    lang: str | None = None  # the language of the seat's page (None: the server's); issue #16


@dataclass(frozen=True)
class Change:
    """What subscribers are told after every accepted action, and when the room is deleted
    (``deleted`` True, no events)."""

    room_id: str
    version: int
    events: list
    seat: str
    deleted: bool = False


@dataclass(frozen=True)
class RoomSummary:
    id: str
    code: str
    game_id: str
    variants: tuple[str, ...]
    created: float
    version: int
    outcome: str | None   # "allied won (...)" once the game is over, else None
    seed: int = 0
    side_to_act: str | None = None
    computer: dict[str, str] = field(default_factory=dict)


def outcome_text(state: GameState, names: Mapping[str, str] | None = None) -> str | None:
    """The result in words once the game is over (the winner by seat name: ``names`` maps
    the game's sides to seat names), else None."""
    if not state.is_terminal:
        return None
    o = state.outcome()
    if o.winner is None:
        return TEXT["outcome_draw"].format(reason=outcome_reason(o.reason))
    winner = (names or {}).get(o.winner, o.winner)
    return TEXT["outcome_winner"].format(winner=seat_word(winner),
                                         reason=outcome_reason(o.reason).strip(" ()"))


class Room:
    """One game between seats (module doc). Made by ``RoomManager.create`` or on resume."""

    def __init__(self, row: RoomRow, game: GameDefinition, db: RoomsDB, state: GameState,
                 actions: list[Any], action_events: list[list[Any]],
                 max_computer_actions: int = MAX_COMPUTER_ACTIONS) -> None:
        self.id = row.id
        self.code = row.code
        self.game_id = row.game_id
        self.variants = tuple(row.variants)
        self.seed = row.seed
        self.dice_version = row.dice  # the dice the room is played with (wargame.dice)
        self.created = row.created
        self.game = game
        self.seats: dict[str, Seat] = {
            name: Seat(name, str(s["token"]), s.get("side"), s.get("computer"),
                       _stored_language(s.get("lang")))
            for name, s in row.seats.items()
        }
        self._row_seats = row.seats  # the stored form (the manager's row shares it)
        self._side_seat = {s.side: s.name for s in self.seats.values() if s.side is not None}
        self._db = db
        self._lock = threading.RLock()
        self._state = state
        self._actions: list[Any] = list(actions)  # the stored log (JSON forms)
        self._action_events: list[list[Any]] = list(action_events)
        self._version = len(self._actions)
        self._subscribers: list[Callable[[Change], None]] = []
        self._changes: deque[Change] = deque()  # told in order, outside the room's lock
        self._telling = threading.Lock()
        self._checkpoints = Checkpoints(game, row.seed, CHECKPOINT_EVERY, row.dice)
        self._policies: dict[str, Policy] = {}
        self._runner: threading.Thread | None = None
        self._closed = False
        self._deleted = False
        self.max_computer_actions = max_computer_actions
        self.computer_error: str | None = None  # why the computer stopped, if it failed
        self._summary: RoomSummary | None = None  # the last one made (``summary``)
        self.summary()

    def __repr__(self) -> str:
        return f"<Room {self.id} {self.code} {self.game_id} v{self._version}>"

    # ------------------------------------------------------------------ reading
    @property
    def version(self) -> int:
        """The number of actions applied (and stored)."""
        return self._version

    @property
    def deleted(self) -> bool:
        return self._deleted

    def state(self) -> GameState:
        """A clone of the authoritative state: the caller may do anything with it."""
        with self._lock:
            return self._state.clone()

    @contextmanager
    def read(self) -> Iterator[GameState]:
        """The authoritative state itself, under the room's lock, for a quick look without
        the cost of a clone (never change it, never keep it)."""
        with self._lock:
            yield self._state

    def seat_for(self, token: str) -> Seat | None:
        if not isinstance(token, str) or not token:
            return None
        for seat in self.seats.values():
            if secrets.compare_digest(seat.token.encode(), token.encode()):
                return seat
        return None

    def seat_of_side(self, side: str | None) -> Seat | None:
        name = self._side_seat.get(side) if side is not None else None
        return self.seats[name] if name else None

    def events(self) -> list:
        """Every event the actions caused, oldest first (the set-up's events are not
        included: the dashboards' ``opening_events``)."""
        with self._lock:
            return [e for events in self._action_events for e in events]

    def events_by_action(self) -> list[list]:
        """The events of each action, one list per action (``len`` is ``version``)."""
        with self._lock:
            return [list(events) for events in self._action_events]

    def actions(self) -> list[Any]:
        """The stored action log (JSON forms), as ``state.action_log``."""
        with self._lock:
            return list(self._actions)

    def save_text(self) -> str:
        """The game as a ``wargame.saves`` file (format 2): load it in a dashboard or with
        ``wargame.saves.from_save`` to the same fingerprint."""
        with self._lock:
            return json.dumps(to_save(self._state), indent=1)

    def state_at(self, n: int) -> GameState:
        """The position after the first ``n`` actions (replayed from the nearest checkpoint)."""
        with self._lock:
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= self._version:
                raise ValueError(TEXT["state_at"].format(version=self._version, n=n))
            if n == self._version:
                return self._state.clone()
            return self._checkpoints.state_at(self._actions, n, source=f"room {self.id}")

    def summary(self) -> RoomSummary:
        """The room in one line of the teacher's list. While the room is busy (an action
        being stored, perhaps waiting for a file another program holds) the last summary is
        given at once, so the list of every room never waits for one (issue #31)."""
        if not self._lock.acquire(blocking=self._summary is None):
            return self._summary  # type: ignore[return-value]  # not None: the lock was tried without waiting only when a summary exists
        try:
            s = self._state
            self._summary = RoomSummary(
                self.id, self.code, self.game_id, self.variants, self.created, self._version,
                outcome_text(s, self._side_seat), self.seed,
                self._side_seat.get(s.side_to_act) if s.side_to_act else None,
                {n: c.computer for n, c in self.seats.items() if c.computer})
            return self._summary
        finally:
            self._lock.release()

    # ------------------------------------------------------------------ subscribers
    def subscribe(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``callback(change)`` after every accepted action (once it is stored), in the
        order of the actions, on an acting thread (the human's or the computer's) after the
        room's lock is released: a callback may read the room (``state``, ``read``) and take
        its own locks (a Bokeh document's) without a deadlock; it must be quick, and what it
        raises is logged, never raised into ``act``. Returns the unsubscribe function."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def _tell(self) -> None:
        """Tell the subscribers the changes queued by ``_accept``, oldest first; called
        without the room's lock. One thread tells at a time, so the order is the actions'."""
        with self._telling:
            while True:
                with self._lock:
                    if not self._changes:
                        return
                    change = self._changes.popleft()
                    callbacks = list(self._subscribers)
                for callback in callbacks:
                    try:
                        callback(change)
                    except Exception:  # a subscriber's failure never reaches the acting seat
                        log.exception("room %s: a subscriber failed on version %s", self.id,
                                      change.version)

    # ------------------------------------------------------------------ acting
    def act(self, token: str, action: Any, expected_version: int | None = None) -> list:
        """Play ``action`` (an engine action or its dict form) for the seat of ``token``;
        returns its events once it is stored. Refusals (module doc) change nothing."""
        seat = self.seat_for(token)
        if seat is None:
            raise SeatRefused(TEXT["unknown_token"])
        if seat.side is None:
            raise SeatRefused(TEXT["spectator"])
        if seat.computer:
            raise SeatRefused(TEXT["computer_seat"].format(seat=seat_word(seat.name)))
        with self._lock:
            if self._deleted:
                raise SeatRefused(TEXT["deleted"])
            if self._closed:
                raise SeatRefused(TEXT["closed"])
            if (isinstance(expected_version, int) and not isinstance(expected_version, bool)
                    and expected_version > self._version):  # never "-1 action(s) were played"
                raise SeatRefused(TEXT["ahead"].format(expected=expected_version,
                                                       version=self._version))
            if expected_version is not None and expected_version != self._version:
                done = (self._version - expected_version
                        if isinstance(expected_version, int) else "some")
                counted = TEXT.plural("moved_on", done if isinstance(done, int) else 2)
                raise SeatRefused(counted.format(
                    done=done, expected=short_repr(expected_version, 20), version=self._version))
            state = self._state
            if state.is_terminal:
                raise GameOver(TEXT["game_over"], "rooms")
            to_act = state.side_to_act
            if to_act != seat.side:
                pending = state.pending_decision
                raise NotYourTurn(TEXT["not_your_turn"].format(
                    seat=seat_word(seat.name), other=seat_word(self._side_seat.get(to_act, to_act)),
                    pending=(TEXT["pending"].format(kind=pending.kind, rule=pending.rule)
                             if pending is not None else "")), "rooms")
            if isinstance(action, Mapping):
                action = self.game.action_from_dict(dict(action))  # MalformedAction if not
            events = self._accept(seat, action)
        self._tell()
        self._kick()
        return events

    def _accept(self, seat: Seat, action: Any) -> list:
        """Apply, store, queue the change for ``_tell`` (under the lock). Whatever fails, the
        state stays the stored log's."""
        state = self._state
        try:
            events = state.apply(action)
        except IllegalAction:
            raise  # the engine left the state unchanged
        except Exception:
            self._rebuild()  # an engine fault may leave a half-applied action behind
            raise
        n = self._version
        try:
            # the log entry the engine just made: both engines log ``action.to_dict()`` (a
            # Memoir ``action_log`` is rebuilt on every call: O(n) per action)
            to_dict = getattr(action, "to_dict", None)
            data = json.loads(json.dumps(to_dict() if callable(to_dict) else state.action_log[n]))
            self._db.append(self.id, n, data, seat.name, time.time())
        except (RoomsBusy, RoomsFull) as exc:  # the file is held, the disk full: try again
            self._rebuild()
            log.warning("room %s: action %s not stored: %s", self.id, n, exc)
            raise SeatRefused(exc.message()) from exc
        except _FileTrouble as exc:  # damage, a disk error: each says what it is
            self._rebuild()
            log.error("room %s: action %s not stored: %s", self.id, n, exc)
            raise SeatRefused(exc.message()) from exc
        except Exception as exc:  # the disk, the file, another process: nothing is played
            self._rebuild()
            log.exception("room %s: action %s not stored", self.id, n)
            raise SeatRefused(TEXT["storage"].format(reason=short_repr(str(exc), 120))) from exc
        self._actions.append(data)
        self._action_events.append(list(events))
        self._version = n + 1
        if state.is_terminal:  # listed with its result without replaying it
            try:
                with using_language("en"):  # stored in English, whoever's seat acted
                    outcome = outcome_text(state, self._side_seat)
                self._db.set_outcome(self.id, outcome)
            except Exception:  # the action itself is stored: the note can wait for a replay
                log.exception("room %s: the result was not noted", self.id)
        self._changes.append(Change(self.id, self._version, list(events), seat.name))
        return events

    def _rebuild(self) -> None:
        """The state again from the stored log (after a failure that may have changed it)."""
        self._state = self._checkpoints.state_at(self._actions, len(self._actions),
                                                 source=f"room {self.id}")

    # ------------------------------------------------------------------ languages
    def set_language(self, seat_name: str, lang: str | None) -> Seat:
        """Make ``lang`` the language of the seat's page from now on (stored in the room's
        row, so the seat's link opens in it after a restart); None: the server's. Returns
        the seat as it is now. A bad seat name or language is a ``ValueError``."""
        if seat_name not in self.seats:
            raise ValueError(TEXT["seat_name"].format(seats=", ".join(SEAT_NAMES),
                                                      seat=short_repr(seat_name, 20)))
        try:
            chosen = check_language(lang) if lang is not None else None
        except ValueError:
            raise ValueError(TEXT["language"].format(languages=", ".join(LANGUAGES),
                                                     lang=short_repr(lang, 20))) from None
        with self._lock:
            seat = self.seats[seat_name]
            if seat.lang == chosen:
                return seat
            self._db.set_seat_language(self.id, seat_name, chosen)
            seat = replace(seat, lang=chosen)
            self.seats[seat_name] = seat
            if isinstance(self._row_seats.get(seat_name), dict):
                self._row_seats[seat_name]["lang"] = chosen
            return seat

    # ------------------------------------------------------------------ computer seats
    def _computer_seat(self) -> Seat | None:
        s = self._state
        if self._closed or self._deleted or s.is_terminal:
            return None
        seat = self.seat_of_side(s.side_to_act)
        return seat if seat is not None and seat.computer else None

    def _policy(self, seat: Seat) -> Policy:
        if seat.name not in self._policies:
            from wargame.bots.play import make_policy

            self._policies[seat.name] = make_policy(self.game, str(seat.computer), self.seed)
        return self._policies[seat.name]

    def _kick(self) -> None:
        """Start the computer's thread if a computer seat is to act and none runs."""
        with self._lock:
            if self._runner is not None or self._computer_seat() is None:
                return
            self._runner = threading.Thread(target=self._run_computer, daemon=True,
                                            name=f"room-{self.id}-computer")
            self._runner.start()

    def _run_computer(self) -> None:
        played = 0
        try:
            while played < self.max_computer_actions:
                with self._lock:
                    seat = self._computer_seat()
                    if seat is None:
                        return
                    policy = self._policy(seat)
                    position, version = self._state.clone(), self._version
                action = policy.choose(position)  # outside the lock: readers are not held up
                with self._lock:
                    if self._version != version or self._computer_seat() is not seat:
                        continue
                    self._accept(seat, action)
                self._tell()
                played += 1
            log.warning("room %s: the computer stopped after %s actions", self.id, played)
        except Exception as exc:
            self.computer_error = short_repr(str(exc), 200)
            log.exception("room %s: the computer player failed", self.id)
        finally:
            with self._lock:
                self._runner = None

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no computer seat is playing; False if ``timeout`` passed first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                runner = self._runner
            if runner is None:
                return True
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            runner.join(left)

    def _close(self, deleted: bool = False) -> None:
        with self._lock:
            self._closed = True
            if deleted:
                self._deleted = True
                self._changes.append(Change(self.id, self._version, [], "", deleted=True))
            runner = self._runner
        self._tell()
        if runner is not threading.current_thread():
            self.wait_idle(10.0)


class RoomManager:
    """Every room of one SQLite file (module doc). ``games`` makes a game definition from a
    room's ``game_id`` and variants (default ``wargame.games.open_game``).

    Rooms are resumed (replayed) when first reached (``get``, ``by_token``, ``by_code``), and
    at opening those whose computer seat may have to act, so a file with a year of finished
    games opens at once; ``rooms()`` lists them from the file, ``load_all()`` replays them
    all. A room that no longer replays is left out, its reason in ``unloaded``.

    One manager serves a file: it holds the file's lock (``wargame.rooms.db.ServerLock``), and
    a second one, in this process or another, is refused (``RoomsServed``, naming the file and
    the other process) before it reads the file. ``read_only`` (``wargame rooms list|export``):
    no lock, a ``mode=ro`` connection, no computer plays, nothing is written; it works on a
    file a server holds and on a read-only file.

    Locks: the manager's lock guards its indexes only, never a read or write of the file or a
    replay; a room is resumed under its own lock (``_loading``), so one room's slow resume or
    stuck write holds up no other room's page."""

    def __init__(self, db_path: str | Path, *, games: GameOpener | None = None,
                 max_computer_actions: int = MAX_COMPUTER_ACTIONS,
                 start_computers: bool = True, read_only: bool = False) -> None:
        self.db_path = Path(db_path)
        self._opener = games or default_opener
        self.max_computer_actions = max_computer_actions
        self.read_only = read_only
        self.start_computers = start_computers and not read_only
        self._games: dict[tuple[str, tuple[str, ...]], GameDefinition] = {}
        self._lock = threading.RLock()
        self._rows: dict[str, RoomRow] = {}  # every stored room, resumed or not
        self._counts: dict[str, int] = {}    # stored actions of the rooms not resumed yet
        self._rooms: dict[str, Room] = {}    # the resumed rooms
        self._tokens: dict[str, tuple[str, str]] = {}
        self._codes: dict[str, str] = {}
        self.unloaded: dict[str, str] = {}  # rooms that could not be resumed: id -> why
        self._loading: dict[str, threading.Lock] = {}  # a lock per room being resumed
        self._creating = threading.Lock()  # one new room at a time (its code is unique)
        self.db = RoomsDB(self.db_path, read_only=read_only, exclusive=not read_only)
        try:
            rows = self.db.rooms(bad=self.unloaded)
            self._counts = self.db.action_counts()
            for row in rows:
                self._index(row)
            for row in rows:  # a computer seat may be to act: resume now, it plays on
                if self.start_computers and row.outcome is None and any(
                        s.get("computer") for s in row.seats.values() if isinstance(s, dict)):
                    self._load(row.id)
        except BaseException:
            self.db.close()
            raise

    def _index(self, row: RoomRow) -> None:
        """Know a stored room by id, code and tokens (without replaying it)."""
        with self._lock:
            self._rows[row.id] = row
            self._codes[row.code.upper()] = row.id
            for name, seat in row.seats.items():
                if isinstance(seat, dict) and isinstance(seat.get("token"), str):
                    self._tokens[seat["token"]] = (row.id, name)

    def _game(self, game_id: str, variants: tuple[str, ...]) -> GameDefinition:
        key = (game_id, tuple(variants))
        with self._lock:
            if key not in self._games:
                self._games[key] = self._opener(game_id, tuple(variants))
            return self._games[key]

    def _load(self, room_id: str) -> Room | None:
        """The room, resumed on first use (None: no such room, or it does not replay). The
        replay runs under the room's own loading lock, not the manager's."""
        with self._lock:
            room = self._rooms.get(room_id)
            if room is not None or room_id in self.unloaded or room_id not in self._rows:
                return room
            loading = self._loading.setdefault(room_id, threading.Lock())
        with loading:
            with self._lock:
                room = self._rooms.get(room_id)
                row = self._rows.get(room_id)
                if room is not None or room_id in self.unloaded or row is None:
                    return room
            room = self._resume(row)  # reads the file and replays: no manager lock held
            with self._lock:
                self._loading.pop(room_id, None)
                if room is None or room_id not in self._rows:  # deleted meanwhile
                    return None
                self._rooms[room_id] = room
                self._counts.pop(room_id, None)
        if self.start_computers:
            room._kick()
        return room

    def load_all(self) -> list[Room]:
        """Resume every stored room (the rooms that do not replay go to ``unloaded``)."""
        with self._lock:
            ids = list(self._rows)
        return [room for room in map(self._load, ids) if room is not None]

    def _resume(self, row: RoomRow) -> Room | None:
        source = f"{self.db_path} room {row.id}"
        action_events: list[list[Any]] = []
        try:
            actions = [a.action for a in self.db.actions(row.id)]
            seats = {name: (str(s["token"]), s.get("side"), s.get("computer"))
                     for name, s in row.seats.items()}
            if set(seats) != set(SEAT_NAMES):
                raise RoomsDBError(self.db_path, f"rooms[{row.id}].seats",
                                   TEXT["db.seats"].format(seats=", ".join(SEAT_NAMES)),
                                   sorted(seats))
            game = self._game(row.game_id, row.variants)
            sides = dict(zip(PLAYER_SEATS, game.sides, strict=True))
            if any(seats[name][1] != sides.get(name) for name in SEAT_NAMES):
                raise RoomsDBError(self.db_path, f"rooms[{row.id}].seats",
                                   TEXT["db.sides"].format(sides=sides, game=row.game_id))
            state = replay(game, row.seed, actions, source, dice_version=row.dice,
                           on_action=lambda i, s, events: action_events.append(list(events)))
        except (ScenarioError, ValueError, KeyError, TypeError, FileNotFoundError,
                IllegalAction) as exc:
            if isinstance(exc, RoomsDBError) and exc.field == "(file)":
                raise  # the file itself is damaged: no room can be trusted
            why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            self.unloaded[row.id] = why
            log.warning("%s: not resumed: %s", source, why)
            return None
        return Room(row, game, self.db, state, actions, action_events,
                    self.max_computer_actions)

    # ------------------------------------------------------------------ rooms
    def create(self, game_id: str, variants: Sequence[str] = (), seed: int | None = None,
               computer: Mapping[str, str] | None = None, lang: str | None = None) -> Room:
        """A new room of ``game_id`` (a bundled id; ``variants`` for the campaigns), stored at
        once. ``computer`` maps a player seat to a policy name (``{"axis": "greedy"}``).
        ``lang``: the language every seat's page opens in (each seat may change its own:
        ``Room.set_language``); None: the server's."""
        computer = dict(computer or {})
        if lang is not None:
            try:
                lang = check_language(lang)
            except ValueError:
                raise ValueError(TEXT["language"].format(languages=", ".join(LANGUAGES),
                                                         lang=short_repr(lang, 20))) from None
        if isinstance(variants, str):
            variants = (variants,)
        variants = tuple(str(v) for v in variants)
        for name in computer:
            if name not in PLAYER_SEATS:
                raise ValueError(TEXT["computer_seat_name"].format(seat=name))
        if all(computer.get(name) for name in PLAYER_SEATS):  # nobody would ever act
            raise ValueError(TEXT["computer_both"])
        if seed is None:
            seed = secrets.randbelow(2**31)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ValueError(TEXT["seed"].format(high=MAX_SEED, seed=seed))
        game = self._game(str(game_id), variants)
        from wargame.bots.play import make_policy

        for policy in computer.values():
            make_policy(game, policy, seed)  # an unknown name: ValueError naming the known
        variants = tuple(game.options_json().get("variants") or variants)
        with self._creating:  # not the manager's lock: the other rooms' pages go on
            room_id = _new_room_id()
            taken = self.db.codes()
            code = _new_code(taken)
            sides = dict(zip(PLAYER_SEATS, game.sides, strict=True))
            seats = {name: {"token": secrets.token_urlsafe(16), "side": sides.get(name),
                            "computer": computer.get(name), "lang": lang}
                     for name in SEAT_NAMES}
            row = RoomRow(room_id, code, str(game_id), variants,
                          json.loads(json.dumps(game.options_json())), seed, time.time(), seats)
            self.db.insert_room(row)  # stored first: a refusal (busy, full) leaves no room
            room = Room(row, game, self.db, game.new_state(seed, row.dice), [], [],
                        self.max_computer_actions)
            with self._lock:
                self._index(row)
                self._rooms[room_id] = room
        room._kick()
        return room

    def get(self, room_id: str) -> Room | None:
        if not isinstance(room_id, str):
            return None
        return self._load(room_id)

    def by_token(self, token: str) -> tuple[Room, Seat] | None:
        if not isinstance(token, str):
            return None
        with self._lock:
            found = self._tokens.get(token)
        if found is None:
            return None
        room = self._load(found[0])
        return None if room is None else (room, room.seats[found[1]])

    def by_code(self, code: str) -> Room | None:
        if not isinstance(code, str):
            return None
        with self._lock:
            room_id = self._codes.get(code.strip().upper())
        return self._load(room_id) if room_id else None

    def rooms(self) -> list[RoomSummary]:
        """A summary of every room that is not deleted, oldest first (a room not resumed yet
        is summarised from the file: its ``side_to_act`` is None)."""
        with self._lock:
            rows = sorted((r for r in self._rows.values() if r.id not in self.unloaded),
                          key=lambda r: (r.created, r.id))
            rooms = {r.id: self._rooms.get(r.id) for r in rows}
            counts = dict(self._counts)
        out = []
        for row in rows:
            room = rooms[row.id]
            if room is not None:
                out.append(room.summary())
            else:
                out.append(RoomSummary(
                    row.id, row.code, row.game_id, row.variants, row.created,
                    counts.get(row.id, 0), row.outcome, row.seed, None,
                    {n: s["computer"] for n, s in row.seats.items() if s.get("computer")}))
        return out

    def delete(self, room_id: str) -> bool:
        """Delete a room (marked deleted in the file: its links and code stop working);
        subscribers get a ``Change`` with ``deleted`` True. False if there is no such room."""
        stored = self.db.mark_deleted(room_id)  # first: a refusal (busy, full) changes nothing
        with self._lock:
            row = self._rows.pop(room_id, None)
            room = self._rooms.pop(room_id, None)
            if row is not None:
                self._codes.pop(row.code.upper(), None)
                for seat in row.seats.values():
                    if isinstance(seat, dict):
                        self._tokens.pop(seat.get("token"), None)
            self._counts.pop(room_id, None)
            self.unloaded.pop(room_id, None)
        if room is not None:
            room._close(deleted=True)
        return stored or row is not None

    def close(self) -> None:
        """Stop the computer seats and close the file (every action is already stored)."""
        with self._lock:
            rooms = list(self._rooms.values())
        for room in rooms:  # every computer told to stop first, then waited for
            with room._lock:
                room._closed = True
        for room in rooms:
            room._close()
        self.db.close()

    def __enter__(self) -> RoomManager:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _stored_language(value: Any) -> str | None:
    """A seat's stored language; None when missing (a file from before issue #16) or not one
    of ours (the page then opens in the server's language)."""
    if not isinstance(value, str):
        return None
    try:
        return check_language(value)
    except ValueError:
        return None


def _new_code(taken: set[str]) -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def _new_room_id() -> str:
    """A room's id: 12 URL-safe characters, never starting with "-", which a command line
    reads as an option (``wargame rooms delete -Xb3…`` was refused with "the following
    arguments are required: ROOM_ID"; 1 room in 64 had such an id)."""
    while True:
        room_id = secrets.token_urlsafe(9)
        if not room_id.startswith("-"):
            return room_id
