"""The Memoir '44 dashboard in a real browser (Debian chromium, python playwright).

Serves ``wargame/ui/memoir.py`` with ``panel serve`` (Pegasus Bridge, seed 44), then: the map
draws every unit, a card is played from the hand, a unit is ordered by clicking its hex, the
reachable hexes are highlighted as the engine says, the unit moves, and undo takes it back.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from wargame.memoir import LAYOUT, MemoirGame
from wargame.ui.browser import click_hex, source_column, wait_for_map
from wargame.ui.memoir import display_hex

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
MAP = "memoir-map"


@pytest.fixture(scope="module")
def memoir_server(chromium_path):
    from conftest import free_port

    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / f"memoir-serve-{port}.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "panel", "serve", str(ROOT / "wargame" / "ui" / "memoir.py"),
         "--port", str(port), "--address", "127.0.0.1",
         "--allow-websocket-origin", f"127.0.0.1:{port}"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "MEMOIR_SCENARIO": "1", "MEMOIR_SEED": "44"})
    url = f"http://127.0.0.1:{port}/memoir"
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"panel serve exited; see {log.name}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def wait_counter_at(page, uid: int, hex_id: str, timeout: float = 10000) -> None:
    page.wait_for_function(
        f"""() => {{ for (const d of Bokeh.documents) {{
            const s = d.get_model_by_name('{MAP}-counters');
            if (s) {{ const u = Array.from(s.data.uid), h = Array.from(s.data.hex);
                      return h[u.indexOf('{uid}')] === '{hex_id}'; }} }} return false; }}""",
        timeout=timeout)


def test_memoir_flow(memoir_server, wg_page):
    page = wg_page
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(memoir_server)
    wait_for_map(page, MAP)
    engine = MemoirGame.from_scenario("1").new_initial_state(44)
    assert len(source_column(page, f"{MAP}-counters", "uid")) == len(engine.live_units())
    page.get_by_text("ALLIES to act").first.wait_for()

    # play the first hand card that lets us order a unit, the same way in the engine
    play = None
    for a in [x for x in engine.legal_actions() if x.kind == "play"]:
        trial = engine.clone()
        trial.apply(a)
        if any(x.kind == "order" for x in trial.legal_actions()):
            play = a
            break
    assert play is not None
    engine.apply(play)
    from wargame.memoir import card

    page.get_by_role("button", name=card(play.card).title).first.click()
    page.get_by_text("phase order units").first.wait_for()

    # order a unit by clicking it, end orders
    order = next(x for x in engine.legal_actions() if x.kind == "order")
    unit = engine.units[order.unit]
    click_hex(page, display_hex(unit.hex), LAYOUT, MAP)
    page.get_by_text(f"orders unit {unit.id}").first.wait_for()
    engine.apply(order)
    page.get_by_role("button", name="Done ordering").click()
    page.get_by_text("phase move").first.wait_for()
    engine.apply(next(x for x in engine.legal_actions() if x.kind == "end_orders"))

    # select it: the highlighted hexes are the engine's destinations
    click_hex(page, display_hex(unit.hex), LAYOUT, MAP)
    expected = engine.move_options(unit.id)
    page.wait_for_function(
        f"""() => {{ for (const d of Bokeh.documents) {{ const s = d.get_model_by_name(
            '{MAP}-hl'); if (s) return Array.from(s.data.kind).filter(k => k === 'reach')
            .length === {len(expected)}; }} return false; }}""", timeout=10000)
    dest = sorted(expected, key=lambda h: (h.r, h.q))[0]
    click_hex(page, display_hex(dest), LAYOUT, MAP)
    wait_counter_at(page, unit.id, display_hex(dest).id)
    page.get_by_role("button", name="Undo").click()
    wait_counter_at(page, unit.id, display_hex(unit.hex).id)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "memoir-flow.png"), full_page=True)
    assert errors == []
