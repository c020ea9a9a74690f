"""``panel serve wargame/ui/app.py --setup wargame/ui/warm_setup.py``: build one dashboard of
the default scenario before the server takes its first session (``wargame.ui.serve.warm_up``),
as ``wargame serve`` does; ``WARGAME_SCENARIO`` names another scenario."""

from __future__ import annotations

import os

from wargame.ui.serve import warm_up

warm_up(os.environ.get("WARGAME_SCENARIO", "normandy"))
