"""Fixtures for the dashboard's real-browser tests (Debian chromium via python playwright)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

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
    """``python -m panel serve wargame/ui/app.py`` on 127.0.0.1:port, polled until it answers."""
    cmd = [sys.executable, "-m", "panel", "serve", str(ROOT / "wargame" / "ui" / "app.py"),
           "--port", str(port), "--address", "127.0.0.1",
           "--allow-websocket-origin", f"127.0.0.1:{port}"]
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / f"panel-serve-{port}.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, **(env or {})})
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"panel serve exited with {proc.returncode}; see {log.name}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/app", timeout=2) as r:
                if r.status == 200:
                    return proc
        except OSError:
            time.sleep(0.3)
    proc.terminate()
    raise RuntimeError("panel serve did not answer within 60 s")


@pytest.fixture(scope="session")
def dashboard_server(chromium_path):
    port = free_port()
    proc = start_app(port)
    yield f"http://127.0.0.1:{port}/app"
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
