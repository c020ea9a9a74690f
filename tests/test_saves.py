"""One save format for every game (wargame/saves.py): round trips, the old campaign format,
and every broken file refused with the file and field named, the game untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wargame.bots.play import play_random_game
from wargame.games import open_game
from wargame.saves import (
    from_save,
    load_game,
    parse_save_text,
    save_game,
    to_save,
    undo,
)
from wargame.scenario_errors import ScenarioError

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module", params=["dragoon", "memoir44-3"])
def played(request):
    game = open_game(request.param)
    state = play_random_game(game.new_state(9), seed=2, max_actions=60)
    return game, state


def test_round_trip_through_a_file(played, tmp_path):
    game, state = played
    path = save_game(state, tmp_path / "g.json")
    data = json.loads(path.read_text())
    assert (data["format"], data["format_version"], data["game"]) == ("wargame-save", 2, game.kind)
    assert data["scenario"] == game.scenario_id and data["seed"] == 9
    loaded = load_game(path)
    assert loaded.fingerprint() == state.fingerprint()
    assert loaded.action_log == state.action_log
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temporary file left


def test_undo_is_replay(played):
    game, state = played
    back = undo(state, 5)
    assert back.action_log == state.action_log[:-5]
    again = back.clone()
    for data in state.action_log[-5:]:
        again.apply(game.action_from_dict(data))
    assert again.fingerprint() == state.fingerprint()
    with pytest.raises(ValueError):
        undo(state, len(state.action_log) + 1)


def test_a_format_1_campaign_save_still_loads():
    """tests/data/dragoon_format1.json was written by the campaign-only save of 2026-11."""
    path = DATA / "dragoon_format1.json"
    old = json.loads(path.read_text())
    assert old["format"] == "wargame-campaign-save" and old["format_version"] == 1
    state = load_game(path)
    assert state.game.kind == "campaign" and state.action_log == old["actions"]
    assert json.loads(json.dumps(state.fingerprint())) == old["fingerprint"]
    assert to_save(state)["format_version"] == 2


@pytest.mark.parametrize("change, field", [
    (lambda d: d.pop("fingerprint"), "fingerprint"),
    (lambda d: d.update(seed=True), "seed"),
    (lambda d: d.update(seed="7"), "seed"),
    (lambda d: d.update(format="chess-pgn"), "format"),
    (lambda d: d.update(format_version=3), "format_version"),
    (lambda d: d.update(game="poker"), "game"),
    (lambda d: d.update(scenario=["normandy"]), "scenario"),
    (lambda d: d.update(scenario="atlantis"), "scenario"),
    (lambda d: d.update(actions={"kind": "move"}), "actions"),
    (lambda d: d["actions"].append(5), "actions[60]"),
    (lambda d: d["actions"].insert(0, {"kind": "move", "unit": {}, "to": 5}), "actions[0]"),
    (lambda d: d["actions"].insert(0, {"kind": "battle", "unit": 10**6}), "actions[0]"),
    (lambda d: d["fingerprint"].update(turn=99), "fingerprint"),
    (lambda d: d.update(options={"variants": "bfn-19.1"}), "options.variants"),
])
def test_broken_saves_name_the_field(played, change, field):
    game, state = played
    data = json.loads(json.dumps(to_save(state)))
    change(data)
    with pytest.raises(ScenarioError) as info:
        from_save(data, source="upload.json")
    assert "upload.json" in str(info.value) and field in str(info.value)
    assert len(str(info.value)) < 600, "an error never echoes the whole file"


def test_a_save_of_another_game_is_refused(played):
    game, state = played
    other = open_game("normandy" if game.kind == "memoir" else "memoir44-1")
    with pytest.raises(ScenarioError, match="scenario"):
        from_save(to_save(state), game=other)


@pytest.mark.parametrize("text, expected", [
    (b"\xff\xfe not utf-8", "UTF-8"),
    ("[" * 100_000 + "]" * 100_000, "nested"),
    ('{"format": "wargame-save"', "truncated"),
])
def test_unreadable_text_is_a_named_error(text, expected):
    with pytest.raises(ScenarioError) as info:
        parse_save_text(text, "bad.json")
    assert expected in str(info.value) and "bad.json" in str(info.value)


def test_saving_into_a_folder_is_refused_and_nothing_is_written(played, tmp_path):
    _, state = played
    with pytest.raises(IsADirectoryError):
        save_game(state, tmp_path)
    assert list(tmp_path.iterdir()) == []
