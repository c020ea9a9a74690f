"""The rooms' SQLite file: every room and every accepted action, committed as it happens.

Schema (version 2)::

    meta    (key TEXT PRIMARY KEY, value TEXT)          format = wargame-rooms, schema_version
    rooms   (id, code UNIQUE, game_id, variants JSON, options JSON, seed, created,
             seats JSON {name: {token, side, computer, lang}}, deleted 0/1,
             outcome: the result in words once the game is over, else NULL,
             dice: the version of the room's dice, wargame.dice)
    actions (room_id, n, action JSON, seat, time)       PRIMARY KEY (room_id, n)

A seat's ``lang`` (issue #16: the language its page opens in, "en" or "pt") is a key of its
JSON, absent from files written before it: such a seat opens in the server's language, so old
files open unchanged, with no migration (the schema version stays 1).

Version 2 (issue 30) added ``rooms.dice``, the dice version the room is played with
(``wargame.dice``): a room replays from its seed, so its dice must be those it was played
with. A file of version 1 is migrated when opened: the column is added with 1, the dice of
every room created before it, and the file marked version 2 (so an older wargame, which
would replay those rooms with the wrong dice, refuses it by its version).

A room is the save format of the protocol spread over rows: its game, seed and the action
log (``wargame.saves``); the position is never stored, it is replayed on opening. The file is
in WAL mode with ``synchronous=FULL``: ``append`` returns once the action's commit is on disk,
so an action acknowledged to a seat survives ``kill -9`` and a power cut. One connection is
shared by the threads of a ``RoomManager`` behind a lock (SQLite serialises writers anyway).

A file that is not this database (another SQLite database, a damaged file, any other file, a
newer schema) is refused with one ``RoomsDBError`` line naming the file and what was expected.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame.dice import DICE_VERSION, check_dice_version
from wargame.rooms.text import TEXT
from wargame.scenario_errors import ScenarioError

__all__ = ["RoomsDB", "RoomsDBError", "RoomRow", "StoredAction", "SCHEMA_VERSION", "DB_FORMAT"]

DB_FORMAT = "wargame-rooms"
SCHEMA_VERSION = 2
SQLITE_HEADER = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE rooms (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    game_id TEXT NOT NULL,
    variants TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created REAL NOT NULL,
    seats TEXT NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0,
    outcome TEXT,
    dice INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE actions (
    room_id TEXT NOT NULL REFERENCES rooms(id),
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    seat TEXT NOT NULL,
    time REAL NOT NULL,
    PRIMARY KEY (room_id, n)
) WITHOUT ROWID;
"""


class RoomsDBError(ScenarioError):
    """The rooms file cannot be used: names the file, the part and what was expected (one
    line; a ``ScenarioError``, so the CLI's guard prints it without a traceback)."""


@dataclass(frozen=True)
class RoomRow:
    """One stored room (``seats``: seat name -> {"token", "side", "computer", "lang"})."""

    id: str
    code: str
    game_id: str
    variants: tuple[str, ...]
    options: dict[str, Any]
    seed: int
    created: float
    seats: dict[str, dict[str, Any]] = field(default_factory=dict)
    deleted: bool = False
    outcome: str | None = None
    dice: int = DICE_VERSION


@dataclass(frozen=True)
class StoredAction:
    n: int
    action: Any
    seat: str
    time: float


def _expected() -> str:
    return TEXT["db.expected"].format(version=SCHEMA_VERSION)


