"""The hard campaign player as the classroom's opponent in a real browser (issue #34): a
Normandy turn against the hard Axis in the dashboard (Debian chromium, python playwright).

The position after the Allied D-Day (turn 0, played by the hard Allies with the Axis's
decisions answered automatically, as tests/bots/test_campaign_hard_dashboard.py does in the
model) is loaded as a save; picking "Computer plays: the Axis" at the default level (hard)
hands the Axis's turn-0 phases to the computer, which moves and fights at once. The map then
shows exactly the moves the hard player makes on the same position in the engine, the player
has the Allies' turn 1, and Undo takes the computer's whole answer back.
"""

from __future__ import annotations

import json

from tests.support.browser import source_column, wait_for_map
from tests.support.waiting import click_until_changed, first_visible, shown_text
from wargame.bots.campaign_hard import HardPolicy
from wargame.bots.campaign_random import auto_answer
from wargame.games import open_game
from wargame.operational.state import Phase
from wargame.saves import replay, to_save
from wargame.ui.model import CampaignState

SEED = 1944
SLOW = 180_000  # ms: a Normandy page and a computer turn on a loaded 2-core machine


def after_d_day():
    """The Normandy position at the Axis's first movement phase, the D-Day played by the hard
    Allies (the model's computer seat), the Axis's decisions answered by ``auto``."""
    m = CampaignState("normandy", seed=SEED, computer="allied")
    for _ in range(100):
        if m.s.phase is Phase.AXIS_MOVEMENT and m.s.pending is None:
            break
        m.auto()
    assert (m.s.turn, m.s.phase) == (0, Phase.AXIS_MOVEMENT)
    return m.s


def counters(page) -> dict[str, str]:
    return dict(zip(source_column(page, "hexmap-counters", "uid"),
                    source_column(page, "hexmap-counters", "hex"), strict=True))


def test_the_hard_axis_plays_a_normandy_turn_in_the_dashboard(dashboard_server, wg_page,
                                                             tmp_path):
    position = after_d_day()
    path = tmp_path / "d-day.json"
    path.write_text(json.dumps(to_save(position)))

    page = wg_page
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{dashboard_server}?scenario=normandy&seed={SEED}")
    wait_for_map(page, timeout=SLOW)
    page.locator("input[type=file][accept='.json']").set_input_files(str(path))
    page.locator(".wg-message").filter(has_text="Game loaded").wait_for(timeout=SLOW)
    page.locator(".wg-phase").filter(has_text="Axis movement").wait_for(timeout=SLOW)
    before = counters(page)

    page.locator(".bk-tab").filter(has_text="New game").click()
    # the level offered first and selected is hard (difícil)
    level = page.locator("select").filter(has_text="hard")
    assert level.input_value() == "hard"
    page.locator("select").filter(has_text="the Axis").select_option(label="the Axis")
    page.locator(".wg-message").filter(has_text="The computer (Axis) played").wait_for(
        timeout=SLOW)
    # the player answers the Allied decisions the Axis's attacks ask (CN 5.1.1: the defence's
    # air, the hard Allies keeping a few points after their landings), then has turn 1
    allied_turn = page.locator(".wg-phase").filter(has_text="Allied movement")
    panel = page.locator(".wg-decision-panel")

    def asked(p) -> str | None:
        """The decision the page asks, None when it asks none."""
        if not p.locator(".wg-decision-panel").first.is_visible():
            return None
        return shown_text(p.locator(".wg-decision")) or None  # it may go as it is read

    answered = 0
    while first_visible(page, allied_turn, panel, timeout=SLOW) == 1:
        assert answered < 20, "the Allies are asked without end"
        click_until_changed(page, page.get_by_role("button", name="Auto"), asked)
        answered += 1
    allied_turn.wait_for(timeout=SLOW)

    # the same position in the engine, the Axis played by the hard player
    game = open_game("normandy")
    engine = replay(game, SEED, to_save(position)["actions"])
    bot = HardPolicy()
    while (engine.turn, engine.phase) != (1, Phase.ALLIED_MOVEMENT):
        allied_asked = engine.pending is not None and engine.pending.side == "allied"
        engine.apply(auto_answer(engine) if allied_asked else bot.choose(engine))
    assert (engine.turn, engine.phase) == (1, Phase.ALLIED_MOVEMENT)
    after = counters(page)
    where = {u: us.hex.id for u, us in engine.units.items() if us.hex is not None}
    # the map draws one counter a stack (the top one): each is where the engine has it, and
    # the stacks stand on the same hexes
    assert all(where[u] == h for u, h in after.items())
    assert set(after.values()) == set(where.values())
    assert after != before, "the hard Axis moved or brought on units"

    page.get_by_role("button", name="Undo").click()
    page.locator(".wg-message").filter(has_text="with the computer's").wait_for(timeout=SLOW)
    assert not errors, errors
