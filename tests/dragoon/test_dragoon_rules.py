"""Operação Dragoon's own rules on the real scenario (scenarios/dragoon/scenario.yaml `rules:`):
landings (OD 11.1.4, 5.3), the airborne drop (OD 4.2.3), exits and withdrawals (OD 4.2.2),
Switzerland, armour and mountains, best terrain (OD 5.1.2), divisional bonus (OD 5.1.4),
Toulon and Marseille (OD 5.3), maquis and guerrillas (OD 10.0), naval support (OD 9.0), air
power (OD 6.0-6.2), recovery (OD 7.0) and victory points (OD 11.2)."""

from __future__ import annotations

import pytest

from tests.helpers import LoadedDice
from wargame.bots.campaign_random import auto_answer
from wargame.hexgrid import Hex
from wargame.operational.actions import (
    Attack,
    DeclareDefence,
    EndPhase,
    Exit,
    IllegalAction,
    Move,
    Retreat,
)
from wargame.operational.combat import terrain_columns
from wargame.operational.state import Game, Phase


@pytest.fixture(scope="module")
def game():
    return Game("dragoon")


def H(hid):
    return Hex.from_id(hid)


def position(game, placements, phase=Phase.ALLIED_MOVEMENT, turn=2, reduced=()):
    """A state with only the given units on the map (uid -> hex id)."""
    state = game.new_state(5)
    for us in state.units.values():
        us.status, us.hex, us.reduced = "waiting", None, False
        us.available = 99
    for uid, hid in placements.items():
        us = state.units[uid]
        us.status, us.hex, us.reduced = "on_map", H(hid), uid in reduced
    state.turn, state.phase = turn, phase
    state.flags["contacted"] = ["us-517-abtf", "gb-2para-abtf"]
    state.edited()
    state._start_phase()
    return state


def resolve(state):
    while state.pending is not None:
        state.apply(auto_answer(state))


# OD 4.2.3 ------------------------------------------------------------------------------------
def test_drop_even_intact_odd_with_losses(game):
    seen = set()
    for seed in range(12):
        state = game.new_state(seed)
        drops = [e for e in state.events if e.kind == "drop"]
        assert len(drops) == 2 and {e.data["hex"] for e in drops} == {"1122", "1222"}
        for e in drops:
            intact = e.data["die"] % 2 == 0
            seen.add(intact)
            assert (e.data["outcome"] == "intact") == intact and e.rule == "OD 4.2.3"
            uid = "us-517-abtf" if e.data["hex"] == "1122" else "gb-2para-abtf"
            assert state.units[uid].reduced == (not intact)
    assert seen == {True, False}


def test_dropped_units_move_only_after_contact(game):
    state = game.new_state(3)
    with pytest.raises(IllegalAction) as exc:
        state.apply(Move("us-517-abtf", "1022"))
    assert exc.value.rule == "OD 4.2.3"
    assert state.legal_destinations("gb-2para-abtf") == {}  # the other drop unit is no contact
    state = position(game, {"us-517-abtf": "1122", "us-7-3": "1023"}, turn=2)
    state.flags["contacted"] = []
    assert state.legal_destinations("us-517-abtf")  # an Allied unit alongside: free to move


