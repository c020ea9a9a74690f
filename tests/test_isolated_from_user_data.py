"""The tests never read nor write the user's own data (issue 35).

A user who imported a Memoir '44 scenario (``wargame scenario import``) has it in
``$WARGAME_HOME/scenarios/memoir44/``. tests/conftest.py points ``WARGAME_HOME`` at an empty
folder in ``pytest_configure``, before any test file is imported, so a file that lists the
scenarios at collection (tests/test_protocol_conformance.py) lists only the bundled ones. Here
pytest runs in a subprocess on that file with ``WARGAME_HOME`` set to such a user's folder: it
passes, never sees the user's scenario, and the folder is left exactly as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wargame.memoir.imports import import_m44
from wargame.memoir.m44 import to_m44
from wargame.memoir.scenario import index, user_scenario_ids
from wargame.paths import user_memoir_dir

REPO = Path(__file__).resolve().parents[1]


def _snapshot(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file under ``folder``: its content digest and modification time."""
    return {p.relative_to(folder).as_posix(): (hashlib.sha256(p.read_bytes()).hexdigest(),
                                               p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.slow  # 17.7 s: pytest in a subprocess (measured on 2 busy cores)
def test_pytest_with_a_users_imported_scenario_passes_and_leaves_it_alone(tmp_path,
                                                                          monkeypatch):
    user_home = tmp_path / "user-home"
    monkeypatch.setenv("WARGAME_HOME", str(user_home))
    m44 = tmp_path / "mine.m44"
    m44.write_text(json.dumps(to_m44(index()["7"])), encoding="utf-8")
    assert import_m44(m44, "mine").scenario_id == "mine"
    assert user_scenario_ids() == ["mine"] and (user_memoir_dir() / "mine.json").is_file()
    before = _snapshot(user_home)

    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(WARGAME_HOME=str(user_home),
               PYTHONPATH=os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]))
    # one bundled scenario and the user's (were it listed): the file's scenarios are listed
    # when pytest imports it
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-p", "no:randomly",
         "tests/test_protocol_conformance.py", "-k", "memoir44-7] or memoir44-mine]"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert "test_protocol_conformance[memoir44-7] PASSED" in out, out
    assert "memoir44-mine" not in out and "UnknownMemoirScenario" not in out, out
    assert _snapshot(user_home) == before
