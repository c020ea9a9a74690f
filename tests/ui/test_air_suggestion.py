"""The air-point optimiser in the attack panel (issue #19): the store's suggestion and the
panel's "Use N air points" button, on a Dragoon combat phase of a bot game."""

from __future__ import annotations

import re

import pytest

from wargame.bots.air_plan import air_amounts
from wargame.bots.play import make_policy
from wargame.games import open_game
from wargame.operational.actions import Attack
from wargame.operational.state_types import Phase
from wargame.ui.model import CampaignState


@pytest.fixture(scope="module")
def dragoon_log():
    """The actions of a greedy Dragoon game up to the Allied combat phase of turn 4."""
    game = open_game("dragoon")
    state = game.new_state(2)
    bot = make_policy(game, "greedy")
    while not (state.phase is Phase.ALLIED_COMBAT and state.turn == 4
               and state.pending_decision is None):
        state.apply(bot.choose(state))
    return [game.action_from_dict(a) for a in state.action_log]


@pytest.fixture
def model(dragoon_log) -> CampaignState:
    m = CampaignState("dragoon", seed=2)
    for a in dragoon_log:
        assert m.act(a), m.message
    return m


def _plan_first_attack(m: CampaignState) -> Attack:
    attack = next(a for a in m.s.legal_actions() if isinstance(a, Attack))
    m.attack_target = attack.target
    m.attack_units = list(attack.attackers)
    return attack


def test_the_suggestion_is_the_best_split_and_counts_every_open_attack(model):
    attack = _plan_first_attack(model)
    tip = model.air_suggestion()
    assert tip is not None
    open_targets = {a.target for a in model.s.legal_actions() if isinstance(a, Attack)}
    assert tip["attacks"] == len(open_targets) and tip["points"] == model.s.air_points["allied"]
    assert tip["air"] in air_amounts(model.s, "allied")  # OD 6.2 bounds per strike
    assert tip["gain"] >= -1e-9  # never worse than point by point
    # the value it reports here is the engine's own preview at that many points
    before = model.s.fingerprint()
    assert model.s.preview_attack(attack.target, attack.attackers, (), tip["air"]) is not None
    assert model.s.fingerprint() == before


def test_no_suggestion_while_enemy_values_are_hidden(model):
    _plan_first_attack(model)
    model.hide_enemy = True  # CN 5.1.1: the optimiser would reveal the defence
    assert model.air_suggestion() is None


def test_the_panel_applies_the_suggestion(model):
    from wargame.ui.campaign import AttackPanel

    _plan_first_attack(model)
    panel = AttackPanel(model)
    tip = model.air_suggestion()
    model.attack_air = 0 if tip["air"] else min(model.air_max(), 3)
    panel.refresh()
    assert panel.use_air.visible and "Optimiser" in panel.use_air.label
    assert "optimiser" in panel.use_air.description
    panel._use_suggestion()
    assert model.attack_air == tip["air"]
    panel.refresh()
    assert not panel.use_air.visible  # nothing to suggest once applied


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_no_suggestion_that_adds_nothing(model, lang):
    """Issue #32: the panel suggested "+0.00 steps" (the split's gain over spending the points
    attack by attack, 0 here) whatever the air set. Now the suggestion is shown only when it
    adds to the best plan with the air set now, and says by how much; with the air set as good
    as the optimiser's, nothing is suggested."""
    from wargame import i18n
    from wargame.ui.campaign import AttackPanel

    _plan_first_attack(model)
    model.lang = lang
    panel = AttackPanel(model)
    shown, quiet = [], []
    for air in range(model.air_max() + 1):
        model.attack_air = air
        with i18n.using_language(lang):
            panel.refresh()
        tip = model.air_suggestion()
        if panel.use_air.visible:
            shown.append(air)
            label = panel.use_air.label
            assert not re.search(r"[+-]0[.,]00\b", label), (air, label)
            assert tip["better"] is None or tip["better"] >= 0.005, (air, tip)
            assert ("Otimizador" if lang == "pt" else "Optimiser") in label
        elif tip is not None and tip["air"] != air:
            quiet.append(air)  # another amount, but no better than this one
            assert tip["better"] is not None and tip["better"] < 0.005, (air, tip)
    assert shown and quiet, (shown, quiet)
