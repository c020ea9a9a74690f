"""Special rules carried as named options: Mulberries (CN 9.0), withdrawals (CN/OD 4.2.2),
maquis (OD 10.0), naval support (OD 9.0), drops that wait for contact (OD 4.2.3), Mulberry
landings (CN 9.0), turn-0 landings from the sea (CN 11.1.1)."""

import pytest

from tests.helpers import small_scenario, unit
from wargame.hexgrid import Hex
from wargame.operational.actions import Attack, EndPhase, Enter, IllegalAction, Move
from wargame.operational.state import Game


def H(hid):
    return Hex.from_id(hid)


def end_turn(state):
    for _ in range(4):
        state.apply(EndPhase())


MULBERRY = {"install_turn": 4, "delay_turns": 4, "storm_turn": 5, "penalty_turn": 9, "port": "0909",
            "harbours": [{"name": "American", "hex": "0101", "landing": "0202"},
                         {"name": "British", "hex": "0501", "landing": "0502"}]}


def mulberry_game(first_turn=0):
    units = [unit("us", "allied"), unit("uk", "allied", nation="british"), unit("g", "axis"),
             unit("late", "allied")]
    return Game(small_scenario(
        units=units, setup={"us": "0202", "uk": "0707", "g": "0905"}, turns=(first_turn, 12),
        terrain={"0101": "sea", "0501": "sea"}, places={"Omaha": ["0202"]},
        reinforcements=[{"turn": 4, "unit": "late", "entry": {"kind": "beach", "beaches": ["Omaha"]}}],
        rules={"mulberries": MULBERRY}))


def test_mulberry_installed_on_turn_4_when_landing_hex_taken_on_turn_0(load_dice):
    state = mulberry_game().new_state()
    for _ in range(4):
        end_turn(state)
    assert state.turn == 4
    assert state.flags["mulberries"]["American"] == "operating"
    # the British landing hex was never taken: not installed
    assert state.flags["mulberries"]["British"] == "planned"
    # CN 9.0: units landing at a working Mulberry do not pay the landing hex's terrain
    assert state._entry_cost("late", H("0202")) == 0
    state.apply(Enter("late", "0202"))
    assert state.units["late"].spent == 0


def test_mulberry_storm_on_turn_5_odd_destroys(load_dice):
    state = mulberry_game().new_state()
    for _ in range(4):
        end_turn(state)
    load_dice(state, 3)  # odd: destroyed
    end_turn(state)
    assert state.turn == 5 and state.flags["mulberries"]["American"] == "destroyed"


def test_mulberry_penalty_from_turn_9_until_cherbourg():
    state = mulberry_game().new_state()
    state.flags["mulberries"] = {"American": "operating", "British": "destroyed"}
    state.turn = 9
    assert state.mulberry_penalty() == 1
    assert [s.columns for s in state.turn_shifts("allied")] == [-1]
    assert [s.columns for s in state.turn_shifts("axis")] == [1]  # Allies defending lose it too
    state.flags["mulberries"] = {"American": "destroyed", "British": "destroyed"}
    assert state.mulberry_penalty() == 2  # also no recovery, no artillery-only attacks
    state.control[H("0909")] = "allied"
    assert state.mulberry_penalty() == 0  # CN 9.0: ignored once Cherbourg is Allied


def test_withdrawal_unless_encircled():
    divs = {"us-82": {"name": "82nd Airborne", "nation": "american"}}
    units = [unit("p1", "allied", "paratroop", division="us-82"), unit("p2", "allied", "paratroop", division="us-82"),
             unit("g1", "axis"), unit("g2", "axis")]
    scn = small_scenario(units=units, divisions=divs, setup={"p1": "0303", "p2": "0101", "g1": "0202", "g2": "0102"},
                         turns=(12, 14), rules={"withdrawals": [{"turn": 13, "divisions": ["us-82"]}]})
    state = Game(scn).new_state()
    # p2 in the corner 0101 has neighbours 0102, 0201, 0202 only: 0102/0202 enemy, 0201 in zones
    assert state.encircled(H("0101"), "allied")
    state.units["g1"].status = "on_map"
    state.must_attack = set()
    state.phase = state.phase.__class__("axis_combat")
    state.apply(EndPhase())
    assert state.turn == 13
    assert state.units["p1"].status == "withdrawn"
    assert state.units["p2"].status == "on_map"  # encircled: stays until freed


def test_maquis_closed_to_axis_and_loss_then_elimination():
    units = [unit("fr", "allied", "guerrilla", nation="french"), unit("g", "axis")]
    scn = small_scenario(game="dragoon", units=units, setup={"fr": "0101", "g": "0505"},
                         flags={"0506": {"maquis": True}, "0606": {"maquis": True}},
                         rules={"maquis_areas": {"closed_to": ["axis"]}})
    state = Game(scn).new_state()
    state.apply(EndPhase())
    state.apply(EndPhase())
    with pytest.raises(IllegalAction):
        state.apply(Move("g", "0506"))  # OD 10.0: only Allied units move through maquis areas
    # a retreat put it there: loss at the end of its movement phase, then elimination
    state.units["g"].hex = H("0506")
    state.units["g"].in_maquis = True
    state.edited()
    state.apply(EndPhase())
    assert state.units["g"].reduced
    state.apply(EndPhase())
    end_turn(state)
    state.apply(EndPhase())
    state.apply(EndPhase())
    state.apply(EndPhase())
    assert state.units["g"].status == "eliminated"