# OD 11.1.4, 5.3: landings ----------------------------------------------------------------------
def _landing_attack(game, want_defender_stays: bool):
    state = game.new_state(11)
    forty_fifth = ("us-157-45", "us-179-45", "us-180-45")
    assert all(state.units[u].status == "at_sea" and state.units[u].hex == H("1323") for u in forty_fifth)
    assert state.legal_destinations("us-157-45") == {}  # at sea: it can only attack
    if want_defender_stays:
        # a beach that can hold: the whole 244th ID joins the 918th at Saint-Tropez (moved
        # there by hand for the test), 12 defence against 18 (the column 5-1 has an impasse)
        for uid in ("de-932-244", "de-933-244", "de-934-244"):
            state.units[uid].hex = H("1323")
        state.edited()
    state.apply(EndPhase())
    assert set(forty_fifth) <= state.must_attack
    with pytest.raises(IllegalAction):
        state.apply(EndPhase())  # engaged units must attack (OD 4.1.2)
    # the hex is attacked once a turn (OD 8.0), so every unit that owes it an attack takes
    # part (OD 4.1.2): the three regiments at sea, and the 36th's regiments ashore at Camel
    # 1423 when they stay there, next to Saint-Tropez and to no other German
    with pytest.raises(IllegalAction) as exc:
        state.apply(Attack("1323", forty_fifth[:1]))
    assert exc.value.rule == "OD 4.1.2"
    attackers = forty_fifth
    while (uid := state.left_behind("allied", H("1323"), attackers)) is not None:
        attackers += (uid,)
    assert len(attackers) == 6
    column = state.preview_attack("1323", attackers).column
    assert any(s.rule == "OD 9.0" and s.columns == 2 for s in state.preview_attack("1323", attackers).shifts)
    tables = game.tables
    # the beach holds on an impasse: nobody lands (a DVI/DVB would throw them back to sea)
    totals = [t for t in range(2, 13)
              if (tables.crt_result(column, t).split()[0] == "IMP" if want_defender_stays
                  else tables.crt_result(column, t).split()[0] not in ("IMP", "DVI", "DVB"))]
    total = totals[0]
    state.dice = LoadedDice([min(6, total - 1), total - min(6, total - 1)], 11)
    state.apply(Attack("1323", attackers))
    resolve(state)
    return state, forty_fifth


def test_landing_units_that_cannot_land_are_destroyed(game):
    state, forty_fifth = _landing_attack(game, want_defender_stays=True)
    # other attacks are still due (the 3rd ID is engaged): fight them, then end the phase
    while state.phase is Phase.ALLIED_COMBAT:
        resolve(state)
        acts = state.legal_actions()
        state.apply(EndPhase() if EndPhase() in acts else next(a for a in acts if isinstance(a, Attack)))
    assert all(state.units[u].status == "eliminated" for u in forty_fifth)
    assert any(e.kind == "eliminated" and e.rule == "OD 5.3" for e in state.events)


def test_landing_units_come_ashore_when_the_beach_is_cleared(game):
    state, forty_fifth = _landing_attack(game, want_defender_stays=False)
    assert not any(state.side_of(u) == "axis" for u in state.units_at(H("1323")))
    assert all(state.units[u].status in ("on_map", "eliminated") for u in forty_fifth)
    assert any(state.units[u].status == "on_map" for u in forty_fifth)


# OD 4.2.2: exits, Switzerland, withdrawals ---------------------------------------------------------
def test_exits_north_for_both_east_for_germans_no_return(game):
    north, east = sorted(game.board.edges["north"])[3], sorted(game.board.edges["east"])[0]
    state = position(game, {"us-7-3": north.id if hasattr(north, "id") else north, "us-15-3": east.id})
    assert Exit("us-7-3", "north") in state.legal_actions()
    assert Exit("us-15-3", "east") not in state.legal_actions()
    with pytest.raises(IllegalAction) as exc:
        state.apply(Exit("us-15-3", "east"))
    assert exc.value.rule == "OD 4.2.2"
    state.apply(Exit("us-7-3", "north"))
    state = position(game, {"de-765-242": east.id}, phase=Phase.AXIS_MOVEMENT)
    state.apply(Exit("de-765-242", "east"))
    assert state.units["de-765-242"].status == "exited"
    state.apply(EndPhase())
    state.apply(EndPhase())
    assert state.turn == 3 and state.units["de-765-242"].status == "exited"  # no return
    assert state.entry_hexes("de-765-242") == []


def test_switzerland_is_prohibited(game):
    swiss = game.board.places["Switzerland"]
    french = next(n for s in swiss for n in game.board.neighbours(s) if game.board.is_land(n))
    state = position(game, {"fr-ffi-vercors": french.id})
    reach = state.reach("fr-ffi-vercors")
    assert not set(swiss) & set(reach)
    assert all(not game.board.is_land(s) for s in swiss)


