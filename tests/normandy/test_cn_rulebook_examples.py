"""Campanha da Normandia: the rulebook's worked examples and checkable statements that had no
test elsewhere (the Campanha da Normandia rulebook, "CN"). One test per example or statement,
named after its section; the docstring quotes the rule. Examples already proved elsewhere
(CN 4.0 on a synthetic map, 5.1.1 11/4, 6.2, 8.0, 11.1 lists, ...) are not repeated here:
see tests/operational, tests/normandy/test_map.py, test_counters.py, test_normandy_rules.py."""

from __future__ import annotations

import pytest

from tests.helpers import LoadedDice, small_scenario, unit
from wargame.hexgrid import Hex
from wargame.operational.actions import (
    Advance,
    Attack,
    Bombard,
    CarpetBomb,
    ChooseLoss,
    EndPhase,
    Enter,
    IllegalAction,
    Move,
    Retreat,
)
from wargame.operational.state import Game, Phase


def H(hid: str) -> Hex:
    return Hex.from_id(hid)




def load(state, *values: int):
    state.dice = LoadedDice(list(values), state.seed)
    return state


def game(units, setup, **kw) -> Game:
    return Game(small_scenario(units=units, setup=setup, **kw))


def to_allied_combat(state):
    state.apply(EndPhase())
    assert state.phase is Phase.ALLIED_COMBAT
    state.air_points["allied"] = 0  # no defence air for the Germans to declare either way
    return state


def dice_for(state, column: int, wanted) -> tuple[int, int]:
    """Two dice whose total reads ``wanted`` (a result or a predicate) in CRT ``column``."""
    tables = state.game.tables
    for total in range(2, 13):
        result = tables.crt_result(column, total)
        if (wanted(result) if callable(wanted) else result == wanted):
            return min(6, total - 1), total - min(6, total - 1)
    raise AssertionError(f"no total gives {wanted} in column {tables.crt_columns[column]}")


def attack_with(state, target: str, attackers: tuple[str, ...], wanted):
    """Attack with dice loaded to give ``wanted`` in the column the attack is resolved at."""
    column = state.preview_attack(target, attackers).column
    load(state, *dice_for(state, column, wanted))
    state.apply(Attack(target, attackers))
    return state


# --------------------------------------------------------------------------- the campaign
@pytest.fixture(scope="module")
def normandy() -> Game:
    return Game("normandy")


def bare(game_: Game, placement: dict[str, str], *, turn: int = 2, phase: Phase = Phase.ALLIED_MOVEMENT,
         seed: int = 1):
    """The campaign with only the units of ``placement`` on the map, at ``turn`` and ``phase``."""
    state = game_.new_state(seed)
    for uid, us in state.units.items():
        if uid in placement:
            us.status, us.hex, us.reduced, us.spent = "on_map", H(placement[uid]), False, 0
        elif us.status in ("on_map", "at_sea"):
            us.status, us.hex = "eliminated", None
    state.turn, state.phase = turn, phase
    state.must_attack = set()
    state.edited()
    return state


# ----------------------------------------------------------------------------- CN 4.0
def test_cn_4_0_example_on_the_real_map_through_the_engine(normandy):
    """CN 4.0: a British 4-4-15 motorized unit from Arromanches to Caumont spends
    1 + 2 + 1 + 1 + 2 x 0.5 + 2 + 3 + 2 x 2 = 15 points, "e terá que parar aí". The engine's
    own movement search on the reconstructed map (tests/normandy/test_map.py checks the map with
    a separate cost function; tests/operational the engine on a synthetic map)."""
    uid = "gb-131-7ad"
    d = normandy.units[uid]
    assert (d.nation, d.type, d.attack, d.defence, d.movement) == ("british", "motorized_infantry", 4, 4, 15)
    state = bare(normandy, {uid: "2410"})
    reach = state.reach(uid)
    assert reach[H("2212")].cost == 2 * 5  # Bayeux after 1 + 2 (the Aure) + 1 + 1
    assert reach[H("2016")].cost == 2 * 15  # Caumont: exactly the 15 points
    state.apply(Move(uid, "2016"))
    assert state.units[uid].spent == 30
    assert state.legal_destinations(uid) == {}  # "terá que parar aí"


# ----------------------------------------------------------------------------- CN 4.1.2
def test_cn_4_1_2_example_dominant_city_but_a_unit_moving_in_must_attack():
    """CN 4.1.2 example: an Allied unit that starts the turn in a city engaged with a German
    unit in the open need not retreat nor attack (dominant terrain); "contudo, se alguma outra
    unidade se mover para a Zona de Engajamento inimiga, esta terá que atacar"."""
    g = game([unit("a", "allied"), unit("b", "allied"), unit("g", "axis")],
             {"a": "0304", "g": "0305", "b": "0308"}, terrain={"0304": "city"})
    s = g.new_state()
    s.apply(Move("b", "0306"))
    s = to_allied_combat(s)
    assert s.must_attack == {"b"}
    with pytest.raises(IllegalAction) as exc:
        s.apply(EndPhase())
    assert exc.value.rule == "CN 4.1.2" and "b is engaged" in exc.value.reason
    attack_with(s, "0305", ("b",), "IMP")
    s.apply(EndPhase())  # the unit in the city never had to join the attack
    assert not s.units["a"].attacked and s.phase is Phase.AXIS_MOVEMENT


