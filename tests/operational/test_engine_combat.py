"""Combat rules (CN/OD 5.0-8.0) on small test maps, with loaded dice."""

import pytest

from tests.helpers import small_scenario, unit
from wargame.hexgrid import Hex
from wargame.operational.actions import (
    Advance,
    Attack,
    Bombard,
    CarpetBomb,
    ChooseLoss,
    DeclareDefence,
    EmpEliminate,
    EndAdvance,
    EndPhase,
    IllegalAction,
    Move,
    Retreat,
)
from wargame.operational.combat import assess_bombardment
from wargame.operational.state import Game


def H(hid):
    return Hex.from_id(hid)


def to_allied_combat(state):
    state.apply(EndPhase())
    assert state.phase.value == "allied_combat"
    return state


def game(units, setup, **kw):
    return Game(small_scenario(units=units, setup=setup, **kw))


def test_5_1_1_ratio_11_to_4_is_2_1():
    g = game([unit("a1", "allied", a=6), unit("a2", "allied", a=5), unit("d", "axis", d=4)],
             {"a1": "0303", "a2": "0404", "d": "0304"})
    s = to_allied_combat(g.new_state())
    a = s.preview_attack("0304", ("a1", "a2"))
    assert (a.attack, a.defence, a.ratio, a.column_label) == (11, 4, "2-1", "2-1")
    inverse = s.preview_attack("0304", ("a2",), defence_air=4)
    assert inverse.ratio == "1-1"
    weak = game([unit("a", "allied", a=4), unit("d", "axis", d=9)], {"a": "0303", "d": "0304"})
    assert to_allied_combat(weak.new_state()).preview_attack("0304", ("a",)).ratio == "1-2"


def test_terrain_best_of_hex_and_river_only_if_all_attack_across():
    scn = dict(terrain={"0304": "rough"}, flags={"0304": {"village": True}}, rivers=[("0303", "0304")])
    g = game([unit("a1", "allied", a=9), unit("a2", "allied", a=9), unit("d", "axis", d=3)],
             {"a1": "0303", "a2": "0404", "d": "0304"}, **scn)
    s = to_allied_combat(g.new_state())
    only_across = s.preview_attack("0304", ("a1",))
    assert [x.columns for x in only_across.shifts] == [-2]  # river crossing beats rough/village
    both = s.preview_attack("0304", ("a1", "a2"))
    assert [x.columns for x in both.shifts] == [-1]  # not all across: best hex terrain 1


def test_encirclement_gives_one_column():
    units = [unit("a0", "allied", a=2), unit("a1", "allied", a=2), unit("d", "axis", d=6)]
    g = game(units, {"a0": "0503", "a1": "0505", "d": "0504"}, cols=9, rows=9)
    s = to_allied_combat(g.new_state())
    # the zones of a0 (north) and a1 (south) cover every hex around 0504
    assert s.encircled(H("0504"), "axis")
    a = s.preview_attack("0504", ("a0",))
    assert ("encirclement", 1) in [(x.reason, x.columns) for x in a.shifts]
    assert not s.encircled(H("0909"), "axis")


def test_divisional_integrity_needs_every_element():
    divs = {"us-1": {"name": "1st ID", "nation": "american"}}
    units = [unit(f"r{i}", "allied", a=3, division="us-1") for i in range(3)] + [unit("d", "axis", d=3)]
    g = game(units, {"r0": "0303", "r1": "0404", "r2": "0405", "d": "0304"}, divisions=divs)
    s = to_allied_combat(g.new_state())
    full = s.preview_attack("0304", ("r0", "r1", "r2"))
    part = s.preview_attack("0304", ("r0", "r1"))
    assert any("divisional" in x.reason and x.columns == 1 for x in full.shifts)
    assert not any("divisional" in x.reason for x in part.shifts)


def test_exempt_division_gets_no_bonus():
    divs = {"de-265": {"name": "265th ID", "nation": "german", "divisional_bonus": False}}
    units = [unit("a", "allied", a=9), unit("g1", "axis", d=2, division="de-265"), unit("g2", "axis", d=2, division="de-265")]
    g = game(units, {"a": "0303", "g1": "0304", "g2": "0304"}, divisions=divs)
    a = to_allied_combat(g.new_state()).preview_attack("0304", ("a",))
    assert not a.shifts


