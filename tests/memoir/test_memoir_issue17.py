"""Issue 17, Memoir '44 items 11-18: positions set up from the pt-PT rulebook's words
(Memoir '44, pt-PT), the scenario texts and the reference layouts. Each test names its item."""

from __future__ import annotations

import pytest
from m44helpers import H, faces, make_state, order, play, uid

from wargame.memoir import ALLIES, AXIS, Action, IllegalAction, MemoirGame

HANDS = {ALLIES: ["attack:center", "attack:center", "attack:left", "attack:right"],
         AXIS: ["attack:center", "attack:center", "attack:left", "attack:right"]}
ENDS = ("end_orders", "end_moves", "end_battles", "air_strike")


def pass_turn(st) -> list:
    """Play the side to act's turn ordering nobody (first playable card, then end phases)."""
    side = st.active
    ev = []
    while st.active == side and st.winner is None:
        acts = st.legal_actions()
        a = next((x for x in acts if x.kind in ENDS), None)
        if a is None:
            a = next(x for x in acts if x.kind in ("play", "keep", "barrage", "medics",
                                                      "air_target", "airdrop", "ignore_flag"))
        ev += st.apply(a)
    return ev


# ---------------------------------------------------------------- item 11: Toulon
TOULON_TOWN = [(0, 12), (2, 12), (1, 15), (1, 17)]


def _toulon_with_allies_on(n: int):
    st = MemoirGame.from_scenario(10).new_state(seed=1)
    for u in st.live_units(AXIS):
        if (u.hex.r, 2 * u.hex.q + u.hex.r) in TOULON_TOWN:
            st.place(u, None)
    allies = st.live_units(ALLIES)
    for u, pos in zip(allies, TOULON_TOWN[:n], strict=False):
        st.place(u, H(*pos))
    return st


def test_toulon_town_hexes_are_the_four_buildings_hexes_of_the_layout():
    """M44 scenario 10 Toulon: the town is the four buildings hexes around the layout's
    "Toulon" label at (1,13) (the fifth, at (3,5), is Hyeres)."""
    sc = MemoirGame.from_scenario(10).scenario
    label = H(1, 13)
    town = {h for h in sc.board.all_hexes()
            if sc.board.terrain(h) == "buildings" and h.distance(label) <= 2}
    (sd,) = sc.opt("sudden_death")
    assert sd["hexes"] == town == {H(*p) for p in TOULON_TOWN}
    assert sd["required"] == 3


@pytest.mark.parametrize("held,wins", [(1, False), (2, False), (3, True)])
def test_toulon_sudden_death_needs_three_town_hexes(held, wins):
    """M44 scenario 10 Toulon victory: "If Allied units occupy 3 town hexes in Toulon at the
    end of their turn, they win immediately" (English text; BGA: 3 of the 4). The pt-PT
    "o hexágono em Toulon" gives no count; one unit on one town hex does not end the game."""
    st = _toulon_with_allies_on(held)
    assert st.active == ALLIES
    pass_turn(st)
    assert (st.winner == ALLIES) is wins
    if wins:
        assert "sudden death" in st.win_reason


# ---------------------------------------------------------------- item 12: Infantry Assault
def test_infantry_assault_with_infantry_elsewhere_orders_nobody_in_an_empty_section():
    """M44 Appendix 4 Infantry Assault: "Emite uma ordem a todas as unidades de INFANTARIA de 1
    secção ... Se não comandas nenhuma unidade de [infantaria], emite uma ordem a 1 unidade à
    tua escolha": the fallback is for a side with no infantry at all. With infantry on the
    left, Infantry Assault on the centre orders no unit (not the centre's tank)."""
    units = [(ALLIES, "inf", (6, 2)), (ALLIES, "tank", (6, 12)), (AXIS, "inf", (0, 12))]
    st = make_state(units, hands={ALLIES: ["infantry_assault"], AXIS: ["probe"]})
    play(st, "infantry_assault", option="center")
    assert st.phase == "order" and st.ctx.effect == "infantry_assault"
    assert [a for a in st.legal_actions() if a.kind == "order"] == []
    with pytest.raises(IllegalAction):
        st.apply(Action("order", unit=uid(st, (6, 12))))
    # the left section's infantry is ordered by the card itself (3 hexes of movement)
    st = make_state(units, hands={ALLIES: ["infantry_assault"], AXIS: ["probe"]})
    play(st, "infantry_assault", option="left")
    assert {a.unit for a in st.legal_actions() if a.kind == "order"} == {uid(st, (6, 2))}


