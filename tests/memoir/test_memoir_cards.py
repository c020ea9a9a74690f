"""Command cards (M44 Appendix 4): section cards, the 15 tactic cards, drawing and decks."""

from __future__ import annotations

import pytest
from m44helpers import H, card_id, faces, make_state, order, play, uid

from wargame.memoir import ALLIES, AXIS, DECK, Action, IllegalAction, MemoirGame
from wargame.memoir.board import BoardHex

SPREAD = [(ALLIES, "inf", (7, 1)), (ALLIES, "inf", (7, 3)), (ALLIES, "inf", (7, 5)),
          (ALLIES, "inf", (7, 11)), (ALLIES, "inf", (7, 13)), (ALLIES, "inf", (7, 15)),
          (ALLIES, "inf", (7, 19)), (ALLIES, "inf", (7, 21)), (ALLIES, "inf", (7, 23)),
          (AXIS, "inf", (0, 12))]


def orderable(st):
    return {a.unit for a in st.legal_actions() if a.kind == "order"}


def max_orders(st):
    n = 0
    while True:
        acts = [a for a in st.legal_actions() if a.kind == "order"]
        if not acts:
            return n
        st.apply(acts[0])
        n += 1


@pytest.mark.parametrize("name,section,count", [
    ("recon", "left", 1), ("probe", "center", 2), ("attack", "right", 3),
    ("assault", "left", 3), ("recon_in_force", None, 3), ("general_advance", None, 6),
    ("pincer_move", None, 4),
])
def test_section_cards_order_counts(name, section, count):
    st = make_state(SPREAD, hands={ALLIES: [f"{name}:{section}" if section else name],
                                   AXIS: ["probe"]})
    play(st, name, section=section)
    assert max_orders(st) == count


def test_pincer_move_orders_no_centre_unit():
    st = make_state(SPREAD, hands={ALLIES: ["pincer_move"], AXIS: ["probe"]})
    play(st, "pincer_move")
    assert uid(st, (7, 13)) not in orderable(st)


def test_recon_draws_two_keeps_one():
    st = make_state(SPREAD, hands={ALLIES: ["recon:left", "probe:left"], AXIS: ["probe"]})
    deck_before = list(st.deck)
    play(st, "recon", section="left")
    order(st, (7, 1))
    st.apply(Action("end_moves"))
    st.apply(Action("end_battles"))
    p = st.pending[-1]
    assert p.kind == "keep" and p.cards == (deck_before[-1], deck_before[-2])
    keep = p.cards[1]
    st.apply(Action("keep", card=keep))
    assert keep in st.hands[ALLIES] and len(st.hands[ALLIES]) == 2
    assert p.cards[0] in st.discard and st.active == AXIS


def test_surplus_orders_are_lost_and_card_is_discarded():
    st = make_state(SPREAD, hands={ALLIES: ["assault:center", "probe:left"], AXIS: ["probe"]})
    cid = st.hands[ALLIES][0]
    play(st, "assault", section="center")
    st.apply(Action("end_orders"))
    st.apply(Action("end_moves"))
    st.apply(Action("end_battles"))
    assert cid in st.discard and len(st.hands[ALLIES]) == 2 and st.active == AXIS


def test_card_not_in_hand_is_illegal_and_changes_nothing():
    st = make_state(SPREAD, hands={ALLIES: ["probe:left"], AXIS: ["probe"]})
    before = st.to_json()
    with pytest.raises(IllegalAction) as exc:
        st.apply(Action("play", card=card_id("air_power")))
    assert exc.value.rule == "M44 p.5 Play a Command Card"
    assert st.to_json() == before


