"""Positions from the rules audit of issue #17 (Campanha da Normandia / Operação Dragoon), each
set up from the rulebook's words and citing its section:

* CN/OD 4.1.2 and 5.0: every engaged unit that can neither disengage nor claim dominant terrain
  takes part in an attack; a hex is attacked once a turn (CN 6.0, OD 8.0), so the one attack on
  a hex cannot leave behind an engaged unit that has no other hex to attack;
* CN/OD 8.0: artillery is used in one combat per *phase* (either side's), and artillery that is
  engaged "sofre os efeitos de terreno e combate normalmente";
* CN 4.2.1 / 4.2.2: the 10 MP motorised entry is for German reinforcements, not returning units;
* CN 5.3.3 with 4.1.1 / 5.3.1: a retreat passes *through* a full friendly hex;
* CN 9.0: the Mulberry count of turn 9 fixes the lost column for the rest of the game, and the
  British Mulberry's units land at 2410;
* OD 10.0: maquis areas are closed to German moves (explicit paths too); only a German unit
  *forced* to retreat may enter one.
"""

from __future__ import annotations

import json

import pytest

from tests.helpers import LoadedDice, small_scenario, unit
from wargame.errors import CombatRefused, MovementRefused, SupportRefused
from wargame.hexgrid import Hex
from wargame.operational.actions import (
    Attack,
    Bombard,
    DeclareDefence,
    EndPhase,
    Enter,
    Exit,
    IllegalAction,
    Move,
    Retreat,
)
from wargame.operational.state import Game


def H(hid: str) -> Hex:
    return Hex.from_id(hid)


def game(units, setup, **kw) -> Game:
    return Game(small_scenario(units=units, setup=setup, **kw))


def to_phase(state, name: str):
    while state.phase.value != name:
        state.apply(EndPhase())
    return state


def load(state, *faces: int):
    state.dice = LoadedDice(list(faces), state.seed)


def faces_for(state, column: int, code: str) -> tuple[int, int]:
    """Two dice whose sum gives ``code`` (the defender's or the lone result) in ``column``."""
    for total in range(2, 13):
        if state.game.tables.crt_result(column, total).split()[0] == code:
            d1 = max(1, total - 6)
            return d1, total - d1
    raise AssertionError(f"no {code} in column {column}")


def position_of(state) -> str:
    return json.dumps([state.to_json(), state.action_log], sort_keys=True, default=str)


# CN/OD 4.1.2 and 5.0: the obligation to attack --------------------------------------------------
def engaged_pair(**kw) -> Game:
    """Two Allied units next to one German hex (0505) and nothing else: both must attack."""
    units = [unit("a", "allied", a=2), unit("b", "allied", a=4), unit("g", "axis", d=3),
             unit("art", "allied", "artillery", 2, 1, 4, rng=3), *kw.pop("extra", [])]
    setup = {"a": "0504", "b": "0506", "g": "0505", "art": "0502", **kw.pop("extra_setup", {})}
    return game(units, setup, **kw)


def test_cn_4_1_2_one_weak_attack_does_not_release_the_other_engaged_unit():
    """CN 4.1.2: "Se uma unidade ... não puder desengajar nem estiver em terreno dominante, ela
    terá que atacar"; CN 6.0: a hex is attacked once a turn. An attack on 0505 by ``a`` alone
    would leave ``b`` (engaged only with 0505) unable ever to attack: refused."""
    state = to_phase(engaged_pair().new_state(), "allied_combat")
    assert state.must_attack == {"a", "b"}
    before = position_of(state)
    with pytest.raises(CombatRefused) as exc:
        state.apply(Attack("0505", ("a",)))
    assert exc.value.rule == "CN 4.1.2" and "b is engaged" in exc.value.reason
    assert position_of(state) == before
    with pytest.raises(IllegalAction) as exc:
        state.apply(EndPhase())
    assert exc.value.rule == "CN 4.1.2"
    load(state, *faces_for(state, state.preview_attack("0505", ("a", "b")).column, "IMP"))
    state.apply(Attack("0505", ("a", "b")))
    state.apply(EndPhase())
    assert state.phase.value == "axis_movement"


