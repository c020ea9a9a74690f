"""The message catalogues (wargame/i18n.py, tools/i18n.py, wargame/locale/): every message
translated into Portuguese with its placeholders, the language chosen per context, the CLI
answering in Portuguese (issue #16)."""

import io
import threading
from contextlib import redirect_stderr, redirect_stdout

import pytest

from tests.support.tools import load_tool
from wargame import i18n
from wargame.cli import CODES, TEXT, main


def _tool():
    return load_tool("i18n")


def test_every_message_has_a_portuguese_translation_with_its_placeholders():
    assert _tool().problems("pt") == []


def test_the_template_is_not_stale():
    tool = _tool()
    assert i18n.LOCALE_DIR.joinpath("wargame.pot").read_bytes() == tool._dump(tool.template()), (
        "run: python tools/i18n.py update")


def test_a_catalogue_falls_back_to_english_and_follows_the_context():
    assert TEXT["odds.ratio"] == "ratio {ratio}"
    with i18n.using_language("pt"):
        assert TEXT["odds.ratio"] == "razão {ratio}"
        assert CODES["IMP"].startswith("Impasse")
        seen = {}
        # another thread starts in the default language: one session's choice stays its own
        t = threading.Thread(target=lambda: seen.update(lang=i18n.language()))
        t.start()
        t.join()
        assert seen["lang"] == "en"
    assert i18n.language() == "en"


def test_missing_translations_show_english(monkeypatch):
    import gettext

    monkeypatch.setattr(i18n, "gettext_translations", lambda lang: gettext.NullTranslations())
    with i18n.using_language("pt"):
        assert TEXT["odds.ratio"] == "ratio {ratio}"


def test_a_translation_of_an_older_english_text_is_not_shown(monkeypatch):
    """gettext looks a message up by its context and its English text (msgid): a translation
    made for another English text, not yet re-translated, is not used; the English shows."""
    with i18n.using_language("pt"):
        assert TEXT["odds.ratio"] == "razão {ratio}"
        monkeypatch.setitem(TEXT.english, "odds.ratio", "the ratio {ratio}")
        assert TEXT["odds.ratio"] == "the ratio {ratio}"


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "pt_PT.UTF-8"}, "pt"), ({"LANG": "pt_BR.UTF-8"}, "pt"),
    ({"LANGUAGE": "fr:pt", "LANG": "en_US"}, "pt"), ({"LANG": "C"}, "en"), ({}, "en"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "pt_PT"}, "en"),
])
def test_the_language_comes_from_the_environment_like_gettext(env, lang):
    assert i18n.resolve_language(None, env) == lang


def test_dates_are_written_the_portuguese_way():
    assert i18n.format_day("1944-06-06", "pt") == "6 de junho de 1944"
    assert i18n.format_day("1944-08-15", "en") == "15 August 1944"


def _run(*argv, env_lang=None, monkeypatch=None):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_odds_answer_in_portuguese_with_the_rulebooks_terms():
    code, out, _ = _run("odds", "--lang", "pt", "--game", "normandy", "--attack", "11",
                        "--defense", "4")
    assert code == 0
    assert "ataque 11 contra defesa 4" in out and "razão 2-1" in out and "coluna 2-1" in out
    # CN 5.1.6 in the rulebook's own words: DRB is "Defesa Recua com Baixas"
    assert "Defesa Recua com Baixas" in out and "Impasse" in out
    assert "attack" not in out and "defence" not in out
    english = _run("odds", "--game", "normandy", "--attack", "11", "--defense", "4")[1]
    assert "attack 11 against defence 4" in english


def test_lang_before_the_command_and_from_lang_environment(monkeypatch):
    monkeypatch.setenv("LANG", "pt_PT.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert "razão" in _run("odds", "--game", "dragoon", "--attack", "6", "--defense", "2")[1]
    assert "ratio" in _run("--lang=en", "odds", "--game", "dragoon", "--attack", "6",
                           "--defense", "2")[1]


def test_an_unknown_language_is_one_line_and_exit_code_2():
    code, out, err = _run("--lang", "klingon", "odds", "--game", "normandy", "--attack", "1",
                          "--defense", "1")
    assert code == 2 and out == "" and err.count("\n") == 1 and "en, pt" in err


def test_the_dashboards_tables_follow_the_language_with_the_rulebooks_terms():
    from wargame.ui.text import LEGEND_MARKS, PHASE_WORDS, UI, result_words

    assert "wargame.ui.text" in i18n.CATALOGUE_MODULES
    with i18n.using_language("pt"):
        assert PHASE_WORDS["allied_movement"] == "Fase de Movimentação Aliada"
        words = result_words("DRB AVB")  # the command line's words (tests/ui/test_result_words.py)
        assert words.startswith("DRB AVB: Defesa Recua com Baixas")
        assert "; Ataque Vence com Baixas" in words
        assert any("Zona de Engajamento (ZDE)" in text for _, text in LEGEND_MARKS)
        assert UI["air_use"].format(air=2, better=0.25).startswith(
            "Otimizador: usar aqui 2 pontos aéreos")
    assert PHASE_WORDS["allied_movement"] == "Allied movement"
    assert all("Engajamento" not in text for _, text in LEGEND_MARKS)


def test_serve_passes_the_language_down(monkeypatch):
    import sys
    import types

    calls = []
    fake = types.ModuleType("wargame.ui.serve")
    fake.serve_dashboard = lambda **kw: calls.append(kw)
    monkeypatch.setitem(sys.modules, "wargame.ui.serve", fake)
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert _run("--lang", "pt", "serve", "--scenario", "dragoon", "--no-show")[0] == 0
    assert _run("serve", "--scenario", "dragoon", "--no-show")[0] == 0
    assert calls[0]["lang"] == "pt" and calls[1].get("lang", "en") == "en"
