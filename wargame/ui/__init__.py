"""Panel + Bokeh dashboards: one store base (``GameStore``) and one HexMap component for every
game, the campaign and the Memoir '44 dashboards, one serve path (``wargame.ui.serve``), and
every dashboard as an ipywidget (``wargame.ui.widget("normandy")``, for VS Code and Colab).

Names are imported lazily so that the stores (``wargame.ui.store``, ``wargame.ui.model``,
``wargame.ui.memoir_model``; no Panel) can be used without importing Panel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["CampaignDashboard", "HexMap", "CampaignState", "GameStore", "MemoirDashboard",
           "MemoirStore", "widget"]

if TYPE_CHECKING:  # pragma: no cover
    from wargame.ui.campaign import CampaignDashboard
    from wargame.ui.hexmap import HexMap
    from wargame.ui.memoir import MemoirDashboard
    from wargame.ui.memoir_model import MemoirStore
    from wargame.ui.model import CampaignState
    from wargame.ui.store import GameStore
    from wargame.ui.widgets import widget


def __getattr__(name: str) -> Any:
    if name == "CampaignDashboard":
        from wargame.ui.campaign import CampaignDashboard

        return CampaignDashboard
    if name == "HexMap":
        from wargame.ui.hexmap import HexMap

        return HexMap
    if name == "CampaignState":
        from wargame.ui.model import CampaignState

        return CampaignState
    if name == "GameStore":
        from wargame.ui.store import GameStore

        return GameStore
    if name == "MemoirDashboard":
        from wargame.ui.memoir import MemoirDashboard

        return MemoirDashboard
    if name == "MemoirStore":
        from wargame.ui.memoir_model import MemoirStore

        return MemoirStore
    if name == "widget":
        from wargame.ui.widgets import widget

        return widget
    raise AttributeError(f"module 'wargame.ui' has no attribute {name!r}")
