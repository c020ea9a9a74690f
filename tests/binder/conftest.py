"""Helpers for the Binder test, loaded from tests/ui/conftest.py rather than copied; the browser
fixtures themselves are shared from tests/conftest.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "wargame_ui_browser_fixtures", Path(__file__).resolve().parents[1] / "ui" / "conftest.py")
_ui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ui)

CHROME_ARGS = _ui.CHROME_ARGS
free_port = _ui.free_port
# chromium_path, wg_browser and wg_page come from tests/conftest.py (one browser per session)


@pytest.fixture(scope="session")
def port_finder():
    """``port_finder()`` -> a free TCP port on 127.0.0.1 (tests/ui/conftest.py's free_port)."""
    return free_port