def test_infantry_assault_without_any_infantry_orders_one_unit_anywhere():
    """... and with no infantry at all, 1 unit of your choice, in any section."""
    units = [(ALLIES, "tank", (6, 2)), (ALLIES, "gun", (8, 22)), (AXIS, "inf", (0, 12))]
    st = make_state(units, hands={ALLIES: ["infantry_assault"], AXIS: ["probe"]})
    play(st, "infantry_assault", option="center")
    assert st.ctx.effect == "fallback"
    assert {a.unit for a in st.legal_actions() if a.kind == "order"} == {
        uid(st, (6, 2)), uid(st, (8, 22))}
    st.apply(Action("order", unit=uid(st, (6, 2))))
    assert [a for a in st.legal_actions() if a.kind == "order"] == []


# ---------------------------------------------------------------- item 14: Close Assault
def _close_assault_overrun(units):
    """Allied armour at (5,13) close-assaults a 1-figure unit at (4,12) (grenade: eliminated)
    and takes the ground; the overrun battle is next."""
    st = make_state(units, hands={ALLIES: ["close_assault"], AXIS: ["probe"]},
                    dice=faces("grenade", "star", "star", "star"))
    play(st, "close_assault")
    tank = uid(st, (5, 13))
    order(st, (5, 13))
    target = st.unit_at(H(4, 12))
    assert st.battle_dice(st.units[tank], target)[0] == 4  # 3 + Close Assault's die
    st.apply(Action("battle", unit=tank, hex=H(4, 12)))
    assert not target.alive
    st.apply(Action("take_ground", unit=tank, hex=H(4, 12)))
    return st, st.units[tank]


def test_close_assault_extra_die_is_not_for_the_overrun_battle():
    """M44 Appendix 4 Close Assault: "As unidades que receberam a ordem combatem com 1 dado
    adicional ... depois de um combate à queima-roupa bem sucedido ... as unidades Blindadas
    podem fazer uma Incursão Mecanizada": the die is the close assault's; the overrun battle
    (M44 p.13) rolls the usual 3."""
    units = [(ALLIES, "tank", (5, 13)), (AXIS, "inf", (4, 12), None, 1),
             (AXIS, "inf", (4, 10))]
    st, tank = _close_assault_overrun(units)
    assert st._overrun_focus() == tank.id
    assert st.battle_dice(tank, st.unit_at(H(4, 10)))[0] == 3


def test_close_assault_overrun_may_fire_at_a_distant_unit():
    """M44 p.13 Armor Overrun: "Se o terreno que ganhaste for adjacente a uma unidade inimiga,
    este segundo combate tem de ser outra vez um Combate à queima-roupa. Caso contrário, podes
    disparar contra a uma unidade distante" -- also after a Close Assault (recorded choice)."""
    units = [(ALLIES, "tank", (5, 13)), (AXIS, "inf", (4, 12), None, 1),
             (AXIS, "inf", (2, 12))]
    st, tank = _close_assault_overrun(units)
    assert st.battle_targets(tank.id) == [H(2, 12)]
    assert st.battle_dice(tank, st.unit_at(H(2, 12)))[0] == 3


# ---------------------------------------------------------------- items 13, 18: Take Ground
OMAHA_CLIFF = {"cliffs": frozenset({H(4, 12)}), "cliffs_no_armour": True}


