"""The project's own Memoir '44 scenario files (tools/build_memoir_scenarios.py).

- not stale: the tool run again into a temporary folder writes exactly the bundled files
  (where the reference layouts are found: tests/memoir/reference.py);
- every fact the rulebook states (the Memoir '44 rulebook, pt-PT: cards, who starts, medals,
  the set-up counts of Pegasus Bridge, the special units, objectives and special rules) is in
  the files;
- no publisher text under scenarios/: no Scenario Editor text block (its keys), no .m44 file,
  and no run of words copied from the reference files' text fields.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.memoir.reference import REFERENCE, needs_reference
from wargame.memoir.scenario import index, load_scenario
from wargame.paths import scenarios_root
from wargame.schema.common import validate
from wargame.schema.memoir import MemoirScenarioFile

REPO = Path(__file__).resolve().parents[2]
ROOT = scenarios_root() / "memoir44"

_spec = importlib.util.spec_from_file_location(
    "build_memoir_scenarios", REPO / "tools" / "build_memoir_scenarios.py")
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)

# rulebook (Memoir '44, pt-PT, each scenario's "Instruções" and "Condições de Vitória"): Axis
# cards, Allied cards, who starts, medals to win
RULEBOOK = {
    "1": (2, 6, "ALLIES", 4), "2": (4, 5, "ALLIES", 4), "3": (4, 5, "ALLIES", 5),
    "4": (4, 6, "ALLIES", 4), "5": (5, 4, "AXIS", 6), "6": (4, 5, "ALLIES", 4),
    "7": (4, 4, "AXIS", 4), "8": (4, 5, "ALLIES", 4), "9": (5, 6, "AXIS", 4),
    "10": (4, 6, "ALLIES", 6), "11": (4, 5, "ALLIES", 5), "12": (5, 5, "AXIS", 6),
    "13": (6, 6, "AXIS", 5), "14": (4, 6, "AXIS", 6), "15": (5, 4, "AXIS", 6),
    "16": (4, 6, "ALLIES", 4), "overlord": (8, 8, "AXIS", 8),
}
# the Scenario Editor's text block and its keys (text.<lang>.{name, historical, ...})
EDITOR_TEXT_KEYS = {"text", "historical", "description", "victory", "rules", "bibliography"}


def data(sid: str) -> dict:
    return json.loads((ROOT / f"{sid}.json").read_text(encoding="utf-8"))


def test_seventeen_files_each_valid_with_provenance_and_our_briefing():
    assert sorted(index(), key=str) == sorted(RULEBOOK, key=str)
    for sid in RULEBOOK:
        d = data(sid)
        validate(MemoirScenarioFile, d, f"{sid}.json")
        assert d["id"] == sid and d["number"] == (int(sid) if sid.isdigit() else None)
        assert "tools/build_memoir_scenarios.py" in d["provenance"]
        assert d["briefing"] == tool.BRIEFINGS[sid] and 80 < len(d["briefing"]) < 600
        assert load_scenario(sid).provenance == d["provenance"]


@needs_reference
def test_files_are_not_stale(tmp_path):
    assert tool.main(["--reference", str(REFERENCE), "--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.glob("*.json"))
    assert written == sorted(p.name for p in ROOT.glob("*.json"))
    for name in written:
        assert (tmp_path / name).read_text(encoding="utf-8") == (ROOT / name).read_text(
            encoding="utf-8"), f"{name} is stale: run python tools/build_memoir_scenarios.py"
    assert tool.main(["--reference", str(REFERENCE), "--check"]) == 0


@needs_reference
def test_check_reports_a_stale_file(tmp_path, capsys):
    assert tool.main(["--reference", str(REFERENCE), "--out", str(tmp_path)]) == 0
    (tmp_path / "3.json").write_text("{}", encoding="utf-8")
    assert tool.main(["--reference", str(REFERENCE), "--out", str(tmp_path), "--check"]) == 1
    assert "3.json" in capsys.readouterr().out


@pytest.mark.parametrize("sid", list(RULEBOOK))
def test_rulebook_instructions(sid):
    axis, allies, starts, medals = RULEBOOK[sid]
    d = data(sid)
    assert d["cards"] == {"AXIS": axis, "ALLIES": allies}
    assert d["first_player"] == starts
    assert d["medals_to_win"] == {"AXIS": medals, "ALLIES": medals}


def test_pegasus_bridge_set_up_counts():
    """M44 Game Set-up steps 2-6 (the Pegasus Bridge example): 20 river hexes, 4 villages,
    9 woods, 2 bridges, 4 barbed wire, 1 sandbag, an Allied objective medal on each bridge;
    the Germans draw 2 extra cards after each of their first two turns."""
    d = data("1")
    terrain = Counter(t["terrain"] for t in d["terrain"])
    assert (terrain["river"], terrain["buildings"], terrain["woods"]) == (20, 4, 9)
    bridges = sorted(t["at"] for t in d["terrain"] if t.get("bridge"))
    assert len(bridges) == 2
    obstacles = Counter(t.get("obstacle") for t in d["terrain"])
    assert obstacles["wire"] == 4 and obstacles["sand"] == 1
    assert sorted(h for o in d["objectives"] for h in o["hexes"]) == bridges
    assert all(o["side"] == "ALLIES" and not o["permanent"] for o in d["objectives"])
    assert d["special"]["draw_schedule"] == {"AXIS": {"1": 2, "2": 2}}


def _units(sid: str, side: str, kind: str | None = None) -> list[dict]:
    return [u for u in data(sid)["units"] if u["side"] == side and kind in (None, u["kind"])]


def test_special_units_the_rulebook_names():
    # 4 Pointe-du-Hoc and 13 Arnhem: every Allied unit is special forces (Rangers, airborne);
    # the layouts' Allied artillery at Arnhem has no special version (M44 Appendix 1)
    for sid in ("4", "13"):
        assert {u.get("special") for u in _units(sid, "ALLIES", "inf")} == {"special"}
    assert {u["kind"] for u in _units("4", "ALLIES")} == {"inf"}
    # 6 Mont Mouchet and 7 Vassieux: every Allied unit is French Resistance, 3 figures
    for sid in ("6", "7"):
        assert {(u.get("special"), u["figures"]) for u in _units(sid, "ALLIES")} == {
            ("resistance", 3)}
    # German special tanks have 4 figures: 6, 8, 9, 13, 15
    for sid in ("6", "8", "9", "13", "15"):
        elite = [u for u in _units(sid, "AXIS", "tank") if u.get("special") == "elite"]
        assert elite and {u["figures"] for u in elite} == {4}, sid
    # 12 Montélimar: the other German infantry have 3 figures
    assert {u["figures"] for u in _units("12", "AXIS", "inf") if not u.get("special")} == {3}
    # 6 Mont Mouchet: each German tank destroyed is 2 medals
    assert data("6")["special"]["elimination_medals"] == {"AXIS": {"tank": 2}}


def test_objectives_and_special_rules_the_rulebook_states():
    def obj(sid):
        return data(sid)["objectives"]

    # 3 Sword Beach, 5 Omaha: a medal on each village, held
    for sid in ("3", "5"):
        villages = sorted(t["at"] for t in data(sid)["terrain"] if t["terrain"] == "buildings"
                          and t["at"][0] <= 3)
        got = sorted(h for o in obj(sid) for h in o["hexes"])
        assert got and set(map(tuple, got)) <= set(map(tuple, villages)), sid
        assert all(o["side"] == "ALLIES" and not o["permanent"] for o in obj(sid))
    # 4 Pointe-du-Hoc, 11 Paris: won medals are kept
    assert obj("4") and all(o["permanent"] for o in obj("4"))
    assert len(obj("11")) == 3 and all(o["permanent"] for o in obj("11"))
    # 8 Cobra: two villages; 9 Mortain: St-Hilaire for the Germans
    assert len(obj("8")) == 2 and [o["side"] for o in obj("9")] == ["AXIS"]
    # 12 Montélimar: Bonlieu and Grane for the Germans, one medal for the Rhône bank
    sides = Counter(o["side"] for o in obj("12"))
    assert sides == {"AXIS": 2, "ALLIES": 1}
    # 5 Omaha: the bunkers are German, 2 sea-wall hexes protect the Allies only
    assert data("5")["special"]["bunker_owner"] == "AXIS"
    assert len(data("5")["special"]["seawalls"]["ALLIES"]) == 2
    # 7 Vassieux: no reshuffle, the Germans win when the deck runs out
    sp7 = data("7")["special"]
    assert sp7["no_reshuffle"] and sp7["deck_exhausted_winner"] == "AXIS"
    # 10 Toulon: three of its four town hexes win; 16 Saverne: two Saverne hexes win
    assert [s["required"] for s in data("10")["special"]["sudden_death"]] == [3]
    assert [s["required"] for s in data("16")["special"]["sudden_death"]] == [2]
    assert data("16")["special"]["impassable_terrain"] == ["hills"]
    # 14 Arracourt: no special rules
    assert data("14")["special"] == {} and data("14")["objectives"] == []


def _text_files() -> list[Path]:
    return [p for p in sorted((REPO / "scenarios").rglob("*")) if p.is_file()
            and p.suffix in (".json", ".yaml", ".yml", ".md", ".txt", ".m44", ".geojson")]


def _keys(node, out=None):
    out = set() if out is None else out
    if isinstance(node, dict):
        for k, v in node.items():
            out.add(k)
            _keys(v, out)
    elif isinstance(node, list):
        for v in node:
            _keys(v, out)
    return out


def test_no_editor_text_block_under_scenarios():
    assert not list((REPO / "scenarios").rglob("*.m44"))
    for path in sorted(ROOT.glob("*.json")):
        keys = _keys(json.loads(path.read_text(encoding="utf-8")))
        assert not keys & EDITOR_TEXT_KEYS, (path.name, keys & EDITOR_TEXT_KEYS)


def _words(text: str) -> list[str]:
    return re.findall(r"[\w'’-]+", text.lower())


RUN = 7  # words in a row that would be a copied phrase


def _reference_runs() -> set[tuple[str, ...]]:
    runs: set[tuple[str, ...]] = set()
    for path in REFERENCE.glob("*.m44"):
        raw = json.loads(path.read_text(encoding="utf-8"))
        for lang in (raw.get("text") or {}).values():
            for key, value in lang.items():
                if key == "name" or not isinstance(value, str):
                    continue
                words = _words(value)
                runs |= {tuple(words[i:i + RUN]) for i in range(len(words) - RUN + 1)}
    return runs


@needs_reference
def test_no_sentence_of_the_reference_texts_under_scenarios():
    runs = _reference_runs()
    assert len(runs) > 1000  # the check has something to find
    for path in _text_files():
        words = _words(path.read_text(encoding="utf-8", errors="replace"))
        copied = [" ".join(words[i:i + RUN]) for i in range(len(words) - RUN + 1)
                  if tuple(words[i:i + RUN]) in runs]
        assert not copied, (path, copied[:3])


@needs_reference
def test_the_sentence_check_finds_a_copied_sentence(tmp_path):
    raw = json.loads((REFERENCE / "2.m44").read_text(encoding="utf-8"))
    copied = _words(raw["text"]["en"]["description"])[:RUN + 3]
    runs = _reference_runs()
    assert any(tuple(copied[i:i + RUN]) in runs for i in range(4))
