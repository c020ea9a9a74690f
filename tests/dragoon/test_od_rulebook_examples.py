"""Operação Dragoon's worked examples and checkable statements not proved elsewhere.

Source: the Operação Dragoon rulebook ("OD"). Each test names the rule and paraphrases
the text; the examples already proved elsewhere (the OD 4.0 movement example, the OD 5.1.1
ratio examples, the OD 6.2 and 8.0 examples at table level, every CRT and bombardment cell,
the vulnerability table, the setup, reinforcements, naval support, drops, withdrawals, maquis
and victory points) are listed in the audit report and not repeated here. Most tests run the
engine on small maps with Dragoon's own tables (``small_scenario(game="dragoon")``); a few use
the real scenario.
"""

from __future__ import annotations

import pytest

from tests.helpers import LoadedDice, small_scenario, unit
from wargame.bots.campaign_random import auto_answer
from wargame.hexgrid import Hex
from wargame.operational.actions import (
    Attack,
    Bombard,
    ChooseLoss,
    DeclareDefence,
    EndPhase,
    IllegalAction,
    Move,
)
from wargame.operational.combat import assess_bombardment
from wargame.operational.state import Game, Phase
from wargame.scenario import load_scenario


def H(hid: str) -> Hex:
    return Hex.from_id(hid)


def od_game(units, setup, **kw) -> Game:
    """A small open map with Operação Dragoon's tables."""
    return Game(small_scenario(game="dragoon", units=units, setup=setup, **kw))


def jump_to(state, phase: Phase):
    state.phase = phase
    state.edited()
    state._start_phase()
    return state


def resolve(state):
    while state.pending is not None:
        state.apply(auto_answer(state))


def load_total(state, total: int):
    """Load the two dice so that they add up to ``total``."""
    first = min(6, total - 1)
    state.dice = LoadedDice([first, total - first], state.seed)


def total_for(tables, column: int, codes: tuple[str, ...]) -> int:
    return next(t for t in range(2, 13) if tables.crt_result(column, t).split()[0] in codes)


# OD 2.4.1, 3.0 ---------------------------------------------------------------------------------
def test_od_2_4_1_fourteen_turns_of_two_days_from_15_august():
    """OD 2.4.1: turns 1 to 14, each two days, from 15/08/1944 to 11/09/1944."""
    scn = load_scenario("dragoon")
    assert (scn.first_turn, scn.last_turn) == (1, 14)
    assert scn.turn_date(1) == "1944-08-15"
    assert scn.turn_date(2) == "1944-08-17"
    assert scn.turn_date(14) == "1944-09-10"  # turn 14 covers 10 and 11 September


def test_od_3_0_sequence_allied_move_combat_then_axis_move_combat():
    """OD 3.0: Allied movement, Allied combat, Axis movement, Axis combat, then the next turn."""
    state = od_game([unit("a", "allied"), unit("g", "axis")], {"a": "0101", "g": "0909"}).new_state()
    seen = [(state.turn, state.phase.value)]
    for _ in range(4):
        state.apply(EndPhase())
        seen.append((state.turn, state.phase.value))
    assert seen == [(1, "allied_movement"), (1, "allied_combat"), (1, "axis_movement"),
                    (1, "axis_combat"), (2, "allied_movement")]


# OD 4.0 table, 4.1.1, 4.1.2 ------------------------------------------------------------------
# "TABELA DE EFEITOS DO TERRENO NA MOVIMENTAÇÃO E NO COMBATE": NÃO-MTZ, MTZ, ESPECIAIS, BLINDADOS
OD_MOVEMENT_TEXT = {
    "open": (1, 1, 1, 1),
    "city": (1, 1, 1, 1),
    "woods": (2, 3, 2, 3),
    "mountain": (3, 4, 2, None),  # PROIBIDO for armour
    "border": (None, None, None, None),  # Fronteira: PROIBIDO
    "sea": (None, None, None, None),  # Mar: PROIBIDO
}
OD_RIVER_TEXT = (1, 1, 1, 1)
OD_ROAD_TEXT = (1, 0.5, 1, 0.5)