def _kill_adjacent(st, attacker_pos, target_pos):
    ev = st.apply(Action("battle", unit=uid(st, attacker_pos), hex=H(*target_pos)))
    assert any(e.kind == "eliminated" for e in ev)
    return ev


def test_armour_may_not_take_ground_up_the_omaha_bluff_so_no_overrun():
    """M44 scenario 5 Omaha Beach: "Os tanques não se podem movimentar para cima da falésia a
    partir da praia"; M44 p.13 Take Ground: terrain restrictions apply when taking ground. No
    take ground from the beach up the bluff, hence no Armor Overrun."""
    terrain = {(5, 13): "beach", (4, 12): "hills"}
    units = [(ALLIES, "tank", (5, 13)), (AXIS, "inf", (4, 12), None, 1), (AXIS, "inf", (0, 0))]
    st = make_state(units, terrain, hands=HANDS, dice=faces("grenade", "star"),
                    special=OMAHA_CLIFF)
    play(st, "attack", section="center")
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    _kill_adjacent(st, (5, 13), (4, 12))
    assert not st.pending and st.ctx.overrun == []
    assert not [a for a in st.legal_actions() if a.kind == "take_ground"]
    assert st.unit_at(H(5, 13)) is not None


def test_infantry_still_takes_ground_up_the_bluff():
    """Recorded choice: the bluff is a 2-hex climb for infantry ("Subir a falésia a partir da
    praia é um movimento de 2 hexágonos"), not a prohibition; taking ground is not counted
    against a move, so infantry may take the ground up the bluff."""
    terrain = {(5, 13): "beach", (4, 12): "hills"}
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "inf", (4, 12), None, 1), (AXIS, "inf", (0, 0))]
    st = make_state(units, terrain, hands=HANDS, dice=faces("grenade", "star"),
                    special=OMAHA_CLIFF)
    play(st, "attack", section="center")
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    _kill_adjacent(st, (5, 13), (4, 12))
    assert st.pending_decision.kind == "take_ground"


@pytest.mark.parametrize("entered", ["wire", "woods_resistance"])
def test_no_take_ground_out_of_a_stop_hex_entered_this_turn(entered):
    """M44 Wire: "Uma unidade que entra num hexágono com arame Farpado tem de parar e não se
    pode mover mais nessa jogada" (woods, hedgerows and villages alike); taking ground is a
    move, so a unit that entered such a hex this turn battles from it but stays there. French
    Resistance, which may battle after entering woods, likewise may not take ground out."""
    if entered == "wire":
        units = [(ALLIES, "inf", (6, 12)), (AXIS, "inf", (4, 12), None, 1),
                 (AXIS, "inf", (0, 0))]
        kw = {"obstacles": [("wire", (5, 13))]}
        terrain = None
    else:
        units = [(ALLIES, "inf", (6, 12), "resistance"), (AXIS, "inf", (4, 12), None, 1),
                 (AXIS, "inf", (0, 0))]
        kw = {}
        terrain = {(5, 13): "woods"}
    st = make_state(units, terrain, hands=HANDS, dice=faces("grenade", "star", "star"), **kw)
    play(st, "attack", section="center")
    order(st, (6, 12))
    st.apply(Action("move", unit=uid(st, (6, 12)), hex=H(5, 13)))
    st.apply(Action("end_moves"))
    _kill_adjacent(st, (5, 13), (4, 12))
    assert not st.pending and st.unit_at(H(5, 13)) is not None
    # a unit that started the turn there (did not enter it) takes the ground as usual
    units[0] = (units[0][0], units[0][1], (5, 13)) + tuple(units[0][3:])
    st = make_state(units, terrain, hands=HANDS, dice=faces("grenade", "star", "star"), **kw)
    play(st, "attack", section="center")
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    _kill_adjacent(st, (5, 13), (4, 12))
    assert st.pending_decision.kind == "take_ground"


