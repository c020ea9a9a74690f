"""A solo dashboard's game kept in the browser as it is played (issue #31).

A served dashboard's game lived only in its server session: a closed tab, a reload, a dead
session or a server restart lost it. ``GameKeeper`` writes the game's save (the seed and the
action log, ``wargame.saves.to_save``, compact JSON) into the browser's ``localStorage`` after
every change of position, under a key per scenario (``KEY_PREFIX`` + the scenario id). When a
page opens and the browser holds a kept game of its scenario with actions in it, the page
offers it back ("Continue the game" / "Start afresh"); continuing loads it through the
store's one loader (``load_text``: the same checks as an uploaded save, any fault only a
message). Until the player chooses, nothing is written, so the kept game is never replaced
by the fresh one; once chosen (or when nothing was kept), every change is kept.

Only the game's owner (the solo viewer, ``wargame.viewer``: it may see the seed and save the
game) keeps its game in its browser; a room's seat or the teacher's page never gets the seed
or the log (the room keeps its game in its SQLite file). What the browser sends back is
untrusted: its length is bounded (``MAX_KEPT_CHARS``, the save limit) and it is parsed by
the hardened save reader, only when offered and when continued.

A browser whose storage is full (or refuses it: private modes) tells the page, which says so
once in the message bar: save to a file instead.
"""

from __future__ import annotations

import json
from typing import Any

import panel as pn
import param
from panel.custom import JSComponent

from wargame.i18n import using_language
from wargame.saves import MAX_SAVE_BYTES, parse_save_text, to_save
from wargame.ui.panel_internals import BrowserMessages
from wargame.ui.session_text import SESSION

__all__ = ["BrowserKeep", "GameKeeper", "keeper_for", "KEY_PREFIX", "MAX_KEPT_CHARS"]

KEY_PREFIX = "wargame.kept."
MAX_KEPT_CHARS = MAX_SAVE_BYTES
"""The longest kept text the browser reports back (a save's size limit)."""


class BrowserKeep(BrowserMessages, JSComponent):
    """The browser side: when rendered it sends what ``localStorage`` holds under ``key``
    (``found``, None: nothing; then ``checked``); every change of ``saved`` is sent to the
    browser, which stores it there (an empty text removes it); ``full`` when the browser
    refused to store. Messages, not synced properties: the kept text never travels back."""

    key = param.String(default="")
    limit = param.Integer(default=MAX_KEPT_CHARS, constant=True)
    saved = param.String(default="", doc="what is kept (sent to the browser on change)")
    found = param.String(default=None, allow_None=True, doc="what the browser had kept")
    checked = param.Boolean(default=False, doc="the browser has reported ``found``")
    full = param.Boolean(default=False, doc="the browser's storage refused the text")

    _rename = {"saved": None, "found": None, "checked": None, "full": None}
    on_choice: Any = None  # the player's choice in the browser's offer (GameKeeper)

    _esm = """
    export function render({ model }) {
      let acked = false
      const report = () => {
        if (acked) { return }
        let text = null
        try { text = window.localStorage.getItem(model.key) } catch (e) { text = null }
        if (text != null && text.length > model.limit) { text = null }
        model.send_msg({kind: "found", text: text})
        setTimeout(report, 1000)  // until the server says it has it (a message sent before
      }                           // the session is ready is lost)
      model.on("msg:custom", (msg) => {
        if (msg.ack) { acked = true; return }
        if (msg.offer !== undefined) { offer(msg); return }
        try {
          if (msg.text) { window.localStorage.setItem(model.key, msg.text) }
          else { window.localStorage.removeItem(model.key) }
          if (msg.full) { model.send_msg({kind: "stored"}) }
        } catch (e) {
          model.send_msg({kind: "full"})
        }
      })
      let banner = null
      const offer = (msg) => {
        if (banner) { banner.remove(); banner = null }
        if (!msg.offer) { return }
        banner = document.createElement("div")
        banner.className = "wg-keep-offer"
        Object.assign(banner.style, {position: "fixed", top: "0", left: "0", right: "0",
          zIndex: "1000", background: "#fff8dc", borderBottom: "2px solid #b8860b",
          padding: "8px", fontFamily: "sans-serif", fontSize: "16px"})
        const words = document.createElement("span")
        words.textContent = msg.offer + " "
        banner.appendChild(words)
        for (const [label, kind] of [[msg.go, "continue"], [msg.drop, "discard"]]) {
          const b = document.createElement("button")
          b.textContent = label
          b.style.marginLeft = "8px"
          b.onclick = () => { model.send_msg({kind: kind}) }
          banner.appendChild(b)
        }
        document.body.appendChild(banner)
      }
      setTimeout(report, 0)
      const el = document.createElement("span")
      el.className = "wg-keep"
      el.style.display = "none"
      return el
    }
    """

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.param.watch(lambda e: self.send_to_browser({"text": e.new, "full": self.full}),
                         "saved")

    def on_browser_message(self, data: Any) -> None:
        """The browser's reports (untrusted: only their shape is used)."""
        if not isinstance(data, dict):
            return
        kind = data.get("kind")
        if kind == "found":
            self.send_to_browser({"ack": True})
            if self.checked:
                return
            text = data.get("text")
            self.found = text if isinstance(text, str) and len(text) <= MAX_KEPT_CHARS else None
            self.checked = True
            return
        if kind in ("continue", "discard") and self.on_choice is not None:
            self.on_choice(kind)
            return
        if kind == "full":
            self.full = True
        elif kind == "stored":
            self.full = False


