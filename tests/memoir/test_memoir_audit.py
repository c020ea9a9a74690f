"""Rules added or tightened in the issue-6 audit: overrun sequencing, Arnhem bridge ends,
Overlord exits, legal-action fast paths agreeing with the full list."""

from __future__ import annotations

import random

import pytest
from m44helpers import H, card_id, faces, make_state, order, play, uid

from wargame.bots.memoir_random import random_action
from wargame.memoir import ALLIES, AXIS, Action, IllegalAction, MemoirGame, rules
from wargame.memoir.board import BoardHex
from wargame.memoir.context import TurnContext

HANDS = {ALLIES: ["attack:center", "attack:center"], AXIS: ["attack:center", "attack:center"]}


def test_overrun_battle_comes_before_any_other_unit_battles():
    """M44 p.13 Armor Overrun: all battles of one unit, overrun included, are completed before
    the next unit battles; the player may give the overrun up."""
    units = [(ALLIES, "tank", (5, 13)), (ALLIES, "inf", (6, 16)), (AXIS, "inf", (4, 12)),
             (AXIS, "inf", (3, 11)), (AXIS, "inf", (5, 17))]
    st = make_state(units, hands=HANDS, dice=faces("flag", "inf", "star"))
    play(st, "attack", section="center")
    order(st, (5, 13), (6, 16))
    st.apply(Action("end_moves"))
    tank = uid(st, (5, 13))
    inf = uid(st, (6, 16))
    st.apply(Action("battle", unit=tank, hex=H(4, 12)))
    st.apply(Action("take_ground", unit=tank, hex=H(4, 12)))
    legal = st.legal_actions()
    assert {a.unit for a in legal if a.kind == "battle"} == {tank}
    assert Action("skip_overrun", unit=tank) in legal
    before = st.to_json()
    with pytest.raises(IllegalAction) as exc:
        st.apply(Action("battle", unit=inf, hex=H(5, 17)))
    assert "Overrun" in exc.value.rule and st.to_json() == before
    st.apply(Action("skip_overrun", unit=tank))
    assert st.ctx.battles[tank] == 0
    assert Action("battle", unit=inf, hex=H(5, 17)) in st.legal_actions()


ARNHEM = {
    "bridge_deck": frozenset({H(3, 15), H(4, 14), H(5, 13)}),
    "bridge_ends": frozenset({(H(3, 15), H(2, 16)), (H(5, 13), H(6, 12))}),
}


def test_arnhem_bridge_entered_and_left_only_by_its_ends():
    """Arnhem Bridge special rules: on and off the bridge only at its end hexes; along the
    deck normally."""
    terrain = {(3, 15): BoardHex(terrain="river", bridge=True),
               (4, 14): BoardHex(bridge=True), (5, 13): BoardHex(bridge=True)}
    # infantry beside two deck hexes, two hexes from the nearest end
    st = make_state([(ALLIES, "inf", (5, 15)), (AXIS, "inf", (0, 0))], terrain,
                    hands=HANDS, special=ARNHEM)
    play(st, "attack", section="center")
    order(st, (5, 15))
    dest = st.move_options(uid(st, (5, 15)))
    assert H(4, 14) not in dest and H(5, 13) not in dest  # not from the side
    # from the end hex: onto the deck and along it, off only at the other end
    st2 = make_state([(ALLIES, "tank", (6, 12)), (AXIS, "inf", (0, 0))], terrain,
                     hands=HANDS, special=ARNHEM)
    play(st2, "attack", section="center")
    order(st2, (6, 12))
    dest = st2.move_options(uid(st2, (6, 12)))
    assert dest.get(H(5, 13)) == 1 and dest.get(H(4, 14)) == 2 and dest.get(H(3, 15)) == 3
    assert H(4, 12) not in dest or dest[H(4, 12)] == 2  # (4,12) only by land, not off the deck
    t = st2._terrain()
    assert not rules.step_allowed(t, H(4, 14), H(4, 16))
    assert rules.step_allowed(t, H(3, 15), H(2, 16))


