"""One word per concept (issue #15): the command line and the dashboards explain each combat
result code (CN/OD 5.1.6, 6.2) in the same words, in every language, and IMP is an "impasse",
EMP an "exchange" (docs/glossary.md), never a "stalemate"."""

from __future__ import annotations

import pytest

from wargame.cli import CODES
from wargame.i18n import CATALOGUES, LANGUAGES, using_language
from wargame.ui.text import RESULT_WORDS, result_words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cli_and_dashboard_use_the_same_words_for_every_code(lang):
    assert set(RESULT_WORDS) == set(CODES)
    with using_language(lang):
        for code in CODES:
            assert RESULT_WORDS[code] == CODES[code], code


def test_impasse_and_exchange_are_the_words():
    assert RESULT_WORDS["IMP"].startswith("impasse")
    assert RESULT_WORDS["EMP"].startswith("exchange")
    assert result_words("IMP") == "IMP: " + CODES["IMP"]
    with using_language("pt"):
        assert RESULT_WORDS["IMP"].startswith("Impasse")
        assert RESULT_WORDS["EMP"].startswith("Empate")


def test_no_catalogue_says_stalemate():
    import importlib

    from wargame.i18n import CATALOGUE_MODULES

    for module in CATALOGUE_MODULES:
        importlib.import_module(module)
    said = [f"{domain}:{key}" for domain, cat in CATALOGUES.items()
            for key, text in cat.english.items() if "stalemate" in text.lower()]
    assert not said
