"""The hard Axis's rollouts over its movement plans (wargame/bots/campaign_rollouts.py, issue
#34 item 1): they play on the position as the Axis may know it (CN/OD 5.1.1), with dice of
their own, leave the game untouched, and choose the same style on the same position."""

from __future__ import annotations

import dataclasses

import pytest

from wargame.bots.campaign_eval import _estimates, vp_margin
from wargame.bots.campaign_hard import HardPolicy
from wargame.bots.campaign_rollouts import (
    STYLES,
    believed_game,
    phase_key,
    rollout_state,
    rollout_value,
    world_seed,
)
from wargame.bots.greedy import GreedyPolicy
from wargame.bots.play import play
from wargame.operational.state import Game, Phase


@pytest.fixture(scope="module")
def dragoon() -> Game:
    return Game("dragoon")


def axis_movement(game: Game, seed: int = 5, turn: int = 2):
    """The position at the Axis movement phase of ``turn``, greedy players on both sides."""
    state = game.new_state(seed)
    bot = GreedyPolicy()
    while not (state.turn == turn and state.phase is Phase.AXIS_MOVEMENT
               and state.pending is None):
        state.apply(bot.choose(state))
    return state


def test_believed_game_shows_allied_counters_at_their_type_means(dragoon):
    seen = believed_game(dragoon, "axis")
    est = _estimates(dragoon)
    differs = 0
    for uid, d in dragoon.units.items():
        b = seen.units[uid]
        if d.side == "axis":
            assert b is d  # its own counters it knows
            continue
        a, df, mv = est[(d.side, d.type, False)]
        assert (b.attack, b.defence, b.movement) == (round(a), round(df), round(mv))
        differs += (b.attack, b.defence) != (d.attack, d.defence)
    assert differs > 0  # the real values are not all the means: there was something to hide
    assert seen.board is dragoon.board and seen.units is not dragoon.units
    assert believed_game(dragoon, "axis") is seen  # made once


def test_a_rollout_state_has_its_own_dice_and_leaves_the_game_alone(dragoon):
    state = axis_movement(dragoon)
    before = (state.fingerprint(), len(state.action_log), state.dice.draws)
    twin = rollout_state(state, "axis", world_seed(3, state.turn, 0))
    assert twin.game is believed_game(dragoon, "axis")
    assert twin.dice.seed != state.dice.seed and twin.dice.draws == 0
    bot = HardPolicy(1)
    for _ in range(40):
        twin.apply(bot.choose(twin))
    assert (state.fingerprint(), len(state.action_log), state.dice.draws) == before
    assert world_seed(3, 2, 0) == world_seed(3, 2, 0) != world_seed(3, 2, 1)


def test_rollout_value_is_the_margin_plus_material(dragoon):
    state = axis_movement(dragoon)
    value = rollout_value(state, "axis")
    assert value != vp_margin(state, "axis")
    # the Allies' view of the same position is the mirror image
    assert rollout_value(state, "allied") == pytest.approx(-value)
    # a German unit reduced costs the Axis its step's material and half its destruction
    uid = next(u for u, us in state.units.items()
               if us.status == "on_map" and state.side_of(u) == "axis" and not us.reduced)
    state.units[uid].reduced = True
    assert rollout_value(state, "axis") < value


def test_the_search_chooses_a_style_per_phase_and_the_same_on_the_same_position(dragoon):
    state = axis_movement(dragoon)
    before = (state.fingerprint(), state.dice.draws)
    bot = HardPolicy(11, worlds=1)
    style, means = bot.phase_style(state)
    assert style in STYLES and set(means) == set(STYLES)
    assert means[style] == max(means.values())
    assert (state.fingerprint(), state.dice.draws) == before  # the rollouts ran on copies
    again = HardPolicy(11, worlds=1).phase_style(state.clone())
    assert again == (style, means)
    # the action it plays is the chosen style's, and an Undo (the same position) repeats it
    action = bot.choose(state)
    assert action == HardPolicy(11, style=style).choose(state)
    assert bot.choose(state) == action
    state.apply(action)
    assert phase_key(state) == phase_key(axis_movement(dragoon))  # still the same phase


