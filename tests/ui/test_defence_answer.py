"""The attack preview shows what the defender may answer (issue #15, CN/OD 5.1.1, 8.0): on
D-Day the Allied attack on Colleville (2010) may meet the Pointe du Hoc coastal battery, which
the preview used to leave out (it said 6-1 and the roll came at 3-1)."""

from __future__ import annotations

from html import escape

import pytest

from wargame.bots.play import make_policy
from wargame.event_text import shift_reason
from wargame.hexgrid import Hex
from wargame.i18n import using_language
from wargame.operational.actions import Attack
from wargame.ui.model import CampaignState


@pytest.fixture
def model() -> CampaignState:
    m = CampaignState("normandy", seed=1944)
    bot = make_policy(m.game, "greedy")
    for _ in range(4):  # the greedy bot's landings, to the Allied combat phase of turn 0
        assert m.act(bot.choose(m.s)), m.message
    attack = next(a for a in m.s.legal_actions()
                  if isinstance(a, Attack) and a.target == "2010")
    m.attack_target = attack.target
    m.attack_units = list(attack.attackers)
    return m


def test_the_preview_names_the_answer_the_engine_then_offers(model):
    target = Hex.from_id("2010")
    answers = model.s.defence_answers(target)
    got = model.defence_answer()
    assert got is not None and got["rule"] == "CN 5.1.1"
    assert got["artillery"] == [model.game.units[u].name for u in answers[-1].artillery] != []
    plain = model.preview()
    worst = got["assessment"]
    assert worst.defence > plain.defence  # the battery's attack value joins the defence
    assert worst.column <= plain.column
    before = model.s.fingerprint()
    model.defence_answer()
    assert model.s.fingerprint() == before  # a preview changes nothing
    # declared, the attack asks the defender exactly these answers, and the strongest gives
    # the column the preview showed
    attack = Attack(model.attack_target, tuple(model.attack_units))
    state = model.s.clone()
    state.apply(attack)
    assert state.pending_decision is not None
    assert tuple(state.pending_decision.options) == answers
    assert state.preview_attack("2010", attack.attackers, (), 0, answers[-1].air,
                                answers[-1].artillery).column == worst.column


def test_the_attack_panel_shows_the_answer_in_the_viewers_language(model):
    from wargame.ui.campaign import AttackPanel

    panel = AttackPanel(model)
    panel.refresh()
    html = panel.preview.object
    battery = escape(model.defence_answer()["artillery"][0])
    assert "The defender may answer (CN 5.1.1)" in html and battery in html
    with using_language("pt"):
        pt_model = CampaignState("normandy", seed=1944, lang="pt")
        for a in model.s.action_log:
            assert pt_model.act(model.game.action_from_dict(a)), pt_model.message
        pt_model.attack_target = model.attack_target
        pt_model.attack_units = list(model.attack_units)
        pt_panel = AttackPanel(pt_model)
        pt_panel.refresh()
        pt_html = pt_panel.preview.object
        pt_header = pt_panel.header.object
        reasons = [shift_reason(sh.reason) for sh in pt_model.preview().shifts]
        pt_battery = escape(pt_model.defence_answer()["artillery"][0])
    assert pt_battery.startswith("Bateria Costeira")  # issue #28: the designation in pt
    assert "The defender may answer" not in pt_html and pt_battery in pt_html
    assert all(r in pt_html for r in reasons)
    assert "coastal fortifications" not in pt_html
    # the hex's terrain in words of the viewer's language, not the data file's id
    assert "terreno: terreno aberto" in pt_header and "terrain: open" in panel.header.object


def test_no_answer_line_when_the_defender_has_nothing(model):
    model.s.air_points["axis"] = 0
    for a in list(model.s.legal_actions()):
        if isinstance(a, Attack) and not model.s.defence_answers(Hex.from_id(a.target)):
            model.attack_target = a.target
            model.attack_units = list(a.attackers)
            assert model.defence_answer() is None
            return
    pytest.skip("every open attack here may be answered")
