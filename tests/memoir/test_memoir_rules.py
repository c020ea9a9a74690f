"""Core rules: orders, movement, ranges, terrain, hits, retreats, take ground, overrun, medals.

Positions are built in code with .m44 coordinates (row 0 is the Axis edge); the dice are
scripted (1-2 infantry, 3 armour, 4 grenade, 5 flag, 6 star).
"""

from __future__ import annotations

import pytest
from m44helpers import H, faces, make_state, order, play, uid

from wargame.memoir import ALLIES, AXIS, Action, IllegalAction
from wargame.memoir.board import BoardHex
from wargame.memoir.scenario import Objective

HANDS = {ALLIES: ["attack:center", "attack:center", "attack:left", "attack:right"],
         AXIS: ["attack:center", "attack:center", "attack:left", "attack:right"]}


def ready(units, terrain=None, dice=None, active=ALLIES, section="center", hands=None, **kw):
    """State after playing Attack <section> and ordering the active side's listed units."""
    st = make_state(units, terrain, hands=hands or HANDS, active=active, dice=dice, **kw)
    play(st, "attack", section=section)
    return st


def unit(st, pos):
    return st.unit_at(H(*pos))


def battle_ignoring_flag(st, attacker, target):
    """Battle; the defender on sandbags/bunker/hedgehog takes its option to ignore the first
    flag (the pending decision ``ignore_flag``, issue 17 item 18)."""
    ev = st.apply(Action("battle", unit=uid(st, attacker), hex=H(*target)))
    dec = st.pending_decision
    assert dec is not None and dec.kind == "ignore_flag" and dec.side == unit(st, target).side
    return ev + st.apply(Action("ignore_flag", unit=uid(st, target)))


# ---------------------------------------------------------------- orders
def test_attack_orders_three_units_in_its_section():
    units = [(ALLIES, "inf", (6, 10)), (ALLIES, "inf", (6, 12)), (ALLIES, "inf", (6, 14)),
             (ALLIES, "inf", (6, 16)), (ALLIES, "inf", (6, 2)), (AXIS, "inf", (0, 12))]
    st = ready(units)
    legal = {a.unit for a in st.legal_actions() if a.kind == "order"}
    assert uid(st, (6, 2)) not in legal  # left flank
    for p in [(6, 10), (6, 12), (6, 14)]:
        st.apply(Action("order", unit=uid(st, p)))
    with pytest.raises(IllegalAction) as exc:
        st.apply(Action("order", unit=uid(st, (6, 16))))
    assert exc.value.rule.startswith("M44 p.6 Issue Orders")


def test_shared_hex_can_be_ordered_from_either_section():
    units = [(ALLIES, "inf", (5, 7)), (AXIS, "inf", (0, 12))]
    for section in ("left", "center"):
        st = ready(units, section=section)
        assert Action("order", unit=uid(st, (5, 7))) in st.legal_actions()
    st = ready(units, section="right")
    assert Action("order", unit=uid(st, (5, 7))) not in st.legal_actions()


def test_axis_left_flank_is_the_board_right():
    units = [(AXIS, "inf", (1, 21)), (AXIS, "inf", (1, 3)), (ALLIES, "inf", (8, 12))]
    st = ready(units, active=AXIS, section="left")
    legal = {a.unit for a in st.legal_actions() if a.kind == "order"}
    assert legal == {uid(st, (1, 21))}


def test_no_unit_moves_without_an_order():
    units = [(ALLIES, "inf", (6, 12)), (ALLIES, "inf", (6, 14)), (AXIS, "inf", (0, 12))]
    st = ready(units)
    order(st, (6, 12))
    with pytest.raises(IllegalAction):
        st.apply(Action("move", unit=uid(st, (6, 14)), hex=H(5, 15)))


