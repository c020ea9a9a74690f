"""Where the tests find the Memoir '44 reference layouts: the one setting
``WARGAME_MEMOIR44_REFERENCE`` (CONTRIBUTING.md, "Reference data").

The 17 Scenario Editor exports (``<n>.m44``) that ``tools/build_memoir_scenarios.py`` derives
the bundled scenarios from are © Days of Wonder and are not ours to ship (docs/memoir44-sources.md,
"Licence note"), so the repository does not hold them. A test that needs them is skipped when
the setting is missing, with the reason ``MISSING``; tests/conftest.py then warns once per run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ENV = "WARGAME_MEMOIR44_REFERENCE"


def _find() -> tuple[Path | None, str]:
    value = os.environ.get(ENV, "")
    if not value:
        return None, f"{ENV} is not set"
    path = Path(value).expanduser()
    if not (path / "2.m44").is_file():
        return None, f"{ENV}={value} holds no 2.m44"
    return path, ""


REFERENCE, _WHY = _find()
"""The folder of the reference ``.m44`` files, or None."""

MISSING = (f"Memoir '44 reference .m44 files not found ({_WHY}): set {ENV} to their folder "
           "(CONTRIBUTING.md, 'Reference data')")
needs_reference = pytest.mark.skipif(REFERENCE is None, reason=MISSING)
