"""The rooms' SQLite file: every room and every accepted action, committed as it happens.

Schema (version 3)::

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

Version 3 (issue #27) spells every game's sides "allied" and "axis": a Memoir '44 room of an
earlier file has "ALLIES" and "AXIS" as its seats' sides. The file is migrated when opened
(each room's seats renamed by its family's ``renamed_sides``, ``wargame.registry``, and the
file marked version 3); read-only, the seats are renamed as they are read.

A room is the save format of the protocol spread over rows: its game, seed and the action
log (``wargame.saves``); the position is never stored, it is replayed on opening. The file is
in WAL mode with ``synchronous=FULL``: ``append`` returns once the action's commit is on disk,
so an action acknowledged to a seat survives ``kill -9`` and a power cut.

Connections (issue #31): one writer, behind a write lock (SQLite serialises writers anyway),
and reading connections of their own (``mode=ro``, a pool): in WAL mode a read never waits
for a write, so one room's write, even one stuck on a lock, holds up no other room's reads or
pages. A lock another program holds (a backup or sync tool) is waited for ``BUSY_TIMEOUT``,
once more, then refused (``RoomsBusy``) within ``MAX_WAIT`` seconds; a full disk
(``RoomsFull``), a lock and damage (``RoomsDamaged``) each say what they are. One server per
file: ``exclusive`` holds ``FILE.lock`` (``ServerLock``); ``read_only`` opens ``mode=ro`` and
works on a file a server holds, and on a read-only file (in a read-only folder too, then
``immutable=1``: no WAL writer can be at work where its "-shm" file cannot be made).

A file that is not this database (another SQLite database, a damaged file, any other file, a
newer schema) is refused with one ``RoomsDBError`` line naming the file and what was expected.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from wargame.dice import DICE_VERSION, check_dice_version
from wargame.i18n import using_language
from wargame.rooms.text import TEXT
from wargame.scenario_errors import ScenarioError

__all__ = ["RoomsDB", "RoomsDBError", "RoomsBusy", "RoomsFull", "RoomsDamaged", "RoomsDiskError",
           "RoomsServed", "ServerLock", "RoomRow", "StoredAction", "SCHEMA_VERSION", "DB_FORMAT",
           "BUSY_TIMEOUT", "BUSY_TRIES", "MAX_WAIT", "FIRST_TRY", "trouble_of"]

T = TypeVar("T")

BUSY_TIMEOUT = 1.0
"""Seconds SQLite waits for a lock another connection holds, per try (was 30 s: a backup
tool's lock froze the class; issue #31)."""
BUSY_TRIES = 2
"""One try and one retry, then ``RoomsBusy``: the seat is told to try again."""
MAX_WAIT = 2.5
"""The most a write waits in all, for this process's write lock and SQLite's (< 3 s)."""
FIRST_TRY = 0.25
"""The least SQLite's wait of a write's first try, however late it starts: a write is always
tried once (``RoomsDB._write``); 2.5 s for the lock and 0.25 s for the try stay under 3 s."""
_SQLITE_READONLY_DIRECTORY, _SQLITE_CANTOPEN = 1544, 14

DB_FORMAT = "wargame-rooms"
SCHEMA_VERSION = 3
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


def _renamed_seats(game_id: Any, seats: Any) -> Any:
    """The seats JSON of a room with the side words of before schema 3 as today's ids (module
    doc); a value that is not a seats mapping is returned as it is (reading reports it)."""
    try:
        data = json.loads(seats)
    except (TypeError, ValueError):
        return seats
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        return seats
    from wargame.registry import family_of

    family = family_of(str(game_id))
    renamed = {name: dict(seat, side=family.rename_sides(seat["side"])) if "side" in seat
               else seat for name, seat in data.items()}
    return seats if renamed == data else json.dumps(renamed)


class RoomsDBError(ScenarioError):
    """The rooms file cannot be used: names the file, the part and what was expected (one
    line; a ``ScenarioError``, so the CLI's guard prints it without a traceback)."""


class _FileTrouble(RoomsDBError):
    """The file is a rooms database but cannot be used now: ``{file}: {text}``, the text of
    ``TEXT[key]`` in the language it is shown in (``render``)."""

    text_key = ""

    def __init__(self, path: str | Path, reason: Any = None, **data: Any) -> None:
        self.reason = reason
        self.text_data = data
        super().__init__(path, "(file)", self.message(), reason)

    def message(self, lang: str | None = None) -> str:
        """The text without the file's name (a seat's refusal)."""
        with using_language(lang):
            reason = " ".join(str(self.reason).split())
            reason = reason if len(reason) <= 120 else reason[:117] + "..."
            return TEXT[self.text_key].format(reason=reason, **self.text_data)

    def render(self, lang: str | None = None) -> str:
        return f"{self.file}: {self.message(lang)}"


class RoomsBusy(_FileTrouble):
    """Another program holds a lock on the file (SQLITE_BUSY or SQLITE_LOCKED) longer than
    the short wait and its one retry (``BUSY_TIMEOUT``, ``BUSY_TRIES``, ``MAX_WAIT``)."""

    text_key = "db.busy"


class RoomsFull(_FileTrouble):
    """The disk (or the file's size limit) is full: SQLITE_FULL."""

    text_key = "db.full"


class RoomsDamaged(_FileTrouble):
    """SQLITE_CORRUPT or SQLITE_NOTADB met after opening (opening a damaged file is the
    ``RoomsDBError`` of ``_check_file``/``_open``, with what was expected)."""

    text_key = "db.damaged"


class RoomsDiskError(_FileTrouble):
    """Any other failure to read or write the file (SQLITE_IOERR, SQLITE_READONLY...)."""

    text_key = "db.disk"


class RoomsServed(_FileTrouble):
    """Another process serves this file: it holds ``FILE.lock`` (``ServerLock``)."""

    text_key = "db.served"


# primary SQLite result codes (https://sqlite.org/rescode.html); an extended code's low byte
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_NOTADB = 5, 6, 11, 13, 26
_KINDS: dict[int, type[_FileTrouble]] = {
    _SQLITE_BUSY: RoomsBusy, _SQLITE_LOCKED: RoomsBusy, _SQLITE_FULL: RoomsFull,
    _SQLITE_CORRUPT: RoomsDamaged, _SQLITE_NOTADB: RoomsDamaged,
}
_WORDS = (("locked", RoomsBusy), ("busy", RoomsBusy), ("full", RoomsFull),
          ("malformed", RoomsDamaged), ("not a database", RoomsDamaged))


def trouble_of(exc: BaseException) -> type[_FileTrouble]:
    """Which trouble an ``sqlite3.Error`` is, by its result code (Python 3.11's
    ``sqlite_errorcode``), else by its words (an error made without a code)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _KINDS:
        return _KINDS[code & 0xFF]
    text = str(exc).lower()
    for word, kind in _WORDS:
        if word in text:
            return kind
    return RoomsDiskError


class ServerLock:
    """One server per rooms file: an exclusive ``flock`` on the sidecar ``FILE.lock`` (not on
    the database itself, whose byte-range locks are SQLite's), holding the server's pid. The
    system drops the lock when the process ends, however it ends (``kill -9`` too), so a stale
    ``.lock`` file never stops a new server. POSIX ``flock``; on Windows ``msvcrt.locking``
    of one byte past the pid (not tested there); elsewhere no lock is taken."""

    def __init__(self, db_path: str | Path) -> None:
        self.db_path = Path(db_path)
        self.path = Path(f"{self.db_path}.lock")
        self._fd: int | None = None

    def acquire(self) -> ServerLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise RoomsDBError(self.path, "(file)", TEXT["db.cannot_open"],
                               exc.strerror or type(exc).__name__) from None
        try:
            _try_lock(fd)
        except OSError:
            other = _read_pid(fd)
            os.close(fd)
            raise RoomsServed(self.db_path, other, pid=other or "?",
                              lock=self.path.name) from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except (OSError, AttributeError):  # the pid is a courtesy: the lock is what counts
            pass
        self._fd = fd
        return self

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # drops the lock; the file stays (removing it would race a newcomer)

    @property
    def held(self) -> bool:
        return self._fd is not None


def _try_lock(fd: int) -> None:
    """Take the lock without waiting; ``OSError`` when another process holds it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        try:
            import msvcrt
        except ImportError:
            return
        os.lseek(fd, 64, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]  # Windows only; typeshed hides it elsewhere
        return
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _read_pid(fd: int) -> str | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except (OSError, AttributeError):
        return None
    return text if text.isdigit() else None


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
    """The SQLite file of a ``RoomManager`` (module doc). Opening checks what the file is.

    ``read_only``: open with ``mode=ro`` and never write (``wargame rooms list|export``, on a
    file a server holds or a read-only file). ``exclusive``: hold the file's ``ServerLock``
    until ``close`` (a server; ``wargame rooms delete``); a file another process holds is
    refused (``RoomsServed``) before the database is read."""

    def __init__(self, path: str | Path, *, read_only: bool = False,
                 exclusive: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._dice_sql = "dice"  # the rooms' dice column (wargame.dice; "1 AS dice": version 1)
        self._old_sides = False  # a read-only file of schema < 3: seats renamed as read
        self._write_lock = threading.Lock()
        self._readers: list[sqlite3.Connection] = []  # idle reading connections
        self._readers_lock = threading.Lock()
        self._closed = False
        self._empty = False  # read_only on a file without tables: no rooms
        self._immutable = False
        self._writer: sqlite3.Connection | None = None
        self._writer_timeout = BUSY_TIMEOUT
        self.server_lock = ServerLock(self.path) if exclusive else None
        self._check_file()
        if self.server_lock is not None:
            self.server_lock.acquire()  # before the file is read: a second server stops here
        try:
            self._check_header()
            self._first_open()
        except BaseException:
            self._close_all()
            raise

    # ------------------------------------------------------------------ opening
    def _check_file(self) -> None:
        """What the path is, from ``stat`` alone: a FIFO or a device would block ``open``."""
        try:
            info = self.path.stat()
        except FileNotFoundError:
            if not self.path.parent.is_dir():
                raise RoomsDBError(self.path, "(file)", _expected(),
                                   TEXT["db.no_folder"].format(folder=self.path.parent)) from None
            if self.read_only:
                raise RoomsDBError(self.path, "(file)", _expected(), TEXT["db.missing"]) from None
            return
        except OSError as exc:
            raise RoomsDBError(self.path, "(file)", _expected(),
                               exc.strerror or type(exc).__name__) from None
        if stat.S_ISDIR(info.st_mode):
            raise RoomsDBError(self.path, "(file)", _expected(), TEXT["db.folder"])
        if not stat.S_ISREG(info.st_mode):
            raise RoomsDBError(self.path, "(file)", _expected(),
                               TEXT["db.not_regular"].format(kind=_file_kind(info.st_mode)))

    def _check_header(self) -> None:
        if not self.path.exists():
            return
        try:
            with self.path.open("rb") as fh:
                head = fh.read(len(SQLITE_HEADER))
        except OSError as exc:
            raise RoomsDBError(self.path, "(file)", _expected(),
                               exc.strerror or type(exc).__name__) from None
        if head and head != SQLITE_HEADER:
            raise RoomsDBError(self.path, "(file)", _expected(), TEXT["db.not_sqlite"])

    def _uri(self, immutable: bool = False) -> str:
        # a file: URI with its characters quoted (a '?' or '#' in a folder's name)
        return (f"file:{quote(str(self.path.absolute()))}?"
                + ("immutable=1" if immutable else "mode=ro"))

    def _connect(self, read_only: bool) -> sqlite3.Connection:
        if read_only:
            conn = sqlite3.connect(self._uri(self._immutable), uri=True, timeout=BUSY_TIMEOUT,
                                   check_same_thread=False)
        else:
            conn = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT, check_same_thread=False)
            conn.execute("PRAGMA synchronous=FULL")  # an acknowledged action is on disk
            conn.execute("PRAGMA foreign_keys=ON")
        return conn

    def _first_open(self) -> None:
        """Connect and check the file, once more if another program held it (one retry)."""
        for attempt in range(BUSY_TRIES):
            conn = None
            try:
                try:
                    conn = self._connect(self.read_only)
                    self._open(conn)
                except sqlite3.OperationalError as exc:
                    if not (self.read_only and _readonly_folder(exc)):
                        raise
                    # a read-only file in a read-only folder: SQLite cannot make the
                    # "-shm" file a WAL reader needs, so no server writes it either
                    if conn is not None:
                        conn.close()
                    self._immutable = True
                    conn = self._connect(True)
                    self._open(conn)
            except sqlite3.Error as exc:
                if conn is not None:
                    conn.close()
                trouble = trouble_of(exc)
                if trouble is RoomsBusy and attempt + 1 < BUSY_TRIES:
                    continue
                raise self._opening_error(exc, trouble) from None
            except RoomsDBError:
                if conn is not None:
                    conn.close()
                raise
            if self.read_only:
                self._readers.append(conn)
            else:
                self._writer = conn
            return

    def _opening_error(self, exc: sqlite3.Error, trouble: type[_FileTrouble]) -> RoomsDBError:
        reason = str(exc)
        if trouble is RoomsBusy or trouble is RoomsFull:
            return trouble(self.path, reason)
        if "not a database" in reason:
            return RoomsDBError(self.path, "(file)", _expected(), TEXT["db.not_sqlite"])
        if trouble is RoomsDiskError and isinstance(exc, sqlite3.OperationalError):
            return RoomsDBError(self.path, "(file)", TEXT["db.cannot_open"], reason)
        return RoomsDBError(self.path, "(file)", _expected(),
                            TEXT["db.corrupt"].format(reason=reason))

    def _open(self, c: sqlite3.Connection) -> None:
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables and self.read_only:
            self._empty = True  # an empty file: no rooms, and nothing written to it
            return
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
        if version < 2 and not self.read_only:  # module doc: a version-1 file's rooms: dice 1
            c.executescript("BEGIN; ALTER TABLE rooms ADD COLUMN dice INTEGER NOT NULL DEFAULT 1;"
                            "UPDATE meta SET value = '2' WHERE key = 'schema_version'; COMMIT;")
        # read-only on a version-1 file (not migrated): its rooms were played with dice 1
        self._dice_sql = "1 AS dice" if version < 2 and self.read_only else "dice"
        if version < 3 and not self.read_only:  # module doc: the seats' sides renamed
            rows = c.execute("SELECT id, game_id, seats FROM rooms").fetchall()
            with c:  # one transaction: the whole file migrated, or nothing
                for rid, game_id, seats in rows:
                    renamed = _renamed_seats(game_id, seats)
                    if renamed != seats:
                        c.execute("UPDATE rooms SET seats = ? WHERE id = ?", (renamed, rid))
                c.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
        self._old_sides = version < 3 and self.read_only  # renamed as they are read
        if not self.read_only:
            c.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer

    # ------------------------------------------------------------------ connections
    def _trouble(self, exc: sqlite3.Error) -> RoomsDBError:
        return trouble_of(exc)(self.path, str(exc))

    def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` on an idle reading connection of this thread's own (never the
        writer's: a write in progress, in this room or another, holds no read up); a lock
        held by another program is waited for briefly, once more, then ``RoomsBusy``."""
        with self._readers_lock:
            if self._closed:
                raise RoomsDBError(self.path, "(file)", _expected(), TEXT["db.closed"])
            conn = self._readers.pop() if self._readers else None
        if conn is None:
            try:
                conn = self._connect(True)
            except sqlite3.Error as exc:
                raise self._trouble(exc) from None
        try:
            for attempt in range(BUSY_TRIES):
                try:
                    return work(conn)
                except sqlite3.Error as exc:
                    if conn.in_transaction:
                        conn.rollback()
                    if trouble_of(exc) is RoomsBusy and attempt + 1 < BUSY_TRIES:
                        continue
                    raise self._trouble(exc) from None
            raise AssertionError("unreachable")  # pragma: no cover
        finally:
            with self._readers_lock:
                if self._closed:
                    conn.close()
                else:
                    self._readers.append(conn)

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(writer)`` then commit, under the write lock; at most ``MAX_WAIT`` seconds of
        waiting in all (for the lock, then for SQLite's, tried twice), then ``RoomsBusy``.
        Whatever fails is rolled back: nothing of it is stored."""
        if self.read_only or self._writer is None:
            raise RoomsDBError(self.path, "(file)", TEXT["db.cannot_open"], TEXT["db.read_only"])
        deadline = time.monotonic() + MAX_WAIT
        if not self._write_lock.acquire(timeout=MAX_WAIT):
            raise RoomsBusy(self.path, "write lock")
        try:
            conn = self._writer
            for attempt in range(BUSY_TRIES):
                left = deadline - time.monotonic()
                # The first try is always made, with at least FIRST_TRY of SQLite's wait: the
                # deadline is read from the wall clock, and a process starved of CPU on a
                # loaded machine (or stopped a moment) passed it with nothing holding the
                # file, so a write nobody blocked was refused as "busy" (issue #31's flaky
                # tests: the rooms file of one test, written by one process)
                if attempt and left <= 0:
                    raise RoomsBusy(self.path, "no time left")
                self._set_timeout(conn, min(BUSY_TIMEOUT, max(left, FIRST_TRY)))
                try:
                    result = work(conn)
                    conn.commit()
                    return result
                except sqlite3.IntegrityError:
                    conn.rollback()
                    raise
                except sqlite3.Error as exc:
                    try:
                        conn.rollback()
                    except sqlite3.Error:
                        pass
                    if trouble_of(exc) is RoomsBusy and attempt + 1 < BUSY_TRIES:
                        continue
                    raise self._trouble(exc) from None
            raise AssertionError("unreachable")  # pragma: no cover
        finally:
            self._write_lock.release()

    def _set_timeout(self, conn: sqlite3.Connection, seconds: float) -> None:
        if seconds != self._writer_timeout:
            conn.execute(f"PRAGMA busy_timeout = {max(1, int(seconds * 1000))}")
            self._writer_timeout = seconds

    # ------------------------------------------------------------------ reading
    def rooms(self, include_deleted: bool = False,
              bad: dict[str, str] | None = None) -> list[RoomRow]:
        """The stored rooms, oldest first; a row that cannot be read is left out and, when
        ``bad`` is given, noted there (room id -> the one-line reason)."""
        if self._empty:
            return []
        sql = ("SELECT id, code, game_id, variants, options, seed, created, seats, deleted, "
               f"outcome, {self._dice_sql} "
               "FROM rooms" + ("" if include_deleted else " WHERE deleted = 0")
               + " ORDER BY created, id")
        rows = self._read(lambda c: c.execute(sql).fetchall())
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
            seats_json = _renamed_seats(r[2], r[7]) if self._old_sides else r[7]
            variants, options, seats = json.loads(r[3]), json.loads(r[4]), json.loads(seats_json)
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
        if self._empty:
            return []
        rows = self._read(lambda c: c.execute(
            "SELECT n, action, seat, time FROM actions WHERE room_id = ? ORDER BY n",
            (room_id,)).fetchall())
        out = []
        for i, (n, text, seat, time_) in enumerate(rows):
            if n != i:
                raise RoomsDBError(self.path, f"actions[{room_id}]",
                                   TEXT["db.numbered"].format(n=i), n)
            try:
                action = json.loads(text)
            except (TypeError, json.JSONDecodeError):
                raise RoomsDBError(self.path, f"actions[{room_id}][{n}]", TEXT["db.action_json"],
                                   text) from None
            out.append(StoredAction(n, action, seat, float(time_)))
        return out

    def codes(self) -> set[str]:
        if self._empty:
            return set()
        return self._read(lambda c: {r[0] for r in c.execute("SELECT code FROM rooms")})

    def action_counts(self) -> dict[str, int]:
        """Room id -> number of stored actions, for every room with actions (one query)."""
        if self._empty:
            return {}
        return self._read(lambda c: {
            str(r[0]): int(r[1])
            for r in c.execute("SELECT room_id, COUNT(*) FROM actions GROUP BY room_id")})

    def count_actions(self, room_id: str) -> int:
        if self._empty:
            return 0
        return self._read(lambda c: int(c.execute(
            "SELECT COUNT(*) FROM actions WHERE room_id = ?", (room_id,)).fetchone()[0]))

    # ------------------------------------------------------------------ writing
    def insert_room(self, row: RoomRow) -> None:
        self._write(lambda c: c.execute(
            "INSERT INTO rooms (id, code, game_id, variants, options, seed, created, seats, "
            "deleted, dice) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
            (row.id, row.code, row.game_id, json.dumps(list(row.variants)),
             json.dumps(row.options), row.seed, row.created, json.dumps(row.seats), row.dice)))

    def append(self, room_id: str, n: int, action: Any, seat: str, time: float) -> None:
        """Store action ``n`` of the room and commit (on disk when this returns). An action
        ``n`` already stored (another process wrote this room) is an ``IntegrityError``; a
        file another program holds, ``RoomsBusy`` within ``MAX_WAIT`` seconds."""
        text = json.dumps(action, separators=(",", ":"))
        self._write(lambda c: c.execute(
            "INSERT INTO actions (room_id, n, action, seat, time) VALUES (?, ?, ?, ?, ?)",
            (room_id, n, text, seat, time)))

    def set_outcome(self, room_id: str, outcome: str | None) -> None:
        """Note the result of a finished game (listed without replaying the room)."""
        self._write(lambda c: c.execute("UPDATE rooms SET outcome = ? WHERE id = ?",
                                        (outcome, room_id)))

    def set_seat_language(self, room_id: str, seat: str, lang: str | None) -> None:
        """Store the language of one seat's page (``seats[seat]["lang"]``) and commit."""

        def work(c: sqlite3.Connection) -> None:
            row = c.execute("SELECT seats FROM rooms WHERE id = ?", (room_id,)).fetchone()
            if row is None:
                return
            seats = json.loads(row[0])
            if isinstance(seats.get(seat), dict):
                seats[seat]["lang"] = lang
                c.execute("UPDATE rooms SET seats = ? WHERE id = ?", (json.dumps(seats), room_id))

        self._write(work)

    def mark_deleted(self, room_id: str) -> bool:
        return self._write(lambda c: c.execute(
            "UPDATE rooms SET deleted = 1 WHERE id = ? AND deleted = 0", (room_id,)).rowcount > 0)

    def close(self) -> None:
        """Close every connection (the writer after a checkpoint that empties the WAL) and
        drop the server lock."""
        with self._readers_lock:
            self._closed = True
        self._close_all()

    def _close_all(self) -> None:
        with self._readers_lock:
            readers, self._readers = self._readers, []
        for conn in readers:
            conn.close()
        with self._write_lock:
            writer, self._writer = self._writer, None
            if writer is not None:
                try:
                    writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                except sqlite3.Error:
                    pass
                writer.close()
        if self.server_lock is not None:
            self.server_lock.release()


def _file_kind(mode: int) -> str:
    for test, word in ((stat.S_ISFIFO, "fifo"), (stat.S_ISSOCK, "socket"),
                       (stat.S_ISCHR, "device"), (stat.S_ISBLK, "device")):
        if test(mode):
            return TEXT[f"db.kind.{word}"]
    return TEXT["db.kind.other"]


def _readonly_folder(exc: sqlite3.Error) -> bool:
    """SQLITE_READONLY_DIRECTORY (or SQLITE_CANTOPEN) on opening a read-only connection."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code in (_SQLITE_READONLY_DIRECTORY, _SQLITE_CANTOPEN) or "readonly" in str(exc)
