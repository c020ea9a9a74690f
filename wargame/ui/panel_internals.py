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

``lean_property_updates()``: a property change of a component, or a new text of an HTML pane,
resolved the component's design for nothing (issue #31; the function's doc).

The other reaches are small and named here so that no other module of wargame touches Panel's,
Bokeh's, jupyter_bokeh's or panel_material_ui's private code (``tests/ui/test_panel_internals.py``
keeps the table of them and fails on a reach from anywhere else):

- ``component_path()`` / ``component_resource_handler()``: Panel's ``/components/`` route and
  its Tornado handler, which ``wargame serve`` limits to imported packages (``wargame.ui.serve``);
- ``in_session(doc)``: Bokeh document ``doc`` as Panel's current one, for work run from another
  session's callback (a room's news, ``wargame.ui.room_page``);
- ``inline_ipywidget(view)``: a view as a ``jupyter_bokeh`` widget with its resources and
  stylesheets inlined (``wargame.ui.widgets``);
- ``set_dist_url(doc, url)``, ``view_of(viewer)``, ``view_roots(view)``: where a notebook
  document's later panels take Panel's files, and the Bokeh roots of a cell's output
  (``wargame.ui.notebook``);
- ``BrowserMessages``, ``ChunkedUpload``: messages between an ESM component and its browser
  side, and panel_material_ui's chunked upload state (``wargame.ui.keeper``,
  ``wargame.ui.upload``).

A patch is in when the class attribute is the function made here: each such function holds
the Panel method it replaces as ``panel_original`` (``panel_original(cls, name)``).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any, cast

__all__ = ["steady_stylesheets", "same_stylesheets", "ordered_callbacks", "in_order",
           "panel_original", "component_path", "component_resource_handler", "in_session",
           "inline_ipywidget", "set_dist_url", "view_of", "view_roots", "BrowserMessages",
           "ChunkedUpload", "lean_property_updates"]


def _replace(cls: type, name: str, function: Callable[..., Any]) -> None:
    """``cls.name = function``, ``function`` holding the method it replaces."""
    original = panel_original(cls, name)  # Panel's, even over a patch made before
    function.panel_original = original  # type: ignore[attr-defined]  # a mark on our own function
    setattr(cls, name, function)


def _patched(cls: type, name: str) -> bool:
    """Whether ``cls.name`` is a function made here (``_replace``)."""
    return hasattr(getattr(cls, name), "panel_original")


def panel_original(cls: type, name: str) -> Any:
    """Panel's own ``cls.name``: the method a patch here replaced, or the current one when
    no patch is in."""
    method = getattr(cls, name)
    return getattr(method, "panel_original", method)


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
    from panel.pane.markup import HTMLBasePane

    if _patched(HTMLBasePane, "_update"):
        return
    panel_update = HTMLBasePane._update

    def _update(self: Any, ref: str, model: Any) -> None:
        props = self._get_properties(model.document)
        if "stylesheets" in props and same_stylesheets(model.stylesheets, props["stylesheets"]):
            del props["stylesheets"]
        if getattr(self, "enable_streaming", False):  # Panel's own path streams the text
            return panel_update(self, ref, model)
        model.update(**props)

    _replace(HTMLBasePane, "_update", _update)


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
    from functools import partial

    from panel.io.state import set_curdoc, state
    from panel.reactive import Syncable

    if _patched(Syncable, "_comm_event"):
        return

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

    _replace(Syncable, "_change_coroutine", _change_coroutine)
    _replace(Syncable, "_event_coroutine", _event_coroutine)
    _replace(Syncable, "_comm_event", _comm_event)  # last: what _patched looks at


# ---------------------------------------------------------------- the serve command's route
def component_path() -> str:
    """The URL prefix of Panel's route for the files a component lists (``components/``)."""
    from panel.io.resources import COMPONENT_PATH

    return str(COMPONENT_PATH)


def component_resource_handler() -> type:
    """Panel's Tornado handler for that route (``wargame.ui.serve`` subclasses it)."""
    from panel.io.server import ComponentResourceHandler

    return cast(type, ComponentResourceHandler)


# ---------------------------------------------------------------- sessions and notebooks
@contextmanager
def in_session(doc: Any) -> Iterator[None]:
    """Within the block, ``doc`` (a Bokeh document) is Panel's current document: changes made
    there reach that session's page (``pn.state.curdoc``)."""
    from panel.io.state import set_curdoc

    with set_curdoc(doc):
        yield


