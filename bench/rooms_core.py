"""Benchmark of the rooms backend (wargame/rooms/): N rooms x 2 seats acting from threads on one
``RoomManager`` (no browser; the browser figures are ``bench/rooms.py``'s).

The games are played beforehand by computer policies (``--policy``), so the seats' threads
spend no time thinking, as players in browsers would not on the server. Each seat is a thread:
it waits until its side is to act (told by the room's subscription) and sends its next action
with ``Room.act(token, action, expected_version)``. Printed (seconds as ms):

* ``actions_per_s``: accepted actions per second over all rooms (wall clock);
* ``act_ms`` median and 95th percentile of ``Room.act`` (checks + apply + SQLite append and
  commit with ``synchronous=FULL`` + telling the subscribers); ``commit_ms`` the append and
  commit alone; ``told_ms`` from the start of ``act`` to the other seat's thread being told;
* ``db_kb_per_room``: the SQLite file after closing, divided by the rooms;
* ``rss_kb_per_room``: the process's resident memory after the rooms were created and played,
  minus before (games already loaded), divided by the rooms;
* ``resume_s``: reopening the file and replaying every room (``load_all``; a server replays
  a room when its first link arrives).

The last line printed is one JSON object with every figure.

    nice -n 10 .venv/bin/python bench/rooms_core.py [--rooms 15] [--actions 200]
        [--game memoir44-1] [--think SECONDS] [--db FILE]

With ``--think 0`` (the default) every seat acts as soon as it may: the figures are the
server's saturation (throughput; the latencies are mostly queueing behind the other rooms).
With ``--think 0.5`` they are the latencies at a class's pace.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wargame.bots.play import make_policy  # noqa: E402
from wargame.errors import IllegalAction  # noqa: E402
from wargame.rooms import Change, Room, RoomManager  # noqa: E402
from wargame.rooms.db import RoomsDB  # noqa: E402


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def script(game: Any, seed: int, policy: str, limit: int) -> list[tuple[str, dict]]:
    """A game played beforehand by computer policies: (side, action JSON) for each action, so
    the seats' threads only send (the server's work is measured, not the players' thinking)."""
    state = game.new_state(seed)
    policies = {side: make_policy(game, policy, seed * 2 + k) for k, side in enumerate(game.sides)}
    out: list[tuple[str, dict]] = []
    while not state.is_terminal and len(out) < limit:
        side = state.side_to_act
        action = policies[side].choose(state)
        state.apply(action)
        out.append((side, action.to_dict()))
    return out


