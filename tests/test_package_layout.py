"""No module of ``wargame/`` is over 800 lines (issue #35 item 3): the whole package, not only
the CLI (tests/test_cli_layout.py) or the engines (tests/operational/test_module_layout.py,
600). The campaign dashboard and the hex map were split by responsibility to get there; their
public names stay importable from ``wargame.ui.campaign`` and ``wargame.ui.hexmap``."""

from __future__ import annotations

from pathlib import Path

import wargame

PACKAGE = Path(wargame.__file__).resolve().parent
MAX_LINES = 800


def line_counts() -> dict[str, int]:
    return {str(p.relative_to(PACKAGE.parent)): len(p.read_text(encoding="utf-8").splitlines())
            for p in sorted(PACKAGE.rglob("*.py"))}


def test_no_module_of_the_package_is_over_800_lines():
    sizes = line_counts()
    assert len(sizes) > 100, sizes  # the whole package was read
    assert "wargame/ui/campaign.py" in sizes and "wargame/ui/hexmap.py" in sizes
    assert {path: n for path, n in sizes.items() if n > MAX_LINES} == {}


def test_the_split_modules_keep_their_public_names():
    from wargame.ui import (
        campaign,
        campaign_attack,
        campaign_panels,
        campaign_reinforcements,
        campaign_turn,
        hexmap,
        map_counters,
        map_labels,
    )

    assert campaign.AttackPanel is campaign_attack.AttackPanel
    assert campaign.TurnPanel is campaign_turn.TurnPanel
    assert campaign.ReinforcementPanel is campaign_reinforcements.ReinforcementPanel
    assert campaign.UnitCard is campaign_panels.UnitCard
    assert campaign.status_words is campaign_panels.status_words
    for name in hexmap.__all__:
        assert hasattr(hexmap, name), name
    assert hexmap.Counter is map_counters.Counter
    assert hexmap.place_labels is map_labels.place_labels
    assert hexmap.NATO_SYMBOLS is map_counters.NATO_SYMBOLS