def test_british_para_withdrawn_turn_4_and_148th_turn_5_unless_encircled(game):
    state = position(game, {"gb-2para-abtf": "1222", "de-ri1-148": "1421", "de-ri2-148": "1521",
                            "de-ri3-148": "1620", "us-7-3": "1420", "us-15-3": "1520", "us-30-3": "1522",
                            "us-141-36": "1422", "us-142-36": "1321"}, turn=3)
    state.turn = 4
    state._withdrawals()
    assert state.units["gb-2para-abtf"].status == "withdrawn"
    assert state.units["de-ri1-148"].status == "on_map"  # not yet
    state.turn = 5
    state.edited()
    state._withdrawals()
    assert state.units["de-ri3-148"].status == "withdrawn"  # Nice: free to leave
    encircled = [u for u in ("de-ri1-148", "de-ri2-148") if state.units[u].status == "on_map"]
    assert encircled and all(state.encircled(state.units[u].hex, "axis") for u in encircled)


# OD 5.1.2, 5.1.4 --------------------------------------------------------------------------------
def test_armour_cannot_attack_into_mountains(game):
    mountain = next(h for h, i in game.board.hexes.items() if i.terrain == "mountain"
                    and any(game.board.hexes[n].terrain == "open" for n in game.board.neighbours(h)))
    open_ = next(n for n in game.board.neighbours(mountain) if game.board.hexes[n].terrain == "open")
    state = position(game, {"fr-cc1-1db": open_.id, "fr-1b-1di": open_.id, "de-765-242": mountain.id},
                     phase=Phase.ALLIED_COMBAT)
    assert state.eligible_attackers("allied", mountain) == ["fr-1b-1di"]
    with pytest.raises(IllegalAction) as exc:
        state.apply(Attack(mountain.id, ("fr-cc1-1db",)))
    assert exc.value.rule == "OD 5.1.2"
    assert game.tables.terrain["mountain"].cost["armour"] is None


def test_best_terrain_of_the_hex_not_the_sum(game):
    state = game.new_state(0)
    # Toulon: city (2) and fortification (3): 3 columns, not 5
    assert terrain_columns(state, H("1024")) == (3, "fortification")
    assert terrain_columns(state, H("1013")) == (2, "city")
    # a city behind a river: river (2) and city (2) give 2
    lyon = game.board.places["Lyon"][0]
    across = next(n for n in game.board.neighbours(lyon) if game.board.river_between(n, lyon))
    assert terrain_columns(state, lyon, {across})[0] == 2


def test_divisional_bonus_and_its_exceptions(game):
    state = position(game, {"us-7-3": "0911", "us-15-3": "0911", "us-30-3": "1012", "de-ri-157": "1011",
                            "de-ri1-189": "1111"}, phase=Phase.ALLIED_COMBAT)
    shifts = state.preview_attack("1011", ("us-7-3", "us-15-3", "us-30-3")).shifts
    assert any(s.rule == "OD 5.1.4" and s.columns == 1 for s in shifts)
    shifts = state.preview_attack("1011", ("us-7-3", "us-15-3")).shifts
    assert not any(s.rule == "OD 5.1.4" for s in shifts)
    # the 157th and 189th Reserve, 338th and the Airborne Task Force never get it
    assert not any(game.divisions[d].divisional_bonus for d in ("de-157", "de-189", "de-338", "us-1abtf"))


# OD 5.3: Toulon and Marseille ---------------------------------------------------------------------
@pytest.mark.parametrize("port", ["1024", "0723"])
def test_germans_in_toulon_and_marseille_need_not_retreat(game, port):
    attackers = ("us-7-3", "us-15-3", "us-30-3")
    land_n = [n for n in game.board.neighbours(H(port)) if game.board.is_land(n)]
    placements = {"us-7-3": land_n[0].id, "us-15-3": land_n[0].id, "us-30-3": land_n[0].id,
                  "de-932-244": port}
    state = position(game, placements, phase=Phase.ALLIED_COMBAT)
    column = state.preview_attack(port, attackers).column
    total = next(t for t in range(2, 13) if game.tables.crt_result(column, t).split()[0] in ("DRI", "DRB"))
    state.dice = LoadedDice([min(6, total - 1), total - min(6, total - 1)], 1)
    state.air_points["allied"] = 0
    state.apply(Attack(port, attackers))
    if state.pending is not None and state.pending.kind == "defence":
        state.apply(DeclareDefence(0, ()))
    while state.pending is not None and state.pending.kind != "retreat":
        state.apply(auto_answer(state))
    if state.pending is not None:
        assert Retreat("de-932-244", ()) in state.pending.options
        state.apply(Retreat("de-932-244", ()))
    assert state.units["de-932-244"].status == "on_map" and state.units["de-932-244"].hex == H(port)