def test_no_take_ground_into_a_hedgerow_after_moving():
    """M44 Hedgerows: "Para mover uma unidade para dentro de um hexágono com a Sebe, a unidade
    tem de estar adjacente à Sebe" (turn 1: move next to it and stop; turn 2: enter), and
    terrain restrictions apply to Take Ground: a unit that moved this turn may not take ground
    into a hedgerow; one that started its turn adjacent may."""
    terrain = {(4, 12): "hedgerow"}
    units = [(ALLIES, "tank", (6, 12)), (AXIS, "inf", (4, 12), None, 1), (AXIS, "inf", (0, 0))]
    st = make_state(units, terrain, hands=HANDS, dice=faces("grenade"))
    play(st, "attack", section="center")
    order(st, (6, 12))
    st.apply(Action("move", unit=uid(st, (6, 12)), hex=H(5, 13)))
    st.apply(Action("end_moves"))
    _kill_adjacent(st, (5, 13), (4, 12))  # armour: 3 - 2 dice for the hedgerow
    assert not st.pending and st.ctx.overrun == []
    units[0] = (ALLIES, "tank", (5, 13))
    st = make_state(units, terrain, hands=HANDS, dice=faces("grenade"))
    play(st, "attack", section="center")
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    _kill_adjacent(st, (5, 13), (4, 12))
    assert st.pending_decision.kind == "take_ground"


# ---------------------------------------------------------------- item 15: Vassieux
@pytest.mark.parametrize("last_drawer", [AXIS, ALLIES])
def test_vassieux_empty_deck_at_the_end_of_a_turn_ends_the_battle(last_drawer):
    """Vassieux victory conditions: "Deverá o baralho de Cartas de Comando esgotar-se e o
    jogador aliado não ganhou, o combate termina como uma vitória do jogador Alemão". Whoever
    draws the last card, the deck is out at the end of that turn: the Axis wins then, the
    Allies get no further turn."""
    st = MemoirGame.from_scenario(7).new_state(seed=4)
    assert st.active == AXIS
    keep = 1 if last_drawer == AXIS else 2
    st.discard += st.deck[keep:]
    st.deck = st.deck[:keep]
    pass_turn(st)
    if last_drawer == ALLIES:
        assert st.winner is None and st.active == ALLIES and len(st.deck) == 1
        pass_turn(st)
    assert st.winner == AXIS and "exhausted" in st.win_reason
    assert st.deck == [] and st.legal_actions() == []


def test_vassieux_allied_win_on_the_last_card_stands():
    """... "e o jogador aliado não ganhou": an Allied medal victory in that turn comes first."""
    st = MemoirGame.from_scenario(7).new_state(seed=4)
    st.discard += st.deck[2:]
    st.deck = st.deck[:2]
    pass_turn(st)  # the Axis draws; one card left
    axis = st.live_units(AXIS)
    for u in axis[: st.scenario.medals[ALLIES]]:  # medals for the Allies, as eliminations
        st.medal_units[ALLIES].append([u.id, 1])
        st.set_figures(u, 0)
    pass_turn(st)
    assert st.winner == ALLIES


# ---------------------------------------------------------------- item 16: line of sight
def test_a_line_crossing_an_edge_midpoint_passes_through_both_hexes():
    """M44 p.11 Line of Sight: the line is blocked by "qualquer hexágono (ou parte de um
    hexágono) que intercepte esta linha". The line from (0,0) to axial (3,1) crosses the edge
    between (1,1) and (2,0) at its midpoint: it passes through both (it does not run along the
    edge), so both nudged lines hold both."""
    from wargame.hexgrid import Hex
    from wargame.memoir.board import _line_variants, _sampled_line_variants

    for line in _line_variants(Hex(0, 0), Hex(3, 1)):
        assert {Hex(1, 1), Hex(2, 0)} <= set(line)
    old = _sampled_line_variants(Hex(0, 0), Hex(3, 1))
    assert Hex(2, 0) not in old[0] and Hex(1, 1) not in old[1]  # what sampling saw
    # a line running along an edge still has one hex on each side
    a, b = _line_variants(Hex(0, 0), Hex(2, -1))
    assert set(a) ^ set(b) == {Hex(1, 0), Hex(1, -1)}