def test_od_4_0_terrain_table_movement_costs_cell_by_cell():
    """OD 4.0 terrain table: movement points per terrain for the four movement columns."""
    tables = Game("dragoon").tables
    classes = ("non_motorized", "motorized", "special", "armour")
    assert tuple(tables.movement_classes) == classes
    for terrain, costs in OD_MOVEMENT_TEXT.items():
        assert tuple(tables.terrain[terrain].cost[c] for c in classes) == costs, terrain
    assert tuple(tables.hexsides["river"].cost[c] for c in classes) == OD_RIVER_TEXT
    assert tuple(tables.road_cost[c] for c in classes) == OD_ROAD_TEXT
    # the OD 4.0 example's paratroop pays 3 for the mountain: paratroops are NÃO-MTZ
    assert tables.unit_type("paratroop").movement_class == "non_motorized"
    assert tables.unit_type("armour").movement_class == "armour"
    assert tables.unit_type("armoured_infantry").movement_class == "motorized"


def test_od_4_0_table_on_the_engine_road_halves_for_motorized_and_armour():
    """OD 4.0 table: along a road motorized and armoured units pay 0.5 a hex, others 1."""
    terrain = {"0302": "woods", "0303": "woods", "0304": "woods"}
    units = [unit("tank", "allied", "armour", 5, 3, 8, nation="french"),
             unit("inf", "allied", "infantry", 3, 4, 5, nation="french"), unit("g", "axis")]
    state = od_game(units, {"tank": "0301", "inf": "0301", "g": "0909"}, terrain=terrain,
                    roads=[["0301", "0302", "0303", "0304"]]).new_state()
    assert state.reach("tank")[H("0304")].cost == 3  # half points: 3 x 0.5
    assert state.reach("inf")[H("0304")].cost == 6  # 3 x 1, not 3 x 2 woods
    off_road = od_game(units, {"tank": "0301", "inf": "0301", "g": "0909"}, terrain=terrain).new_state()
    assert off_road.reach("tank")[H("0302")].cost == 6  # woods: 3 for armour


def test_od_4_1_1_at_most_four_units_a_hex_but_others_may_pass_through():
    """OD 4.1.1: at most four units in a hex; other friendly units may pass through it."""
    units = [unit(f"s{i}", "allied", m=6) for i in range(5)] + [unit("g", "axis")]
    setup = {f"s{i}": "0303" for i in range(4)}
    setup.update({"s4": "0302", "g": "0909"})
    state = od_game(units, setup).new_state()
    with pytest.raises(IllegalAction) as exc:
        state.apply(Move("s4", "0303"))
    assert exc.value.rule == "OD 4.1.1"
    state.apply(Move("s4", "0304"))  # through the full stack
    assert state.units["s4"].hex == H("0304") and state.units["s4"].spent == 4


def test_od_4_1_2_example_dominant_mountain_against_open_need_not_attack():
    """OD 4.1.2 example: an Allied unit starting its turn in a mountain hex, engaged with a
    German unit in the open, need neither retreat nor attack; another unit that moves into the
    German's zone of engagement must attack."""
    units = [unit("a", "allied"), unit("b", "allied"), unit("g", "axis")]
    setup = {"a": "0304", "b": "0308", "g": "0305"}
    state = od_game(units, setup, terrain={"0304": "mountain"}).new_state()
    state.apply(EndPhase())
    assert state.must_attack == set()
    state.apply(EndPhase())  # no obligation to attack
    assert state.phase is Phase.AXIS_MOVEMENT
    # the same turn, but another unit moves into the zone of engagement: it must attack
    state = od_game(units, setup, terrain={"0304": "mountain"}).new_state()
    state.apply(Move("b", "0306"))
    state.apply(EndPhase())
    assert state.must_attack == {"b"}
    with pytest.raises(IllegalAction) as exc:
        state.apply(EndPhase())
    assert exc.value.rule == "OD 4.1.2"
    # without the mountain the first unit is not dominant and must attack
    state = od_game(units, setup).new_state()
    state.apply(EndPhase())
    assert "a" in state.must_attack


# OD 4.2.2 -------------------------------------------------------------------------------------
def test_od_4_2_2_encircled_148th_withdrawn_as_soon_as_freed():
    """OD 4.2.2: the 148th ID is withdrawn on turn 5 unless encircled, and "as soon as freed"."""
    game = Game("dragoon")
    state = game.new_state(5)
    for us in state.units.values():
        us.status, us.hex, us.reduced = "waiting", None, False
    placements = {"de-ri1-148": "1421", "de-ri2-148": "1521", "de-ri3-148": "1620", "us-7-3": "1420",
                  "us-15-3": "1520", "us-30-3": "1522", "us-141-36": "1422", "us-142-36": "1321"}
    for uid, hid in placements.items():
        state.units[uid].status, state.units[uid].hex = "on_map", H(hid)
    state.turn = 5
    state.edited()
    state._start_turn()
    held = [u for u in ("de-ri1-148", "de-ri2-148") if state.units[u].status == "on_map"]
    assert held and all(state.encircled(state.units[u].hex, "axis") for u in held)
    for uid in ("us-7-3", "us-15-3", "us-30-3", "us-141-36", "us-142-36"):
        state.units[uid].status, state.units[uid].hex = "waiting", None
    state.turn = 6
    state.edited()
    state._start_turn()
    assert all(state.units[u].status == "withdrawn" for u in ("de-ri1-148", "de-ri2-148", "de-ri3-148"))
    assert any(e.kind == "withdrawn" and e.rule == "OD 4.2.2" for e in state.events)


