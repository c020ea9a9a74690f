"""Every dashboard as an ipywidget, for the places where only ipywidgets render (VS Code's and
Colab's notebooks): ``wargame.ui.widget("normandy", lang="pt")``.

The dashboard is the same object ``wargame serve`` and a JupyterLab cell show
(``wargame.ui.serve.build_dashboard``); Panel's ``pn.ipywidget`` wraps its Bokeh document in
``jupyter_bokeh``'s ``BokehModel`` (an ``ipywidgets.DOMWidget``), whose messages carry the
clicks to Python and the changes back, so no Bokeh server and no Panel comm is needed. The
stylesheets are inlined, as ``pn.extension(inline=True)`` does for a cell: nothing is asked of
a CDN. Needs the ``jupyter_bokeh`` package (the ``notebooks`` extra).

The widget's document, like a dashboard's in a JupyterLab cell, takes the stylesheets of panels
drawn later from the Jupyter server (``wargame.ui.notebook``).
"""

from __future__ import annotations

from typing import Any

from wargame.games import MEMOIR_PREFIX
from wargame.ui.notebook import use_local_stylesheets

__all__ = ["widget", "GAMES"]

GAMES = {"normandy": "normandy", "dragoon": "dragoon", "memoir": f"{MEMOIR_PREFIX}1",
         "memoir44": f"{MEMOIR_PREFIX}1"}
"""Short names of the games -> the bundled scenario their widget opens (Memoir '44: Pegasus
Bridge; ``memoir``, its id, or ``memoir44``, the word of earlier notebooks); any other bundled
scenario id (``wargame scenario list``) is accepted as well."""


def widget(game: str = "normandy", seed: int | None = None, lang: str | None = None,
           computer: str = "none", variants: tuple[str, ...] | list[str] = ()) -> Any:
    """The dashboard of ``game`` (``normandy``, ``dragoon``, ``memoir`` or a scenario id such
    as ``memoir44-5``) as an ipywidget: display it as the last expression of a cell.
    ``seed``, ``lang`` (``en``, ``pt``), ``computer`` (``none``, ``axis``, ``allied``) and
    ``variants`` as for ``wargame serve``. The dashboard itself is the widget's ``dashboard``
    attribute, for driving it from code."""
    from wargame.ui.panel_internals import inline_ipywidget
    from wargame.ui.serve import build_dashboard

    try:
        import jupyter_bokeh  # noqa: F401
    except ImportError as exc:  # pragma: no cover - the notebooks extra installs it
        raise ImportError("wargame.ui.widget needs the jupyter_bokeh package: "
                          "pip install 'wargame[notebooks]'") from exc

    dashboard = build_dashboard(GAMES.get(game, game), seed, variants, computer, lang=lang)
    # inline: panel_material_ui's Load button (wargame.ui.upload) takes its script from the
    # page, not from its CDN (issue #31); the stylesheets as pn.extension(inline=True) does
    w, root = inline_ipywidget(dashboard)
    use_local_stylesheets([root])
    w.dashboard = dashboard
    return w
