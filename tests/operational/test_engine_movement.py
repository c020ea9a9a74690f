"""Movement rules (CN/OD 4.0-4.2) on small test maps."""

import pytest

from tests.helpers import small_scenario, unit
from wargame.hexgrid import Hex
from wargame.operational.actions import EndPhase, Enter, Exit, IllegalAction, Move
from wargame.operational.state import Game, Phase


def H(hid):
    return Hex.from_id(hid)


def cn_example_map(mover_type="motorized_infantry", mp=15):
    """CN 4.0 example laid out down column 03: Arromanches 0302, open 0303, the Aure (hexside),
    open 0304, Bayeux 0305 (city), road 0306-0307, the Drôme (hexside), Balleroy 0308 (bocage),
    rough 0309, Caumont 0310 (rough). Everything else is hill (3 points) so no detour is cheaper."""
    terrain = {f"{c:02d}{r:02d}": "hill" for c in range(1, 7) for r in range(1, 14)}
    for hid in ("0302", "0303", "0304"):
        terrain[hid] = "open"
    terrain.update({"0305": "city", "0306": "open", "0307": "open", "0308": "bocage",
                    "0309": "rough", "0310": "rough", "0311": "open"})
    return small_scenario(
        cols=6, rows=13, terrain=terrain,
        rivers=[("0303", "0304"), ("0307", "0308")],
        roads=[["0305", "0306", "0307"]],
        units=[unit("uk", "allied", mover_type, 4, 4, mp, nation="british"), unit("de", "axis")],
        setup={"uk": "0302", "de": "0613"},
    )


def test_cn_4_0_example_costs_exactly_15_and_stops_at_caumont():
    # CN 4.0: 1 + 2 + 1 + 1 + 2x0.5 + 2 + 3 + 2x2 = 15 for a British motorized 4-4-15.
    state = Game(cn_example_map()).new_state()
    reach = state.reach("uk")
    assert reach[H("0310")].cost == 30  # half points
    assert H("0311") not in reach  # Caumont is the edge of its reach along the way
    state.apply(Move("uk", "0310"))
    assert state.units["uk"].spent == 30
    with pytest.raises(IllegalAction) as exc:
        state.apply(Move("uk", "0311"))
    assert "CN 4.0" in str(exc.value)


def test_cn_4_0_example_for_non_motorized_costs_less():
    # Non-motorized: rivers 1, bocage 2, road 1: 1+(1+1)+1+1+1+(1+2)+2+2 = 13.
    state = Game(cn_example_map("infantry", 15)).new_state()
    assert state.reach("uk")[H("0310")].cost == 26


def test_od_4_0_example_para_spends_six():
    # OD 4.0: US para 3-3-6 from its drop hex: Draguignan (city 1), open north (1), across the
    # Verdon (1) into a mountain (3) = 6, and must stop there.
    terrain = {f"{c:02d}{r:02d}": "woods" for c in range(1, 6) for r in range(1, 9)}
    terrain.update({"0307": "open", "0306": "city", "0305": "open", "0304": "mountain", "0303": "open"})
    scn = small_scenario(game="dragoon", cols=5, rows=8, terrain=terrain, rivers=[("0305", "0304")],
                         units=[unit("para", "allied", "paratroop", 3, 3, 6), unit("de", "axis")],
                         setup={"para": "0307", "de": "0101"})
    state = Game(scn).new_state()
    reach = state.reach("para")
    assert reach[H("0304")].cost == 12
    assert H("0303") not in reach


def test_road_costs_half_for_motorized_and_one_for_foot():
    scn = small_scenario(terrain={"0202": "bocage", "0203": "bocage"},
                         roads=[["0201", "0202", "0203"]],
                         units=[unit("m", "allied", "motorized_infantry", m=2), unit("f", "allied", m=2),
                                unit("de", "axis")],
                         setup={"m": "0201", "f": "0201", "de": "0909"})
    state = Game(scn).new_state()
    assert state.reach("m")[H("0203")].cost == 2  # 2 x 0.5
    assert state.reach("f")[H("0203")].cost == 4  # 2 x 1 along the road, not 2 x 2 bocage


def test_marsh_prohibited_to_armour_not_to_motorized():
    scn = small_scenario(terrain={"0202": "marsh"},
                         units=[unit("tank", "allied", "armour", m=6), unit("mot", "allied", "motorized_infantry", m=6),
                                unit("de", "axis")],
                         setup={"tank": "0201", "mot": "0201", "de": "0909"})
    state = Game(scn).new_state()
    assert H("0202") not in state.reach("tank")
    assert state.reach("mot")[H("0202")].cost == 4
    with pytest.raises(IllegalAction) as exc:
        state.apply(Move("tank", "0202"))
    assert "prohibited" in exc.value.reason


def test_mountain_prohibited_to_od_armour_and_cheap_for_special():
    scn = small_scenario(game="dragoon", terrain={"0202": "mountain"},
                         units=[unit("tank", "allied", "armour", m=6), unit("alp", "allied", "mountain", m=6),
                                unit("de", "axis")],
                         setup={"tank": "0201", "alp": "0201", "de": "0909"})
    state = Game(scn).new_state()
    assert H("0202") not in state.reach("tank")
    assert state.reach("alp")[H("0202")].cost == 4  # OD table: special 2


