"""Benchmark of the campaign dashboard in Debian chromium (python playwright).

* Select -> reachable hexes drawn, full Normandy at turn 10 (a seeded random game loaded
  through the dashboard's Load button; else the biggest scenario available), timed in the
  page from the pointer press on a unit's hex (``tests.support.browser.time_click_to_server_reach``):
  - ``click_server_ms``: until the server's websocket message carrying the unit's reachable
    hexes has been applied to the page's Bokeh document (a document change of the map's
    highlight source that came from the server: ``sync`` false) -- the server's reply;
  - ``click_server_drawn_ms``: the next animation frame after it (drawn);
  - ``click_tap_ms``: until the page sends the selection (Bokeh's tap handled), and
    ``click_round_trip_ms`` = server - tap: the server's own share (network, Python, reply);
  - ``click_browser_ms``: until the reachable hexes are in the page's highlight source at all
    (a listener on the source): the browser's own prediction, drawn from a table the server
    sent beforehand, when it has one; else the server's reply; ``click_browser_drawn_ms``:
    the frame after it;
  - ``click_polled_ms``: the earlier figure (playwright polling the source at each frame),
    which also counts playwright's delay in starting to poll.
* ``cold_load_s``: a freshly started server process (``panel serve`` polled on its
  ``/liveness`` endpoint, so no session has been built) and a fresh browser context, from
  navigation to the map's Bokeh view drawn; ``--cold`` times (a new server each time).
  ``server_start_s``: from starting the process until it answers (not in the load).
* ``warm_load_s``: later loads on the same server, each in a fresh browser context (nothing in
  the browser's cache: the only difference from a cold load is the server).
* ``mb_per_session``: server RSS growth per extra open session.

Targets (issue #19): select -> reachable drawn (the server's reply, drawn) <= 0.25 s median,
first (cold) load <= 2.5 s; < 30 MB per session. The last line printed is one JSON object with
the median and p90 of each time, the run's load average and the scenario.

    .venv/bin/python bench/dashboard.py [--cold 3] [--sessions 5] [--clicks 15]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.browser import (  # noqa: E402
    CHROME_ARGS,
    CHROMIUM,
    free_port,
    mark_pointer_time,
    serve_app,
    stop_process,
    time_click_to_server_reach,
    wait_for_map,
    watch_server_changes,
)
from wargame.bots.campaign_random import RandomPolicy  # noqa: E402
from wargame.operational.state import Game  # noqa: E402
from wargame.saves import to_save  # noqa: E402


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def pick_scenario() -> tuple[str, Game]:
    try:
        return "normandy", Game("normandy")
    except Exception as exc:  # noqa: BLE001 - data may still be missing
        print(f"Normandy not available ({exc}); using the demo scenario")
        from wargame.ui.model import make_game

        return "demo", make_game("demo")


def position_at_turn(game: Game, seed: int, turn: int):
    state = game.new_state(seed)
    policy = RandomPolicy(7)
    while (state.turn < turn or not state.phase.is_movement) and not state.is_terminal:
        state.apply(policy.choose(state))
    return state


def click_targets(state, n: int) -> list[tuple[str, str, int]]:
    """(hex id, unit, number of destinations) for hexes whose first own unit can move."""
    side = state.phase.side
    out = []
    seen = set()
    for uid, us in sorted(state.units.items()):
        if us.status != "on_map" or state.side_of(uid) != side or us.hex in seen:
            continue
        own = [u for u in state.units_at(us.hex) if state.side_of(u) == side]
        seen.add(us.hex)
        dest = state.legal_destinations(own[0])
        if dest:
            out.append((us.hex.id, own[0], len(dest)))
    out.sort(key=lambda t: -t[2])
    return out[:n]


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank, as bench/rooms.py)."""
    v = sorted(values)
    return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]


def summary(values: list[float], digits: int) -> dict[str, float]:
    return {"median": round(statistics.median(values), digits),
            "p90": round(percentile(values, 0.9), digits),
            "min": round(min(values), digits), "max": round(max(values), digits),
            "n": len(values)}


def new_page(browser: Any) -> Any:
    """A page in a fresh browser context (empty cache, no cookies)."""
    return browser.new_context(viewport={"width": 1600, "height": 1200}).new_page()