def test_air_power_allies_two_dice_a_hex_stars_hit_flags_not_ignored():
    units = [(ALLIES, "inf", (8, 0)), (AXIS, "inf", (2, 12)), (AXIS, "inf", (2, 14)),
             (AXIS, "inf", (0, 2))]
    st = make_state(units, {(2, 12): "woods"}, hands={ALLIES: ["air_power"], AXIS: ["probe"]},
                    obstacles=[("sand", (2, 14))],
                    dice=faces("star", "inf") + faces("flag", "star"))
    play(st, "air_power")
    opts = {a.hex for a in st.legal_actions() if a.kind == "air_target"}
    assert opts == {H(2, 12), H(2, 14), H(0, 2)}
    st.apply(Action("air_target", hex=H(2, 12)))
    opts = {a.hex for a in st.legal_actions() if a.kind == "air_target"}
    assert opts == {H(2, 14)}  # the group must stay contiguous
    st.apply(Action("air_target", hex=H(2, 14)))
    st.apply(Action("air_strike"))
    assert st.unit_at(H(2, 12)).figures == 2  # star + infantry, woods ignored
    # the flag could not be ignored behind sandbags: the unit must retreat
    assert st.unit_at(H(2, 14)).figures == 3
    assert st.pending[-1].kind == "retreat" and st.side_to_act == AXIS


def test_air_power_axis_one_die_a_hex():
    units = [(AXIS, "inf", (0, 0)), (ALLIES, "inf", (6, 12))]
    st = make_state(units, hands={AXIS: ["air_power"], ALLIES: ["probe"]}, active=AXIS,
                    dice=faces("grenade"))
    play(st, "air_power")
    st.apply(Action("air_target", hex=H(6, 12)))
    ev = st.apply(Action("air_strike"))
    assert [e.data["dice"] for e in ev if e.kind == "battle"] == [1]


def test_barrage_four_dice_ignore_terrain_no_stars():
    units = [(ALLIES, "inf", (8, 0)), (AXIS, "tank", (1, 13))]
    st = make_state(units, {(1, 13): "woods"}, hands={ALLIES: ["barrage"], AXIS: ["probe"]},
                    dice=faces("tank", "star", "grenade", "inf"))
    play(st, "barrage")
    st.apply(Action("barrage", hex=H(1, 13)))
    assert st.unit_at(H(1, 13)).figures == 1


def test_ambush_defender_battles_first():
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "inf", (4, 12))]
    st = make_state(units, hands={ALLIES: ["attack:center"], AXIS: ["ambush", "probe"]},
                    dice=faces("flag", "inf", "star"))
    play(st, "attack", section="center")
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(4, 12)))
    assert st.side_to_act == AXIS and st.pending[-1].kind == "ambush"
    ev = st.apply(Action("ambush", card=card_id("ambush")))
    assert any(e.kind == "ambush" for e in ev)
    # infantry hit + flag: the attacker loses a figure and must retreat: attack cancelled
    if st.pending:
        st.apply(st.legal_actions()[0])
    attacker = st.units[0]
    assert attacker.figures == 3 and attacker.hex != H(5, 13)
    assert st.unit_at(H(4, 12)).figures == 4
    st.apply(Action("end_battles"))
    assert len(st.hands[AXIS]) == 2  # the ambusher drew a card first
    assert card_id("ambush") in st.discard


def test_ambush_declined_attack_goes_on():
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "inf", (4, 12))]
    st = make_state(units, hands={ALLIES: ["attack:center"], AXIS: ["ambush", "probe"]},
                    dice=faces("inf", "star", "star"))
    play(st, "attack", section="center")
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    st.apply(Action("battle", unit=uid(st, (5, 13)), hex=H(4, 12)))
    st.apply(Action("no_ambush"))
    assert st.unit_at(H(4, 12)).figures == 3


def test_armor_assault_extra_die_in_close_assault():
    units = [(ALLIES, "tank", (5, 13)), (ALLIES, "tank", (6, 16)), (ALLIES, "inf", (6, 2)),
             (AXIS, "inf", (4, 12)), (AXIS, "inf", (4, 16))]
    st = make_state(units, hands={ALLIES: ["armor_assault"], AXIS: ["probe"]})
    play(st, "armor_assault")
    assert orderable(st) == {uid(st, (5, 13)), uid(st, (6, 16))}
    order(st, (5, 13), (6, 16))
    st.apply(Action("end_moves"))
    assert st.battle_dice(st.unit_at(H(5, 13)), st.unit_at(H(4, 12)))[0] == 4
    assert st.battle_dice(st.unit_at(H(6, 16)), st.unit_at(H(4, 16)))[0] == 3


