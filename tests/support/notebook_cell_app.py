"""The campaign dashboard as a notebook cell builds it (no window to fill: ``fill_window=False``),
served for tests/ui/test_layout_browser.py, whose browser window is the cell's width."""

import panel as pn

from wargame.ui.campaign import CampaignDashboard

pn.extension()

if __name__.startswith("bokeh"):
    pn.panel(CampaignDashboard("normandy", seed=1946, fill_window=False)).servable(
        title="notebook cell")