def test_arnhem_scenario_has_the_bridge_rule():
    sc = MemoirGame.from_scenario(13).scenario
    deck = sc.opt("bridge_deck")
    assert deck == {h for h in sc.board.all_hexes() if sc.board.at(h).bridge}
    for d, end in sc.opt("bridge_ends"):
        assert d in deck and end not in deck and d.distance(end) == 1


def test_arnhem_retreat_may_not_leave_the_deck_sideways():
    # an Axis unit on the deck middle retreats toward row 0; (3,13)/(3,15) are beside/along
    terrain = {(3, 15): BoardHex(terrain="river", bridge=True),
               (4, 14): BoardHex(bridge=True), (5, 13): BoardHex(bridge=True)}
    st = make_state([(ALLIES, "inf", (5, 15)), (AXIS, "inf", (4, 14))], terrain,
                    hands=HANDS, special=ARNHEM)
    dests, losses = st.retreat_options(st.unit_at(H(4, 14)), 1)
    assert dests == [H(3, 15)] and losses == 0


def test_overlord_units_exit_by_the_german_edge_for_a_medal():
    """Omaha Beach (Overlord) victory: an Allied unit leaving by the German edge scores a medal
    and is removed."""
    game = MemoirGame.from_scenario("overlord")
    st = game.new_state(0)
    allied = st.live_units(ALLIES)[0]
    for u in st.live_units(AXIS):
        if u.hex in (H(0, 10), H(0, 12)):
            st.place(u, None)
    st.place(allied, H(0, 12))
    st.active = ALLIES
    st.phase = "move"
    st.ctx = TurnContext(ordered=[allied.id], effect="probe")
    before = st.medals(ALLIES)
    assert Action("exit", unit=allied.id) in st.legal_actions()
    ev = st.apply(Action("exit", unit=allied.id))
    assert any(e.kind == "exited" for e in ev)
    assert not allied.alive and st.medals(ALLIES) == before + 1
    # a unit not on the edge row may not
    other = next(u for u in st.live_units(ALLIES) if u.hex.r > 0)
    st.ctx.ordered.append(other.id)
    with pytest.raises(IllegalAction):
        st.apply(Action("exit", unit=other.id))


@pytest.mark.parametrize("sid", ["3", "13", "overlord"])
def test_fast_legality_check_agrees_with_the_full_list(sid):
    """apply() checks only the subset of legal actions an action could be in: every action
    of that subset is in legal_actions() and every legal action is in its own subset."""
    s = MemoirGame.from_scenario(sid).new_state(5)
    rng = random.Random(5)
    for _ in range(250):
        if s.is_terminal:
            break
        legal = s.legal_actions()
        for a in legal:
            assert a in s._legal_for(a)
        probe = [Action("order", unit=u) for u in list(s.units)[:6]] + [
            Action("end_moves"), Action("end_orders"), Action("end_battles")]
        for a in probe:
            assert (a in s._legal_for(a)) == (a in legal)
        s.apply(random_action(s, rng))


def test_tactic_card_fallback_is_a_plain_order():
    """M44 Appendix 4 (Dig-In, Behind Enemy Lines ...): "if you command no unit of that type,
    issue an order to 1 unit of your choice" -- a normal order, not the card's own effect."""
    units = [(ALLIES, "tank", (6, 12)), (ALLIES, "gun", (8, 12)), (AXIS, "inf", (3, 11))]
    st = make_state(units, hands={ALLIES: ["dig_in"], AXIS: ["probe"]})
    play(st, "dig_in")
    tank = uid(st, (6, 12))
    assert {a.unit for a in st.legal_actions() if a.kind == "order"} == {tank, uid(st, (8, 12))}
    st.apply(Action("order", unit=tank))
    assert not [a for a in st.legal_actions() if a.kind == "order"]  # only 1 unit
    st.apply(Action("end_orders"))
    assert st.sandbags == set() and st.phase == "move"  # no Dig-In sandbags, moves normally
    assert max(st.move_options(tank).values()) == 3

    st = make_state(units, hands={ALLIES: ["behind_enemy_lines"], AXIS: ["probe"]})
    play(st, "behind_enemy_lines")
    order(st, (6, 12))
    st.apply(Action("move", unit=tank, hex=H(4, 12)))
    st.apply(Action("end_moves"))
    target = st.unit_at(H(3, 11))
    assert st.battle_dice(st.units[tank], target)[0] == 3  # no Behind Enemy Lines +1 die