def test_armor_assault_without_armour_orders_one_unit():
    st = make_state(SPREAD, hands={ALLIES: ["armor_assault"], AXIS: ["probe"]})
    play(st, "armor_assault")
    assert max_orders(st) == 1


def test_artillery_bombard_moves_three_or_battles_twice():
    units = [(ALLIES, "gun", (7, 11)), (ALLIES, "gun", (7, 15)), (AXIS, "inf", (4, 12))]
    st = make_state(units, hands={ALLIES: ["artillery_bombard"], AXIS: ["probe"]},
                    dice=faces("star", "star", "star", "star", "star"))
    play(st, "artillery_bombard")
    order(st, (7, 11), (7, 15))
    assert max(st.move_options(uid(st, (7, 15))).values()) == 3
    st.apply(Action("move", unit=uid(st, (7, 15)), hex=H(7, 21)))
    st.apply(Action("end_moves"))
    gun = uid(st, (7, 11))
    st.apply(Action("battle", unit=gun, hex=H(4, 12)))
    st.apply(Action("battle", unit=gun, hex=H(4, 12)))
    with pytest.raises(IllegalAction):
        st.apply(Action("battle", unit=gun, hex=H(4, 12)))
    assert not st.can_battle(st.unit_at(H(7, 21)))[0]


def test_behind_enemy_lines_move_battle_move():
    units = [(ALLIES, "inf", (8, 12)), (ALLIES, "inf", (8, 2)), (AXIS, "inf", (4, 12))]
    st = make_state(units, hands={ALLIES: ["behind_enemy_lines"], AXIS: ["probe"]},
                    dice=faces("star", "star", "star", "star"))
    play(st, "behind_enemy_lines")
    assert max_orders(st) == 1
    u = st.ctx.ordered[0]
    assert st.units[u].hex == H(8, 12)
    st.apply(Action("end_orders"))
    assert st.move_options(u)[H(5, 13)] == 3
    st.apply(Action("move", unit=u, hex=H(5, 13)))
    st.apply(Action("end_moves"))
    ev = st.apply(Action("battle", unit=u, hex=H(4, 12)))
    assert ev[0].data["dice"] == 4  # 3 + 1
    assert max(st.move_options(u).values()) == 3
    st.apply(Action("move", unit=u, hex=H(7, 13)))
    assert [a for a in st.legal_actions() if a.kind == "move"] == []


def test_close_assault_all_adjacent_plus_one_no_move():
    units = [(ALLIES, "inf", (5, 13)), (ALLIES, "tank", (5, 11)), (ALLIES, "inf", (7, 21)),
             (ALLIES, "gun", (5, 9)), (AXIS, "inf", (4, 12)), (AXIS, "inf", (4, 8))]
    st = make_state(units, hands={ALLIES: ["close_assault"], AXIS: ["probe"]})
    play(st, "close_assault")
    assert orderable(st) == {uid(st, (5, 13)), uid(st, (5, 11))}
    order(st, (5, 13), (5, 11))
    assert st.phase == "battle"
    assert st.battle_dice(st.unit_at(H(5, 13)), st.unit_at(H(4, 12)))[0] == 4


def test_counter_attack_mirrors_section_cards():
    """Counter-Attack: the opponent's left-flank card becomes the counter-attacker's right."""
    units = [(ALLIES, "inf", (7, 1)), (AXIS, "inf", (1, 1)), (AXIS, "inf", (1, 23))]
    st = make_state(units, hands={ALLIES: ["probe:left"], AXIS: ["counter_attack"]})
    play(st, "probe", section="left")
    st.apply(Action("end_orders"))
    st.apply(Action("end_moves"))
    st.apply(Action("end_battles"))
    play(st, "counter_attack")
    assert st.ctx.effect == "probe"
    assert orderable(st) == {uid(st, (1, 1))}  # Axis right flank = the same board section