def test_naval_support_cn_within_three_hexes_of_invasion_coast_not_1509():
    rules = {"naval_support": {"columns": 1, "invasion_coast": "coast", "range": 3, "excluded": ["0101"]}}
    g = game([unit("a", "allied", a=6), unit("d", "axis", d=3), unit("e", "axis", d=3)],
             {"a": "0305", "d": "0306", "e": "0106"}, places={"coast": ["0101", "0303"]}, rules=rules)
    s = to_allied_combat(g.new_state())
    assert ("naval support", 1) in [(x.reason, x.columns) for x in s.preview_attack("0306", ("a",)).shifts]
    assert s.naval_support_columns(H("0106"), ("a",)) == 0  # only the excluded hex is near


def test_turn_penalty_cn_5_1_1():
    g = game([unit("a", "allied", a=6), unit("d", "axis", d=3)], {"a": "0303", "d": "0304"},
             rules={"attack_penalty_turns": {"allied": [1]}})
    a = to_allied_combat(g.new_state()).preview_attack("0304", ("a",))
    assert [x.columns for x in a.shifts] == [-1] and a.column_label == "1-1"


def test_turn_penalty_does_not_touch_bombardments():
    """docs/rules-notes.md: CN 5.1.1's turn-5 column ("perde uma coluna") and CN 9.0's
    lost-Mulberry column apply to combats on the CRT, not to air or artillery bombardment,
    which has its own table and names only terrain as a shift (CN 6.2, 8.0)."""
    units = [unit("a", "allied", a=6), unit("art", "allied", "artillery", 4, 1, 4, rng=3), unit("d", "axis", d=3)]
    g = game(units, {"a": "0303", "art": "0302", "d": "0305"}, rules={"attack_penalty_turns": {"allied": [1]}})
    s = to_allied_combat(g.new_state())
    assert [x.columns for x in s.turn_shifts("allied")] == [-1]  # the penalty is on this turn
    b = assess_bombardment(s, Hex.from_id("0305"), ("art",), 0)
    assert b.shifts == () and b.column == b.base_column


def test_de_eliminates_one_chosen_and_the_rest_retreat(load_dice):
    units = [unit("a", "allied", a=27), unit("d1", "axis", d=1), unit("d2", "axis", d=2)]
    g = game(units, {"a": "0303", "d1": "0304", "d2": "0304"})
    s = to_allied_combat(g.new_state())
    load_dice(s, 1, 1)  # 2 on 9-1: DE AVI
    s.apply(Attack("0304", ("a",)))
    assert s.pending.kind == "defence" or s.pending.kind == "loss"
    if s.pending.kind == "defence":
        s.apply(DeclareDefence(0))
    assert s.pending.kind == "loss" and {o.unit for o in s.pending.options} == {"d1", "d2"}
    s.apply(ChooseLoss("d2"))
    assert s.units["d2"].status == "eliminated"
    assert s.pending.kind == "retreat" and s.pending.unit == "d1"
    s.apply(s.pending.options[0])
    assert s.units["d1"].hex != H("0304")
    assert s.pending.kind == "advance"
    s.apply(Advance("a", ("0304",)))
    assert s.units["a"].hex == H("0304")


def test_drb_avb_defender_retreats_with_loss_attacker_loses_one(load_dice):
    units = [unit("a1", "allied", a=4), unit("a2", "allied", a=4), unit("d", "axis", d=4)]
    g = game(units, {"a1": "0303", "a2": "0404", "d": "0304"})
    s = to_allied_combat(g.new_state())
    s.air_points["allied"] = 0
    load_dice(s, 1, 1)  # 2 on 2-1: DRB AVB
    s.apply(Attack("0304", ("a1", "a2")))
    assert s.units["d"].reduced
    assert s.pending.kind == "loss" and s.pending.side == "allied"
    s.apply(ChooseLoss("a2"))
    assert s.units["a2"].reduced
    assert s.pending.kind == "retreat"
    s.apply(s.pending.options[0])
    assert s.pending.kind == "advance"
    s.apply(EndAdvance())
    assert s.pending is None and s.combat is None


def test_dvb_arb_attackers_retreat(load_dice):
    g = game([unit("a", "allied", a=3), unit("d", "axis", d=3)], {"a": "0303", "d": "0304"})
    s = to_allied_combat(g.new_state())
    s.air_points["allied"] = 0
    load_dice(s, 3, 2)  # 5 on 1-1: DVB ARB
    s.apply(Attack("0304", ("a",)))
    assert s.units["d"].reduced and s.units["a"].reduced
    assert s.pending.kind == "retreat" and s.pending.unit == "a"
    s.apply(Retreat("a", ("0302",)))
    assert s.units["a"].hex == H("0302")


