"""Rooms: kill -9 a real server process mid-game, start again, and every acknowledged action
is there, every room at the fingerprint the server reported (no timed assertions: the kill
comes after a number of acknowledgements, whenever they arrive)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.rooms.roomkit import opener
from wargame.rooms import RoomManager

SERVER = Path(__file__).with_name("killable_server.py")
ACKS_BEFORE_KILL = 60
HANG_GUARD_S = 600.0


def _plain(data):
    return json.loads(json.dumps(data, sort_keys=True))


@pytest.mark.slow  # 4 s: a server process killed (measured on 2 busy cores)
def test_sigkill_mid_game_loses_no_acknowledged_action(tmp_path):
    db = tmp_path / "class.sqlite"
    child = subprocess.Popen([sys.executable, str(SERVER), str(db)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    acks: dict[str, list[dict]] = {}
    ready: list[str] = []
    guard = threading.Timer(HANG_GUARD_S, child.kill)  # a hung child fails the test, never hangs it
    guard.start()
    try:
        assert child.stdout is not None
        while sum(map(len, acks.values())) < ACKS_BEFORE_KILL:
            line = child.stdout.readline()
            assert line, f"the server stopped: {child.stderr.read() if child.stderr else ''}"
            data = json.loads(line)
            if "ready" in data:
                ready = data["ready"]
                continue
            acks.setdefault(data["room"], []).append(data)
        os.kill(child.pid, signal.SIGKILL)  # whatever it was doing: acting, committing
        rest, _ = child.communicate()
    finally:
        guard.cancel()
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    for line in rest.splitlines():  # acknowledged before the kill, read after it
        data = json.loads(line)
        acks.setdefault(data["room"], []).append(data)
    assert len(ready) == 4 and set(acks) <= set(ready)

    with RoomManager(db, games=opener, start_computers=False) as m:
        m.load_all()
        assert m.unloaded == {} and sorted(r.id for r in m.rooms()) == sorted(ready)
        for room_id, acked in acks.items():
            room = m.get(room_id)
            assert [a["n"] for a in acked] == list(range(1, len(acked) + 1)), room_id
            last = acked[-1]["n"]
            # every acknowledged action is stored, in order; at most the actions in flight
            # at the kill (stored, not yet acknowledged) come after them
            assert room.version >= last
            assert room.actions()[:last] == [a["action"] for a in acked]
            assert _plain(room.state_at(last).fingerprint()) == acked[-1]["fp"]
            if room.version == last:
                assert _plain(room.state().fingerprint()) == acked[-1]["fp"]
        # and the resumed rooms play on
        room = m.get(ready[1])
        state = room.state()
        seat = room.seat_of_side(state.side_to_act)
        room.act(seat.token, state.legal_actions()[0], expected_version=room.version)
