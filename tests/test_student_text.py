"""Student words (wargame/student_text.py, issue #28 item 3).

The kinds and codes are enumerated from the engines' own code and tables, so a new event kind,
BFN message, result code or die face without a student text in both languages fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from wargame import i18n
from wargame.event_text import event_line
from wargame.i18n import using_language
from wargame.memoir.dice import FACES
from wargame.student_text import (
    STUDENT_BFN,
    STUDENT_CAMPAIGN,
    STUDENT_MEMOIR,
    STUDENT_RESULTS,
    contracted,
    glossed,
    odds_grade,
    odds_words,
    result_sentence,
    student_line,
    unit_designation,
)
from wargame.viewer import Viewer

ROOT = Path(__file__).resolve().parent.parent
ENGLISH_WORDS = re.compile(r"\b(Regiment|Brigade|Division|Infantry|Group|Battalions?|Artillery|"
                           r"Corps|Army|Tank|Armou?red|Parachute|Airborne|Glider|Reserve|"
                           r"Battery|Coastal|Force|Assault|Special|Service|Field|Heavy)\b")


def _translated(domain: str, key: str) -> bool:
    cat = i18n.CATALOGUES[domain]
    if key in cat.plurals:  # a counted message: both its forms differ from the English
        with i18n.using_language("pt"):
            return all(cat.plural(key, n) != cat.plural(key, n, english=True) for n in (1, 2))
    return f"{domain}:{key}" in i18n.translations("pt")


def _emitted_campaign_kinds() -> set[str]:
    """Every kind the campaign engine emits (``_emit("kind", ...)`` in wargame/operational)."""
    kinds = set()
    for path in (ROOT / "wargame" / "operational").glob("*.py"):
        kinds |= set(re.findall(r'_emit\(\s*"([a-z_]+)"', path.read_text()))
        kinds |= set(re.findall(r'_emit\(\s*state,\s*"([a-z_]+)"', path.read_text()))
    return kinds - {"bfn"}  # BFN events: their msg (below)


def _bfn_messages() -> set[str]:
    text = (ROOT / "wargame" / "operational" / "bfn_rules.py").read_text()
    return set(re.findall(r'_emit\(\s*state,\s*"[a-z_]+",\s*[^,]+,\s*"([a-z_]+)"', text))


def _memoir_kinds() -> set[str]:
    kinds = set()
    for path in (ROOT / "wargame" / "memoir").glob("*.py"):
        kinds |= set(re.findall(r'Event\(\s*"([a-z_]+)"', path.read_text()))
    return kinds


def _result_codes() -> set[str]:
    """Every code of every campaign game's CRT, bombardment and carpet bombing tables."""
    codes = set()
    for game in ("normandy", "dragoon"):
        tables = yaml.safe_load((ROOT / "scenarios" / game / "tables.yaml").read_text())
        cells = [c for row in tables["crt"]["rows"].values() for c in row]
        cells += [c for row in tables["bombardment"]["rows"].values() for c in row]
        cells += list((tables.get("carpet_bombing") or {}).values())
        codes |= {code for cell in cells for code in str(cell).split()}
    return codes


def _has(catalogue, key_or_prefix: str) -> list[str]:
    return [k for k in [*catalogue, *catalogue.plurals]
            if k == key_or_prefix or k.startswith(key_or_prefix + ".")]


def test_every_event_kind_and_code_has_student_words_in_both_languages():
    campaign = _emitted_campaign_kinds()
    bfn = _bfn_messages()
    memoir = _memoir_kinds()
    codes = _result_codes()
    assert {"move", "attack", "roll", "retreat", "eliminated"} <= campaign  # the scan works
    assert {"dd", "pegasus", "mulberry_storm"} <= bfn and {"battle", "card_played"} <= memoir
    assert {"DRB", "AVB", "EMP", "IMP", "DB", "DA"} <= codes
    missing = [k for k in campaign if not _has(STUDENT_CAMPAIGN, k)]
    missing += [m for m in bfn if not _has(STUDENT_BFN, m)]
    missing += [k for k in memoir if not _has(STUDENT_MEMOIR, k)]
    missing += [c for c in codes if c not in STUDENT_RESULTS]
    missing += [f for f in set(FACES.values()) if f"m44.{f}" not in STUDENT_RESULTS]
    assert missing == []
    untranslated = [f"{cat.domain}:{k}" for cat in (STUDENT_CAMPAIGN, STUDENT_BFN, STUDENT_MEMOIR,
                                                    STUDENT_RESULTS)
                    for k in [*cat, *cat.plurals] if not _translated(cat.domain, k)]
    assert untranslated == []


