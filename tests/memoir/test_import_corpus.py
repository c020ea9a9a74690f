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


@pytest.mark.slow
def test_every_corpus_layout_imports_and_plays_to_a_result(tmp_path, monkeypatch):
    folder = os.environ.get(ENV)
    if not folder:
        pytest.skip(f"{ENV} is not set (tools/collect_m44_corpus.py writes the layouts)")
    monkeypatch.setenv("WARGAME_HOME", str(tmp_path / "home"))
    failures = []
    for name in corpus_names():
        result = import_m44(Path(folder) / "corpus" / f"{name}.m44", f"c{name}")
        game = open_game(f"memoir44-c{name}")
        state = game.new_state(1)
        allies, axis = game.sides
        play(state, {allies: make_policy(game, "easy", 3), axis: make_policy(game, "easy", 4)},
             max_actions=MAX_ACTIONS)
        if not state.is_terminal or state.outcome().winner not in game.sides:
            failures.append((name, result.title))
    assert not failures
