"""Fixtures shared by every folder of tests: one Debian chromium, driven by python playwright
(sync API), for the whole session. Only one sync_playwright may live at a time, so the browser
fixtures are defined here once (tests/ui and tests/binder both use them)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "wargame_browser_helpers", Path(__file__).resolve().parent / "ui" / "conftest.py")
_helpers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_helpers)
CHROME_ARGS = _helpers.CHROME_ARGS
find_chromium = _helpers.find_chromium


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