def test_exact_lines_agree_with_dense_sampling():
    """The computed crossings equal a dense sampling of each nudged segment (hexes clipped for
    less than 1/400 of the line aside, where the nudge decides)."""
    from wargame.hexgrid import Hex, hex_round
    from wargame.memoir.board import _line_variants

    origin = Hex(0, 0)
    for b in origin.within(5):
        n = origin.distance(b)
        if n < 2:
            continue
        for sign, line in zip((1, -1), _line_variants(origin, b), strict=True):
            eq, er = sign * 1e-6, sign * 2e-6
            dense = {hex_round(eq + b.q * i / 400, er + b.r * i / 400) for i in range(401)}
            assert dense <= set(line)
            assert len(set(line) - dense) <= 1  # at most a corner clipped at a hex vertex


def test_saverne_artillery_line_crossing_a_hill_at_an_edge_midpoint_is_blocked():
    """Saverne Gap: "A artilharia não pode disparar sobre as colinas". From (0,8) to (4,10) the
    line crosses the hill (2,8) through the midpoint of its edge with (2,10): it passes over
    the hill, so the Axis artillery may not fire."""
    st = MemoirGame.from_scenario(16).new_state(seed=0)
    gun = next(u for u in st.live_units(AXIS) if u.kind == "gun")
    for u in st.live_units():
        if u.hex in (H(0, 8), H(4, 10)):
            st.place(u, None)
    st.place(gun, H(0, 8))
    target = st.live_units(ALLIES)[0]
    st.place(target, H(4, 10))
    n, why = st.battle_dice(gun, target, check_order=False)
    assert n == 0 and "hills" in why


ARNHEM_SAME_BANK = [((3, 21), (4, 18)), ((0, 10), (1, 13))]


def _arnhem_pair(att, tgt):
    st = MemoirGame.from_scenario(13).new_state(seed=0)
    inf = next(u for u in st.live_units(ALLIES) if u.kind == "inf")
    enemy = st.live_units(AXIS)[0]
    for u in st.live_units():
        if u is not inf and u is not enemy:
            st.place(u, None)
    st.place(inf, H(*att))
    st.place(enemy, H(*tgt))
    return st, inf, enemy


@pytest.mark.parametrize("att,tgt", ARNHEM_SAME_BANK)
def test_arnhem_same_bank_fire_along_the_river_is_allowed(att, tgt):
    """Arnhem Bridge: "As unidades de infantaria não podem apontar (alvo) para unidades do
    lado oposto do rio Rhine": two units on the same bank may fire although the line touches
    the river where it bends."""
    from wargame.memoir import rules

    st, inf, enemy = _arnhem_pair(att, tgt)
    assert rules.crosses(inf.hex, enemy.hex, st.scenario.opt("wide_river"))
    assert st.battle_dice(inf, enemy, check_order=False)[0] > 0


def test_arnhem_fire_across_the_rhine_is_refused_and_the_banks_are_two():
    from wargame.memoir import rules

    st, inf, enemy = _arnhem_pair((2, 10), (0, 10))
    n, why = st.battle_dice(inf, enemy, check_order=False)
    assert n == 0 and "Rhine" in why
    banks = rules.static_of(st.scenario).bank
    assert len(set(banks.values())) == 2
    assert banks[H(2, 10)] != banks[H(0, 10)] and H(3, 15) not in banks  # the bridge: neither


