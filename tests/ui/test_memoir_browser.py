"""The Memoir '44 dashboard in a real browser (Debian chromium, python playwright).

Served by the one serve path (``panel serve wargame/ui/app.py``, ``?scenario=memoir44-1``,
Pegasus Bridge, seed 44), then: the map draws every unit, a card is played from the hand, a
unit is ordered by clicking its hex, the reachable hexes are highlighted as the engine says,
the unit moves, undo takes it back, Save downloads the game, New game starts over and Load of
the downloaded file restores the same position. An unknown scenario id shows the known ones.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support.browser import click_hex, source_column, wait_for_map
from wargame.memoir import LAYOUT, MemoirGame
from wargame.saves import from_save
from wargame.ui.memoir import display_hex

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
MAP = "memoir-map"


@pytest.fixture(scope="module")
def memoir_server(dashboard_server):
    return f"{dashboard_server}?scenario=memoir44-1&seed=44"


def page_positions(page) -> dict[str, str]:
    return dict(zip(source_column(page, f"{MAP}-counters", "uid"),
                    source_column(page, f"{MAP}-counters", "hex"), strict=True))


def engine_positions(state) -> dict[str, str]:
    return {str(u.id): display_hex(u.hex).id for u in state.live_units()}


def wait_counter_at(page, uid: int, hex_id: str, timeout: float = 10000) -> None:
    page.wait_for_function(
        f"""() => {{ for (const d of Bokeh.documents) {{
            const s = d.get_model_by_name('{MAP}-counters');
            if (s) {{ const u = Array.from(s.data.uid), h = Array.from(s.data.hex);
                      return h[u.indexOf('{uid}')] === '{hex_id}'; }} }} return false; }}""",
        timeout=timeout)


def test_memoir_flow(memoir_server, wg_page, tmp_path):
    page = wg_page
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(memoir_server)
    wait_for_map(page, MAP)
    engine = MemoirGame.from_scenario("1").new_state(44)
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
    page.get_by_text(re.compile("Undone: .* moves to row")).first.wait_for()
    page.locator(".m44-actions").filter(has_text=f"{len(engine.history)} actions").wait_for()
    assert page_positions(page) == engine_positions(engine)

    # Save downloads the game; New game starts over; Load of the file restores the position
    with page.expect_download() as dl:
        page.get_by_role("button", name="Save").click()
    path = tmp_path / "memoir-save.json"
    dl.value.save_as(path)
    data = json.loads(path.read_text())
    assert data["format"] == "wargame-save" and data["scenario"] == "memoir44-1"
    assert data["actions"] == engine.action_log
    assert data["fingerprint"] == json.loads(json.dumps(engine.fingerprint()))
    page.get_by_role("button", name="New game").click()
    page.get_by_role("button", name=re.compile("Really start a new game")).click()
    page.locator(".m44-actions").filter(has_text="0 actions").wait_for()
    page.locator(".m44-actions").filter(has_text="Seed 44,").wait_for(state="detached")
    page.get_by_text("phase play a card").first.wait_for()
    page.locator("input[type=file][accept='.json']").set_input_files(str(path))
    page.locator(".m44-message").filter(has_text="Game loaded").wait_for()
    page.locator(".m44-actions").filter(has_text=f"{len(engine.history)} actions").wait_for()
    page.get_by_text("phase move").first.wait_for()
    loaded = from_save(data, source=str(path))
    assert loaded.fingerprint() == engine.fingerprint()
    assert page_positions(page) == engine_positions(loaded)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "memoir-flow.png"), full_page=True)
    assert errors == []


def test_unknown_scenario_lists_the_known_ids(dashboard_server, wg_page):
    page = wg_page
    page.goto(f"{dashboard_server}?scenario=../../etc/passwd")
    page.locator(".wg-unknown-scenario").filter(has_text="Unknown scenario").wait_for()
    text = page.locator(".wg-unknown-scenario").inner_text()
    assert "memoir44-1" in text and "normandy" in text and "passwd" in text