def test_vassieux_axis_wins_when_the_deck_runs_out():
    """Vassieux victory conditions: no reshuffle; "Deverá o baralho de Cartas de Comando
    esgotar-se e o jogador aliado não ganhou, o combate termina como uma vitória do jogador
    Alemão" -- the turn that draws the last card ends the battle (issue 17 item 15; before,
    the Allies got one more turn until a draw found the deck empty)."""
    st = MemoirGame.from_scenario(7).new_state(seed=3)
    st.discard += st.deck[1:]
    st.deck = st.deck[:1]
    turns = []
    ev = []
    while st.winner is None:
        if not turns or turns[-1] != st.turn:
            turns.append(st.turn)
        a = next(x for x in st.legal_actions()
                 if x.kind in ("play", "end_orders", "end_moves", "end_battles", "air_strike",
                               "keep", "barrage", "medics"))
        ev = st.apply(a)
    assert st.winner == AXIS and "exhausted" in st.win_reason
    assert len(turns) == 1  # the last card is drawn at the end of turn 1: the Axis wins
    assert st.deck == [] and ev[-1].kind == "victory"
    assert st.side_to_act is None and st.legal_actions() == []


def test_pegasus_axis_playing_recon_still_reaches_four_cards():
    """Pegasus Bridge: the Axis draws 2 after each of its first two turns (to 4 cards); a
    Recon played then draws the usual card by draw-2-keep-1, so the hand still grows by 2."""
    st = MemoirGame.from_scenario(1).new_state(seed=5)
    st.apply(next(a for a in st.legal_actions() if a.kind == "play"))  # Allies' turn 1
    while st.active == ALLIES:
        st.apply(next(a for a in st.legal_actions() if a.kind.startswith("end")
                      or a.kind in ("air_strike", "keep", "barrage", "medics", "play")))
    assert st.active == AXIS and len(st.hands[AXIS]) == 2

    recon = card_id("recon", "left")
    old_hand = list(st.hands[AXIS])
    if recon not in old_hand:  # swap a Recon into the hand, the card it replaces to the deck
        st.deck = [old_hand[1]] + [c for c in st.deck if c != recon]
        st.discard = [c for c in st.discard if c != recon]
        st.hands[AXIS] = [recon, old_hand[0]]
    st.apply(Action("play", card=recon))
    while st.active == AXIS:
        acts = st.legal_actions()
        keep = [a for a in acts if a.kind == "keep"]
        st.apply(keep[0] if keep else next(a for a in acts if a.kind.startswith("end")))
    assert len(st.hands[AXIS]) == 3  # 2 - 1 played + 1 drawn + 1 kept of 2


@pytest.mark.parametrize("sid", ["4", "9", "13", "overlord"])
def test_speed_caches_agree_with_fresh_computation(sid):
    """The engine caches moves, battle targets, medals and who-is-where against a positions
    counter (speed only): at every step of random games they equal a fresh computation."""
    game = MemoirGame.from_scenario(sid)
    for seed in (1, 2):
        s = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(400):
            if s.is_terminal:
                break
            fresh = s.clone()  # a clone starts with empty caches
            assert {h: u.id for h, u in s.occupancy().items()} == {
                u.hex: u.id for u in fresh.units.values() if u.alive}
            for side in (ALLIES, AXIS):
                assert s.medals(side) == fresh._medals(side)
            if s.phase in ("move", "battle") and not s.pending:
                for uid in s.ctx.ordered:
                    if s.units[uid].alive:
                        assert s.move_options(uid) == fresh._move_options(uid)
                        assert sorted(s.battle_targets(uid)) == sorted(
                            e.hex for e in fresh.live_units()
                            if fresh.battle_dice(fresh.units[uid], e)[0] > 0)
            s.apply(random_action(s, rng))