# ----------------------------------------------------------------------------- CN 4.2.2
def test_cn_4_2_2_airborne_divisions_withdrawn_on_turn_13(normandy):
    """CN 4.2.2: "As seguintes unidades são retiradas do tabuleiro no Turno 13 ...: 82ª e 101ª
    Divisões Aeroterrestres americanas" (the campaign's data; the encircled case is
    test_withdrawal_unless_encircled)."""
    airborne = sorted(u for u, d in normandy.units.items() if d.division in ("us-82", "us-101"))
    assert len(airborne) == 8
    placement = {u: h for u, h in zip(airborne, ["1309", "1309", "1309", "1309", "1510", "1510", "1510", "1510"],
                                      strict=True)}
    state = bare(normandy, placement, turn=12, phase=Phase.AXIS_COMBAT)
    state.apply(EndPhase())
    assert state.turn == 12 + 1
    assert all(state.units[u].status == "withdrawn" for u in airborne)


# ----------------------------------------------------------------------------- CN 4.2.3
def test_cn_4_2_3_turn_0_paratroops_do_not_move(normandy):
    """CN 4.2.3: "As unidades paraquedistas aliadas que saltam no Turno 0 não se movem (exceto
    por resultado de combate)"; from turn 1 they move."""
    state = normandy.new_state(1)
    uid = "us-505-82"
    assert state.units[uid].status == "on_map" and state.turn == 0
    assert state.legal_destinations(uid) == {}
    with pytest.raises(IllegalAction) as exc:
        state.apply(Move(uid, "1108"))
    assert exc.value.rule == "CN 4.2.3"
    later = bare(normandy, {uid: "1109"}, turn=1)
    assert later.legal_destinations(uid)


# ----------------------------------------------------------------------------- CN 5.1.1
def test_cn_5_1_1_turn_5_allied_attacks_lose_a_column_in_the_campaign(normandy):
    """CN 5.1.1: "No Turno 5, o jogador aliado 'perde' uma coluna (à esquerda) quando atacando"
    (the campaign's data: turn 5 only, Allied attacks only)."""
    placement = {"us-8-4": "1210", "de-919-709": "1211"}
    for turn, expected in ((4, False), (5, True), (6, False)):
        state = bare(normandy, placement, turn=turn, phase=Phase.ALLIED_COMBAT)
        shifts = state.preview_attack("1211", ("us-8-4",)).shifts
        assert any(x.rule == "CN 5.1.1" and x.columns == -1 for x in shifts) is expected, turn
    german = bare(normandy, placement, turn=5, phase=Phase.AXIS_COMBAT)
    assert not any(x.rule == "CN 5.1.1" for x in german.preview_attack("1210", ("de-919-709",)).shifts)


# ----------------------------------------------------------------------------- CN 5.1.2
def test_cn_5_1_2_germans_in_any_coast_hex_get_a_column(normandy):
    """CN 5.1.2: "Os alemães recebem uma coluna à esquerda quando atacados em qualquer hexágono
    de costa, devido às fortificações, ao longo de toda a partida"; the Allies do not."""
    board = normandy.board
    assert H("2510") in board.coast and H("2212") not in board.coast
    state = bare(normandy, {"gb-69-50": "2410", "ru-ost-716": "2510", "gb-151-50": "2211",
                            "de-flak-1": "2212"}, turn=12, phase=Phase.ALLIED_COMBAT)
    coast = state.preview_attack("2510", ("gb-69-50",)).shifts
    assert ("coastal fortifications", -1, "CN 5.1.2") in [(x.reason, x.columns, x.rule) for x in coast]
    inland = state.preview_attack("2212", ("gb-151-50",)).shifts
    assert not any(x.reason == "coastal fortifications" for x in inland)
    allied_coast = bare(normandy, {"gb-69-50": "2510", "ru-ost-716": "2410"}, turn=12, phase=Phase.AXIS_COMBAT)
    assert not any(x.reason == "coastal fortifications"
                   for x in allied_coast.preview_attack("2510", ("ru-ost-716",)).shifts)


@pytest.mark.parametrize("terrain", ["marsh", "hill"])
def test_cn_5_1_2_armour_may_attack_into_marsh_and_hills(terrain):
    """CN 5.1.2: armour, mechanized cavalry and assault guns "podem engajar normalmente unidades
    inimigas em cotas"; they cannot move through marsh "mas podem engajar unidades inimigas
    posicionadas nesses hexágonos"."""
    g = game([unit("t", "allied", "armour", a=6), unit("c", "allied", "mechanized_cavalry", a=6),
              unit("s", "axis", "assault_gun", a=6), unit("d", "axis", d=3)],
             {"t": "0303", "c": "0404", "d": "0304", "s": "0909"}, terrain={"0304": terrain},
             rules={"one_armour_terrain": ["bocage"]})
    state = to_allied_combat(g.new_state())
    assert set(state.eligible_attackers("allied", H("0304"))) == {"t", "c"}
    state.apply(Attack("0304", ("t", "c")))
    assert state.units["t"].attacked and state.units["c"].attacked


