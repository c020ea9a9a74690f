"""Sessions never lose a game (issue #31), in a real browser (Debian chromium):

(a) a Load of a file over the save limit is refused in the browser before it is sent (no
    websocket frame near its size leaves the page), with the message in the message bar,
    and the session goes on: a real save loads right after;
(b) a solo game is kept in the browser as it is played: the server is stopped, the page
    says so, the server is started again, the page reloads by itself and offers the kept
    game, which continues where it was;
(c) a room's seat page whose server was killed says so, reloads by itself when the server
    is back, and resumes with its seat at the room's version.
"""

from __future__ import annotations

import json

import pytest

from tests.support.browser import ARTIFACTS, free_port, serve_app, stop_process
from wargame.saves import MAX_SAVE_BYTES

SCENARIO = "memoir44-1"


def saved_game(path, n: int) -> tuple[str, int]:
    """A save of Memoir '44 scenario 1 with ``n`` actions; its path and its history length."""
    from tests.ui.test_store import play
    from wargame.ui.memoir_model import MemoirStore

    store = MemoirStore("1", 44)
    play(store, n)
    path.write_text(store.save_text())
    return str(path), len(store.state.history)


def start_app(port: int):
    """``panel serve wargame/ui/app.py`` (tests/support/browser.py's start_app, with 5 minutes
    to answer: this test starts it twice, on a machine other jobs load)."""
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / f"panel-serve-{port}.log", "a")  # noqa: SIM115
    return serve_app(port, log=log, timeout=300)


@pytest.fixture
def app_port(chromium_path):
    port = free_port()
    procs = [start_app(port)]
    yield port, procs
    for proc in procs:
        stop_process(proc)


def open_page(browser, url: str, sent: list[int] | None = None):
    context = browser.new_context(viewport={"width": 1500, "height": 1100})
    page = context.new_page()
    page.set_default_timeout(120_000)  # a loaded 2-core machine: pages take their time
    if sent is not None:
        page.on("websocket", lambda ws: ws.on(
            "framesent", lambda payload: sent.append(len(payload))))
    page.goto(url, timeout=180_000)
    page.locator(".m44-actions").first.wait_for(timeout=180_000)
    return context, page


def test_a_file_over_the_limit_is_refused_before_it_is_sent(app_port, wg_browser, tmp_path):
    port, _procs = app_port
    sent: list[int] = []
    context, page = open_page(wg_browser, f"http://127.0.0.1:{port}/app?scenario={SCENARIO}",
                              sent)
    try:
        big = tmp_path / "big.json"
        with big.open("wb") as fh:
            fh.truncate(MAX_SAVE_BYTES + 1_000_000)  # 21 MB (sparse: nothing is written)
        page.locator("input[type=file][accept='.json']").set_input_files(str(big))
        page.locator(".m44-message").filter(has_text="larger than the 20 MB").wait_for()
        assert max(sent) < 100_000, max(sent)  # nothing of the file left the page
        path, history = saved_game(tmp_path / "small.json", 5)
        page.locator("input[type=file][accept='.json']").set_input_files(path)  # the session goes on
        page.locator(".m44-message").filter(has_text="Game loaded").wait_for()
        page.locator(".m44-actions").filter(has_text=f"{history} actions").wait_for()
    finally:
        context.close()


def test_a_solo_game_survives_a_server_restart_in_the_browser(app_port, wg_browser, tmp_path):
    port, procs = app_port
    url = f"http://127.0.0.1:{port}/app?scenario={SCENARIO}&lang=pt"
    context, page = open_page(wg_browser, url)
    try:
        path, history = saved_game(tmp_path / "game.json", 7)
        page.locator("input[type=file][accept='.json']").set_input_files(path)
        page.locator(".m44-actions").filter(has_text=f"{history} a").wait_for()
        key = f"wargame.kept.{SCENARIO}"
        page.wait_for_function(
            f"() => (JSON.parse(localStorage.getItem('{key}') || '{{}}').actions || []).length"
            " == 7")
        stop_process(procs.pop())  # the server goes away
        notice = page.locator(".wg-connection-lost")
        notice.wait_for(timeout=60_000)
        assert "O servidor foi-se abaixo" in notice.inner_text()
        procs.append(start_app(port))  # and comes back: the page reloads by itself
        offer = page.locator("body > div.wg-keep-offer")  # the banner the browser draws
        offer.wait_for(timeout=180_000)
        assert "7 ações" in offer.inner_text()  # the plural form (#35 item 7)
        page.get_by_role("button", name="Continuar a partida").click()
        page.locator(".m44-actions").filter(has_text=f"{history} a").wait_for()
        offer.wait_for(state="detached")
        kept = json.loads(page.evaluate(f"localStorage.getItem('{key}')"))
        assert len(kept["actions"]) == 7 and kept["seed"] == 44
    finally:
        context.close()


def test_a_seat_page_reconnects_after_its_server_is_killed(wg_browser, tmp_path):
    from tests.rooms.roomkit import play
    from tests.ui.test_rooms_browser import KEY, RoomsServer, version_of, wait_version
    from wargame.rooms import RoomManager
    from wargame.ui.serve import room_game

    db = tmp_path / "rooms.sqlite"
    with RoomManager(db, games=room_game) as m:
        room = m.create("memoir44-1", seed=9)
        play(room, 4)
        token, version = room.seats["allied"].token, room.version
    server = RoomsServer(db, free_port())
    assert KEY
    server.start()
    context = wg_browser.new_context(viewport={"width": 1500, "height": 1100})
    page = context.new_page()
    page.set_default_timeout(120_000)
    try:
        page.goto(f"{server.url}room?seat={token}", timeout=180_000)
        wait_version(page, version, timeout=180_000)
        server.kill()  # SIGKILL: no goodbye to the page
        page.locator(".wg-connection-lost").wait_for(timeout=60_000)
        server.start()
        page.locator(".wg-connection-lost").wait_for(state="detached", timeout=180_000)
        wait_version(page, version, timeout=180_000)
        assert version_of(page) == version
        assert page.locator(".wg-seat-header").count() == 1
    finally:
        context.close()
        server.stop()
