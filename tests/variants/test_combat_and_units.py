"""BFN 19.5 (Commandos and Rangers), 19.6 (Hobart's funnies, DD tanks), 19.7 (assault
engineers), 19.8 (Pegasus Bridge): column shifts, movement, recovery and drops."""

from wargame.hexgrid import Hex
from wargame.operational.movement import step_cost
from wargame.operational.state import Phase

from .conftest import game


def _bfn(assessment):
    return sorted((s.rule, s.columns) for s in assessment.shifts if s.rule.startswith("BFN"))


def test_rangers_at_pointe_du_hoc_get_the_strongpoint_column():
    base = game().new_state(1)
    var = game("bfn-19.5").new_state(1)
    a0 = base.preview_attack("1809", ("us-rangers-2-5",))
    a1 = var.preview_attack("1809", ("us-rangers-2-5",))
    assert _bfn(a0) == []
    assert _bfn(a1) == [("BFN 19.5", 1)]
    assert a1.net_shift == a0.net_shift + 1


def test_commando_bonus_needs_a_fortified_target_and_a_commando():
    s = game("bfn-19.5").new_state(1)
    assert _bfn(s.preview_attack("2510", ("gb-69-50",))) == []          # no commando
    s.turn = 3
    assert _bfn(s.preview_attack("1809", ("us-rangers-2-5",))) == [("BFN 19.5", 1)]  # any turn


def test_hobart_dd_and_engineers_on_turn_0_at_gold():
    s = game("bfn-19.6", "bfn-19.7").new_state(1)
    attackers = ("gb-69-50", "gb-151-50")
    s.flags["bfn"]["dd"]["Gold"] = True
    assert _bfn(s.preview_attack("2510", attackers)) == [("BFN 19.6.1", 1), ("BFN 19.6.2", 1), ("BFN 19.7", 1)]
    s.flags["bfn"]["dd"]["Gold"] = False
    assert _bfn(s.preview_attack("2510", attackers)) == [("BFN 19.6.1", 1), ("BFN 19.7", 1)]
    s.turn = 1
    assert _bfn(s.preview_attack("2510", attackers)) == []               # the invasion only


def test_american_beaches_get_no_avre_and_engineers_need_infantry_only():
    s = game("bfn-19.6", "bfn-19.7").new_state(1)
    s.flags["bfn"]["dd"]["Omaha"] = False
    omaha = [u for u, us in s.units.items() if us.status == "at_sea" and us.hex == Hex.from_id("2010")]
    assert omaha
    assert _bfn(s.preview_attack("2010", tuple(omaha))) == [("BFN 19.7", 1)]
    s.units[omaha[0]].status = "on_map"   # pretend one is a tank: not infantry-only any more
    s.units[omaha[0]].hex = Hex.from_id("2110")
    orig = s.game.units[omaha[0]]
    import dataclasses
    s.game.units[omaha[0]] = dataclasses.replace(orig, type="armour")
    try:
        assert ("BFN 19.7", 1) not in _bfn(s.preview_attack("2010", tuple(omaha)))
    finally:
        s.game.units[omaha[0]] = orig


def test_commandos_pay_half_for_hills():
    g, base = game("bfn-19.5"), game()
    a, b = Hex.from_id("1616"), Hex.from_id("1516")   # bocage into a hill, no road or river
    assert step_cost(base.tables, base.board, "non_motorized", a, b) == 6   # 3 points (CN 4.0)
    assert step_cost(g.tables, g.board, "commando", a, b) == 3              # 1.5 points
    assert step_cost(g.tables, g.board, "commando", b, a) == step_cost(g.tables, g.board, "non_motorized", b, a)
    s, s0 = g.new_state(1), base.new_state(1)
    assert s.movement_of("gb-4sb")[1] == "commando"
    assert s0.movement_of("gb-4sb")[1] == "non_motorized"
    assert s.movement_of("gb-69-50")[1] == "non_motorized"


def _quiet_hex(state):
    zoc = state.zoc_of("axis")
    for h in sorted(state.game.board.hexes):
        if state.game.board.is_land(h) and h not in zoc and not state.units_at(h):
            return h
    raise AssertionError("no quiet hex")


def test_commandos_never_recover():
    for variants, commando_recovers in (((), True), (("bfn-19.5",), False)):
        s = game(*variants).new_state(1)
        s.turn = 2
        h = _quiet_hex(s)
        for u in ("gb-4sb", "gb-69-50"):
            us = s.units[u]
            us.status, us.hex, us.reduced, us.started_engaged = "on_map", h, True, False
        s.edited()
        s._end_of_movement("allied")
        assert s.units["gb-69-50"].reduced is False
        assert s.units["gb-4sb"].reduced is (not commando_recovers)


US_DROPS = (6, 6, 6, 6, 6, 6)   # CN 4.2.3: the six US parachute regiments, intact


def test_pegasus_coup_de_main(loaded_start):
    g = game("bfn-19.8")
    s = loaded_start(g, *US_DROPS, 3, 1)         # coup de main succeeds; 3rd Para Bde odd
    assert not s.units["gb-5p-6ab"].reduced and s.units["gb-3p-6ab"].reduced
    assert s.dice.draws == 8
    s = loaded_start(g, *US_DROPS, 5, 1, 2)      # gliders off target, then CN's die: odd
    assert s.units["gb-5p-6ab"].reduced and not s.units["gb-3p-6ab"].reduced
    assert s.dice.draws == 9
    s = loaded_start(g, *US_DROPS, 6, 4, 2)      # off target, CN's die even: intact
    assert not s.units["gb-5p-6ab"].reduced
    s = loaded_start(game(), *US_DROPS, 3, 2)    # without the variant the 3 is CN's die
    assert s.units["gb-5p-6ab"].reduced


def test_dd_rolls_per_beach(loaded_start):
    g = game("bfn-19.6")
    # eight drop dice, then a d10 per beach (die value 1 reads 0): Utah 8, Omaha 4, Gold 7, Sword 8
    s = loaded_start(g, *US_DROPS, 2, 2, 9, 5, 8, 9)
    assert s.flags["bfn"]["dd"] == {"Utah": True, "Omaha": False, "Gold": True, "Sword": False}
    s = loaded_start(g, *US_DROPS, 2, 2, 1, 4, 1, 1)       # Omaha reads 3: ashore (BFN's example)
    assert s.flags["bfn"]["dd"]["Omaha"] is True
    assert "Juno" not in s.flags["bfn"]["dd"]               # BFN 19.6.3: no DDs at Juno
    assert s.phase is Phase.ALLIED_MOVEMENT and s.turn == 0