def test_cn_4_1_2_a_bombardment_or_air_strike_does_not_take_the_engaged_units_attack():
    """CN 8.0 / 6.2 with 4.1.2 and 6.0: a bombardment (artillery or air alone) is the hex's one
    attack of the turn; the units engaged with it would never attack: refused."""
    state = to_phase(engaged_pair().new_state(), "allied_combat")
    for action in (Bombard("0505", ("art",)), Bombard("0505", (), 5)):
        with pytest.raises(CombatRefused) as exc:
            state.apply(action)
        assert exc.value.rule == "CN 4.1.2"
    assert not any(isinstance(a, Bombard) for a in state.legal_actions())
    # the artillery may join the ground attack as support (it is three hexes away)
    load(state, *faces_for(state, state.preview_attack("0505", ("a", "b"), ("art",)).column, "IMP"))
    state.apply(Attack("0505", ("a", "b"), ("art",)))
    state.apply(EndPhase())


def test_cn_4_1_2_a_unit_with_another_enemy_next_to_it_attacks_that_one():
    """Not every adjacent enemy hex must be attacked (docs/rules-notes.md): ``b``, next to 0505
    and 0507, may be left out of the attack on 0505, then must attack 0507."""
    state = to_phase(engaged_pair(extra=[unit("h", "axis", d=2)], extra_setup={"h": "0507"}).new_state(),
                     "allied_combat")
    load(state, *faces_for(state, state.preview_attack("0505", ("a",)).column, "IMP"))
    state.apply(Attack("0505", ("a",)))
    with pytest.raises(IllegalAction) as exc:
        state.apply(EndPhase())
    assert "b is engaged and must attack" in exc.value.reason
    load(state, *faces_for(state, state.preview_attack("0507", ("b",)).column, "IMP"))
    state.apply(Attack("0507", ("b",)))
    state.apply(EndPhase())


def test_cn_5_1_2_the_second_tank_next_to_bocage_cannot_attack_and_is_excused():
    """CN 5.1.2: one armoured unit per attack on a bocage hex. The second tank engaged only with
    that hex could not have joined: the attack with the first is accepted, and the phase ends."""
    units = [unit("t1", "allied", "armour"), unit("t2", "allied", "armour"), unit("g", "axis")]
    g = game(units, {"t1": "0504", "t2": "0506", "g": "0505"}, terrain={"0505": "bocage"},
             rules={"one_armour_terrain": ["bocage"]})
    state = to_phase(g.new_state(), "allied_combat")
    assert state.must_attack == {"t1", "t2"}
    offered = [a for a in state.legal_actions() if isinstance(a, Attack)]
    assert len(offered) == 1 and offered[0].attackers in (("t1",), ("t2",))
    load(state, *faces_for(state, state.preview_attack("0505", offered[0].attackers).column, "IMP"))
    state.apply(offered[0])
    state.apply(EndPhase())
    assert state.phase.value == "axis_movement"


