"""The Memoir '44 "hard" player (issue #33): legal play to the end, a search that never reads the
opponent's hand or the deck, a budget it keeps, progressive widening, explanations in English
and Portuguese, its learned evaluation (pure Python, from shipped weights) and the plain-words
difficulty levels."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wargame.bots.memoir_easy import MemoirEasyPolicy
from wargame.bots.memoir_eval import FEATURES, MemoirEval, features, load_eval
from wargame.bots.memoir_hard import HARD_TEXT, MemoirHardPolicy
from wargame.bots.memoir_random import random_action
from wargame.bots.memoir_search import MemoirSearchPolicy
from wargame.bots.play import POLICY_NAMES, make_policy, play
from wargame.i18n import using_language
from wargame.memoir import MemoirGame
from wargame.memoir.board import ALLIES, AXIS, other_side
from wargame.registry import level_of
from wargame.saves import replay


def _hard(seed: int = 0, **options) -> MemoirHardPolicy:
    return MemoirHardPolicy(seed, **({"playouts": 12, "max_seconds": 60.0} | options))


def _advance(state, n: int, seed: int = 0):
    rng = random.Random(seed)
    for _ in range(n):
        if state.winner:
            break
        state.apply(random_action(state, rng))
    return state


def _to_card_phase(state, side: str, seed: int = 0):
    rng = random.Random(seed)
    while not (state.phase == "card" and state.active == side and not state.pending):
        assert not state.winner
        state.apply(random_action(state, rng))
    return state


def _swap_hidden(state, side: str, seed: int):
    """The same position with the other side's hand and the deck dealt differently."""
    other = state.clone()
    enemy = other_side(side)
    pool = other.hands[enemy] + other.deck
    random.Random(seed).shuffle(pool)
    n = len(other.hands[enemy])
    other.hands[enemy], other.deck = pool[:n], pool[n:]
    return other


class Checked:
    def __init__(self, policy) -> None:
        self.policy = policy

    def choose(self, state):
        a = self.policy.choose(state)
        assert a in state.legal_actions(), f"{a} is not legal in phase {state.phase}"
        return a


def test_hard_is_a_named_player_everywhere():
    game = MemoirGame.from_scenario("1")
    assert POLICY_NAMES["memoir"][-1] == "hard"
    assert isinstance(make_policy(game, "hard", 3), MemoirHardPolicy)
    assert [level_of(p) for p in ("easy", "normal", "hard", "random")] == [
        "beginner", "normal", "hard", None]
    with pytest.raises(ValueError, match="max_seconds"):
        MemoirHardPolicy(0, max_seconds=0)
    with pytest.raises(ValueError, match="playouts"):
        MemoirHardPolicy(0, playouts=0)


def test_hard_plays_legally_to_the_end_and_the_game_replays():
    game = MemoirGame.from_scenario("2")
    state = game.new_state(4)
    policies = {ALLIES: Checked(_hard(4, playouts=8)),
                AXIS: Checked(MemoirEasyPolicy(5))}
    play(state, policies, max_actions=20_000)
    assert state.winner is not None
    assert replay(game, 4, state.action_log).fingerprint() == state.fingerprint()


@pytest.mark.parametrize("sid,steps", [("1", 40), ("3", 60)])
def test_hard_never_reads_the_hidden_cards(sid, steps):
    state = _advance(MemoirGame.from_scenario(sid).new_state(9), steps, 9)
    side = state.active
    state = _to_card_phase(state, side, 9)
    policy = _hard(11)
    a = policy.choose(state)
    assert a in state.legal_actions()
    for k in range(2):
        other = _swap_hidden(state, side, k)
        assert policy.choose(other) == a
        assert policy.explain(other) == policy.explain(state)


def test_hard_minor_decisions_never_read_the_hidden_cards():
    state = _to_card_phase(MemoirGame.from_scenario("1").new_state(5), ALLIES, 5)
    policy = _hard(2, playouts=8, minor_share=1.0)  # every decision searched
    state.apply(policy.choose(state))
    n = 0
    while state.active == ALLIES and state.phase != "card" and not state.winner and n < 30:
        other = _swap_hidden(state, ALLIES, n)
        a = policy.choose(state)
        assert policy.choose(other) == a
        state.apply(a)
        n += 1
    assert n > 0


