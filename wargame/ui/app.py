"""The campaign dashboard as a Panel app: ``panel serve wargame/ui/app.py``.

The scenario and seed come from URL arguments (``?scenario=normandy&seed=7``, ``?demo=1`` for
the small demo scenario, ``&computer=axis`` for a computer opponent) or the environment
(``WARGAME_SCENARIO``, ``WARGAME_SEED``, ``WARGAME_COMPUTER``). Missing
scenario data falls back to the demo scenario.
"""

from __future__ import annotations

import os

import panel as pn

from wargame.ui.serve import DEFAULT_SEED, build_dashboard

pn.extension()


def _arg(name: str) -> str | None:
    values = (pn.state.session_args or {}).get(name)
    if not values:
        return None
    value = values[0]
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _app():
    scenario = _arg("scenario") or os.environ.get("WARGAME_SCENARIO", "normandy")
    if (_arg("demo") or os.environ.get("WARGAME_DEMO", "")) in ("1", "true", "yes"):
        scenario = "demo"
    seed_text = _arg("seed") or os.environ.get("WARGAME_SEED") or str(DEFAULT_SEED)
    try:
        seed = int(seed_text)
    except ValueError:
        seed = DEFAULT_SEED
    variants = [v for v in (_arg("variants") or os.environ.get("WARGAME_VARIANTS", "")).split(",")
                if v]
    computer = _arg("computer") or os.environ.get("WARGAME_COMPUTER", "none")
    if computer not in ("none", "axis", "allied"):
        computer = "none"
    return build_dashboard(scenario, seed, variants, computer)


if __name__.startswith("bokeh"):
    _app().servable(title="wargame: campaign dashboard")
