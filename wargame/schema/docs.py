"""The JSON Schema of every data-file model, as the generated part of docs/data-formats.md.

``tools/export_schema.py`` writes it between the markers; tests/schema/test_docs.py fails when
the document is out of date with the models.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from .campaign import HistoryFile, HistoryTranslationFile, MapFile, SetupFile, TablesFile, UnitsFile
from .memoir import M44File, MemoirIndex, MemoirScenarioFile
from .save import SaveFile
from .scenario_file import ScenarioFile
from .whatif import WhatIfFile

__all__ = ["MODELS", "START", "END", "DOC_PATH", "render_schemas", "update_document"]

START = "<!-- schema:start -->"
END = "<!-- schema:end -->"
DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "data-formats.md"

MODELS: tuple[tuple[str, type[BaseModel]], ...] = (
    ("scenarios/<id>/scenario.yaml", ScenarioFile),
    ("scenarios/<id>/map.json", MapFile),
    ("scenarios/<id>/tables.yaml", TablesFile),
    ("scenarios/<id>/units.yaml", UnitsFile),
    ("scenarios/<id>/setup.yaml", SetupFile),
    ("scenarios/<id>/history.yaml", HistoryFile),
    ("scenarios/<id>/history.pt.yaml (the history's texts in Portuguese)", HistoryTranslationFile),
    ("scenarios/memoir44/<id>.json and imported Memoir '44 scenarios", MemoirScenarioFile),
    ("scenarios/memoir44/scenarios.yaml (input of tools/build_memoir_scenarios.py)", MemoirIndex),
    ("Scenario Editor .m44 layouts (wargame scenario import)", M44File),
    ("save files (JSON)", SaveFile),
    ("what-if files of campaign studies (YAML)", WhatIfFile),
)


def render_schemas() -> str:
    """The generated block (without the markers): one JSON Schema per model."""
    parts = [
        "<!-- Generated from wargame/schema by tools/export_schema.py: do not edit by hand. -->",
        "",
    ]
    for title, model in MODELS:
        schema = model.model_json_schema(mode="validation")
        parts += [
            f"### {title}: `{model.__module__}.{model.__name__}`",
            "",
            "<details><summary>JSON Schema</summary>",
            "",
            "```json",
            json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True),
            "```",
            "",
            "</details>",
            "",
        ]
    return "\n".join(parts)


def update_document(text: str) -> str:
    """``text`` with the block between the markers regenerated (markers appended if absent)."""
    block = f"{START}\n{render_schemas()}\n{END}"
    if START in text and END in text:
        head, _, rest = text.partition(START)
        _, _, tail = rest.partition(END)
        return head + block + tail
    return text.rstrip("\n") + "\n\n## JSON Schema of every file\n\n" + block + "\n"
