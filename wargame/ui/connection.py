"""A served page whose server went away says so, and comes back by itself (issue #31).

A page left open across a server restart showed no notice, still said "your side's turn"
and dropped clicks silently. ``watch_connection(doc, lang)`` hangs a script on the Bokeh
document's ``connection_lost`` event (BokehJS fires it when the websocket closes): a notice
covers the page, in the page's language, so no click goes unanswered; the page then asks the
server for its own address every ``POLL_MS`` milliseconds and reloads when the server answers.
A reload opens a new session of the same URL: a room's seat link carries its seat
(``?seat=``), so the seat resumes where the room's file says it is; a solo dashboard offers
the game its browser kept (``wargame.ui.keeper``).

Bokeh's own reconnection (``pn.config.reconnect``) brings the old session back only while
its token is valid (5 minutes) and the server still has it; after a restart the session is
gone, so the page reloads instead. Nothing here runs outside a served session.
"""

from __future__ import annotations

from typing import Any

from wargame.i18n import using_language
from wargame.ui.session_text import SESSION

__all__ = ["watch_connection", "POLL_MS", "LOST_JS"]

POLL_MS = 2000
"""How often a page that lost its server asks whether it is back."""

LOST_JS = """
if (window.__wargame_lost) { return }
window.__wargame_lost = true
const box = document.createElement("div")
box.className = "wg-connection-lost"
box.setAttribute("role", "alert")
box.textContent = waiting
Object.assign(box.style, {
  position: "fixed", inset: "0", zIndex: "100000", display: "flex", alignItems: "center",
  justifyContent: "center", textAlign: "center", padding: "10%", fontSize: "28px",
  fontFamily: "sans-serif", color: "#fff", background: "rgba(40, 40, 40, 0.85)",
})
document.body.appendChild(box)
const poll = () => {
  fetch(window.location.href, {cache: "no-store"}).then((r) => {
    if (r.ok) { box.textContent = back; window.location.reload() }
    else { setTimeout(poll, every) }
  }).catch(() => setTimeout(poll, every))
}
setTimeout(poll, every)
"""


def watch_connection(doc: Any, lang: str | None = None) -> None:
    """Hang the notice and the reconnection (module doc) on ``doc``, in ``lang``."""
    if doc is None:
        return
    from bokeh.models import CustomJS

    with using_language(lang):
        words = {"waiting": SESSION["lost.waiting"], "back": SESSION["lost.back"]}
    doc.js_on_event("connection_lost", CustomJS(args={**words, "every": POLL_MS}, code=LOST_JS))
