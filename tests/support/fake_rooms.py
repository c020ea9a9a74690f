"""An in-memory stand-in for ``wargame.rooms.Room`` (its API: docs/rooms-seats.md) for the seat
stores' tests that do not need SQLite: one authoritative state, seats with
tokens, the side-to-act check, the expected-version check, subscribers."""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from wargame.errors import IllegalAction, NotYourTurn
from wargame.games import open_game


class FakeSeatRefused(IllegalAction):
    pass


@dataclass(frozen=True)
class FakeSeat:
    name: str
    token: str
    side: str | None
    computer: str | None = None
    lang: str | None = None


@dataclass(frozen=True)
class FakeChange:
    room_id: str
    version: int
    events: list
    seat: str


@dataclass
class FakeRoom:
    game_id: str
    seed: int
    id: str = "room1"
    code: str = "ABC234"
    variants: tuple[str, ...] = ()
    seats: dict[str, FakeSeat] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.game_id == "demo":  # the small demo campaign (not a catalogue game)
            from wargame.ui.model import make_game

            self.game = make_game("demo")
        else:
            self.game = open_game(self.game_id, self.variants)
        self._state = self.game.new_state(self.seed)
        self._events: list[Any] = []
        self._subs: list[Any] = []
        self._lock = threading.RLock()
        sides = self.game.sides
        for name, side in (("allied", sides[0]), ("axis", sides[1]), ("teacher", None)):
            self.seats[name] = FakeSeat(name, secrets.token_urlsafe(16), side)

    def set_language(self, seat_name: str, lang: str | None) -> FakeSeat:
        from dataclasses import replace

        self.seats[seat_name] = replace(self.seats[seat_name], lang=lang)
        return self.seats[seat_name]

    def state(self) -> Any:
        with self._lock:
            return self._state.clone()

    @property
    def version(self) -> int:
        return len(self._state.action_log)

    def seat_for(self, token: str) -> FakeSeat | None:
        return next((s for s in self.seats.values() if s.token == token), None)

    def act(self, token: str, action: Any, expected_version: int | None = None) -> list:
        with self._lock:
            seat = self.seat_for(token)
            if seat is None:
                raise FakeSeatRefused("unknown seat", "rooms")
            if seat.side is None:
                raise FakeSeatRefused("spectators cannot act", "rooms")
            if seat.side != self._state.side_to_act:
                raise NotYourTurn(f"the {self._state.side_to_act} side is to act", "rooms")
            if expected_version is not None and expected_version != self.version:
                raise FakeSeatRefused("the game moved on: refresh", "rooms")
            if isinstance(action, dict):
                action = self.game.action_from_dict(action)
            events = self._state.apply(action)
            self._events.extend(events)
            change = FakeChange(self.id, self.version, list(events), seat.name)
        for callback in list(self._subs):
            callback(change)
        return events

    def subscribe(self, callback: Any) -> Any:
        self._subs.append(callback)
        return lambda: self._subs.remove(callback) if callback in self._subs else None

    def events(self) -> list:
        return list(self._events)

    def save_text(self) -> str:
        import json

        from wargame.saves import to_save

        return json.dumps(to_save(self._state))

    def state_at(self, n: int) -> Any:
        from wargame.saves import replay

        return replay(self.game, self.seed, list(self._state.action_log)[:n])


@dataclass(frozen=True)
class FakeSummary:
    id: str
    code: str
    game_id: str
    variants: tuple[str, ...]
    created: float
    version: int
    outcome: str | None


class FakeManager:
    """``RoomManager``'s surface, in memory."""

    def __init__(self) -> None:
        self._rooms: dict[str, FakeRoom] = {}

    def create(self, game_id: str, variants=(), seed=None, computer=None,
               lang=None) -> FakeRoom:
        n = len(self._rooms) + 1
        room = FakeRoom(game_id, 7 if seed is None else int(seed), id=f"r{n}",
                        code=f"CODE{n:02d}", variants=tuple(variants))
        for name in list(room.seats):
            room.set_language(name, lang)
        self._rooms[room.id] = room
        return room

    def by_token(self, token: str):
        for room in self._rooms.values():
            seat = room.seat_for(token)
            if seat is not None:
                return room, seat
        return None

    def by_code(self, code: str):
        return next((r for r in self._rooms.values() if r.code == code.upper()), None)

    def get(self, room_id: str):
        return self._rooms.get(room_id)

    def rooms(self) -> list[FakeSummary]:
        return [FakeSummary(r.id, r.code, r.game_id, r.variants, float(i), r.version, None)
                for i, r in enumerate(self._rooms.values())]

    def delete(self, room_id: str) -> bool:
        return self._rooms.pop(room_id, None) is not None
