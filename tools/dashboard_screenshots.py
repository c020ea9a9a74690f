"""Screenshots of the Normandy dashboard at turn 0 for the docs (issue 15), taken with Debian's
chromium through python playwright from a fresh ``panel serve`` of wargame/ui/app.py:

    docs/img/dashboard-1280x720.png    a classroom projector
    docs/img/dashboard-1920x1080.png   a full-HD screen

and of a class's room in Portuguese (issue 28), from ``wargame serve --rooms`` on a rooms file
made in a temporary folder (a Normandy room, seed 1946, its seats in pt):

    docs/img/room-teacher-pt-1920x1080.png   the teacher's page on the projector
    docs/img/room-allied-pt-1280x720.png     the Allied seat on a classroom computer

and the README's picture, the attack preview of the demo game that
tests/ui/test_dashboard_browser.py::test_demo_flow plays (the test writes it under
test-artifacts/, never into docs/; this tool runs that test and copies its screenshot):

    docs/img/dashboard.png

Each is reduced to a 128-colour palette (Pillow) to stay small in the repository (not the
README's picture, kept as the test draws it).

    .venv/bin/python tools/dashboard_screenshots.py [--seed 1944] [--out docs/img]
        [--only dashboard|rooms|readme]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "ui"))

SIZES = ((1280, 720), (1920, 1080))
ROOM_SHOTS = (("teacher", 1920, 1080), ("allied", 1280, 720))
ROOM_SEED = 1946


def map_fitted(page) -> tuple:
    """The map's plot size, ranges and counter font: the same twice once it has settled."""
    from tests.support.browser import _FIND

    return tuple(page.evaluate(
        f"""() => {{ const find = {_FIND}; const f = find('hexmap');
            const t = f.renderers.find(r => r.name === 'hexmap-values');
            const s = t && t.glyph.text_font_size;
            return [f.inner_width, f.inner_height, f.x_range.start, f.x_range.end,
                    f.y_range.start, s && (s.value || s)]; }}"""))


def shrink(path: Path, colours: int = 128) -> None:
    from PIL import Image

    with Image.open(path) as im:
        small = im.convert("RGB").quantize(colors=colours, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def room_screenshots(out: Path) -> None:
    """The teacher's page and the Allied seat of a Normandy room in Portuguese (module doc)."""
    import tempfile

    from playwright.sync_api import sync_playwright
    from test_rooms_browser import RoomsServer  # tests/ui/test_rooms_browser.py

    from tests.support.browser import CHROME_ARGS, free_port, wait_for_map
    from tests.support.waiting import settle
    from wargame.rooms.room import RoomManager

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "rooms.sqlite"
        with RoomManager(db) as manager:
            room = manager.create("normandy", seed=ROOM_SEED, lang="pt")
            tokens = {name: seat.token for name, seat in room.seats.items()}
        server = RoomsServer(db, free_port())
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                            args=CHROME_ARGS)
                for seat, w, h in ROOM_SHOTS:
                    page = browser.new_page(viewport={"width": w, "height": h})
                    page.goto(f"{server.url}room?seat={tokens[seat]}")
                    wait_for_map(page, timeout=120000)
                    page.locator(".wg-phase").first.wait_for()
                    settle(page, probe=map_fitted)  # the fit-to-window and label sizes
                    path = out / f"room-{seat}-pt-{w}x{h}.png"
                    page.screenshot(path=str(path))
                    shrink(path)
                    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")
                    page.close()
                browser.close()
        finally:
            server.stop()


README_TEST = "tests/ui/test_dashboard_browser.py::test_demo_flow"


def readme_screenshot(out: Path) -> None:
    """Run the demo-flow browser test and copy its attack-preview screenshot (module doc)."""
    import shutil

    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", README_TEST],
                   cwd=ROOT, check=True)
    path = out / "dashboard.png"
    shutil.copy(ROOT / "test-artifacts" / "04-attack-preview.png", path)
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.support.browser import CHROME_ARGS, free_port, start_app, stop_process, wait_for_map
    from tests.support.waiting import settle

    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1944)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--only", choices=("dashboard", "rooms", "readme"), default=None)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only in (None, "readme"):
        readme_screenshot(args.out)
    if args.only == "readme":
        return
    if args.only != "dashboard":
        room_screenshots(args.out)
    if args.only == "rooms":
        return
    port = free_port()
    server: subprocess.Popen = start_app(port)
    url = f"http://127.0.0.1:{port}/app?scenario=normandy&seed={args.seed}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROME_ARGS)
            for w, h in SIZES:
                page = browser.new_page(viewport={"width": w, "height": h})
                page.goto(url)
                wait_for_map(page, timeout=120000)
                page.locator(".wg-phase").filter(has_text="Allied movement").wait_for()
                settle(page, probe=map_fitted)  # the fit-to-window and label sizes
                path = args.out / f"dashboard-{w}x{h}.png"
                page.screenshot(path=str(path))
                shrink(path)
                print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")
                page.close()
            browser.close()
    finally:
        stop_process(server)


if __name__ == "__main__":
    main()
