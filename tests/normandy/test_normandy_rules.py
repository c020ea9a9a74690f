"""Campanha da Normandia's own rules on the real scenario: the turn-0 commando landing
(CN 3.0 observation), turn-1 drops and their fallback (CN 4.2.3), naval support (CN 10.0),
coastal fortifications (CN 5.1.2)."""

import pytest

from wargame.bots.campaign_random import auto_answer
from wargame.hexgrid import Hex
from wargame.operational.actions import Attack, EndPhase, Enter, IllegalAction
from wargame.operational.state import Game, Phase


@pytest.fixture(scope="module")
def game():
    return Game("normandy")


def H(hid):
    return Hex.from_id(hid)


def advance_to_turn(state, turn):
    """End phases, fighting the obligatory attacks with the first legal attack."""
    while state.turn < turn:
        if state.pending is not None:
            state.apply(auto_answer(state))
            continue
        actions = state.legal_actions()
        if EndPhase() in actions:
            state.apply(EndPhase())
        else:
            state.apply(next(a for a in actions if isinstance(a, Attack)))
    return state


def test_commando_lands_after_combat_at_3011_and_joins_the_6th_airborne(game):
    state = game.new_state(1)
    assert state.entry_hexes("gb-1sb") == []  # not during the movement phase
    state.apply(EndPhase())
    assert state.phase is Phase.ALLIED_COMBAT
    # clear Sword (3011) by hand for the test: the German 736th is gone, the hex taken
    state.units["de-736-716"].status = "eliminated"
    state.units["de-736-716"].hex = None
    state.control[H("3011")] = "allied"
    state.edited()
    assert state.entry_hexes("gb-1sb") == [H("3011")]
    airborne = {state.units[u].hex for u in game.scenario.division_units("gb-6ab") if state.units[u].status == "on_map"}
    options = [a for a in state.legal_actions() if isinstance(a, Enter) and a.unit == "gb-1sb"]
    assert options and {H(a.to) for a in options} <= airborne
    with pytest.raises(IllegalAction) as exc:
        state.apply(Enter("gb-1sb", "3011"))
    assert exc.value.rule == "CN 3.0"
    state.apply(options[0])
    assert state.units["gb-1sb"].hex in airborne


def test_commando_lands_on_another_british_beach_if_sword_holds(game):
    state = game.new_state(1)
    state.apply(EndPhase())
    juno = game.board.places["Juno"][0]
    for u in state.units_at(juno):  # Juno taken, Sword still German
        state.units[u].status = "eliminated"
        state.units[u].hex = None
    state.edited()
    hexes = state.entry_hexes("gb-1sb")
    assert H("3011") not in hexes  # still German
    gold_juno = set(game.board.places["Gold"]) | set(game.board.places["Juno"])
    assert hexes and set(hexes) <= gold_juno


def test_commando_landing_never_offered_on_a_full_beach(game):
    """CN 4.1.1 with CN 3.0: legal_actions offered the landing on another British beach even
    when its hex already held four Allied units, and applying it was refused (found by the
    greedy bot)."""
    state = game.new_state(1)
    state.apply(EndPhase())
    juno = game.board.places["Juno"][0]
    for u in state.units_at(juno):
        state.units[u].status = "eliminated"
        state.units[u].hex = None
    allied = [u for u, us in state.units.items() if us.status == "waiting" and state.side_of(u) == "allied"
              and u != "gb-1sb"][:4]
    for u in allied:  # fill Juno to the stacking limit
        state.units[u].status = "on_map"
        state.units[u].hex = juno
    state.edited()
    assert juno in state.entry_hexes("gb-1sb")
    offered = [a for a in state.legal_actions() if isinstance(a, Enter) and a.unit == "gb-1sb"]
    assert all(H(a.hex) != juno for a in offered)
    for a in offered:  # everything offered is accepted
        trial = state.clone()
        trial.apply(a)
    with pytest.raises(IllegalAction) as exc:
        state.apply(Enter("gb-1sb", juno.id))
    assert exc.value.rule == "CN 4.1.1"


def test_commando_landing_offered_only_in_the_allied_combat_phase_of_turn_0(game):
    """CN 3.0 observation: the landing happens after the Allied combat phase of the first
    turn. A commando still waiting afterwards is an ordinary reinforcement: legal_actions
    offered its Enter in later combat phases (even the German one) and apply refused it."""
    state = advance_to_turn(game.new_state(1), 1)
    if state.units["gb-1sb"].status != "waiting":  # landed on turn 0: put it back to wait
        state.units["gb-1sb"].status = "waiting"
        state.units["gb-1sb"].hex = None
        state.edited()
    while state.turn == 1:
        if state.phase.is_combat:
            offered = [a for a in state.legal_actions() if isinstance(a, Enter)]
            assert offered == [], (state.phase, offered)
        if state.pending is not None:
            state.apply(auto_answer(state))
            continue
        actions = state.legal_actions()
        state.apply(EndPhase() if EndPhase() in actions else next(a for a in actions if isinstance(a, Attack)))


