"""Fixtures for the dashboard's real-browser tests (Debian chromium via python playwright)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from wargame.ui.browser import serve_app, stop_process

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROME_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def find_chromium() -> str | None:
    """Debian's chromium; runs tools/ensure_chromium.sh once when it is missing."""
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    script = ROOT / "tools" / "ensure_chromium.sh"
    if script.exists() and shutil.which("bash"):
        subprocess.run(["bash", str(script)], check=False, timeout=600)
    return CHROMIUM if os.access(CHROMIUM, os.X_OK) else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(port: int, env: dict[str, str] | None = None) -> subprocess.Popen:
    """``python -m panel serve wargame/ui/app.py`` on 127.0.0.1:port (``serve_app``), polled
    until it answers, its output in test-artifacts/panel-serve-PORT.log."""
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / f"panel-serve-{port}.log", "w")  # noqa: SIM115
    try:
        return serve_app(port, log=log, env={**os.environ, **(env or {})})
    except RuntimeError as exc:
        raise RuntimeError(f"{exc}; see {log.name}") from None


@pytest.fixture(scope="session")
def dashboard_server(chromium_path):
    port = free_port()
    proc = start_app(port)
    yield f"http://127.0.0.1:{port}/app"
    stop_process(proc)