def timed_load(page: Any, url: str) -> float:
    t = time.perf_counter()
    page.goto(url)
    wait_for_map(page, timeout=180000)
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cold", type=int, default=3, help="cold loads (a new server each)")
    parser.add_argument("--sessions", type=int, default=5, help="warm loads / extra sessions")
    parser.add_argument("--clicks", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1944)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    if not os.access(CHROMIUM, os.X_OK):
        subprocess.run(["bash", str(ROOT / "tools/ensure_chromium.sh")], check=False)
    scenario, game = pick_scenario()
    turn = 10 if scenario == "normandy" else 2
    t = time.perf_counter()
    state = position_at_turn(game, args.seed, turn)
    print(f"scenario {scenario}: {len(game.board.hexes)} hexes, {len(game.units)} units; "
          f"random game to turn {state.turn} ({state.phase.value}) in "
          f"{time.perf_counter() - t:.1f} s, {len(state.action_log)} actions")
    save = Path(tempfile.mkdtemp()) / "bench-save.json"
    save.write_text(json.dumps(to_save(state)))
    targets = click_targets(state, args.clicks)
    load_before = os.getloadavg()

    server = None
    cold, starts, warm = [], [], []
    clicks: dict[str, list[float]] = {k: [] for k in (
        "browser_ms", "browser_drawn_ms", "polled_ms", "server_ms", "server_drawn_ms", "tap_ms",
        "round_trip_ms")}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
            # cold first loads: a new server process each time, a fresh browser context
            for k in range(max(1, args.cold)):
                if server is not None:
                    stop_process(server)
                port = free_port()
                t = time.perf_counter()
                server = serve_app(port, liveness=True, timeout=180)
                starts.append(time.perf_counter() - t)
                url = f"http://127.0.0.1:{port}/app?scenario={scenario}&seed={args.seed}"
                page = new_page(browser)
                cold.append(timed_load(page, url))
                print(f"cold load {k + 1}: server answered in {starts[-1]:.2f} s, then "
                      f"navigation -> map drawn {cold[-1]:.2f} s", flush=True)
                if k < args.cold - 1:
                    page.context.close()
            # the last cold page: load the turn-10 position through the dashboard's Load
            page.locator("input[type=file]").set_input_files(str(save))
            page.locator(".wg-message").filter(has_text="Game loaded").wait_for(timeout=120000)
            mark_pointer_time(page)
            watch_server_changes(page)
            for hid, _uid, n in targets:
                got = time_click_to_server_reach(page, hid, n)
                got["round_trip_ms"] = got["server_ms"] - got["tap_ms"]
                for key, ms in got.items():
                    if ms == ms:  # not NaN (no selection event seen)
                        clicks[key].append(ms)
                page.wait_for_timeout(500)  # no double tap
                # else the next click on a reachable friendly stack is a move order
                page.get_by_role("button", name="Deselect").click()
                page.wait_for_timeout(300)
            for key, values in clicks.items():
                print(f"select -> reachable hexes ({key}): median {statistics.median(values):.1f}"
                      f" ms, p90 {percentile(values, 0.9):.1f} ms over {len(values)} units "
                      f"(min {min(values):.1f}, max {max(values):.1f})")
            page.screenshot(path=str(ROOT / "test-artifacts" / "bench-turn10.png"))
            # warm loads (server already serving), each in a fresh context; memory per session
            base = rss_mb(server.pid)
            for _ in range(args.sessions):
                warm.append(timed_load(new_page(browser), url))
            time.sleep(2)
            after = rss_mb(server.pid)
            mb = (after - base) / max(1, args.sessions)
            print(f"cold loads: median {statistics.median(cold):.2f} s; warm loads: median "
                  f"{statistics.median(warm):.2f} s" if warm else "")
            print(f"server RSS {base:.0f} MB -> {after:.0f} MB with {args.sessions} more "
                  f"sessions: {mb:.1f} MB per session")
            browser.close()
    finally:
        if server is not None:
            stop_process(server)
    result = {
        "click_server_ms": summary(clicks["server_ms"], 1),
        "click_server_drawn_ms": summary(clicks["server_drawn_ms"], 1),
        "click_browser_ms": summary(clicks["browser_ms"], 1),
        "click_browser_drawn_ms": summary(clicks["browser_drawn_ms"], 1),
        "click_polled_ms": summary(clicks["polled_ms"], 1),
        "click_tap_ms": summary(clicks["tap_ms"], 1) if clicks["tap_ms"] else None,
        "click_round_trip_ms": (summary(clicks["round_trip_ms"], 1)
                                if clicks["round_trip_ms"] else None),
        "cold_load_s": summary(cold, 2), "server_start_s": summary(starts, 2),
        "warm_load_s": summary(warm, 2) if warm else None,
        "mb_per_session": round(mb, 1)}
    goals = (("click_server_drawn_ms", 250, "select -> reachable drawn (server reply)"),
             ("cold_load_s", 2.5, "first load (cold server, fresh browser context)"))
    for key, goal, what in goals:
        med = result[key]["median"]
        print(f"{what}: median {med} (target <= {goal}) {'OK' if med <= goal else 'MISSED'}")
    print(json.dumps({**result, "scenario": scenario, "turn": state.turn,
                      "loadavg": [round(x, 2) for x in load_before + os.getloadavg()]}))


if __name__ == "__main__":
    main()