def test_counter_attack_needs_an_opponent_card():
    st = make_state(SPREAD, hands={ALLIES: ["counter_attack", "probe:left"], AXIS: ["probe"]})
    assert all(DECK[a.card].name != "counter_attack" for a in st.legal_actions())


def test_dig_in_places_sandbags_and_ends_turn():
    st = make_state(SPREAD, hands={ALLIES: ["dig_in"], AXIS: ["probe"]})
    play(st, "dig_in")
    assert max_orders(st) == 4
    st.apply(Action("end_orders"))
    assert len(st.sandbags) == 4 and st.active == AXIS


def test_direct_from_hq_four_units_anywhere():
    st = make_state(SPREAD, hands={ALLIES: ["direct_from_hq"], AXIS: ["probe"]})
    play(st, "direct_from_hq")
    assert max_orders(st) == 4


def test_firefight_not_adjacent_no_move_plus_one():
    units = [(ALLIES, "inf", (5, 13)), (ALLIES, "inf", (6, 16)), (AXIS, "inf", (4, 12)),
             (AXIS, "inf", (4, 16))]
    st = make_state(units, hands={ALLIES: ["firefight"], AXIS: ["probe"]})
    play(st, "firefight")
    assert orderable(st) == {uid(st, (6, 16))}
    order(st, (6, 16))
    assert st.phase == "battle"
    assert st.battle_dice(st.unit_at(H(6, 16)), st.unit_at(H(4, 16)))[0] == 3


def test_infantry_assault_one_section_move_two_and_battle():
    units = SPREAD + [(AXIS, "inf", (4, 12))]
    st = make_state(units, hands={ALLIES: ["infantry_assault"], AXIS: ["probe"]})
    play(st, "infantry_assault", option="center")
    assert max_orders(st) == 3
    st.apply(Action("end_orders"))
    u = uid(st, (7, 13))
    assert max(st.move_options(u).values()) == 3
    st.apply(Action("move", unit=u, hex=H(5, 13)))
    st.apply(Action("end_moves"))
    assert st.can_battle(st.unit_at(H(5, 13)))[0]


def test_medics_and_mechanics():
    units = [(ALLIES, "inf", (6, 12)), (AXIS, "inf", (0, 12))]
    st = make_state(units, hands={ALLIES: ["medics_mechanics", "probe:left", "probe:right"],
                                  AXIS: ["probe"]},
                    dice=faces("inf", "star", "grenade"))
    st.set_figures(st.unit_at(H(6, 12)), 1)
    play(st, "medics_mechanics")
    ev = st.apply(Action("medics", unit=uid(st, (6, 12))))
    assert ev[0].data["restored"] == 2 and st.unit_at(H(6, 12)).figures == 3
    assert st.phase == "move" and st.ctx.ordered == [uid(st, (6, 12))]


def test_move_out_four_infantry():
    st = make_state(SPREAD, hands={ALLIES: ["move_out"], AXIS: ["probe"]})
    play(st, "move_out")
    assert max_orders(st) == 4


def test_their_finest_hour():
    units = [(ALLIES, "inf", (7, 1)), (ALLIES, "inf", (7, 3)), (ALLIES, "tank", (7, 5)),
             (ALLIES, "gun", (7, 21)), (AXIS, "inf", (5, 1))]
    st = make_state(units, hands={ALLIES: ["finest_hour", "probe:left", "probe:right"],
                                  AXIS: ["probe"]},
                    dice=faces("inf", "star", "flag") + [1, 1] * 40)
    play(st, "finest_hour")
    # one infantry order and one free order: the gun can take the star
    assert max_orders(st) == 2
    assert st.ctx.bonus_all == 1
    st.apply(Action("end_orders"))
    st.apply(Action("end_moves"))
    st.apply(Action("end_battles"))
    assert st.discard == [] and st.active == AXIS  # reshuffled into the deck


def test_deck_reshuffles_when_empty():
    st = make_state(SPREAD, hands={ALLIES: ["probe:left"], AXIS: ["probe"]})
    st.discard, st.deck = st.deck, []
    play(st, "probe", section="left")
    st.apply(Action("end_orders"))
    st.apply(Action("end_moves"))
    ev = st.apply(Action("end_battles"))
    assert any(e.kind == "reshuffle" for e in ev)
    assert len(st.deck) == 60 - 2 and st.discard == []
    total = len(st.deck) + len(st.discard) + len(st.hands[ALLIES]) + len(st.hands[AXIS])
    assert total == 60


