"""Panel + Bokeh dashboards: one HexMap component for every game, the campaign dashboard.

Names are imported lazily so that ``wargame.ui.model`` (the state store, no Panel) can be
used without importing Panel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["CampaignDashboard", "HexMap", "CampaignState"]

if TYPE_CHECKING:  # pragma: no cover
    from wargame.ui.campaign import CampaignDashboard
    from wargame.ui.hexmap import HexMap
    from wargame.ui.model import CampaignState


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
    raise AttributeError(f"module 'wargame.ui' has no attribute {name!r}")
