"""The "Importar cenário (.m44)" control (issue 32): a Scenario Editor file uploaded from the
browser becomes one of the user's scenarios (``wargame.memoir.imports.import_m44``), shown in
the Memoir '44 dashboard's new-game panel and on the rooms' landing page.

The upload is untrusted: its name is reduced to a scenario name (``default_id`` of its last
part, never a path), its size is held to the limit of every data file
(``wargame.scenario_errors.MAX_FILE_BYTES``) before anything is written, and the import itself
is bounded (the same checks as ``wargame scenario import``: 5 MB, nesting depth, schema).
"""

from __future__ import annotations

import html
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import panel as pn

from wargame.i18n import using_language
from wargame.memoir.imports import default_id, import_m44, report_text
from wargame.memoir.text import IMPORT_TEXT_EN as TEXT
from wargame.scenario_errors import MAX_FILE_BYTES, ScenarioError

__all__ = ["M44Import"]


class M44Import(pn.viewable.Viewer):
    """A file input for ``.m44`` files and the import's answer (the report, or why not)."""

    def __init__(self, on_imported: Callable[[str], None] | None = None,
                 lang: str | None = None, width: int = 300, **params: Any) -> None:
        super().__init__(**params)
        self.on_imported = on_imported
        self.lang = lang
        self.input = pn.widgets.FileInput(accept=".m44", width=width - 20)
        self.message = pn.pane.HTML("", width=width, css_classes=["wg-m44-import"])
        self.width = width
        self.input.param.watch(self._upload, "value")

    def _upload(self, event: Any) -> None:
        if event.new:
            self.import_bytes(event.new, str(self.input.filename or "imported.m44"))

    def import_bytes(self, data: bytes, filename: str) -> str | None:
        """Import the uploaded ``data``; the new scenario's name, or None (the reason shown)."""
        with using_language(self.lang):
            if not isinstance(data, bytes) or len(data) > MAX_FILE_BYTES:
                self._say(TEXT["ui.too_large"].format(mb=MAX_FILE_BYTES // (1024 * 1024)),
                          error=True)
                return None
            name = default_id(Path(Path(filename.replace("\\", "/")).name or "imported.m44"))
            with tempfile.TemporaryDirectory(prefix="wargame-m44-") as folder:
                path = Path(folder) / f"{name}.m44"
                path.write_bytes(data)
                try:
                    result = import_m44(path, name)
                except (ScenarioError, ValueError) as exc:
                    self._say(str(exc).replace(str(path.parent) + "/", "")[:600], error=True)
                    return None
            text = TEXT["ui.done"].format(title=result.title, id=result.scenario_id)
            self._say(text + ("\n" + report_text(result.lines) if result.recognised is None
                              else ""))
        if self.on_imported is not None:
            self.on_imported(result.scenario_id)
        return result.scenario_id

    def _say(self, text: str, error: bool = False) -> None:
        colour = "#a00000" if error else "#164d16"
        lines = "<br>".join(html.escape(line) for line in text.splitlines())
        self.message.object = (f"<div style='color:{colour};font-size:12px;max-height:200px;"
                               f"overflow:auto'>{lines}</div>")
        return None

    def __panel__(self) -> Any:
        with using_language(self.lang):
            return pn.Column(pn.pane.HTML(f"<b>{html.escape(TEXT['ui.label'])}</b>"),
                             self.input, self.message, width=self.width)
