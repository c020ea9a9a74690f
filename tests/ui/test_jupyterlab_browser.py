"""Issue 15 in a JupyterLab cell (the project's own JupyterLab and Panel's pyviz extension,
chromium at 1280x720, file browser closed as on a projector): the campaign dashboard renders in a
notebook output (pn.extension(inline=True): no CDN), with no
horizontal scroll of the page, and no request to any host but the local server (no CDN, not
even for the stylesheets of panels drawn after a click); after clicking an enemy hex the attack panel is in the window;
after the retreat decision opens, the decision panel and the first hex it asks for are both in
the window (the dashboard scrolled to the top of the notebook, as a teacher would).

Issue 28: with the browser window opened at the size that makes the notebook's output area
about 430 px and about 900 px wide (a laptop's half screen, a projector), the campaign and the
Memoir '44 dashboards cut nothing: the page does not scroll sideways, the output area does not
scroll inside, the map's frame lies within the cell (its left edge: "uderville" was cut), and
the side panel, its tabs and the attack panel (the hand and the buttons for Memoir) are not cut
on the right."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support.browser import _FIND, click_hex, hex_pixel, page_text, wait_for_map
from tests.support.waiting import campaign_progress, click_until_changed, settle

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
SEED = 1946  # test_projector_browser.SEED: Omaha's defence, loss and retreat with dice 2


CAMPAIGN = ("from wargame.ui.campaign import CampaignDashboard\n"
            f"dash = CampaignDashboard('normandy', seed={SEED})\ndash")
MEMOIR = "from wargame.ui.memoir import MemoirDashboard\ndash = MemoirDashboard('1', seed=44)\ndash"
# the output area's width -> the window's that gives it, JupyterLab 4 with both side areas
# collapsed (measured in chromium: the cell's prompt and margins take 116 px of a window under
# about 760 px, 180 px above); the test checks the width it got
CELL_WIDTHS = {430: 546, 900: 1080}
# one notebook a test: a notebook's kernel is shared by every page that opens it
NOTEBOOKS = {"dash": CAMPAIGN, **{f"{kind}-{w}": code for w in CELL_WIDTHS
                                  for kind, code in (("campaign", CAMPAIGN), ("memoir", MEMOIR))}}


def _notebook(path: Path, code: str = NOTEBOOKS["dash"]) -> None:
    cells = ["import panel as pn\npn.extension(inline=True)", code]
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {},
                     "outputs": [], "source": c, "id": f"cell{i}"}
                    for i, c in enumerate(cells)],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                      "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def jupyter_lab(tmp_path_factory, chromium_path):
    """One JupyterLab for the module, its root a folder with the notebooks of ``NOTEBOOKS``;
    JupyterLab's news and update notices off (a popup over the dashboard's corner)."""
    jupyter = Path(sys.executable).parent / "jupyter"
    if not jupyter.exists():
        pytest.skip("no jupyter in this environment")
    tmp_path = tmp_path_factory.mktemp("lab")
    for name, code in NOTEBOOKS.items():
        _notebook(tmp_path / f"{name}.ipynb", code)
    settings = tmp_path / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    port, token = _free_port(), secrets.token_hex(16)
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / "jupyterlab-projector.log", "w")  # noqa: SIM115
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
           "JUPYTER_CONFIG_DIR": str(tmp_path / "config"), "PYTHONPATH": str(ROOT),
           "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings")}
    proc = subprocess.Popen(
        [str(jupyter), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={tmp_path}",
         "--LabApp.news_url=", "--LabApp.expose_app_in_browser=True",
         *(["--allow-root"] if os.geteuid() == 0 else [])],
        cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"jupyter lab exited; see {log.name}")
        try:
            with urllib.request.urlopen(f"{base}/api?token={token}", timeout=2):
                break
        except OSError:
            time.sleep(0.5)
    else:
        proc.terminate()
        raise AssertionError("jupyter lab did not answer within 90 s")
    yield {"base": base, "token": token}
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def _in_window(page, box) -> bool:
    w, h = page.evaluate("() => [window.innerWidth, window.innerHeight]")
    return bool(box) and box["x"] >= 0 and box["y"] >= 0 and \
        box["x"] + box["width"] <= w + 1 and box["y"] + box["height"] <= h + 1


def test_dashboard_in_a_jupyterlab_cell(jupyter_lab, wg_browser):
    from test_projector_browser import TARGET, first_retreat_hex  # the game of SEED

    context = wg_browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    msgs: list[str] = []
    page.on("console", lambda m: msgs.append(f"{m.type}: {m.text}"[:300]))
    page.on("pageerror", lambda e: msgs.append(f"pageerror: {e}"[:300]))
    # nothing may be asked of another host (a CDN): offline, each one is a failed request
    remote: list[str] = []
    page.on("request", lambda r: remote.append(r.url) if urlsplit(r.url).hostname not in
            (None, "127.0.0.1", "localhost") and urlsplit(r.url).scheme in ("http", "https",
                                                                             "ws", "wss")
            else None)
    # the stylesheets of panels drawn after a click come from Jupyter's Panel extension: found
    missing: list[str] = []
    page.on("response", lambda r: missing.append(f"{r.status} {r.url}")
            if "/panel-preview/" in r.url and r.status >= 400 else None)
    try:
        page.goto(f"{jupyter_lab['base']}/lab/tree/dash.ipynb?token={jupyter_lab['token']}")
        page.wait_for_function(
            """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                       return !!(w && w.sessionContext && w.sessionContext.session
                                 && w.sessionContext.session.kernel
                                 && w.sessionContext.session.kernel.status === 'idle'); }""",
            timeout=120000)
        # as on a projector: the file browser closed, the notebook as wide as the window
        page.evaluate("""() => { const a = window.jupyterapp;
            if (!a.shell.leftCollapsed) a.commands.execute('application:toggle-left-area'); }""")
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        try:
            wait_for_map(page, timeout=60000)
        except Exception:
            page.screenshot(path=str(ARTIFACTS / "jupyterlab-no-map.png"))
            print("\n".join(msgs[-40:]))
            print(page.evaluate("() => [typeof Bokeh, window.Bokeh && Bokeh.documents && Bokeh.documents.length, document.querySelectorAll('.jp-OutputArea-output').length, Array.from(document.querySelectorAll('.jp-OutputArea-output')).map(e => e.className + ' ' + e.innerHTML.length)]"))
            raise
        page.locator(".wg-phase").filter(has_text="Allied movement").wait_for(timeout=60000)
        assert page.evaluate(
            "() => document.scrollingElement.scrollWidth <= window.innerWidth")
        page.get_by_role("button", name="End phase", exact=True).click()
        page.locator(".wg-phase").filter(has_text="Allied combat").wait_for()
        page.locator(".wg-dashboard").evaluate("e => e.scrollIntoView({block: 'start'})")
        settle(page, page.locator(".wg-dashboard"))
        click_hex(page, TARGET)
        panel = page.locator(".wg-attack-panel")
        panel.filter(has_text="Attack on Colleville").wait_for()
        page.locator(".wg-dashboard").evaluate("e => e.scrollIntoView({block: 'start'})")
        settle(page, panel)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-attack.png"))
        assert _in_window(page, panel.bounding_box()), panel.bounding_box()
        page.get_by_role("button", name="Roll the attack").click()
        decision = page.locator(".wg-decision-panel")
        # the roll's decisions shown before any Auto (an Auto clicked while the kernel was
        # still rolling answered the retreat itself: a fresh-clone run under load waited 30 s
        # for a retreat that had been made)
        decision.locator(".wg-answers").filter(has_text="Attack on Colleville").wait_for(
            timeout=60000)
        retreat = first_retreat_hex()
        for _ in range(5):
            if decision.locator(".wg-decision").filter(has_text="retreat").count():
                break
            click_until_changed(page, page.get_by_role("button", name="Auto"), campaign_progress)
        decision.locator(".wg-decision").filter(has_text="retreat").wait_for()
        page.locator(".wg-dashboard").evaluate("e => e.scrollIntoView({block: 'start'})")
        settle(page, decision)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-retreat.png"))
        assert _in_window(page, decision.bounding_box()), decision.bounding_box()
        x, y = hex_pixel(page, retreat, scroll=False)
        w, h = page.evaluate("() => [window.innerWidth, window.innerHeight]")
        assert 0 <= x <= w and 0 <= y <= h, (x, y)
        assert page.evaluate(
            "() => document.scrollingElement.scrollWidth <= window.innerWidth")
        assert not remote, sorted(set(remote))[:10]
        assert not missing, missing[:10]
    finally:
        context.close()


# ---------------------------------------------------------------------- narrow cells (issue 28)
def _open_and_run(page, lab: dict, notebook: str, map_name: str) -> None:
    """Open ``notebook`` in JupyterLab, its file browser closed, and run it to the map. In a
    workspace of its own, reset: the server keeps each workspace's open tabs, and the one
    shared with an earlier test would open that test's notebook beside this one."""
    page.goto(f"{lab['base']}/lab/workspaces/{notebook}/tree/{notebook}.ipynb"
              f"?reset&token={lab['token']}")
    page.wait_for_function(
        """(path) => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                   return !!(w && w.context && w.context.path === path && w.sessionContext
                             && w.sessionContext.session && w.sessionContext.session.kernel
                             && w.sessionContext.session.kernel.status === 'idle'); }""",
        arg=f"{notebook}.ipynb", timeout=120000)
    page.evaluate("""() => { const a = window.jupyterapp;
        if (!a.shell.leftCollapsed) a.commands.execute('application:toggle-left-area'); }""")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    wait_for_map(page, map_name, timeout=120000)