def inline_ipywidget(view: Any) -> tuple[Any, Any]:
    """``view`` (a Panel object) as a ``jupyter_bokeh`` widget in a document of its own, its
    resources inline (the scripts of panel_material_ui's components included) and its
    stylesheets inlined as ``pn.extension(inline=True)`` does: the widget and its Bokeh root
    (whose ``document`` is the widget's)."""
    import panel as pn
    from bokeh.document import Document
    from bokeh.models import UIElement
    from panel.io.notebook import patch_inline_stylesheets
    from panel.io.resources import set_resource_mode

    with set_resource_mode("inline"), pn.config.set(inline=True):
        widget = pn.ipywidget(view, doc=Document())
    root = widget._model  # the view's Bokeh root, the widget's render bundle
    for model in root.select({"type": UIElement}):
        patch_inline_stylesheets(model)
    widget.update_from_model(root)  # the bundle rebuilt with the inlined stylesheets
    return widget, root


def set_dist_url(doc: Any, url: str) -> None:
    """The panels created later in Bokeh document ``doc`` take Panel's files from ``url``
    (Panel's ``dist_url`` template variable) rather than its CDN."""
    doc._template_variables["dist_url"] = url


def view_of(viewer: Any) -> Any:
    """The Panel object a ``pn.viewable.Viewer`` shows (its ``__panel__``, as Panel wraps it
    for display)."""
    return viewer._create_view()


def view_roots(view: Any) -> list[Any]:
    """The Bokeh roots ``view`` (a Panel object) has been drawn in so far."""
    return [model for model, _ in list(view._models.values())]


# ---------------------------------------------------------------- ESM components' messages
class BrowserMessages:
    """Messages between a Panel ESM component and its browser side, as a mixin before the
    component's class (``class C(BrowserMessages, JSComponent)``): ``send_to_browser`` is
    Panel's ``_send_msg`` (the browser sees it with ``model.on("msg:custom", ...)``), and what
    the browser sends (``model.send_msg``) reaches ``on_browser_message``, through Panel's
    ``_handle_msg``. ``component_message`` hands a message to the component's own handling
    (the class after the mixin)."""

    def send_to_browser(self, data: Any) -> None:
        cast(Any, self)._send_msg(data)

    def on_browser_message(self, data: Any) -> None:
        """What the browser sent (untrusted); overridden."""

    def component_message(self, data: Any) -> None:
        cast(Any, super())._handle_msg(data)

    def _handle_msg(self, data: Any) -> None:  # Panel's hook: ReactiveESM._handle_msg
        self.on_browser_message(data)


class ChunkedUpload(BrowserMessages):
    """``BrowserMessages`` for panel_material_ui's ``FileInput`` (a mixin before it), with the
    state of its chunked upload under public names: the chunks of a file received so far,
    adding one, and forgetting an unfinished upload."""

    def chunks_received(self, name: str) -> int:
        return len(cast(Any, self)._file_buffer.get(name, {}).get("chunks", {}))

    def add_chunk(self, msg: dict[str, Any]) -> None:
        cast(Any, self)._process_chunk(msg)

    def forget_upload(self) -> None:
        cast(Any, self)._file_buffer.clear()
        cast(Any, self)._buffer.clear()


# ---------------------------------------------------------------- lean property updates
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
      the ``text``); Panel's own method still streams a pane with ``enable_streaming``. It
      replaces ``steady_stylesheets``' method, whose stylesheets it never sends.

    A served Memoir seat page's update is a few dozen such changes: the other seat's page,
    when its turn comes, shows its hand's play buttons (``bench/rooms.py`` rounds 4 and 8:
    about 35 property changes). Measured in ``tests/ui/test_lean_updates.py`` by counting the
    design's resolutions per update."""
    from panel.pane.markup import HTMLBasePane
    from panel.reactive import Reactive

    if _patched(Reactive, "_update_properties"):
        return
    panel_update_properties = panel_original(Reactive, "_update_properties")
    panel_html_update = panel_original(HTMLBasePane, "_update")

    def _update_properties(self: Any, *events: Any, doc: Any) -> dict[str, Any]:
        if any(event.name == "stylesheets" for event in events):
            return cast(dict[str, Any], panel_update_properties(self, *events, doc=doc))
        return cast(dict[str, Any],
                    self._process_param_change({event.name: event.new for event in events}))

    def _update(self: Any, ref: str, model: Any) -> None:
        if getattr(self, "enable_streaming", False):  # Panel's own path streams the text
            return panel_html_update(self, ref, model)
        model.update(**self._process_param_change({"object": self.object}))

    _replace(HTMLBasePane, "_update", _update)
    _replace(Reactive, "_update_properties", _update_properties)  # last: what _patched reads
