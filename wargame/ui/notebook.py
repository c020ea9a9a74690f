"""The dashboards in a Jupyter cell without a CDN (issue #15).

``notebook_bundle`` is how the dashboards show in a cell: Panel's own output, then the
stylesheets of every panel drawn later (after a click) taken from the Jupyter server, not a CDN.
``pn.extension(inline=True)`` inlines the stylesheets of the first drawing only; the panels a
click creates afterwards ask Panel's CDN (failed requests offline) unless their document names a
local ``dist_url``, which Panel's Jupyter server extension serves
(``panel-preview/static/extensions/panel/``, under JupyterHub's or Binder's prefix).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

__all__ = ["notebook_bundle", "local_dist_url", "use_local_stylesheets", "shrinkable_root",
           "SHRINK_ROOT_CSS"]


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
    from wargame.ui.panel_internals import set_dist_url

    url = url or local_dist_url()
    if not url:
        return
    for root in roots:
        doc = getattr(root, "document", None)
        if doc is not None:
            set_dist_url(doc, url)


# Panel wraps a notebook output in its design's wrapper: with panel_material_ui's design (set
# when wargame.ui.upload imports it) a MaterialWrapper, whose min-width Panel computes from its
# content's: the dashboard's map column and side column side by side (970 px for the
# campaign). A JupyterLab cell narrower than that scrolled sideways inside, the map's left
# edge and the side panel cut (issue 28). The wrapper is made here with a stylesheet that lets
# it shrink to the cell; the dashboard's row then wraps its side panel under the map.
SHRINK_ROOT_CSS = ":host, .material-wrapper { min-width: 0 !important; }"


def shrinkable_root(view: Any) -> Any:
    """``view`` as the root of a notebook output that shrinks to its cell: in a
    ``MaterialWrapper`` made here with ``SHRINK_ROOT_CSS`` when panel_material_ui's design is
    Panel's (which would wrap it otherwise); ``view`` itself without it. Public names only
    (issue #35 item 8: Panel's private code is reached in panel_internals alone)."""
    import panel as pn
    from panel_material_ui import MaterialDesign, MaterialWrapper

    design = pn.config.design
    if isinstance(view, MaterialWrapper) or not (
            isinstance(design, type) and issubclass(design, MaterialDesign)):
        return view
    return MaterialWrapper(view, sizing_mode="stretch_width", stylesheets=[SHRINK_ROOT_CSS])


def notebook_bundle(viewer: Any, include: Any = None, exclude: Any = None) -> Any:
    """A dashboard's output in a Jupyter cell (its ``_repr_mimebundle_``): Panel's, in a root
    that shrinks to the cell (``shrinkable_root``), with the stylesheets of later panels
    served by the Jupyter server (``use_local_stylesheets``)."""
    from wargame.ui.panel_internals import view_of, view_roots

    view = shrinkable_root(view_of(viewer))
    bundle = view._repr_mimebundle_(include, exclude)  # IPython's display protocol
    use_local_stylesheets(view_roots(view))
    return bundle
