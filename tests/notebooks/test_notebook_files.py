"""The notebooks' files keep what nbval and offline use need (fast; nbval runs them):
- every NBVAL_CHECK_OUTPUT cell has its expected output stored, with an execution count;
- no other cell stores output (Panel/Bokeh output embeds random ids and megabytes of JS);
- each notebook that imports panel calls pn.extension(inline=True) (renders offline);
- nothing is fetched at run time (no URLs in code cells)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
EXPECTED = {"00_start_here.ipynb", "01_d_day_normandy.ipynb", "02_combat_odds_explorer.ipynb",
            "03_variant_rules.ipynb", "04_campaign_studies.ipynb", "05_operation_dragoon.ipynb",
            "10_memoir44_pegasus_bridge.ipynb",
            "00_comece_aqui.ipynb", "01_dia_D_normandia.ipynb"}  # Portuguese (issue #16)


def code_cells(path: Path) -> list[dict]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def test_the_three_notebooks_exist():
    assert EXPECTED <= {p.name for p in NOTEBOOKS}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_checked_cells_store_their_output_and_others_store_none(path):
    checked = 0
    for cell in code_cells(path):
        if "NBVAL_CHECK_OUTPUT" in source(cell):
            checked += 1
            assert cell["outputs"], f"{path.name}: a checked cell has no stored output"
            assert cell["execution_count"] is not None
            assert all(o["output_type"] != "error" for o in cell["outputs"])
        else:
            assert not cell["outputs"], f"{path.name}: stored output in {source(cell)[:60]!r}"
    assert checked >= 1


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_panel_renders_inline_and_nothing_is_downloaded(path):
    code = "\n".join(source(c) for c in code_cells(path))
    if "import panel" in code:
        assert "pn.extension(inline=True)" in code
    assert not re.search(r"https?://", code), "notebooks must not fetch anything at run time"
