"""A failing browser test prints what the page showed (issue 35): tests/conftest.py's report
hook adds a screenshot path under test-artifacts/failures/ and the page's text to the failure.
Checked on a test that fails on purpose, run by pytest in a subprocess with that conftest."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FAILING = '''
def test_a_page_that_fails(wg_page):
    wg_page.set_content("<h1>Fase de Combate Aliada</h1><p>Terminar a fase mesmo assim?</p>")
    assert wg_page.locator("h1").inner_text() == "Allied combat"
'''


def test_a_failing_browser_test_shows_its_page(chromium_path, tmp_path):
    test = tmp_path / "test_fails_on_purpose_browser.py"
    test.write_text(FAILING)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest",
         "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"), "-m", "browser",
         str(test)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    out = run.stdout
    assert run.returncode == 1, out[-3000:] + run.stderr[-2000:]
    assert "1 failed" in out
    assert "page 0 at the failure" in out
    assert "Terminar a fase mesmo assim?" in out  # the page's text
    shot = next(line.split("screenshot: ", 1)[1].strip() for line in out.splitlines()
                if line.startswith("screenshot: "))
    assert shot.startswith("test-artifacts/failures/") and shot.endswith(".png")
    assert (ROOT / shot).stat().st_size > 1000