def test_imp_nothing_happens(load_dice):
    g = game([unit("a", "allied", a=3), unit("d", "axis", d=3)], {"a": "0303", "d": "0304"})
    s = to_allied_combat(g.new_state())
    s.air_points["allied"] = 0
    load_dice(s, 5, 6)  # 11 on 1-1: IMP
    before = {u: (us.hex, us.reduced) for u, us in s.units.items()}
    s.apply(Attack("0304", ("a",)))
    assert {u: (us.hex, us.reduced) for u, us in s.units.items()} == before and s.pending is None


def test_emp_defender_chooses_then_attacker_loses_at_least_as_much(load_dice):
    s2 = to_allied_combat(game([unit("b1", "allied", a=6), unit("b2", "allied", a=4),
                                unit("e1", "axis", d=1), unit("e2", "axis", d=1)],
                               {"b1": "0303", "b2": "0404", "e1": "0304", "e2": "0304"}).new_state())
    s2.air_points["allied"] = 0
    load_dice(s2, 1, 1)  # 10 vs 2 = 5-1, 2: EMP
    s2.apply(Attack("0304", ("b1", "b2")))
    assert s2.pending.kind == "emp_defender"
    s2.apply(EmpEliminate(("e1",)))
    assert s2.units["e1"].status == "eliminated"
    # attacker must lose at least 1 attack point: either unit alone is a minimal answer
    assert s2.pending.kind == "emp_attacker"
    assert set(s2.pending.options) == {EmpEliminate(("b1",)), EmpEliminate(("b2",))}
    s2.apply(EmpEliminate(("b2",)))
    assert s2.units["b2"].status == "eliminated"
    assert s2.pending.kind == "retreat" and s2.pending.unit == "e2"  # the rest must retreat
    assert Retreat("e2", ()) not in s2.pending.options
    s2.apply(s2.pending.options[0])
    assert s2.units["e2"].hex != H("0304")
    assert s2.units["b1"].hex == H("0303")  # no advance after EMP (docs/rules-notes.md)


def test_retreat_never_into_enemy_zone_and_elimination_when_impossible(load_dice):
    units = [unit("a1", "allied", a=8), unit("a2", "allied", a=1), unit("a3", "allied", a=1), unit("d", "axis", d=4)]
    # d at 0101 corner: neighbours 0201, 0102, 0202 (odd column 01 is lower).
    g = game(units, {"a1": "0201", "a2": "0102", "a3": "0302", "d": "0101"})
    s = to_allied_combat(g.new_state())
    s.air_points["allied"] = 0
    assert s.encircled(H("0101"), "axis")
    load_dice(s, 2, 2)  # 4 on 2-1 (+1 encirclement = 3-1): DRB AVB
    s.apply(Attack("0101", ("a1", "a2")))
    assert s.pending.kind == "loss" and s.pending.side == "allied"
    s.apply(ChooseLoss("a2"))
    # 0202 is in the zone of a3 -> encircled retreat: two hexes needed, none free -> eliminated
    assert s.units["d"].status == "eliminated"


def test_encircled_retreat_second_move_costs_a_loss_unless_sheltered(load_dice):
    units = [unit("a1", "allied", a=9), unit("a2", "allied", a=1, m=0), unit("d", "axis", d=3),
             unit("f", "axis", d=1)]
    # a1 (north) and a2 (south) cover every hex around 0505; friendly f sits in 0605. a2 has
    # movement 0, so it need not attack (CN 5.3 observation): a1 attacks alone (CN 4.1.2).
    g = game(units, {"a1": "0504", "a2": "0506", "d": "0505", "f": "0605"}, cols=9, rows=9)
    s = to_allied_combat(g.new_state())
    s.air_points["allied"] = 0
    assert s.encircled(H("0505"), "axis")
    load_dice(s, 1, 1)  # 9 vs 3 = 3-1, +1 encirclement = 4-1; 2: DRB AVB
    s.apply(Attack("0505", ("a1",)))
    assert s.units["d"].reduced
    assert s.pending.kind == "retreat" and s.pending.unit == "d"
    options = s.pending.options
    assert options and all(len(o.path) == 2 for o in options)  # 5.3.3: a second hex
    sheltered = Retreat("d", ("0605", "0704"))
    assert sheltered in options
    exposed = next(o for o in options if o.path[0] != "0605")
    clone = s.clone()
    clone.apply(exposed)  # second move under encirclement: a loss, and d was already reduced
    assert clone.units["d"].status == "eliminated"
    s.apply(sheltered)  # 5.3.3 sheltered retreat through a friendly hex: no loss
    assert s.units["d"].status == "on_map" and s.units["d"].hex == H("0704")


