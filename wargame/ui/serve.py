"""The one serve path for every game: ``build_dashboard(scenario_id, seed, ...)`` returns the
campaign or the Memoir '44 dashboard for a bundled scenario id (``wargame.games.is_memoir_id``);
``wargame serve`` and ``make play`` call ``serve_dashboard``; ``panel serve
wargame/ui/app.py`` serves the same dashboards (``?scenario=<id>``; add ``--num-threads 4``
for the thread pool ``serve_dashboard`` starts)."""

from __future__ import annotations

import os
from typing import Any

from wargame.games import MEMOIR_PREFIX, is_memoir_id

__all__ = ["serve_dashboard", "build_dashboard", "DEFAULT_SEED", "MEMOIR_DEFAULT_SEED"]

DEFAULT_SEED = 1944
MEMOIR_DEFAULT_SEED = 44
SERVE_THREADS = 4
"""Panel's thread pool for the served dashboards' callbacks (``pn.config.nthreads``; the
``PANEL_NUM_THREADS`` environment variable wins): one session's long Load no longer stalls
the others (bench/latency.py); the store serialises one session's commands (its lock)."""
# the computer's side as ``wargame serve --computer`` names it, for each game
COMPUTER_SIDES = {"campaign": {"none": "none", "axis": "axis", "allied": "allied"},
                  "memoir": {"none": "none", "axis": "AXIS", "allied": "ALLIES"}}


def _fallback(scenario: str, seed: int, exc: Exception) -> Any:
    """The small demo campaign, with a note in the message bar saying why."""
    from wargame.ui.campaign import CampaignDashboard

    dash = CampaignDashboard("demo", seed=seed)
    dash.model.say(f"Scenario {scenario!r} could not be loaded ({exc}); showing the small demo "
                   "scenario instead.", error=True)
    return dash


def build_dashboard(scenario: str = "normandy", seed: int | None = None,
                    variants: tuple[str, ...] | list[str] = (), computer: str = "none") -> Any:
    """The dashboard for a bundled scenario id: the Memoir '44 dashboard for ``memoir44-<n>``,
    the campaign dashboard otherwise (``demo``: the small demo scenario). ``seed`` None: the
    game's usual seed. Falls back to the demo scenario (with a note in the message bar) when
    the scenario's data cannot be loaded."""
    from wargame.scenario_errors import ScenarioError

    scenario = str(scenario)
    if is_memoir_id(scenario):
        from wargame.ui.memoir import MemoirDashboard

        seed = MEMOIR_DEFAULT_SEED if seed is None else int(seed)
        side = COMPUTER_SIDES["memoir"].get(computer, "none")
        try:
            if variants:
                raise ValueError("Battle for Normandy variants apply to the campaign games only")
            return MemoirDashboard(scenario[len(MEMOIR_PREFIX):], seed, computer=side)
        except (ScenarioError, FileNotFoundError, OSError, ValueError, KeyError) as exc:
            return _fallback(scenario, seed, exc)
    from wargame.ui.campaign import CampaignDashboard

    seed = DEFAULT_SEED if seed is None else int(seed)
    try:
        return CampaignDashboard(scenario, seed=seed, variants=tuple(variants),
                                 computer=COMPUTER_SIDES["campaign"].get(computer, "none"))
    except (ScenarioError, FileNotFoundError, OSError, ValueError) as exc:  # ValueError: variants
        return _fallback(scenario, seed, exc)


def serve_dashboard(scenario: str = "normandy", port: int = 5006, seed: int | None = None,
                    variants: tuple[str, ...] | list[str] = (), show: bool = False,
                    address: str | None = None, computer: str = "none") -> None:
    """Serve one dashboard per browser session at ``http://<address>:<port>/`` (blocks).

    ``address`` defaults to ``WARGAME_ADDRESS`` or 127.0.0.1; use 0.0.0.0 to serve a LAN or a
    container, in which case any websocket origin is allowed. Unknown variant names, or
    variants for a Memoir '44 game, raise ``ValueError`` before serving.
    """
    import panel as pn

    pn.extension()
    address = address or os.environ.get("WARGAME_ADDRESS", "127.0.0.1")
    origins = [f"localhost:{port}", f"127.0.0.1:{port}"]
    if address not in ("127.0.0.1", "localhost"):
        origins.append("*")
    memoir = is_memoir_id(scenario)
    if memoir and variants:
        raise ValueError("Battle for Normandy variants apply to the campaign games only")
    from wargame.operational.variants import normalize_variants

    variants = normalize_variants(variants)  # unknown names: ValueError before serving
    if pn.config.nthreads is None:
        pn.config.nthreads = SERVE_THREADS

    def app() -> Any:
        return build_dashboard(scenario, seed, variants, computer)

    title = "wargame: Memoir '44" if memoir else "wargame: campaign dashboard"
    pn.serve(app, port=port, address=address, allow_websocket_origin=origins, show=show,
             title=title)