def _cell(page) -> dict:
    """The dashboard's output area: its box, and its content's width against its own."""
    return page.evaluate(
        """() => { const o = Array.from(document.querySelectorAll('.jp-OutputArea-output')).pop();
            const r = o.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height, sw: o.scrollWidth,
                    cw: o.clientWidth,
                    page_sw: document.scrollingElement.scrollWidth, w: window.innerWidth}; }""")


def _map_frame(page, name: str) -> dict:
    return page.evaluate(
        f"""() => {{ const find = {_FIND}; const v = Bokeh.index.find_one(find('{name}'));
            const r = v.canvas_view.el.getBoundingClientRect(), f = v.frame.bbox;
            return {{x: r.x + f.left, y: r.y + f.top, width: f.width, height: f.height}}; }}""")


def _cut(cell: dict, box: dict | None, what: str) -> list[str]:
    """What of ``box`` lies outside the cell, left or right."""
    if not box:
        return [f"{what}: not drawn"]
    if box["x"] < cell["x"] - 1 or box["x"] + box["width"] > cell["x"] + cell["width"] + 1:
        return [f"{what} cut: x {box['x']:.0f}-{box['x'] + box['width']:.0f}, cell "
                f"{cell['x']:.0f}-{cell['x'] + cell['width']:.0f}"]
    return []


