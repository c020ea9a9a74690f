"""A seeded full Normandy campaign, turn 0 to the end of turn 16, played by random legal
actions with the engine's auto answers: invariants hold throughout and replaying the log gives
the same game and score."""

import sys
from pathlib import Path

import pytest

from wargame.bots.play import play_random_game
from wargame.operational.state import Game
from wargame.saves import replay

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "operational"))
from test_engine_properties import check_invariants  # noqa: E402


@pytest.mark.slow  # 6 s (measured on 2 busy cores)
def test_full_campaign_random_play_and_replay():
    game = Game("normandy")
    state = game.new_state(1944)
    turns_seen = set()

    def watch(s, action):
        check_invariants(s)
        turns_seen.add(s.turn)

    play_random_game(state, seed=6, on_action=watch)
    assert state.is_terminal and state.turn == 16
    assert turns_seen == set(range(0, 17))
    vp = state.victory_points()
    assert vp["allied"] + vp["axis"] > 0
    assert state.events[-1].kind == "game_over"
    again = replay(game, 1944, state.action_log)
    assert again.victory_points() == vp
    assert again.fingerprint() == state.fingerprint()


def test_turn_0_landings_and_drops():
    state = Game("normandy").new_state(7)
    drops = [e for e in state.events if e.kind == "drop"]
    assert len(drops) == 8  # 6 US parachute regiments + 2 British parachute brigades (11.1.1)
    for e in drops:  # CN 4.2.3: US intact only on a 6, British on an even number
        british = "Brigade" in e.data["unit"]
        intact = e.data["outcome"] == "intact"
        assert intact == ((e.data["die"] % 2 == 0) if british else (e.data["die"] == 6))
    at_sea = [u for u, us in state.units.items() if us.status == "at_sea"]
    assert at_sea  # beach units facing defended hexes attack from the sea (11.1.1)
    assert all(state.units_at(state.units[u].hex) for u in at_sea)