def test_other_germans_must_retreat(game):
    state = position(game, {"us-7-3": "0911", "us-15-3": "0911", "us-30-3": "0911", "de-765-242": "1011"},
                     phase=Phase.ALLIED_COMBAT)
    state.combat = type("C", (), {"defenders": ["de-765-242"], "result": "DRI AVI"})()
    assert not state._may_stay("de-765-242", H("1011"))
    state.combat.defenders = ["de-765-242"]
    state.units["de-765-242"].hex = H("1024")
    assert state._may_stay("de-765-242", H("1024"))
    state.combat.result = "DE AVB"
    assert not state._may_stay("de-765-242", H("1024"))  # DE still forces the retreat
    state.combat = None


# OD 10.0: maquis and guerrillas -----------------------------------------------------------------
def _maquis_pair(game):
    for h, info in sorted(game.board.hexes.items()):
        if info.maquis:
            for n in game.board.neighbours(h):
                ni = game.board.hexes[n]
                if not ni.maquis and ni.terrain == "open":
                    return h, n
    raise AssertionError("no maquis hex next to open ground")


def test_only_allies_cross_maquis_areas(game):
    m, outside = _maquis_pair(game)
    state = position(game, {"de-765-242": outside.id}, phase=Phase.AXIS_MOVEMENT)
    assert m not in state.reach("de-765-242")
    with pytest.raises(IllegalAction):
        state.apply(Move("de-765-242", m.id))
    state = position(game, {"us-7-3": outside.id})
    assert m in state.reach("us-7-3")


def test_germans_forced_into_maquis_lose_a_column_no_artillery_then_loss_and_elimination(game):
    m, outside = _maquis_pair(game)
    state = position(game, {"de-765-242": m.id, "us-7-3": outside.id, "us-art-vi": outside.id,
                            "de-art-lxii": outside.id}, phase=Phase.ALLIED_COMBAT)
    state.units["de-art-lxii"].hex = None
    state.units["de-art-lxii"].status = "waiting"
    state.units["de-765-242"].in_maquis = True
    state.edited()
    shifts = state.preview_attack(m.id, ("us-7-3",)).shifts
    assert any(s.rule == "OD 10.0" and s.columns == 1 for s in shifts)
    # OD 10.0: the maquis unit's own artillery cannot support it
    state2 = position(game, {"de-765-242": m.id, "us-7-3": outside.id, "de-art-19a": outside.id},
                      phase=Phase.ALLIED_COMBAT)
    state2.units["de-765-242"].in_maquis = True
    state2.units["de-art-19a"].hex = next(n for n in game.board.neighbours(m) if n != outside
                                          and game.board.is_land(n) and not game.board.hexes[n].maquis)
    state2.edited()
    state2.apply(Attack(m.id, ("us-7-3",)))
    if state2.pending is not None and state2.pending.kind == "defence":
        with pytest.raises(IllegalAction) as exc:
            state2.apply(DeclareDefence(0, ("de-art-19a",)))
        assert exc.value.rule == "OD 10.0"
    # a loss at the end of its movement phase there, elimination at the end of the next
    state = position(game, {"de-765-242": m.id}, phase=Phase.AXIS_MOVEMENT)
    state.units["de-765-242"].in_maquis = True
    state.apply(EndPhase())
    assert state.units["de-765-242"].reduced
    state.apply(EndPhase())
    state.apply(EndPhase())
    state.apply(EndPhase())
    state.apply(EndPhase())
    assert state.units["de-765-242"].status == "eliminated"


