"""A tiny rooms server for the SIGKILL test (tests/rooms/test_rooms_sigkill.py): it creates
rooms on the SQLite file given, then plays them for ever (seats driven by computer policies
through their tokens, one room with a computer seat of its own), printing one JSON line per
acknowledged action: ``{"room", "n", "action", "fp"}``, written only after the action was
stored and acknowledged. The test kills it with SIGKILL at any moment.

    python tests/rooms/killable_server.py ROOMS.sqlite
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.rooms.roomkit import opener, token_to_act  # noqa: E402
from wargame.bots.play import make_policy  # noqa: E402
from wargame.rooms import Change, RoomManager  # noqa: E402

_print_lock = threading.Lock()


def say(data: dict) -> None:
    with _print_lock:
        sys.stdout.write(json.dumps(data, sort_keys=True) + "\n")
        sys.stdout.flush()


def main(path: str) -> None:
    manager = RoomManager(path, games=opener)
    rooms = [manager.create("normandy", seed=3), manager.create("memoir44-1", seed=8),
             manager.create("memoir44-2", seed=5, computer={"axis": "easy"}),
             manager.create("demo", seed=2)]
    for room in rooms:
        def told(change: Change, room=room) -> None:
            # runs after the action is committed, under the room's lock (so in order)
            with room.read() as state:
                say({"room": room.id, "n": change.version, "seat": change.seat,
                     "action": room.actions()[-1], "fp": state.fingerprint()})

        room.subscribe(told)
    say({"ready": [r.id for r in rooms]})
    policies = {r.id: make_policy(r.game, "greedy" if r.game.kind == "campaign" else "random",
                                  r.seed) for r in rooms}
    while True:
        for room in rooms:
            room.wait_idle()
            state = room.state()
            if state.is_terminal:
                continue
            room.act(token_to_act(room), policies[room.id].choose(state),
                     expected_version=room.version)


if __name__ == "__main__":
    main(sys.argv[1])
