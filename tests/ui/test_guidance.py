"""Issue 15: guidance on the campaign map (Normandy, seed 1944, turn 0): units at sea drawn
off their beaches, units that must attack marked, a warning before an End phase that loses
units, a moved unit not left selected, Esc, the defence prompt, disabled buttons, the whole
stack in the tooltip, zones of engagement on land only."""

from __future__ import annotations

import pytest

from wargame.hexgrid import Hex
from wargame.ui.campaign import CampaignDashboard


@pytest.fixture(scope="module")
def normandy_dash():
    return CampaignDashboard("normandy", seed=1944)


def fresh(d: CampaignDashboard) -> CampaignDashboard:
    d.model.new_game(1944)
    return d


def test_units_at_sea_are_drawn_off_their_beaches(normandy_dash):
    d = fresh(normandy_dash)
    at_sea = d.model.at_sea()
    assert at_sea
    src = d.map.counter_source.data
    board = d.model.game.board.hexes
    for h, uids in at_sea.items():
        i = [k for k, u in enumerate(src["uid"]) if u in uids]
        assert len(i) == 1, h  # one counter per beach, with the stack badge
        x, y = src["x"][i[0]], src["y"][i[0]]
        hx, hy = d.map.layout.to_xy(h)
        assert (x, y) != (hx, hy)  # off the hex centre...
        off = d.map.layout.from_xy(x, y)
        assert off not in board or board[off].terrain == "sea" or off == h  # ...towards sea
        assert src["edge"][i[0]] == "#1f4fbf"
    tips = " ".join(d.map.hex_source.data["units"])
    assert "(at sea)" in tips


def test_must_attack_marked_and_end_phase_warns_before_losing_units(normandy_dash):
    d = fresh(normandy_dash)
    d.turn.end.clicks += 1
    assert d.model.s.phase.value == "allied_combat"
    must = d.model.must_attack_units()
    assert must and d.must_attack.visible
    src = d.map.counter_source.data
    ringed = {u for u, e in zip(src["uid"], src["edge"], strict=True) if e == "#d00000"}
    assert ringed  # the stacks holding them are ringed in red
    losses = d.model.end_phase_losses()
    assert losses and all("could not land" in why for _, why in losses)
    d.turn.end.clicks += 1  # the first click only warns
    assert d.model.s.phase.value == "allied_combat"
    assert d.turn.end_warning.visible and d.turn.end_anyway.visible
    assert d.model.game.units[losses[0][0]].name in d.turn.end_warning.object
    d.turn.end_anyway.clicks += 1  # confirmed: the engine now decides (must attack first)
    assert d.model.error and "must attack" in d.model.message


def test_moved_unit_is_deselected_and_esc_clears(normandy_dash):
    d = fresh(normandy_dash)
    m = d.model
    move = next(a for a in m.s.legal_actions() if a.kind == "move")
    m.select_unit(move.unit)
    assert m.selected_unit == move.unit
    assert m.move_selected_to(move.to)
    assert m.selected_unit is None
    m.select_unit(move.unit)
    d.map.on_escape()
    assert m.selected_unit is None and m.selected_hex is None


def test_defence_prompt_names_the_attack_and_air_strike_needs_air(normandy_dash):
    d = fresh(normandy_dash)
    d.turn.end.clicks += 1
    d.click("2010")
    assert d.attack.bomb_air.disabled  # 0 air points chosen
    d.attack.air.value = 3
    assert not d.attack.bomb_air.disabled
    assert "Air-only strike: value 3, column" in d.attack.bomb_air.description  # odds first
    d.attack.air.value = 0
    d.attack.roll.clicks += 1
    assert d.model.s.pending.kind == "defence"
    assert "Attack on Colleville-sur-Mer (2010)" in d.decision.info.object
    assert "odds 6-1" in d.decision.info.object
    assert d._act["decision"].visible and not d._act["attack"].visible


def test_zones_of_engagement_on_land_only(normandy_dash):
    d = fresh(normandy_dash)
    board = d.model.game.board.hexes
    assert any(board[h].terrain == "sea" for h in d.model.enemy_zoc() if h in board)
    _, zoc = d.predictions()
    assert zoc and all(board[h].terrain != "sea" for h in zoc)
    assert Hex.from_id("2010") in board


def test_in_a_notebook_the_map_fills_the_width_at_a_fixed_height(caplog):
    """No page height to fill in a notebook cell: no stretch_both (Panel would stretch every
    parent and the cell output would collapse to nothing)."""
    import logging

    import panel as pn

    d = CampaignDashboard("demo", seed=1944)
    assert not d.served and d.map.figure.sizing_mode == "stretch_width"
    with caplog.at_level(logging.WARNING):
        pn.panel(d).get_root()
    assert "overridden to 'stretch_both'" not in caplog.text
