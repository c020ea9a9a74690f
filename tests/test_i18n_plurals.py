"""Counted messages (issue #35 item 7): ``Catalogue.plural`` through gettext's ``npgettext``
and the ``.po``'s plural forms, so "1 partida", "2 partidas", "1 game", "2 games" (never
"1 partidas" nor "game(s)"); the catalogue check wants every plural form."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stderr

import pytest

from tests.support.tools import load_tool
from wargame import i18n
from wargame.cli import main
from wargame.cli.common import Parser, argparse_in_language
from wargame.cli.text import ROOMS_TEXT, STUDY_TEXT, TEXT
from wargame.rooms.text import TEXT as ROOMS


def _tool():
    return load_tool("i18n")


def _games(lang: str, n: int) -> str:
    with i18n.using_language(lang):
        return STUDY_TEXT.plural("failed_head", n).format(failed=n, folder="f")


def test_one_game_two_games_in_both_languages():
    assert _games("en", 1) == "1 game failed and is not counted above (records in f):"
    assert _games("en", 2) == "2 games failed and are not counted above (records in f):"
    assert _games("pt", 1) == "1 partida falhou e não entra nas contas acima (registos em f):"
    assert _games("pt", 2) == "2 partidas falharam e não entram nas contas acima (registos em f):"
    assert _games("pt", 0).startswith("0 partidas falharam")  # pt_PT: plural=(n != 1)
    with i18n.using_language("pt"):
        assert ROOMS_TEXT.plural("exported", 1).format(room="r", actions=1, path="p") == \
            "sala r (1 ação) gravada em p"
        assert "foi jogada {done} ação desde" in ROOMS.plural("moved_on", 1)
        assert "foram jogadas {done} ações" in ROOMS.plural("moved_on", 5)
        assert TEXT.plural("odds.shift", 1).format(reason="x", columns=-1) == "  x: -1 coluna"
    assert ROOMS.plural("moved_on", 1).startswith("the game moved on: {done} action was played")


@pytest.mark.parametrize("lang, one, not_one", [("en", "1 game, ", "1 games"),
                                                ("pt", "1 partida, ", "1 partidas")])
def test_autoplay_of_one_game_says_one_game(capsys, lang, one, not_one):
    code = main(["--lang", lang, "autoplay", "--scenario", "memoir44-1", "--games", "1",
                 "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    assert one in out and not_one not in out and "(s)" not in out


def test_argparse_counted_messages_follow_the_language():
    def error(lang: str, nargs: int) -> str:
        parser = Parser(prog="wargame")
        parser.add_argument("--pair", nargs=nargs)
        err = io.StringIO()
        with i18n.using_language(lang), argparse_in_language(), redirect_stderr(err), \
                pytest.raises(SystemExit):
            parser.parse_args(["--pair"])
        return err.getvalue()

    assert "expected 1 argument" in error("en", 1) and "expected 2 arguments" in error("en", 2)
    assert "falta 1 valor" in error("pt", 1)
    assert "faltam 2 valores" in error("pt", 2)


def test_a_counted_message_without_a_translation_reads_english_by_the_english_rule():
    with i18n.using_language("pt"):
        # an entry the catalogue lacks: English, by the English rule
        assert i18n.gettext_translations("pt").npgettext("nowhere:x", "{n} thing", "{n} things",
                                                         1) == "{n} thing"


def test_the_catalogue_check_sees_a_missing_plural_form(tmp_path):
    tool = _tool()
    po = tool.po_path("pt").read_text(encoding="utf-8")
    form = ('msgstr[1] "{failed} partidas falharam e não entram nas contas acima (registos em '
            '{folder}):"')
    assert form in po
    broken = tmp_path / "half.po"
    broken.write_text(po.replace(form, 'msgstr[1] ""'), encoding="utf-8")
    found = tool.problems("pt", broken)
    assert found == ["cli.study:failed_head: plural form(s) [1] not translated (msgstr[1]; "
                     "2 in pt)"]
    singular = 'msgstr[0] "{failed} partida falhou e não entra nas contas acima (registos em ' \
               '{folder}):"'
    lost = tmp_path / "lost.po"
    lost.write_text(po.replace(singular, 'msgstr[0] "uma partida falhou (registos em '
                                         '{folder}):"'), encoding="utf-8")
    assert tool.problems("pt", lost) == []  # a form may say "uma" instead of {failed}
    invented = tmp_path / "invented.po"
    invented.write_text(po.replace(singular, 'msgstr[0] "{failed} partida {oops}"'),
                        encoding="utf-8")
    assert tool.problems("pt", invented) == [
        "cli.study:failed_head: placeholders ['failed', 'folder'] in English, "
        "['failed', 'folder', 'oops'] in pt"]
    assert tool.problems("pt") == []


def test_the_template_holds_the_plural_forms():
    tool = _tool()
    pot = tool.template()
    message = pot.get(STUDY_TEXT.plurals["failed_head"], context="cli.study:failed_head")
    assert message is not None and message.pluralizable
    assert message.id == STUDY_TEXT.plurals["failed_head"]


# a count written with both forms at once ("figure(s)", "hexágono(s)", "ação(ões)", "ordem(ns)")
# or a gender with both ("um(a)"): a counted message says one form for its number instead
HEDGED = re.compile(r"\w\((s|es|ões|ns|a|as|os)\)")


def _all_texts(lang: str) -> list[tuple[str, str]]:
    """(catalogue:id, text) of every message of every catalogue in ``lang``: plain ones and
    both forms of the counted ones (1 and 2)."""
    out = []
    with i18n.using_language(lang):
        for domain, cat in i18n.load_catalogues().items():
            out += [(f"{domain}:{key}", cat[key]) for key in cat]
            out += [(f"{domain}:{key}[{n}]", cat.plural(key, n)) for key in cat.plurals
                    for n in (1, 2)]
    return out


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_no_message_hedges_a_count_with_both_forms(lang):
    texts = _all_texts(lang)
    assert len(texts) > 1500  # the scan sees every catalogue (1,762 texts)
    assert [(key, text) for key, text in texts if HEDGED.search(text)] == []


def test_the_hedge_scan_sees_one():
    assert HEDGED.search("loses {hits} figure(s)") and HEDGED.search("{n} ação(ões)")
    assert HEDGED.search("um(a) {kind}") and HEDGED.search("{count} ordem(ns)")
    assert not HEDGED.search("Unit {unit} (expansion figures)") and not HEDGED.search("(s)")


def _event(kind: str, **data):
    from wargame.memoir.actions import Event

    return Event(kind, data)


@pytest.mark.parametrize("lang, kind, data, one, many", [
    ("en", "hits", {"unit": 3, "left": 2}, "loses 1 figure, 2 left", "loses 2 figures, 2 left"),
    ("pt", "hits", {"unit": 3, "left": 2}, "perde 1 figura;", "perde 2 figuras;"),
    ("en", "draw", {"side": "allied"}, "Allied player draws 1 card.", "Allied player draws 2 cards."),
    ("pt", "draw", {"side": "allied"}, "1 carta tirada.", "2 cartas tiradas."),
    ("en", "victory", {"side": "axis", "why": ""}, "with 1 medal.", "with 2 medals."),
    ("pt", "victory", {"side": "axis", "why": ""}, "com 1 medalha.", "com 2 medalhas."),
    ("en", "battle", {"unit": 1, "target": 2, "distance": 3, "faces": "star"},
     "with 1 die: star.", "with 2 dice: star."),
    ("pt", "battle", {"unit": 1, "target": 2, "distance": 3, "faces": "star"},
     "com 1 dado: estrela.", "com 2 dados: estrela."),
])
def test_memoir_events_say_one_or_many(lang, kind, data, one, many):
    from wargame.event_text import MEMOIR_COUNTS, event_line

    count = MEMOIR_COUNTS[kind]
    for n, want in ((1, one), (2, many)):
        event = _event(kind, **data, **{count: n})
        with i18n.using_language(lang):
            line = event_line(event)
        assert want in line, line
        if lang == "en":
            assert event.text == line  # the stored English is the line, by the English rule


def test_student_words_loader_and_refusals_say_one_or_many():
    from wargame.error_texts import loader_text, render_refusal
    from wargame.student_text import student_line

    def say(lang, kind, **data):
        with i18n.using_language(lang):
            return student_line(_event(kind, **data))

    assert say("en", "draw", side="axis", count=1) == "The Axis draws 1 card."
    assert say("pt", "draw", side="axis", count=3) == "O Eixo tira 3 cartas."
    assert say("pt", "orders_done", side="allied", count=1) == "Os Aliados deram 1 ordem."
    assert loader_text("schema.min_items", count=1) == "at least 1 item"
    assert loader_text("schema.max_items", count=5) == "at most 5 items"
    with i18n.using_language("pt"):
        assert loader_text("schema.min_items", count=1) == "pelo menos 1 elemento"
        assert render_refusal("action.unknown_fields", {"kind": "move", "fields": "['x', 'y']",
                                                        "count": 2}) == (
            "move: campos desconhecidos ['x', 'y']")
    assert render_refusal("action.unknown_fields",
                          {"kind": "move", "fields": "['x']", "count": 1}) == (
        "move: unknown field ['x']")


def test_a_malformed_action_names_its_unknown_field_in_the_singular():
    from wargame.errors import MalformedAction
    from wargame.games import open_game

    game = open_game("dragoon")
    with pytest.raises(MalformedAction) as exc:
        game.action_from_dict({"kind": "end_phase", "zz": 1})
    assert "unknown field ['zz']" in str(exc.value) and "(s)" not in str(exc.value)


def test_the_odds_of_a_memoir_battle_at_one_hex(capsys):
    assert main(["odds", "--game", "memoir", "--attacker", "infantry", "--distance", "1",
                 "--target", "infantry"]) == 0
    out = capsys.readouterr().out
    assert "infantry at 1 hex against" in out and "hex(es)" not in out
