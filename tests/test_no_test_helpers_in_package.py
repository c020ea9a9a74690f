"""The package holds no test helper (issue 35): nothing in wargame/ imports playwright, pytest,
hypothesis or the tests, and the helpers that tests, benches and tools share live in
tests/support/, importable from the scripts of bench/ and tools/ as the Makefile runs them."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEST_ONLY = ("playwright", "pytest", "hypothesis", "tests")


def imported_roots(path: Path) -> set[str]:
    """The top-level names of every module ``path`` imports (absolute imports only)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_imported_roots_sees_a_playwright_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from playwright.sync_api import sync_playwright\n")
    assert "playwright" in imported_roots(module)


def test_no_module_of_the_package_imports_a_test_tool():
    modules = sorted((ROOT / "wargame").rglob("*.py"))
    assert len(modules) > 50
    found = {p.relative_to(ROOT).as_posix(): sorted(imported_roots(p) & set(TEST_ONLY))
             for p in modules}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_browser_helpers_are_in_tests_support_not_the_package():
    assert not (ROOT / "wargame" / "ui" / "browser.py").exists()
    from tests.support import browser

    assert browser.APP.is_file() and browser.APP.name == "app.py"


@pytest.mark.parametrize("script", ["bench/dashboard.py", "tools/dashboard_screenshots.py"])
def test_scripts_import_tests_support_from_another_folder(script, tmp_path):
    """As ``make bench`` or a maintainer runs them: ``python bench/dashboard.py``, any folder,
    no PYTHONPATH (each script puts the repository root on sys.path itself)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, str(ROOT / script), "--help"], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "usage:" in run.stdout
