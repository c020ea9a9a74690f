"""Where wargame reaches into Panel's private code, and why (issue #35 item 8: confined to
one module; ``tests/ui/test_panel_internals.py`` names what broke if an upgrade moves it).

``steady_stylesheets()``: an HTML or Markdown pane whose text changes re-sends every property
of its Bokeh model (``HTMLBasePane._update`` -> ``model.update(**self._get_properties(doc))``),
the ``stylesheets`` list included. In a served room page that list came back on every update
as new ``ImportedStyleSheet`` objects with the same URLs (Panel's per-document stylesheet cache
missed; measured with a trace of ``Model.trigger`` in ``wargame serve --rooms``: 52 of them in
18 Memoir room updates, 3 rooms). A new model in a property makes Bokeh recompute the whole
document's model graph (``Document.models.invalidate`` -> ``recompute``), which was most of
the server's CPU per room update in ``bench/rooms.py`` (cProfile: 183 of 673 s, most of the
rest being page opening). The patch drops ``stylesheets`` from such an update when the model
already has the same stylesheets (the same objects, or stylesheets of the same kind and URL or
text), so the browser receives only the text that changed. With it: 0 such recomputes, and
the server's CPU for the same 3-room bench went from 10.9 to 9.0 s (page opening included).

``ordered_callbacks()``: with a thread pool (``pn.config.nthreads``, every served page here)
Panel hands a widget's new value (``Syncable._change_coroutine``, after a 50 ms debounce) and a
button's click (``_event_coroutine`` / ``_comm_event``) to the pool as separate tasks, which
two workers may run at once: the click's handler can read the value from before the change.
Seen in a fresh-clone CI run: the teacher typed 3 in "Rooms", clicked "Create the rooms" and got
the 6 of the field's default (``test_class_browser``). The patch runs a session's (a
document's) pool tasks one after the other, in the order its browser sent them; other sessions
still run side by side.
"""

from __future__ import annotations

import threading
import weakref
from concurrent.futures import Future
from typing import Any

__all__ = ["steady_stylesheets", "same_stylesheets", "ordered_callbacks", "in_order",
           "lean_property_updates"]

_PATCHED: dict[str, Any] = {"done": False, "panel_update": None}
"""Whether the patches are in, and Panel's own methods they replace (``panel_update``:
``HTMLBasePane._update``; ``panel_ordered``: the three ``Syncable`` methods by name)."""


def _identity(sheet: Any) -> tuple[str, Any]:
    """What a stylesheet is, for comparing: its kind and URL (``ImportedStyleSheet``), its
    kind and CSS (``InlineStyleSheet``), or the raw CSS string."""
    field = next((f for f in ("url", "css") if hasattr(type(sheet), f)), None)
    if field is None:  # raw CSS text
        return type(sheet).__name__, sheet
    try:
        return type(sheet).__name__, getattr(sheet, field)
    except Exception:  # a destroyed Bokeh model: its properties are unset
        return type(sheet).__name__, object()


def same_stylesheets(old: Any, new: Any) -> bool:
    """True when the two stylesheet lists say the same (module doc)."""
    old, new = list(old or ()), list(new or ())
    return len(old) == len(new) and all(a is b or _identity(a) == _identity(b)
                                        for a, b in zip(old, new, strict=True))


def steady_stylesheets() -> None:
    """Patch Panel's HTML/Markdown pane update so that an unchanged stylesheet list is not
    re-sent (module doc). Idempotent."""
    if _PATCHED["done"]:
        return
    from panel.pane.markup import HTMLBasePane

    panel_update = HTMLBasePane._update
    _PATCHED["panel_update"] = panel_update

    def _update(self: Any, ref: str, model: Any) -> None:
        props = self._get_properties(model.document)
        if "stylesheets" in props and same_stylesheets(model.stylesheets, props["stylesheets"]):
            del props["stylesheets"]
        if getattr(self, "enable_streaming", False):  # Panel's own path streams the text
            return panel_update(self, ref, model)
        model.update(**props)

    HTMLBasePane._update = _update
    _PATCHED["done"] = True


_ORDER_LOCK = threading.Lock()
_LAST_TASK: weakref.WeakKeyDictionary[Any, Future[Any]] = weakref.WeakKeyDictionary()
"""The last pool task handed over for each document (``in_order``)."""


def in_order(pool: Any, doc: Any, fn: Any, *args: Any) -> Future[Any]:
    """``fn(*args)`` on ``pool`` once every task given before for ``doc`` has finished (at
    once when none is pending); a future of its result. No worker waits: the next task is
    submitted by the previous one's completion."""
    result: Future[Any] = Future()

    def settle(done: Future[Any]) -> None:
        exc = done.exception()
        if exc is not None:
            result.set_exception(exc)
        else:
            result.set_result(done.result())

    def start(_previous: Any = None) -> None:
        try:
            pool.submit(fn, *args).add_done_callback(settle)
        except RuntimeError as exc:  # the pool was shut down (the server stopping)
            result.set_exception(exc)

    with _ORDER_LOCK:
        previous = _LAST_TASK.get(doc)
        _LAST_TASK[doc] = result
    if previous is None:
        start()
    else:
        previous.add_done_callback(start)  # at once when it is already done
    return result


