"""The data files' texts in both languages (issue #16, wargame/localized.py): scenario titles,
the history tracks (history.yaml + history.pt.yaml), Memoir '44 titles and briefings.

Every bundled text has its Portuguese; the Portuguese is not the English copied (names aside);
the current language (or ``lang=``) chooses it in the catalogue, the CLI and the dashboards; a
translation file that lost an event, a note or a turn is refused naming file and field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from wargame import i18n
from wargame.catalog import describe, list_scenarios
from wargame.history import load_history
from wargame.localized import pick, translations_of
from wargame.memoir.scenario import load_scenario as load_memoir
from wargame.paths import scenarios_root
from wargame.scenario import load_scenario
from wargame.scenario_errors import ScenarioError

CAMPAIGNS = ("normandy", "dragoon")
MEMOIR_DIR = scenarios_root() / "memoir44"
MEMOIR_IDS = sorted(p.stem for p in MEMOIR_DIR.glob("*.json"))
# titles that are names in both languages (places; the Memoir scenario is named after them)
SAME_NAMES = {"Sainte-Mère-Église", "Pointe-du-Hoc", "Mont Mouchet", "Vassieux, Vercors",
              "Toulon", "Montélimar", "Arracourt", "Besançon"}


def pt_texts(hist):
    """(where, English, Portuguese) for every translated text of a history."""
    yield "provenance", hist.provenance, hist.provenance_in("pt")
    for t in hist.turns:
        yield f"turn {t.turn} title", t.title, t.title_in("pt")
        yield f"turn {t.turn} text", t.text, t.text_in("pt")
        if t.note:
            yield f"turn {t.turn} note", t.note, t.note_in("pt")
        for j, e in enumerate(t.events):
            yield f"turn {t.turn} event {j}", e.text, e.text_in("pt")
    for c in hist.after_the_game:
        yield f"after the game {c.place} when", c.when, c.when_in("pt")
        if c.note:
            yield f"after the game {c.place} note", c.note, c.note_in("pt")


@pytest.mark.parametrize("scenario_id", CAMPAIGNS)
def test_every_history_text_has_its_portuguese_and_it_is_not_the_english(scenario_id):
    hist = load_history(scenario_id)
    texts = list(pt_texts(hist))
    assert len(texts) > 3 * len(hist.turns)
    for where, english, portuguese in texts:
        assert "pt" in (hist.translation_sources or {}), scenario_id
        assert portuguese and portuguese.strip() == portuguese, where
        assert portuguese != english or portuguese in SAME_NAMES, where
    # the English stays what it was, and is what English readers get
    assert hist.turns[0].title_in("en") == hist.turns[0].title
    with i18n.using_language("pt"):
        assert hist.turns[0].title_in() == hist.turns[0].translations["pt"]["title"]


@pytest.mark.parametrize("scenario_id", CAMPAIGNS)
def test_portuguese_history_dates_by_locale(scenario_id):
    hist = load_history(scenario_id)
    for t in hist.turns:
        label = t.dates_label_in("pt")
        assert "1944" in label and " de " in label, label
        for month in ("June", "July", "August", "September"):
            assert month not in label
    first = hist.turns[0]
    assert first.dates_label_in("en") == first.dates_label


def test_portuguese_dates_labels_of_normandy():
    hist = load_history("normandy")
    assert hist.turn(0).dates_label_in("pt") == "6 de junho de 1944"
    assert hist.turn(1).dates_label_in("pt") == "7-9 de junho de 1944"
    assert hist.turn(8).dates_label_in("pt") == "28-30 de junho de 1944"
    assert hist.turn(16).dates_label_in("pt") == "22-24 de julho de 1944"
    dragoon = load_history("dragoon")
    assert dragoon.turn(9).dates_label_in("pt") == "31 de agosto - 1 de setembro de 1944"


@pytest.mark.parametrize("scenario_id", CAMPAIGNS)
def test_every_campaign_scenario_has_a_portuguese_title(scenario_id):
    scn = load_scenario(scenario_id)
    english, portuguese = scn.title_in("en"), scn.title_in("pt")
    assert english == scn.title
    assert portuguese != english and "de 1944" in portuguese
    for month in ("June", "July", "August", "September"):
        assert month not in portuguese


@pytest.mark.parametrize("sid", MEMOIR_IDS)
def test_every_memoir_scenario_has_a_portuguese_title_and_briefing(sid):
    scn = load_memoir(sid)
    assert scn.briefing and scn.briefing_in("pt") != scn.briefing
    assert scn.title_in("pt")
    assert scn.title_in("pt") != scn.title or scn.title in SAME_NAMES, scn.title
    assert scn.title_in("en") == scn.title and scn.briefing_in("en") == scn.briefing


def test_the_catalogue_lists_titles_in_the_current_language():
    english = {d["id"]: d["title"] for d in list_scenarios()}
    portuguese = {d["id"]: d["title"] for d in list_scenarios(lang="pt")}
    assert english.keys() == portuguese.keys()
    assert portuguese["normandy"] == load_scenario("normandy").title_in("pt")
    assert portuguese["memoir44-1"] == "Ponte Pegasus" and english["memoir44-1"] == "Pegasus Bridge"
    with i18n.using_language("pt"):
        assert {d["id"]: d["title"] for d in list_scenarios()} == portuguese
        info = describe("memoir44-3")
    assert info["title"] == "Praia Sword"
    assert info["briefing"] == load_memoir("3").briefing_in("pt")
    assert describe("dragoon", lang="pt")["title"].startswith("Operação Dragoon: 15 de agosto")


def test_the_cli_lists_and_describes_in_portuguese(capsys):
    from wargame.cli import main

    assert main(["--lang", "pt", "scenario", "list"]) == 0
    text = capsys.readouterr().out
    assert "Campanha da Normandia: 6 de junho a 24 de julho de 1944" in text
    assert "Ponte Pegasus" in text and "Pegasus Bridge" not in text
    assert main(["--lang", "pt", "scenario", "info", "memoir44-13"]) == 0
    assert "Ponte de Arnhem" in capsys.readouterr().out
    assert main(["scenario", "list"]) == 0
    text = capsys.readouterr().out
    assert "Pegasus Bridge" in text and "Ponte Pegasus" not in text


def test_scenario_info_names_sides_and_who_plays_first_in_words(capsys):
    """No raw side keys ("allied start", "axis:") in `scenario info`: the side that plays first
    in words, in each language, for a scenario the Allies open (Pegasus Bridge) and one the
    Axis opens (memoir44-5)."""
    from wargame.cli import main

    for sid in ("1", "5"):
        first = load_memoir(sid).starts
        assert main(["--lang", "pt", "scenario", "info", f"memoir44-{sid}"]) == 0
        text = capsys.readouterr().out
        assert ("os Aliados jogam primeiro" if first == "allied" else "o Eixo joga primeiro") in text
        assert "Aliados: " in text and "Eixo: " in text and "mapa: " in text
        assert "allied" not in text and "axis:" not in text and "start" not in text
        assert main(["scenario", "info", f"memoir44-{sid}"]) == 0
        text = capsys.readouterr().out
        assert ("the Allies play first" if first == "allied" else "the Axis plays first") in text
        assert "allied" not in text and "axis:" not in text


def test_pick_falls_back_to_english():
    texts = translations_of({"title": "Sword Beach", "pt": {"title": " Praia Sword "}},
                            ("title", "briefing"))
    assert texts == {"pt": {"title": "Praia Sword"}}
    assert pick("Sword Beach", texts, "title", "pt") == "Praia Sword"
    assert pick("Sword Beach", texts, "title", "en") == "Sword Beach"
    assert pick("a briefing", texts, "briefing", "pt") == "a briefing"  # not translated
    with i18n.using_language("pt"):
        assert pick("Sword Beach", texts, "title") == "Praia Sword"


# ----------------------------------------------------------------- broken translation files
@pytest.fixture
def normandy_copy(tmp_path):
    src = scenarios_root() / "normandy"
    dst = tmp_path / "normandy"
    shutil.copytree(src, dst)
    return dst


def _broken(folder: Path, change) -> ScenarioError:
    path = folder / "history.pt.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    scn = load_scenario(str(folder))
    with pytest.raises(ScenarioError) as err:
        load_history(scenario=scn)
    assert "history.pt.yaml" in str(err.value)
    return err.value


def test_a_lost_event_is_refused_naming_the_turn(normandy_copy):
    err = _broken(normandy_copy, lambda d: d["turns"][3]["events"].pop())
    assert "turns[3].events" in str(err)


def test_a_missing_turn_is_refused(normandy_copy):
    err = _broken(normandy_copy, lambda d: d["turns"].pop(5))
    assert "missing turn 5" in str(err)


def test_a_lost_note_is_refused(normandy_copy):
    err = _broken(normandy_copy, lambda d: d["turns"][0].pop("note"))
    assert "turns[0].note" in str(err)


def test_an_event_on_another_day_is_refused(normandy_copy):
    def move(d):
        d["turns"][1]["events"][0]["date"] = "1944-06-08"
    err = _broken(normandy_copy, move)
    assert "turns[1].events" in str(err)


def test_an_unknown_field_is_refused_by_the_schema(normandy_copy):
    err = _broken(normandy_copy, lambda d: d["turns"][2].update(titel="x"))
    assert "titel" in str(err)


def test_a_scenario_without_translation_reads_english(normandy_copy):
    (normandy_copy / "history.pt.yaml").unlink()
    hist = load_history(scenario=load_scenario(str(normandy_copy)))
    assert hist.turn(1).title_in("pt") == hist.turn(1).title == "Bayeux freed, beachheads joined"


def test_memoir_index_refuses_a_portuguese_title_too_long():
    from wargame.schema.common import validate
    from wargame.schema.memoir import MemoirScenarioFile

    data = json.loads((MEMOIR_DIR / "1.json").read_text(encoding="utf-8"))
    data["pt"]["title"] = "x" * 121
    with pytest.raises(ScenarioError) as err:
        validate(MemoirScenarioFile, data, "1.json")
    assert "pt.title" in str(err.value)


# ------------------------------------------------------------------------------ dashboards
def test_a_campaign_store_in_portuguese_shows_the_portuguese_title_and_history():
    from wargame.ui.campaign import CampaignDashboard

    dash = CampaignDashboard("normandy", seed=3, lang="pt")
    english = CampaignDashboard("normandy", seed=3)
    title = load_scenario("normandy").title_in("pt")
    assert title in dash.turn.reference.object  # the Game tab's heading
    assert load_scenario("normandy").title in english.turn.reference.object
    assert title not in english.turn.reference.object
    history = dash.history.pane.object
    assert "Dia D" in history and "6 de junho de 1944" in history
    assert "Sainte-Mère-Église" in history and "paraquedistas" in history
    assert "D-Day" in english.history.pane.object and "Dia D" not in english.history.pane.object


def test_a_memoir_store_in_portuguese_shows_the_portuguese_title():
    from wargame.ui.memoir import MemoirDashboard

    pt_status = MemoirDashboard("1", 44, lang="pt").status.pane.object
    en_status = MemoirDashboard("1", 44).status.pane.object
    assert "Ponte Pegasus" in pt_status and "Pegasus Bridge" not in pt_status
    assert "Pegasus Bridge" in en_status


# ------------------------------------------------------------------------------ place names
@pytest.mark.parametrize("scenario_id", CAMPAIGNS)
def test_map_place_names_in_portuguese_where_they_differ(scenario_id):
    board = load_scenario(scenario_id).board
    names = board.translations["pt"]
    assert names
    known = set(board.places) | {i.name for i in board.hexes.values() if i.name}
    for english, portuguese in names.items():
        assert english in known and portuguese != english
        assert board.name_in(english, "pt") == portuguese
        assert board.name_in(english, "en") == english
    assert board.name_in("Caen", "pt") == "Caen"  # French names stay French


def test_the_portuguese_map_shows_portuguese_names():
    from wargame.ui.campaign import CampaignDashboard
    from wargame.ui.describe import place_name

    pt_names = {s.name for s in CampaignDashboard("normandy", seed=3, lang="pt").map.hexes}
    en_names = {s.name for s in CampaignDashboard("normandy", seed=3).map.hexes}
    assert "Cota 112" in pt_names and "Hill 112" not in pt_names
    assert "Hill 112" in en_names and "Cota 112" not in en_names
    assert "Caen" in pt_names and "Caen" in en_names
    state = load_scenario("normandy")
    hill = state.board.place("Hill 112")[0]

    class Holder:  # what place_name reads: state.game.board
        class game:
            board = state.board
    with i18n.using_language("pt"):
        assert place_name(Holder, hill) == f"Cota 112 ({hill.id})"
    assert place_name(Holder, hill) == f"Hill 112 ({hill.id})"