def test_result_sentences_in_portuguese():
    with using_language("pt"):
        text = result_sentence("DRB AVB")
        assert text.startswith("os defensores recuam um hexágono e um deles sofre uma perda")
        assert "os atacantes podem avançar" in text  # CN 5.2
        assert "avançar" not in result_sentence("DVB ARI")
        assert result_sentence("IMP").startswith("um impasse")


def test_odds_in_words_graded_from_the_column():
    from wargame.games import open_game

    tables = open_game("normandy").tables
    grades = [odds_grade(tables.crt_distribution(c)) for c in tables.crt_columns]
    order = ["very_bad", "bad", "even", "good", "very_good"]
    assert [order.index(g) for g in grades] == sorted(order.index(g) for g in grades)
    assert grades[0] == "very_bad" and grades[-1] == "very_good"
    five = tables.crt_columns.index("5-1")
    with using_language("pt"):
        assert odds_words("5-1", grades[five]) == "5 contra 1: muito favorável ao atacante"
    assert odds_words("1-2", "bad") == "1 to 2: favourable to the defender"


def test_glossary_explains_jargon_on_hover():
    with using_language("pt"):
        html = glossed("DRB AVB: unidade engajada, integridade divisionária, coluna 5-1")
    for term in ("DRB", "AVB", "engajada", "integridade divisionária", "coluna"):
        assert re.search(rf'<abbr class="wg-term" title="[^"]+">{term}</abbr>', html), term
    assert "Defesa Recua com Baixas" in html


def test_every_unit_designation_reads_in_portuguese():
    names = set()
    for game in ("normandy", "dragoon"):
        data = yaml.safe_load((ROOT / "scenarios" / game / "units.yaml").read_text())
        names |= {u["name"] for u in data["units"]}
        names |= {d["name"] for d in (data.get("divisions") or {}).values()}
    with using_language("pt"):
        left = {n: unit_designation(n) for n in names if ENGLISH_WORDS.search(unit_designation(n))}
        assert left == {}
        assert unit_designation("16th Infantry Regiment") == "Regimento de Infantaria 16"
        assert unit_designation("51st (Highland) Infantry Division") == \
            "Divisão de Infantaria 51 (Highland)"
        assert unit_designation("VIII Corps Artillery") == "Artilharia do VIII Corpo"
    assert unit_designation("16th Infantry Regiment") == "16th Infantry Regiment"


def test_portuguese_contractions():
    with using_language("pt"):
        assert contracted("Bombardeamento de o hexágono") == "Bombardeamento do hexágono"
        assert contracted("entra em a praia") == "entra na praia"
    assert contracted("de o") == "de o"


@pytest.fixture(scope="module")
def played():
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from test_event_text import GAMES, _play

    from wargame.games import open_game

    out = []
    for sid, seed, variants in GAMES:
        events, _ = _play(sid, seed, variants, limit=1500)
        out.append((open_game(sid, variants=variants).new_state(seed), events))
    return out


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_every_event_of_seeded_games_says_itself_in_student_words(played, lang):
    """Every event of seeded bot games of every engine renders in student words (no fallback
    to the expert line), with no rule citation, no seed and no internal unit id."""
    student = Viewer.player("allied", lang, student=True)
    kinds = set()
    with using_language(lang):
        for state, events in played:
            for e in events:
                line = student_line(e, state)  # raises if the data cannot say it
                assert line == event_line(e, student, state)
                assert not re.search(r"\b(CN|OD|BFN|M44) \d", line), line
                assert not re.search(r"\b(seed|semente)\b", line, re.I), line
                assert not re.search(r"\bUnit \d|\bunidade \d|\(\d,\d+\)", line), line
                kinds.add(e.kind)
    assert {"attack", "roll", "battle", "card_played", "moved"} <= kinds


def test_rule_citations_left_out_for_students_only():
    from wargame.student_text import without_rules

    text = "Heavy bombers: 0 of 2 uses (from turn 8, CN 6.3); hidden (OD 5.1.1), M44 p.12"
    assert without_rules(text) == "Heavy bombers: 0 of 2 uses (from turn 8); hidden, M44 p.12"
    assert without_rules(text, Viewer.teacher(student=False)) == text
    assert without_rules(text, Viewer.teacher(student=True)) == without_rules(text)