class GameKeeper(pn.viewable.Viewer):
    """The keeper of one solo store (module doc): ``browser`` (a ``BrowserKeep``) and the
    offer shown when a kept game is found."""

    def __init__(self, store: Any, **params: Any) -> None:
        super().__init__(**params)
        self.store = store
        self.browser = BrowserKeep(key=KEY_PREFIX + str(store.state.game.scenario_id),
                                   height=0, width=0, margin=0)
        self.deciding = False  # a kept game is offered: nothing is written until chosen
        self._told_full = False
        with using_language(store.lang):
            self.text = pn.pane.HTML("", css_classes=["wg-keep-offer-text"], margin=(5, 10))
            self.go = pn.widgets.Button(label=SESSION["keep.continue"], color="primary",
                                        css_classes=["wg-keep-continue"])
            self.drop = pn.widgets.Button(label=SESSION["keep.discard"],
                                          css_classes=["wg-keep-discard"])
        self.browser.on_choice = lambda kind: (self.continue_kept() if kind == "continue"
                                               else self.discard_kept())
        self.go.on_click(lambda _e: self.continue_kept())
        self.drop.on_click(lambda _e: self.discard_kept())
        self.offer = pn.Row(self.text, self.go, self.drop, visible=False,
                            css_classes=["wg-keep-offer-panel"],
                            styles={"position": "fixed", "top": "0", "left": "0",
                                    "right": "0", "z-index": "1000", "background": "#fff8dc",
                                    "border-bottom": "2px solid #b8860b", "padding": "6px"})
        self.browser.param.watch(lambda _e: self._checked(), "checked")
        self.browser.param.watch(lambda e: self._full(bool(e.new)), "full")
        store.param.watch(lambda _e: self.keep(), "state")

    # ------------------------------------------------------------------ what is kept
    def kept_text(self) -> str:
        """The store's game as compact save JSON (its owner's: the seed and the log)."""
        return json.dumps(to_save(self.store.state), separators=(",", ":"))

    def keep(self) -> None:
        """Write the current game to the browser (after the browser reported and the player
        chose, module doc)."""
        if self.browser.checked and not self.deciding:
            self.browser.saved = self.kept_text()

    def _checked(self) -> None:
        found = self.browser.found
        n = _kept_actions(found) if found else 0
        if n and found != self.kept_text():
            self.deciding = True
            with using_language(self.store.lang):
                self.text.object = SESSION.plural("keep.offer", n).format(n=n)
            self.offer.visible = True
            with using_language(self.store.lang):  # drawn by the browser (a fixed banner)
                self.browser.send_to_browser({
                    "offer": SESSION.plural("keep.offer", n).format(n=n),
                    "go": SESSION["keep.continue"], "drop": SESSION["keep.discard"]})
            return
        self.keep()

    def continue_kept(self) -> bool:
        """Load the kept game (the store's loader: any fault is a message) and keep on."""
        found, self.browser.found = self.browser.found, None
        self.deciding = False
        self.offer.visible = False
        self.browser.send_to_browser({"offer": ""})
        loaded = bool(found) and self.store.load_text(found)
        self.keep()
        return loaded

    def discard_kept(self) -> None:
        """Set the kept game aside: the page's game is kept from now on."""
        self.browser.found = None
        self.deciding = False
        self.offer.visible = False
        self.browser.send_to_browser({"offer": ""})
        with using_language(self.store.lang):
            self.store.say(SESSION["keep.discarded"])
        self.keep()

    def _full(self, full: bool) -> None:
        if full and not self._told_full:
            self._told_full = True
            with using_language(self.store.lang):
                self.store.say(SESSION["keep.full"], error=True)

    def __panel__(self) -> Any:
        return pn.Column(self.browser, self.offer, margin=0, css_classes=["wg-keeper"])


def _kept_actions(text: str) -> int:
    """How many actions a kept text holds (0 when it is no save)."""
    try:
        data = parse_save_text(text, "<kept in the browser>")
    except Exception:  # noqa: BLE001 -- untrusted text: anything wrong is "nothing kept"
        return 0
    actions = data.get("actions") if isinstance(data, dict) else None
    return len(actions) if isinstance(actions, list) else 0


def keeper_for(dashboard: Any) -> GameKeeper | None:
    """The keeper of a served dashboard's game, for its owner only (a solo store); None for a
    room's seat, the teacher's page or a page without a store."""
    store = getattr(dashboard, "store", None) or getattr(dashboard, "model", None)
    if store is None or not hasattr(store, "as_viewer") or not hasattr(store, "load_text"):
        return None
    if not store.as_viewer().sees_seed:
        return None
    return GameKeeper(store)