def test_guerrillas_get_no_air_or_artillery_unless_stacked(game):
    m, outside = _maquis_pair(game)
    german = outside
    state = position(game, {"fr-ffi-vercors": m.id, "de-765-242": german.id}, phase=Phase.ALLIED_COMBAT)
    with pytest.raises(IllegalAction) as exc:
        state.apply(Attack(german.id, ("fr-ffi-vercors",), air=5))
    assert exc.value.rule == "OD 10.0"
    state = position(game, {"fr-ffi-vercors": m.id, "us-7-3": m.id, "de-765-242": german.id},
                     phase=Phase.ALLIED_COMBAT)
    state.apply(Attack(german.id, ("fr-ffi-vercors", "us-7-3"), air=5))  # stacked: allowed
    resolve(state)
    # defending alone, no air support is offered to the guerrillas
    state = position(game, {"fr-ffi-vercors": m.id, "de-765-242": german.id}, phase=Phase.AXIS_COMBAT)
    state.air_points["allied"] = 30
    state.apply(Attack(m.id, ("de-765-242",)))
    assert state.pending is None or state.pending.kind != "defence"
    assert not any(e.kind == "defence" for e in state.events)
    # stacked with a regular unit, the same defence is offered air support
    state = position(game, {"fr-ffi-vercors": m.id, "us-7-3": m.id, "de-765-242": german.id},
                     phase=Phase.AXIS_COMBAT)
    state.air_points["allied"] = 30
    state.apply(Attack(m.id, ("de-765-242",)))
    assert state.pending.kind == "defence" and any(o.air > 0 for o in state.pending.options)


# OD 9.0, 6.0-6.2, 7.0 ---------------------------------------------------------------------------
def test_naval_support_two_columns_on_coast_hexes_both_ways(game):
    state = game.new_state(0)
    assert state.naval_support_columns(H("1323"), ()) == 2
    assert state.naval_support_columns(H("1013"), ()) == 0
    state = position(game, {"us-7-3": "1224", "de-765-242": "1124"}, phase=Phase.AXIS_COMBAT)
    shifts = state.preview_attack("1224", ("de-765-242",)).shifts
    assert any(s.rule == "OD 9.0" and s.columns == -2 for s in shifts)  # defending Allies too


def test_air_points_30_a_turn_3_to_10_a_strike(game):
    # us-7-3 two hexes away: next to 1011 it would owe the hex its own attack (OD 4.1.2), and
    # an air strike, the hex's one attack of the turn, would be refused
    state = position(game, {"us-7-3": "0909", "de-765-242": "1011"}, phase=Phase.ALLIED_COMBAT)
    state._start_turn()
    assert state.air_points == {"allied": 30, "axis": 0}
    from wargame.operational.actions import Bombard
    with pytest.raises(IllegalAction) as exc:
        state.apply(Bombard("1011", (), air=2))
    assert exc.value.rule == "OD 6.2"  # the 3-10 bounds are OD 6.2's observations
    with pytest.raises(IllegalAction) as exc:
        state.apply(Bombard("1011", (), air=11))
    assert exc.value.rule == "OD 6.2"
    state.apply(Bombard("1011", (), air=3))
    assert state.air_points["allied"] == 27


def test_only_allies_recover(game):
    state = position(game, {"us-7-3": "0911", "de-765-242": "0305"}, reduced=("us-7-3", "de-765-242"))
    state.apply(EndPhase())
    assert not state.units["us-7-3"].reduced
    state.apply(EndPhase())
    state.apply(EndPhase())
    assert state.units["de-765-242"].reduced


