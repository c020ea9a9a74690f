"""binder/requirements.txt is generated (tools/lock.py, `make lock`) from pyproject.toml and
constraints.txt, never copied by hand: this fails when either is out of step with pyproject.
Fast and offline (reads the installed packages' metadata), so not marked ``binder``."""

from __future__ import annotations

from tools.lock import BINDER, problems, read_pins


def test_constraints_and_binder_requirements_match_pyproject():
    found = problems()
    assert not found, "\n".join(found)


def test_binder_pins_are_the_constraints():
    pins = read_pins()
    binder = read_pins(BINDER)
    assert binder, "binder/requirements.txt pins nothing"
    assert {k: pins.get(k) for k in binder} == binder
    for name in ("panel", "bokeh", "pydantic", "jupyter-panel-proxy", "jupyter-server-proxy"):
        assert name in binder
    for name in ("pytest", "ruff", "playwright", "networkx", "chess"):
        assert name not in binder
