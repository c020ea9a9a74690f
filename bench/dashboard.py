"""Benchmark of the campaign dashboard in Debian chromium (python playwright).

* click_ms: median time from pointer press on a unit's hex to the frame on which its reachable
  hexes are in the browser's highlight source (requestAnimationFrame polling), full Normandy
  at turn 10 (a seeded random game loaded through the dashboard's Load button), else the
  biggest scenario available.
* load_s: first page load until the map's Bokeh view exists (fresh server, cold caches), and
  the median of later loads.
* mb_per_session: server RSS growth per extra open session (after one warm session).

Goals: click < 100 ms median, load < 3 s, < 30 MB per session. The last line printed is one
JSON object with keys click_ms, load_s, mb_per_session.

    .venv/bin/python bench/dashboard.py [--sessions 5] [--clicks 15]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wargame.bots.campaign_random import RandomPolicy  # noqa: E402
from wargame.operational.state import Game  # noqa: E402
from wargame.saves import to_save  # noqa: E402
from wargame.ui.browser import (  # noqa: E402
    mark_pointer_time,
    serve_app,
    stop_process,
    time_click_to_reach,
    wait_for_map,
)

CHROMIUM = "/usr/bin/chromium"
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
    while (state.turn < turn or not state.phase.is_movement) and not state.is_over:
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=5)
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
          f"{time.perf_counter() - t:.1f} s, {len(state.log)} actions")
    save = Path(tempfile.mkdtemp()) / "bench-save.json"
    save.write_text(json.dumps(to_save(state)))
    targets = click_targets(state, args.clicks)

    port = free_port()
    server = serve_app(port)
    url = f"http://127.0.0.1:{port}/app?scenario={scenario}&seed={args.seed}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
            page = browser.new_page(viewport={"width": 1600, "height": 1200})
            t = time.perf_counter()
            page.goto(url)
            wait_for_map(page, timeout=120000)
            first_load = time.perf_counter() - t
            print(f"first page load (cold server): {first_load:.2f} s")
            # load the turn-10 position through the dashboard's Load button
            page.locator("input[type=file]").set_input_files(str(save))
            page.locator(".wg-message").filter(has_text="Game loaded").wait_for(timeout=120000)
            mark_pointer_time(page)
            times = []
            for hid, _uid, n in targets:
                ms = time_click_to_reach(page, hid, n)
                times.append(ms)
                page.wait_for_timeout(500)  # no double tap
                # else the next click on a reachable friendly stack is a move order
                page.get_by_role("button", name="Deselect").click()
                page.wait_for_timeout(300)
            click_ms = statistics.median(times) if times else float("nan")
            print(f"click on unit -> reachable hexes drawn: median {click_ms:.1f} ms over "
                  f"{len(times)} units (min {min(times):.1f}, max {max(times):.1f})")
            page.screenshot(path=str(ROOT / "test-artifacts" / "bench-turn10.png"))
            # memory per extra session
            base = rss_mb(server.pid)
            loads = []
            pages = []
            for _ in range(args.sessions):
                pg = browser.new_page(viewport={"width": 1600, "height": 1200})
                t = time.perf_counter()
                pg.goto(url)
                wait_for_map(pg, timeout=120000)
                loads.append(time.perf_counter() - t)
                pages.append(pg)
            time.sleep(2)
            after = rss_mb(server.pid)
            mb = (after - base) / max(1, args.sessions)
            print(f"later page loads: median {statistics.median(loads):.2f} s")
            print(f"server RSS {base:.0f} MB -> {after:.0f} MB with {args.sessions} more "
                  f"sessions: {mb:.1f} MB per session")
            browser.close()
    finally:
        stop_process(server)
    goals = {"click_ms": 100, "load_s": 3, "mb_per_session": 30}
    result = {"click_ms": round(click_ms, 1), "load_s": round(first_load, 2),
              "mb_per_session": round(mb, 1)}
    for k, goal in goals.items():
        print(f"{k}: {result[k]} (goal < {goal}) {'OK' if result[k] < goal else 'MISSED'}")
    print(json.dumps({**result, "scenario": scenario, "turn": state.turn}))


if __name__ == "__main__":
    main()