def test_village_costs_its_terrain():
    scn = small_scenario(terrain={"0202": "bocage"}, flags={"0202": {"village": True}},
                         units=[unit("f", "allied", m=6), unit("de", "axis")], setup={"f": "0201", "de": "0909"})
    assert Game(scn).new_state().reach("f")[H("0202")].cost == 4  # bocage 2, not a fixed village cost


def test_stacking_limit_and_passing_through():
    units = [unit(f"s{i}", "allied", m=6) for i in range(5)] + [unit("de", "axis")]
    setup = {f"s{i}": "0303" for i in range(4)}
    setup.update({"s4": "0302", "de": "0909"})
    state = Game(small_scenario(units=units, setup=setup)).new_state()
    with pytest.raises(IllegalAction) as exc:
        state.apply(Move("s4", "0303"))
    assert "CN 4.1.1" in str(exc.value)
    state.apply(Move("s4", "0304"))  # through the full stack
    assert state.units["s4"].hex == H("0304") and state.units["s4"].spent == 4


def test_entering_enemy_zone_stops_and_leaving_costs_one_more():
    state = Game(small_scenario(units=[unit("a", "allied", m=6), unit("g", "axis")],
                                setup={"a": "0301", "g": "0305"})).new_state()
    reach = state.reach("a")
    assert reach[H("0304")].engaged
    assert H("0306") not in reach or reach[H("0306")].prev != H("0304")
    state.apply(Move("a", "0304"))
    assert state.units["a"].stopped
    with pytest.raises(IllegalAction) as exc:
        state.apply(Move("a", "0303"))
    assert "CN 4.1.2" in str(exc.value)
    # next turn: leaving the zone costs 1 extra point
    state.units["a"].stopped = False
    state.units["a"].spent = 0
    assert state.reach("a")[H("0303")].cost == 4


def test_enemy_hex_never_entered():
    state = Game(small_scenario(units=[unit("a", "allied", m=6), unit("g", "axis")],
                                setup={"a": "0303", "g": "0304"})).new_state()
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as exc:
        state.apply(Move("a", "0304"))
    assert "never share" in exc.value.reason
    assert state.fingerprint() == before


def test_movement_points_do_not_carry_over():
    scn = small_scenario(units=[unit("a", "allied", m=4), unit("g", "axis")], setup={"a": "0101", "g": "0909"})
    state = Game(scn).new_state()
    state.apply(Move("a", "0102"))
    for _ in range(4):
        state.apply(EndPhase())
    assert state.phase is Phase.ALLIED_MOVEMENT and state.turn == 2
    assert state.units["a"].spent == 0
    assert max(r.cost for r in state.reach("a").values()) == 8


def test_german_reinforcement_enters_with_10_mp_motorized_paying_first_hex():
    scn = small_scenario(
        terrain={"0905": "forest"},
        units=[unit("a", "allied"), unit("g", "axis", "infantry", m=4)],
        setup={"a": "0101"},
        edges={"east": ["0901", "0902", "0903", "0904", "0905"]},
        reinforcements=[{"turn": 1, "unit": "g", "entry": {"kind": "edge", "edge": "east"}}],
        rules={"entry_turn_movement": {"side": "axis", "movement": 10, "movement_class": "motorized"}},
    )
    state = Game(scn).new_state()
    state.apply(EndPhase())
    state.apply(EndPhase())
    assert Enter("g", "0905") in state.legal_actions()
    state.apply(Enter("g", "0905"))
    assert state.units["g"].spent == 6  # forest, motorized: 3 points
    assert state.movement_of("g") == (10, "motorized")
    assert max(r.cost for r in state.reach("g").values()) <= 20


def test_exit_and_return_by_the_same_edge():
    scn = small_scenario(units=[unit("a", "allied"), unit("g", "axis")], setup={"a": "0101", "g": "0909"},
                         edges={"south": ["0910", "0909", "0810"]},
                         rules={"exits": {"axis": ["south"]}, "may_return": ["axis"]})
    state = Game(scn).new_state()
    state.apply(EndPhase())
    state.apply(EndPhase())
    with pytest.raises(IllegalAction):
        state.apply(Exit("g", "east"))
    state.apply(Exit("g", "south"))
    assert state.units["g"].status == "waiting" and state.units["g"].available == 2
    state.apply(EndPhase())
    state.apply(EndPhase())
    state.apply(EndPhase())
    state.apply(EndPhase())
    assert H("0810") in state.entry_hexes("g")


def test_allied_exit_is_final_when_no_return_rule():
    scn = small_scenario(units=[unit("a", "allied"), unit("g", "axis")], setup={"a": "0110", "g": "0909"},
                         edges={"south": ["0110"]}, rules={"exits": {"allied": ["south"]}})
    state = Game(scn).new_state()
    state.apply(Exit("a", "south"))
    assert state.units["a"].status == "exited"


def test_zero_mp_unit_cannot_move():
    state = Game(small_scenario(units=[unit("gun", "allied", "coastal_artillery", m=0), unit("g", "axis")],
                                setup={"gun": "0101", "g": "0909"})).new_state()
    with pytest.raises(IllegalAction) as exc:
        state.apply(Move("gun", "0102"))
    assert "movement 0" in exc.value.reason


def test_wrong_phase_refused_with_rule():
    state = Game(small_scenario(units=[unit("a", "allied"), unit("g", "axis")],
                                setup={"a": "0101", "g": "0909"})).new_state()
    with pytest.raises(IllegalAction) as exc:
        state.apply(Move("g", "0908"))
    assert exc.value.rule == "CN 3.0"