def test_vassieux_no_reshuffle_axis_wins_when_deck_runs_out():
    st = MemoirGame.from_scenario(7).new_state(seed=3)
    st.discard += st.deck
    st.deck = []
    while st.winner is None:
        a = next(x for x in st.legal_actions()
                 if x.kind in ("play", "end_orders", "end_moves", "end_battles", "air_strike",
                               "keep", "barrage", "medics"))
        st.apply(a)
    assert st.winner == "axis" and "exhausted" in st.win_reason


def test_pegasus_axis_draws_two_after_first_two_turns():
    st = MemoirGame.from_scenario(1).new_state(seed=5)
    sizes = []
    while len(sizes) < 3:
        side = st.active
        a = next(x for x in st.legal_actions() if x.kind != "play" or DECK[x.card].name
                 not in ("recon",))
        if a.kind in ("order", "move", "battle"):
            a = next(x for x in st.legal_actions() if x.kind.startswith("end"))
        st.apply(a)
        if st.pending:
            st.apply(st.legal_actions()[0])
        if side == AXIS and st.active == ALLIES:
            sizes.append(len(st.hands[AXIS]))
    assert sizes == [3, 4, 4]


def test_sainte_mere_eglise_airdrop_is_seeded():
    """The drop point is the Allied player's decision (issue 17 item 17); the scatter of the
    figures is seeded."""
    g = MemoirGame.from_scenario(2)
    a, b = g.new_state(seed=9), g.new_state(seed=9)
    assert a.pending_decision.kind == "airdrop" and a.side_to_act == ALLIES
    ev_a = a.apply(a.legal_actions()[0])
    ev_b = b.apply(b.legal_actions()[0])
    assert [e.text for e in ev_a] == [e.text for e in ev_b]
    drops = [e for e in ev_a if e.kind == "airdrop"]
    assert len(drops) == 4
    safe = sum(e.data["fate"] == "safe" for e in drops)
    assert len(a.units) == len(g.scenario.units) + safe

    def safe_of(seed):
        s = g.new_state(seed=seed)
        return sum(e.data["fate"] == "safe" for e in s.apply(s.legal_actions()[0])
                   if e.kind == "airdrop")

    assert len({safe_of(s) for s in range(12)}) > 1


def test_mortain_recon_as_air_power_from_hill_317():
    g = MemoirGame.from_scenario(9)
    st = g.new_state(seed=1)
    on_hill = [u for u in st.live_units(ALLIES) if u.hex in (H(4, 22), H(5, 21))]
    assert on_hill  # the 120th Infantry starts entrenched on Hill 317
    for u in on_hill:
        st.place(u, None)
    assert not st._recon_air_power_ok(ALLIES)
    ally = st.live_units(ALLIES)[0]
    st.place(ally, H(4, 22))
    assert st._recon_air_power_ok(ALLIES)
    st.active = ALLIES
    st.hands[ALLIES] = [card_id("recon", "left")]
    opts = st.legal_actions()
    assert Action("play", card=card_id("recon", "left"), option="air_power") in opts


def test_bunker_special_rule_terrain():
    units = [(ALLIES, "inf", (6, 12)), (AXIS, "inf", (0, 12))]
    st = make_state(units, {(5, 13): BoardHex(bunker=True)},
                    hands={ALLIES: ["probe:center"], AXIS: ["probe"]})
    play(st, "probe", section="center")
    order(st, (6, 12))
    assert H(5, 13) in st.move_options(uid(st, (6, 12)))


# Behind Enemy Lines: "As restrições do movimento no terreno e combate ainda se aplicam"
# (M44 Appendix 4); Woods and Wire: "tem de parar e não se pode mover mais nessa jogada"
# (M44 Appendix 2). A unit stopped by them this turn has no second move (issue 30).
def _second_moves(st, u):
    return [a for a in st.legal_actions() if a.kind == "move" and a.unit == u]