# OD 5.1.5, 5.2, 5.3 -------------------------------------------------------------------------
def test_od_5_1_5_two_dice_are_added_2_and_3_make_5():
    """OD 5.1.5: two dice are rolled and added (2 on one and 3 on the other give 5)."""
    state = od_game([unit("a", "allied", a=3), unit("g", "axis", d=3)], {"a": "0303", "g": "0304"}).new_state()
    state.apply(EndPhase())
    state.dice = LoadedDice([2, 3])
    state.apply(Attack("0304", ("a",)))
    roll = next(e for e in state.events if e.kind == "roll")
    assert (roll.data["dice"], roll.data["total"]) == ("2+3", 5)
    assert roll.data["result"] == "DVB ARB"  # OD CRT, row 5-9, column 1-1


def _retreat_into_the_void(void_terrain: str):
    # g in 0303: the attacker holds 0302, every other neighbour is frontier or sea
    terrain = {n.id: void_terrain for n in H("0303").neighbours() if n.id != "0302"}
    units = [unit("a", "allied", a=9), unit("g", "axis", d=3)]
    state = od_game(units, {"a": "0302", "g": "0303"}, terrain=terrain, cols=5, rows=5).new_state()
    state.apply(EndPhase())
    state.air_points["allied"] = 0
    column = state.preview_attack("0303", ("a",)).column
    load_total(state, total_for(state.game.tables, column, ("DRI",)))
    state.apply(Attack("0303", ("a",)))
    resolve(state)
    return state


@pytest.mark.parametrize("void_terrain", ["border", "sea"])
def test_od_5_3_retreat_into_switzerland_or_the_sea_destroys(void_terrain):
    """OD 5.3 observations: units retreating into Switzerland or the sea are destroyed."""
    state = _retreat_into_the_void(void_terrain)
    assert state.units["g"].status == "eliminated"


def _river_retreat(type_: str):
    units = [unit("a", "allied", a=9), unit("d", "axis", type_, d=3)]
    rivers = [("0304", n) for n in ("0305", "0204", "0404", "0205", "0405")]  # all but 0303
    state = od_game(units, {"a": "0303", "d": "0304"}, rivers=rivers).new_state()
    state.apply(EndPhase())
    state.air_points["allied"] = 0
    column = state.preview_attack("0304", ("a",)).column
    load_total(state, total_for(state.game.tables, column, ("DRI",)))
    state.apply(Attack("0304", ("a",)))
    while state.pending is not None and state.pending.kind != "advance":
        state.apply(state.pending.options[0] if state.pending.kind == "retreat" else auto_answer(state))
    return state


def test_od_5_3_2_armour_retreating_across_a_river_takes_a_loss_others_do_not():
    """OD 5.3.2: an armoured unit retreating across a river takes a loss; other types do not."""
    tank = _river_retreat("armour")
    assert tank.units["d"].status == "on_map" and tank.units["d"].reduced
    assert tank.game.board.river_between(H("0304"), tank.units["d"].hex)
    foot = _river_retreat("infantry")
    assert foot.units["d"].status == "on_map" and not foot.units["d"].reduced
    assert foot.game.board.river_between(H("0304"), foot.units["d"].hex)


