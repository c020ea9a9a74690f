"""The dashboards' Load button (issue #31): a save is checked for size before it is sent.

A file of 16 MB or more given to Panel's plain ``FileInput`` was sent whole, base64 in one
websocket message, past Bokeh's 20 MiB limit (``websocket_max_message_size``): the socket
closed without a word and the session was lost. ``SaveInput`` is panel_material_ui's file
input (Panel depends on it), which

- checks the file's size in the browser before a byte is sent (``max_file_size``): a file
  over ``MAX_SAVE_BYTES`` is refused there, with panel_material_ui's note beside the button,
  and the browser tells the server, which says why in the page's message bar, in the page's
  language (``on_refused``);
- sends an accepted file in binary chunks of ``CHUNK_BYTES`` (4 MB), each message far under
  Bokeh's limit.

The server does not trust the browser's check: what arrives is counted, and an upload that
passes ``MAX_SAVE_BYTES`` (a page that skips the check), a chunk larger than ``CHUNK_BYTES``,
or chunk numbers out of order are dropped at once, nothing of them kept, with the same
message. One upload at a time: a new file's chunks drop the unfinished one, so the memory an
upload may take is bounded by the limit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import param
from panel_material_ui import FileInput as _MaterialFileInput

from wargame.i18n import using_language
from wargame.saves import MAX_SAVE_BYTES
from wargame.ui.panel_internals import ChunkedUpload
from wargame.ui.session_text import SESSION

log = logging.getLogger(__name__)

__all__ = ["SaveInput", "CHUNK_BYTES", "MAX_SAVE_BYTES", "refusal_text", "tell_store"]

CHUNK_BYTES = 4_000_000
"""The bytes of each upload message: a fifth of Bokeh's 20 MiB message limit."""
MAX_CHUNKS = -(-MAX_SAVE_BYTES // CHUNK_BYTES)
"""The most chunks an upload of at most ``MAX_SAVE_BYTES`` takes."""


class SaveInput(ChunkedUpload, _MaterialFileInput):
    """A file input for one save file of at most ``MAX_SAVE_BYTES`` (module doc).
    ``on_refused(reason)`` is called when a file is refused: ``"too_big"`` (the browser's
    check, or the server's count) or ``"bad_upload"`` (chunks the browser would not send).
    The accepted file's bytes arrive in ``value``, as with Panel's ``FileInput``."""

    refused = param.Integer(default=0, doc="how many uploads were refused (tests, logs)")

    def __init__(self, on_refused: Callable[[str], Any] | None = None, **params: Any) -> None:
        params.setdefault("accept", ".json")
        params.setdefault("label", SESSION["upload.choose"])
        params.setdefault("variant", "outlined")
        params.setdefault("multiple", False)
        params["max_file_size"] = MAX_SAVE_BYTES
        params["max_total_file_size"] = MAX_SAVE_BYTES
        params["chunk_size"] = CHUNK_BYTES
        super().__init__(**params)
        self._on_refused = on_refused
        self._upload_name: str | None = None
        self._received = 0
        self._dropped = False

    # ------------------------------------------------------------------ the server's check
    def on_browser_message(self, msg: Any) -> None:
        if not isinstance(msg, dict):
            return
        status = msg.get("status")
        if status == "initializing":  # a new upload: whatever was unfinished is dropped
            self._drop(refuse=None)
            self._dropped = False
            return
        if status == "error":  # the browser refused the file (its size): nothing was sent
            self._drop(refuse="too_big")
            return
        if status == "upload_event":
            if not self._dropped:
                self._chunk(msg)
            return
        if status == "finished":
            if self._dropped:
                self._drop(refuse=None)
                self.send_to_browser({"status": "finished"})
                return
            self.component_message(msg)  # panel_material_ui's: the file into value
            self._upload_name, self._received = None, 0
            return
        log.debug("upload message of unknown status %r ignored", str(status)[:40])

    def _chunk(self, msg: dict[str, Any]) -> None:
        name, chunk, total, data = (msg.get("name"), msg.get("chunk"), msg.get("total_chunks"),
                                    msg.get("data"))
        if not (isinstance(name, str) and isinstance(chunk, int) and isinstance(total, int)
                and 1 <= chunk <= total and isinstance(data, bytes | bytearray | memoryview)):
            self._drop(refuse="bad_upload")
            return
        size = len(bytes(data)) if isinstance(data, memoryview) else len(data)
        if total > MAX_CHUNKS or size > CHUNK_BYTES or self._received + size > MAX_SAVE_BYTES:
            self._drop(refuse="too_big")
            return
        if self._upload_name not in (None, name):  # a second file: one upload at a time
            self._drop(refuse=None)
            self._dropped = False
        expected = self.chunks_received(name) + 1
        if chunk != expected:  # the browser sends them in order, 1, 2, ...
            self._drop(refuse="bad_upload")
            return
        self._upload_name = name
        self._received += size
        self.add_chunk({**msg, "data": bytes(data), "name": name[:255],
                             "mime_type": str(msg.get("mime_type") or "")[:100]})

    def _drop(self, refuse: str | None) -> None:
        """Forget the unfinished upload; with ``refuse``, tell the page why (once)."""
        self.forget_upload()
        self._upload_name, self._received = None, 0
        if refuse is None or self._dropped:
            return
        self._dropped = True
        self.refused += 1
        if self._on_refused is not None:
            self._on_refused(refuse)


def refusal_text(reason: str) -> str:
    """The message bar's words for a refused upload, in the current language."""
    if reason == "too_big":
        return SESSION["upload.too_big"].format(mb=MAX_SAVE_BYTES // 1_000_000)
    return SESSION["upload.failed"].format(reason=SESSION["upload.bad"])


def tell_store(store: Any) -> Callable[[str], None]:
    """``on_refused`` for a dashboard: the refusal in its message bar, in its language (a
    ``wargame.ui.store.GameStore``: ``say`` and ``lang``)."""

    def told(reason: str) -> None:
        with using_language(store.lang):
            store.say(refusal_text(reason), error=True)

    return told
