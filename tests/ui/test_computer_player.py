"""The computer opponent in the campaign dashboard's model (no browser): it plays its side's
phases and decisions with the greedy bot, hands back to the player, and undo takes back the
player's last action together with the computer's answer."""

from __future__ import annotations

from wargame.operational.state import Game, Phase
from wargame.saves import replay
from wargame.ui.demo import demo_scenario
from wargame.ui.model import CampaignState

SEED = 1944


def test_computer_plays_the_axis_turn_after_the_player_ends_allied_combat():
    m = CampaignState(Game(demo_scenario()), seed=SEED, computer="axis")
    assert m.s.phase is Phase.ALLIED_MOVEMENT and not m.s.action_log  # the player's phase: nothing done
    m.select_hex("0405")
    m.select_hex("0605")
    assert m.end_phase()  # Allied combat: the unit is engaged and must attack
    while m.s.pending is None and m.s.phase is Phase.ALLIED_COMBAT and "must attack" not in m.message:
        m.declare_attack("0705", ["us-inf-1"], [], 0)
    while m.s.pending is not None and m.s.pending.side == "allied":
        m.auto()
    turn = m.s.turn
    assert m.end_phase()
    # the computer played Axis movement and combat; the player acts again
    assert (m.s.turn, m.s.phase) == (turn + 1, Phase.ALLIED_MOVEMENT) or m.s.is_terminal
    assert "The computer (Axis) played" in m.message
    assert m._computer_runs and m._computer_runs[-1][1] == len(m.s.action_log)
    # every computer action was legal: the log replays to the same game
    assert replay(m.game, SEED, m.s.action_log).fingerprint() == m.s.fingerprint()


def test_computer_answers_its_decisions_during_the_players_attack():
    m = CampaignState(Game(demo_scenario()), seed=SEED, computer="axis")
    m.select_hex("0405")
    m.select_hex("0605")
    assert m.end_phase()
    m.declare_attack("0705", ["us-inf-1"], [], 0)
    # the German defence declaration (CN 5.1.1) and any German retreat were answered
    assert m.s.pending is None or m.s.pending.side == "allied"
    assert m.s.phase is Phase.ALLIED_COMBAT


def test_undo_takes_back_the_players_end_phase_and_the_computer_turn():
    m = CampaignState(Game(demo_scenario()), seed=SEED, computer="axis")
    assert m.end_phase()  # nothing moved: Allied combat
    while m.s.pending is not None:
        m.auto()
    before = m.s.fingerprint()
    n_before = len(m.s.action_log)
    assert m.end_phase()
    assert m.s.phase is Phase.ALLIED_MOVEMENT and len(m.s.action_log) > n_before + 1
    assert m.undo()
    assert len(m.s.action_log) == n_before and m.s.fingerprint() == before
    assert "with the computer's" in m.message
    assert m.s.phase is Phase.ALLIED_COMBAT  # the player's again, the computer waits


def test_computer_playing_the_allies_starts_at_once_and_can_be_switched_off():
    m = CampaignState(Game(demo_scenario()), seed=SEED, computer="allied")
    assert m.s.action_log and m.s.phase.side == "axis"  # it played the Allied phases of the first turn
    n = len(m.s.action_log)
    m.computer = "none"
    assert "both sides are yours" in m.message
    assert m.end_phase() and len(m.s.action_log) == n + 1  # nobody answers for the Allies any more
    m.computer = "axis"  # switched on during an Axis phase: it plays at once
    assert "The computer (Axis) played" in m.message
    assert not m.computer_to_act()  # until the player must act (a phase or a decision of theirs)
    assert m.s.is_terminal or m.s.side_to_act == "allied"


def test_new_game_and_load_hand_over_to_the_computer():
    m = CampaignState(Game(demo_scenario()), seed=SEED)
    save = m.save_json()
    m.computer = "allied"
    assert m.s.phase.side == "axis"
    assert m.load_json(save)  # the save is at Allied movement: the computer plays it
    assert m.s.phase.side == "axis"
    m.new_game(7)
    assert m.s.phase.side == "axis" and m.s.seed == 7