def test_od_5_2_advance_infantry_one_hex_armour_two_artillery_none():
    """OD 5.2: after a win motorized units may advance two hexes (open, then open or city),
    non-motorized only into the vacated hex, artillery does not advance."""
    units = [unit("inf", "allied", "infantry", 3, 4, 5, nation="french"),
             unit("tank", "allied", "armour", 5, 3, 8, nation="french"),
             unit("gun", "allied", "artillery", 2, 1, 4, nation="french", rng=2),
             unit("g", "axis", d=1)]
    state = od_game(units, {"inf": "0504", "tank": "0504", "gun": "0504", "g": "0505"}, cols=9, rows=9).new_state()
    state.apply(EndPhase())
    state.air_points["allied"] = 0
    attackers = ("inf", "tank", "gun")
    column = state.preview_attack("0505", attackers).column
    load_total(state, total_for(state.game.tables, column, ("DRI", "DRB")))
    state.apply(Attack("0505", attackers))
    while state.pending is not None and state.pending.kind != "advance":
        state.apply(auto_answer(state))
    assert state.pending is not None and state.pending.kind == "advance"
    paths: dict[str, set[int]] = {}
    for o in state.pending.options:
        if getattr(o, "path", ()):
            paths.setdefault(o.unit, set()).add(len(o.path))
    assert paths.get("inf") == {1}
    assert paths.get("tank") == {1, 2}
    assert "gun" not in paths


# OD 6.0-6.2 -----------------------------------------------------------------------------------
def test_od_6_2_air_strike_example_on_the_engine():
    """OD 6.2 example: two German infantry and one armour, 6 air points: vulnerability 4
    (2x1 + 2), value 24, column 13-24; in an open hex with a fortification one column to the
    left: 1-12."""
    units = [unit("a", "allied"), unit("i1", "axis"), unit("i2", "axis"), unit("t", "axis", "armour")]
    setup = {"a": "0101", "i1": "0505", "i2": "0505", "t": "0505"}
    state = od_game(units, setup).new_state()
    state.apply(EndPhase())
    ba = assess_bombardment(state, H("0505"), (), 6)
    assert (ba.strength, ba.vulnerability, ba.value, ba.column_label) == (6, 4, 24, "13-24")
    state.dice = LoadedDice([3, 4])  # 7: DI in every column
    state.apply(Bombard("0505", (), 6))
    assert state.air_points["allied"] == 30 - 6
    assert any(e.kind == "bombard" and e.data["column"] == "13-24" and e.rule == "OD 6.2" for e in state.events)
    fortified = od_game(units, setup, flags={"0505": {"fortification": True}}).new_state()
    fortified.apply(EndPhase())
    ba = assess_bombardment(fortified, H("0505"), (), 6)
    assert (ba.value, ba.base_column, ba.column_label) == (24, 1, "1-12")
    assert [s.columns for s in ba.shifts] == [-1]


def test_od_6_2_unused_air_points_are_not_carried_over():
    """OD 6.0, 6.2 observations: 30 air points a turn; unused points do not accumulate."""
    units = [unit("a", "allied"), unit("g", "axis")]
    state = od_game(units, {"a": "0101", "g": "0505"}).new_state()
    assert state.air_points["allied"] == 30
    state.apply(EndPhase())
    state.apply(Bombard("0505", (), 3))
    assert state.air_points["allied"] == 27
    for _ in range(3):
        state.apply(EndPhase())
    assert state.turn == 2 and state.air_points["allied"] == 30
    for _ in range(4):
        state.apply(EndPhase())  # 30 unused on turn 2
    assert state.turn == 3 and state.air_points["allied"] == 30
    assert state.air_points["axis"] == 0  # OD 6.0: only the Allies have air power


def test_od_6_1_air_points_also_support_the_allied_defence():
    """OD 6.1: the Allies may spend air points defending in the enemy combat phase; the points
    are taken off the track and count as strength (OD 6.2: "deve incluir o poder aéreo")."""
    units = [unit("a", "allied", d=4), unit("g", "axis", a=6)]
    state = od_game(units, {"a": "0303", "g": "0304"}).new_state()
    jump_to(state, Phase.AXIS_COMBAT)
    state.apply(Attack("0303", ("g",)))
    assert state.pending is not None and state.pending.kind == "defence" and state.pending.side == "allied"
    assert max(o.air for o in state.pending.options) == 10  # at most 10 a combat
    with pytest.raises(IllegalAction):
        state.apply(DeclareDefence(11, ()))
    state.dice = LoadedDice([3, 4])
    state.apply(DeclareDefence(5, ()))
    assert state.air_points["allied"] == 25
    attack = next(e for e in state.events if e.kind == "attack")
    assert (attack.data["attack"], attack.data["defence"]) == (6, 4 + 5)
    resolve(state)


