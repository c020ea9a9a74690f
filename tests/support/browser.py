"""Helpers to drive the dashboard in a real browser (python playwright), for the tests, the
benches and tools/dashboard_screenshots.py (not part of the package: nothing in wargame/ imports
playwright): find Debian's chromium, serve the app in a child process and stop it, wait for
the map, click a hex by mapping data coordinates to pixels with the Bokeh figure view's scales
(docs/STACK-NOTES.md), read a data source, time a click.

Scripts outside pytest (bench/, tools/) put the repository root on ``sys.path`` and import
``tests.support.browser``."""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO, Any

from wargame.hexgrid import Hex, Layout

__all__ = ["wait_for_map", "hex_pixel", "click_hex", "source_column", "mark_pointer_time",
           "serve_app", "stop_process", "CLICK_GAP_S", "watch_server_changes",
           "time_click_to_server_reach", "CHROMIUM", "CHROME_ARGS", "find_chromium",
           "free_port", "start_app", "ROOT", "ARTIFACTS", "page_text"]

ROOT = Path(__file__).resolve().parents[2]
# everything tests and tools write that is not a tracked file (git-ignored)
ARTIFACTS = ROOT / "test-artifacts"
# the dashboard's Panel app of the wargame that is imported (the checkout's, or an installed one)
APP = Path(importlib.util.find_spec("wargame.ui").submodule_search_locations[0]) / "app.py"
CHROMIUM = "/usr/bin/chromium"
CHROME_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def find_chromium() -> str | None:
    """Debian's chromium; runs tools/ensure_chromium.sh once when it is missing."""
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    script = ROOT / "tools" / "ensure_chromium.sh"
    if script.exists() and shutil.which("bash"):
        subprocess.run(["bash", str(script)], check=False, timeout=600)
    return CHROMIUM if os.access(CHROMIUM, os.X_OK) else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(port: int, env: dict[str, str] | None = None) -> subprocess.Popen:
    """``python -m panel serve wargame/ui/app.py`` on 127.0.0.1:port (``serve_app``), polled
    until it answers (3 minutes: a loaded machine), its output in
    test-artifacts/panel-serve-PORT.log."""
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / f"panel-serve-{port}.log", "w")  # noqa: SIM115
    try:
        return serve_app(port, log=log, env={**os.environ, **(env or {})}, timeout=180)
    except RuntimeError as exc:
        raise RuntimeError(f"{exc}; see {log.name}") from None


def serve_app(port: int, threads: int = 0, log: IO[Any] | None = None,
              env: dict[str, str] | None = None, timeout: float = 60,
              liveness: bool = False) -> subprocess.Popen:
    """``python -m panel serve wargame/ui/app.py`` on 127.0.0.1:``port`` (``threads``: Panel's
    thread pool, 0 for none), polled until it answers; RuntimeError if it exits or does not
    answer within ``timeout`` seconds. ``log``: where its output goes (default nowhere).

    The poll asks Panel's cheap ``/liveness`` endpoint, then loads ``/app`` once with the time
    left: polling ``/app`` itself with a short timeout builds a whole dashboard session per try,
    and on a loaded machine the abandoned sessions kept the server from ever answering.
    ``liveness``: return after ``/liveness``, so that no session has been built (no app script
    run): a cold server for a first load."""
    cmd = [sys.executable, "-m", "panel", "serve", str(APP), "--port", str(port),
           "--address", "127.0.0.1", "--allow-websocket-origin", f"127.0.0.1:{port}",
           "--liveness", "--setup", str(APP.parent / "warm_setup.py")]
    if threads:
        cmd += ["--num-threads", str(threads)]
    out = log if log is not None else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                            env=env)
    deadline = time.time() + timeout
    for path in ("/liveness",) if liveness else ("/liveness", "/app"):
        while time.time() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"panel serve exited with {proc.returncode}")
            try:
                wait = 2 if path == "/liveness" else max(2.0, deadline - time.time())
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=wait) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.3)
        else:
            stop_process(proc)
            raise RuntimeError(f"panel serve did not answer {path} within {timeout:.0f} s")
    return proc


