"""What comes from a URL is untrusted (issue 13): ``?scenario=`` is an id of the bundled
catalogue, never a path. A path is refused before anything reads the disk at that path, and
no dashboard is built for it."""

from __future__ import annotations

import builtins
import os

import pytest

from wargame.ui import app

HOSTILE = ["/etc", "../../etc/passwd", "/etc/", "normandy/../../etc", "~root", "C:\\Windows",
           "normandy\x00", "memoir44-1/../../etc", "x" * 5000]


@pytest.mark.parametrize("scenario", HOSTILE)
def test_a_path_in_the_url_is_refused_without_touching_it(monkeypatch, scenario):
    known = app.known_scenarios()  # the catalogue is read first, from the bundled folder only
    touched: list[str] = []
    real_open, real_stat, real_scandir = builtins.open, os.stat, os.scandir

    def spy(real):
        def wrapper(path, *args, **kwargs):
            text = os.fsdecode(path) if isinstance(path, str | bytes | os.PathLike) else str(path)
            if "etc" in text or "Windows" in text or "root" in text or "xxxx" in text:
                touched.append(text)
            return real(path, *args, **kwargs)
        return wrapper

    monkeypatch.setattr(builtins, "open", spy(real_open))
    monkeypatch.setattr(os, "stat", spy(real_stat))
    monkeypatch.setattr(os, "scandir", spy(real_scandir))
    monkeypatch.setattr(app, "known_scenarios", lambda: known)
    monkeypatch.setattr(app, "_arg", lambda name: scenario if name == "scenario" else None)
    built: list[str] = []
    monkeypatch.setattr(app, "build_dashboard", lambda *a, **k: built.append(a[0]))
    page = app._app()
    assert built == [], "no dashboard is built for a path"
    assert touched == [], f"the disk was touched at {touched}"
    assert "Unknown scenario" in page.object and "normandy" in page.object
    assert len(page.object) < 20_000  # an excerpt of the id, not all of it


def test_a_catalogue_id_builds_its_dashboard(monkeypatch):
    monkeypatch.setattr(app, "_arg", lambda name: {"scenario": "memoir44-2", "seed": "9"}.get(name))
    built: list[tuple] = []
    monkeypatch.setattr(app, "build_dashboard", lambda *a, **k: built.append(a) or "dashboard")
    assert app._app() == "dashboard"
    assert built == [("memoir44-2", 9, [], "none")]