def test_hard_is_deterministic_and_leaves_the_state_alone():
    state = _to_card_phase(MemoirGame.from_scenario("2").new_state(3), ALLIES, 3)
    before = state.fingerprint()
    draws = state.dice.draws
    info = _hard(7).reason(state)
    assert _hard(7).choose(state.clone()) == info["action"]
    assert state.fingerprint() == before and state.dice.draws == draws


def test_hard_widens_progressively_and_keeps_its_budget():
    state = _to_card_phase(MemoirGame.from_scenario("4").new_state(1), ALLIES, 1)
    few = _hard(1, playouts=4, min_count=2).reason(state)
    many = _hard(1, playouts=40, min_count=2).reason(state)
    assert few["arms"] == many["arms"] > 4  # cards x styles
    # with n play-outs only ceil(2 * sqrt(n + 1)) arms are open: 4 play-outs reach 4 arms
    assert few["n"] == 4 and few["tried"] == 4
    assert many["n"] == 40 and 3 < many["tried"] <= 13
    # the CPU cap stops the search after the play-out that passes it
    capped = MemoirHardPolicy(1, playouts=500, max_seconds=1e-6)
    info = capped.reason(state)
    assert info["n"] == 1 and capped.last_cpu > 0
    # too few play-outs to overrule the default (2 x min_count): normal's card, unsearched
    quick = _hard(1, playouts=7).reason(state)
    assert quick["kind"] == "only" and quick["action"] == MemoirSearchPolicy(1).choose(state)


def test_hard_records_the_cpu_time_of_each_decision():
    """``cpu_times``: one CPU span per decision, in order, the last one ``last_cpu``; a copy
    the caller cannot change (the dashboard's "Why this card?" and the browser test read it)."""
    state = _to_card_phase(MemoirGame.from_scenario("4").new_state(1), ALLIES, 1)
    policy = MemoirHardPolicy(1, playouts=500, max_seconds=0.05)
    other = MemoirEasyPolicy(2)
    assert policy.cpu_times == ()
    decisions = 0
    while decisions < 4 and not state.is_terminal:
        if state.side_to_act == ALLIES:
            state.apply(policy.choose(state))
            decisions += 1
        else:
            state.apply(other.choose(state))
    times = policy.cpu_times
    assert isinstance(times, tuple) and len(times) == decisions == 4
    assert times[-1] == policy.last_cpu and all(t >= 0 for t in times)
    assert times[0] >= 0.05  # the card play, searched until its cap
    policy.reason(_to_card_phase(MemoirGame.from_scenario("4").new_state(1), ALLIES, 1))
    assert len(policy.cpu_times) == 5 and times == policy.cpu_times[:4]
    with pytest.raises(AttributeError):
        policy.cpu_times = ()  # type: ignore[misc]



def test_a_few_noisy_playouts_never_overrule_the_default():
    """The default arm (normal's card) is kept unless another did better by ``margin`` over
    at least ``min_count`` common worlds (issue #33's search must not play noise)."""
    state = _to_card_phase(MemoirGame.from_scenario("3").new_state(2), ALLIES, 2)
    normal = MemoirSearchPolicy(5).choose(state)
    never = _hard(5, playouts=16, margin=2.0).reason(state)  # a win chance cannot gain 2
    assert never["action"] == normal and never["n"] == 16
    info = _hard(5, playouts=16, margin=-2.0, sure=-1e9).reason(state)
    assert info["n"] == 16 and info["tried"] >= 2


def test_hard_takes_ground_carefully():
    """Issue #33, "walks into fire": whether to take ground is the careful style's choice
    (twice normal's fear of the enemy's next battles) unless the search overrules it."""
    from wargame.bots.memoir_easy import decide
    from wargame.bots.memoir_hard import STYLES

    policy = _hard(0, playouts=4)  # no budget to search: the default alone
    seen = 0
    for seed in range(6):
        game = MemoirGame.from_scenario("1")
        state = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if state.winner:
                break
            if state.pending and state.pending[-1].kind == "take_ground":
                assert policy.choose(state) == decide(state, STYLES["careful"])[0]
                seen += 1
            state.apply(random_action(state, rng))
    assert seen > 0

