"""Helpers for the Binder test; the browser fixtures themselves are shared from
tests/conftest.py (chromium_path, wg_browser and wg_page: one browser per session)."""

from __future__ import annotations

import pytest

from tests.support.browser import free_port

__all__ = ["free_port", "port_finder"]


@pytest.fixture(scope="session")
def port_finder():
    """``port_finder()`` -> a free TCP port on 127.0.0.1 (tests/support/browser.py's free_port)."""
    return free_port