def test_river_retreat_costs_armour_a_loss(load_dice):
    units = [unit("a", "allied", a=9), unit("tank", "axis", "armour", d=3)]
    g = game(units, {"a": "0303", "tank": "0304"}, rivers=[("0304", "0305"), ("0304", "0204"), ("0304", "0404"),
                                                         ("0304", "0205"), ("0304", "0405")])
    s = to_allied_combat(g.new_state())
    s.air_points["allied"] = 0
    load_dice(s, 2, 2)  # 9 vs 3 = 3-1; 4: DRB AVB
    s.apply(Attack("0304", ("a",)))
    # DRB: tank takes the loss (flipped) then retreats across a river: second loss eliminates it
    while s.pending:
        s.apply(s.pending.options[0])
    assert s.units["tank"].status == "eliminated"


def test_zero_mp_unit_eliminated_on_drb(load_dice):
    g = game([unit("a", "allied", a=9), unit("gun", "axis", "coastal_artillery", d=3, m=0)], {"a": "0303", "gun": "0304"})
    s = to_allied_combat(g.new_state())
    s.air_points["allied"] = 0
    load_dice(s, 2, 2)  # 9 vs 3 = 3-1; 4: DRB AVB
    s.apply(Attack("0304", ("a",)))
    while s.pending:
        s.apply(s.pending.options[0])
    assert s.units["gun"].status == "eliminated"


def test_caen_defenders_need_not_retreat_on_drb(load_dice):
    g = game([unit("a", "allied", a=9), unit("g", "axis", d=1)], {"a": "0303", "g": "0304"},
             terrain={"0304": "city"}, places={"Caen": ["0304"]},
             rules={"no_retreat": [{"place": "Caen", "side": "axis"}]})
    s = to_allied_combat(g.new_state())
    s.air_points["allied"] = 0
    load_dice(s, 2, 3)  # 9 vs 1 = 9-1, city -2 -> 7-1; 5: DRB AVI
    s.apply(Attack("0304", ("a",)))
    assert s.pending.kind == "retreat" and Retreat("g", ()) in s.pending.options
    s.apply(Retreat("g", ()))
    assert s.units["g"].hex == H("0304")


def test_advance_two_hexes_for_motorized_over_open_ground(load_dice):
    g = game([unit("m", "allied", "armour", a=20), unit("g", "axis", d=1)], {"m": "0303", "g": "0304"},
             terrain={"0305": "open"})
    s = to_allied_combat(g.new_state())
    s.air_points["allied"] = 0
    load_dice(s, 1, 1)  # 9-1, 2: DE AVI
    s.apply(Attack("0304", ("m",)))
    while s.pending and s.pending.kind != "advance":
        s.apply(s.pending.options[0])
    assert Advance("m", ("0304", "0305")) in s.pending.options
    s.apply(Advance("m", ("0304", "0305")))
    assert s.units["m"].hex == H("0305")


def test_advance_blocked_by_river_for_second_hex(load_dice):
    g = game([unit("m", "allied", "armour", a=20), unit("g", "axis", d=1)], {"m": "0303", "g": "0304"},
             rivers=[("0304", "0305")])
    s = to_allied_combat(g.new_state())
    s.air_points["allied"] = 0
    load_dice(s, 1, 1)
    s.apply(Attack("0304", ("m",)))
    while s.pending and s.pending.kind != "advance":
        s.apply(s.pending.options[0])
    assert Advance("m", ("0304", "0305")) not in s.pending.options


def test_bocage_allows_one_armoured_attacker_and_losses_fall_on_it(load_dice):
    units = [unit("t1", "allied", "armour", a=4), unit("t2", "allied", "armour", a=4), unit("i", "allied", a=4),
             unit("g", "axis", d=2)]
    g = game(units, {"t1": "0303", "t2": "0404", "i": "0405", "g": "0304"}, terrain={"0304": "bocage"},
             rules={"one_armour_terrain": ["bocage"]})
    s = to_allied_combat(g.new_state())
    with pytest.raises(IllegalAction) as exc:
        s.apply(Attack("0304", ("t1", "t2", "i")))
    assert "CN 5.1.2" in str(exc.value)
    s.air_points["allied"] = 0
    load_dice(s, 1, 1)  # 8 vs 2 = 4-1, bocage -2 = 2-1: 2 -> DRB AVB
    s.apply(Attack("0304", ("t1", "i")))
    while s.pending and s.pending.kind == "loss" and s.pending.side == "axis":
        s.apply(s.pending.options[0])
    assert s.units["t1"].reduced and not s.units["i"].reduced


