"""Memoir '44 refusals in Portuguese (issue #16): the reason is rendered in the current
language from the refusal catalogue, the rule is kept, the state is unchanged, and the
refusal can be shown again in English."""

from __future__ import annotations

import pytest
from m44helpers import H, make_state, order, play, uid

from wargame import i18n
from wargame.errors import CardRefused, CombatRefused, WrongPhase
from wargame.memoir import ALLIES, AXIS, Action

HANDS = {ALLIES: ["attack:center", "attack:center", "attack:left", "attack:right"],
         AXIS: ["attack:center", "attack:center", "attack:left", "attack:right"]}
UNITS = [(ALLIES, "inf", (6, 12)), (ALLIES, "inf", (6, 2)), (ALLIES, "tank", (7, 13)),
         (AXIS, "inf", (3, 13)), (AXIS, "inf", (0, 12))]


def refused_pt(st, action, cls):
    before = st.fingerprint(), st.to_json()
    with i18n.using_language("pt"), pytest.raises(cls) as exc:
        st.apply(action)
    assert (st.fingerprint(), st.to_json()) == before
    return exc.value


def test_a_card_played_wrongly_is_refused_in_portuguese():
    st = make_state(UNITS, hands=HANDS)
    not_mine = st.hands[AXIS][0]
    err = refused_pt(st, Action("play", card=not_mine), CardRefused)
    assert err.reason == f"a carta {not_mine} não está na mão deste lado (Aliados)"
    assert err.rule == "M44 p.5 Play a Command Card"
    assert err.render("en") == f"card {not_mine} is not in allied's hand"
    err = refused_pt(st, Action("order", unit=uid(st, (6, 12))), WrongPhase)
    assert err.reason == "primeiro jogue uma carta de Comando, não «dar uma ordem»"  # issue #32
    assert err.render("en") == "play a command card first, not 'order'"


def test_a_battle_out_of_reach_and_a_wrong_answer_in_portuguese():
    st = make_state(UNITS, hands=HANDS)
    play(st, "attack", section="center")
    order(st, (6, 12))
    st.apply(Action("end_moves"))
    err = refused_pt(st, Action("battle", unit=uid(st, (6, 12)), hex=H(0, 12)), CombatRefused)
    assert err.reason == "alvo fora de alcance (6 hexágonos)" and err.key.startswith("memoir.why")
    assert err.render("en") == "target out of range (6 hexes)"
    assert err.rule == "M44 p.10 Combat Range"


def test_a_pending_decision_names_side_and_decision_in_portuguese():
    from wargame.error_texts import render_refusal

    data = {"side": AXIS, "decision": "take_ground", "options": ["take_ground", "skip"]}
    assert render_refusal("memoir.pending.answer", data) == (
        "axis must answer the pending take_ground decision with one of "
        "['take_ground', 'skip']")
    with i18n.using_language("pt"):
        assert render_refusal("memoir.pending.answer", data) == (
            "Eixo: responda à decisão pendente (Ganhar Terreno) com uma de "
            "['take_ground', 'skip']")
        assert render_refusal("memoir.phase.none", {"memoir_phase": "barrage"}) == (
            "nenhuma ação possível na fase Barragem")


def test_a_battle_refusal_keeps_its_key_when_its_english_is_reworded(monkeypatch):
    """The engine's reason is made from its key (issue #35), so rewording the English of the
    catalogue rewords the engine's reason and the refusal still carries the key, the data and
    the rule. Matching the English text back to a key
    (the way refusals were keyed before) loses the key or keeps the old wording here."""
    from wargame import error_texts

    reworded = "too far: the target is {distance} hexes away"
    monkeypatch.setitem(error_texts.REFUSALS_MEMOIR.english, "why.out_of_range", reworded)
    monkeypatch.setitem(error_texts._ENGLISH, "memoir.why.out_of_range", reworded)
    st = make_state(UNITS, hands=HANDS)
    play(st, "attack", section="center")
    order(st, (6, 12))
    st.apply(Action("end_moves"))
    n, why = st.battle_dice(st.units[uid(st, (6, 12))], st.unit_at(H(0, 12)))
    assert n == 0 and why == "too far: the target is 6 hexes away"
    assert (why.key, why.data) == ("memoir.why.out_of_range", {"distance": 6})
    err = refused_pt(st, Action("battle", unit=uid(st, (6, 12)), hex=H(0, 12)), CombatRefused)
    assert (err.key, err.data) == ("memoir.why.out_of_range", {"distance": 6})
    assert err.rule == "M44 p.10 Combat Range"
    # in Portuguese as the catalogue says it: a reworded English has no translation until it
    # is translated again (tools/i18n.py update marks it fuzzy), so the new English shows
    assert err.reason == err.render("pt") == "too far: the target is 6 hexes away"
    assert err.render("en") == "too far: the target is 6 hexes away"


def test_every_battle_reason_of_the_engine_is_keyed():
    """Whatever ``can_battle``/``battle_dice`` return as a reason is a keyed ``Reason``: no
    reason is a bare English string to be matched (issue #35)."""
    from wargame.errors import Reason

    st = make_state(UNITS, hands=HANDS)
    play(st, "attack", section="center")
    order(st, (6, 12))
    st.apply(Action("end_moves"))
    seen = set()
    for u in st.live_units(ALLIES):
        ok, why = st.can_battle(u)
        if not ok:
            seen.add(why.key)
        for e in st.live_units(AXIS) + st.live_units(ALLIES):
            n, why = st.battle_dice(u, e, check_order=False)
            if n == 0:
                assert isinstance(why, Reason) and why.key.startswith("memoir.why."), why
                seen.add(why.key)
    assert {"memoir.why.no_order", "memoir.why.not_enemy", "memoir.why.out_of_range"} <= seen
