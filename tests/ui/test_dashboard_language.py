"""The dashboards' language (issue #16): a dashboard built in Portuguese shows the ``ui``
catalogues' Portuguese in its Bokeh document (the JSON the server sends), and keeps it for
commands run on any thread (Panel's thread pool does not carry the context variable); one in
English beside it stays English. ``?lang=`` and ``wargame serve --lang`` choose it."""

from __future__ import annotations

import json
import re
import threading

import panel as pn
from bokeh.core.json_encoder import serialize_json
from bokeh.document import Document

from wargame import i18n
from wargame.operational.actions import Move
from wargame.ui import app
from wargame.ui.campaign import CampaignDashboard
from wargame.ui.model import CampaignState
from wargame.ui.serve import build_dashboard
from wargame.ui.text import LEGEND, PHASE_WORDS, UI


def document_json(dash) -> str:
    doc = Document()
    doc.add_root(pn.panel(dash).get_root(doc))
    return serialize_json(doc.to_json())


# a glossary term's hover mark (issue #28: the legend explains its jargon), as the document's
# JSON escapes it: left out, so that the sentence around the term is read whole
GLOSS_MARK = re.compile(r"&lt;abbr class=&quot;wg-term&quot; title=&quot;.*?&quot;&gt;|&lt;/abbr&gt;")


def shown(text: str, document: str) -> bool:
    """``text`` in the document (its JSON escapes accented letters and HTML)."""
    escaped = json.dumps(text)[1:-1].replace("'", "&#x27;")
    document = GLOSS_MARK.sub("", document)
    return escaped in document or text in document


def pt(catalogue, key: str) -> str:
    with i18n.using_language("pt"):
        return catalogue[key]


def test_a_dashboard_built_in_portuguese_shows_portuguese_not_english():
    pt_doc = document_json(CampaignDashboard("normandy", seed=3, lang="pt"))
    en_doc = document_json(CampaignDashboard("normandy", seed=3))
    for catalogue, key in [(UI, "no_unit"), (UI, "no_decision"), (LEGEND, "zde"),
                           (LEGEND, "roads.key"), (LEGEND, "mp")]:
        english, portuguese = catalogue.english[key], pt(catalogue, key)
        assert english != portuguese
        assert shown(portuguese, pt_doc) and not shown(english, pt_doc), key
        assert shown(english, en_doc) and not shown(portuguese, en_doc), key
    # the phase line; "Allied movement" stays in the event log: the engine's events are
    # English still (wargame.i18n.MESSAGES)
    assert shown(pt(PHASE_WORDS, "allied_movement"), pt_doc)
    assert shown("Fase de Movimentação Aliada", pt_doc)
    assert shown("Zona de Engajamento (ZDE)", pt_doc)


def test_commands_on_another_thread_speak_the_dashboards_language():
    dash = CampaignDashboard("normandy", seed=3, lang="pt")
    english = CampaignDashboard("normandy", seed=3)
    done = []

    def click() -> None:  # a fresh thread: the default (English) context
        assert i18n.language() == "en"
        for d in (dash, english):
            d.model.undo()  # nothing to undo yet: a message in the store's language
        done.append(True)

    worker = threading.Thread(target=click)
    worker.start()
    worker.join()
    assert done
    assert dash.model.message == pt(UI, "nothing_to_undo") != UI.english["nothing_to_undo"]
    assert english.model.message == UI.english["nothing_to_undo"]
    assert shown(pt(UI, "nothing_to_undo"), dash.message.pane.object)
    assert i18n.language() == "en"
    # a refusal in the message bar: the engine's reason in Portuguese, with its rule
    demo = CampaignState("demo", seed=1944, lang="pt")
    assert not demo.act(Move("us-inf-1", "1210")) and demo.error
    assert demo.message == ("Não é permitido: 1210 fica além da movimentação da unidade nesta "
                            "fase (6 pontos de movimentação) (CN 4.0)")


def test_build_dashboard_takes_the_language_or_the_current_one():
    assert build_dashboard("demo", 1, lang="pt").lang == "pt"
    assert build_dashboard("memoir44-1", 1, lang="pt").lang == "pt"
    assert build_dashboard("demo", 1).lang == "en"
    with i18n.using_language("pt"):
        assert build_dashboard("demo", 1).lang == "pt"
    fallback = build_dashboard("no-such-scenario", 1, lang="pt")  # the demo, with a note
    assert fallback.lang == "pt"