def test_artillery_bombardment_cn_8_0_example(load_dice):
    # Two German 2-1-4 artillery on a hex with a US armoured and a motorized infantry unit: 4 x 3 = 12.
    units = [unit("art1", "axis", "artillery", 2, 1, 4, rng=3), unit("art2", "axis", "artillery", 2, 1, 4, rng=3),
             unit("arm", "allied", "armour"), unit("mot", "allied", "motorized_infantry")]
    g = game(units, {"art1": "0306", "art2": "0306", "arm": "0303", "mot": "0303"})
    s = g.new_state()
    for _ in range(3):
        s.apply(EndPhase())
    assert s.phase.value == "axis_combat"
    from wargame.operational.combat import assess_bombardment

    ba = assess_bombardment(s, H("0303"), ("art1", "art2"), 0)
    assert (ba.strength, ba.vulnerability, ba.value, ba.column_label) == (4, 3, 12, "11-20")
    load_dice(s, 1, 1)  # 2: DB
    s.apply(Bombard("0303", ("art1", "art2")))
    assert s.pending.kind == "loss"
    s.apply(ChooseLoss("mot"))
    assert s.units["mot"].reduced
    with pytest.raises(IllegalAction) as exc:
        s.apply(Bombard("0303", ("art1",)))
    assert "already" in exc.value.reason


def test_air_strike_cn_6_2_example_and_bounds(load_dice):
    units = [unit("a", "allied"), unit("i1", "axis"), unit("i2", "axis"), unit("t", "axis", "armour")]
    g = game(units, {"a": "0101", "i1": "0505", "i2": "0505", "t": "0505"}, terrain={"0505": "city"})
    s = to_allied_combat(g.new_state())
    from wargame.operational.combat import assess_bombardment

    ba = assess_bombardment(s, H("0505"), (), 6)
    assert (ba.vulnerability, ba.value, ba.base_column, ba.column_label) == (4, 24, 2, "1-10")
    with pytest.raises(IllegalAction) as exc:
        s.apply(Bombard("0505", (), 4))
    assert "at least 5" in exc.value.reason
    with pytest.raises(IllegalAction):
        s.apply(Bombard("0505", (), 11))
    s.apply(Bombard("0505", (), 6))
    assert s.air_points["allied"] == 44


def test_artillery_only_attacks_get_no_air():
    units = [unit("art", "allied", "artillery", 2, 1, 4, rng=3), unit("g", "axis")]
    s = to_allied_combat(game(units, {"art": "0303", "g": "0306"}).new_state())
    with pytest.raises(IllegalAction) as exc:
        s.apply(Bombard("0306", ("art",), 5))
    assert "no air support" in exc.value.reason


def test_must_attack_when_engaged_and_dominant_terrain_exemption():
    g = game([unit("a", "allied"), unit("g", "axis")], {"a": "0303", "g": "0305"})
    s = g.new_state()
    s.apply(Move("a", "0304"))
    s.apply(EndPhase())
    with pytest.raises(IllegalAction) as exc:
        s.apply(EndPhase())
    assert "must attack" in exc.value.reason and exc.value.rule == "CN 4.1.2"
    # dominant: starts engaged in a city against an enemy in the open, does not move
    g2 = game([unit("a", "allied"), unit("g", "axis")], {"a": "0304", "g": "0305"}, terrain={"0304": "city"})
    s2 = g2.new_state()
    s2.apply(EndPhase())
    s2.apply(EndPhase())  # no obligation
    assert s2.phase.value == "axis_movement"


def test_carpet_bombing_turn_rules(load_dice):
    units = [unit("a", "allied"), unit("g", "axis"), unit("h", "axis")]
    g = game(units, {"a": "0101", "g": "0505", "h": "0506"}, turns=(7, 12),
             rules={"carpet_bombing": {"from_turn": 8, "uses": 2}})
    s = g.new_state()
    assert s.carpet_targets() == []
    for _ in range(4):
        s.apply(EndPhase())
    assert s.turn == 8 and H("0505") in s.carpet_targets()
    load_dice(s, 1, 1, 3, 4)  # 0505: 2 DI; 0506: 7 DA
    s.apply(CarpetBomb("0505"))
    assert s.units["g"].status == "on_map" and s.units["h"].status == "eliminated"
    for _ in range(4):
        s.apply(EndPhase())
    assert s.carpet_targets() == []  # not on consecutive turns
    for _ in range(4):
        s.apply(EndPhase())
    assert s.carpet_targets() != []