def ordered_callbacks() -> None:
    """Patch Panel so that a session's widget changes and events run on the thread pool in
    the order they came (module doc). Idempotent."""
    if _PATCHED.get("ordered"):
        return
    from functools import partial

    from panel.io.state import set_curdoc, state
    from panel.reactive import Syncable

    def submit(doc: Any, fn: Any, *args: Any) -> None:
        future = in_order(state._thread_pool, doc, fn, *args)
        future.add_done_callback(partial(state._handle_future_exception, doc=doc))

    async def _change_coroutine(self: Any, doc: Any, event_id: str | None = None) -> None:
        # Panel 1.9's Syncable._change_coroutine, the pool task given in order
        if event_id is not None:
            callbacks = state._change_callbacks.get(doc, {})
            if event_id not in callbacks:
                return  # already processed
            del callbacks[event_id]
            if not callbacks and doc in state._change_callbacks:
                del state._change_callbacks[doc]
        if state._thread_pool:
            submit(doc, self._change_event, doc)
        else:
            with set_curdoc(doc):
                try:
                    self._change_event(doc)
                except Exception as e:
                    state._handle_exception(e)

    def _comm_event(self: Any, doc: Any, event: Any) -> None:
        # Panel 1.9's Syncable._comm_event, the pool task given in order
        if state._thread_pool:
            submit(doc, self._process_bokeh_event, doc, event)
        else:
            try:
                self._process_bokeh_event(doc, event)
            except Exception as e:
                state._handle_exception(e)

    async def _event_coroutine(self: Any, doc: Any, event: Any) -> None:
        # Panel 1.9's Syncable._event_coroutine: the pending changes first, then the event
        for callback in list(state._change_callbacks.get(doc, {}).values()):
            await callback()
        self._comm_event(doc, event)

    _PATCHED["panel_ordered"] = {name: getattr(Syncable, name) for name in
                                 ("_change_coroutine", "_comm_event", "_event_coroutine")}
    Syncable._change_coroutine = _change_coroutine
    Syncable._comm_event = _comm_event
    Syncable._event_coroutine = _event_coroutine
    _PATCHED["ordered"] = True


def lean_property_updates() -> None:
    """Patch Panel so that a property change of a component, or a new text of an HTML or
    Markdown pane, does not resolve the component's design (issue #31). Idempotent.

    - Panel 1.9's ``Reactive._update_properties`` calls ``self._design.params(self, doc)``
      (the theme's modifiers: stylesheet paths resolved, files stat'ed) for every change of
      every property, then uses the result only when ``stylesheets`` is among the changes.
      The patched method skips it otherwise and returns the same properties.
    - An HTML pane's new text (``HTMLBasePane._update``) computed every property of the pane
      (``_get_properties``: the design's included) to send the one that changed. The patched
      method sends the properties of the new object only (``_process_param_change`` of it:
      the ``text``); Panel's own method still streams a pane with ``enable_streaming``.

    A served Memoir seat page's update is a few dozen such changes: the other seat's page,
    when its turn comes, shows its hand's play buttons (``bench/rooms.py`` rounds 4 and 8:
    about 35 property changes). Measured in ``tests/ui/test_lean_updates.py`` by counting the
    design's resolutions per update."""
    if _PATCHED.get("lean"):
        return
    from panel.pane.markup import HTMLBasePane
    from panel.reactive import Reactive

    panel_update_properties = Reactive._update_properties
    html_update = HTMLBasePane._update  # Panel's, or steady_stylesheets' wrapper of it
    _PATCHED["panel_update_properties"] = panel_update_properties
    _PATCHED["html_update"] = html_update
    # Panel's own, whichever patch came first (steady_stylesheets keeps it as panel_update)
    _PATCHED.setdefault("panel_html_update", _PATCHED.get("panel_update") or html_update)

    def _update_properties(self: Any, *events: Any, doc: Any) -> dict[str, Any]:
        if any(event.name == "stylesheets" for event in events):
            return panel_update_properties(self, *events, doc=doc)
        return self._process_param_change({event.name: event.new for event in events})

    def _update(self: Any, ref: str, model: Any) -> None:
        if getattr(self, "enable_streaming", False):
            return html_update(self, ref, model)
        model.update(**self._process_param_change({"object": self.object}))

    Reactive._update_properties = _update_properties
    HTMLBasePane._update = _update
    _PATCHED["lean"] = True
