"""Benchmark: does one session's Load of a long game slow down another session's clicks?

Starts the served app (``panel serve wargame/ui/app.py``, with ``--num-threads N`` for each
N of ``--threads``; 0 = no thread pool), opens two chromium sessions on full Normandy
(python playwright), then:

* session B clicks units repeatedly (click -> the unit's reachable hexes drawn in the
  browser, timed in the page from the pointer press: bench/dashboard.py's measure), first
  with A idle (``idle_click_ms``), then while session A loads a full Normandy bot game
  through the dashboard's Load (FileInput upload) (``during_click_ms``, median and max);
* ``load_s``: A's upload until A shows "Game loaded" (timed in A's page).

Goals: during_click_ms max < 300 while a full save loads; load_s < 0.5 s + transfer. The
last line printed is one JSON object with the figures per thread setting.

    .venv/bin/python bench/latency.py [--threads 0 4] [--clicks 8]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from dashboard import CHROME_ARGS, CHROMIUM, click_targets, free_port  # noqa: E402
from replay import bot_save  # noqa: E402

from tests.support.browser import (  # noqa: E402
    mark_pointer_time,
    serve_app,
    stop_process,
    time_click_to_reach,
    wait_for_map,
)
from wargame.games import open_game  # noqa: E402

SEED = 1944
LOADED = "Game loaded"


def click_once(page: Any, hid: str, n: int) -> float:
    """Click a unit's hex; ms from the press to its ``n`` reachable hexes drawn; deselect."""
    ms = time_click_to_reach(page, hid, n, timeout=60000)
    page.wait_for_timeout(400)  # no double tap
    page.get_by_role("button", name="Deselect").click()
    page.wait_for_timeout(250)
    return float(ms)


WATCH_LOADED = f"""() => {{ window.__wg_done = null; window.__wg_up = performance.now();
    const seen = () => {{ for (const d of Bokeh.documents) for (const m of d.all_models) {{
        const t = m.text; if (typeof t === 'string' && t.includes('{LOADED}')) return true; }}
        return false; }};
    const id = setInterval(() => {{
        if (seen()) {{ window.__wg_done = performance.now(); clearInterval(id); }} }}, 20); }}"""
"""Session A: note the time now, and the first moment a model's text says the game loaded."""


def run(threads: int, save: Path, targets: list[tuple[str, str, int]], clicks: int
        ) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    port = free_port()
    server = serve_app(port, threads)
    url = f"http://127.0.0.1:{port}/app?scenario=normandy&seed={SEED}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
            a = browser.new_page(viewport={"width": 1600, "height": 1200})
            b = browser.new_page(viewport={"width": 1600, "height": 1200})
            for page in (a, b):
                page.goto(url)
                wait_for_map(page, timeout=180000)
            mark_pointer_time(b)
            idle = [click_once(b, hid, n) for hid, _u, n in targets[:clicks]]
            during: list[float] = []
            a.evaluate(WATCH_LOADED)
            a.locator("input[type=file]").set_input_files(str(save))
            t0 = time.perf_counter()
            i = 0
            while True:
                hid, _u, n = targets[i % len(targets)]
                during.append(click_once(b, hid, n))
                i += 1
                done = a.evaluate("() => window.__wg_done")
                if done is not None and len(during) >= 3:
                    break
                if time.perf_counter() - t0 > 180:
                    raise SystemExit("session A's load did not finish in 180 s")
            load_s = (a.evaluate("() => window.__wg_done - window.__wg_up")) / 1000
            browser.close()
    finally:
        stop_process(server)
    return {"idle_click_ms": round(statistics.median(idle), 1),
            "during_click_ms": round(statistics.median(during), 1),
            "during_click_max_ms": round(max(during), 1), "clicks_during": len(during),
            "load_s": round(load_s, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, nargs="*", default=[0, 4])
    parser.add_argument("--clicks", type=int, default=5)
    parser.add_argument("--saves", type=Path,
                        default=Path(tempfile.gettempdir()) / "wargame-bench-replay")
    args = parser.parse_args()
    args.saves.mkdir(parents=True, exist_ok=True)
    save = bot_save("normandy", args.saves)
    targets = click_targets(open_game("normandy").new_state(SEED), max(args.clicks, 3))
    results = {}
    for threads in args.threads:
        r = results[f"threads={threads}"] = run(threads, save, targets, args.clicks)
        print(f"--num-threads {threads}: B's click idle {r['idle_click_ms']} ms; during A's "
              f"Load median {r['during_click_ms']} ms, max {r['during_click_max_ms']} ms "
              f"({r['clicks_during']} clicks); A's Load {r['load_s']} s", flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