# ---------------------------------------------------------------- item 17: Sainte-Mère-Église
def test_sainte_mere_eglise_allied_player_picks_the_drop_point():
    """Sainte-Mère-Église special rules: "Antes do lado dos aliados fazerem a sua primeira
    jogada, o jogador Aliado tem um lançamento de pára-quedista adicional. Segura com a tua
    mão em 4 figuras ... por cima do campo de batalha. Deixa cair as figuras." The player
    picks where to hold them: a pending decision offering every board hex (the scenario's
    suggested centre first); the figures then scatter by the seeded dice around that hex."""
    g = MemoirGame.from_scenario(2)
    st = g.new_state(seed=3)
    dec = st.pending_decision
    assert dec is not None and dec.kind == "airdrop" and dec.side == ALLIES
    hexes = [a.hex for a in st.legal_actions()]
    assert all(a.kind == "airdrop" for a in st.legal_actions())
    assert set(hexes) == set(g.scenario.board.all_hexes()) and len(hexes) == 113
    assert hexes[0] == H(4, 12)  # the suggested centre (BGA's G5)
    with pytest.raises(IllegalAction):
        st.apply(Action("play", card=st.hands[ALLIES][0]))  # drop first
    before = len(st.units)
    corner = H(8, 0)
    ev = st.apply(Action("airdrop", hex=corner))
    assert ev[0].kind == "airdrop_point" and "(8,0)" in ev[0].text
    drops = [e for e in ev if e.kind == "airdrop"]
    assert len(drops) == 4
    new = [u for u in st.units.values() if u.id >= before]
    assert len(new) == sum(e.data["fate"] == "safe" for e in drops)
    assert all(u.hex.distance(corner) <= 4 and u.kind == "inf" and u.figures == 4
               and u.side == ALLIES for u in new)
    assert st.pending_decision is None and st.phase == "card" and st.active == ALLIES


def test_sainte_mere_eglise_drop_point_changes_where_units_land():
    g = MemoirGame.from_scenario(2)
    landed = {}
    for where in (H(2, 2), H(6, 22)):
        st = g.new_state(seed=5)
        n = len(st.units)
        st.apply(Action("airdrop", hex=where))
        landed[where] = [u.hex for u in st.units.values() if u.id >= n]
    assert all(h.distance(H(2, 2)) <= 4 for h in landed[H(2, 2)])
    assert all(h.distance(H(6, 22)) <= 4 for h in landed[H(6, 22)])


def test_saves_written_before_the_airdrop_decision_still_load():
    """A log from before issue 17 starts with the Allies' first card: the replay answers the
    drop decision as the engine then did itself (the centre, same dice), so the save loads to
    the same fingerprint."""
    import random

    from wargame.bots.memoir_random import random_action
    from wargame.games import open_game
    from wargame.saves import from_save, to_save

    game = open_game("memoir44-2")
    st = game.new_state(8)
    st.apply(st.legal_actions()[0])  # the centre: what the old engine did
    rng = random.Random(8)
    for _ in range(60):
        st.apply(random_action(st, rng))
    save = to_save(st)
    assert save["actions"][0]["kind"] == "airdrop"
    old = dict(save, actions=save["actions"][1:])
    loaded = from_save(old)
    assert loaded.fingerprint() == st.fingerprint()
    assert loaded.action_log == st.action_log  # the answer is now in the log


# ---------------------------------------------------------------- item 18: smaller ones
def _battle(st, attacker, target):
    return st.apply(Action("battle", unit=uid(st, attacker), hex=H(*target)))


def _sandbag_position(dice):
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "inf", (4, 12)), (AXIS, "inf", (0, 0))]
    st = make_state(units, hands=HANDS, obstacles=[("sand", (4, 12))], dice=dice)
    play(st, "attack", section="center")
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    return st


