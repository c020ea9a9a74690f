"""Where bundled data lives, for a source checkout and for an installed package alike."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

MEMOIR_PREFIX = "memoir44-"
"""Memoir '44 scenario ids are this prefix and the rulebook number (``memoir44-5``), bundled
from ``scenarios/memoir44/``."""

_REPO_SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def scenarios_root() -> Path:
    """The folder holding ``scenarios/<id>/``.

    In a source checkout (or an editable install) that is the repository's ``scenarios/``; in
    a plain ``pip install .`` it is the ``wargame.scenarios`` package the wheel carries.
    """
    if (_REPO_SCENARIOS / "__init__.py").exists():
        return _REPO_SCENARIOS
    return Path(str(resources.files("wargame.scenarios")))


def scenario_dir(scenario_id: str) -> Path:
    path = scenarios_root() / scenario_id
    if not path.is_dir():
        known = sorted(p.name for p in scenarios_root().iterdir() if p.is_dir() and not p.name.startswith("_"))
        raise FileNotFoundError(f"no scenario folder {scenario_id!r}; bundled: {', '.join(known)}")
    return path


def user_data_home() -> Path:
    """Where wargame keeps the user's own data: ``$WARGAME_HOME`` if set, else
    ``$XDG_DATA_HOME/wargame``, else ``~/.local/share/wargame``."""
    import os

    if os.environ.get("WARGAME_HOME"):
        return Path(os.environ["WARGAME_HOME"]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "wargame"


def user_memoir_dir() -> Path:
    """The user's imported Memoir '44 scenarios (``wargame scenario import``): one
    ``<name>.json`` each, listed and played as ``memoir44-<name>``."""
    return user_data_home() / "scenarios" / "memoir44"


def user_balance_file() -> Path:
    """The balance studies have measured, by scenario id (``wargame.analysis.study``
    ``record_balance`` writes it; ``wargame scenario list`` and the Memoir '44 new-game panel
    show it, issue 32)."""
    return user_data_home() / "studies" / "balance.json"