# OD 7.0 ----------------------------------------------------------------------------------------
def test_od_7_0_a_loss_halves_rounded_up_keeps_movement_second_loss_eliminates():
    """OD 7.0: a unit with losses is flipped, its combat values halved rounded up; losses do
    not affect movement; a second loss eliminates it. (The 6th RTS of OD 2.2.1: 3-4-5.)"""
    game = Game("dragoon")
    state = game.new_state(0)
    for us in state.units.values():
        us.status, us.hex = "waiting", None
    state.units["fr-6rts-9dic"].status, state.units["fr-6rts-9dic"].hex = "on_map", H("0911")
    state.units["de-765-242"].status, state.units["de-765-242"].hex = "on_map", H("0305")
    state.edited()
    intact_reach = {h: r.cost for h, r in state.reach("fr-6rts-9dic").items()}
    assert (state.attack_of("fr-6rts-9dic"), state.defence_of("fr-6rts-9dic")) == (3, 4)
    state.take_loss("fr-6rts-9dic", "OD 7.0")
    assert state.units["fr-6rts-9dic"].reduced
    assert (state.attack_of("fr-6rts-9dic"), state.defence_of("fr-6rts-9dic")) == (2, 2)
    assert state.movement_of("fr-6rts-9dic")[0] == 5
    state.edited()
    assert {h: r.cost for h, r in state.reach("fr-6rts-9dic").items()} == intact_reach
    state.take_loss("fr-6rts-9dic", "OD 7.0")
    assert state.units["fr-6rts-9dic"].status == "eliminated"


# OD 8.0 ----------------------------------------------------------------------------------------
def _od_8_0_state():
    units = [unit("art1", "axis", "artillery", 1, 1, 3, rng=2), unit("art2", "axis", "artillery", 1, 1, 3, rng=2),
             unit("arm", "allied", "armour", 5, 3, 8, nation="french"),
             unit("mot", "allied", "armoured_infantry", 3, 3, 6, nation="french")]
    # a river between the guns and the target: bombardment ignores rivers (OD 8.0 "exceto rio")
    state = od_game(units, {"art1": "0306", "art2": "0306", "arm": "0304", "mot": "0304"},
                    rivers=[("0304", "0305"), ("0305", "0306")]).new_state()
    return jump_to(state, Phase.AXIS_COMBAT)


def test_od_8_0_artillery_example_on_the_engine():
    """OD 8.0 example: two German 1-1-3 artillery bombard a hex with a French armoured and a
    motorized infantry unit: strength 2 (2x1), vulnerability 3 (1 + 2), value 6: column 1-12;
    rivers do not count."""
    state = _od_8_0_state()
    assert set(state.artillery_in_range("axis", H("0304"))) == {"art1", "art2"}
    ba = assess_bombardment(state, H("0304"), ("art1", "art2"), 0)
    assert (ba.strength, ba.vulnerability, ba.value, ba.column_label) == (2, 3, 6, "1-12")
    assert ba.shifts == ()
    state.dice = LoadedDice([1, 1])  # 2: DB in column 1-12
    state.apply(Bombard("0304", ("art1", "art2")))
    assert any(e.kind == "bombard" and e.data["column"] == "1-12" and e.rule == "OD 8.0" for e in state.events)
    assert state.pending is not None and state.pending.kind == "loss" and state.pending.side == "allied"
    state.apply(ChooseLoss("mot"))
    assert state.units["mot"].reduced and not state.units["arm"].reduced


def test_od_8_0_one_combat_per_gun_a_phase_and_no_hex_attacked_twice_a_turn():
    """OD 8.0 observations: an artillery unit joins one combat a phase; the same target hex
    cannot be attacked twice in a turn, even by two kinds of attack."""
    units = [unit("a", "allied", a=6), unit("art", "allied", "artillery", 2, 1, 4, rng=4),
             unit("g1", "axis"), unit("g2", "axis")]
    state = od_game(units, {"a": "0304", "art": "0303", "g1": "0305", "g2": "0307"}).new_state()
    state.apply(EndPhase())
    state.dice = LoadedDice([3, 4])  # 7: DI
    state.apply(Bombard("0307", ("art",)))
    resolve(state)
    with pytest.raises(IllegalAction) as exc:
        state.apply(Attack("0305", ("a",), artillery=("art",)))
    assert exc.value.rule == "OD 8.0"
    with pytest.raises(IllegalAction) as exc:
        state.apply(Bombard("0307", (), 5))  # air after artillery on the same hex
    assert "already attacked" in exc.value.reason
    assert exc.value.rule == "OD 8.0"  # OD 8.0 observations (CN has the sentence in 6.0)
    state.apply(Attack("0305", ("a",)))  # the other hex, without the gun: allowed
    resolve(state)


