"""The hard player as the classroom's computer opponent (issue #34): the campaign dashboard's
model offers the levels in plain words with hard first and selected, and plays a Normandy turn
of the Axis with it (no browser)."""

from __future__ import annotations

from wargame.bots.campaign_hard import HardPolicy
from wargame.bots.greedy import GreedyPolicy
from wargame.i18n import using_language
from wargame.operational.state import Phase
from wargame.saves import replay
from wargame.ui.model import CAMPAIGN_PLAYERS, CampaignState
from wargame.ui.text import player_word

SEED = 1944


def test_the_levels_in_plain_words_hard_first_and_the_default():
    assert CAMPAIGN_PLAYERS == ("hard", "greedy", "random")
    assert CampaignState("demo", seed=SEED).computer_player == "hard"
    with using_language("pt"):
        words = [player_word(p) for p in CAMPAIGN_PLAYERS]
    # "hard" is a level of both games (wargame.registry GameFamily.levels): "difícil"
    assert words == ["difícil", "ambicioso (vai às cidades)", "ao acaso (sem plano)"]


def test_the_hard_axis_plays_a_normandy_turn_in_the_dashboard_model():
    m = CampaignState("normandy", seed=SEED, computer="allied")
    for _ in range(100):  # the player answers the Axis decisions of the Allies' D-Day attacks
        if m.s.phase is Phase.AXIS_MOVEMENT and m.s.pending is None:
            break
        assert m.s.pending is not None and m.s.pending.side == "axis"
        m.auto()
    assert m.s.turn == 0 and m.s.phase is Phase.AXIS_MOVEMENT  # the Allies' D-Day was played
    m.computer = "axis"  # the hard Axis plays its D-Day phases at once
    assert isinstance(m._policy, HardPolicy)
    assert "The computer (Axis) played" in m.message
    for _ in range(100):  # the player answers the Allied decisions of the Axis's attacks
        if m.s.pending is None or m.s.pending.side != "allied":  # (CN 5.1.1: defence air)
            break
        m.auto()
    assert (m.s.turn, m.s.phase) == (1, Phase.ALLIED_MOVEMENT)
    axis_moves = [a for a in m.s.action_log if a["kind"] in ("move", "enter")
                  and m.s.side_of(a["unit"]) == "axis"]
    assert axis_moves, "the Axis moved or brought on units"
    # every computer action was legal: the log replays to the same game
    assert replay(m.game, SEED, m.s.action_log).fingerprint() == m.s.fingerprint()


def test_a_weaker_level_picked_is_the_next_computer_player():
    m = CampaignState("demo", seed=SEED, computer="axis")
    m.computer_player = "greedy"
    assert m._policy is None or isinstance(m._policy, GreedyPolicy)
    assert isinstance(m.make_policy(), GreedyPolicy)
