"""Helpers to drive the dashboard in a real browser (python playwright): serve the app in a
child process and stop it, wait for the map, click a hex by mapping data coordinates to pixels
with the Bokeh figure view's scales (STACK-NOTES), read a data source. Used by tests/ui, the
benches and tools/dashboard_screenshots.py."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO, Any

from wargame.hexgrid import Hex, Layout

__all__ = ["wait_for_map", "hex_pixel", "click_hex", "source_column", "mark_pointer_time",
           "serve_app", "stop_process", "CLICK_GAP_S"]

APP = Path(__file__).resolve().parent / "app.py"


def serve_app(port: int, threads: int = 0, log: IO[Any] | None = None,
              env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.Popen:
    """``python -m panel serve wargame/ui/app.py`` on 127.0.0.1:``port`` (``threads``: Panel's
    thread pool, 0 for none), polled until it answers; RuntimeError if it exits or does not
    answer within ``timeout`` seconds. ``log``: where its output goes (default nowhere).

    The poll asks Panel's cheap ``/liveness`` endpoint, then loads ``/app`` once with the time
    left: polling ``/app`` itself with a short timeout builds a whole dashboard session per try,
    and on a loaded machine the abandoned sessions kept the server from ever answering."""
    cmd = [sys.executable, "-m", "panel", "serve", str(APP), "--port", str(port),
           "--address", "127.0.0.1", "--allow-websocket-origin", f"127.0.0.1:{port}",
           "--liveness"]
    if threads:
        cmd += ["--num-threads", str(threads)]
    out = log if log is not None else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, cwd=APP.parents[2], stdout=out, stderr=subprocess.STDOUT,
                            env=env)
    deadline = time.time() + timeout
    for path in ("/liveness", "/app"):
        while time.time() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"panel serve exited with {proc.returncode}")
            try:
                wait = 2 if path == "/liveness" else max(1.0, deadline - time.time())
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

CLICK_GAP_S = 0.5  # two clicks within ~300 ms are a double tap (STACK-NOTES)

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