def test_ignoring_the_first_flag_on_sandbags_is_the_owners_choice():
    """M44 Sandbags: "Uma unidade escondida por detrás dos Sacos de Areia, pode ignorar a
    primeira Bandeira" (Bunkers and Hedgehogs: "pode ignorar"): may, so the owner decides --
    a pending decision ``ignore_flag`` / ``accept_flags``."""
    st = _sandbag_position(faces("flag", "star"))
    defender = st.unit_at(H(4, 12))
    ev = _battle(st, (5, 13), (4, 12))
    dec = st.pending_decision
    assert dec.kind == "ignore_flag" and dec.side == AXIS and st.side_to_act == AXIS
    assert set(dec.options) == {Action("ignore_flag", unit=defender.id),
                                Action("accept_flags", unit=defender.id)}
    assert not any(e.kind == "retreat" for e in ev)
    ev = st.apply(Action("accept_flags", unit=defender.id))
    if st.pending_decision is not None:  # two hexes to retreat to: the owner picks one
        assert st.pending_decision.kind == "retreat"
        ev += st.apply(st.legal_actions()[0])
    assert defender.hex != H(4, 12) and H(4, 12) not in st.sandbags
    assert not any(e.kind == "flags_ignored" for e in ev)
    # ... or keeps its ground
    st = _sandbag_position(faces("flag", "star"))
    _battle(st, (5, 13), (4, 12))
    ev = st.apply(Action("ignore_flag", unit=st.unit_at(H(4, 12)).id))
    assert any(e.kind == "flags_ignored" for e in ev) and st.unit_at(H(4, 12)) is not None
    assert not st.pending  # it stays: nothing to take


def test_artillery_in_a_bunker_may_take_both_flags_as_losses():
    """M44 Bunkers: artillery loses a figure per flag; ignoring the first is its option."""
    from wargame.memoir.board import BoardHex

    units = [(ALLIES, "inf", (5, 13)), (AXIS, "gun", (4, 12)), (AXIS, "inf", (0, 0))]
    st = make_state(units, {(4, 12): BoardHex(bunker=True)}, hands=HANDS,
                    dice=faces("flag", "flag"), special={"bunker_owner": AXIS})
    play(st, "attack", section="center")
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    gun = st.unit_at(H(4, 12))
    _battle(st, (5, 13), (4, 12))
    st.apply(Action("accept_flags", unit=gun.id))
    assert not gun.alive  # 2 figures, 2 flags


def test_ambushed_unit_whose_retreat_is_blocked_still_attacks_if_it_survives():
    """M44 Appendix 4 Ambush: "Se a unidade oponente não for eliminada ou forçada a
    retirar-se, pode então atacar normalmente". A unit whose retreat is blocked loses figures
    instead (M44 p.12) and stays: it was not moved back, so if it survives it attacks
    (recorded choice)."""
    units = [(ALLIES, "inf", (5, 13)), (ALLIES, "inf", (6, 12)), (ALLIES, "inf", (6, 14)),
             (AXIS, "inf", (4, 12))]
    st = make_state(units, hands={ALLIES: ["attack:center"], AXIS: ["ambush"]},
                    dice=faces("flag", "star", "star") + faces("star", "star", "star"))
    play(st, "attack", section="center")
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    attacker = st.unit_at(H(5, 13))
    _battle(st, (5, 13), (4, 12))
    assert st.pending_decision.kind == "ambush"
    ev = st.apply(st.legal_actions()[0])
    assert [e.kind for e in ev].count("battle") == 2  # the ambush, then the close assault
    assert not any(e.kind == "attack_cancelled" for e in ev)
    assert attacker.figures == 3 and attacker.hex == H(5, 13)


def test_ambushed_unit_on_sandbags_chooses_and_attacks_when_it_ignores_the_flag():
    units = [(ALLIES, "inf", (5, 13)), (AXIS, "inf", (4, 12))]
    st = make_state(units, hands={ALLIES: ["attack:center"], AXIS: ["ambush"]},
                    obstacles=[("sand", (5, 13))],
                    dice=faces("flag", "star", "star") + faces("star", "star", "star"))
    play(st, "attack", section="center")
    order(st, (5, 13))
    st.apply(Action("end_moves"))
    attacker = st.unit_at(H(5, 13))
    _battle(st, (5, 13), (4, 12))
    st.apply(Action("ambush", card=st.pending[-1].card))
    dec = st.pending_decision
    assert dec.kind == "ignore_flag" and dec.side == ALLIES
    ev = st.apply(Action("ignore_flag", unit=attacker.id))
    assert any(e.kind == "battle" and e.data["unit"] == attacker.id for e in ev)
    assert attacker.hex == H(5, 13)