def stop_process(proc: subprocess.Popen, timeout: float = 10) -> None:
    """Terminate a served app (or any child), and kill it if it has not ended in ``timeout``."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()

CLICK_GAP_S = 0.5  # two clicks within ~300 ms are a double tap (docs/STACK-NOTES.md)

_FIND = """
(name) => {
  if (!window.Bokeh || !Bokeh.documents) return null;
  for (const doc of Bokeh.documents) {
    const m = doc.get_model_by_name(name);
    if (m) return m;
  }
  return null;
}
"""


# every text node of the page, shadow roots included (Panel draws its panes in shadow DOM, which
# document.body.innerText leaves out), one line per element's text
_PAGE_TEXT = """() => {
  const out = [];
  const walk = (n) => {
    if (n.nodeType === 3) { const t = n.textContent.trim(); if (t) out.push(t); return; }
    if (n.nodeType !== 1 && n.nodeType !== 11) return;
    if (n.nodeType === 1) {
      if (['STYLE', 'SCRIPT'].includes(n.tagName)) return;
      if (n.shadowRoot) walk(n.shadowRoot);
    }
    for (const c of n.childNodes) walk(c);
  };
  if (document.body) walk(document.body);
  return out.join('\\n');
}"""


def page_text(page: Any) -> str:
    """The page's text, shadow roots included (what a failing test prints)."""
    return page.evaluate(_PAGE_TEXT)


def wait_for_map(page: Any, name: str = "hexmap", timeout: float = 30000) -> None:
    page.wait_for_function(
        f"""() => {{ const find = {_FIND}; const fig = find('{name}');
            if (!fig) return false; const v = Bokeh.index.find_one(fig);
            return !!(v && v.frame && v.canvas_view); }}""", timeout=timeout)


def hex_pixel(page: Any, h: Hex | str, layout: Layout | None = None,
              name: str = "hexmap", scroll: bool = True) -> tuple[float, float]:
    """Page pixel of a hex centre: Layout -> data coordinates -> the view's frame scales.
    Scrolls the page first when the hex is outside the window (unless ``scroll`` is False:
    to check where the hex is drawn now)."""
    h = Hex.from_id(h) if isinstance(h, str) else h
    x, y = (layout or Layout("flattop", 1.0)).to_xy(h)
    px, py = page.evaluate(
        f"""([name, x, y]) => {{ const find = {_FIND}; const fig = find(name);
            const v = Bokeh.index.find_one(fig);
            let r = v.canvas_view.el.getBoundingClientRect();
            let px = r.x + v.frame.x_scale.compute(x), py = r.y + v.frame.y_scale.compute(y);
            if ({'true' if scroll else 'false'} &&
                (py < 0 || py > window.innerHeight || px < 0 || px > window.innerWidth)) {{
              // scrolled away (a button further down was clicked): bring the hex into view
              window.scrollBy(px - window.innerWidth / 2, py - window.innerHeight / 2);
              r = v.canvas_view.el.getBoundingClientRect();
              px = r.x + v.frame.x_scale.compute(x); py = r.y + v.frame.y_scale.compute(y);
            }}
            return [px, py]; }}""",
        [name, x, y])
    return px, py


def click_hex(page: Any, h: Hex | str, layout: Layout | None = None, name: str = "hexmap",
              gap: float = CLICK_GAP_S) -> None:
    """Click the centre of a hex, then wait ``gap`` so the next click is not a double tap."""
    px, py = hex_pixel(page, h, layout, name)
    page.mouse.click(px, py)
    page.wait_for_timeout(int(gap * 1000))


def source_column(page: Any, source_name: str, column: str) -> list:
    return page.evaluate(
        f"""([n, c]) => {{ const find = {_FIND}; const s = find(n);
            return s ? Array.from(s.data[c] || []) : null; }}""", [source_name, column])


def mark_pointer_time(page: Any) -> None:
    """Record ``window.__wg_t0`` at every pointer press (click-to-draw timing)."""
    page.evaluate("""() => { if (window.__wg_mark) return; window.__wg_mark = true;
        window.addEventListener('pointerdown', () => { window.__wg_t0 = performance.now(); },
                                true); }""")


def time_click_to_reach(page: Any, hid: str, n: int, timeout: float = 10000) -> float:
    """Click the counter on ``hid`` and return the ms from the pointer press (needs
    ``mark_pointer_time``) until its ``n`` reachable hexes are drawn in the browser."""
    px, py = hex_pixel(page, hid)
    page.evaluate("() => { window.__wg_t0 = null; window.__wg_t1 = null; }")
    page.mouse.click(px, py)
    page.wait_for_function(
        f"""() => {{ for (const d of Bokeh.documents) {{
            const s = d.get_model_by_name('hexmap-hl'); if (!s) continue;
            const k = Array.from(s.data.kind);
            if (k.filter(x => x === 'reach').length !== {n}) return false;
            window.__wg_t1 = performance.now(); return true; }}
            return false; }}""", polling="raf", timeout=timeout)
    return float(page.evaluate("() => window.__wg_t1 - window.__wg_t0"))


