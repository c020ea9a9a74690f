"""wargame.ui.panel_internals.steady_stylesheets: an HTML pane's text change sends only the
text. If a Panel upgrade breaks it, these tests say what moved (the table of every internal the
dashboards use is tests/ui/test_panel_internals.py)."""

from __future__ import annotations

import bokeh.document.models as bokeh_models
import panel as pn
from bokeh.document import Document
from bokeh.models import ImportedStyleSheet, InlineStyleSheet
from panel.io.state import set_curdoc, state
from panel.pane.markup import HTMLBasePane

from wargame.ui import panel_internals
from wargame.ui.panel_internals import same_stylesheets, steady_stylesheets


def test_panel_still_has_what_the_patch_wraps():
    assert callable(getattr(HTMLBasePane, "_update", None)), \
        "panel.pane.markup.HTMLBasePane._update is gone: steady_stylesheets wraps it"
    pane = pn.pane.HTML("x")
    assert callable(getattr(pane, "_get_properties", None)), \
        "Panel panes no longer have _get_properties(doc): steady_stylesheets calls it"
    assert isinstance(getattr(state, "_stylesheets", None), dict) or hasattr(state._stylesheets, "pop"), \
        "panel.io.state.state._stylesheets (the per-document stylesheet cache) is gone"


def test_same_stylesheets_compares_kind_and_url_or_text():
    a, b = ImportedStyleSheet(url="x.css"), ImportedStyleSheet(url="x.css")
    assert same_stylesheets([a, ":host{}"], [b, ":host{}"])
    assert not same_stylesheets([a], [ImportedStyleSheet(url="y.css")])
    assert not same_stylesheets([a], [a, a])
    assert not same_stylesheets([InlineStyleSheet(css="p{}")], [ImportedStyleSheet(url="p{}")])
    assert not same_stylesheets([":host{}"], [":host{color:red}"])


def _panels_own_update():
    """Panel's ``HTMLBasePane._update``, whichever of steady_stylesheets and
    lean_property_updates replaced it first in this process."""
    return (panel_internals._PATCHED.get("panel_html_update")
            or panel_internals._PATCHED["panel_update"] or HTMLBasePane._update)


def _recomputes_per_update(monkeypatch, update) -> tuple[int, str]:
    """An HTML pane in a document updated 5 times, its document's stylesheet cache dropped
    before each update (what happened in the served room pages: the stylesheets came back as
    new objects with the same URLs): how many times Bokeh recomputed the document's models."""
    monkeypatch.setattr(HTMLBasePane, "_update", update)
    calls = {"n": 0}
    original = bokeh_models.DocumentModelManager.invalidate

    def counting(self):
        calls["n"] += 1
        return original(self)

    monkeypatch.setattr(bokeh_models.DocumentModelManager, "invalidate", counting)
    pane = pn.pane.HTML("a", stylesheets=[":host{color:#222}"])
    doc = Document()
    with set_curdoc(doc):
        root = pn.Column(pane).get_root(doc)
        doc.add_root(root)
        calls["n"] = 0
        for i in range(5):
            state._stylesheets.pop(doc, None)
            pane.object = f"<b>{i}</b>"
    return calls["n"], root.children[0].text


def test_without_the_patch_a_text_change_recomputes_the_document(monkeypatch):
    panel_update = _panels_own_update()
    recomputes, text = _recomputes_per_update(monkeypatch, panel_update)
    assert text == "&lt;b&gt;4&lt;/b&gt;"
    assert recomputes >= 5, ("Panel's own update no longer re-sends equal stylesheets as new "
                             "objects: steady_stylesheets may not be needed any more")


def test_with_the_patch_a_text_change_sends_only_the_text(monkeypatch):
    monkeypatch.setitem(panel_internals._PATCHED, "done", False)
    monkeypatch.setattr(HTMLBasePane, "_update", _panels_own_update())
    steady_stylesheets()
    patched = HTMLBasePane._update
    steady_stylesheets()  # idempotent
    assert HTMLBasePane._update is patched
    recomputes, text = _recomputes_per_update(monkeypatch, patched)
    assert text == "&lt;b&gt;4&lt;/b&gt;"
    assert recomputes == 0


def test_with_the_patch_a_changed_stylesheet_still_reaches_the_model(monkeypatch):
    new_sheet = ":host{color:red}"
    monkeypatch.setitem(panel_internals._PATCHED, "done", False)
    monkeypatch.setattr(HTMLBasePane, "_update", _panels_own_update())
    steady_stylesheets()
    pane = pn.pane.HTML("a", stylesheets=[":host{color:#222}"])
    doc = Document()
    with set_curdoc(doc):
        root = pn.Column(pane).get_root(doc)
        doc.add_root(root)
        pane.param.update(object="b", stylesheets=[new_sheet])
    assert new_sheet in [s for s in root.children[0].stylesheets if isinstance(s, str)]
    assert root.children[0].text == "b"