@pytest.mark.parametrize(("defender_type", "forced"), [("armour", True), ("assault_gun", True),
                                                       ("anti_aircraft", True), ("infantry", False)])
def test_cn_5_1_2_armour_attacking_armour_or_aa_takes_the_attacker_loss(defender_type, forced):
    """CN 5.1.2: armour "que engajam unidades inimigas blindadas e/ou de artilharia AA, no caso
    do resultado determinar baixas no atacante (AE, ARB ou AVB), as baixas serão também dadas
    obrigatoriamente numa unidade blindada"; against infantry the attacker chooses."""
    g = game([unit("t", "allied", "armour", a=4), unit("i", "allied", a=4), unit("d", "axis", defender_type, d=4)],
             {"t": "0303", "i": "0404", "d": "0304"}, rules={"one_armour_terrain": ["bocage"]})
    state = to_allied_combat(g.new_state())
    attack_with(state, "0304", ("t", "i"), "DRB AVB")  # 8 vs 4 = 2-1
    assert state.units["d"].reduced
    if forced:
        assert state.units["t"].reduced and not state.units["i"].reduced
    else:
        assert state.pending.kind == "loss" and state.pending.side == "allied"
        assert {o.unit for o in state.pending.options} == {"t", "i"}


def test_cn_5_1_2_de_in_caen_still_forces_the_retreat():
    """CN 5.1.2 / 5.1.6: Germans in Caen need not retreat on DRI or DRB (even with the Allies in
    the other Caen hex, test_caen_second_clause_allows_staying_on_emp), but after a DE "as
    demais ... são obrigadas a recuar em quaisquer circunstâncias"."""
    # x holds the other Caen hex; movement 0, it need not attack (CN 5.3 observation, 4.1.2)
    g = game([unit("a", "allied", a=30), unit("x", "allied", a=1, m=0), unit("e1", "axis", d=1), unit("e2", "axis", d=1)],
             {"a": "0303", "x": "0305", "e1": "0304", "e2": "0304"}, terrain={"0304": "city", "0305": "city"},
             places={"Caen": ["0304", "0305"]},
             rules={"no_retreat": [{"place": "Caen", "side": "axis", "other_hex_held": True}]})
    state = to_allied_combat(g.new_state())
    attack_with(state, "0304", ("a",), lambda r: r.startswith("DE "))
    state.apply(ChooseLoss("e1"))
    assert state.units["e1"].status == "eliminated"
    assert state.pending.kind == "retreat" and state.pending.unit == "e2"
    assert Retreat("e2", ()) not in state.pending.options
    assert state.pending.options  # somewhere to go: it must take it


@pytest.mark.parametrize("other_hex_allied", [True, False])
def test_cn_5_1_2_germans_in_caen_beside_the_allies_in_the_other_hex_need_not_attack(other_hex_allied):
    """CN 5.1.2, second Caen clause: "unidades alemãs em um hexágono de Caen não precisam
    recuar se iniciarem o turno com o outro hexágono de Caen ocupado pelos aliados", read as
    no withdrawal from the engagement either (CN 4.1.2: city against city is not dominant, so
    without the clause they must attack or break contact). A German unit engaged from the
    other Caen hex that stays put owes no attack; engaged from an ordinary city it does."""
    other = {"Caen": ["0304", "0305"]} if other_hex_allied else {"Caen": ["0304", "0204"]}
    # x has movement 0, so it owes no attack itself (CN 5.3 observation, 4.1.2)
    g = game([unit("x", "allied", a=3, m=0), unit("e", "axis", a=2, d=3)],
             {"x": "0305", "e": "0304"}, terrain={"0304": "city", "0305": "city", "0204": "city"},
             places=other,
             rules={"no_retreat": [{"place": "Caen", "side": "axis", "other_hex_held": True}]})
    state = g.new_state()
    state.apply(EndPhase())  # Allied movement
    state.apply(EndPhase())  # Allied combat
    assert state.phase.value == "axis_movement" and state.units["e"].started_engaged
    state.apply(EndPhase())  # Axis movement: e does not move
    assert state.phase.value == "axis_combat"
    assert ("e" in state.must_attack) is not other_hex_allied
    before = state.fingerprint()
    if other_hex_allied:
        state.apply(EndPhase())
        assert state.phase.value != "axis_combat"
    else:
        with pytest.raises(IllegalAction) as exc:
            state.apply(EndPhase())
        assert exc.value.rule == "CN 4.1.2"
        assert state.fingerprint() == before