# ---------------------------------------------------------------- movement
def test_infantry_moves_one_and_battles_or_two_without_battle():
    units = [(ALLIES, "inf", (6, 12)), (ALLIES, "inf", (6, 16)), (AXIS, "inf", (3, 13)),
             (AXIS, "inf", (3, 17))]
    st = ready(units, dice=faces("star", "star"))
    order(st, (6, 12), (6, 16))
    opts = st.move_options(uid(st, (6, 12)))
    assert opts[H(5, 13)] == 1 and opts[H(4, 12)] == 2 and H(3, 11) not in opts
    st.apply(Action("move", unit=uid(st, (6, 12)), hex=H(5, 13)))
    st.apply(Action("move", unit=uid(st, (6, 16)), hex=H(4, 16)))
    st.apply(Action("end_moves"))
    a, b = unit(st, (5, 13)), unit(st, (4, 16))
    assert st.battle_dice(a, unit(st, (3, 13)))[0] == 2
    assert st.battle_dice(b, unit(st, (3, 17)))[0] == 0
    assert not any(x.kind == "battle" and x.unit == b.id for x in st.legal_actions())
    st.apply(Action("battle", unit=a.id, hex=H(3, 13)))


def test_special_forces_move_two_and_battle():
    units = [(ALLIES, "inf", (6, 12), "special"), (AXIS, "inf", (3, 13))]
    st = ready(units)
    order(st, (6, 12))
    st.apply(Action("move", unit=uid(st, (6, 12)), hex=H(4, 12)))
    st.apply(Action("end_moves"))
    assert st.battle_dice(unit(st, (4, 12)), unit(st, (3, 13)))[0] == 3


def test_armour_moves_three_and_battles_artillery_moves_or_battles():
    units = [(ALLIES, "tank", (7, 11)), (ALLIES, "gun", (7, 13)), (AXIS, "inf", (2, 12))]
    st = ready(units)
    order(st, (7, 11), (7, 13))
    assert max(st.move_options(uid(st, (7, 11))).values()) == 3
    assert max(st.move_options(uid(st, (7, 13))).values()) == 1
    st.apply(Action("move", unit=uid(st, (7, 11)), hex=H(4, 12)))
    st.apply(Action("move", unit=uid(st, (7, 13)), hex=H(6, 14)))
    st.apply(Action("end_moves"))
    assert st.battle_dice(unit(st, (4, 12)), unit(st, (2, 12)))[0] == 3
    assert st.battle_dice(unit(st, (6, 14)), unit(st, (2, 12)))[0] == 0


def test_units_block_movement_and_may_not_stack():
    """M44 Move: no moving onto or through a hex with a unit, friend or foe."""
    units = [(ALLIES, "inf", (6, 12)), (ALLIES, "inf", (5, 13)), (ALLIES, "inf", (5, 11)),
             (AXIS, "inf", (0, 12))]
    st = ready(units)
    order(st, (6, 12))
    opts = st.move_options(uid(st, (6, 12)))
    assert H(5, 13) not in opts and H(4, 12) not in opts
    with pytest.raises(IllegalAction) as exc:
        st.apply(Action("move", unit=uid(st, (6, 12)), hex=H(5, 13)))
    assert "M44 p.6 Move" in str(exc.value)


def test_armour_goes_around():
    """M44 Move example: the tank moves 3 hexes around the infantry to reach its goal."""
    units = [(ALLIES, "tank", (6, 12)), (ALLIES, "inf", (5, 13)), (AXIS, "inf", (0, 12))]
    st = ready(units)
    order(st, (6, 12))
    assert st.move_options(uid(st, (6, 12)))[H(4, 14)] == 3


# ---------------------------------------------------------------- terrain
def test_woods_worked_example():
    """M44 Woods, turns #1-#3: stop and no battle; the German rolls 2 dice, then revenge 3."""
    units = [(ALLIES, "inf", (6, 12)), (AXIS, "inf", (3, 13))]
    st = ready(units, {(5, 13): "woods"}, dice=faces("star", "star", "star", "star", "star"))
    order(st, (6, 12))
    assert H(4, 14) not in st.move_options(uid(st, (6, 12)))  # must stop in the woods
    st.apply(Action("move", unit=uid(st, (6, 12)), hex=H(5, 13)))
    st.apply(Action("end_moves"))
    ally = unit(st, (5, 13))
    ok, why = st.can_battle(ally)
    assert not ok and "entered" in why
    st.apply(Action("end_battles"))
    assert st.active == AXIS
    play(st, "attack", section="center")
    order(st, (3, 13))
    st.apply(Action("move", unit=uid(st, (3, 13)), hex=H(4, 14)))
    st.apply(Action("end_moves"))
    ev = st.apply(Action("battle", unit=uid(st, (4, 14)), hex=H(5, 13)))
    assert ev[0].data["dice"] == 2
    st.apply(Action("end_battles"))
    play(st, "attack", section="center")
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    ev = st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(4, 14)))
    assert ev[0].data["dice"] == 3