def test_each_rollout_is_played_as_if_it_were_alone(dragoon):
    """A style's mean is the mean of its worlds each played by players of its own: nothing
    one world's players remember leaks into another's (their plans are keyed by the log)."""
    from wargame.bots.campaign_rollouts import play_out

    state = axis_movement(dragoon)
    _, means = HardPolicy(8, worlds=2, model="greedy").phase_style(state)
    for style in STYLES:
        alone = []
        for w in range(2):
            twin = rollout_state(state, "axis", world_seed(8, state.turn, w))
            play_out(twin, "axis", HardPolicy(8, style=style), HardPolicy(8), GreedyPolicy())
            alone.append(rollout_value(twin, "axis"))
        assert means[style] == pytest.approx(sum(alone) / 2)


def test_the_search_never_reads_the_allied_counters(dragoon):
    """Swap the printed values of two Allied counters of one type (the counter mix, all the
    Axis may know, CN/OD 5.1.1, stays the same): the rollouts' values do not move."""
    state = axis_movement(dragoon)
    by_type: dict[str, list[str]] = {}
    for uid, d in dragoon.units.items():
        if d.side == "allied":
            by_type.setdefault(d.type, []).append(uid)
    pair = next((us[0], us[-1]) for us in by_type.values()
                if len(us) > 1 and (dragoon.units[us[0]].attack, dragoon.units[us[0]].defence)
                != (dragoon.units[us[-1]].attack, dragoon.units[us[-1]].defence))
    swapped = Game("dragoon")
    units = dict(swapped.units)
    a, b = units[pair[0]], units[pair[1]]
    values = ("attack", "defence", "movement", "reduced_attack", "reduced_defence")
    units[pair[0]] = dataclasses.replace(a, **{k: getattr(b, k) for k in values})
    units[pair[1]] = dataclasses.replace(b, **{k: getattr(a, k) for k in values})
    swapped.units = units
    twin = state.clone()  # the same position, other printed values under two counters
    twin.game = swapped
    assert twin.attack_of(pair[0]) != state.attack_of(pair[0]) or twin.defence_of(pair[0]) != state.defence_of(pair[0])
    assert HardPolicy(4, worlds=1).phase_style(twin) == HardPolicy(4, worlds=1).phase_style(state)


def test_a_margin_keeps_the_players_own_style_unless_another_gains_that_much(dragoon):
    state = axis_movement(dragoon)
    style, means = HardPolicy(11, worlds=1).phase_style(state)
    gain = means[style] - means["plan"]
    assert HardPolicy(11, worlds=1, margin=gain + 1).phase_style(state)[0] == "plan"
    if gain > 0:
        assert HardPolicy(11, worlds=1, margin=gain / 2).phase_style(state)[0] == style


def test_styles_and_models_are_checked():
    with pytest.raises(ValueError, match="style must be one of"):
        HardPolicy(0, style="reckless")
    with pytest.raises(ValueError, match="model must be"):
        HardPolicy(0, model="random")


@pytest.mark.slow
def test_a_searching_axis_plays_a_whole_dragoon_campaign(dragoon):
    state = dragoon.new_state(3)
    axis = HardPolicy(3, worlds=1)
    play(state, {"allied": GreedyPolicy(), "axis": axis})
    assert state.is_terminal
    assert len(axis._chosen) >= 10  # one choice per Axis movement phase
    assert {s for s, _ in axis._chosen.values()} <= set(STYLES)


def test_the_hard_player_takes_its_search_settings_by_name(dragoon):
    from wargame.bots.play import make_policy

    bot = make_policy(dragoon, "hard:worlds=3,model=greedy,styles=plan+hold,margin=7.5", 9)
    assert (bot.worlds, bot.model, bot.styles, bot.seed, bot.margin) == (
        3, "greedy", ("plan", "hold"), 9, 7.5)
    assert make_policy(dragoon, "hard", 9).worlds == 0  # no search unless asked
    for bad, words in (("hard:worlds=99", "worlds: expected"), ("hard:depth=2", "expected worlds"),
                       ("hard:styles=plan+wild", "styles must be"),
                       ("greedy:worlds=2", "takes no settings"),
                       ("hard:margin=lots", "margin: expected"), ("hard:margin=-3", "0-1000"),
                       ("hardest:worlds=2", "no computer player")):
        with pytest.raises(ValueError, match=words):
            make_policy(dragoon, bad, 1)
    from wargame.memoir import MemoirGame

    with pytest.raises(ValueError, match="take no settings"):
        make_policy(MemoirGame.from_scenario("1"), "hard:worlds=2", 1)
