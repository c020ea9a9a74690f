"""Load bench of rooms (issue #14): N rooms x 2 seats acting on one ``wargame serve --rooms``.

    nice -n 10 .venv/bin/python bench/rooms.py [--rooms 15] [--rounds 8] [--game memoir44-1]

Why real browser pages (playwright, Debian chromium) rather than bokeh client sessions: the
figure that matters is what a student sees, i.e. the click in one seat's page until the other
seat's page has the new position, through everything in between (websocket, Panel's thread
pool, the room's lock and SQLite commit, the subscriber scheduling the other session's sync,
the patch sent to its browser). A bokeh client session would skip the browser's half.

The rooms are made in the SQLite file before the server starts (``RoomManager.create``), so
the server also resumes them as it would after a restart. Each seat's page gets a hook on its
header (``data-version``, a Bokeh model's ``text``): the time it first shows each version.
Each round clicks "Auto-answer" (a legal action: the engine's auto answer) in the acting seat of
every room, one room after the other without waiting, then waits until every other seat shows
the new version. Latency = other seat's page shows the version - pointer press in the acting
page (same machine clock, ``Date.now()``). Prints median and p90, and the server's RSS:
after start, with every page open, at the end, and per room.

Also by round (issue #31), figures that the machine's load hardly changes: the server's CPU
time (``/proc/PID/stat``: user + system, from the round's first click until every other seat
shows its version) per room update, and the websocket bytes the other seats' pages received
in that time per update (playwright's ``framereceived``), and the time the other seats' pages
spent applying them (``Document.apply_json_patch`` in the page, timed; the layout it starts
included as far as the browser does it at once). ``--profile FILE`` runs the server
under cProfile and writes its statistics to FILE when the server stops (``pstats``): where
the CPU goes, not how much (the profiler's clock, ``time.thread_time``, makes every figure
of that run several times larger).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
KEY = "bench-teacher-key"  # 12 characters at least (issue #29)

HOOK = """() => {
  window.__wg_seen = window.__wg_seen || {};
  window.__wg_press = window.__wg_press || [];
  if (!window.__wg_press_hooked) {
    window.__wg_press_hooked = true;
    window.addEventListener('pointerdown', () => window.__wg_press.push(Date.now()), true);
  }
  const re = /data-version=(?:'|&#x27;|&#39;|")(\\d+)/;
  window.__wg_patch = window.__wg_patch || [];
  for (const doc of Bokeh.documents) {
    if (!doc.__wg_timed) {  // how long the page takes to apply each patch the server sends
      doc.__wg_timed = true;
      const apply = doc.apply_json_patch.bind(doc);
      doc.apply_json_patch = (...args) => { const t0 = performance.now(); const at = Date.now();
        try { return apply(...args); }
        finally { window.__wg_patch.push([at, performance.now() - t0]); } };
    }
    for (const m of doc.all_models) {
      if (m.__wg_hooked || typeof m.text !== 'string' || !m.text.includes('wg-seat-header'))
        continue;
      m.__wg_hooked = true;
      const note = () => { const r = re.exec(m.text);
        if (r && !(r[1] in window.__wg_seen)) window.__wg_seen[r[1]] = Date.now(); };
      m.properties.text.change.connect(note);
      note();
      return true;
    }
  }
  return false;
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s(pid: int) -> float:
    """The process's CPU time so far (user + system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


PROFILED = """\
import cProfile, pstats, signal, sys, threading, time
from concurrent.futures import thread
from wargame.cli import main
profiles, local = [], threading.local()
work_item_run = thread._WorkItem.run
def run(self):  # the thread pool's tasks (the seats' clicks), each thread its own profile
    prof = getattr(local, "prof", None)
    if prof is None:
        local.prof = prof = cProfile.Profile(time.thread_time)
        profiles.append(prof)
    prof.enable()
    try:
        return work_item_run(self)
    finally:
        prof.disable()
thread._WorkItem.run = run
def stop(*_):
    raise KeyboardInterrupt
signal.signal(signal.SIGTERM, stop)
prof = cProfile.Profile(time.thread_time); prof.enable()
try:
    main(sys.argv[2:])
except KeyboardInterrupt:
    pass
finally:
    prof.disable()
    stats = pstats.Stats(prof)
    for other in profiles:
        stats.add(other)
    stats.dump_stats(sys.argv[1])
"""
"""The server under cProfile (``--profile``): its main thread (the event loop, where every
page's sync runs) and its thread pool's threads, in one statistics file; each thread's CPU time
(``time.thread_time``), so that the machine's load hardly changes the figures."""


def start_server(db: Path, port: int, profile: str | None = None) -> subprocess.Popen:
    code = (PROFILED if profile else "import sys; from wargame.cli import main; "
            "sys.exit(main(sys.argv[1:]))")
    cmd = [sys.executable, "-c", code, *([profile] if profile else []), "serve", "--rooms",
           str(db), "--port", str(port), "--no-show", "--teacher-key", KEY]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    deadline = time.time() + 120
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit("wargame serve --rooms exited")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return proc
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("wargame serve --rooms did not answer within 120 s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=15)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--game", default="memoir44-1")
    ap.add_argument("--stagger", type=float, default=0.0,
                    help="seconds between two rooms' clicks in a round (0: a burst, every "
                         "room at once)")
    ap.add_argument("--profile", metavar="FILE",
                    help="run the server under cProfile; its statistics go to FILE")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from wargame.bots.memoir_random import auto_action
    from wargame.rooms import RoomManager

    tmp = Path(tempfile.mkdtemp(prefix="wargame-rooms-bench-"))
    db = tmp / "rooms.sqlite"
    manager = RoomManager(db)
    rooms = [manager.create(args.game, seed=100 + i) for i in range(args.rooms)]
    seats = [(r.seats["allied"].token, r.seats["axis"].token, r.seed) for r in rooms]
    sides = rooms[0].game.sides
    game = rooms[0].game
    manager.close()

    port = free_port()
    proc = start_server(db, port, str(Path(args.profile).resolve()) if args.profile else None)
    base = f"http://127.0.0.1:{port}/room?seat="
    latencies: list[float] = []
    by_round: list[list[float]] = []
    cpu_by_round: list[float] = []  # server CPU seconds per round
    bytes_by_round: list[int] = []  # websocket bytes the other seats received per round
    browser_by_round: list[float] = []  # ms the other seats' pages spent applying patches
    received: dict[object, int] = {}  # page -> websocket bytes received so far
    try:
        time.sleep(1.0)
        rss_start = rss_mb(proc.pid)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            pages: list[dict[str, object]] = []
            t_open = time.perf_counter()
            for allied, axis, _seed in seats:
                pair = {}
                for side, token in zip(sides, (allied, axis), strict=True):
                    page = context.new_page()
                    received[page] = 0

                    def count(payload: str | bytes, page: object = page) -> None:
                        received[page] += len(payload.encode() if isinstance(payload, str)
                                              else payload)

                    page.on("websocket", lambda ws, count=count: ws.on("framereceived", count))
                    page.goto(base + token, timeout=180000)  # a busy machine: slow
                    pair[side] = page
                pages.append(pair)
            for pair in pages:
                for page in pair.values():
                    page.wait_for_function(HOOK, timeout=120000)
            open_s = time.perf_counter() - t_open
            rss_open = rss_mb(proc.pid)
            mirrors = [game.new_state(seed) for _a, _x, seed in seats]
            for _round in range(args.rounds):
                plan = []
                cpu0 = cpu_s(proc.pid)
                got0 = dict(received)
                for i, pair in enumerate(pages):
                    s = mirrors[i]
                    actor = pair[s.side_to_act]
                    other = pair[sides[1] if s.side_to_act == sides[0] else sides[0]]
                    version = len(s.action_log) + 1
                    presses = actor.evaluate("() => window.__wg_press.length")
                    actor.get_by_role("button", name="Auto-answer").click()
                    s.apply(auto_action(s))
                    plan.append((actor, other, version, presses))
                    if args.stagger:
                        time.sleep(args.stagger)
                by_round.append([])
                for actor, other, version, presses in plan:
                    other.wait_for_function(f"() => '{version}' in window.__wg_seen",
                                            timeout=60000)
                    t0 = actor.evaluate(f"() => window.__wg_press[{presses}]")
                    t1 = other.evaluate(f"() => window.__wg_seen['{version}']")
                    latencies.append(float(t1) - float(t0))
                    by_round[-1].append(float(t1) - float(t0))
                cpu_by_round.append(cpu_s(proc.pid) - cpu0)
                first = min(float(actor.evaluate(f"() => window.__wg_press[{presses}]"))
                            for actor, _o, _v, presses in plan)
                browser_by_round.append(sum(float(other.evaluate(
                    f"() => window.__wg_patch.filter(p => p[0] >= {first})"
                    ".reduce((s, p) => s + p[1], 0)")) for _a, other, _v, _p in plan))
                bytes_by_round.append(sum(received[o] - got0[o] for _a, o, _v, _p in plan))
            rss_end = rss_mb(proc.pid)
            browser.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()

    lat = sorted(latencies)
    p90 = lat[min(len(lat) - 1, int(round(0.9 * (len(lat) - 1))))]
    print(f"rooms: {args.rooms} x 2 seats ({args.game}), {args.rounds} rounds, "
          f"{len(lat)} updates; {os.cpu_count()} cores")
    print(f"pages opened in {open_s:.1f} s; clicks {args.stagger:g} s apart in a round")
    print("median by round (ms): " + ", ".join(f"{statistics.median(r):.0f}"
                                              for r in by_round))
    print("server CPU per update by round (ms): " + ", ".join(
        f"{1000 * c / args.rooms:.0f}" for c in cpu_by_round))
    print("other seat's page applying the update, by round (ms): " + ", ".join(
        f"{b / args.rooms:.0f}" for b in browser_by_round))
    print("bytes to the other seat per update by round: " + ", ".join(
        f"{b / args.rooms:.0f}" for b in bytes_by_round))
    print(f"update-to-other-seat latency: median {statistics.median(lat):.0f} ms, "
          f"p90 {p90:.0f} ms, max {lat[-1]:.0f} ms")
    print(f"server RSS: {rss_start:.0f} MB at start (rooms resumed), {rss_open:.0f} MB with "
          f"{2 * args.rooms} seat pages open, {rss_end:.0f} MB at the end; "
          f"per room {(rss_end - rss_start) / args.rooms:.1f} MB (2 sessions each)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