@pytest.mark.parametrize("terrain,inf_dice,tank_dice,gun_dice", [
    ("woods", 2, 1, 3), ("hedgerow", 2, 1, 3), ("buildings", 2, 1, 3), ("hills", 2, 2, 3),
    ("plain", 3, 3, 3),
])
def test_terrain_dice_reductions(terrain, inf_dice, tank_dice, gun_dice):
    units = [(ALLIES, "inf", (5, 11)), (ALLIES, "tank", (5, 13)), (ALLIES, "gun", (6, 12)),
             (AXIS, "inf", (4, 12))]
    st = ready(units, {(4, 12): terrain})
    order(st, (5, 11), (5, 13), (6, 12))
    st.apply(Action("end_moves"))
    target = unit(st, (4, 12))
    assert st.battle_dice(unit(st, (5, 11)), target)[0] == inf_dice
    assert st.battle_dice(unit(st, (5, 13)), target)[0] == tank_dice
    # artillery at distance 2 (3 dice) ignores terrain
    assert st.battle_dice(unit(st, (6, 12)), target)[0] == gun_dice


def test_hills_worked_example():
    """M44 Hills: from below 2 dice instead of 3; from the same height 3."""
    units = [(ALLIES, "inf", (5, 11)), (ALLIES, "inf", (5, 13)), (AXIS, "inf", (4, 12))]
    st = ready(units, {(4, 12): "hills", (5, 13): "hills"})
    order(st, (5, 11), (5, 13))
    st.apply(Action("end_moves"))
    assert st.battle_dice(unit(st, (5, 11)), unit(st, (4, 12)))[0] == 2
    assert st.battle_dice(unit(st, (5, 13)), unit(st, (4, 12)))[0] == 3


def test_best_protection_only_bunker_on_hill():
    """M44 Fixed Obstacles: a bunker on a hill takes 2 dice from armour, not 2+1."""
    units = [(ALLIES, "tank", (5, 13)), (AXIS, "inf", (4, 12))]
    st = ready(units, {(4, 12): BoardHex("hills", bunker=True)},
               special={"bunker_owner": AXIS})
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    assert st.battle_dice(unit(st, (5, 13)), unit(st, (4, 12)))[0] == 1


def test_bunker_protects_only_its_owner():
    units = [(ALLIES, "tank", (5, 13)), (AXIS, "inf", (4, 12))]
    st = ready(units, {(4, 12): BoardHex(bunker=True)}, special={"bunker_owner": ALLIES})
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    assert st.battle_dice(unit(st, (5, 13)), unit(st, (4, 12)))[0] == 3


def test_sandbags_in_village_add_nothing_but_ignore_a_flag():
    """M44 Fixed Obstacles example: sandbags in a village; the first flag is ignored."""
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "inf", (4, 12))]
    st = ready(units, {(4, 12): "buildings"}, obstacles=[("sand", (4, 12))],
               dice=faces("flag", "star"))
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    assert st.battle_dice(unit(st, (5, 13)), unit(st, (4, 12)))[0] == 2
    ev = battle_ignoring_flag(st, (5, 13), (4, 12))
    assert any(e.kind == "flags_ignored" for e in ev)
    assert unit(st, (4, 12)) is not None