# ----------------------------------------------------------------------------- CN 5.1.3
def test_cn_5_1_3_no_encirclement_when_a_permitted_edge_is_open():
    """CN 5.1.3: "Não é considerado cerco se a unidade puder recuar por uma borda do tabuleiro
    permitida a ela"."""
    units = [unit("a1", "allied", a=3), unit("a2", "allied", a=3), unit("a3", "allied", a=3), unit("d", "axis", d=3)]
    setup = {"a1": "0304", "a2": "0204", "a3": "0404", "d": "0305"}
    edges = {"south": ["0105", "0205", "0305", "0405", "0505"]}
    for exits, encircled in (({"axis": ["south"]}, False), ({"allied": ["south"]}, True)):
        g = game(units, setup, cols=5, rows=5, edges=edges, rules={"exits": exits})
        state = to_allied_combat(g.new_state())
        assert state.encircled(H("0305"), "axis") is encircled
        shifts = state.preview_attack("0305", ("a1",)).shifts
        assert any(x.reason == "encirclement" and x.columns == 1 for x in shifts) is encircled


# ----------------------------------------------------------------------------- CN 5.1.5
def test_cn_5_1_5_two_and_three_read_row_five():
    """CN 5.1.5: "Lançam-se os dois dados e o resultado é a soma deles (Exemplo: 2 em um e 3 no
    outro dá 5 como resultado)"."""
    g = game([unit("a", "allied", a=3), unit("d", "axis", d=3)], {"a": "0303", "d": "0304"})
    state = to_allied_combat(g.new_state())
    column = state.preview_attack("0304", ("a",)).column
    assert state.game.tables.crt_columns[column] == "1-1"
    load(state, 2, 3)
    events = state.apply(Attack("0304", ("a",)))
    roll = next(e for e in events if e.kind == "roll")
    assert roll.data["dice"] == "2+3" and roll.data["total"] == 5
    assert roll.data["result"] == state.game.tables.crt["5-9"][column] == "DVB ARB"


# ----------------------------------------------------------------------------- CN 5.1.6
def test_cn_5_1_6_dri_avb_defence_retreats_intact_attacker_takes_a_loss():
    """CN 5.1.6: DRI "Todas as unidades defensoras recuam um hexágono"; AVB "uma das unidades
    atacantes sofre baixas"; the attacker may then advance."""
    g = game([unit("a", "allied", a=3), unit("d", "axis", d=3)], {"a": "0503", "d": "0504"})
    state = to_allied_combat(g.new_state())
    attack_with(state, "0504", ("a",), "DRI AVB")  # 1-1, a 2
    assert state.units["a"].reduced and not state.units["d"].reduced
    assert state.pending.kind == "retreat" and state.pending.unit == "d"
    state.apply(state.pending.options[0])
    assert state.units["d"].hex != H("0504") and not state.units["d"].reduced
    assert state.pending.kind == "advance"
    state.apply(Advance("a", ("0504",)))
    assert state.units["a"].hex == H("0504")


def test_cn_5_1_6_dvi_ari_attackers_fall_back_nobody_hurt():
    """CN 5.1.6: DVI "Todas as atacantes recuam um hexágono"; ARI "Todas as unidades atacantes
    recuam um hexágono" (once: both codes name the same retreat)."""
    g = game([unit("a1", "allied", a=3), unit("a2", "allied", a=3), unit("d", "axis", d=6)],
             {"a1": "0503", "a2": "0604", "d": "0504"})
    state = to_allied_combat(g.new_state())
    attack_with(state, "0504", ("a1", "a2"), "DVI ARI")  # 6 vs 6 = 1-1, a 6 or 8
    for uid, start in (("a1", "0503"), ("a2", "0604")):
        assert state.pending.kind == "retreat" and state.pending.unit == uid
        option = state.pending.options[0]
        assert len(option.path) == 1
        state.apply(option)
        assert state.units[uid].hex != H(start) and H(start).distance(state.units[uid].hex) == 1
    assert state.pending is None and state.combat is None
    assert not any(us.reduced for us in state.units.values())
    assert state.units["d"].hex == H("0504")


# ----------------------------------------------------------------------------- CN 5.2
CN_ADVANCE = {"first_terrain": ["open"], "second_terrain": ["open", "village", "city"], "no_fortification": True}


def test_cn_5_2_advance_depends_on_the_unit_type_and_ignores_zones():
    """CN 5.2: armour, mechanized cavalry, motorized infantry and assault guns may advance two
    hexes (open, then open/village/city, ignoring enemy zones), non-motorized units one,
    "artilharia comum, antiaérea e lança-foguetes não avançam"."""
    units = [unit("inf", "allied", a=10), unit("tank", "allied", "armour", a=10),
             unit("mot", "allied", "motorized_infantry", a=10), unit("art", "allied", "artillery", a=10, rng=2),
             unit("g", "axis", d=1), unit("h", "axis", d=1)]
    g = game(units, {"inf": "0303", "tank": "0404", "mot": "0405", "art": "0204", "g": "0304", "h": "0306"},
             terrain={"0205": "rough"}, flags={"0205": {"village": True}}, rules={"advance": CN_ADVANCE})
    state = to_allied_combat(g.new_state())
    attack_with(state, "0304", ("inf", "tank", "mot", "art"), lambda r: r.startswith("DE "))
    assert state.units["g"].status == "eliminated"
    options = state.pending.options
    by_unit = {u: {o.path for o in options if isinstance(o, Advance) and o.unit == u}
               for u in ("inf", "tank", "mot", "art")}
    assert by_unit["inf"] == {("0304",)}
    assert by_unit["art"] == set()
    assert ("0304", "0305") in by_unit["tank"]  # 0305 is in h's zone: ignored
    assert ("0304", "0205") in by_unit["mot"]  # a village (on rough ground) as second hex
    assert by_unit["tank"] == by_unit["mot"]
    state.apply(Advance("tank", ("0304", "0305")))
    assert state.units["tank"].hex == H("0305")


