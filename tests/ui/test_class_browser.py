"""``wargame class`` in a real browser (issue #29; Debian chromium via playwright): the
teacher's page at the address the command prints creates 3 rooms from its form, each shown with
its code and a QR image for every seat link; a student's page at the printed students' link
opens on Normandy, joins a room by its code and opens a seat."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
KEY = "class-browser-test-key"


@pytest.fixture(scope="module")
def class_server(chromium_path, tmp_path_factory):
    """``wargame class --no-show`` in a subprocess; yields (students' link, teacher's link)."""
    from tests.support.browser import free_port

    tmp = tmp_path_factory.mktemp("class")
    port = free_port()
    cmd = [sys.executable, "-c", "import sys; from wargame.cli import main; "
           "sys.exit(main(sys.argv[1:]))", "class", "--no-show", "--port", str(port),
           "--rooms", str(tmp / "class.sqlite"), "--teacher-key", KEY]
    env = {**os.environ, "WARGAME_HOME": str(tmp / "home"), "PYTHONUNBUFFERED": "1"}
    ARTIFACTS.mkdir(exist_ok=True)
    err = open(ARTIFACTS / f"class-serve-{port}.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=err,
                            text=True)
    out = ""
    deadline = time.time() + 120
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        out += line
        if line.startswith("Ctrl+C"):
            break
    students = re.search(r"Students open:\s+(\S+)", out)
    teacher = re.search(r"Teacher's page: (\S+)", out)
    if not (students and teacher):
        proc.kill()
        raise RuntimeError(f"wargame class printed {out!r}; see {err.name}")
    yield students.group(1), teacher.group(1)
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_three_rooms_from_the_teachers_page_with_qr_codes_and_a_seat_joined_by_code(
        class_server, wg_browser):
    students, teacher_link = class_server
    assert teacher_link == f"{students}teacher?key={KEY}"
    context = wg_browser.new_context(viewport={"width": 1500, "height": 1100})
    page = context.new_page()
    page.goto(teacher_link, timeout=90_000)
    count = page.locator(".wg-class-count input")
    count.wait_for(timeout=90_000)
    count.fill("3")
    count.press("Enter")
    page.get_by_role("button", name="Create the rooms").click()
    rooms = page.locator(".wg-class-room")
    rooms.nth(2).wait_for(timeout=60_000)
    assert rooms.count() == 3
    codes = [rooms.nth(i).get_attribute("data-code") for i in range(3)]
    assert len(set(codes)) == 3 and all(re.fullmatch(r"[A-Z0-9]{4,8}", c) for c in codes)
    links = page.locator(".wg-class-rooms a.wg-seat-link")
    assert links.count() == 6
    for i in range(6):
        link = links.nth(i)
        href = link.get_attribute("href")
        assert href.startswith(f"{students}room?seat=")
        seat = page.locator(".wg-class-seat").nth(i)
        qr = seat.locator("svg.wg-qr[role='img']")
        assert qr.count() == 1 and qr.is_visible()
        box = qr.bounding_box()
        assert box["width"] >= 90 and box["height"] >= 90  # drawn, readable from a screen
        assert seat.locator("a.wg-seat-link").get_attribute("href") == href
        assert seat.locator("button.wg-copy").get_attribute("data-link") == href
    for code in codes:  # the rooms' list has them too
        page.locator(f".wg-room-list tr[data-code='{code}']").wait_for()
    context.close()

    # a student: the landing page on Normandy, the code typed, the Allied seat opened
    context = wg_browser.new_context(viewport={"width": 1500, "height": 1100})
    student = context.new_page()
    student.goto(students, timeout=90_000)
    game = student.locator("select").first
    game.wait_for(timeout=90_000)
    assert "(normandy)" in game.locator("option:checked").inner_text()
    box = student.get_by_placeholder("ABC234")
    box.fill(codes[1].lower())
    box.press("Enter")
    student.get_by_role("button", name="Show the room's links").click()
    allied = student.locator(".wg-rooms-joined a.wg-seat-link[data-seat='allied']")
    allied.wait_for(timeout=30_000)
    href = allied.get_attribute("href")
    seat_url = href if href.startswith("http") else students + href
    student.goto(seat_url, timeout=90_000)
    header = student.locator(".wg-seat-header")
    header.wait_for(timeout=90_000)
    assert codes[1] in header.inner_text()
    context.close()
