"""Issue #30: "Lyon falls on turn 2 in every Dragoon game". Settled from the rulebook
(Operação Dragoon, "OD"): legal, see docs/rules-notes.md "Operação
Dragoon: Lyon and the FFI (issue #30)".

* OD 10.0 confines the guerrillas to the maquis areas only "ao se iniciar o jogo"; its one
  movement rule, "Somente unidades aliadas podem transitar por áreas controladas pelos
  maquis", closes the areas to the Germans, not the guerrillas to the areas.
* OD 11.1.1 sets up no German unit in Lyon (0609) and OD 11.1.3 brings none there.
* OD 11.2 scores the cities "ao fim do jogo": Lyon counts for whoever holds it at the end.
"""

from __future__ import annotations

import pytest

from wargame.hexgrid import Hex
from wargame.operational.actions import EndPhase, IllegalAction, Move
from wargame.operational.state import Game, Phase

FFI = "fr-ffi-vercors"
LYON = Hex.from_id("0609")


@pytest.fixture(scope="module")
def game():
    return Game("dragoon")


def only_the_ffi_and_the_germans(game, seed: int = 7):
    """The real opening (OD 11.1.1 set-up, the FFI at their default maquis hexes) with the
    turn-1 landings and the drop taken off, so that nothing but the rules stands between the
    FFI Vercors and Lyon."""
    state = game.new_state(seed)
    for uid, us in state.units.items():
        if state.side_of(uid) == "allied" and game.units[uid].type != "guerrilla":
            us.status, us.hex, us.available = "waiting", None, 99
    state.edited()
    return state


def end_phases_until(state, turn: int, phase: Phase) -> None:
    while (state.turn, state.phase) != (turn, phase):
        state.apply(EndPhase())


def test_od_11_1_1_no_german_sets_up_or_enters_in_lyon(game):
    """OD 11.1.1 lists no unit in Lyon (0609); OD 11.1.3's one German reinforcement (the
    716th, turn 5) enters at 0111; the reconstructed additions (11th Panzer) at 0119-0121."""
    state = game.new_state(1)
    assert game.board.places["Lyon"] == (LYON,)
    assert state.units_at(LYON) == []
    assert state.control.get(LYON) == "axis"  # every city starts German (OD 11.0)
    germans = [u for u in state.units if state.side_of(u) == "axis"]
    on_map = [u for u in germans if state.units[u].status == "on_map"]
    assert min(state.units[u].hex.distance(LYON) for u in on_map) == 3  # the 759th, Saint-Étienne
    assert state.units["de-759-338"].hex == Hex.from_id("0310")
    assert all(h != LYON for _uid, h in game.scenario.setup)
    german_entries = [r for r in game.scenario.reinforcements if state.side_of(r.unit) == "axis"]
    assert {h.id for r in german_entries for h in r.entry.hexes} == {"0111", "0119", "0120", "0121"}
    assert LYON.distance(Hex.from_id("0111")) == 5  # the 716th, turn 5
    # OD 2.2: 28 German pieces, every one placed or listed as a reinforcement: no spare
    # counter is left for a Lyon garrison the rulebook does not have
    assert len(germans) == 28
    assert len(on_map) + len(german_entries) == 28


def test_od_10_0_the_ffi_may_leave_its_maquis_area_and_take_empty_lyon_on_turn_2(game):
    state = only_the_ffi_and_the_germans(game)
    start = state.units[FFI].hex
    assert start == Hex.from_id("0814") and game.board.hexes[start].maquis  # OD 11.1.2
    reach = state.reach(FFI)
    assert LYON not in reach  # 6 hexes away, 5 movement points (reconstructed 1-2-5)
    outside = [h for h in reach if not game.board.hexes[h].maquis]
    assert outside, "OD 10.0 does not keep the guerrillas inside the maquis areas"
    state.apply(Move(FFI, "0611"))  # turn 1: out of the Vercors onto the plain, 2 hexes short
    assert not game.board.hexes[state.units[FFI].hex].maquis
    end_phases_until(state, 2, Phase.ALLIED_MOVEMENT)  # the Germans do nothing
    before = state.victory_points()
    assert LYON in state.reach(FFI)
    # turn 2: into the empty city (OD 4.0; no rule forbids it), by 0710 and 0709, not through
    # Vienne (0610), a city that would change hands too (OD 11.2.2 "qualquer outra cidade")
    state.apply(Move(FFI, LYON.id, path=("0710", "0709", LYON.id)))
    assert state.control[LYON] == "allied"
    after = state.victory_points()
    # OD 11.2: Lyon is worth 10 to the Allies and 40 to the Germans; both counted from control
    assert after["allied"] - before["allied"] == 10
    assert before["axis"] - after["axis"] == 40
    assert ("allied", "Lyon", 10) in after["lines"] and ("axis", "Lyon", 40) in before["lines"]


def test_od_10_0_the_germans_may_not_follow_into_the_maquis(game):
    """The one movement rule of OD 10.0 binds the Germans: the 157th in Grenoble cannot enter
    the Vercors hex the FFI left."""
    state = only_the_ffi_and_the_germans(game)
    state.apply(Move(FFI, "0611"))
    end_phases_until(state, 1, Phase.AXIS_MOVEMENT)
    vercors = Hex.from_id("0814")
    assert vercors not in state.reach("de-ri-157")
    with pytest.raises(IllegalAction):
        state.apply(Move("de-ri-157", vercors.id))


def test_od_11_1_1_the_axis_can_hold_lyon_before_the_ffi_arrive(game):
    """The early fall is a matter of play: the 759th (OD 11.1.1, Saint-Étienne, 3 hexes away)
    can stand in Lyon at the end of the first German movement phase, and a German unit that
    enters Lyon after the FFI takes it back (control: the side that entered last)."""
    state = only_the_ffi_and_the_germans(game)
    state.apply(Move(FFI, "0611"))
    end_phases_until(state, 1, Phase.AXIS_MOVEMENT)
    assert LYON in state.reach("de-759-338")
    state.apply(Move("de-759-338", LYON.id))
    end_phases_until(state, 2, Phase.ALLIED_MOVEMENT)
    assert state.units_at(LYON) == ["de-759-338"] and state.control[LYON] == "axis"
    with pytest.raises(IllegalAction):  # OD 4.1.2: never two enemies in one hex
        state.apply(Move(FFI, LYON.id))