# CN/OD 8.0: artillery ---------------------------------------------------------------------------
def test_cn_8_0_artillery_is_used_once_per_phase_not_once_per_turn():
    """CN 8.0: "uma unidade de artilharia não pode ser utilizada em mais de um combate por fase".
    Allied artillery that bombarded in the Allied combat phase supports the defence in the Axis
    combat phase of the same turn; German artillery that supported the Axis attack supports the
    German defence in the next Allied combat phase."""
    units = [unit("aa", "allied", "artillery", 2, 1, 4, rng=4), unit("y", "allied"),
             unit("ga", "axis", "artillery", 2, 1, 4, rng=4), unit("g", "axis"), unit("t", "axis")]
    state = game(units, {"aa": "0302", "y": "0304", "ga": "0308", "g": "0307", "t": "0505"},
                 turns=(1, 3)).new_state()
    to_phase(state, "allied_combat")
    load(state, 1, 1)
    state.apply(Bombard("0505", ("aa",)))
    to_phase(state, "axis_movement")
    state.apply(Move("g", "0305"))
    state.apply(EndPhase())
    state.apply(Attack("0304", ("g",), ("ga",)))
    assert state.pending is not None and state.pending.kind == "defence"
    assert DeclareDefence(0, ("aa",)) in state.pending.options
    column = state.preview_attack("0304", ("g",), ("ga",), defence_artillery=("aa",)).column
    load(state, *faces_for(state, column, "IMP"))
    state.apply(DeclareDefence(0, ("aa",)))
    assert state.units["aa"].fired and state.units["ga"].fired
    to_phase(state, "allied_combat")
    assert state.turn == 2
    state.apply(Attack("0305", ("y",)))
    assert state.pending is not None and state.pending.side == "axis"
    assert DeclareDefence(0, ("ga",)) in state.pending.options


def engaged_artillery() -> Game:
    """Allied artillery ``art`` and infantry ``i`` both next to the German hex 0505; another
    German unit ``h`` at 0704, two hexes from the artillery."""
    units = [unit("art", "allied", "artillery", 2, 1, 4, rng=3), unit("i", "allied", a=3),
             unit("g", "axis", d=2), unit("h", "axis", d=2)]
    return game(units, {"art": "0504", "i": "0506", "g": "0505", "h": "0704"})


def test_cn_8_0_engaged_artillery_fights_as_a_unit_and_retreats_with_the_others():
    """CN 8.0: "Caso engaje, sofre os efeitos de terreno e combate normalmente". Artillery next
    to the hex it fights joins as an attacking unit: not as ranged support, not as a lone
    bombardment; an attacker retreat moves it too."""
    state = to_phase(engaged_artillery().new_state(), "allied_combat")
    assert {"art", "i"} <= state.must_attack
    with pytest.raises(SupportRefused) as exc:
        state.apply(Attack("0505", ("i",), ("art",)))
    assert exc.value.rule == "CN 8.0"
    with pytest.raises(IllegalAction) as exc:
        state.apply(Bombard("0505", ("art",)))
    assert state.artillery_in_range("allied", H("0505")) == []
    # its one combat of the phase is the attack it owes: no ranged fire at 0704 before it
    with pytest.raises(SupportRefused) as exc:
        state.apply(Bombard("0704", ("art",)))
    assert "must attack" in exc.value.reason
    column = state.preview_attack("0505", ("i", "art")).column
    d1, d2 = next((max(1, t - 6), t - max(1, t - 6)) for t in range(2, 13)
                  if state.game.tables.crt_result(column, t) in ("DVI ARI", "DVB ARI", "DVI ARB", "DVB ARB"))
    load(state, d1, d2)
    state.apply(Attack("0505", ("i", "art")))
    while state.pending is not None:
        state.apply(state.pending.options[0])
    assert state.units["art"].hex != H("0504") or state.units["art"].status != "on_map"


# CN 4.2.1 / 4.2.2: the entry-turn movement -------------------------------------------------------
def test_cn_4_2_1_ten_mp_entry_is_for_reinforcements_not_returning_units():
    """CN 4.2.1 observation: "No seu turno de entrada, todas as unidades de reforço alemãs têm
    poder de movimentação igual a 10". A German unit that left by the east edge and comes back
    (4.2.2) is not a reinforcement: it moves with its own allowance."""
    units = [unit("slow", "axis", m=4), unit("new", "axis", m=4), unit("a", "allied")]
    east = [f"10{r:02d}" for r in range(1, 11)]
    g = game(units, {"slow": "1005", "a": "0101"}, edges={"east": east}, turns=(1, 4),
             reinforcements=[{"turn": 2, "unit": "new", "entry": {"kind": "edge", "edge": "east"}}],
             rules={"exits": {"axis": ["east"]}, "may_return": ["axis"],
                    "entry_turn_movement": {"side": "axis", "movement": 10, "movement_class": "motorized"}})
    state = to_phase(g.new_state(), "axis_movement")
    state.apply(Exit("slow", "east"))
    to_phase(state, "allied_combat")
    to_phase(state, "axis_movement")
    assert state.turn == 2
    state.apply(Enter("new", "1005"))
    state.apply(Enter("slow", "1006"))
    assert state.movement_of("new") == (10, "motorized")
    assert state.movement_of("slow") == (4, "non_motorized")
    assert max(r.cost for r in state.reach("slow").values()) <= 8  # half points


