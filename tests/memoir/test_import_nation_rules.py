"""Issue 32 item 2: a nation's own rules (the Soviet Commissar, the Japanese Banzai, the British
"stiff upper lip"...) are played only where a public source states them; none can be cited, so
each is left out, listed in docs/memoir44-import.md ("Nations"), and an import of a scenario
with that nation (or the editor option of its rule) reports it and marks the title with ≈."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from wargame import i18n
from wargame.catalog import list_scenarios
from wargame.memoir.imports import APPROXIMATE_MARK, entry_text, import_m44
from wargame.memoir.m44_tiles import NATION_RULES, NATIONS, OPTION_ONLY_RULES, OPTION_RULES
from wargame.memoir.scenario import load_scenario
from wargame.memoir.text import REPORT_TEXT

DOC = Path(__file__).resolve().parents[2] / "docs" / "memoir44-import.md"
CODES = {nation: code for code, (_side, nation) in NATIONS.items()}


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("WARGAME_HOME", str(tmp_path / "home"))


def layout(units, **options):
    return {"game_info": {"side_player1": "AXIS", "side_player2": "ALLIES",
                          **({"options": options} if options else {})},
            "board": {"type": "STANDARD", "hexagons": [
                {"row": 0, "col": 0, "unit": {"name": "infger"}},
                {"row": 8, "col": 24, "unit": {"name": "infus"}}] + units}}


def imported(tmp_path, name, data):
    path = tmp_path / f"{name}.m44"
    path.write_text(json.dumps(data), encoding="utf-8")
    return import_m44(path, name)


def rule_name(text: str) -> str:
    """``the Soviet Commissar rule (Eastern Front)`` -> ``Soviet Commissar rule``."""
    return re.sub(r"^the |\s*\(.*$", "", text)


def test_every_left_out_rule_is_listed_in_the_docs_with_why():
    doc = DOC.read_text(encoding="utf-8")
    section = doc.split("### Nations", 1)[1].split("\n### ", 1)[0]
    for text in {**NATION_RULES, **OPTION_ONLY_RULES}.values():
        row = next((line for line in section.splitlines()
                    if line.startswith("| ") and rule_name(text) in line), None)
        assert row is not None, f"{rule_name(text)} is not in the Nations table"
        assert "not public" in row or "the same" in row  # why it is left out
    for option in OPTION_RULES:
        assert f"`{option}`" in section
    assert "none is played" in section


@pytest.mark.parametrize("nation", sorted(NATION_RULES))
def test_a_nation_s_rule_is_reported_left_out_and_the_title_marked(tmp_path, nation):
    code = CODES[nation]
    row = 2 if NATIONS[code][0] == "AXIS" else 6
    result = imported(tmp_path, f"n-{code}", layout(
        [{"row": row, "col": 10, "unit": {"name": f"inf{code}"}}]))
    ruled = [e for e in result.lines["left_out"] if e["key"] == "nation_rule"]
    assert [e["data"] for e in ruled] == [{"nation": nation}]
    said = entry_text(ruled[0])
    assert said.startswith(NATION_RULES[nation]) and "play as their side's units" in said
    with i18n.using_language("pt"):
        said_pt = entry_text(ruled[0])
    assert said_pt.startswith(i18n.translations("pt")[f"memoir.import_report:rule.{nation}"])
    assert said_pt != said
    # the title's mark and the list
    assert result.title.endswith(APPROXIMATE_MARK)
    assert load_scenario(f"n-{code}").approximated
    entry = next(e for e in list_scenarios() if e["id"] == f"memoir44-n-{code}")
    assert entry["approximated"] and said in entry["approximations"]
    assert result.report["left_out"].count(said) == 1  # once, however many units
    assert NATION_RULES[nation] in load_scenario(f"n-{code}").briefing


def test_many_units_of_a_nation_report_its_rule_once(tmp_path):
    result = imported(tmp_path, "many", layout(
        [{"row": 6, "col": c, "unit": {"name": "tankru"}} for c in (10, 12, 14)]
        + [{"row": 2, "col": 10, "unit": {"name": "infjp"}}]))
    rules = [e["data"]["nation"] for e in result.lines["left_out"] if e["key"] == "nation_rule"]
    assert rules == ["Soviet", "Japanese"]


def test_german_and_american_units_have_no_rule_of_their_own(tmp_path):
    result = imported(tmp_path, "base", layout([{"row": 6, "col": 10, "unit": {"name": "tankus"}},
                                                {"row": 2, "col": 10, "unit": {"name": "gunger"}}]))
    assert not result.lines["left_out"] and not result.approximated
    assert not result.title.endswith(APPROXIMATE_MARK)


@pytest.mark.parametrize("option", sorted(OPTION_RULES))
def test_an_option_that_switches_a_nation_rule_on_is_reported_with_the_rule(tmp_path, option):
    result = imported(tmp_path, "opt", layout([], **{option: "ALLIES"}))
    lines = [e for e in result.lines["left_out"] if e["key"] == "option_rule"]
    assert [e["data"] for e in lines] == [{"option": option, "rule": OPTION_RULES[option]}]
    rule = REPORT_TEXT.english[f"rule.{OPTION_RULES[option]}"]
    assert entry_text(lines[0]) == f"editor option '{option}': {rule} (not played)"
    with i18n.using_language("pt"):
        assert entry_text(lines[0]).startswith(f"opção do editor '{option}': a regra")
    assert result.title.endswith(APPROXIMATE_MARK)


def test_an_option_of_no_nation_rule_is_reported_as_an_option(tmp_path):
    result = imported(tmp_path, "blitz", layout([], blitz_rules=True))
    assert [e["key"] for e in result.lines["left_out"]] == ["option"]
    assert result.report["left_out"] == ["editor option 'blitz_rules' (not played)"]
