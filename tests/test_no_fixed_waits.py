"""Browser tests never wait a fixed time and then act (issue 35): they wait for what the page
must show (tests/support/waiting.py). A fixed ``wait_for_timeout`` is allowed only where listed
below with its reason: a poll between two looks at the page, the gap that keeps two clicks from
being a double tap, or the check of an absence (nothing tells when something did NOT happen).
(``time.sleep`` between two tries of a server that is starting is such a poll, not checked.)
"Click if visible" after a wait is never allowed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# file -> (how many ``wait_for_timeout(`` it may hold, why)
ALLOWED = {
    "tests/support/waiting.py": (1, "wait_until's 100 ms poll between two looks at the page"),
    "tests/support/browser.py": (1, "click_hex's gap: two clicks within ~300 ms are a double "
                                    "tap"),
    "tests/ui/test_memoir_computer.py": (1, "a 50 ms poll until the action count changes"),
    "tests/ui/test_layout_browser.py": (1, "its settle(): a 250 ms poll until the map's frame "
                                           "follows a resize"),
    "tests/ui/test_room_frames_browser.py": (3, "a 300 ms poll for a frame; twice 1 s for late "
                                                "frames before checking that none holds an "
                                                "enemy value (an absence)"),
    "tests/ui/test_tooltip_browser.py": (1, "no tooltip over the clicked hex: an absence"),
}
WAIT = re.compile(r"\bwait_for_timeout\(")
# ``if x.is_visible(): x.click()`` (or a click on the next line): acting on a race
CLICK_IF_VISIBLE = re.compile(r"if [^\n]*\bis_visible\(\)[^\n]*:\s*\n?[^\n]*\.click\(")


def _sources() -> dict[str, str]:
    """Every test source but this one (whose examples hold the patterns)."""
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted((ROOT / "tests").rglob("*.py")) if p.resolve() != Path(__file__)}


def test_fixed_waits_only_where_listed():
    found = {name: len(WAIT.findall(text)) for name, text in _sources().items()}
    over = {name: (n, ALLOWED.get(name, (0, ""))[0]) for name, n in found.items()
            if n > ALLOWED.get(name, (0, ""))[0]}
    assert not over, f"fixed waits (file: found, allowed): {over}; wait for the page instead"
    stale = {name for name, (n, _) in ALLOWED.items() if found.get(name, 0) < n}
    assert not stale, f"fewer fixed waits than listed now: lower ALLOWED for {stale}"


def test_no_click_if_visible():
    bad = [name for name, text in _sources().items() if CLICK_IF_VISIBLE.search(text)]
    assert not bad


def test_the_patterns_find_the_race():
    racy = "page.wait_for_timeout(1500)\nif confirm.is_visible():\n    confirm.click()\n"
    assert WAIT.search(racy) and CLICK_IF_VISIBLE.search(racy)
    assert not CLICK_IF_VISIBLE.search("assert not button.is_visible()\nother.click()\n")
