"""Fixtures shared by every folder of tests: one Debian chromium, driven by python playwright
(sync API), for the whole session. Only one sync_playwright may live at a time, so the browser
fixtures are defined here once (tests/ui and tests/binder both use them).

Also the markers ``browser`` and ``binder`` (registered in pyproject.toml), set here by path and
fixture so that no test file needs a decorator. ``slow`` is on the slow tests themselves
(``@pytest.mark.slow`` with the time it measured, so a renamed test keeps it). ``make
test-fast`` deselects all three, ``make test`` runs everything.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.browser import CHROME_ARGS, find_chromium

# No time limit per hypothesis example: a deadline is a timed assertion, and on a shared
# 2-core machine (the fresh-clone CI beside other jobs) a 200 ms example took 675 ms and
# failed test_dice. Speed is the benches' job; hangs are caught by the fuzz tests' own guards.
settings.register_profile("wargame", deadline=None)
settings.load_profile("wargame")

# Fixtures that need a real chromium: a test using any of them (directly or through another
# fixture, e.g. tests/ui's dashboard_server) is a browser test.
BROWSER_FIXTURES = frozenset({"chromium_path", "wg_browser", "wg_page", "dashboard_server"})
# Tests that need the repo2docker-like venv of tests/binder (built with pip, ~90 s).
BINDER_FIXTURES = frozenset({"binder_home"})

def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = config.rootpath
    for item in items:
        path = Path(item.path)
        rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.as_posix()
        fixtures = set(getattr(item, "fixturenames", ()))
        if (rel.startswith("tests/ui/") and "browser" in Path(rel).name) or (
                fixtures & BROWSER_FIXTURES):
            item.add_marker(pytest.mark.browser)
        if rel.startswith("tests/binder/") and fixtures & (BINDER_FIXTURES | BROWSER_FIXTURES):
            item.add_marker(pytest.mark.binder)
    _warn_once_without_memoir_reference(items)


def _warn_once_without_memoir_reference(items: list[pytest.Item]) -> None:
    """One warning for the run when tests need the Memoir '44 reference layouts and the
    setting that finds them is missing (tests/memoir/reference.py): they are skipped, and
    said so once in the warnings summary rather than silently."""
    from tests.memoir.reference import MISSING, REFERENCE

    if REFERENCE is not None:
        return
    skipped = sum(1 for item in items for mark in item.iter_markers("skipif")
                  if mark.kwargs.get("reason") == MISSING)
    if skipped:
        import warnings

        warnings.warn(pytest.PytestWarning(f"{MISSING} ({skipped} tests skipped)"), stacklevel=1)


# A failing browser test shows what its pages showed: for every page still open at the failure
# (the test's own page fixtures, and every page of the session's browser), a screenshot under
# test-artifacts/failures/ and the page's text, both named in the test's report.
FAILURE_TEXT_CHARS = 4000


def _open_pages(item: pytest.Item) -> list:
    pages, seen = [], set()
    candidates = list(getattr(item, "funcargs", {}).values())
    browser = getattr(item, "funcargs", {}).get("wg_browser")
    if browser is not None:
        candidates += [pg for ctx in browser.contexts for pg in ctx.pages]
    for obj in candidates:
        if (hasattr(obj, "screenshot") and hasattr(obj, "is_closed") and id(obj) not in seen
                and not obj.is_closed()):
            seen.add(id(obj))
            pages.append(obj)
    return pages


def _show_pages(item: pytest.Item, report: pytest.TestReport) -> None:
    import re

    from tests.support.browser import ARTIFACTS, page_text

    folder = ARTIFACTS / "failures"
    folder.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[^\w.-]+", "_", item.nodeid)[-150:]
    for i, page in enumerate(_open_pages(item)):
        shot = folder / f"{stem}-{i}.png"
        try:
            page.screenshot(path=str(shot), full_page=True, timeout=15000)
            where = shot.relative_to(item.config.rootpath).as_posix()
        except Exception as exc:  # the page crashed or hung: say so, keep the test's own error
            where = f"(no screenshot: {type(exc).__name__}: {exc})"
        try:
            text = page_text(page)
        except Exception as exc:
            text = f"(no text: {type(exc).__name__}: {exc})"
        (folder / f"{stem}-{i}.txt").write_text(f"{page.url}\n\n{text}", encoding="utf-8")
        cut = text if len(text) <= FAILURE_TEXT_CHARS else (
            text[:FAILURE_TEXT_CHARS] + f"\n... ({len(text)} characters, whole in {stem}-{i}.txt)")
        report.sections.append((f"page {i} at the failure: {page.url}",
                                f"screenshot: {where}\n\n{cut}"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if report.failed and call.when == "call" and item.get_closest_marker("browser"):
        _show_pages(item, report)
    return report


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        pytest.skip("Debian chromium not found even after tools/ensure_chromium.sh")
    return path


@pytest.fixture(scope="session")
def wg_browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROME_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def wg_page(wg_browser):
    context = wg_browser.new_context(viewport={"width": 1500, "height": 1100},
                                     accept_downloads=True)
    page = context.new_page()
    yield page
    context.close()


# The user's own data (imported Memoir '44 scenarios, wargame.paths.user_data_home) is never
# read by the tests: WARGAME_HOME points at an empty folder of the run instead of
# ~/.local/share/wargame. It is set in pytest_configure, before collection, because some test
# files list the scenarios when they are imported (tests/test_protocol_conformance.py). Tests of
# imports set WARGAME_HOME to their own tmp_path. tests/test_isolated_from_user_data.py checks it.
# (the user's value, restored at the end; the run's folder, removed at the end)
_HOMES = pytest.StashKey[tuple[str | None, str]]()


def pytest_configure(config: pytest.Config) -> None:
    import os
    import tempfile

    home = tempfile.mkdtemp(prefix="wargame-home-")
    config.stash[_HOMES] = (os.environ.get("WARGAME_HOME"), home)
    os.environ["WARGAME_HOME"] = home


def pytest_unconfigure(config: pytest.Config) -> None:
    import os
    import shutil

    if _HOMES not in config.stash:
        return
    old, home = config.stash[_HOMES]
    shutil.rmtree(home, ignore_errors=True)
    if old is None:
        os.environ.pop("WARGAME_HOME", None)
    else:
        os.environ["WARGAME_HOME"] = old
