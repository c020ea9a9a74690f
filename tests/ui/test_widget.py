"""Issue #15: every dashboard as an ipywidget for VS Code and Colab (wargame.ui.widget): the
object is an ipywidgets.DOMWidget whose model carries the dashboard's whole Bokeh document (the
map figure, its hexes, the dashboard's texts in the language asked), with no stylesheet asked of
a CDN; no browser needed."""

from __future__ import annotations

import json

import pytest

ipywidgets = pytest.importorskip("ipywidgets")
pytest.importorskip("jupyter_bokeh")


def _types(bundle: dict) -> set[str]:
    found: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            if node.get("type") == "object" and "name" in node:
                found.add(node["name"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(bundle["docs_json"])
    return found


@pytest.fixture(scope="module")
def built():
    """Each game's widget built once for the module's tests (a dashboard takes seconds)."""
    from wargame.ui import widget

    cache: dict[tuple[str, str], object] = {}

    def get(game: str, lang: str = "en"):
        if (game, lang) not in cache:
            cache[game, lang] = widget(game, lang=lang)
        return cache[game, lang]

    return get


@pytest.mark.parametrize("game,lang,text", [
    ("normandy", "en", "Allied movement"),
    ("dragoon", "pt", "Fase de Movimentação Aliada"),
    ("memoir44", "en", "Pegasus Bridge"),
])
def test_each_dashboard_is_a_dom_widget_rendering_its_document(built, game, lang, text):
    w = built(game, lang)
    assert isinstance(w, ipywidgets.DOMWidget)
    bundle = w.render_bundle
    assert set(bundle) >= {"docs_json", "render_items", "div"}
    (doc,) = bundle["docs_json"].values()
    root_ids = {r["id"] for r in doc["roots"]}
    assert bundle["render_items"][0]["roots"] and \
        set(bundle["render_items"][0]["roots"]) <= root_ids
    types = _types(bundle)
    assert "Figure" in types and "HexTile" in types, sorted(types)[:40]
    raw = json.dumps(bundle, ensure_ascii=False)
    assert text in raw
    assert "cdn.holoviz.org" not in raw and "cdn.jsdelivr.net" not in raw
    assert w.dashboard is not None


def test_the_widget_is_live(built):
    """A click's effect on the dashboard (select a unit: its reachable hexes are shaded) is sent
    to the page as a Bokeh document patch through the widget's messages."""
    w = built("normandy")
    sent: list[dict] = []
    w.send = lambda msg, buffers=None: sent.append(msg)
    w.dashboard.model.select_hex("1309")  # what a click on hex 1309 does
    assert w.dashboard.model.selected_unit
    assert any(m.get("msg") == "patch" for m in sent)


def test_panels_drawn_later_take_their_stylesheets_from_the_jupyter_server():
    """In a kernel of a Jupyter server (JupyterLab, Notebook, Binder's JupyterHub prefix) the
    dashboards' documents name Panel's files on that server; elsewhere (VS Code's or Colab's
    own front end, a script) the CDN stays."""
    from wargame.ui.notebook import local_dist_url

    panel_files = "panel-preview/static/extensions/panel/"
    assert local_dist_url({"JPY_SESSION_NAME": "x"}) == "/" + panel_files
    assert local_dist_url({"JPY_SESSION_NAME": "x", "JUPYTERHUB_SERVICE_PREFIX":
                           "/user/abc/"}) == "/user/abc/" + panel_files
    assert local_dist_url({}) is None
    assert local_dist_url({"JPY_SESSION_NAME": "x", "VSCODE_PID": "1"}) is None
    assert local_dist_url({"JPY_PARENT_PID": "1", "COLAB_RELEASE_TAG": "r"}) is None


def test_a_dashboard_in_a_cell_names_the_local_files(monkeypatch):
    import panel as pn

    from wargame.ui.serve import build_dashboard

    monkeypatch.setenv("JPY_SESSION_NAME", "test")
    pn.extension(inline=True)
    dash = build_dashboard("memoir44-1")
    bundle = dash._repr_mimebundle_()
    assert bundle
    view_docs = {m.document for m, _ in dash._create_view()._models.values()} - {None}
    assert view_docs and all(d._template_variables.get("dist_url") ==
                             "/panel-preview/static/extensions/panel/" for d in view_docs)