def test_maquis_column_penalty_for_units_forced_there():
    units = [unit("a", "allied", a=6), unit("g", "axis", d=3)]
    scn = small_scenario(game="dragoon", units=units, setup={"a": "0303", "g": "0304"},
                         rules={"maquis_areas": {"closed_to": ["axis"]}})
    state = Game(scn).new_state()
    state.units["g"].in_maquis = True
    state.apply(EndPhase())
    shifts = state.preview_attack("0304", ("a",)).shifts
    assert [(s.columns, s.rule) for s in shifts] == [(1, "OD 10.0")]


def test_od_naval_support_two_columns_on_coast_hexes():
    units = [unit("a", "allied", a=6), unit("g", "axis", d=3), unit("h", "axis", d=3)]
    scn = small_scenario(game="dragoon", units=units, setup={"a": "0303", "g": "0302", "h": "0305"},
                         terrain={"0301": "sea"}, rules={"naval_support": {"columns": 2, "coast_hexes": True, "rule": "OD 9.0"}})
    state = Game(scn).new_state()
    state.apply(Move("a", "0304"))
    state = Game(scn).new_state()
    assert state.naval_support_columns(H("0302"), ("a",)) == 2
    assert state.naval_support_columns(H("0305"), ("a",)) == 0


def test_od_drop_units_move_only_after_contact():
    units = [unit("p", "allied", "paratroop"), unit("inf", "allied"), unit("g", "axis")]
    scn = small_scenario(game="dragoon", units=units, setup={"p": "0505", "inf": "0101", "g": "0909"},
                         rules={"drop_units_wait_contact": {"units": ["p"]}})
    state = Game(scn).new_state()
    with pytest.raises(IllegalAction) as exc:
        state.apply(Move("p", "0506"))
    assert exc.value.rule == "OD 4.2.3"
    state.apply(Move("inf", "0405"))
    state.apply(Move("p", "0506"))
    assert state.units["p"].hex == H("0506")
    end_turn(state)
    state.apply(Move("inf", "0101"))
    state.apply(Move("p", "0507"))  # once in contact, free to move
    assert state.units["p"].hex == H("0507")


def test_turn_0_landing_unit_attacks_from_the_sea_and_lands_or_dies(load_dice):
    units = [unit("inf", "allied", a=9), unit("g", "axis", d=1), unit("inf2", "allied", a=1), unit("g2", "axis", d=9)]
    scn = small_scenario(units=units, setup={"inf": "0302", "g": "0302", "inf2": "0707", "g2": "0707"},
                         terrain={"0301": "sea"}, turns=(0, 2),
                         rules={"setup_landings": {"side": "allied"}})
    state = Game(scn).new_state()
    assert state.units["inf"].status == "at_sea" and state.units["inf2"].status == "at_sea"
    state.apply(EndPhase())
    with pytest.raises(IllegalAction):
        state.apply(EndPhase())  # landing units must attack their hex
    load_dice(state, 1, 1, 3, 4)
    state.apply(Attack("0302", ("inf",)))  # 9-1, 2: DE AVI
    while state.pending:
        state.apply(state.pending.options[0])
    assert state.units["g"].status == "eliminated"
    assert state.units["inf"].status == "on_map" and state.units["inf"].hex == H("0302")
    state.apply(Attack("0707", ("inf2",)))  # 1 vs 9 = 1-3 (clamped), 7: DVI AE
    while state.pending:
        state.apply(state.pending.options[0])
    state.apply(EndPhase())
    assert state.units["inf2"].status == "eliminated"


@pytest.mark.parametrize("passing, taken", [(None, True), (True, True), (False, False)])
def test_a_city_passed_through_changes_hands_unless_control_is_where_moves_end(passing, taken):
    """CN/OD 11.2, our reading (docs/rules-notes.md "Control and victory"): a unit that passes
    through an empty enemy city takes it. A study's what-if can ask for the stricter reading,
    ``control_on_passing: false``: only the hex where the move ends changes hands."""
    rules = {} if passing is None else {"control_on_passing": passing}
    scn = small_scenario(units=[unit("a", "allied", m=8), unit("g", "axis")],
                         setup={"a": "0303", "g": "0909"}, terrain={"0403": "city"},
                         turns=(1, 5), rules=rules)
    state = Game(scn).new_state()
    assert state.phase == "allied_movement"
    assert state.control[H("0403")] == "axis"  # cities start German (CN 11.0)
    state.apply(Move("a", "0603", path=("0403", "0503", "0603")))
    assert state.units["a"].at == H("0603")
    assert (state.control[H("0403")] == "allied") is taken