def test_turn_1_drop_on_division_hexes_or_beach_on_turn_2(game):
    state = advance_to_turn(game.new_state(1), 1)
    hexes = state.entry_hexes("us-325-82")
    division_hexes = {state.units[u].hex for u in game.scenario.division_units("us-82") if state.units[u].status == "on_map"}
    assert hexes and set(hexes) <= division_hexes
    # if no Allied unit holds the 82nd's drop hexes, no drop: a beach on turn 2 (CN 4.2.3)
    for u in game.scenario.division_units("us-82"):
        if state.units[u].status == "on_map":
            state.units[u].status = "eliminated"
            state.units[u].hex = None
    state.edited()
    assert state.entry_hexes("us-325-82") == []
    state.turn = 2
    beaches = set(game.board.places["Omaha"]) | set(game.board.places["Utah"])
    assert set(state.entry_hexes("us-325-82")) <= beaches and state.entry_hexes("us-325-82")


def test_naval_support_reaches_three_hexes_from_the_invasion_coast_but_not_from_1509(game):
    # "at most 3 hexes from a hex of the invasion coast", counting the coast hex itself: the
    # rule's own example puts Carentan (1311) out of range, and 1311 is 3 hexes from Utah 1409
    # (docs/rules-notes.md).
    state = game.new_state(1)
    assert H("1311").distance(H("1409")) == 3
    coast = [h for h in game.board.places["invasion_coast"] if h != H("1509")]
    near = next(h for h in game.board.land_hexes() if min(h.distance(c) for c in coast) == 2)
    far = next(h for h in game.board.land_hexes() if min(h.distance(c) for c in coast) == 3)
    assert state.naval_support_columns(near, ()) == 1
    assert state.naval_support_columns(far, ()) == 0
    # Carentan (1311) is not within range of the invasion coast (CN 10.0 observation)
    assert state.naval_support_columns(H("1311"), ()) == 0
    # Cherbourg always is (CN 10.0)
    assert state.naval_support_columns(H("0603"), ()) == 1


def test_offmap_road_from_avranches_to_south_of_vire(game):
    # CN 4.2.2: a motorized unit leaving Avranches (1125) by the red arrows spends 5 points
    # (10 road hexes x 0.5) "and restarts the count at 5.5 in hex 1825".
    state = advance_to_turn(game.new_state(1), 1)
    while state.phase is not Phase.AXIS_MOVEMENT:
        if state.pending is not None:
            state.apply(auto_answer(state))
        elif EndPhase() in state.legal_actions():
            state.apply(EndPhase())
        else:
            state.apply(next(a for a in state.legal_actions() if isinstance(a, Attack)))
    state.units["de-901-lehr"].status = "on_map"
    state.units["de-901-lehr"].hex = H("1125")
    state.units["de-901-lehr"].spent = 0
    state.edited()
    reach = state.reach("de-901-lehr")
    assert reach[H("1825")].cost == 11 and reach[H("1825")].prev == H("1125")  # half-points
    # the arrows are German only (scenario rule offmap_road_sides: [axis])
    allied = next(u.id for u in game.scenario.units.values()
                  if u.side == "allied" and u.type == "motorized_infantry")
    state.units[allied].status = "on_map"
    state.units[allied].hex = H("1125")
    state.units[allied].spent = 0
    state.edited()
    allied_reach = state.reach(allied)
    assert H("1825") not in allied_reach or allied_reach[H("1825")].prev != H("1125")


def test_cn_9_0_british_and_canadians_land_at_the_british_mulberry_2410(game):
    """CN 9.0: "Unidades desembarcadas nesses portos não pagam o custo do terreno do hexágono de
    desembarque (2010 para os americanos e 2410 para britânicos e canadenses)": with both
    harbours working, Arromanches 2410 (not a beach) is an entry hex of the British and Canadian
    reinforcements, free, and never of the American ones; Omaha's 2010 the other way round."""
    state = game.new_state(1)
    state.turn = 4
    state.flags["mulberries"] = {"American": "operating", "British": "operating"}
    for uid in state.units_at(H("2010")):  # the 916th still at Colleville: gone, for the test
        state.units[uid].status, state.units[uid].hex = "eliminated", None
    state.edited()

    def waiting(nation):
        return next(r.unit for r in game.scenario.reinforcements if r.turn <= 4 and r.entry.kind == "beach"
                    and game.units[r.unit].nation == nation)

    british, canadian, american = waiting("british"), waiting("canadian"), waiting("american")
    assert H("2410") not in game.board.places["Gold"]
    for uid in (british, canadian):
        assert H("2410") in state.legal_entry_hexes(uid) and H("2010") not in state.entry_hexes(uid)
        assert state._entry_cost(uid, H("2410")) == 0
    assert H("2410") not in state.entry_hexes(american) and H("2010") in state.entry_hexes(american)
    assert state._entry_cost(american, H("2010")) == 0
    state.flags["mulberries"]["British"] = "destroyed"
    assert H("2410") not in state.entry_hexes(british)