# OD 10.0 --------------------------------------------------------------------------------------
def test_od_10_0_guerrillas_get_no_artillery_unless_stacked():
    """OD 10.0: guerrillas receive neither air nor artillery support unless they share the hex
    with other Allied units (air is proved in test_dragoon_rules; this is the artillery)."""
    units = [unit("ffi", "allied", "guerrilla", 1, 2, 5, nation="french"),
             unit("inf", "allied", nation="french"),
             unit("art", "allied", "artillery", 2, 1, 4, nation="french", rng=2),
             unit("g", "axis")]
    alone = od_game(units, {"ffi": "0303", "inf": "0101", "art": "0302", "g": "0304"}).new_state()
    jump_to(alone, Phase.ALLIED_COMBAT)
    with pytest.raises(IllegalAction) as exc:
        alone.apply(Attack("0304", ("ffi",), artillery=("art",)))
    assert exc.value.rule == "OD 10.0"
    stacked = od_game(units, {"ffi": "0303", "inf": "0303", "art": "0302", "g": "0304"}).new_state()
    jump_to(stacked, Phase.ALLIED_COMBAT)
    stacked.apply(Attack("0304", ("ffi", "inf"), artillery=("art",)))
    assert stacked.units["art"].fired


def test_od_10_0_germans_forced_into_maquis_get_no_artillery_when_attacking():
    """OD 10.0 (and 5.3 observations): German units forced into a maquis area "não podem
    receber apoio de artilharia de nenhum tipo" - attacking as well as defending."""
    units = [unit("a", "allied"), unit("g", "axis"), unit("art", "axis", "artillery", 1, 1, 3, rng=2)]
    state = od_game(units, {"a": "0303", "g": "0304", "art": "0305"},
                    flags={"0304": {"maquis": True}}, rules={"maquis_areas": {"closed_to": ["axis"]}}).new_state()
    state.units["g"].in_maquis = True
    jump_to(state, Phase.AXIS_COMBAT)
    assert "art" in state.artillery_in_range("axis", H("0303"))
    with pytest.raises(IllegalAction) as exc:
        state.apply(Attack("0303", ("g",), artillery=("art",)))
    assert exc.value.rule == "OD 10.0"


def _maquis_defence(in_maquis: bool, air: int):
    """An Allied attack on a German unit in a maquis hex with German artillery in range."""
    units = [unit("a", "allied", a=6), unit("g", "axis"),
             unit("art", "axis", "artillery", 1, 1, 3, rng=2)]
    state = od_game(units, {"a": "0303", "g": "0304", "art": "0306"},
                    flags={"0304": {"maquis": True}},
                    rules={"maquis_areas": {"closed_to": ["axis"]}}).new_state()
    state.units["g"].in_maquis = in_maquis
    state.air_points["axis"] = air
    jump_to(state, Phase.ALLIED_COMBAT)
    assert "art" in state.artillery_in_range("axis", H("0304"))
    state.apply(Attack("0304", ("a",)))
    return state


def test_od_10_0_germans_forced_into_maquis_are_offered_no_artillery_in_defence():
    """OD 10.0: German units forced into a maquis area "não podem receber apoio de artilharia
    de nenhum tipo". The defence answers offered leave the guns out (they were offered, then
    refused: issue 30, Dragoon seed 1000147); air points, which are not artillery, stay."""
    # control: outside the rule the gun is offered, and accepted
    free = _maquis_defence(in_maquis=False, air=0)
    assert free.pending is not None and free.pending.kind == "defence"
    assert DeclareDefence(0, ("art",)) in free.pending.options
    # forced into the maquis, without air points: nothing to declare, the attack is rolled
    forced = _maquis_defence(in_maquis=True, air=0)
    assert forced.pending is None or forced.pending.kind != "defence"
    assert forced.defence_answers(H("0304")) == ()
    # with air points: no answer names the gun, and every answer offered is accepted
    forced = _maquis_defence(in_maquis=True, air=4)
    assert forced.pending is not None and forced.pending.kind == "defence"
    options = forced.pending.options
    assert [o.artillery for o in options] == [(), ()]
    assert [o.air for o in options] == [0, min(4, forced.game.tables.air.strike_max)]
    for option in options:
        forced.clone().apply(option)
    with pytest.raises(IllegalAction) as exc:
        forced.clone().apply(DeclareDefence(0, ("art",)))
    assert exc.value.rule == "OD 10.0"