def test_cn_5_2_a_road_does_not_make_the_vacated_hex_open():
    """CN 5.2 observation: "Para efeito de avanço após combate, estradas passando por terrenos
    que não sejam abertos não são consideradas": a road through a bocage hex does not let
    armour go a second hex."""
    g = game([unit("t", "allied", "armour", a=30), unit("g", "axis", d=1)], {"t": "0303", "g": "0304"},
             terrain={"0304": "bocage"}, roads=[["0303", "0304", "0305"]],
             rules={"one_armour_terrain": ["bocage"], "advance": CN_ADVANCE})
    state = to_allied_combat(g.new_state())
    attack_with(state, "0304", ("t",), lambda r: r.startswith("DE "))
    assert state.pending.kind == "advance"
    assert {o.path for o in state.pending.options if isinstance(o, Advance)} == {("0304",)}


# ----------------------------------------------------------------------------- CN 5.3
def test_cn_5_3_retreat_into_the_sea_is_destruction():
    """CN 5.3.3 observation: "Unidades que recuam para o mar são consideradas destruídas": a
    defender whose only open side is the sea is eliminated by a DRI."""
    g = game([unit("a", "allied", a=5), unit("d", "axis", d=1)], {"a": "0202", "d": "0101"},
             terrain={"0201": "sea", "0102": "sea"})
    state = to_allied_combat(g.new_state())
    assert state.encircled(H("0101"), "axis")
    assert state.preview_attack("0101", ("a",)).column_label == "6-1"  # 5-1 + encirclement
    events = attack_with(state, "0101", ("a",), "DRI AVI").events
    assert state.units["d"].status == "eliminated"
    assert any(e.kind == "eliminated" and e.rule == "CN 5.3" for e in events)


def test_cn_5_3_zero_movement_unit_need_not_attack_and_dies_on_dri():
    """CN 5.3 observation: a unit with movement 0 "se iniciar um turno engajada, não se move nem
    precisa atacar. Se for atacada e o resultado for DRI ou DRB, a peça é automaticamente
    eliminada" (DRB: test_zero_mp_unit_eliminated_on_drb)."""
    g = game([unit("a", "allied", a=3), unit("gun", "axis", "coastal_artillery", a=3, d=3, m=0, rng=3)],
             {"a": "0303", "gun": "0304"}, terrain={"0303": "city"})
    state = g.new_state()
    state.apply(EndPhase())
    state.apply(EndPhase())  # the Allied unit holds dominant terrain (city against open)
    state.apply(EndPhase())
    assert state.phase is Phase.AXIS_COMBAT and "gun" not in state.must_attack
    state.apply(EndPhase())  # the gun need not attack
    state = to_allied_combat(g.new_state())
    attack_with(state, "0304", ("a",), "DRI AVB")
    assert state.units["gun"].status == "eliminated" and not state.units["gun"].reduced


def test_cn_5_3_1_chain_retreat_into_a_full_stack():
    """CN 5.3.1: retreating into a hex with four friendly units, "o jogador poderá recuar uma
    das peças excedentes para outro hexágono ... e fazer com que restem nesse hexágono 4
    peças quaisquer"."""
    stack = [f"s{i}" for i in range(4)]
    units = [unit("a", "allied", a=9), unit("d", "axis", d=1)] + [unit(s, "axis", d=1) for s in stack]
    g = game(units, {"a": "0504", "d": "0505", **dict.fromkeys(stack, "0506")}, cols=9, rows=9)
    state = to_allied_combat(g.new_state())
    attack_with(state, "0505", ("a",), "DRB AVI")
    assert state.pending.kind == "retreat" and Retreat("d", ("0506",)) in state.pending.options
    state.apply(Retreat("d", ("0506",)))
    at = state.units_at(H("0506"))
    assert "d" in at and len(at) == 4
    moved = [s for s in stack if state.units[s].hex != H("0506")]
    assert len(moved) == 1
    dest = state.units[moved[0]].hex
    assert dest.distance(H("0506")) == 1 and dest not in state.zoc_of("allied")


@pytest.mark.parametrize(("type_", "loss"), [("infantry", False), ("artillery", False),
                                             ("mechanized_cavalry", True), ("mechanized_artillery", True)])