def test_dig_in_places_no_sandbags_at_sea():
    """M44 Dig-In: a sandbag "no hexágono das unidades"; none in an ocean hex (recorded
    choice: the ocean is no position to improve; BGA: the ocean blocks sandbags)."""
    units = [(ALLIES, "inf", (7, 13)), (ALLIES, "inf", (6, 12)), (AXIS, "inf", (0, 0))]
    st = make_state(units, {(7, 13): "ocean"}, hands={ALLIES: ["dig_in"], AXIS: ["probe"]},
                    face="BEACH")
    play(st, "dig_in")
    order(st, (7, 13), (6, 12))
    assert st.sandbags == {H(6, 12)}


def test_beach_limit_counts_every_hex_of_a_move_onto_the_beach():
    """M44 Beaches: "Uma unidade que se movimente em cima de um hexágono com a Praia, só se
    pode mover por 2 hexágonos": the whole move is at most 2 hexes, not 2 beach hexes
    (recorded choice; BGA: "Maximum movement onto beaches is 2 hexes")."""
    terrain = {(5, 13): "beach", (6, 12): "beach", (6, 14): "beach", (7, 13): "beach"}
    st = make_state([(ALLIES, "tank", (3, 13)), (AXIS, "inf", (0, 0))], terrain, hands=HANDS)
    play(st, "attack", section="center")
    order(st, (3, 13))
    dest = st.move_options(uid(st, (3, 13)))
    assert dest.get(H(4, 12)) == 1 and dest.get(H(5, 13)) == 2  # plain, then beach
    assert H(6, 12) not in dest and H(6, 14) not in dest  # a 3rd hex onto the beach
    assert dest.get(H(6, 16)) == 3  # inland moves keep the full 3


def test_saves_written_before_the_ignore_flag_decision_still_load():
    """Logs from before issue 17 never answer ``ignore_flag``: the engine then always ignored
    the flag, and the replay does so for them, to the same fingerprint."""
    import random

    from wargame.bots.memoir_random import random_action
    from wargame.games import open_game
    from wargame.saves import from_save, to_save

    game = open_game("memoir44-3")  # Sword Beach: bunkers and sandbags
    st = game.new_state(2, dice_version=1)  # the dice of every save written before issue 17
    rng = random.Random(2)
    answered = 0
    for _ in range(3000):
        if st.is_terminal:
            break
        if st.pending and st.pending[-1].kind == "ignore_flag":
            st.apply(st.legal_actions()[0])  # what the old engine did
            answered += 1
        else:
            st.apply(random_action(st, rng))
    assert answered > 0
    save = to_save(st)
    old = dict(save, actions=[a for a in save["actions"] if a["kind"] != "ignore_flag"])
    assert from_save(old).fingerprint() == st.fingerprint()


def test_new_decisions_survive_a_json_round_trip():
    """The ``airdrop`` and ``ignore_flag`` decisions save to JSON and load to the same state,
    which then plays on identically."""
    from wargame.memoir import MemoirState

    s = MemoirGame.from_scenario(2).new_state(1)
    r = MemoirState.from_json(s.to_json())
    assert r.to_json() == s.to_json() and r.pending_decision.kind == "airdrop"
    a = s.legal_actions()[50]
    assert s.apply(a) == r.apply(a)

    st = _sandbag_position(faces("flag", "flag", "star"))
    _battle(st, (5, 13), (4, 12))
    def plain(state):  # the scripted dice are a test double, not saved
        return {k: v for k, v in state.to_json().items() if k != "dice"}

    r = MemoirState.from_json(st.to_json(), st.game)
    assert plain(r) == plain(st) and r.pending[-1].flags == 2
    a = Action("ignore_flag", unit=st.pending[-1].unit)
    assert st.apply(a) == r.apply(a) and plain(st) == plain(r)
