"""A room's pages in student words (issue #28 item 3), as built for the browser (the Bokeh
document's panes, no browser needed): a Portuguese seat and the teacher's page read sentences
and no rule citation, seed or fingerprint by default; the expert switch brings them back."""

from __future__ import annotations

import re

import panel as pn

from tests.support.fake_rooms import FakeManager
from wargame.bots.play import make_policy
from wargame.i18n import using_language
from wargame.ui.room_page import seat_page_parts

RULES = re.compile(r"\b(CN|OD|BFN) \d+\.\d|\bM44 p\.\d")


def _play_until(room, kind: str, limit: int = 3000) -> None:
    """Seeded bot actions through the room's seats until an event of ``kind`` happened."""
    policies = {side: make_policy(room.game, "random", 7) for side in room.game.sides}
    token = {s.side: s.token for s in room.seats.values() if s.side is not None}
    for _ in range(limit):
        if any(e.kind == kind for e in room.events()):
            return
        state = room.state()
        room.act(token[state.side_to_act], policies[state.side_to_act].choose(state))
    raise AssertionError(f"no {kind} event in {limit} actions")


def _text(page) -> str:
    """Everything the page's panes and widgets put into the document."""
    parts = [str(p.object) for p in page.select(pn.pane.HTML)]
    parts += [str(getattr(w, "name", "")) + str(getattr(w, "label", ""))
              for w in page.select(pn.widgets.Widget)]
    return "\n".join(parts)


def _expert(page, on: bool) -> None:
    switch = next(w for w in page.select(pn.widgets.Switch) if "wg-expert-switch" in w.css_classes)
    with using_language("pt"):
        switch.value = on


def test_campaign_seat_and_teacher_in_portuguese_student_words_then_expert():
    manager = FakeManager()
    room = manager.create("normandy", seed=3)
    _play_until(room, "roll")
    with using_language("pt"):
        seat, store = seat_page_parts(room, room.seats["allied"], "pt")
        teacher, tstore = seat_page_parts(room, room.seats["teacher"], "pt")
    assert store.as_viewer().student and tstore.as_viewer().student  # on by default in rooms
    for page in (seat, teacher):
        text = _text(page)
        assert "Os dados dão" in text  # the dice result as a sentence
        assert re.search(r"(Os defensores|A defesa|os atacantes|uma unidade)", text)
        assert not RULES.search(text), RULES.search(text)
        assert "Semente" not in text and "Impressão digital" not in text
        assert "Palavras de especialista" in text  # the switch, in Portuguese
        assert not re.search(r"\d+(st|nd|rd|th) Infantry Regiment", text)  # designations in pt
    # the teacher switches to expert words: rule citations and the fingerprint come back
    _expert(teacher, True)
    assert not tstore.as_viewer().student
    text = _text(teacher)
    assert RULES.search(text) and "Impressão digital da posição" in text
    assert "Os dados dão" not in text and "Dados " in text
    _expert(teacher, False)
    assert not RULES.search(_text(teacher))
    # one page's switch is its own: the seat still reads student words
    assert store.as_viewer().student and not RULES.search(_text(seat))


def test_memoir_seat_names_units_by_kind_and_place_and_draws_cards():
    manager = FakeManager()
    room = manager.create("memoir44-1", seed=4)
    _play_until(room, "battle")
    with using_language("pt"):
        seat, store = seat_page_parts(room, room.seats["allied"], "pt")
    text = _text(seat)
    assert re.search(r"(A|a) (infantaria|artilharia) (aliada|do Eixo)|(O|o) tanque (aliado|do "
                     r"Eixo)", text)
    assert "ataca o inimigo" in text or "A carta atinge" in text
    assert not re.search(r"\b(Unit|Unidade|unidade) \d", text)
    assert not re.search(r"\(\d,\d+\)", text)  # no board coordinate: none is drawn on the map
    assert "m44-card-title" in text and "Secção:" in text  # the hand as cards
    assert "ALLIES" not in text and "A mão dos Aliados" in text
    _expert(seat, True)
    assert re.search(r"\b(Unidade|unidade) \d", _text(seat))


def _attack_model(lang: str, student: bool):
    from wargame.operational.actions import Attack
    from wargame.ui.model import CampaignState

    m = CampaignState("normandy", seed=1944, lang=lang, student=student)
    bot = make_policy(m.game, "greedy")
    for _ in range(4):  # the greedy bot's landings, to the Allied combat phase of turn 0
        assert m.act(bot.choose(m.s)), m.message
    attack = next(a for a in m.s.legal_actions() if isinstance(a, Attack) and a.target == "2010")
    m.attack_target = attack.target
    m.attack_units = list(attack.attackers)
    return m


def test_the_attack_panel_says_the_odds_once_in_words_for_students():
    from wargame.student_text import column_grade, odds_words
    from wargame.ui.campaign import AttackPanel

    with using_language("pt"):
        m = _attack_model("pt", student=True)
        panel = AttackPanel(m)
        panel.refresh()
        html = panel.preview.object
        column = m.preview().column_label
        words = odds_words(column, column_grade(m.s, column))
        assert f"Em palavras: {words}." in html and " contra " in words
        assert html.count("Em palavras") == 1
        assert '<abbr class="wg-term"' in html and "coluna</abbr>" in html  # hover glossary
        assert not RULES.search(html)  # no rule column, no "(CN 5.1.1)" in the answer
        assert "os defensores recuam um hexágono" in html or "a defesa aguenta" in html
        expert = AttackPanel(_attack_model("pt", student=False))
        expert.refresh()
        assert "Em palavras" not in expert.preview.object
        assert RULES.search(expert.preview.object)


def test_the_computers_turn_is_told_in_sentences():
    from wargame.ui.memoir_model import MemoirStore

    with using_language("pt"):
        store = MemoirStore("1", seed=4, lang="pt", computer="axis", student=True)
        bot = make_policy(store.game, "random", 4)
        for _ in range(200):
            if "O computador (Eixo) jogou: " in store.message:
                break
            assert store.act(bot.choose(store.state)), store.message
        said = store.message.split("O computador (Eixo) jogou: ", 1)[-1]
    assert "O computador (Eixo) jogou: " in store.message, store.message
    assert " x1" not in said and " x2" not in said and "ações" not in said
    assert re.search(r"(Os Aliados|O Eixo|[Aa] infantaria|[Oo] tanque|[Aa] artilharia)", said)
    assert "Agora:" in said