_WATCH = """
() => { if (window.__wg_watch) return; window.__wg_watch = true;
  window.__wg_server = null; window.__wg_want = null; window.__wg_first = null;
  const reach = (m) => Array.from(m.data.kind || []).filter(k => k === 'reach').length;
  const first = (m) => () => {  // any change of the highlight source: prediction or server
    if (window.__wg_want === null || window.__wg_first !== null) return;
    if (reach(m) !== window.__wg_want) return;
    window.__wg_first = performance.now();
    requestAnimationFrame(() => { window.__wg_first_drawn = performance.now(); });
  };
  for (const doc of Bokeh.documents) {
    const hl = doc.get_model_by_name('hexmap-hl');
    if (!hl) continue;
    const f = first(hl);
    for (const sig of [hl.change, hl.properties.data.change, hl.streaming, hl.patching]) {
      if (sig) sig.connect(f);
    }
  }
  for (const doc of Bokeh.documents) doc.on_change((ev) => {
    // sync === false: a change applied from a server message (PATCH-DOC); changes made in the
    // page (the click prediction, a selection) have sync true or emit no document event
    const m = ev.model;
    if (ev.sync === true && ev.attr === 'indices' && window.__wg_tap === null) {
      window.__wg_tap = performance.now();  // the tap reached Bokeh: the selection it sends
    }
    if (!m || m.name !== 'hexmap-hl' || ev.sync === true) return;
    const t = performance.now(), n = reach(m);
    (window.__wg_server_log = window.__wg_server_log || []).push([t, n]);
    if (window.__wg_want !== null && n === window.__wg_want && window.__wg_server === null) {
      window.__wg_server = t;
      requestAnimationFrame(() => { window.__wg_server_drawn = performance.now(); });
    }
  }, false);
}
"""


def watch_server_changes(page: Any) -> None:
    """Note in the page when a server message changes the map's highlight source (Bokeh
    document events with ``sync`` false): ``time_click_to_server_reach`` reads it. Call once
    per page after ``wait_for_map`` (and ``mark_pointer_time``)."""
    page.evaluate(_WATCH)


def time_click_to_server_reach(page: Any, hid: str, n: int, timeout: float = 60000
                               ) -> dict[str, float]:
    """Click the counter on ``hid``; ms from the pointer press until (``browser_ms``) its
    ``n`` reachable hexes are in the highlight source in the page (the browser's own
    prediction when it has one, else the server's answer; seen by a listener on the source,
    ``browser_drawn_ms`` the frame after it; ``polled_ms``: ``time_click_to_reach``'s figure,
    which also counts playwright's delay in starting to poll), (``server_ms``) the server's
    message carrying them has been applied to the page's document, and (``server_drawn_ms``)
    the next animation frame after it; ``tap_ms``: until the page sent the selection (Bokeh's
    tap handled: ``server_ms - tap_ms`` is the round trip to the server). Needs
    ``mark_pointer_time`` and
    ``watch_server_changes``."""
    page.evaluate("() => { window.__wg_server = null; window.__wg_server_drawn = null;"
                  " window.__wg_tap = null; window.__wg_first = null;"
                  " window.__wg_first_drawn = null;"
                  f" window.__wg_want = {int(n)}; }}")
    browser_ms = time_click_to_reach(page, hid, n, timeout=timeout)
    page.wait_for_function("() => window.__wg_server_drawn !== null"
                           " && window.__wg_first_drawn !== null", polling=20, timeout=timeout)
    server_ms, drawn_ms, tap_ms, first_ms, first_drawn_ms = page.evaluate(
        "() => [window.__wg_server - window.__wg_t0, window.__wg_server_drawn - window.__wg_t0,"
        " window.__wg_tap === null ? null : window.__wg_tap - window.__wg_t0,"
        " window.__wg_first - window.__wg_t0, window.__wg_first_drawn - window.__wg_t0]")
    page.evaluate("() => { window.__wg_want = null; }")
    return {"polled_ms": browser_ms, "browser_ms": float(first_ms),
            "browser_drawn_ms": float(first_drawn_ms), "server_ms": float(server_ms),
            "server_drawn_ms": float(drawn_ms),
            "tap_ms": float("nan") if tap_ms is None else float(tap_ms)}
