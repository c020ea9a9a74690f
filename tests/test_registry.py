"""The game registry (issue #27): a game family is one module and one ``register`` line. A tiny
test-only game (``tests/toy_game.py``) opens, gets its computer player and plays in a room
through the registry; the bundled families dispatch through it too."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests import toy_game
from wargame.bots.play import make_policy, play
from wargame.games import open_game
from wargame.protocol import GameDefinition, GameState
from wargame.registry import family_of, family_of_game, register, unregister
from wargame.rooms import RoomManager

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def toy():
    family = register(toy_game.FAMILY)  # the one registry line
    yield family
    unregister(family)


def test_bundled_ids_find_their_family():
    assert family_of("normandy").kind == family_of("dragoon").kind == "campaign"
    assert family_of("memoir44-3").kind == "memoir"
    assert family_of_game(open_game("memoir44-3")).default_seed == 44
    assert family_of("normandy").takes_variants and not family_of("memoir44-1").takes_variants


def test_a_registered_game_opens_and_plays_with_its_computer_player(toy):
    game = open_game("toynim-9")
    assert family_of_game(game) is toy
    state = game.new_state(3)
    assert isinstance(game, GameDefinition) and isinstance(state, GameState)  # the protocol
    a, b = game.sides
    play(state, {a: make_policy(game, "perfect", 1), b: make_policy(game, "perfect", 2)})
    assert state.is_terminal and state.outcome().winner in game.sides
    with pytest.raises(ValueError, match="perfect"):
        make_policy(game, "greedy", 1)


def test_a_registered_game_plays_in_a_room_against_the_computer(toy, tmp_path):
    with RoomManager(tmp_path / "rooms.sqlite") as manager:
        room = manager.create("toynim-12", seed=4, computer={"axis": "perfect"})
        red = room.seats["allied"]
        assert red.side == "red"
        while not room.state().is_terminal:
            room.wait_idle(10)
            state = room.state()
            if state.is_terminal:
                break
            room.act(red.token, state.legal_actions()[0].to_dict())
            room.wait_idle(10)
        assert room.state().outcome().winner in ("red", "blue")
        version = room.version
    with RoomManager(tmp_path / "rooms.sqlite") as again:  # resumed from the file
        assert again.get(room.id).version == version


def test_a_registered_game_goes_through_a_save(toy, tmp_path):
    from wargame.saves import load_game, save_game

    game = open_game("toynim-10")
    state = game.new_state(8)
    a, b = game.sides
    play(state, {a: make_policy(game, "perfect", 1), b: make_policy(game, "perfect", 2)})
    path = tmp_path / "toy.json"
    save_game(state, path)
    again = load_game(path)
    assert again.fingerprint() == state.fingerprint() and again.game.kind == "toynim"


def test_a_registered_game_plays_in_wargame_autoplay(toy, tmp_path, capsys):
    from wargame.cli import main
    from wargame.saves import load_game

    save = tmp_path / "last.json"
    assert main(["autoplay", "--scenario", "toynim-9", "--games", "3", "--quiet",
                 "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "3 games, perfect Allies vs perfect Axis" in out
    assert load_game(save).game.kind == "toynim"  # the last game, saved and loaded again


def test_studies_and_validate_ask_the_family(toy, tmp_path):
    """What-if files, greedy postures, the study's nation and city columns and ``wargame
    scenario validate`` are family fields, not kind tests: the toy family has none of them."""
    from wargame.analysis.study import _cities, _nations, _policies, run_study
    from wargame.registry import family_of_target

    assert family_of("normandy").whatif and not family_of("memoir44-1").whatif
    with pytest.raises(ValueError, match="campaign"):
        run_study("toynim-9", 2, whatif=tmp_path / "w.yaml", progress=False)
    game = open_game("toynim-9")
    assert _cities(game) == {} and _nations(game) == []
    normandy = open_game("normandy")
    assert _cities(normandy) and _nations(normandy)
    spec = {"allied": "greedy", "axis": "greedy", "postures": {"allied": [2.0, 0.5]}}
    players = _policies(normandy, spec, 1)
    assert type(players["allied"]).__name__ == "GreedyPolicy"
    assert players["allied"].postures["allied"].engage_ratio == 2.0
    assert family_of_target("memoir44-sword-beach").kind == "memoir"
    assert family_of_target(tmp_path / "x.m44").kind == "memoir"
    assert family_of_target("normandy").kind == "campaign"
    assert family_of_target("toynim-9") is toy and not toy.validator


KIND_TEST = re.compile(r"is_memoir_id|is_memoir\w*\(|\.kind\s*[!=]=\s*\"(campaign|memoir)\"|"
                       r"hasattr\(\w+, \"hand_sides\"\)|MEMOIR_PREFIX\)?\]|"
                       r"isinstance\(\w+, \(?(MemoirState|MemoirGame|State|Game)\b|"
                       r"[!=]=\s*\"(normandy|dragoon|memoir44?)\"")


def test_kind_tests_outside_the_engines_and_the_registry_are_counted():
    """Issue #27 aims at 6 or fewer; this records where we stand so that none is added."""
    files = subprocess.run(["git", "ls-files", "wargame"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    hits = []
    for name in files:
        if not name.endswith(".py") or name.startswith(("wargame/operational/", "wargame/memoir/")):
            continue
        if name in ("wargame/registry.py", "wargame/games.py", "wargame/paths.py"):
            continue
        for n, line in enumerate((ROOT / name).read_text().splitlines(), 1):
            if KIND_TEST.search(line):
                hits.append(f"{name}:{n}: {line.strip()}")
    assert len(hits) <= KIND_TESTS_NOW, "\n".join(hits)


KIND_TESTS_NOW = 1  # measured 2026-11-27: ui/model.make_game's isinstance (a campaign-only helper
# telling a Game from a Scenario or an id); 7 after the registry's first step, 27 in the issue