def _behind_enemy_lines(units, terrain=None, obstacles=None, dice=()):
    st = make_state(units, terrain, hands={ALLIES: ["behind_enemy_lines"], AXIS: ["probe"]},
                    obstacles=obstacles, dice=list(dice))
    play(st, "behind_enemy_lines")
    st.apply(Action("order", unit=uid(st, (8, 12))))
    u = st.ctx.ordered[0]
    st.apply(Action("end_orders"))
    return st, u


@pytest.mark.parametrize("wire", [False, True])
def test_behind_enemy_lines_no_second_move_after_entering_wire(wire):
    units = [(ALLIES, "inf", (8, 12)), (AXIS, "inf", (4, 12))]
    st, u = _behind_enemy_lines(units, obstacles=[("wire", (6, 12))] if wire else None,
                                dice=faces("star", "star", "star"))
    st.apply(Action("move", unit=u, hex=H(6, 12)))
    st.apply(Action("end_moves"))
    ev = st.apply(Action("battle", unit=u, hex=H(4, 12)))
    # 2 dice at range 2, +1 Behind Enemy Lines, -1 for infantry battling out of wire
    assert ev[0].data["dice"] == (2 if wire else 3)
    if not wire:
        assert _second_moves(st, u)  # the card's "depois mover-se até 3 hexágonos"
        return
    assert _second_moves(st, u) == []
    with pytest.raises(IllegalAction):
        st.apply(Action("move", unit=u, hex=H(7, 13)))
    assert st.units[u].hex == H(6, 12)


@pytest.mark.parametrize("terrain", ["plain", "woods"])
def test_behind_enemy_lines_no_second_move_after_taking_ground_into_woods(terrain):
    units = [(ALLIES, "inf", (8, 12)), (AXIS, "inf", (4, 12))]
    # 3 dice at range 1 +1 Behind Enemy Lines, -1 against woods: flag, star, star (, star)
    dice = faces("flag", "star", "star") + ([] if terrain == "woods" else faces("star"))
    st, u = _behind_enemy_lines(units, {(4, 12): terrain}, dice=dice)
    st.apply(Action("move", unit=u, hex=H(5, 13)))
    st.apply(Action("end_moves"))
    st.apply(Action("battle", unit=u, hex=H(4, 12)))
    while st.pending and st.pending[-1].kind == "retreat":
        st.apply(st.legal_actions()[0])
    assert st.pending[-1].kind == "take_ground"
    st.apply(Action("take_ground", unit=u, hex=H(4, 12)))
    assert st.units[u].hex == H(4, 12)
    if terrain == "plain":
        assert _second_moves(st, u)
        return
    assert _second_moves(st, u) == []
    with pytest.raises(IllegalAction):
        st.apply(Action("move", unit=u, hex=H(5, 13)))


# Ambush (M44 Appendix 4) is the defender battling first; Ocean (M44 Appendix 2): "uma
# unidade que esteja num hexágono com o Oceano, não pode combater" (issue 30).
@pytest.mark.parametrize("ground", ["beach", "ocean"])
def test_no_ambush_from_an_ocean_hex(ground):
    units = [(AXIS, "inf", (4, 12)), (ALLIES, "inf", (5, 13))]
    st = make_state(units, {(5, 13): ground}, active=AXIS,
                    hands={AXIS: ["attack:center"], ALLIES: ["ambush", "probe"]},
                    dice=faces("star", "star", "star"))
    play(st, "attack", section="center")
    order(st, (4, 12))
    st.apply(Action("end_moves"))
    ev = st.apply(Action("battle", unit=uid(st, (4, 12)), hex=H(5, 13)))
    if ground == "beach":
        assert st.pending_decision.kind == "ambush" and st.side_to_act == ALLIES
        return
    # no Ambush offered: the close assault is rolled at once, the card stays in hand
    assert not st.pending
    assert [e.kind for e in ev].count("battle") == 1 and ev[0].data["unit"] == uid(st, (4, 12))
    assert card_id("ambush") in st.hands[ALLIES]