def test_cn_5_3_2_retreat_across_a_river_by_unit_type(type_, loss):
    """CN 5.3.2: "Quando uma unidade de infantaria, artilharia ou qualquer outra não blindada
    recua através de rio, nada acontece. Unidades blindadas, de cavalaria mecanizada e de
    artilharia mecanizada, porém, sofrem baixas" (armour: test_river_retreat_costs_armour_a_loss)."""
    around = ["0303", "0305", "0204", "0205", "0404", "0405"]
    g = game([unit("a", "allied", a=8), unit("d", "axis", type_, d=1, rng=2 if "artillery" in type_ else 0)],
             {"a": "0303", "d": "0304"}, rivers=[("0304", n) for n in around])
    state = to_allied_combat(g.new_state())
    assert state.preview_attack("0304", ("a",)).column_label == "6-1"  # 8-1, river crossing -2
    attack_with(state, "0304", ("a",), "DRI AVI")
    while state.pending is not None and state.pending.kind == "retreat":
        state.apply(state.pending.options[0])
    assert state.units["d"].status == "on_map" and state.units["d"].hex != H("0304")
    assert state.units["d"].reduced is loss


# ----------------------------------------------------------------------------- CN 6.0-6.3
def test_cn_6_0_air_points_fifty_plus_airfields_none_on_turn_5_never_saved():
    """CN 6.0: 50 air points every turn, "mais 10 pontos por cada aeródromo que conquistar";
    "Apenas no Turno 5, o aliado não tem poder aéreo"; "Pontos de poder aéreo não utilizados em
    um turno não são acumulados"."""
    g = game([unit("a", "allied"), unit("g", "axis")], {"a": "0101", "g": "0808"},
             flags={"0101": {"airfield": True}}, turns=(4, 6))
    state = g.new_state()
    assert state.air_points["allied"] == 50 + 10
    state.apply(EndPhase())
    state.apply(Bombard("0808", (), 10))
    assert state.air_points["allied"] == 50
    for _ in range(3):
        state.apply(EndPhase())
    assert state.turn == 5 and state.air_points["allied"] == 0
    state.apply(EndPhase())
    with pytest.raises(IllegalAction) as exc:
        state.apply(Bombard("0808", (), 5))
    assert exc.value.rule == "CN 6.0"
    for _ in range(3):
        state.apply(EndPhase())
    assert state.turn == 6 and state.air_points["allied"] == 60  # not 50 + 60: nothing saved


def test_cn_6_0_campaign_starts_with_fifty_air_points(normandy):
    """CN 6.0: "apenas o jogador aliado conta com poder aéreo, sendo 50 pontos em todos os
    turnos" (the two airfields, 0803 and 2713, start German)."""
    state = normandy.new_state(1)
    assert state.air_points == {"allied": 50, "axis": 0}
    assert {h.id for h, info in normandy.board.hexes.items() if info.airfield} == {"0803", "2713"}


def test_cn_6_2_bombardment_ignores_rivers():
    """CN 6.2 / 8.0: the bombardment column considers "também os efeitos do terreno, exceto
    rio": an air strike on a hex ringed by rivers keeps its column; a city takes two."""
    from wargame.operational.combat import assess_bombardment

    around = ["0504", "0506", "0405", "0406", "0605", "0606"]
    g = game([unit("a", "allied"), unit("i1", "axis"), unit("i2", "axis"), unit("t", "axis", "armour")],
             {"a": "0101", "i1": "0505", "i2": "0505", "t": "0505"}, rivers=[("0505", n) for n in around])
    state = to_allied_combat(g.new_state())
    strike = assess_bombardment(state, H("0505"), (), 6)
    assert (strike.value, strike.column_label, strike.shifts) == (24, "21-30", ())


def test_cn_6_3_carpet_bombing_rolls_for_allied_units_too():
    """CN 6.3: "Se houver unidades aliadas ocupando um hexágono na área do 'Carpet Bombing',
    devem-se jogar os dados igualmente para este hexágono"."""
    g = game([unit("x", "allied"), unit("g", "axis")], {"x": "0506", "g": "0505"}, turns=(8, 9),
             rules={"carpet_bombing": {"from_turn": 8, "uses": 2}})
    state = g.new_state()
    load(state, 1, 1, 3, 4)  # 0505: 2 DI; 0506: 7 DA
    events = state.apply(CarpetBomb("0505"))
    assert [(e.data["hex"], e.data["result"]) for e in events if e.kind == "carpet"] == [("0505", "DI"), ("0506", "DA")]
    assert state.units["g"].status == "on_map" and state.units["x"].status == "eliminated"


def test_cn_6_3_the_carpet_may_be_centred_on_any_hex():
    """CN 6.3: "o jogador aliado avisa que irá usar o 'Carpet Bombing' e indica o hexágono em
    que ele será aplicado. Para este hexágono e para cada um dos seus seis hexágonos
    adjacentes, jogam-se dois dados": the centre need not hold a German unit."""
    g = game([unit("x", "allied"), unit("g", "axis"), unit("h", "axis")],
             {"x": "0101", "g": "0504", "h": "0506"}, turns=(8, 9),
             rules={"carpet_bombing": {"from_turn": 8, "uses": 2}})
    state = g.new_state()
    assert H("0505") in state.carpet_targets()
    load(state, 3, 4, 3, 4)
    events = state.apply(CarpetBomb("0505"))
    assert sorted(e.data["hex"] for e in events if e.kind == "carpet") == ["0504", "0506"]
    assert state.units["g"].status == state.units["h"].status == "eliminated"


