"""Every game's dashboard as a Panel app: ``panel serve wargame/ui/app.py``.

The scenario and seed come from URL arguments (``?scenario=normandy&seed=7``,
``?scenario=memoir44-1`` for Memoir '44, ``?demo=1`` for the small demo scenario,
``&computer=axis`` or ``allies`` for a computer opponent, ``&lang=pt`` for the texts in
Portuguese) or the environment (``WARGAME_SCENARIO``, ``WARGAME_SEED``, ``WARGAME_COMPUTER``;
the language from ``LANGUAGE``/``LC_ALL``/``LANG``). ``WARGAME_HARD_SECONDS``: the Memoir
*hard* computer's CPU seconds per decision (2 by default; ``memoir_model.hard_seconds``). ``scenario`` must be the id of a bundled
scenario (``wargame scenario list``), never a path: an unknown id shows the list of known
ones. The dashboard is built by ``wargame.ui.serve.build_dashboard``, the one serve path.
"""

from __future__ import annotations

import html
import os
from typing import Any

import panel as pn

from wargame.ui.serve import build_dashboard, served_page

pn.extension()

# the seeds a save holds (wargame.schema.save; wargame.cli checks --seed against the same)
MIN_SEED, MAX_SEED = -(2**63), 2**63 - 1


def _arg(name: str) -> str | None:
    values = (pn.state.session_args or {}).get(name)
    if not values:
        return None
    value = values[0]
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else str(value)


def known_scenarios() -> list[dict[str, str]]:
    """The bundled catalogue: {id, game, title} of every scenario the app may open."""
    from wargame.catalog import list_scenarios

    return [d for d in list_scenarios() if d.get("game")]


def unknown_scenario_page(scenario: str, known: list[dict[str, str]]) -> Any:
    """What the app shows for a scenario id that is not in the catalogue: the known ids."""
    rows = "".join(
        f"<li><a href='?scenario={html.escape(d['id'], quote=True)}'><code>"
        f"{html.escape(d['id'])}</code></a>: {html.escape(d['title'])}</li>" for d in known)
    return pn.pane.HTML(
        f"<div class='wg-unknown-scenario' style='font-family:sans-serif'>"
        f"<h3>Unknown scenario {html.escape(repr(scenario[:80]))}</h3>"
        f"<p>Choose one of the bundled scenarios (<code>?scenario=&lt;id&gt;</code>):</p>"
        f"<ul>{rows}</ul></div>", sizing_mode="stretch_width")


def _app() -> Any:
    scenario = _arg("scenario") or os.environ.get("WARGAME_SCENARIO", "normandy")
    demo = (_arg("demo") or os.environ.get("WARGAME_DEMO", "")) in ("1", "true", "yes")
    if not demo:
        known = known_scenarios()
        if scenario not in {d["id"] for d in known}:
            return unknown_scenario_page(scenario, known)
    seed_text = (_arg("seed") or os.environ.get("WARGAME_SEED") or "")[:40]
    try:
        seed = int(seed_text) if seed_text else None
    except ValueError:
        seed = None
    if seed is not None and not MIN_SEED <= seed <= MAX_SEED:
        seed = None  # a seed no save could hold (issue #31): the game's usual one
    variants = [v for v in (_arg("variants") or os.environ.get("WARGAME_VARIANTS", "")).split(",")
                if v]
    # the side's word, read by build_dashboard (serve.computer_side: "allies" too)
    computer = _arg("computer") or os.environ.get("WARGAME_COMPUTER", "none")
    lang = app_language()
    return served_page(build_dashboard("demo" if demo else scenario, seed, variants, computer,
                                       lang=lang), lang, keep=True)


def app_language() -> str:
    """``?lang=`` of the URL when it names one of our languages, else the environment's
    (``wargame.i18n.resolve_language``), else English."""
    from wargame.i18n import check_language, resolve_language

    for choice in (lambda: check_language((_arg("lang") or "")[:20]), resolve_language):
        try:
            return choice()
        except ValueError:
            continue
    return "en"


if __name__.startswith("bokeh"):
    _app().servable(title="wargame")
