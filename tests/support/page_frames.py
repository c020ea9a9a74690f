"""What a page sends to its browser, without a browser (issue #27): the page's Bokeh document
as Bokeh serializes it for the browser (the first frame), then every change of the document
(what later websocket frames carry), each serialized the same way. A text that is in none of
these never reached the browser."""

from __future__ import annotations

import html
import re
from typing import Any

import panel as pn
from bokeh.core.json_encoder import serialize_json
from bokeh.core.serialization import Serializer
from bokeh.document import Document


class PageFrames:
    """Record what ``page`` sends to a browser (module doc)."""

    def __init__(self, page: Any) -> None:
        self.doc = Document()
        self.doc.add_root(pn.panel(page).get_root(self.doc))
        self.frames: list[str] = [serialize_json(self.doc.to_json())]
        self.doc.on_change(self._changed)

    def _changed(self, event: Any) -> None:
        for name in ("new", "data", "patches", "model"):
            value = getattr(event, name, None)
            if value is not None:
                self.frames.append(serialize_json(Serializer().serialize(value).content))

    def snapshot(self) -> None:
        """The whole document again (a layout's new children do not always come through the
        document's change callbacks when no session runs; the browser gets them all the same)."""
        self.frames.append(serialize_json(self.doc.to_json()))

    @property
    def text(self) -> str:
        """Every frame, joined, with JSON's \\u escapes and HTML entities decoded (panes carry
        escaped HTML)."""
        if getattr(self, "_text_of", None) != len(self.frames):
            text = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)),
                          "\n".join(self.frames))  # JSON's escapes of accented letters
            self._text = html.unescape(html.unescape(text))
            self._text_of = len(self.frames)
        return self._text

    def holds(self, needle: str) -> bool:
        return needle in self.text