class Seat(threading.Thread):
    """One player's thread: sends its side's actions of the script when told it is its turn."""

    def __init__(self, room: Room, name: str, actions: list[tuple[str, dict]], out: dict,
                 think: float = 0.0) -> None:
        super().__init__(daemon=True, name=f"{room.id}-{name}")
        self.room, self.seat, self.actions, self.out = room, room.seats[name], actions, out
        self.think = think
        self.changed = threading.Condition()
        self.version = room.version
        self.sent_at: dict[int, float] = out["sent_at"]

    def tell(self, change: Change) -> None:
        now = time.perf_counter()
        sent = self.sent_at.get(change.version)
        if sent is not None and change.seat != self.seat.name:
            self.out["told"].append(now - sent)
        with self.changed:
            self.version = change.version
            self.changed.notify_all()

    def run(self) -> None:
        room = self.room
        while True:
            version = room.version
            if version >= len(self.actions):
                return
            side, action = self.actions[version]
            if side != self.seat.side:
                with self.changed:
                    self.changed.wait_for(lambda v=version: self.version != v, timeout=1.0)
                continue
            if self.think:
                time.sleep(self.think)  # a player looking at the board before acting
            t = time.perf_counter()
            self.sent_at[version + 1] = t
            try:
                room.act(self.seat.token, action, expected_version=version)
            except IllegalAction as exc:
                self.out["refused"].append(f"{type(exc).__name__}: {exc}")
                return
            self.out["act"].append(time.perf_counter() - t)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=15)
    parser.add_argument("--actions", type=int, default=200, help="actions per room at most")
    parser.add_argument("--game", default="memoir44-1")
    parser.add_argument("--policy", default="random")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds each seat waits before each action (0: flat out, the "
                             "server saturated; 0.5 or more: a class's pace)")
    parser.add_argument("--db", default=None, help="the SQLite file (default: a temporary one)")
    args = parser.parse_args(argv)

    folder = tempfile.TemporaryDirectory()
    path = Path(args.db) if args.db else Path(folder.name) / "rooms.sqlite"
    if path.exists():
        sys.exit(f"{path}: exists; give a new file")
    commits: list[float] = []
    append = RoomsDB.append

    def timed_append(self: RoomsDB, *a: Any, **k: Any) -> None:
        t = time.perf_counter()
        append(self, *a, **k)
        commits.append(time.perf_counter() - t)

    RoomsDB.append = timed_append  # type: ignore[method-assign]  # the bench times the real method, then puts it back

    manager = RoomManager(path)
    game = manager.create(args.game, seed=0).game  # loaded before measuring memory
    manager.delete(manager.rooms()[0].id)
    t = time.perf_counter()
    scripts = [script(game, 1000 + i, args.policy, args.actions) for i in range(args.rooms)]
    print(f"{args.rooms} scripted games of {args.policy} players: "
          f"{sum(map(len, scripts))} actions in {time.perf_counter() - t:.1f} s", flush=True)
    rss_before = rss_kb()
    out: dict[str, Any] = {"act": [], "told": [], "refused": [], "sent_at": {}}
    seats: list[Seat] = []
    for i in range(args.rooms):
        room = manager.create(args.game, seed=1000 + i)
        room_out = {**out, "sent_at": {}}  # shared lists, one sent_at per room
        pair = [Seat(room, name, scripts[i], room_out, args.think)
                for name in ("allied", "axis")]
        for seat in pair:
            room.subscribe(seat.tell)
        seats.extend(pair)
    t0 = time.perf_counter()
    for seat in seats:
        seat.start()
    for seat in seats:
        seat.join()
    wall = time.perf_counter() - t0
    rss_after = rss_kb()
    total = sum(r.version for r in manager.rooms())
    manager.close()
    db_bytes = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    RoomsDB.append = append  # type: ignore[method-assign]  # the bench times the real method, then puts it back
    t = time.perf_counter()
    with RoomManager(path, start_computers=False) as again:
        again.load_all()  # rooms are resumed when first reached: here all of them
        resumed = sum(r.version for r in again.rooms())
    resume = time.perf_counter() - t
    assert resumed == total, (resumed, total)

    ms = 1000.0
    figures = {
        "game": args.game, "think_s": args.think, "rooms": args.rooms, "seats": len(seats), "actions": total,
        "wall_s": round(wall, 2), "actions_per_s": round(total / wall, 1),
        "act_ms_median": round(statistics.median(out["act"]) * ms, 2),
        "act_ms_p95": round(percentile(out["act"], 0.95) * ms, 2),
        "commit_ms_median": round(statistics.median(commits) * ms, 2),
        "told_ms_median": round(statistics.median(out["told"]) * ms, 2) if out["told"] else None,
        "refused": len(out["refused"]),
        "db_kb_per_room": round(db_bytes / 1024 / args.rooms, 1),
        "rss_kb_per_room": round((rss_after - rss_before) / args.rooms, 1),
        "resume_s": round(resume, 2),
    }
    print(f"{args.rooms} rooms x 2 seats of {args.game} (think {args.think} s): "
          f"{total} actions in {wall:.1f} s "
          f"= {figures['actions_per_s']} actions/s")
    print(f"act: median {figures['act_ms_median']} ms, p95 {figures['act_ms_p95']} ms "
          f"(append + commit alone: median {figures['commit_ms_median']} ms); other seat told "
          f"after {figures['told_ms_median']} ms (median); {figures['refused']} refusals")
    print(f"per room: {figures['db_kb_per_room']} KB of SQLite, "
          f"{figures['rss_kb_per_room']} KB of RSS; resume of every room {resume:.2f} s")
    print(json.dumps(figures))
    folder.cleanup()
    return figures


if __name__ == "__main__":
    main()
