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
    assert err.reason == "primeiro jogue uma carta de Comando, não 'order'"


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