# ----------------------------------------------------------------------------- CN 7.0
def test_cn_7_0_losses_do_not_affect_movement():
    """CN 7.0: a unit with losses is flipped with reduced combat values; "Baixas não afetam o
    poder de movimentação"."""
    g = game([unit("a", "allied", a=4, d=4, m=6), unit("g", "axis")], {"a": "0505", "g": "0909"})
    state = g.new_state()
    full = {h: r.cost for h, r in state.reach("a").items()}
    state.units["a"].reduced = True
    state.edited()
    assert (state.attack_of("a"), state.defence_of("a")) == (2, 2)
    assert {h: r.cost for h, r in state.reach("a").items()} == full


# ----------------------------------------------------------------------------- CN 8.0
def test_cn_8_0_an_artillery_unit_fires_in_one_combat_per_phase():
    """CN 8.0: "uma unidade de artilharia não pode ser utilizada em mais de um combate por
    fase" (the same hex twice: test_artillery_bombardment_cn_8_0_example)."""
    g = game([unit("art", "allied", "artillery", 2, 1, 4, rng=3), unit("g1", "axis"), unit("g2", "axis")],
             {"art": "0303", "g1": "0306", "g2": "0505"})
    state = to_allied_combat(g.new_state())
    assert set(state.artillery_in_range("allied", H("0306"))) == {"art"}
    assert set(state.artillery_in_range("allied", H("0505"))) == {"art"}
    load(state, 3, 4)
    state.apply(Bombard("0306", ("art",)))
    assert state.artillery_in_range("allied", H("0505")) == []
    with pytest.raises(IllegalAction) as exc:
        state.apply(Bombard("0505", ("art",)))
    assert exc.value.rule == "CN 8.0"
    for _ in range(4):
        state.apply(EndPhase())
    assert state.phase is Phase.ALLIED_COMBAT and state.turn == 2
    assert state.artillery_in_range("allied", H("0505")) == ["art"]  # a new phase


# ----------------------------------------------------------------------------- CN 9.0
MULBERRY = {"install_turn": 4, "delay_turns": 4, "storm_turn": 5, "penalty_turn": 9, "port": "0909",
            "harbours": [{"name": "American", "hex": "0101", "landing": "0202"},
                         {"name": "British", "hex": "0501", "landing": "0502"}]}


def mulberry_game(units, setup, **kw) -> Game:
    return game(units, setup, turns=(0, 12), terrain={"0101": "sea", "0501": "sea", **kw.pop("terrain", {})},
                rules={"mulberries": MULBERRY}, **kw)


def end_turn(state):
    for _ in range(4):
        state.apply(EndPhase())


def test_cn_9_0_mulberry_installed_four_turns_after_a_late_capture():
    """CN 9.0: "Se o hexágono 2010 não for conquistado no Turno 0, o 'mulberry' americano só
    poderá ser instalado 4 turnos após a sua conquista": Germans still on the landing hex after
    turn 0 delay the harbour, they do not cancel it (docs/rules-notes.md)."""
    g = mulberry_game([unit("us", "allied", m=12), unit("g", "axis", m=12)], {"us": "0505", "g": "0202"})
    state = g.new_state()
    end_turn(state)  # turn 0: the landing hex stays German
    assert state.turn == 1 and state.flags["mulberries"]["American"] == "planned"
    state.apply(EndPhase())
    state.apply(EndPhase())
    state.apply(Move("g", "0208"))  # the Germans leave 0202 on turn 1
    state.apply(EndPhase())
    state.apply(EndPhase())
    state.apply(Move("us", "0202"))  # turn 2: the Allies take it
    end_turn(state)
    assert state.flags["landing_captured"]["American"] == 2
    end_turn(state)
    end_turn(state)
    assert state.turn == 5 and state.flags["mulberries"]["American"] == "planned"  # not on turn 4
    end_turn(state)
    assert state.turn == 6 and state.flags["mulberries"]["American"] == "operating"  # 2 + 4


def test_cn_9_0_enemy_retaking_the_landing_hex_cancels_the_mulberry():
    """CN 9.0: "Se um desses hexágonos for ocupado por uma unidade inimiga após o Turno 0, o
    'mulberry' não poderá mais ser instalado"."""
    g = mulberry_game([unit("us", "allied", m=12), unit("g", "axis", m=12)], {"us": "0202", "g": "0707"})
    state = g.new_state()
    end_turn(state)
    assert state.flags["landing_captured"]["American"] == 0
    state.apply(Move("us", "0208"))  # turn 1: the Allies leave the landing hex ...
    state.apply(EndPhase())
    state.apply(EndPhase())
    state.apply(Move("g", "0202"))  # ... and a German unit occupies it
    state.apply(EndPhase())
    state.apply(EndPhase())
    assert state.turn == 2 and state.flags["mulberries"]["American"] == "cancelled"
    for _ in range(3):
        end_turn(state)
    assert state.turn == 5 and state.flags["mulberries"]["American"] == "cancelled"