# OD 11.2 ------------------------------------------------------------------------------------------
def test_victory_points_both_sides(game):
    state = game.new_state(0)
    for us in state.units.values():
        us.status, us.hex = "waiting", None
    for h in list(state.control):
        state.control[h] = "axis"
    marseille, toulon = game.board.places["Marseille"][0], game.board.places["Toulon"][0]
    state.control[marseille] = state.control[toulon] = "allied"
    # one German eliminated, two exited (one intact), the 3rd ID out by the north edge intact,
    # the 36th out but one regiment reduced, two Allied units eliminated, one German left
    state.units["de-765-242"].status = "eliminated"
    state.units["de-ri-157"].status = "on_map"
    state.units["de-ri-157"].hex = H("1013")
    state.units["us-157-45"].status = state.units["us-179-45"].status = "eliminated"
    exits = [{"unit": u, "edge": "north", "turn": 10, "intact": True} for u in ("us-7-3", "us-15-3", "us-30-3")]
    exits += [{"unit": "us-141-36", "edge": "north", "turn": 10, "intact": False}]
    exits += [{"unit": u, "edge": "north", "turn": 10, "intact": True} for u in ("us-142-36", "us-143-36")]
    exits += [{"unit": "de-917-242", "edge": "east", "turn": 9, "intact": True},
              {"unit": "de-918-242", "edge": "north", "turn": 9, "intact": False}]
    for e in exits:
        state.units[e["unit"]].status = "exited"
    state.flags["exits"] = exits
    state.edited()
    vp = state.victory_points()
    cities = sum(1 for h, info in game.board.hexes.items() if info.terrain == "city") - 5
    allied = 20 + 20 + 1 * 2 + 1 * 3  # Marseille, Toulon, one German destroyed, the 3rd ID out
    axis = 40 + 20 + 20 + 5 * cities + 2 * 10 + 1 * 5 + 1 * 2  # Lyon, Avignon, Grenoble, cities ...
    assert (vp["allied"], vp["axis"]) == (allied, axis)
    # OD 11.2.1: no German unit left on the board: 20 more
    state.units["de-ri-157"].status = "eliminated"
    state.units["de-ri-157"].hex = None
    state.edited()
    vp2 = state.victory_points()
    assert vp2["allied"] == allied + 2 + 20 and vp2["axis"] == axis - 2


# OD 4.2.1, 11.1.3-11.1.4: where reinforcements come in ---------------------------------------------
def test_allied_reinforcements_land_only_on_free_beaches(game):
    state = position(game, {"de-918-242": "1323"}, turn=2)
    state.units["fr-cc1-1db"].available = 2
    assert state.entry_hexes("fr-cc1-1db") == [H("1224"), H("1423")]  # Delta is held
    state.units["fr-cc1-1db"].available = 3
    assert state.entry_hexes("fr-cc1-1db") == []  # not before its turn


def test_german_reinforcements_enter_at_their_hexes(game):
    state = position(game, {}, phase=Phase.AXIS_MOVEMENT, turn=5)
    state.units["de-ri1-716"].available = 5
    state.units["de-110-11pz"].available = 3
    assert state.entry_hexes("de-ri1-716") == [H("0111")]  # OD 11.1.3
    assert state.entry_hexes("de-110-11pz") == [H("0119"), H("0120"), H("0121")]


# OD 5.2: advance after combat -------------------------------------------------------------------------
def test_motorized_advance_two_hexes_open_then_open_or_city_no_river(game):
    board = game.board
    target = next(h for h, i in sorted(board.hexes.items()) if i.terrain == "open" and not i.maquis
                  and h.row > 3 and sum(board.hexes[n].terrain in ("open", "city") for n in board.neighbours(h)) == 6
                  and any(board.river_between(h, n) for n in board.neighbours(h)))
    start = next(n for n in board.neighbours(target) if not board.river_between(n, target))
    state = position(game, {"fr-cc1-1db": start.id, "fr-cc2-1db": start.id, "fr-cc3-1db": start.id,
                            "de-ri1-716": target.id}, phase=Phase.ALLIED_COMBAT)
    attackers = ("fr-cc1-1db", "fr-cc2-1db", "fr-cc3-1db")
    column = state.preview_attack(target.id, attackers).column
    total = next(t for t in range(2, 13) if game.tables.crt_result(column, t).split()[0] in ("DRI", "DRB"))
    state.dice = LoadedDice([min(6, total - 1), total - min(6, total - 1)], 1)
    state.air_points["allied"] = 0
    state.apply(Attack(target.id, attackers))
    while state.pending is not None and state.pending.kind != "advance":
        state.apply(auto_answer(state))
    assert state.pending is not None and state.pending.kind == "advance"
    two = [o for o in state.pending.options if getattr(o, "path", ()) and len(o.path) == 2]
    assert two
    for o in two:
        second = H(o.path[1])
        assert board.hexes[second].terrain in ("open", "city")
        assert not board.river_between(target, second) or board.road_between(target, second)
    rivers = [n for n in board.neighbours(target) if board.river_between(target, n) and not board.road_between(target, n)]
    assert not {H(o.path[1]) for o in two} & set(rivers)