def test_sandbags_protect_and_leave_with_the_unit():
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "inf", (4, 12))]
    st = ready(units, obstacles=[("sand", (4, 12))], dice=faces("flag", "flag", "star"))
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    assert st.battle_dice(unit(st, (5, 13)), unit(st, (4, 12)))[0] == 2
    st = ready(units, obstacles=[("sand", (4, 12))], dice=faces("flag", "flag", "star"))
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    st.ctx.bonus_all = 1  # three dice, as with a +1 card
    ev = battle_ignoring_flag(st, (5, 13), (4, 12))
    assert any(e.kind == "flags_ignored" for e in ev)
    # one flag left: the Axis unit retreats one hex and the sandbags go
    if st.pending:
        st.apply(st.legal_actions()[0])
    assert H(4, 12) not in st.sandbags


def test_armour_in_village_battles_with_two_dice_less():
    units = [(ALLIES, "tank", (5, 13)), (AXIS, "inf", (4, 12))]
    st = ready(units, {(5, 13): "buildings"})
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    assert st.battle_dice(unit(st, (5, 13)), unit(st, (4, 12)))[0] == 1


def test_wire_stops_and_costs_infantry_a_die_and_can_be_removed():
    units = [(ALLIES, "inf", (6, 12)), (ALLIES, "tank", (6, 16)), (AXIS, "inf", (3, 13)),
             (AXIS, "inf", (3, 17))]
    st = ready(units, obstacles=[("wire", (5, 13)), ("wire", (5, 17))],
               dice=faces("star", "star", "star"))
    order(st, (6, 12), (6, 16))
    assert H(4, 14) not in st.move_options(uid(st, (6, 12)))  # wire stops movement
    st.apply(Action("move", unit=uid(st, (6, 12)), hex=H(5, 13)))
    st.apply(Action("move", unit=uid(st, (6, 16)), hex=H(5, 17)))
    st.apply(Action("end_moves"))
    inf = unit(st, (5, 13))
    assert st.battle_dice(inf, unit(st, (3, 13)))[0] == 1  # 2 dice at range 2, -1 in wire
    assert Action("remove_wire", unit=inf.id) in st.legal_actions()
    st.apply(Action("remove_wire", unit=inf.id))
    assert H(5, 13) not in st.wire and not st.can_battle(inf)[0]
    ev = st.apply(Action("battle", unit=uid(st, (5, 17)), hex=H(3, 17)))
    assert ev[0].kind == "wire_removed" and H(5, 17) not in st.wire


def test_hedgerows():
    """M44 Hedgerows: enter only from an adjacent hex, leave only to an adjacent hex."""
    units = [(ALLIES, "inf", (6, 12)), (AXIS, "inf", (0, 12))]
    st = ready(units, {(4, 12): "hedgerow", (5, 13): "hedgerow"})
    order(st, (6, 12))
    opts = st.move_options(uid(st, (6, 12)))
    assert H(5, 13) in opts and H(4, 12) not in opts
    st = ready([(ALLIES, "tank", (5, 13)), (AXIS, "inf", (0, 12))], {(5, 13): "hedgerow"})
    order(st, (5, 13))
    assert max(st.move_options(uid(st, (5, 13))).values()) == 1


def test_rivers_impassable_except_bridges():
    units = [(ALLIES, "inf", (6, 12)), (AXIS, "inf", (0, 12))]
    terrain = {(5, 11): "river", (5, 13): BoardHex("river", bridge=True)}
    st = ready(units, terrain)
    order(st, (6, 12))
    opts = st.move_options(uid(st, (6, 12)))
    assert H(5, 11) not in opts and H(5, 13) in opts
    # the river does not block the line of sight
    st2 = ready([(ALLIES, "inf", (6, 12)), (AXIS, "inf", (4, 10))], {(5, 11): "river"})
    order(st2, (6, 12))
    st2.apply(Action("end_moves"))
    assert st2.battle_dice(unit(st2, (6, 12)), unit(st2, (4, 10)))[0] == 2