# CN 5.3.3 with 4.1.1 / 5.3.1: retreating through a full hex -------------------------------------
def test_cn_5_3_3_encircled_retreat_passes_through_a_full_hex_without_pushing_anyone():
    """CN 4.1.1: units "podem passar por ele sem, contudo, parar"; CN 5.3.1 chain retreat is for
    a unit that retreats *into* a full hex. An encircled unit's retreat through a hex of four
    friends to a free hex leaves the four where they are (and is sheltered, 5.3.3)."""
    germans = [unit(f"s{i}", "axis") for i in range(4)]
    units = [unit("a1", "allied", a=9), unit("a2", "allied", a=9), unit("d", "axis", d=3), *germans]
    setup = {"a1": "0504", "a2": "0506", "d": "0505", **{f"s{i}": "0606" for i in range(4)}}
    state = to_phase(game(units, setup).new_state(), "allied_combat")
    assert state.encircled(H("0505"), "axis")
    column = state.preview_attack("0505", ("a1", "a2")).column
    load(state, *faces_for(state, column, "DRI"))
    state.apply(Attack("0505", ("a1", "a2")))
    assert state.pending is not None and state.pending.kind == "retreat"
    through = Retreat("d", ("0606", "0706"))
    assert through in state.pending.options
    state.apply(through)
    assert sorted(state.units_at(H("0606"))) == ["s0", "s1", "s2", "s3"]
    assert state.units["d"].hex == H("0706") and not state.units["d"].reduced  # sheltered


# CN 9.0: Mulberries -----------------------------------------------------------------------------
MULBERRY = {"install_turn": 4, "delay_turns": 4, "storm_turn": 5, "penalty_turn": 9, "port": "0909",
            "harbours": [{"name": "American", "hex": "0101", "landing": "0202", "nations": ["american"]},
                         {"name": "British", "hex": "0501", "landing": "0502",
                          "nations": ["british", "canadian"]}]}


def mulberry_game() -> Game:
    units = [unit("us", "allied"), unit("uk", "allied", nation="british"), unit("g", "axis"),
             unit("tommy", "allied", nation="british"), unit("canuck", "allied", nation="canadian"),
             unit("yank", "allied")]
    beach = {"kind": "beach", "beaches": ["Gold"]}
    return Game(small_scenario(
        units=units, setup={"us": "0202", "uk": "0707", "g": "0905"}, turns=(0, 12),
        terrain={"0101": "sea", "0501": "sea", "0502": "rough"},
        places={"Omaha": ["0202"], "Gold": ["0602"]},
        reinforcements=[{"turn": 4, "unit": "tommy", "entry": beach},
                        {"turn": 4, "unit": "canuck", "entry": beach},
                        {"turn": 4, "unit": "yank", "entry": {"kind": "beach", "beaches": ["Omaha"]}}],
        rules={"mulberries": MULBERRY}))


def end_turn(state) -> None:
    for _ in range(4):
        state.apply(EndPhase())


def test_cn_9_0_british_and_canadians_land_at_the_british_mulberry_2410():
    """CN 9.0: "Unidades desembarcadas nesses portos não pagam o custo do terreno do hexágono de
    desembarque (2010 para os americanos e 2410 para britânicos e canadenses)". With the British
    harbour working, its landing hex is an entry hex for British and Canadian reinforcements,
    free of cost; not for Americans."""
    state = mulberry_game().new_state()
    state.control[H("0502")] = "allied"
    state.flags["landing_captured"] = {"British": 0}
    for _ in range(4):
        end_turn(state)
    assert state.turn == 4 and state.flags["mulberries"]["British"] == "operating"
    assert H("0502") in state.legal_entry_hexes("tommy")
    assert H("0502") in state.legal_entry_hexes("canuck")
    assert H("0502") not in state.legal_entry_hexes("yank")
    assert state._entry_cost("tommy", H("0502")) == 0
    state.apply(Enter("canuck", "0502"))
    assert state.units["canuck"].spent == 0


