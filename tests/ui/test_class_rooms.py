"""The class's side of the rooms (issue #29), without a browser: the teacher's form making
several rooms at once with a QR code per seat link, the teacher key's rate limit per client
address, the landing page on Normandy, and ``wargame class`` started as a command whose
websocket accepts the machine's own address as origin and refuses another."""

from __future__ import annotations

import http.client
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wargame.i18n import using_language
from wargame.rooms import RoomManager
from wargame.ui.rooms import (
    DEFAULT_GAME,
    MAX_CLASS_ROOMS,
    KeyGuard,
    Landing,
    TeacherRooms,
    qr_svg,
    seat_link,
    teacher_page,
)
from wargame.ui.serve import room_game
from wargame.ui.text import ROOMS

ROOT = Path(__file__).resolve().parents[2]
BASE = "http://192.168.1.20:5006/"


@pytest.fixture
def manager(tmp_path):
    with RoomManager(tmp_path / "class.sqlite", games=room_game) as m:
        yield m


def test_the_teacher_creates_three_rooms_with_a_qr_code_per_seat_link(manager):
    teacher = TeacherRooms(manager, lang="pt", key="k" * 22, public_base=BASE)
    assert teacher.class_game.value == DEFAULT_GAME == "normandy"
    assert teacher.class_lang.value == "pt"
    teacher.class_count.value = 3
    teacher.class_lang.value = "en"
    made = teacher.create_class()
    codes = [room.code for room in made]
    assert len(made) == 3 and len(set(codes)) == 3
    cards = teacher.class_rooms.object
    assert re.findall(r"class='wg-class-room' data-code='([A-Z0-9]+)'", cards) == codes
    assert cards.count("<svg") == 6 and cards.count("class='wg-copy'") == 6
    for room in made:
        assert room.game_id == "normandy"
        assert {s.lang for s in room.seats.values()} == {"en"}  # the seats' language
        assert room.seats["teacher"].token not in cards  # the teacher's link is not handed out
        for name in ("allied", "axis"):
            link = seat_link(room.seats[name].token, BASE)
            assert link.startswith("http://192.168.1.20:5006/room?seat=")
            assert f"href='{link}'" in cards and f"data-link='{link}'" in cards
            with using_language("pt"):  # the page's language
                title = ROOMS["qr_title"].format(seat=ROOMS[f"seat.{name}"], code=room.code)
            assert title.startswith("Código QR da ligação do Lugar d")
            assert qr_svg(link, title) in cards
    assert "3 salas de" in teacher.class_message.object and "English" in \
        teacher.class_message.object
    for code in codes:  # and in the rooms' list
        assert f"data-code='{code}'" in teacher.table.object
    # one room's card again from the list
    teacher.choice.value = made[0].id
    assert teacher.show_links() is made[0]
    assert teacher.class_rooms.object.count("<svg") == 2


def test_the_qr_code_holds_the_link():
    import segno

    link = BASE + "room?seat=abc"
    svg = qr_svg(link, "Allied <seat>")
    assert svg.startswith("<svg role=\"img\" aria-label=\"Allied &lt;seat&gt;\"")
    assert "wg-qr" in svg and "<title>Allied &lt;seat&gt;</title>" in svg
    assert svg != qr_svg(BASE + "room?seat=abd", "Allied <seat>")
    # a whole seat link (a 22-character token) is a version-4 code (33 x 33 modules): small
    # enough for a phone to read from a projected page
    token = secrets.token_urlsafe(16)
    assert segno.make(seat_link(token, BASE), error="m").version <= 4


def test_a_bad_number_of_rooms_creates_none(manager):
    teacher = TeacherRooms(manager, public_base=BASE)
    teacher.class_count.value = MAX_CLASS_ROOMS
    teacher.class_count.end = None  # as a page could send past the widget's bound
    teacher.class_count.value = MAX_CLASS_ROOMS + 1
    assert teacher.create_class() == [] and manager.rooms() == []
    assert str(MAX_CLASS_ROOMS) in teacher.class_message.object


def test_without_a_public_address_the_seat_links_stay_relative_and_get_no_qr(manager):
    teacher = TeacherRooms(manager)
    teacher.class_count.value = 1
    (room,) = teacher.create_class()
    cards = teacher.class_rooms.object
    assert f"href='room?seat={room.seats['allied'].token}'" in cards and "<svg" not in cards


