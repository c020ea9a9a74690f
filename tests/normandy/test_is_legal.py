"""Legal actions, both directions (issue 27): ``legal_actions()`` lists one attack per hex
(every eligible attacker, no support); ``is_legal``/``why_illegal`` decide the others exactly as
``apply`` does, without changing the state.

The position: Normandy, seed 1, the Allied movement phase of turn 0 ended at once, so the
landing units at sea attack the beaches (CN 11.1.1). The 2nd/5th Rangers can attack only
Pointe du Hoc's hex 1809, so an attack there must include them (CN 4.1.2); the 29th Division's
regiments may also attack 2010, so any three of the four with the Rangers are legal.
"""

from __future__ import annotations

import itertools
import json

import pytest

from wargame.errors import CombatRefused, SupportRefused
from wargame.games import open_game
from wargame.operational.actions import Attack, Bombard, EndPhase

RANGERS = "us-rangers-2-5"
ATTACKERS = (RANGERS, "us-115-29", "us-116-29", "us-175-29")


@pytest.fixture(scope="module")
def combat():
    state = open_game("normandy").new_state(1)
    state.apply(EndPhase())
    assert state.phase.is_combat and state.air_points["allied"] == 50
    return state


def _position(state) -> str:
    return json.dumps([state.fingerprint(), state.to_json(), state.action_log], sort_keys=True)


def _accepted(state, action) -> bool:
    trial = state.clone()
    try:
        trial.apply(action)
    except (CombatRefused, SupportRefused):
        return False
    return True


def test_the_list_holds_one_attack_on_1809_with_every_attacker(combat):
    attacks = [a for a in combat.legal_actions() if isinstance(a, Attack) and a.target == "1809"]
    assert attacks == [Attack("1809", ATTACKERS)]
    assert combat.is_legal(attacks[0]) and combat.why_illegal(attacks[0]) is None


@pytest.mark.parametrize("three", list(itertools.combinations(ATTACKERS, 3)))
def test_three_of_the_four_attackers_are_legal_exactly_when_the_rangers_are_in(combat, three):
    action = Attack("1809", three)
    before = _position(combat)
    legal = combat.is_legal(action)
    why = combat.why_illegal(action)
    assert _position(combat) == before
    assert action not in combat.legal_actions()
    assert legal == (RANGERS in three) == _accepted(combat, action)
    if not legal:
        assert isinstance(why, CombatRefused) and why.rule == "CN 4.1.2"
        assert why.key == "campaign.combat.left_behind"
    else:
        assert why is None


@pytest.mark.parametrize("air,rule", [(0, None), (1, None), (5, None), (10, None),
                                      (11, "CN 6.0"), (50, "CN 6.0"), (51, "CN 6.1")])
def test_air_points_added_to_the_attack(combat, air, rule):
    """CN 6.0: at most 10 air points a combat; 6.1: no more than the side has left (50)."""
    action = Attack("1809", ATTACKERS, (), air)
    before = _position(combat)
    why = combat.why_illegal(action)
    assert combat.is_legal(action) == (rule is None) == _accepted(combat, action)
    assert _position(combat) == before
    assert (why.rule if why is not None else None) == rule


def test_air_bombardment_is_legal_and_never_listed(combat):
    """CN 6.2: 5 to 10 air points alone on a German hex. The list offers no air bombardment
    (only artillery bombardments of hexes nobody can attack): legal, not listed. On the
    beaches it would leave the landing units without their attack (CN 4.1.2)."""
    assert [a for a in combat.legal_actions() if isinstance(a, Bombard)] == []
    assert combat.why_illegal(Bombard("1809", (), 5)).rule == "CN 4.1.2"
    for air, rule in [(4, "CN 6.0"), (5, None), (10, None), (11, "CN 6.0")]:
        action = Bombard("0205", (), air)  # the 920th Regiment, far from the beaches
        assert combat.is_legal(action) == (rule is None) == _accepted(combat, action)
        why = combat.why_illegal(action)
        assert (why.rule if why is not None else None) == rule
    # air points with artillery: CN 8.0, artillery-only attacks get no air support
    assert combat.why_illegal(Bombard("0205", ("us-art-v",), 5)).rule == "CN 8.0"