def test_cn_9_0_the_lost_column_of_turn_9_stays_when_a_harbour_is_installed_later():
    """CN 9.0: "Se, no Turno 9, o jogador aliado tiver apenas um 'mulberry', 'perde' uma coluna
    em qualquer combate em todos os turnos a partir deste (inclusive)". A British harbour whose
    hex was taken on turn 6 is installed on turn 10: the column stays lost."""
    state = mulberry_game().new_state()
    while state.turn < 8:
        end_turn(state)
    state.flags["mulberries"] = {"American": "operating", "British": "planned"}
    state.flags["landing_captured"] = {"American": 0, "British": 6}
    end_turn(state)
    assert state.turn == 9 and state.mulberry_penalty() == 1
    end_turn(state)
    assert state.turn == 10 and state.flags["mulberries"]["British"] == "operating"
    assert state.mulberry_penalty() == 1
    assert [s.columns for s in state.turn_shifts("allied")] == [-1]
    state.control[H("0909")] = "allied"
    assert state.mulberry_penalty() == 0  # CN 9.0: ignored once Cherbourg falls


# OD 10.0: maquis areas --------------------------------------------------------------------------
def maquis_game(units, setup, maquis, **kw) -> Game:
    return Game(small_scenario(game="dragoon", units=units, setup=setup,
                               flags={h: {"maquis": True} for h in maquis},
                               rules={"maquis_areas": {"closed_to": ["axis"]}}, **kw))


def test_od_10_0_a_german_move_with_an_explicit_path_through_maquis_is_refused():
    """OD 10.0: "Somente unidades aliadas podem transitar por áreas controladas pelos maquis".
    0507 can be reached around the maquis hex 0506, but not by a path through it."""
    state = maquis_game([unit("g", "axis"), unit("fr", "allied", "guerrilla", nation="french")],
                        {"g": "0505", "fr": "0101"}, ["0506"]).new_state()
    to_phase(state, "axis_movement")
    assert H("0507") in state.legal_destinations("g")
    before = position_of(state)
    with pytest.raises(MovementRefused) as exc:
        state.apply(Move("g", "0507", ("0506", "0507")))
    assert exc.value.rule == "OD 10.0"
    assert position_of(state) == before
    state.apply(Move("g", "0507", ("0406", "0407", "0507")))
    assert state.units["g"].hex == H("0507")


def test_od_10_0_only_germans_forced_to_retreat_enter_maquis():
    """OD 10.0 / 5.3: "Unidades alemãs obrigadas a recuar para áreas controladas por maquis".
    A German with a free hex outside the maquis retreats there; the maquis hex is offered only
    when no other retreat is left."""
    units = [unit("a", "allied", a=6), unit("d", "axis", d=1)]
    # d at 0505 attacked from 0504; its free neighbours: 0406, 0506, 0606 (0506 maquis) and the
    # hexes 0405 and 0605 in the attacker's zone
    g = maquis_game(units, {"a": "0504", "d": "0505"}, ["0506"])
    state = to_phase(g.new_state(), "allied_combat")
    load(state, *faces_for(state, state.preview_attack("0505", ("a",)).column, "DRI"))
    state.apply(Attack("0505", ("a",)))
    assert state.pending is not None and state.pending.kind == "retreat"
    paths = {o.path for o in state.pending.options}
    assert ("0506",) not in paths and paths == {("0406",), ("0606",)}
    # now 0406 and 0606 are in Allied zones (units at 0306 and 0705): the maquis hex is the
    # only way out
    units += [unit("b", "allied"), unit("c", "allied")]
    g = maquis_game(units, {"a": "0504", "d": "0505", "b": "0306", "c": "0705"}, ["0506"])
    state = to_phase(g.new_state(), "allied_combat")
    assert not state.encircled(H("0505"), "axis")  # 0506 is free of Allied zones
    load(state, *faces_for(state, state.preview_attack("0505", ("a",)).column, "DRI"))
    state.apply(Attack("0505", ("a",)))  # one retreat left: applied without asking
    assert state.units["d"].hex == H("0506") and state.units["d"].in_maquis


