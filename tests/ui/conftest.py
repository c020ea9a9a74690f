"""The dashboard's server for the real-browser tests (Debian chromium via python playwright); the
browser itself is tests/conftest.py's, the helpers are tests/support/browser.py."""

from __future__ import annotations

import pytest

from tests.support.browser import free_port, start_app, stop_process


@pytest.fixture(scope="session")
def dashboard_server(chromium_path):
    port = free_port()
    proc = start_app(port)
    yield f"http://127.0.0.1:{port}/app"
    stop_process(proc)
