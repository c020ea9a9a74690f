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
    assert (data["format"], data["format_version"], data["game"]) == ("wargame-save", 4, game.kind)
    assert data["dice"] == 2  # a new game's dice (wargame/dice.py)
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
    assert state.dice.version == 1  # played before dice had versions
    assert (to_save(state)["format_version"], to_save(state)["dice"]) == (4, 1)


@pytest.mark.parametrize("change, field", [
    (lambda d: d.pop("fingerprint"), "fingerprint"),
    (lambda d: d.update(seed=True), "seed"),
    (lambda d: d.update(seed="7"), "seed"),
    (lambda d: d.update(format="chess-pgn"), "format"),
    (lambda d: d.update(format_version=5), "format_version"),
    (lambda d: d.update(format_version=1), "format_version"),
    (lambda d: d.update(format_version=2), "dice"),  # format 2 had no dice field
    (lambda d: d.update(dice=3), "dice"),
    (lambda d: d.update(dice="2"), "dice"),
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


# Saves recorded with main 40c7275 (random.Random.randint dice, Python 3.11.7) before dice
# had versions (tests/data: format 2, no "dice" field). They must replay for ever.
RECORDED_BEFORE_DICE_VERSIONS = ["normandy_dice1.json", "memoir_dice1.json",
                                 "dragoon_format1.json"]


@pytest.mark.parametrize("name", RECORDED_BEFORE_DICE_VERSIONS)
def test_saves_recorded_before_dice_versions_replay_to_their_fingerprint(name):
    path = DATA / name
    old = json.loads(path.read_text())
    assert "dice" not in old and old["format_version"] in (1, 2)
    state = load_game(path)  # replays and checks the fingerprint
    assert state.dice.version == 1 and state.dice.draws > 10
    assert json.loads(json.dumps(state.fingerprint())) == today_s_sides(old["fingerprint"])
    assert state.action_log == old["actions"]
    # saved again it names its dice and still loads to the same position
    again = from_save(json.loads(json.dumps(to_save(state))))
    assert again.dice.version == 1 and again.fingerprint() == state.fingerprint()


def today_s_sides(recorded):
    """A recorded fingerprint with Memoir '44's side words of before issue #27 (AXIS,
    ALLIES) spelt as every game's ids today: the text replaced (not the code under test)."""
    text = json.dumps(recorded).replace('"ALLIES"', '"allied"').replace('"AXIS"', '"axis"')
    return json.loads(text)


# Saves of format 3 (dice versions, before one spelling of the sides, issue #27), written by
# this branch's parent (main 3fff149 with the action_log rename): random games, dice 2.
RECORDED_FORMAT_3 = ["memoir_format3.json", "dragoon_format3.json"]


@pytest.mark.parametrize("name", RECORDED_FORMAT_3)
def test_saves_of_format_3_replay_to_their_fingerprint_in_today_s_words(name):
    path = DATA / name
    old = json.loads(path.read_text())
    assert old["format_version"] == 3 and old["dice"] == 2
    state = load_game(path)  # migrated (saves._migrate), replayed, fingerprint compared
    fingerprint = json.loads(json.dumps(state.fingerprint()))
    assert fingerprint == today_s_sides(old["fingerprint"])
    assert "ALLIES" not in json.dumps(fingerprint) and "AXIS" not in json.dumps(fingerprint)
    if state.game.kind == "memoir":
        assert old["fingerprint"]["active"] in ("ALLIES", "AXIS")  # the old words were there
        assert state.side_to_act in ("allied", "axis") and set(fingerprint["medals"]) == {
            "allied", "axis"}
    assert state.action_log == old["actions"]
    again = from_save(json.loads(json.dumps(to_save(state))))  # saved again: format 4
    assert to_save(again)["format_version"] == 4 and again.fingerprint() == state.fingerprint()


def test_a_format_3_save_edited_after_the_rename_is_still_checked():
    """The migration renames the side words only: any other change still fails the check."""
    data = json.loads((DATA / "memoir_format3.json").read_text())
    data["fingerprint"]["turn"] += 1
    with pytest.raises(ScenarioError, match="fingerprint"):
        from_save(data, source="upload.json")
    data = json.loads((DATA / "memoir_format3.json").read_text())
    data["format_version"] = 4  # a format-4 save keeps the old words: not renamed, refused
    with pytest.raises(ScenarioError, match="fingerprint"):
        from_save(data, source="upload.json")


@pytest.mark.parametrize("name", ["normandy_dice1.json", "memoir_dice1.json"])
def test_recorded_saves_need_their_own_dice(name):
    """The version matters: the same actions from the same seed with the new dice either are
    refused or reach another position (so the loader must use version 1 for them)."""
    from wargame.saves import replay

    old = json.loads((DATA / name).read_text())
    game = open_game(old["scenario"])
    try:
        other = replay(game, old["seed"], old["actions"], dice_version=2)
    except ScenarioError:
        return
    assert json.loads(json.dumps(other.fingerprint())) != today_s_sides(old["fingerprint"])


def test_memoir_state_json_recorded_before_dice_versions_reads_with_version_1():
    """tests/data/memoir_state_dice1.json: MemoirState.to_json of the memoir_dice1 game, whose
    "dice" mapping has no version (written by main 40c7275)."""
    from wargame.memoir import MemoirState

    data = json.loads((DATA / "memoir_state_dice1.json").read_text())
    assert "dice" not in data["dice"]
    state = MemoirState.from_json(data)
    assert state.dice.version == 1
    assert state.fingerprint() == load_game(DATA / "memoir_dice1.json").fingerprint()
    assert state.to_json()["dice"]["dice"] == 1
    # the next dice are those the replayed game rolls next
    replayed = load_game(DATA / "memoir_dice1.json")
    assert state.dice.roll(8) == replayed.dice.roll(8)


def test_a_save_whose_dice_version_was_edited_is_refused(played):
    game, state = played
    data = json.loads(json.dumps(to_save(state)))
    data["dice"] = 1
    with pytest.raises(ScenarioError) as info:
        from_save(data, source="upload.json")
    # other dice: an action the new dice make illegal, or else another final position
    assert "upload.json" in str(info.value)
    assert "'fingerprint'" in str(info.value) or "'actions[" in str(info.value)


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