def test_the_url_chooses_the_language_else_the_environment(monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    args: dict[str, str] = {}
    monkeypatch.setattr(app, "_arg", args.get)
    assert app.app_language() == "en"
    args["lang"] = "pt"
    assert app.app_language() == "pt"
    args["lang"] = "pt-PT"
    assert app.app_language() == "pt"
    args["lang"] = "klingon"  # not one of ours: the environment's
    monkeypatch.setenv("LANG", "pt_PT.UTF-8")
    assert app.app_language() == "pt"
    monkeypatch.setenv("LANG", "C")
    assert app.app_language() == "en"
    built: list[dict] = []
    monkeypatch.setattr(app, "build_dashboard", lambda *a, **k: built.append(k) or "dashboard")
    args.update(lang="pt", scenario="normandy")
    assert app._app() == "dashboard" and built == [{"lang": "pt"}]


def _seed_dealing_the_allies(card: str, scenario: str = "1", first: int = 44) -> int:
    """The first seed from ``first`` whose deal gives the Allies a ``card`` (by its name): a
    test of that card's buttons holds whatever the dice (it was seed 44 with dice 1)."""
    from wargame.games import open_game
    from wargame.memoir import ALLIES, DECK

    game = open_game(f"memoir44-{scenario}")
    return next(s for s in range(first, first + 1000)
                if any(DECK[c].name == card for c in game.new_state(s).hands[ALLIES]))


def test_the_memoir_dashboard_in_portuguese():
    from wargame.ui.memoir import MemoirDashboard
    from wargame.ui.memoir_model import TEXT
    from wargame.ui.text import CARD_TEXT, MEMOIR_LEGEND_WORDS

    seed = _seed_dealing_the_allies("infantry_assault")
    dash = MemoirDashboard("1", seed, lang="pt")
    pt_doc = document_json(dash)
    en_doc = document_json(MemoirDashboard("1", seed))
    for catalogue, key in [(TEXT, "undo"), (TEXT, "auto"), (TEXT, "scenario"),
                           (TEXT, "computer_player"), (TEXT, "section.left"),
                           (MEMOIR_LEGEND_WORDS, "wire"), (CARD_TEXT, "probe")]:
        english, portuguese = catalogue.english[key], pt(catalogue, key)
        assert english != portuguese
        assert shown(portuguese, pt_doc) and not shown(english, pt_doc), key
        assert shown(english, en_doc) and not shown(portuguese, en_doc), key
    status = dash.status.pane.object  # the status line, side to act in capitals
    assert "Turno 1: joga ALIADOS" in status and "ALLIES" not in status
    assert "ALLIES to act" in MemoirDashboard("1", seed).status.pane.object
    # the hand's heading, the other side's card count, the buttons of cards played with a
    # choice (Infantry Assault by section, dealt at ``seed``) and the computer players' names
    # (the side ids stay as the selects' values, never as their labels)
    shown_text = re.sub(r'\["(none|ALLIES|AXIS)",', "[", pt_doc)
    assert not re.search(r"\b(ALLIES|AXIS)\b|'s hand| as (left|center|right)\b", shown_text)
    assert "infantaria (Eixo, unidade 0)" in pt_doc  # a counter's tooltip
    assert shown("A mão dos Aliados", pt_doc)  # issue #28: not "Mão: ALIADOS" (ALLIES's hand)
    assert shown("Assalto de Infantaria: flanco esquerdo", pt_doc)
    assert re.search(r"The Allies\S* hand", en_doc) and shown("Infantry Assault as left", en_doc)
    # the difficulty in plain words (issue #33): principiante, normal, difícil
    assert dash.computer_player.options["principiante"] == "easy"
    assert dash.computer_player.options["difícil"] == "hard"
    assert shown("principiante", pt_doc) and shown("ao acaso", pt_doc)


def test_the_campaign_panels_own_words_are_portuguese_too():
    from wargame.ui.text import WORDS

    pt_doc = document_json(CampaignDashboard("normandy", seed=3, lang="pt"))
    for key in ("end_phase", "undo", "roll", "tab.game", "tab.history", "event_log",
                "hide_enemy", "counters", "marks"):
        english, portuguese = WORDS.english[key], pt(WORDS, key)
        assert shown(portuguese, pt_doc) and not shown(english, pt_doc), key


def test_a_memoir_action_is_told_in_the_stores_language():
    from wargame.ui.memoir_model import MemoirStore

    store = MemoirStore("1", 44, lang="pt")
    english = MemoirStore("1", 44)
    for st in (store, english):
        st.act(st.state.legal_actions()[0])  # the first card played
    # the engine's event in the store's language (wargame.event_text), English in English
    assert store.message.startswith("Aliados: carta jogada, ")
    assert english.message.startswith("Allied player plays ") and "jogada" not in english.message