def test_ocean_and_beach():
    """M44 Ocean: 1 hex and no battle; M44 Beaches: 2 hexes at most."""
    units = [(ALLIES, "tank", (7, 13)), (ALLIES, "tank", (6, 16)), (AXIS, "inf", (6, 12))]
    terrain = {(7, 13): "ocean", (6, 16): "beach", (5, 17): "beach", (4, 16): "beach",
               (5, 15): "beach"}
    st = ready(units, terrain)
    order(st, (7, 13), (6, 16))
    assert max(st.move_options(uid(st, (7, 13))).values()) == 1
    assert max(st.move_options(uid(st, (6, 16))).values()) == 2
    st.apply(Action("end_moves"))
    assert not st.can_battle(unit(st, (7, 13)))[0]


def test_bunker_and_hedgehog_entry():
    units = [(ALLIES, "tank", (6, 12)), (ALLIES, "inf", (6, 14)), (AXIS, "inf", (0, 12))]
    terrain = {(5, 13): BoardHex(bunker=True), (5, 15): BoardHex(hedgehog=True)}
    st = ready(units, terrain, special={"bunker_owner": ALLIES})
    order(st, (6, 12), (6, 14))
    tank_opts = st.move_options(uid(st, (6, 12)))
    inf_opts = st.move_options(uid(st, (6, 14)))
    assert H(5, 13) not in tank_opts and H(5, 15) in inf_opts and H(5, 13) in inf_opts
    tank_via = st.move_options(uid(st, (6, 12)))
    assert H(5, 15) not in tank_via
    # infantry may battle after moving into a bunker
    st.apply(Action("move", unit=uid(st, (6, 14)), hex=H(5, 13)))
    assert st.can_battle(unit(st, (5, 13)))[0]
    assert unit(st, (5, 13)).id not in st.ctx.entered


def test_artillery_in_bunker_cannot_move():
    units = [(ALLIES, "gun", (6, 12)), (AXIS, "inf", (0, 12))]
    st = ready(units, {(6, 12): BoardHex(bunker=True)})
    order(st, (6, 12))
    assert st.move_options(uid(st, (6, 12))) == {}


# ---------------------------------------------------------------- ranges and sight
def test_ranges_and_dice_by_distance():
    """M44 p.10: infantry 3-2-1, armour 3-3-3, artillery 3-3-2-2-1-1."""
    units = [(ALLIES, "inf", (8, 12)), (ALLIES, "tank", (8, 16)), (ALLIES, "gun", (8, 20)),
             (AXIS, "inf", (0, 0))]
    st2 = make_state(units, hands={ALLIES: ["direct_from_hq"], AXIS: []})
    play(st2, "direct_from_hq")
    order(st2, (8, 12), (8, 16), (8, 20))
    st2.apply(Action("end_moves"))
    from wargame.memoir import rules
    assert [rules.base_dice("inf", d) for d in range(1, 5)] == [3, 2, 1, 0]
    assert [rules.base_dice("tank", d) for d in range(1, 5)] == [3, 3, 3, 0]
    assert [rules.base_dice("gun", d) for d in range(1, 8)] == [3, 3, 2, 2, 1, 1, 0]
    far = st2.live_units(AXIS)[0]
    assert [st2.battle_dice(unit(st2, p), far)[0] for p in ((8, 12), (8, 16), (8, 20))] == [0] * 3


@pytest.mark.parametrize("row,expected", [(7, 3), (6, 2), (5, 1), (4, 0)])
def test_infantry_counts_down(row, expected):
    units = [(ALLIES, "inf", (8, 12)), (AXIS, "inf", (row, 12 if row % 2 == 0 else 11))]
    st = ready(units)
    order(st, (8, 12))
    st.apply(Action("end_moves"))
    enemy = st.live_units(AXIS)[0]
    assert st.battle_dice(unit(st, (8, 12)), enemy)[0] == expected


def test_artillery_needs_no_line_of_sight_but_infantry_does():
    units = [(ALLIES, "gun", (6, 12)), (ALLIES, "inf", (6, 16)), (AXIS, "inf", (4, 12)),
             (AXIS, "inf", (4, 16))]
    st = make_state(units, {(5, 13): "woods", (5, 11): "woods", (5, 17): "woods",
                            (5, 15): "woods"},
                    hands={ALLIES: ["direct_from_hq"], AXIS: []})
    play(st, "direct_from_hq")
    order(st, (6, 12), (6, 16))
    st.apply(Action("end_moves"))
    assert st.battle_dice(unit(st, (6, 12)), unit(st, (4, 12)))[0] == 3
    n, why = st.battle_dice(unit(st, (6, 16)), unit(st, (4, 16)))
    assert n == 0 and "sight" in why
    with pytest.raises(IllegalAction) as exc:
        st.apply(Action("battle", unit=uid(st, (6, 16)), hex=H(4, 16)))
    assert exc.value.rule == "M44 p.11 Line of Sight"


