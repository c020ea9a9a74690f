"""Serving the campaign dashboard: ``wargame serve`` and ``make play`` call
``serve_dashboard``; ``panel serve wargame/ui/app.py`` serves the same app."""

from __future__ import annotations

import os
from typing import Any

__all__ = ["serve_dashboard", "build_dashboard", "DEFAULT_SEED"]

DEFAULT_SEED = 1944


def build_dashboard(scenario: str = "normandy", seed: int | None = DEFAULT_SEED,
                    variants: tuple[str, ...] | list[str] = (), computer: str = "none") -> Any:
    """A dashboard for ``scenario``; falls back to the small demo scenario (with a note in the
    message bar) when the scenario's data cannot be loaded."""
    from wargame.scenario_errors import ScenarioError
    from wargame.ui.campaign import CampaignDashboard

    seed = DEFAULT_SEED if seed is None else int(seed)
    try:
        dash = CampaignDashboard(scenario, seed=seed, variants=tuple(variants), computer=computer)
    except (ScenarioError, FileNotFoundError, OSError, ValueError) as exc:  # ValueError: variants
        dash = CampaignDashboard("demo", seed=seed)
        dash.model.message = (f"Scenario {scenario!r} could not be loaded ({exc}); showing the "
                              "small demo scenario instead.")
        dash.model.error = True
        dash.refresh()
    return dash


def serve_dashboard(scenario: str = "normandy", port: int = 5006, seed: int | None = DEFAULT_SEED,
                    variants: tuple[str, ...] | list[str] = (), show: bool = False,
                    address: str | None = None, computer: str = "none") -> None:
    """Serve one dashboard per browser session at ``http://<address>:<port>/`` (blocks).

    ``address`` defaults to ``WARGAME_ADDRESS`` or 127.0.0.1; use 0.0.0.0 to serve a LAN or a
    container, in which case any websocket origin is allowed.
    """
    import panel as pn

    pn.extension()
    address = address or os.environ.get("WARGAME_ADDRESS", "127.0.0.1")
    origins = [f"localhost:{port}", f"127.0.0.1:{port}"]
    if address not in ("127.0.0.1", "localhost"):
        origins.append("*")
    from wargame.operational.variants import normalize_variants

    variants = normalize_variants(variants)  # unknown names: ValueError before serving

    def app() -> Any:
        return build_dashboard(scenario, seed, variants, computer)

    pn.serve(app, port=port, address=address, allow_websocket_origin=origins, show=show,
             title="wargame: campaign dashboard")
