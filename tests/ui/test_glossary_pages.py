"""Issue #28: the hover glossary (wargame.student_text.glossed) is not only in the log: the unit
card (in student words) and the map's legend (the campaign's Legend tab, Memoir's legend) carry
each jargon word's explanation in its title, in English and in Portuguese."""

from __future__ import annotations

import html
import re

import pytest

from wargame.i18n import using_language
from wargame.student_text import GLOSSARY, GLOSSARY_TERMS, glossed, unit_designation
from wargame.ui.campaign import CampaignDashboard
from wargame.ui.campaign_panels import legend_html

TERM = re.compile(r'<abbr class="wg-term" title="([^"]*)">([^<]*)</abbr>')


def explained(markup: str) -> dict[str, str]:
    """Each marked word (lower case) -> the explanation in its title."""
    return {word.lower(): html.unescape(title) for title, word in TERM.findall(markup)}


def meaning(key: str, lang: str) -> tuple[str, str]:
    with using_language(lang):
        return GLOSSARY_TERMS[key].lower(), GLOSSARY[key]


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_unit_card_explains_its_jargon_in_student_words(lang):
    dash = CampaignDashboard("normandy", seed=1946, lang=lang)
    m = dash.model
    uid = next(u for u, us in sorted(m.s.units.items())
               if us.status == "on_map" and m.s.side_of(u) == m.side)
    m.student = True
    m.select_unit(uid)
    card = dash.unit_card.pane.object
    words = explained(card)
    term, text = meaning("movement_points", lang)
    assert words.get(term) == text, (term, words)
    # an engaged unit's card explains "engaged" too (Utah's stack is next to the enemy)
    if m.unit_card(uid)["engaged"]:
        term, text = meaning("engaged", lang)
        assert words.get(term) == text, (term, words)
    # the division named in the page's language, the points left as a whole number
    division = m.unit_card(uid)["division"]
    with using_language(lang):
        assert html.escape(unit_designation(division)) in card
    if lang == "pt":
        assert division not in card, division  # "4th Infantry Division" was left in English
    assert not re.search(r"<td>\d+\.0</td>", card), card
    m.student = False  # an expert's card: plain words, no hover marks
    assert TERM.search(dash.unit_card.pane.object) is None


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_campaign_legend_explains_its_jargon(lang):
    with using_language(lang):
        legend = legend_html()
    words = explained(legend)
    for key in ("zone_of_engagement", "stacking", "reduced", "movement_points", "engaged",
                "bocage"):
        term, text = meaning(key, lang)
        assert words.get(term) == text, (key, term, sorted(words))
    assert len(TERM.findall(legend)) == len(words)  # each term explained once


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_memoir_legend_explains_sections_and_flags(lang):
    from wargame.ui.memoir import MemoirDashboard

    dash = MemoirDashboard("1", seed=44, lang=lang)
    words = explained(dash.legend.object)
    _, section = meaning("section", lang)
    _, flag = meaning("flag", lang)
    assert section in words.values(), words
    assert flag in words.values(), words


@pytest.mark.parametrize(("lang", "text", "key"), [
    ("en", "three sections", "section"), ("en", "two medals", "medal"),
    ("en", "two losses", "step"), ("pt", "as três secções", "section"),
    ("pt", "duas medalhas", "medal"), ("pt", "bandeiras", "flag")])
def test_plurals_are_explained_too(lang, text, key):
    with using_language(lang):
        marked = glossed(text)
        word = text.split()[-1]
        assert explained(marked) == {word: GLOSSARY[key]}, marked