def test_adjacent_unit_must_close_assault():
    units = [(ALLIES, "inf", (6, 12)), (AXIS, "inf", (5, 13)), (AXIS, "inf", (4, 10))]
    st = ready(units)
    order(st, (6, 12))
    st.apply(Action("end_moves"))
    targets = st.battle_targets(uid(st, (6, 12)))
    assert targets == [H(5, 13)]


# ---------------------------------------------------------------- hits
@pytest.mark.parametrize("kind,rolled,hits", [
    ("inf", ["inf", "inf", "tank"], 2), ("tank", ["inf", "tank", "grenade"], 2),
    ("gun", ["inf", "tank", "grenade"], 1), ("inf", ["star", "flag", "star"], 0),
])
def test_hits_by_symbol(kind, rolled, hits):
    units = [(ALLIES, "tank", (5, 13)), (AXIS, kind, (4, 12))]
    st = ready(units, dice=faces(*rolled), obstacles=[("sand", (4, 12))] if "flag" in rolled
               else None)
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    before = unit(st, (4, 12)).figures
    st.ctx.bonus_all = 1 if "flag" in rolled else 0
    if "flag" in rolled:
        st.ctx.bonus_all = 1  # 3+1-1 sandbags = 3 dice
    st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(4, 12)))
    assert unit(st, (4, 12)).figures == before - hits


def test_extra_hits_wasted_and_elimination_scores_a_medal():
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "gun", (4, 12)), (AXIS, "inf", (0, 0))]
    st = ready(units, dice=faces("grenade", "grenade", "grenade"))
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    ev = st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(4, 12)))
    assert [e.data["hits"] for e in ev if e.kind == "hits"] == [2]
    assert st.medals(ALLIES) == 1
    assert any(e.kind == "eliminated" for e in ev)


# ---------------------------------------------------------------- retreat
def test_retreat_worked_example_two_paths():
    """M44 p.12: flag + infantry + star; after losing a figure the unit has 2 retreat hexes."""
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "inf", (4, 12))]
    st = ready(units, dice=faces("flag", "inf", "star"))
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(4, 12)))
    assert st.side_to_act == AXIS and st.pending[-1].kind == "retreat"
    opts = st.legal_actions()
    assert {a.hex for a in opts} == {H(3, 11), H(3, 13)}
    assert unit(st, (4, 12)).figures == 3
    with pytest.raises(IllegalAction) as exc:
        st.apply(Action("retreat", unit=opts[0].unit, hex=H(5, 11)))
    assert exc.value.rule == "M44 p.12 Retreat"
    st.apply(Action("retreat", unit=opts[0].unit, hex=H(3, 13)))
    assert unit(st, (3, 13)) is not None


def test_retreat_worked_example_one_path():
    """M44 p.12: another unit is in the way, so only one retreat path remains."""
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "inf", (4, 12)), (AXIS, "inf", (3, 11)),
             (AXIS, "inf", (0, 0))]
    st = ready(units, dice=faces("flag", "inf", "star"))
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    ev = st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(4, 12)))
    assert any(e.kind == "retreat" for e in ev)
    assert unit(st, (3, 13)).figures == 3 and st.pending[-1].kind == "take_ground"


def test_blocked_retreat_costs_a_figure_per_step():
    """M44 p.12: a unit on its own edge loses one figure per flag it cannot retreat."""
    units = [(ALLIES, "inf", (1, 13)), (AXIS, "inf", (0, 12)), (AXIS, "inf", (0, 0))]
    st = ready(units, dice=faces("flag", "flag", "star"))
    order(st, (1, 13))
    st.apply(Action("end_moves"))
    ev = st.apply(Action("battle", unit=uid(st, (1, 13)), hex=H(0, 12)))
    assert any(e.kind == "retreat_blocked" for e in ev)
    assert unit(st, (0, 12)).figures == 2


