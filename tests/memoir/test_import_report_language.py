"""Issue 32: the import report in the reader's language. Every report line is a key and its data
(wargame.memoir.m44_tiles.Report), kept so in the scenario file and said in the viewer's
language by ``wargame scenario import``, ``scenario list --json`` and the dashboard's import
panel (catalogues memoir.import_report and memoir.import_tiles, Portuguese in the .po)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from wargame import i18n
from wargame.catalog import list_scenarios
from wargame.cli import main as cli_main
from wargame.memoir import m44_tiles
from wargame.memoir.imports import entry_text, import_m44, report_text
from wargame.memoir.m44_tiles import BADGE_TROOPS, NATION_RULES, NATIONS, TILES, troop_key
from wargame.memoir.text import IMPORT_TEXT_EN, REPORT_TEXT, TILE_TEXT, report_line

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("WARGAME_HOME", str(tmp_path / "home"))


def pt(make):
    with i18n.using_language("pt"):
        return make()


# A layout of our own with a line of every kind: nations, exact and approximated tiles, a mark
# on a tile and on a unit, equipment, badges (a troop, an unknown one, the Resistance), tags,
# medals of each kind, a group objective, sudden death, editor options, hex groups, texts.
LAYOUT = {
    "game_info": {"side_player1": "axis", "side_player2": "allies", "starting": "player1",
                  "front": "eastern", "date_begin": "1943-07-05",
                  "options": {"russian_commissar_rule": "ALLIES", "night_visibility_rules": True},
                  "victory": {"condition": [
                      {"group_sudden_death": {"side": "ALLIES", "group": ["A1", "B1"],
                                              "number": "1"}},
                      {"something_else": {"side": "AXIS"}}]},
                  "victory_conditions": [{"standard": {}}, {"medals_at_start": 2}]},
    "board": {"type": "standard", "face": "country", "groups": ["x"], "hexagons": [
        {"row": 0, "col": 4, "unit": {"name": "infger"}},
        {"row": 8, "col": 24, "unit": {"name": "infus"}},
        {"row": 6, "col": 10, "unit": {"name": "infru", "badge": "badge6"}},
        {"row": 6, "col": 12, "unit": {"name": "tankbrit", "badge": "99"}},
        {"row": 6, "col": 14, "unit": {"name": "inf2fr", "badge": "3"}},
        {"row": 6, "col": 16, "unit": {"name": "inf2us", "behavior": "FRENCH_RESISTANCE"}},
        {"row": 6, "col": 18, "unit": {"name": "gunjp", "behavior": "IS_WITTMANN",
                                       "equipment": "boat"}},
        {"row": 2, "col": 8, "unit": {"name": "inf2it", "badge": "37"}},
        {"row": 2, "col": 10, "unit": {"name": "tankgb"}},
        {"row": 2, "col": 12, "unit": {"name": "infch"}},
        {"row": 4, "col": 4, "terrain": {"name": "wroad"}},
        {"row": 4, "col": 6, "terrain": {"name": "wforest"}},
        {"row": 4, "col": 8, "terrain": {"name": "river", "behavior": "FORDABLE_STREAM"}},
        {"row": 4, "col": 10, "terrain": {"name": "marshes"}, "tags": [
            {"name": "medal0", "medal": {"permanent": True}}]},
        {"row": 4, "col": 12, "rect_terrain": {"name": "casemate"}},
        {"row": 4, "col": 14, "terrain": {"name": "lakeA"}, "tags": [{"name": "tag4"}]},
        {"row": 4, "col": 16, "tags": [{"name": "tag3", "behavior": "MINE_FIELD"},
                                       {"name": "medal2", "medal": {"nbr_hex": 2},
                                        "group": ["I5"]}]},
        {"row": 4, "col": 18, "tags": [{"name": "medal1"}]},
    ]},
    "text": {"en": {"name": "Prokhorovka", "rules": "The Soviet player...",
                    "victory": "6 medals. The Axis wins at once holding the hill."}},
}


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _used_keys() -> set[str]:
    """The line keys m44_tiles writes (its ``report.add(part, "KEY"`` calls)."""
    source = Path(m44_tiles.__file__).read_text(encoding="utf-8")
    keys = set(re.findall(r'report\.add\(\s*"\w+",\s*"(\w+)"', source))
    keys |= set(re.findall(r'"(\w+)" if \w+ else "(\w+)"', source)[0])  # badge / badge_unknown
    keys |= {"medal_permanent", "medal_held"}
    return keys


# ------------------------------------------------------------- every key has en and pt
def test_every_report_key_has_english_and_portuguese():
    translated = i18n.translations("pt")
    used = _used_keys()
    assert len(used) >= 20  # the regexp found the call sites
    lines = [*REPORT_TEXT, *REPORT_TEXT.plurals]  # a counted line is a plural message
    assert used <= {k.removeprefix("line.") for k in lines if k.startswith("line.")}
    words = [f"rule.{n}" for n in NATION_RULES] + [
        f"troop.{troop_key(t)}" for t in BADGE_TROOPS.values()] + [
        f"who.{w}" for w in ("AXIS", "ALLIES", "either")] + [f"kind.{k}" for k in (
            "inf", "inf2", "tank", "gun")]
    assert set(words) <= set(REPORT_TEXT)
    for tile in TILES.values():
        assert TILE_TEXT.english[f"card.{tile.key}"] == tile.card
        assert (f"lost.{tile.key}" in TILE_TEXT) == bool(tile.lost)
    for _side, nation in NATIONS.values():
        assert f"nation.{nation}" in IMPORT_TEXT_EN
    for catalogue in (REPORT_TEXT, TILE_TEXT):
        for key, english in catalogue.english.items():
            text = translated.get(f"{catalogue.domain}:{key}", "")
            assert text.strip(), f"{catalogue.domain}:{key} has no Portuguese"
            # only a layout of placeholders may be the same in both
            if re.search(r"[A-Za-z]", re.sub(r"\{[^}]*\}", "", english)):
                assert text != english, f"{catalogue.domain}:{key} is English in pt"


def test_a_line_is_said_in_the_language_it_is_read_in():
    line = report_line("tile_lost", {"name": "wroad", "tile": "wroad"}, [[4, 4]])
    assert line == ("wroad (Terrain 42 Roads): the road move (one more hex along a road) is "
                    "not played at (4,4)")
    said = pt(lambda: report_line("tile_lost", {"name": "wroad", "tile": "wroad"}, [[4, 4]]))
    assert said.startswith("wroad (Terreno 42 Estradas): o movimento por estrada")
    assert said.endswith(" em (4,4)") and "played" not in said
    assert pt(lambda: report_line("nation_rule", {"nation": "Soviet"})).startswith(
        "a regra do Comissário soviético")
    # a file imported before the lines had keys keeps English text: shown as it is
    assert pt(lambda: entry_text("wroad (Terrain 42 Roads) at (4,4)")) == \
        "wroad (Terrain 42 Roads) at (4,4)"


# ------------------------------------------------------------- an import in pt: no English
# words of the English report lines that Portuguese never uses
ENGLISH = re.compile(r"\b(played|not played|units|objective|marked|with equipment|the Allies|"
                     r"the Axis|either side|rule|rules|Terrain|base game|sudden death|hexes|"
                     r"badge|tag|infantry|armour|artillery|at \()\b")


def _lines_said(result_lines) -> list[str]:
    return [entry_text(e) for part in result_lines.values() for e in part]


def test_an_import_in_portuguese_shows_no_english_report_line(tmp_path, capsys):
    path = write(tmp_path, "prokhorovka.m44", LAYOUT)
    assert cli_main(["--lang", "pt", "scenario", "import", str(path), "--id", "prok"]) == 0
    out = capsys.readouterr().out
    saved = json.loads((Path(os.environ["WARGAME_HOME"]) / "scenarios" / "memoir44" /
                        "prok.json").read_text(encoding="utf-8"))
    lines = saved["import_report"]
    # the file keeps keys and data, not sentences
    assert all(isinstance(e, dict) and e["key"] for part in lines.values() for e in part)
    keys = {e["key"] for part in lines.values() for e in part}
    assert keys >= {"option", "nation_rule", "groups", "text_rules", "text_victory",
                    "victory_conditions", "sudden_death", "victory_condition", "tile_mark",
                    "tile_lost", "tile", "nation", "resistance_mark", "resistance_badge",
                    "unit_mark", "equipment", "badge", "badge_unknown", "tag", "tag_mark",
                    "medal_held", "medal_permanent", "medal_group"}
    english = _lines_said(lines)
    portuguese = pt(lambda: _lines_said(lines))
    assert len(english) == len(portuguese) >= 25
    for en, said in zip(english, portuguese, strict=True):
        assert said != en
        assert not ENGLISH.search(said), said
        assert f"- {said}" in out.splitlines()  # printed in pt
        assert f"- {en}" not in out.splitlines()
    # the briefings: English in English, Portuguese in pt
    assert all(f"- {en}" in saved["briefing"] for en in english)
    assert all(f"- {said}" in saved["pt"]["briefing"] for said in portuguese)
    # the same import in English prints the English lines
    assert cli_main(["scenario", "import", str(path), "--id", "prok", "--replace"]) == 0
    out_en = capsys.readouterr().out.splitlines()
    assert all(f"- {en}" in out_en for en in english)


def test_the_scenario_list_says_the_approximations_in_the_readers_language(tmp_path):
    import_m44(write(tmp_path, "prokhorovka.m44", LAYOUT), "prok")
    entry = next(e for e in list_scenarios() if e["id"] == "memoir44-prok")
    entry_pt = next(e for e in list_scenarios(lang="pt") if e["id"] == "memoir44-prok")
    assert entry["approximated"] and len(entry["approximations"]) >= 10
    assert any("Commissar" in a for a in entry["approximations"])
    assert any("Comissário" in a for a in entry_pt["approximations"])
    assert not any(ENGLISH.search(a) for a in entry_pt["approximations"])
    bundled = next(e for e in list_scenarios() if e["id"] == "memoir44-1")
    assert bundled["approximations"] == [] and not bundled["approximated"]


def test_the_dashboard_import_panel_in_portuguese(tmp_path):
    from wargame.ui.m44_upload import M44Import

    control = M44Import(lang="pt")
    assert control.import_bytes(json.dumps(LAYOUT).encode(), "prok.m44") == "prok"
    shown = control.message.object
    assert "Jogado de forma aproximada" in shown and "Comissário" in shown
    assert "not played" not in shown and "Terrain " not in shown
    english = M44Import(lang="en")
    assert english.import_bytes(json.dumps(LAYOUT).encode(), "prok-en.m44") == "prok-en"
    assert "not played" in english.message.object


def test_problems_are_refused_in_the_readers_language(tmp_path):
    bad = {"game_info": {}, "board": {"type": "standard", "hexagons": [
        {"row": 0, "col": 0, "unit": {"name": "infger"}},
        {"row": 8, "col": 24, "unit": {"name": "cavus"}},
        {"row": 4, "col": 4, "terrain": {"name": "price"}}]}}
    path = write(tmp_path, "bad.m44", bad)
    with pytest.raises(Exception) as en:
        import_m44(path, "bad")
    with pytest.raises(Exception) as said:
        pt(lambda: import_m44(path, "bad"))
    assert "'price' (no known effect) at (4,4)" in str(en.value)
    assert "'cavus' (expansion figures) at (8,24)" in str(en.value)
    assert "'price'" in str(said.value) and "no known effect" not in str(said.value)


# ------------------------------------------------------------- the corpus (when collected)
CORPUS = os.environ.get("WARGAME_M44_CORPUS")


@pytest.mark.skipif(not CORPUS, reason="WARGAME_M44_CORPUS is not set "
                    "(tools/collect_m44_corpus.py writes the layouts)")
def test_every_corpus_report_line_is_portuguese_in_pt(tmp_path):
    """Every line of every import of the collected community files (corpus and acceptance)
    is said in Portuguese, none left in English."""
    from wargame.scenario_errors import ScenarioError

    files = sorted(Path(CORPUS).glob("*/*.m44"))
    assert len(files) >= 40
    imported = 0
    for i, path in enumerate(files):
        try:
            result = import_m44(path, f"c{i}", folder=tmp_path / "out")
        except (ScenarioError, ValueError):
            continue
        imported += 1
        english = _lines_said(result.lines)
        portuguese = pt(lambda r=result: _lines_said(r.lines))
        for en, said in zip(english, portuguese, strict=True):
            assert said != en, (path.name, en)
            assert not ENGLISH.search(said), (path.name, said)
        shown = pt(lambda r=result: report_text(r.lines)).splitlines()
        assert all(f"- {said}" in shown for said in portuguese)
    assert imported >= 40