class RoomsDB:
    """The SQLite file of a ``RoomManager`` (module doc). Opening checks what the file is."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._check_file()
        try:
            self._conn = sqlite3.connect(str(self.path), check_same_thread=False, timeout=30.0)
        except sqlite3.Error as exc:
            raise RoomsDBError(self.path, "(file)", TEXT["db.cannot_open"], str(exc)) from None
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            reason = str(exc)
            if "not a database" in reason:
                raise RoomsDBError(self.path, "(file)", _expected(), TEXT["db.not_sqlite"]) from None
            if isinstance(exc, sqlite3.OperationalError) and ("unable to open" in reason
                                                              or "readonly" in reason):
                raise RoomsDBError(self.path, "(file)", TEXT["db.cannot_open"], reason) from None
            raise RoomsDBError(self.path, "(file)", _expected(),
                               TEXT["db.corrupt"].format(reason=reason)) from None
        except RoomsDBError:
            self._conn.close()
            raise

    # ------------------------------------------------------------------ opening
    def _check_file(self) -> None:
        if self.path.is_dir():
            raise RoomsDBError(self.path, "(file)", _expected(), TEXT["db.folder"])
        if self.path.exists():
            try:
                with self.path.open("rb") as fh:
                    head = fh.read(len(SQLITE_HEADER))
            except OSError as exc:
                raise RoomsDBError(self.path, "(file)", _expected(),
                                   exc.strerror or type(exc).__name__) from None
            if head and head != SQLITE_HEADER:
                raise RoomsDBError(self.path, "(file)", _expected(), TEXT["db.not_sqlite"])
        elif not self.path.parent.is_dir():
            raise RoomsDBError(self.path, "(file)", _expected(),
                               TEXT["db.no_folder"].format(folder=self.path.parent))

    def _open(self) -> None:
        c = self._conn
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            c.execute("PRAGMA journal_mode=WAL")
            c.executescript("BEGIN;" + _SCHEMA + "COMMIT;")
            c.executemany("INSERT INTO meta VALUES (?, ?)",
                          [("format", DB_FORMAT), ("schema_version", str(SCHEMA_VERSION))])
            c.commit()
            tables = {"meta", "rooms", "actions"}
        elif "meta" not in tables:
            raise RoomsDBError(self.path, "(tables)", _expected(),
                               TEXT["db.foreign"].format(tables=", ".join(sorted(tables))))
        meta = dict(c.execute("SELECT key, value FROM meta"))
        if meta.get("format") != DB_FORMAT:
            raise RoomsDBError(self.path, "meta.format", repr(DB_FORMAT), meta.get("format"))
        try:
            version = int(meta.get("schema_version", ""))
        except ValueError:
            raise RoomsDBError(self.path, "meta.schema_version", _expected(),
                               meta.get("schema_version")) from None
        if version > SCHEMA_VERSION or version < 1:
            raise RoomsDBError(self.path, "meta.schema_version",
                               TEXT["db.version"].format(version=SCHEMA_VERSION), version)
        missing = {"rooms", "actions"} - tables
        if missing:
            raise RoomsDBError(self.path, "(tables)", _expected(),
                               TEXT["db.missing_tables"].format(
                                   tables=", ".join(sorted(missing))))
        check = c.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise RoomsDBError(self.path, "(file)", _expected(),
                               TEXT["db.corrupt"].format(reason=check))
        if version < 2:  # module doc: the rooms of a version-1 file were played with dice 1
            c.executescript("BEGIN; ALTER TABLE rooms ADD COLUMN dice INTEGER NOT NULL DEFAULT 1;"
                            "UPDATE meta SET value = '2' WHERE key = 'schema_version'; COMMIT;")
        c.execute("PRAGMA journal_mode=WAL")
        c.execute("PRAGMA synchronous=FULL")  # an acknowledged action is on disk
        c.execute("PRAGMA foreign_keys=ON")

    @contextmanager
    def _use(self) -> Iterator[sqlite3.Connection]:
        """The connection under the lock; a damaged file met later is a ``RoomsDBError``."""
        with self._lock:
            try:
                yield self._conn
            except sqlite3.IntegrityError:
                self._conn.rollback()
                raise
            except sqlite3.DatabaseError as exc:
                self._conn.rollback()
                raise RoomsDBError(self.path, "(file)", _expected(),
                                   TEXT["db.corrupt"].format(reason=exc)) from None

    # ------------------------------------------------------------------ reading
    def rooms(self, include_deleted: bool = False,
              bad: dict[str, str] | None = None) -> list[RoomRow]:
        """The stored rooms, oldest first; a row that cannot be read is left out and, when
        ``bad`` is given, noted there (room id -> the one-line reason)."""
        sql = ("SELECT id, code, game_id, variants, options, seed, created, seats, deleted, "
               "outcome, dice "
               "FROM rooms" + ("" if include_deleted else " WHERE deleted = 0")
               + " ORDER BY created, id")
        with self._use() as c:
            rows = c.execute(sql).fetchall()
        out = []
        for r in rows:
            try:
                out.append(self._room_row(r))
            except RoomsDBError as exc:
                if bad is None:
                    raise
                bad[str(r[0])] = str(exc)
        return out

    def _room_row(self, r: tuple) -> RoomRow:
        rid = r[0]
        try:
            variants, options, seats = json.loads(r[3]), json.loads(r[4]), json.loads(r[7])
        except (TypeError, json.JSONDecodeError):
            raise RoomsDBError(self.path, f"rooms[{rid}]", TEXT["db.json"],
                               TEXT["db.not_json"]) from None
        if not (isinstance(variants, list) and isinstance(options, dict)
                and isinstance(seats, dict)):
            raise RoomsDBError(self.path, f"rooms[{rid}]",
                               TEXT["db.shapes"])
        try:
            return RoomRow(str(rid), str(r[1]), str(r[2]), tuple(map(str, variants)), options,
                           int(r[5]), float(r[6]), seats, bool(r[8]),
                           None if r[9] is None else str(r[9]), check_dice_version(r[10]))
        except (TypeError, ValueError):
            raise RoomsDBError(self.path, f"rooms[{rid}]", TEXT["db.types"],
                               r[1:7]) from None

    def actions(self, room_id: str) -> list[StoredAction]:
        with self._use() as c:
            rows = c.execute("SELECT n, action, seat, time FROM actions WHERE room_id = ? "
                             "ORDER BY n", (room_id,)).fetchall()
        out = []
        for i, (n, text, seat, time) in enumerate(rows):
            if n != i:
                raise RoomsDBError(self.path, f"actions[{room_id}]",
                                   TEXT["db.numbered"].format(n=i), n)
            try:
                action = json.loads(text)
            except (TypeError, json.JSONDecodeError):
                raise RoomsDBError(self.path, f"actions[{room_id}][{n}]", TEXT["db.action_json"],
                                   text) from None
            out.append(StoredAction(n, action, seat, float(time)))
        return out

    def codes(self) -> set[str]:
        with self._use() as c:
            return {r[0] for r in c.execute("SELECT code FROM rooms")}

    def action_counts(self) -> dict[str, int]:
        """Room id -> number of stored actions, for every room with actions (one query)."""
        with self._use() as c:
            return {str(r[0]): int(r[1]) for r in
                    c.execute("SELECT room_id, COUNT(*) FROM actions GROUP BY room_id")}

    def count_actions(self, room_id: str) -> int:
        with self._use() as c:
            return int(c.execute("SELECT COUNT(*) FROM actions WHERE room_id = ?",
                                 (room_id,)).fetchone()[0])

    # ------------------------------------------------------------------ writing
    def insert_room(self, row: RoomRow) -> None:
        with self._use() as c:
            c.execute("INSERT INTO rooms (id, code, game_id, variants, options, seed, created, "
                      "seats, deleted, dice) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
                      (row.id, row.code, row.game_id, json.dumps(list(row.variants)),
                       json.dumps(row.options), row.seed, row.created, json.dumps(row.seats),
                       row.dice))
            c.commit()

    def append(self, room_id: str, n: int, action: Any, seat: str, time: float) -> None:
        """Store action ``n`` of the room and commit (on disk when this returns). An action
        ``n`` already stored (another process wrote this room) is an ``IntegrityError``."""
        text = json.dumps(action, separators=(",", ":"))
        with self._use() as c:
            c.execute("INSERT INTO actions (room_id, n, action, seat, time) VALUES (?, ?, ?, ?, ?)",
                      (room_id, n, text, seat, time))
            c.commit()

    def set_outcome(self, room_id: str, outcome: str | None) -> None:
        """Note the result of a finished game (listed without replaying the room)."""
        with self._use() as c:
            c.execute("UPDATE rooms SET outcome = ? WHERE id = ?", (outcome, room_id))
            c.commit()

    def set_seat_language(self, room_id: str, seat: str, lang: str | None) -> None:
        """Store the language of one seat's page (``seats[seat]["lang"]``) and commit."""
        with self._use() as c:
            row = c.execute("SELECT seats FROM rooms WHERE id = ?", (room_id,)).fetchone()
            if row is None:
                return
            seats = json.loads(row[0])
            if isinstance(seats.get(seat), dict):
                seats[seat]["lang"] = lang
                c.execute("UPDATE rooms SET seats = ? WHERE id = ?", (json.dumps(seats), room_id))
                c.commit()

    def mark_deleted(self, room_id: str) -> bool:
        with self._use() as c:
            cur = c.execute("UPDATE rooms SET deleted = 1 WHERE id = ? AND deleted = 0",
                            (room_id,))
            c.commit()
            return cur.rowcount > 0

    def close(self) -> None:
        with self._lock:
            try:
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass
            self._conn.close()
