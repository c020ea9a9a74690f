"""Issue 28 item 5, "Portuguese finished": the English and the bad grammar a Portuguese
teacher found in the pt pages, each rendered in Portuguese here, the English gone and the
Portuguese right; and every catalogue message has a Portuguese text of its own."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from wargame import i18n
from wargame.event_text import event_line
from wargame.games import open_game
from wargame.operational.state_types import Event
from wargame.ui.describe import describe_action, describe_option, place_name


@pytest.fixture(scope="module")
def normandy():
    return open_game("normandy").new_state(3)


@pytest.fixture(scope="module")
def pt_dashboard():
    from wargame.ui.campaign import CampaignDashboard

    return CampaignDashboard("normandy", seed=3, lang="pt")


def pt(make):
    with i18n.using_language("pt"):
        return make()


# ---------------------------------------------------------------- the sides, by their names
@pytest.mark.parametrize(("side", "words"), [("allied", "À espera dos Aliados."),
                                             ("axis", "À espera do Eixo."),
                                             ("ALLIES", "À espera dos Aliados."),
                                             ("AXIS", "À espera do Eixo.")])
def test_waiting_for_the_other_side_names_it_in_portuguese(side, words):
    from wargame.ui.text import their_turn

    said = pt(lambda: their_turn(side))
    assert said == words
    assert not re.search(r"Allie|Axis|lado:", said)
    assert their_turn(side) in ("Waiting for the Allies.", "Waiting for the Axis.")


def test_a_seat_waiting_for_the_allies_says_so_in_portuguese():
    from tests.support.fake_rooms import FakeManager
    from wargame.ui.room_page import _header_text, seat_dashboard

    room = FakeManager().create("normandy")
    _, store = seat_dashboard(room, room.seats["axis"], lang="pt")
    assert store.state.side_to_act == "allied"  # CN 3.0: the Allies move first
    header = pt(lambda: _header_text(room, room.seats["axis"], store))
    assert "À espera dos Aliados." in header
    assert "Allies" not in header and "Axis" not in header
    assert pt(lambda: store.side_name("axis")) == "Eixo"


# ---------------------------------------------------------------- the unit card
def test_the_unit_card_names_nation_side_and_state_in_portuguese(pt_dashboard):
    dash = pt_dashboard
    uid = "us-16-1"
    with i18n.using_language("pt"):
        dash.model.select_unit(uid)
        dash.unit_card.refresh()
    card = dash.unit_card.pane.object
    assert "Americanos / Aliados" in card
    assert "american" not in card and "allied" not in card.replace("data-", "")
    # the stacks' hover titles: the unit is at sea on turn 0 (CN 11.1.1)
    assert dash.model.s.units[uid].status == "at_sea"
    title = pt(lambda: dash._stack_title(uid))
    assert title.endswith("(no mar)") and "at sea" not in title


def test_a_reduced_unit_and_a_unit_without_division_in_portuguese():
    from wargame.ui.campaign import status_words
    from wargame.ui.text import UI

    with i18n.using_language("pt"):
        said = status_words(f"on_map {UI['reduced']}")
        assert said == "no mapa (reduzida)", said
        assert UI["independent"] == "independente"


@pytest.mark.parametrize(("nation", "words"), [("american", "Americanos"), ("german", "Alemães"),
                                               ("russian", "Voluntários do Leste")])
def test_every_nation_has_a_portuguese_word(nation, words):
    from wargame.ui.text import nation_word

    assert pt(lambda: nation_word(nation)) == words
    assert nation_word(nation) != words


# ---------------------------------------------------------------- places: no "near"
def test_places_are_near_in_portuguese(normandy):
    assert pt(lambda: place_name(normandy, "1408")) == "1408 perto de Utah"
    assert place_name(normandy, "1408") == "1408 near Utah"
    attack = pt(lambda: describe_action(
        normandy, {"kind": "attack", "target": "1408", "attackers": ["us-16-1"]}))
    assert "1408 perto de Utah" in attack and " near " not in attack
    retreat = pt(lambda: describe_action(
        normandy, {"kind": "retreat", "unit": "us-16-1", "path": ["2110"]}))
    assert retreat.endswith("recua para 2110 perto de Colleville-sur-Mer"), retreat
    option = pt(lambda: describe_option(
        normandy, {"kind": "retreat", "unit": "us-16-1", "path": ["2110"]}))
    assert "2110 perto de Colleville-sur-Mer" in option and " near " not in option


# ---------------------------------------------------------------- BFN variants
def test_the_variant_rules_are_named_in_portuguese(pt_dashboard):
    from wargame.ui.model import variant_choices

    shown = list(pt_dashboard.turn.variants.options)  # the new-game control of a pt dashboard
    assert shown[0] == "Retirada dos couraçados (BFN 19.1)"
    assert not any("withdrawal" in label for label in shown)

    english = variant_choices()
    portuguese = pt(variant_choices)
    assert [c["name"] for c in portuguese] == [c["name"] for c in english]
    by_name = {c["name"]: c for c in portuguese}
    assert by_name["bfn-19.1"]["title"] == "Retirada dos couraçados"
    assert "30 de junho e 5 de julho" in by_name["bfn-19.1"]["description"]
    for en, ptc in zip(english, portuguese, strict=True):
        assert ptc["title"] != en["title"] and ptc["description"] != en["description"]
        assert not re.search(r"\b(June|July|withdrawal|the)\b", ptc["title"] + ptc["description"])


def test_the_variants_catalogue_follows_the_engines_english():
    """The catalogue repeats the engine's English (wargame.operational.variants): a changed
    English there must be changed here too, and then translated again."""
    from wargame.operational.variants import VARIANTS
    from wargame.ui.text import VARIANT_WORDS, variant_word

    for v in VARIANTS.values():
        assert VARIANT_WORDS.english[f"{v.id}.title"] == v.title
        assert VARIANT_WORDS.english[f"{v.id}.description"] == v.description
    assert pt(lambda: variant_word("bfn-19.1", "title", "Changed title")) == "Changed title"


# ---------------------------------------------------------------- computer players
def test_computer_players_have_portuguese_names_and_keep_their_ids():
    from tests.support.fake_rooms import FakeManager
    from wargame.ui.rooms import Landing, seat_links

    page = Landing(FakeManager(), lang="pt")
    page.game.value = "normandy"
    options = page.computer_allied.options
    assert options["ambicioso (vai às cidades)"] == "greedy"
    assert options["ao acaso (sem plano)"] == "random"
    assert "greedy" not in options and "random" not in options
    room = SimpleNamespace(code="ABC234", seats={
        "allied": SimpleNamespace(token="t1", computer="greedy"),
        "axis": SimpleNamespace(token="t2", computer=None)})
    links = pt(lambda: seat_links(room, names=("allied",)))
    assert "ambicioso" in links and "greedy" not in links
    english = Landing(FakeManager())
    english.game.value = "normandy"
    assert "greedy (goes for the cities)" in english.computer_allied.options
    # Memoir '44: the difficulty in plain words (issue #33; wargame.registry levels)
    page.game.value = "memoir44-1"
    options = page.computer_allied.options
    assert [options[w] for w in ("principiante", "normal", "difícil")] == ["easy", "normal",
                                                                           "hard"]
    english.game.value = "memoir44-1"
    assert english.computer_allied.options["hard"] == "hard"
    assert english.computer_allied.options["beginner"] == "easy"


# ---------------------------------------------------------------- the log's game title
def test_the_logs_game_title_is_the_scenarios_portuguese_title(normandy):
    start = normandy.events[0]
    assert start.kind == "game_start" and "6 June - 24 July 1944" in start.text  # stored English
    line = pt(lambda: event_line(start))
    assert "6 de junho a 24 de julho de 1944" in line
    assert "June" not in line and "July" not in line
    viewer = SimpleNamespace(sees_seed=False)  # a seat: the title without the seed
    public = pt(lambda: event_line(start, viewer))
    assert "6 de junho a 24 de julho de 1944" in public and "semente" not in public
    assert event_line(start) == start.text


def test_memoirs_setup_line_names_the_scenario_in_portuguese():
    """Issue 28: a Memoir '44 room in pt said "Pegasus Bridge: as cartas estão distribuídas"
    (the setup event keeps the English title): both logs now say "Ponte Pegasus"."""
    from wargame.student_text import student_line
    from wargame.ui.memoir_model import MemoirStore

    store = MemoirStore("1", 44, lang="pt")
    setup = store.log[0]
    assert setup.kind == "setup" and setup.data["title"] == "Pegasus Bridge"
    for line in (pt(lambda: event_line(setup, None, store.state)),
                 pt(lambda: student_line(setup, store.state))):
        assert line.startswith("Ponte Pegasus:") and "Pegasus Bridge" not in line, line
    assert event_line(setup, None, store.state).startswith("Pegasus Bridge:")  # English


# ---------------------------------------------------------------- agreement
def test_the_hidden_defence_agrees_in_gender():
    from wargame.ui.text import UI, WORDS

    said = pt(lambda: WORDS["odds_hidden"].format(attack=5, air=0, hidden=UI["hidden"]))
    assert "contra defesa oculta" in said and "oculto" not in said


@pytest.mark.parametrize(("kind", "data", "words"), [
    ("eliminated", {"unit": "16th Infantry Regiment", "why": ""},
     "A unidade Regimento de Infantaria 16 é eliminada."),
    ("eliminated", {"unit": "8th Infantry Brigade", "why": " (second loss)"},
     "A unidade Brigada de Infantaria 8 é eliminada (segunda baixa)."),
    ("withdrawn", {"unit": "101st Airborne Division"},
     "A unidade Divisão Aerotransportada 101 é retirada do mapa."),
    ("landing_failed", {"unit": "2nd Ranger Battalion", "hex": "1907"},
     "A unidade Batalhão de Rangers 2 não conseguiu desembarcar em 1907 e é destruída."),
])
def test_a_unit_in_a_sentence_agrees_with_the_portuguese_noun(kind, data, words):
    """The units' names are English designations of any gender and number ("Regiment",
    "Brigade", "Battalions"): the Portuguese sentence names the unit after "a unidade", and the
    participle agrees with that noun (feminine singular), never with the English word."""
    from wargame.event_text import campaign_text

    event = Event(kind, campaign_text(kind, **data), "CN 5.1.6", data)
    said = pt(lambda: event_line(event))
    assert said == words
    assert said.startswith("A unidade ")  # the noun the participle agrees with
    english = event_line(event)
    assert english == event.text and english.startswith(data["unit"])


def test_exchange_losses_need_no_agreement(normandy):
    said = pt(lambda: describe_action(normandy, {"kind": "emp_eliminate",
                                                 "units": ["us-16-1", "us-18-1"]}))
    assert said.startswith("eliminação no empate (EMP): Regimento de Infantaria 16, "
                           "Regimento de Infantaria 18")  # issue #28: designations in pt
    assert "eliminadas" not in said


# ---------------------------------------------------------------- wargame serve --lang pt
def test_serve_says_where_the_game_is_in_portuguese(monkeypatch, capsys):
    import panel

    from wargame.ui import serve

    calls = []
    monkeypatch.setattr(panel, "serve", lambda app, **kw: calls.append(kw) or "thread")
    monkeypatch.setattr(serve, "warm_up", lambda *a, **k: 0.0)
    assert serve.serve_dashboard("dragoon", port=5123, threaded=True, lang="pt") == "thread"
    out = capsys.readouterr().out
    assert "O jogo está em http://localhost:5123/" in out
    assert calls[0]["verbose"] is False  # Panel's own English "Launching server at" is off
    serve.serve_dashboard("dragoon", port=5124, threaded=True, lang="en")
    assert "The game is at http://localhost:5124/" in capsys.readouterr().out


def test_serve_rooms_says_its_addresses_in_portuguese(monkeypatch, tmp_path):
    import io

    import panel

    from wargame.ui import serve

    calls = []
    monkeypatch.setattr(panel, "serve", lambda app, **kw: calls.append(kw) or "thread")
    out = io.StringIO()
    serve.serve_rooms(tmp_path / "class.sqlite", port=5125, threaded=True, lang="pt",
                      key="a-teacher-key-of-24-chars", out=out)
    said = out.getvalue()
    assert said.startswith("Salas: http://localhost:5125/  página do professor: "
                           "http://localhost:5125/teacher?key=a-teacher-key-of-24-chars")
    assert "Rooms" not in said and "teacher's" not in said
    assert calls[0]["verbose"] is False


# ---------------------------------------------------------------- every message
SAME_IN_BOTH = {
    # layouts and formats: placeholders and punctuation only (found by _is_layout)
    # names: the program, the game, card titles the pt edition prints in English
    "cli:prog": "the program's name",
    "ui.memoir:title": "Memoir '44 is the game's name in both editions",
    "events.campaign:mulberry": "Mulberry is the harbours' name in the Portuguese rulebook",
    "glossary.terms:mulberry": "Mulberry is the harbours' name in the Portuguese rulebook",
    "glossary.terms:bocage": "bocage: the French word both languages use for Normandy's hedges",
    "glossary.terms:maquis": "maquis: the French word both languages use for the Resistance",
    # words Portuguese has borrowed as they are (docs/glossary.md)
    "events.words:terrain.bocage": "bocage: the Normandy hedgerow country, so in pt",
    "refusals.terms:terrain.bocage": "bocage: the Normandy hedgerow country, so in pt",
    "events.words:terrain.canal": "canal is the same word in pt",
    "ui.map:feature.bunker": "bunker is the pt word too",
    "ui.memoir:player.normal": "normal is the same word in pt",
    "ui.players:normal": "normal is the same word in pt",
    "ui.players:level.normal": "normal is the same word in pt",
    "rooms:db.kind.socket": "socket: the file kind's technical name in pt too",
    # command-line syntax and file paths
    "cli.study:out_error": "--out is the option's name",
    "cli.help:import.docs": "a file path after the help text",
    # the rulebooks' abbreviations
    "events.words:why.emp": "EMP is the Portuguese rulebook's own abbreviation (CN 5.1.6)",
    "ui.memoir_legend:units.key": "INF / ARM / ART: the counters' abbreviations, read as printed",
}


def _is_layout(text: str) -> bool:
    """True when ``text`` has no word outside its placeholders (a table row, "{a}: {b}")."""
    return not re.search(r"[A-Za-z]", re.sub(r"\{[^}]*\}", "", text))


def test_every_message_has_a_portuguese_text_of_its_own():
    catalogues = i18n.load_catalogues()
    translated = i18n.translations("pt")
    missing, same = [], []
    for domain, catalogue in sorted(catalogues.items()):
        for key, english in catalogue.english.items():
            context = f"{domain}:{key}"
            text = translated.get(context, "")
            if not text.strip():
                missing.append(context)
            elif text == english and not _is_layout(english) and context not in SAME_IN_BOTH:
                same.append(f"{context}: {english!r}")
    assert missing == []
    assert same == [], "translate these, or list them in SAME_IN_BOTH with a reason"
    stale = [c for c in SAME_IN_BOTH
             if translated.get(c) != catalogues[c.split(":", 1)[0]].english.get(c.split(":", 1)[1])]
    assert stale == [], "no longer the same in both languages: drop them from SAME_IN_BOTH"


def test_the_layout_rule_does_not_let_words_through():
    assert _is_layout("{what}: {reason}") and _is_layout("  {k:>4}  {pct:>6.2f}%  {bar}")
    assert not _is_layout("Their Finest Hour: {faces}.")
    assert not _is_layout("{unit} is eliminated{why}.")