def test_hard_explains_its_card_in_english_and_portuguese():
    state = _to_card_phase(MemoirGame.from_scenario("1").new_state(2), ALLIES, 2)
    policy = _hard(3)
    info = policy.reason(state)
    en = policy.describe(info)
    with using_language("pt"):
        pt = policy.describe(info)
    assert en.startswith("I played ") and "%" in en and "play-outs" in en
    assert pt.startswith("Joguei ") and "%" in pt and "simulações" in pt
    if info["orders"]:
        assert "orders the units at (" in en and "Dá ordens às unidades em (" in pt
    assert f"{round(100 * info['win'])}%" in en
    assert set(HARD_TEXT) >= {"card", "battle", "move", "only"}


def test_shipped_weights_load_and_beat_a_constant_guess():
    model = load_eval()
    assert model.data["features"] == list(FEATURES)
    report = model.data["report"]
    assert report["log_loss"] < report["log_loss_constant"]
    assert report["positions"] >= 1000
    coef = dict(zip(FEATURES, model.coef, strict=True))
    assert coef["medals"] > 0  # a medal ahead is good


def test_bad_weights_are_refused_naming_the_field(tmp_path):
    good = json.loads(json.dumps(load_eval().data))
    with pytest.raises(ValueError, match="'coef'"):
        MemoirEval(good | {"coef": [1.0]})
    with pytest.raises(ValueError, match="'features'"):
        MemoirEval(good | {"features": ["medals"]})
    with pytest.raises(ValueError, match="'mean'"):
        MemoirEval(good | {"mean": [float("nan")] * len(FEATURES)})
    bad = tmp_path / "w.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ValueError, match="w.json"):
        load_eval(str(bad))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sid=st.sampled_from(["1", "3", "6", "overlord"]), steps=st.integers(0, 120),
       seed=st.integers(0, 50))
def test_features_never_read_the_hidden_cards_and_medals_are_antisymmetric(sid, steps, seed):
    state = _advance(MemoirGame.from_scenario(sid).new_state(seed), steps, seed)
    side = state.active
    x = features(state, side)
    assert len(x) == len(FEATURES)
    assert features(_swap_hidden(state, side, seed), side) == x
    y = features(state, other_side(side))
    for name in ("medals", "inf_lost", "tank_lost", "gun_lost", "weak_units", "objectives"):
        i = FEATURES.index(name)
        assert x[i] == -y[i]
    p = load_eval().win_chance(state, side)
    assert 0.0 < p < 1.0 or state.winner


def test_a_move_for_a_one_die_shot_is_the_careful_styles_call():
    """Issue #33, "poor shots": where normal would move a unit to a hex whose best shot is one
    die, hard's default is the careful style's move (it may be the same)."""
    from wargame.bots.memoir_easy import decide
    from wargame.bots.memoir_hard import STYLES, _best_shot

    policy = _hard(0, playouts=4)  # no budget to search: the default alone
    normal = MemoirSearchPolicy(0)
    seen = 0
    for seed in range(4):
        state = MemoirGame.from_scenario("1").new_state(seed)
        rng = random.Random(seed)
        for _ in range(400):
            if state.winner:
                break
            if state.phase == "move" and not state.pending:
                a = normal.choose(state)
                if a.kind == "move" and _best_shot(state, a.unit, a.hex) == 1:
                    assert policy.choose(state) == decide(state, STYLES["careful"])[0]
                    seen += 1
                elif a.kind == "move":
                    assert policy.choose(state) == a
            state.apply(random_action(state, rng))
    assert seen > 0
    # the shot counts range, cover and line of sight (the engine's battle_dice)
    state = MemoirGame.from_scenario("1").new_state(0)
    u = state.live_units(ALLIES)[0]
    assert _best_shot(state, u.id, u.hex) == max(
        (state.battle_dice(u, e, check_order=False)[0] for e in state.live_units(AXIS)
         if u.hex.distance(e.hex) <= 3), default=0)
