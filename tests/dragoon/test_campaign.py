"""A seeded full Operação Dragoon campaign, turn 1 to the end of turn 14, played by random
legal actions with the engine's auto answers: invariants hold throughout, every reinforcement
arrives, the withdrawals happen, the game ends with a score for both sides, and replaying the
log gives the same game and score."""

import sys
import time
from pathlib import Path

from wargame.bots.play import play_random_game
from wargame.operational.state import Game
from wargame.saves import replay

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "operational"))
from test_engine_properties import check_invariants  # noqa: E402


def test_full_campaign_random_play_and_replay():
    game = Game("dragoon")
    state = game.new_state(1944)
    turns_seen = set()

    def watch(s, action):
        check_invariants(s)
        turns_seen.add(s.turn)
        # OD 4.2.2: no unit on a frontier hex; OD 10.0: no German moves into a maquis area
        for us in s.units.values():
            if us.status == "on_map":
                assert s.game.board.hexes[us.hex].terrain != "border"

    start = time.perf_counter()
    play_random_game(state, seed=6, on_action=watch)
    elapsed = time.perf_counter() - start
    assert state.is_terminal and state.turn == 14
    assert turns_seen == set(range(1, 15))
    assert elapsed < 60
    statuses = {u: us.status for u, us in state.units.items()}
    assert "waiting" not in statuses.values()  # every reinforcement of OD 11.1.3-11.1.4 came
    kinds = {e.kind for e in state.events}
    assert {"drop", "attack", "roll", "enter", "game_over"} <= kinds
    assert statuses["gb-2para-abtf"] in ("withdrawn", "eliminated", "on_map")
    vp = state.victory_points()
    assert vp["allied"] > 0 and vp["axis"] > 0
    assert state.events[-1].kind == "game_over" and state.events[-1].rule == "OD 11.2"
    again = replay(game, 1944, state.action_log)
    assert again.victory_points() == vp
    assert again.fingerprint() == state.fingerprint()


def test_different_seeds_differ():
    game = Game("dragoon")
    a = play_random_game(game.new_state(1), seed=1)
    b = play_random_game(game.new_state(2), seed=2)
    assert a.fingerprint() != b.fingerprint()