def test_beach_example_cannot_retreat_into_the_ocean():
    """M44 Beaches example: the Allied unit cannot retreat (ocean) and loses 2 figures."""
    units = [(AXIS, "inf", (5, 13)), (ALLIES, "inf", (6, 12)), (ALLIES, "inf", (0, 0))]
    terrain = {(7, 11): "ocean", (7, 13): "ocean", (6, 12): "beach"}
    st = ready(units, terrain, dice=faces("flag", "flag", "star"), active=AXIS)
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(6, 12)))
    assert unit(st, (6, 12)).figures == 2


def test_resistance_retreats_up_to_three_hexes_per_flag():
    """M44 Appendix 1 example: two flags; the Resistance shelters in a village 4 hexes back."""
    units = [(AXIS, "inf", (3, 13)), (ALLIES, "inf", (4, 12), "resistance")]
    st = ready(units, {(4, 12): "woods", (8, 12): "buildings"},
               dice=faces("flag", "flag"), active=AXIS)
    order(st, (3, 13))
    st.apply(Action("end_moves"))
    st.apply(Action("battle", unit=uid(st, (3, 13)), hex=H(4, 12)))
    dests = {a.hex for a in st.legal_actions()}
    assert H(6, 12) in dests and H(8, 12) in dests and H(5, 13) not in dests
    st.apply(Action("retreat", unit=uid(st, (4, 12)), hex=H(8, 12)))
    assert unit(st, (8, 12)).special == "resistance"


def test_resistance_battles_after_entering_terrain():
    units = [(ALLIES, "inf", (6, 12), "resistance"), (AXIS, "inf", (4, 12))]
    st = ready(units, {(5, 13): "woods"})
    order(st, (6, 12))
    st.apply(Action("move", unit=uid(st, (6, 12)), hex=H(5, 13)))
    st.apply(Action("end_moves"))
    assert st.can_battle(unit(st, (5, 13)))[0]


def test_artillery_in_bunker_loses_figures_for_flags():
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "gun", (4, 12)), (AXIS, "inf", (0, 0))]
    st = ready(units, {(4, 12): BoardHex(bunker=True)}, dice=faces("flag", "flag"),
               special={"bunker_owner": AXIS})
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    ev = battle_ignoring_flag(st, (5, 13), (4, 12))
    assert any(e.kind == "flags_ignored" for e in ev)
    assert unit(st, (4, 12)).figures == 1


def test_hedgehog_ignores_first_flag():
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "inf", (4, 12))]
    st = ready(units, {(4, 12): BoardHex(hedgehog=True)}, dice=faces("flag", "star", "star"))
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    battle_ignoring_flag(st, (5, 13), (4, 12))
    assert unit(st, (4, 12)) is not None and not st.pending


# ---------------------------------------------------------------- take ground and overrun
def test_take_ground_worked_example_into_woods():
    """M44 Take Ground: flag + infantry; the German retreats; the Allies take the woods."""
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "inf", (4, 12)), (AXIS, "inf", (3, 11))]
    st = ready(units, {(4, 12): "woods"}, dice=faces("flag", "inf"))
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(4, 12)))
    assert st.pending[-1].kind == "take_ground" and st.side_to_act == ALLIES
    st.apply(Action("take_ground", unit=uid(st, (5, 13)), hex=H(4, 12)))
    assert unit(st, (4, 12)).side == ALLIES


def test_artillery_never_takes_ground():
    units = [(ALLIES, "gun", (5, 13)), (AXIS, "inf", (4, 12)), (AXIS, "inf", (3, 11))]
    st = ready(units, dice=faces("flag", "inf", "star"))
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(4, 12)))
    assert not st.pending