def test_od_10_0_germans_do_not_advance_into_a_maquis_area():
    """OD 10.0: only Allied units pass through maquis areas, so a German win against a maquis
    hex gives no advance into it (CN/OD 5.2 "poderá ocupar": an advance is a move)."""
    units = [unit("g", "axis", a=6), unit("fr", "allied", d=1, m=0)]  # movement 0: no attack
    state = maquis_game(units, {"g": "0505", "fr": "0506"}, ["0506"]).new_state()
    to_phase(state, "axis_combat")
    load(state, *faces_for(state, state.preview_attack("0506", ("g",)).column, "DRI"))
    state.apply(Attack("0506", ("g",)))
    while state.pending is not None:
        assert state.pending.kind != "advance"
        state.apply(state.pending.options[0])
    assert state.units["fr"].status == "eliminated"  # CN/OD 5.3: movement 0, cannot retreat
    assert state.units["g"].hex == H("0505") and state.units_at(H("0506")) == []


def test_cn_8_0_a_gun_that_fired_at_range_does_not_also_attack_next_to_it():
    """CN 8.0: "uma unidade de artilharia não pode ser utilizada em mais de um combate por fase":
    artillery on dominant terrain (a city, CN 4.1.2: no obligation to attack) that bombarded a
    hex two hexes away has had its combat; it cannot then attack the enemy next to it."""
    units = [unit("art", "allied", "artillery", 2, 1, 4, rng=3), unit("g", "axis", d=2),
             unit("h", "axis", d=2)]
    state = game(units, {"art": "0504", "g": "0505", "h": "0704"}, terrain={"0504": "city"}).new_state()
    to_phase(state, "allied_combat")
    assert state.must_attack == set()  # began engaged, did not move, dominant terrain
    load(state, 1, 1)
    state.apply(Bombard("0704", ("art",)))
    with pytest.raises(CombatRefused) as exc:
        state.apply(Attack("0505", ("art",)))
    assert exc.value.rule == "CN 8.0" and "already fired" in exc.value.reason
    assert not any(isinstance(a, Attack) for a in state.legal_actions())


@pytest.mark.parametrize(("scenario", "seed"), [("normandy", 3), ("dragoon", 4), ("dragoon", 5)])
def test_cn_4_1_2_any_offered_attacks_leave_the_end_of_the_phase_reachable(scenario, seed):
    """CN/OD 4.1.2: whatever offered attacks a player makes, in any order, the combat phase can
    still end: the engine never offers an attack that would strand an engaged unit."""
    import random

    from wargame.bots.campaign_random import RandomPolicy, auto_answer

    state = Game(scenario).new_state(seed)
    policy = RandomPolicy(seed)
    rng = random.Random(seed)
    combats = 0
    while state.turn < 4 and not state.is_terminal:
        if state.pending is not None:
            state.apply(auto_answer(state))
            continue
        if not state.phase.is_combat:
            state.apply(policy.choose(state))
            continue
        combats += 1
        while True:  # attack in a random order until nothing is left, then end the phase
            if state.pending is not None:
                state.apply(auto_answer(state))
                continue
            attacks = [a for a in state.legal_actions() if isinstance(a, Attack | Bombard)]
            if not attacks:
                break
            state.apply(rng.choice(attacks))
        assert EndPhase() in state.legal_actions(), state.end_phase_refusal()
        state.apply(EndPhase())
    assert combats >= 6
