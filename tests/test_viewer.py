"""Viewers and their views (issue #27): ``state.view(viewer)`` holds what the viewer may know and
nothing else; ``resample`` gives a world the viewer cannot tell from the real one."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wargame.bots.play import make_policy
from wargame.games import open_game
from wargame.viewer import PLAYER, ROLES, SOLO, SPECTATOR, TEACHER, Viewer

MEMOIR_IDS = ("memoir44-1", "memoir44-5", "memoir44-10")
CAMPAIGN_IDS = ("normandy", "dragoon")


def played(game_id: str, seed: int, steps: int):
    game = open_game(game_id)
    state = game.new_state(seed)
    policy = make_policy(game, "random", seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(policy.choose(state))
    return game, state


def viewers(game) -> list[Viewer]:
    a, b = game.sides
    return [Viewer.player(a, "pt"), Viewer.player(b, "en"), Viewer.teacher("pt"),
            Viewer.teacher(reveal=True), Viewer(role=SPECTATOR), Viewer.solo()]


def test_roles_are_checked():
    assert set(ROLES) == {PLAYER, TEACHER, SPECTATOR, SOLO}
    with pytest.raises(ValueError, match="role"):
        Viewer(role="captain")
    with pytest.raises(ValueError, match="side"):
        Viewer(role=PLAYER)
    with pytest.raises(ValueError, match="no side"):
        Viewer("allied", TEACHER)


def test_what_each_role_may_do():
    allied, teacher, solo = Viewer.player("allied"), Viewer.teacher(), Viewer.solo()
    assert allied.may_act_for("allied") and not allied.may_act_for("axis")
    assert not teacher.may_act_for("allied") and not teacher.acts
    assert solo.may_act_for("axis") and solo.acts
    assert [v.sees_seed for v in (allied, teacher, solo)] == [False, False, True]
    assert [v.may_save for v in (allied, teacher, solo)] == [False, False, True]
    assert not teacher.sees_hand_of("axis") and teacher.revealing().sees_hand_of("axis")
    assert teacher.sees_values_of("axis") and not Viewer(role=SPECTATOR).sees_values_of("axis")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(MEMOIR_IDS), seed=st.integers(0, 10_000),
       steps=st.integers(0, 60))
def test_memoir_views_hold_no_deck_no_dice_and_only_seen_hands(game_id, seed, steps):
    game, state = played(game_id, seed, steps)
    for viewer in viewers(game):
        view = state.view(viewer)
        json.dumps(view)  # plain JSON
        assert view["deck"] == len(state.deck)  # never the order
        assert ("seed" in view) == ("dice" in view) == viewer.sees_seed
        for side, cards in state.hands.items():
            if viewer.sees_hand_of(side):
                assert view["hands"][side] == cards
            else:
                assert view["hands"][side] == len(cards)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(MEMOIR_IDS), seed=st.integers(0, 10_000),
       steps=st.integers(0, 60), world=st.integers(0, 2**31))
def test_a_resampled_memoir_world_looks_the_same_to_its_viewer(game_id, seed, steps, world):
    game, state = played(game_id, seed, steps)
    for viewer in viewers(game)[:4]:
        other = state.resample(viewer, random.Random(world))
        assert other.view(viewer) == state.view(viewer)
        unseen = [s for s in state.hands if not viewer.sees_hand_of(s)]
        assert sorted([c for s in unseen for c in other.hands[s]] + other.deck) == \
            sorted([c for s in unseen for c in state.hands[s]] + state.deck)
        assert other.dice.seed != state.dice.seed or other.dice.draws == 0


def test_resampling_does_not_depend_on_where_the_unseen_cards_were():
    _, state = played("memoir44-1", 3, 10)
    viewer = Viewer.player(state.game.sides[0])
    enemy = next(s for s in state.hands if not viewer.sees_hand_of(s))
    swapped = state.clone()
    pool = swapped.hands[enemy] + swapped.deck
    pool.reverse()
    n = len(swapped.hands[enemy])
    swapped.hands[enemy], swapped.deck = pool[:n], pool[n:]
    a = state.resample(viewer, random.Random(9))
    b = swapped.resample(viewer, random.Random(9))
    assert (a.hands, a.deck) == (b.hands, b.deck)


@pytest.mark.parametrize("game_id", CAMPAIGN_IDS)
def test_campaign_views_hold_no_seed_and_only_seen_values(game_id):
    game, state = played(game_id, 11, 40)
    in_game = {u for u, us in state.units.items() if us.status != "eliminated"}
    for viewer in viewers(game):
        view = state.view(viewer)
        json.dumps(view)
        assert ("seed" in view) == ("dice_draws" in view) == viewer.sees_seed
        seen = {u for u in in_game if viewer.sees_values_of(state.side_of(u))}
        assert set(view["values"]) == seen
        for uid in seen:
            assert view["values"][uid][:2] == [state.attack_of(uid), state.defence_of(uid)]
    a, b = game.sides
    assert set(state.view(Viewer.player(a))["values"]).isdisjoint(
        state.view(Viewer.player(b))["values"])


def test_a_campaign_decision_answers_reach_only_who_may_give_them():
    # a defence declaration (CN 5.1.1) belongs to the defender: the attacker's view has none
    game = open_game("normandy")
    state = game.new_state(1944)
    policy = make_policy(game, "greedy", 1)
    for _ in range(3000):
        if state.pending is not None and state.pending.options:
            break
        state.apply(policy.choose(state))
    owner = state.pending.side
    other = next(s for s in game.sides if s != owner)
    assert state.view(Viewer.player(owner))["pending_options"]
    assert state.view(Viewer.player(other))["pending_options"] == []
    assert state.view(Viewer(role=SPECTATOR))["pending_options"] == []
