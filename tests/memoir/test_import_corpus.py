"""Community Scenario Editor layouts import and play to a result (issue 32).

The layouts are not in the repository (their licence: tests/data/m44/README.md); they are
rebuilt from a local clone of bga-devs/bga-memoir by tools/collect_m44_corpus.py into a folder
that ``WARGAME_M44_CORPUS`` names (its ``corpus/`` part). tests/data/m44/CORPUS.txt lists the
layouts of the corpus; each must import, and an easy-against-easy game of it must end with a
winner within the action bound, with no exception.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wargame.bots.play import make_policy, play
from wargame.games import open_game
from wargame.memoir.imports import import_m44
from wargame.memoir.m44_tiles import DECORATIVE_BADGES, MEDAL_TAG, NATIONS
from wargame.scenario_errors import ScenarioError, load_json

BASE = {"woods", "hills", "buildings", "river", "curve", "church", "hedgerow", "plain", "beach",
        "ocean", "bunker", "bridge", "wire", "sand", "hedgehog"}


def unreported(raw: dict, report: dict) -> list[str]:
    """What a layout holds beyond the base game that its import report does not name: tiles,
    nations, troop badges, tags, marks (behavior, equipment) and editor options."""
    text = " ".join(x for part in report.values() for x in part)
    missing = []
    for key in ("options",):
        for name in (raw.get("game_info") or {}).get(key) or {}:
            if name not in text:
                missing.append(f"option {name}")
    for item in raw["board"]["hexagons"]:
        for slot in ("terrain", "rect_terrain", "obstacle", "unit"):
            value = item.get(slot) or {}
            name = str(value.get("name", ""))
            if slot != "unit" and name.lower() not in BASE and name not in text:
                missing.append(name)
            for mark in ("behavior", "behavior2", "equipment"):
                if value.get(mark) and str(value[mark])[:20] not in text:
                    missing.append(f"{name} {mark} {value[mark]}")
        unit = item.get("unit") or {}
        code = str(unit.get("name", "")).lower().lstrip("intakgu").lstrip("2")
        nation = NATIONS.get(code, (None, None))[1]
        if nation not in (None, "German", "American") and nation not in text:
            missing.append(f"nation {nation}")
        badge = str(unit.get("badge") or "").removeprefix("badge")
        if badge and badge not in DECORATIVE_BADGES and f"badge {badge}" not in text \
                and badge != "3":
            missing.append(f"badge {badge}")
        for tag in item.get("tags") or []:
            name = str(tag.get("name"))
            if not MEDAL_TAG.match(name.lower()) and name not in text:
                missing.append(f"tag {name}")
    return missing

DATA = Path(__file__).resolve().parents[1] / "data" / "m44"
ENV = "WARGAME_M44_CORPUS"
MAX_ACTIONS = 20_000  # an easy game of the bundled scenarios takes a few hundred


def corpus_names() -> list[str]:
    return [line.split()[0] for line in (DATA / "CORPUS.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def test_the_corpus_is_at_least_40_layouts_each_with_its_source():
    names = corpus_names()
    sources = {line.split("\t")[0] for line in (DATA / "SOURCES.tsv").read_text().splitlines()[1:]}
    assert len(names) >= 40 and len(set(names)) == len(names)
    assert all(f"corpus/{n}.m44" in sources for n in names)


def test_each_source_of_the_corpus_has_its_terms_noted():
    """docs/memoir44-sources.md notes, for every repository SOURCES.tsv names, the terms found
    and whether they allow redistribution (issue 32); the files' licence column says the same."""
    rows = [line.split("\t") for line in (DATA / "SOURCES.tsv").read_text().splitlines()[1:]]
    assert len(rows) >= 40 and all(len(r) == 6 and r[5].strip() for r in rows)
    doc = (DATA.parents[2] / "docs" / "memoir44-sources.md").read_text(encoding="utf-8")
    section = doc.split("## The community corpus of the import tests", 1)[1]
    for repo in {r[1] for r in rows}:
        row = next((line for line in section.splitlines() if f"github.com/{repo}" in line), "")
        assert "Terms found" in section and ("**Not permitted**" in row or "**Permitted**" in row)
        count = sum(1 for r in rows if r[1] == repo)
        assert f"| {count} " in row  # the files it gives


@pytest.mark.slow
def test_every_corpus_layout_imports_and_plays_to_a_result(tmp_path, monkeypatch):
    folder = os.environ.get(ENV)
    if not folder:
        pytest.skip(f"{ENV} is not set (tools/collect_m44_corpus.py writes the layouts)")
    monkeypatch.setenv("WARGAME_HOME", str(tmp_path / "home"))
    failures = []
    for name in corpus_names():
        path = Path(folder) / "corpus" / f"{name}.m44"
        result = import_m44(path, f"c{name}")
        # a layout recognised as a bundled scenario plays the rulebook's set-up and rules
        assert result.recognised or not unreported(load_json(path), result.report), name
        game = open_game(f"memoir44-c{name}")
        state = game.new_state(1)
        allies, axis = game.sides
        play(state, {allies: make_policy(game, "easy", 3), axis: make_policy(game, "easy", 4)},
             max_actions=MAX_ACTIONS)
        if not state.is_terminal or state.outcome().winner not in game.sides:
            failures.append((name, result.title))
    assert not failures


@pytest.mark.slow
def test_at_least_half_the_acceptance_sample_plays_and_none_unreported(tmp_path, monkeypatch):
    """The sample kept aside (tests/data/m44/README.md): at least half import and play to a
    result; what imports reports everything beyond the base game."""
    folder = os.environ.get(ENV)
    if not folder:
        pytest.skip(f"{ENV} is not set (tools/collect_m44_corpus.py writes the layouts)")
    monkeypatch.setenv("WARGAME_HOME", str(tmp_path / "home"))
    files = sorted((Path(folder) / "acceptance").glob("*.m44"))
    played = 0
    for path in files:
        try:
            result = import_m44(path, f"a{path.stem}")
        except ScenarioError:
            continue  # refused, naming what it cannot play
        assert result.recognised or not unreported(load_json(path), result.report), path.name
        game = open_game(f"memoir44-a{path.stem}")
        state = game.new_state(1)
        allies, axis = game.sides
        play(state, {allies: make_policy(game, "easy", 3), axis: make_policy(game, "easy", 4)},
             max_actions=MAX_ACTIONS)
        played += state.is_terminal and state.outcome().winner in game.sides
    assert len(files) >= 30 and 2 * played >= len(files)


def test_the_collector_names_a_folder_that_is_not_the_source_clone(tmp_path, capsys):
    """``tools/collect_m44_corpus.py`` given a folder without the pinned commit says so in one
    line (it was a git traceback) and writes nothing."""
    from tests.support.tools import load_tool

    tool = load_tool("collect_m44_corpus")
    assert tool.main([str(tmp_path), str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path) in err and "not a git directory holding commit" in err
    assert not (tmp_path / "out").exists()
