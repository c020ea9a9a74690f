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
"""

from __future__ import annotations

from typing import Any

__all__ = ["steady_stylesheets", "same_stylesheets"]

_PATCHED: dict[str, Any] = {"done": False, "panel_update": None}
"""Whether the patch is in, and Panel's own ``HTMLBasePane._update`` it wraps."""


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
