"""docs/data-formats.md carries the JSON Schema of every model: it must be up to date."""

import subprocess
import sys
from pathlib import Path

from wargame.schema.docs import DOC_PATH, END, MODELS, START, render_schemas, update_document

ROOT = Path(__file__).resolve().parents[2]


def test_document_is_up_to_date_with_the_models():
    text = DOC_PATH.read_text(encoding="utf-8")
    assert START in text and END in text
    assert update_document(text) == text, "run: python tools/export_schema.py"


def test_every_model_is_documented():
    text = DOC_PATH.read_text(encoding="utf-8")
    for _, model in MODELS:
        assert f"{model.__module__}.{model.__name__}" in text


def test_update_keeps_the_prose_around_the_markers():
    doc = f"# Title\n\nprose before\n\n{START}\nstale\n{END}\n\nprose after\n"
    new = update_document(doc)
    assert new.startswith("# Title\n\nprose before\n\n") and new.endswith("\n\nprose after\n")
    assert "stale" not in new and render_schemas() in new
    assert update_document(new) == new


def test_export_tool_check_mode(tmp_path):
    doc = tmp_path / "formats.md"
    doc.write_text(f"# x\n\n{START}\nold\n{END}\n", encoding="utf-8")
    tool = ROOT / "tools" / "export_schema.py"
    check = [sys.executable, str(tool), "--check", "--doc", str(doc)]
    assert subprocess.run(check, capture_output=True).returncode == 1
    assert subprocess.run([sys.executable, str(tool), "--doc", str(doc)]).returncode == 0
    assert subprocess.run(check, capture_output=True).returncode == 0
    assert doc.read_text(encoding="utf-8").startswith("# x\n\n")
