"""The timing helpers of bench/dashboard.py (tests/support/browser.py), in a real browser: the
server's reply to a unit's selection is seen apart from the browser's own drawing, and a
server started with ``liveness`` answers before any session is built."""

from __future__ import annotations

import urllib.request

from tests.support.browser import (
    mark_pointer_time,
    serve_app,
    stop_process,
    time_click_to_server_reach,
    wait_for_map,
    watch_server_changes,
)
from wargame.operational.state import Game
from wargame.ui.demo import demo_scenario

SEED = 1944


def test_click_times_the_servers_reply(dashboard_server, wg_page):
    page = wg_page
    page.goto(f"{dashboard_server}?demo=1&seed={SEED}")
    wait_for_map(page)
    mark_pointer_time(page)
    watch_server_changes(page)
    n = len(Game(demo_scenario()).new_state(SEED).legal_destinations("us-inf-1"))
    got = time_click_to_server_reach(page, "0405", n)
    assert 0 < got["browser_ms"] and 0 < got["server_ms"] <= got["server_drawn_ms"]
    assert 0 <= got["tap_ms"] < got["server_ms"]  # the selection went out before the reply
    # the page has the hexes (its prediction, or else the reply) no later than the reply
    assert 0 < got["browser_ms"] <= got["server_ms"] + 1 and got["browser_drawn_ms"] > 0
    # the reply seen is a change from the server carrying the unit's n reachable hexes
    log, t0 = page.evaluate("() => [window.__wg_server_log, window.__wg_t0]")
    assert any(k == n and abs(t - t0 - got["server_ms"]) < 1e-6 for t, k in log)
    page.get_by_text("Selected us-inf-1").wait_for()


def test_liveness_server_answers_before_any_session(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(tmp_path / "serve.log", "w")  # noqa: SIM115
    proc = serve_app(port, log=log, liveness=True, timeout=180)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/liveness", timeout=30) as r:
            assert r.status == 200
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/app", timeout=120) as r:
            assert r.status == 200 and b"bokeh" in r.read().lower()
    finally:
        stop_process(proc)
        log.close()
