"""Benchmark of a rooms file under pressure (issue #31): another program holds the file's
write lock (``BEGIN EXCLUSIVE`` from its own SQLite connection, as a backup or sync tool
might), and the rooms keep answering.

Printed (seconds as ms), each over ``--repeat`` tries:

* ``busy_refusal_ms``: ``Room.act`` from the click to the refusal "the rooms file is busy in
  another program; try again" (wargame.rooms.db: ``BUSY_TIMEOUT`` 1 s, one retry, at most
  ``MAX_WAIT`` 2.5 s in all; it was 30-32 s and said "damaged");
* ``other_room_read_ms``: while one room's write is stuck on that lock, another room's page
  read (``state``), a room resumed from the file (``by_token``), the teacher's list
  (``rooms``) and a count read from the file, together (they waited 30-40 s before);
* ``second_server_ms``: a second ``RoomManager`` on the same file refused (``RoomsServed``).

The last line printed is one JSON object with every figure.

    nice -n 10 .venv/bin/python bench/rooms_busy.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wargame.bots.play import make_policy  # noqa: E402
from wargame.errors import SeatRefused  # noqa: E402
from wargame.rooms import RoomManager, RoomsServed  # noqa: E402


def to_act(room) -> str:
    with room.read() as state:
        return room.seat_of_side(state.side_to_act).token


def play(room, n: int) -> None:
    policy = make_policy(room.game, "random", room.seed)
    for _ in range(n):
        room.act(to_act(room), policy.choose(room.state()))


def hold(path: Path) -> sqlite3.Connection:
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN EXCLUSIVE")
    return other


def ms(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values) * 1000, 1),
            "max": round(max(values) * 1000, 1)}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--game", default="memoir44-1")
    args = ap.parse_args(argv)
    db = Path(tempfile.mkdtemp(prefix="wargame-rooms-busy-")) / "rooms.sqlite"
    with RoomManager(db) as m:
        rooms = [m.create(args.game, seed=s) for s in range(3)]
        for room in rooms:
            play(room, 6)
        ids = [r.id for r in rooms]
        cold_token = rooms[2].seats["allied"].token
    refusals, reads, second = [], [], []
    for _ in range(args.repeat):
        with RoomManager(db) as m:
            stuck, other = m.get(ids[0]), m.get(ids[1])
            action = stuck.state().legal_actions()[0]
            holder = hold(db)
            try:
                start = time.perf_counter()
                try:
                    stuck.act(to_act(stuck), action)
                except SeatRefused:
                    refusals.append(time.perf_counter() - start)
                done: list[float] = []

                def act(stuck=stuck, action=action) -> None:
                    try:
                        stuck.act(to_act(stuck), action)
                    except SeatRefused:
                        pass

                writer = threading.Thread(target=act)
                writer.start()
                while not m.db._write_lock.locked() and writer.is_alive():
                    time.sleep(0.005)
                start = time.perf_counter()
                other.state()
                m.by_token(cold_token)
                m.rooms()
                m.db.count_actions(other.id)
                done.append(time.perf_counter() - start)
                reads.extend(done)
                writer.join()
            finally:
                holder.execute("ROLLBACK")
                holder.close()
            start = time.perf_counter()
            try:
                RoomManager(db).close()
            except RoomsServed:
                second.append(time.perf_counter() - start)
    result = {"busy_refusal_ms": ms(refusals), "other_room_read_ms": ms(reads),
              "second_server_ms": ms(second), "repeat": args.repeat,
              "refused": len(refusals), "second_refused": len(second)}
    for key, value in result.items():
        print(f"{key}: {value}")
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
