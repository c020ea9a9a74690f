"""Showing the dashboards in notebooks: every dashboard as an ipywidget, for the places where only ipywidgets render (VS Code's and
Colab's notebooks): ``wargame.ui.widget("normandy", lang="pt")``.

The dashboard is the same object ``wargame serve`` and a JupyterLab cell show
(``wargame.ui.serve.build_dashboard``); Panel's ``pn.ipywidget`` wraps its Bokeh document in
``jupyter_bokeh``'s ``BokehModel`` (an ``ipywidgets.DOMWidget``), whose messages carry the
clicks to Python and the changes back, so no Bokeh server and no Panel comm is needed. The
stylesheets are inlined, as ``pn.extension(inline=True)`` does for a cell: nothing is asked of
a CDN. Needs the ``jupyter_bokeh`` package (the ``notebooks`` extra).

``notebook_bundle`` is how the dashboards show in a Jupyter cell: Panel's own output, then the
stylesheets of every panel drawn later (after a click) taken from the Jupyter server, not a CDN.
``pn.extension(inline=True)`` inlines the stylesheets of the first drawing only; the panels a
click creates afterwards ask Panel's CDN (six failed requests per click offline) unless their
document names a local ``dist_url``, which Panel's Jupyter server extension serves
(``panel-preview/static/extensions/panel/``, under JupyterHub's or Binder's prefix).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from wargame.games import MEMOIR_PREFIX

__all__ = ["widget", "GAMES", "notebook_bundle", "local_dist_url"]

GAMES = {"normandy": "normandy", "dragoon": "dragoon", "memoir44": f"{MEMOIR_PREFIX}1"}
"""Short names of the games -> the bundled scenario their widget opens (Memoir '44: Pegasus
Bridge); any other bundled scenario id (``wargame scenario list``) is accepted as well."""


def widget(game: str = "normandy", seed: int | None = None, lang: str | None = None,
           computer: str = "none", variants: tuple[str, ...] | list[str] = ()) -> Any:
    """The dashboard of ``game`` (``normandy``, ``dragoon``, ``memoir44`` or a scenario id such
    as ``memoir44-5``) as an ipywidget: display it as the last expression of a cell.
    ``seed``, ``lang`` (``en``, ``pt``), ``computer`` (``none``, ``axis``, ``allied``) and
    ``variants`` as for ``wargame serve``. The dashboard itself is the widget's ``dashboard``
    attribute, for driving it from code."""
    import panel as pn
    from bokeh.document import Document
    from bokeh.models import UIElement
    from panel.io.notebook import patch_inline_stylesheets
    from panel.io.resources import set_resource_mode

    from wargame.ui.serve import build_dashboard

    try:
        import jupyter_bokeh  # noqa: F401
    except ImportError as exc:  # pragma: no cover - the notebooks extra installs it
        raise ImportError("wargame.ui.widget needs the jupyter_bokeh package: "
                          "pip install 'wargame[notebooks]'") from exc

    dashboard = build_dashboard(GAMES.get(game, game), seed, variants, computer, lang=lang)
    with set_resource_mode("inline"):
        w = pn.ipywidget(dashboard, doc=Document())
    root = w._model  # the dashboard's Bokeh root, the widget's render bundle
    for model in root.select({"type": UIElement}):  # as pn.extension(inline=True) does
        patch_inline_stylesheets(model)
    w.update_from_model(root)
    use_local_stylesheets([root])
    w.dashboard = dashboard
    return w


def local_dist_url(env: Mapping[str, str] | None = None) -> str | None:
    """Where the Jupyter server this kernel runs under serves Panel's files (Panel's server
    extension, ``panel-preview/static/extensions/panel/`` under ``JUPYTERHUB_SERVICE_PREFIX``
    on JupyterHub and Binder), or None outside a Jupyter server (VS Code's and Colab's own
    front ends, a script): there the CDN stays."""
    env = os.environ if env is None else env
    if "JPY_SESSION_NAME" not in env and "JPY_PARENT_PID" not in env:
        return None
    if any(k in env for k in ("VSCODE_PID", "VSCODE_CWD", "COLAB_RELEASE_TAG")):
        return None
    prefix = env.get("JUPYTERHUB_SERVICE_PREFIX") or "/"
    return prefix.rstrip("/") + "/panel-preview/static/extensions/panel/"


def use_local_stylesheets(roots: Any, url: str | None = None) -> None:
    """The documents of ``roots`` (Bokeh models) name ``url`` (default ``local_dist_url()``)
    as Panel's ``dist_url``: the panels created in them later take their stylesheets there."""
    url = url or local_dist_url()
    if not url:
        return
    for root in roots:
        doc = getattr(root, "document", None)
        if doc is not None:
            doc._template_variables["dist_url"] = url


def notebook_bundle(viewer: Any, include: Any = None, exclude: Any = None) -> Any:
    """A dashboard's output in a Jupyter cell (its ``_repr_mimebundle_``): Panel's, with the
    stylesheets of later panels served by the Jupyter server (``use_local_stylesheets``)."""
    view = viewer._create_view()
    bundle = view._repr_mimebundle_(include, exclude)
    use_local_stylesheets([model for model, _ in list(view._models.values())])
    return bundle