def test_allied_recovery_when_disengaged_not_on_turn_5():
    g = game([unit("a", "allied"), unit("g", "axis")], {"a": "0101", "g": "0909"}, turns=(4, 6),
             rules={"recovery": {"sides": ["allied"], "no_turns": [5]}})
    s = g.new_state()
    s.units["a"].reduced = True
    s.apply(EndPhase())
    assert not s.units["a"].reduced
    s.units["a"].reduced = True
    for _ in range(4):
        s.apply(EndPhase())
    assert s.turn == 5 and s.units["a"].reduced  # CN 7.0: no recovery on turn 5


def test_victory_points_cities_and_losses():
    rules = {"victory": [
        {"kind": "city", "place": "Caen", "points": {"allied": 30, "axis": 30}},
        {"kind": "destroyed", "side": "axis", "scorer": "allied", "points": 2, "forgive_third": True},
        {"kind": "destroyed", "side": "allied", "scorer": "axis", "points": 10},
    ]}
    units = [unit("a", "allied")] + [unit(f"g{i}", "axis") for i in range(4)]
    g = game(units, {"a": "0303", **{f"g{i}": "0909" for i in range(4)}}, terrain={"0304": "city", "0404": "city"},
             places={"Caen": ["0304", "0404"]}, rules=rules)
    s = g.new_state()
    assert s.victory_points()["axis"] == 30
    s.apply(Move("a", "0304"))
    vp = s.victory_points()
    assert (vp["allied"], vp["axis"]) == (15, 15)  # a split two-hex city
    for i in range(4):
        s.units[f"g{i}"].status = "eliminated"
    assert s.victory_points()["allied"] == 15 + 2 * (4 - 1)  # CN 11.2.2: a third forgiven


def test_artillery_in_the_attacked_hex_does_not_support_itself():
    # CN 8.0: support is measured to the defender's hex; the guns in that hex are defenders
    # already and count their defence only (docs/rules-notes.md)
    units = [unit("a", "allied", a=6), unit("bat", "axis", "artillery", 2, 1, 4, rng=3),
             unit("far", "axis", "artillery", 2, 1, 4, rng=3)]
    s = to_allied_combat(game(units, {"a": "0303", "bat": "0304", "far": "0306"}).new_state())
    assert s.artillery_in_range("axis", H("0304")) == ["far"]
    s.apply(Attack("0304", ("a",)))
    assert s.pending is not None and s.pending.kind == "defence"
    offered = {u for option in s.pending.options for u in option.artillery}
    assert offered == {"far"}


@pytest.mark.parametrize("allied_in_other_hex", [True, False])
def test_caen_second_clause_allows_staying_on_emp(load_dice, allied_in_other_hex):
    # CN 5.1.2: with the Allies in the other Caen hex since the start of the turn, Germans in
    # Caen need not retreat at all: on an EMP too (docs/rules-notes.md)
    # x (movement 0: it need not attack, CN 5.3 observation) holds the other Caen hex
    units = [unit("b1", "allied", a=6), unit("b2", "allied", a=4), unit("x", "allied", a=1, m=0),
             unit("e1", "axis", d=1), unit("e2", "axis", d=1)]
    setup = {"b1": "0303", "b2": "0404", "e1": "0304", "e2": "0304",
             "x": "0305" if allied_in_other_hex else "0808"}
    g = game(units, setup, places={"Caen": ["0304", "0305"]},
             rules={"no_retreat": [{"place": "Caen", "side": "axis", "other_hex_held": True}]})
    s = to_allied_combat(g.new_state())
    s.air_points["allied"] = 0
    # 10 vs 2 = 5-1 (6-1 when x closes the ring, CN 5.1.3): dice 2 on 5-1, 3 on 6-1 give EMP
    load_dice(s, 1, 2) if allied_in_other_hex else load_dice(s, 1, 1)
    s.apply(Attack("0304", ("b1", "b2")))
    assert s.combat.result == "EMP"
    s.apply(EmpEliminate(("e1",)))
    s.apply(EmpEliminate(("b2",)))
    assert s.pending.kind == "retreat" and s.pending.unit == "e2"
    assert (Retreat("e2", ()) in s.pending.options) is allied_in_other_hex