def test_cn_9_0_storm_even_die_keeps_the_mulberry():
    """CN 9.0: turn 5 storm, one die per Mulberry: "caindo par, o 'mulberry' permanece em
    operação" (odd: test_mulberry_storm_on_turn_5_odd_destroys)."""
    g = mulberry_game([unit("us", "allied"), unit("g", "axis")], {"us": "0202", "g": "0707"})
    state = g.new_state()
    for _ in range(4):
        end_turn(state)
    assert state.turn == 4 and state.flags["mulberries"]["American"] == "operating"
    load(state, 4)
    end_turn(state)
    assert state.turn == 5 and state.flags["mulberries"]["American"] == "operating"
    assert any(e.kind == "mulberry" and "storm die 4" in e.text for e in state.events)


def test_cn_9_0_landing_at_cherbourg_is_free_once_taken():
    """CN 9.0: units landing at a Mulberry do not pay the landing hex's terrain; "Essa regra
    também vale para Cherburgo após a sua conquista pelos aliados" (CN 4.2.1: reinforcements
    land by Cherbourg once taken)."""
    g = mulberry_game([unit("us", "allied"), unit("g", "axis"), unit("late", "allied")],
                      {"us": "0808", "g": "0303"}, terrain={"0909": "forest"}, places={"Omaha": ["0707"]},
                      reinforcements=[{"turn": 1, "unit": "late", "entry": {"kind": "beach", "beaches": ["Omaha"]}}])
    state = g.new_state()
    end_turn(state)
    assert H("0909") not in state.entry_hexes("late")
    state.control[H("0909")] = "allied"
    state.edited()
    assert H("0909") in state.entry_hexes("late")
    assert state._entry_cost("late", H("0909")) == 0
    state.apply(Enter("late", "0909"))
    assert state.units["late"].spent == 0


# ----------------------------------------------------------------------------- CN 10.0
def test_cn_10_0_naval_support_helps_the_allies_defending(normandy):
    """CN 10.0: "Sempre que o jogador aliado recorre ao apoio naval, ele 'ganha' uma coluna ...
    (à direita se atacando e à esquerda se defendendo)": a German attack on Utah (1409) loses
    a column; on Carentan (1311), out of range, it does not."""
    state = bare(normandy, {"us-8-4": "1409", "de-919-709": "1408", "us-12-4": "1311", "de-6fj": "1211"},
                 turn=3, phase=Phase.AXIS_COMBAT)
    near = state.preview_attack("1409", ("de-919-709",)).shifts
    assert ("naval support", -1, "CN 10.0") in [(x.reason, x.columns, x.rule) for x in near]
    far = state.preview_attack("1311", ("de-6fj",)).shifts
    assert not any(x.reason == "naval support" for x in far)


# ----------------------------------------------------------------------------- CN 11.2
CN_11_2_CITIES = {  # CN 11.2, the table of cities and points
    "Caen": 30, "Cherbourg": 20, "Avranches": 20, "Saint-Lô": 20, "Falaise": 20, "Vire": 20,
    "Cabourg": 10, "Coutances": 10, "Granville": 10, "Flers": 10, "Bayeux": 10, "Condé-sur-Noireau": 10,
    "Carentan": 10, "Valognes": 10, "Auderville": 5, "Caumont": 5, "Saint-Sauveur-le-Vicomte": 5,
    "Villers-Bocage": 5, "Périers": 5, "Bourguébus": 5, "Villedieu-les-Poêles": 5, "Troarn": 5,
}


def test_cn_11_2_city_points_and_the_germans_hold_them_all_at_the_start(normandy):
    """CN 11.2: both players count the points of the cities they hold at the end; the table's
    22 cities add up to 250 points, all German on 6 June."""
    cities = {v["place"]: v["points"] for v in normandy.rule("victory") if v["kind"] == "city"}
    assert cities == {name: {"allied": p, "axis": p} for name, p in CN_11_2_CITIES.items()}
    assert sum(CN_11_2_CITIES.values()) == 250
    vp = normandy.new_state(1).victory_points()
    assert (vp["allied"], vp["axis"]) == (0, 250)


def test_cn_11_2_1_and_11_2_2_unit_points_in_the_campaign(normandy):
    """CN 11.2.1: German unit destroyed 2 points, Allied unit leaving by the south edge 2 points;
    CN 11.2.2: Allied unit destroyed 10 points; "Ao fim do jogo, o jogador alemão elimina 1/3 de
    suas baixas (arredondando para baixo)"."""
    state = normandy.new_state(1)
    germans = ["de-919-709", "de-6fj", "de-914-352", "de-916-352", "de-915-352", "de-1058-91", "de-flak-1"]
    for n, expected in ((1, 2), (2, 4), (3, 4), (5, 8), (6, 8), (7, 10)):  # 2 x (n - n // 3)
        for uid in germans[:n]:
            state.units[uid].status, state.units[uid].hex = "eliminated", None
        assert state.victory_points()["allied"] == expected, n
    state._leave_board("us-8-4", "south")
    state._leave_board("us-12-4", "south")
    state._leave_board("gb-69-50", "east")  # the east edge scores nothing
    assert state.victory_points()["allied"] == 10 + 2 * 2
    for uid in ("us-22-4", "ca-7-3"):
        state.units[uid].status, state.units[uid].hex = "eliminated", None
    assert state.victory_points()["axis"] == 250 + 10 * 2
