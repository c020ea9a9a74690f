"""The rooms on Binder (issue #29 item 4), served as jupyter-panel-proxy serves them there.

The proxy's own launch command (``panel_server._launch_command``, read from
jupyter-panel-proxy.yml in the repository root, as on Binder) is run with a Binder-like
prefix, without Jupyter in front (the Jupyter side is tests/binder/test_binder_setup.py's):
the landing page answers at ``/panel/rooms`` and at ``/panel/`` (the proxy's index), and in
chromium the teacher's page, with the key ``wargame.class_server.binder_links`` gives a
notebook, creates two rooms whose seat links open seats under the same prefix.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urljoin

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
PREFIX = "/user/teacher-x1y2/"  # a Binder session's path (JUPYTERHUB_SERVICE_PREFIX)


def get(url: str, deadline: float) -> tuple[int, str]:
    while True:
        try:
            with urllib.request.urlopen(url, timeout=30) as reply:
                return reply.status, reply.read().decode("utf-8", "replace")
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.5)


@pytest.fixture(scope="module")
def binder_rooms(tmp_path_factory, port_finder):
    """``panel serve`` as jupyter-panel-proxy starts it on Binder; yields (base, links)."""
    panel_server = pytest.importorskip("panel_server", reason="jupyter-panel-proxy (binder extra)")
    home = tmp_path_factory.mktemp("binder-rooms")
    port = port_finder()
    cwd = Path.cwd()
    os.chdir(ROOT)  # the proxy reads jupyter-panel-proxy.yml from the current folder
    try:
        command = panel_server._launch_command(port)
    finally:
        os.chdir(cwd)
    command = [c.replace("{base_url}", PREFIX) for c in command]
    assert command[:2] == ["panel", "serve"]
    assert {"binder/rooms.py", "binder/room.py", "binder/teacher.py"} <= set(command)
    env = {**os.environ, "WARGAME_HOME": str(home), "PYTHONPATH": str(ROOT),
           "PYTHONUNBUFFERED": "1"}
    # the notebook's helper makes the key first; the server must read the same one
    links = subprocess.run(
        [sys.executable, "-c", "from wargame.class_server import binder_links as b; "
         f"print(b({PREFIX!r})['teacher'])"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout.strip()
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / f"binder-rooms-{port}.log", "w")  # noqa: SIM115
    proc = subprocess.Popen([sys.executable, "-m", "panel", *command[1:]], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}{PREFIX}panel/"
    try:
        yield base, links, home
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def test_the_landing_page_is_served_under_the_proxy_prefix(binder_rooms):
    base, links, home = binder_rooms
    status, page = get(f"{base}rooms", deadline=time.time() + 120)
    assert status == 200 and "<html" in page.lower()
    status, index = get(base, deadline=time.time() + 60)  # index: rooms
    assert status == 200 and "<html" in index.lower()
    assert links.startswith(f"{PREFIX}panel/teacher?key=")
    key = links.split("key=", 1)[1]
    assert len(key) >= 22
    key_file = home / "class" / "binder-teacher-key"
    assert key_file.read_text().strip() == key and key_file.stat().st_mode & 0o077 == 0


def test_rooms_made_on_the_teachers_page_open_their_seats(binder_rooms, wg_browser):
    base, links, _ = binder_rooms
    get(f"{base}rooms", deadline=time.time() + 120)
    context = wg_browser.new_context(viewport={"width": 1500, "height": 1100})
    page = context.new_page()
    teacher = urljoin(base, links)
    page.goto(teacher, timeout=90_000)
    count = page.locator(".wg-class-count input")
    count.wait_for(timeout=90_000)
    count.fill("2")
    count.press("Enter")
    page.get_by_role("button", name="Create the rooms").click()
    rooms = page.locator(".wg-class-room")
    rooms.nth(1).wait_for(timeout=60_000)
    codes = [rooms.nth(i).get_attribute("data-code") for i in range(2)]
    assert all(re.fullmatch(r"[A-Z0-9]{4,8}", c) for c in codes)
    links_ = page.locator(".wg-class-rooms a.wg-seat-link")
    assert links_.count() == 4
    href = links_.first.get_attribute("href")
    seat_url = urljoin(page.url, href)
    assert seat_url.startswith(f"{base}room?seat="), seat_url
    page.goto(seat_url, timeout=90_000)
    header = page.locator(".wg-seat-header")
    header.wait_for(timeout=90_000)
    assert codes[0] in header.inner_text()
    page.screenshot(path=str(ARTIFACTS / "binder-rooms-seat.png"))
    context.close()