def test_armour_overrun_once_per_turn():
    """M44 Armor Overrun example: flag + infantry, take ground, battle again; only once."""
    units = [(ALLIES, "tank", (5, 13)), (AXIS, "inf", (4, 12)), (AXIS, "inf", (3, 11)),
             (AXIS, "inf", (2, 14))]
    st = ready(units, dice=faces("flag", "inf", "star") + faces("flag", "star", "star"))
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(4, 12)))
    ev = st.apply(Action("take_ground", unit=uid(st, (5, 13)), hex=H(4, 12)))
    assert any(e.kind == "overrun" for e in ev)
    tank = unit(st, (4, 12))
    # adjacent to enemies: the overrun battle must be a close assault, not (2,14)
    assert set(st.battle_targets(tank.id)) == {H(3, 11), H(3, 13)}
    st.apply(Action("battle", unit=tank.id, hex=H(3, 11)))
    # (3,11) retreated to... it may retreat; then the tank may take ground again, no overrun
    while st.pending and st.pending[-1].kind == "retreat":
        st.apply(st.legal_actions()[0])
    if st.pending:
        ev = st.apply(st.legal_actions()[0])
        assert not any(e.kind == "overrun" for e in ev)
    assert st.ctx.battles[tank.id] == 0


def test_no_overrun_after_taking_ground_into_woods():
    units = [(ALLIES, "tank", (5, 13)), (AXIS, "inf", (4, 12)), (AXIS, "inf", (2, 12))]
    st = ready(units, {(4, 12): "woods"}, dice=faces("flag"))
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(4, 12)))
    if st.pending and st.pending[-1].kind == "retreat":
        st.apply(st.legal_actions()[0])
    ev = st.apply(Action("take_ground", unit=uid(st, (5, 13)), hex=H(4, 12)))
    assert not any(e.kind == "overrun" for e in ev)


# ---------------------------------------------------------------- medals
def test_temporary_and_permanent_objectives():
    obj_t = Objective(ALLIES, frozenset({H(4, 12)}), permanent=False)
    obj_p = Objective(ALLIES, frozenset({H(4, 16)}), permanent=True)
    units = [(ALLIES, "inf", (5, 13)), (ALLIES, "inf", (5, 17)), (AXIS, "inf", (0, 0))]
    st = ready(units, objectives=[obj_t, obj_p])
    order(st, (5, 13), (5, 17))
    st.apply(Action("move", unit=uid(st, (5, 13)), hex=H(4, 12)))
    st.apply(Action("move", unit=uid(st, (5, 17)), hex=H(4, 16)))
    assert st.medals(ALLIES) == 2
    st.place(st.units[uid(st, (4, 12))], H(6, 12))
    st.place(st.units[uid(st, (4, 16))], H(6, 16))
    assert st.medals(ALLIES) == 1  # the permanent medal stays


def test_mont_mouchet_two_medals_per_tank():
    units = [(ALLIES, "inf", (5, 13), "resistance"), (AXIS, "tank", (4, 12), None, 1),
             (AXIS, "inf", (0, 0))]
    st = ready(units, dice=faces("tank", "star", "star"),
               special={"elimination_medals": {AXIS: {"tank": 2}}})
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(4, 12)))
    assert st.medals(ALLIES) == 2


def test_medal_victory_ends_the_game():
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "inf", (4, 12), None, 1), (AXIS, "inf", (0, 0))]
    st = ready(units, dice=faces("inf", "star", "star"), medals={AXIS: 1, ALLIES: 1})
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    ev = st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(4, 12)))
    assert st.winner == ALLIES and ev[-1].kind == "victory"
    assert st.legal_actions() == []
    with pytest.raises(IllegalAction):
        st.apply(Action("end_battles"))


def test_sudden_death_at_end_of_turn():
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "inf", (0, 0))]
    sd = ({"side": ALLIES, "hexes": frozenset({H(4, 12)}), "required": 1},)
    st = ready(units, special={"sudden_death": sd})
    order(st, (5, 13))
    st.apply(Action("move", unit=uid(st, (5, 13)), hex=H(4, 12)))
    assert st.winner is None
    st.apply(Action("end_moves"))
    st.apply(Action("end_battles"))
    assert st.winner == ALLIES