@pytest.mark.parametrize("kind", ["campaign", "memoir"])
@pytest.mark.parametrize("width", list(CELL_WIDTHS))
def test_narrow_cell_cuts_nothing(jupyter_lab, wg_browser, kind, width):
    map_name = "hexmap" if kind == "campaign" else "memoir-map"
    context = wg_browser.new_context(viewport={"width": CELL_WIDTHS[width], "height": 800})
    page = context.new_page()
    shot = ARTIFACTS / f"jupyterlab-{kind}-{width}.png"
    try:
        _open_and_run(page, jupyter_lab, f"{kind}-{width}", map_name)
        cell = settle(page, probe=_cell)
        assert abs(cell["width"] - width) <= 20, cell  # the window gave the cell it aimed at
        problems = []
        if cell["sw"] > cell["cw"] + 1:
            problems.append(f"the cell scrolls sideways: {cell['sw']} > {cell['cw']} px")
        if cell["page_sw"] > cell["w"] + 1:
            problems.append(f"the page scrolls sideways: {cell['page_sw']} > {cell['w']} px")
        frame = settle(page, probe=lambda p: _map_frame(p, map_name))
        problems += _cut(cell, frame, "the map")
        if kind == "campaign":
            page.locator(".wg-phase").filter(has_text="Allied movement").wait_for()
            for sel in (".wg-action", ".wg-reference", ".wg-reference .bk-tab"):
                for i in range(page.locator(sel).count()):
                    problems += _cut(cell, page.locator(sel).nth(i).bounding_box(), f"{sel}#{i}")
        else:
            page.get_by_text("ALLIES to act").first.wait_for()
            for sel in (".m44-hand", ".m44-controls"):
                problems += _cut(cell, page.locator(sel).first.bounding_box(), sel)
        page.screenshot(path=str(shot))
        assert not problems, problems
        if kind == "campaign":  # the attack panel, the one the class saw cut on the right
            page.get_by_role("button", name="End phase", exact=True).click()
            page.locator(".wg-phase").filter(has_text="Allied combat").wait_for()
            page.evaluate(f"""() => {{ const find = {_FIND};
                Bokeh.index.find_one(find('hexmap')).el.scrollIntoView({{block: 'center'}}); }}""")
            settle(page, probe=lambda p: _map_frame(p, "hexmap"))
            from test_projector_browser import TARGET

            x, y = hex_pixel(page, TARGET, scroll=False)
            page.mouse.click(x, y)
            panel = page.locator(".wg-attack-panel")
            panel.filter(has_text="Attack on Colleville").wait_for()
            panel.first.scroll_into_view_if_needed()
            settle(page, panel)
            page.screenshot(path=str(ARTIFACTS / f"jupyterlab-attack-{width}.png"))
            assert not _cut(_cell(page), panel.first.bounding_box(), "the attack panel")
    except Exception:
        page.screenshot(path=str(shot))
        print(f"screenshot: {shot}\n{page_text(page)[:3000]}")
        raise
    finally:
        context.close()