def test_the_landing_page_opens_on_normandy(manager):
    assert Landing(manager).game.value == "normandy"


def test_wrong_keys_are_limited_per_address():
    now = [1000.0]
    guard = KeyGuard(limit=5, window=60, lockout=60, clock=lambda: now[0])
    key = "the-right-key-22-chars"
    for _ in range(4):
        assert guard.check("10.0.0.9", "guess", key) == "wrong"
        now[0] += 1
    assert guard.check("10.0.0.9", key, key) == "ok"  # not yet locked
    assert guard.check("10.0.0.9", "guess", key) == "wrong"  # the 5th in a minute
    assert guard.check("10.0.0.9", key, key) == "locked"  # even the right key
    assert guard.check("10.0.0.8", key, key) == "ok"  # another computer
    assert guard.check("10.0.0.9", None, key) == "locked"
    now[0] += 60
    assert guard.check("10.0.0.9", key, key) == "ok"
    # wrong keys spread over more than a minute never lock
    for _ in range(12):
        assert guard.check("10.0.0.7", "guess", key) == "wrong"
        now[0] += 15
    # a visit without a key is not counted
    for _ in range(10):
        assert guard.check("10.0.0.6", "", key) == "wrong"
    assert guard.check("10.0.0.6", key, key) == "ok"


def test_the_teacher_page_refuses_a_locked_address_with_a_message(manager):
    guard = KeyGuard()
    key = "the-right-key-22-chars"
    for _ in range(5):
        page = teacher_page(manager, "guess", key, client="10.0.0.9", guard=guard)
        assert "wg-unknown-seat" in page.object
    page = teacher_page(manager, key, key, client="10.0.0.9", guard=guard)
    assert "wg-key-locked" in page.object and "60" in page.object
    pt = teacher_page(manager, key, key, lang="pt", client="10.0.0.9", guard=guard)
    assert "Demasiadas chaves erradas" in pt.object
    ok = teacher_page(manager, key, key, client="10.0.0.8", guard=guard)
    assert not hasattr(ok, "object")  # the rooms' page (a Column)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _upgrade(port: int, origin: str) -> int:
    """The HTTP status of a websocket upgrade to Bokeh's /ws with ``origin``: 101 when
    accepted, 403 when Bokeh refuses the origin."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/ws", headers={
            "Upgrade": "websocket", "Connection": "Upgrade", "Origin": origin,
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Protocol": "bokeh"})
        return conn.getresponse().status
    finally:
        conn.close()


def test_wargame_class_accepts_its_own_address_as_origin_and_refuses_another(tmp_path):
    port = _free_port()
    rooms = tmp_path / "class.sqlite"
    cmd = [sys.executable, "-c", "import sys; from wargame.cli import main; "
           "sys.exit(main(sys.argv[1:]))", "class", "--no-show", "--port", str(port),
           "--rooms", str(rooms)]
    env = {**os.environ, "WARGAME_HOME": str(tmp_path / "home"), "PYTHONUNBUFFERED": "1"}
    env.pop("WARGAME_TEACHER_KEY", None)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        deadline = time.time() + 120
        while time.time() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("Ctrl+C"):
                break
        out = "".join(lines)
        students = re.search(r"Students open:\s+(http://([^/:]+):(\d+)/)", out)
        teacher = re.search(r"Teacher's page: (\S+\?key=(\S+))", out)
        assert students and teacher, out
        host = students.group(2)
        assert int(students.group(3)) == port and teacher.group(1).startswith(students.group(1))
        assert len(teacher.group(2)) >= 22  # 128 random bits
        if host == "localhost":  # a machine without a network address says so
            assert out.startswith("No network address found")
        while time.time() < deadline:  # listening once the loop runs
            try:
                status = _upgrade(port, f"http://{host}:{port}")
                break
            except OSError:
                time.sleep(0.3)
        assert status == 101
        assert _upgrade(port, f"http://localhost:{port}") == 101
        assert _upgrade(port, f"http://evil.example:{port}") == 403
        assert _upgrade(port, f"http://{host}:{port + 1}") == 403
        assert rooms.exists()
        proc.send_signal(signal.SIGINT)  # Ctrl+C
        rest, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err[-2000:]
        assert "Server stopped" in rest and "KeyboardInterrupt" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
