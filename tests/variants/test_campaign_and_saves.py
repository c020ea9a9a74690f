"""Saves record the variants; a seeded full Normandy campaign with every variant on keeps the
invariants and replays identically."""

import json
import sys
from datetime import date
from pathlib import Path

import pytest

from wargame.bots.campaign_random import RandomPolicy
from wargame.bots.play import play_random_game
from wargame.operational.state import Phase
from wargame.operational.variants import VARIANTS, WITHDRAWAL_FIRST, WITHDRAWAL_LAST, CarpetBombArea
from wargame.saves import from_save, load_game, replay, save_game, to_save
from wargame.scenario_errors import ScenarioError

from .conftest import game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "operational"))
from test_engine_properties import check_invariants  # noqa: E402


@pytest.mark.slow  # 4 s (measured on 2 busy cores)
def test_save_and_load_with_variants(tmp_path):
    g = game("bfn-19.1", "bfn-19.4:Juno+Sword", "bfn-19.6")
    s = g.new_state(5)
    play_random_game(s, seed=2, max_actions=150)
    data = to_save(s)
    assert data["options"]["variants"] == ["bfn-19.1", "bfn-19.4:Juno+Sword", "bfn-19.6"]
    path = save_game(s, tmp_path / "bfn.json")
    loaded = load_game(path)
    assert loaded.game.variants == g.variants
    assert loaded.fingerprint() == s.fingerprint()
    assert loaded.flags == s.flags
    assert [e.text for e in loaded.events] == [e.text for e in s.events]


@pytest.mark.slow  # 2.2 s (measured on 2 busy cores)
def test_saves_with_unknown_or_different_variants_are_refused():
    s = game("bfn-19.6").new_state(5)
    data = json.loads(json.dumps(to_save(s)))
    with pytest.raises(ScenarioError, match="variants"):
        from_save({**data, "options": {"variants": ["bfn-20.1"]}})
    with pytest.raises(ScenarioError, match="variants"):
        from_save(data, game=game())
    assert from_save(data, game=game("bfn_hobart")).fingerprint() == s.fingerprint()


def test_variants_change_the_game_from_the_same_seed():
    a, b = game().new_state(3), game("bfn").new_state(3)
    assert [e.text for e in a.events] != [e.text for e in b.events]
    assert any(e.rule == "BFN 19.6.2" for e in b.events) and not any(e.rule.startswith("BFN") for e in a.events)


def _play_with_carpets(state, seed):
    """Random play; the Allies carpet-bomb (BFN 19.3) whenever they may."""
    policy = RandomPolicy(seed)
    seen = set()
    while not state.is_terminal:
        action = None
        if state.phase is Phase.ALLIED_MOVEMENT and state.pending is None:
            offered = [a for a in state.legal_actions() if isinstance(a, CarpetBombArea)]
            if offered:
                action = offered[len(offered) // 2]
        state.apply(action or policy.choose(state))
        check_invariants(state)
        seen.add(state.turn)
    return seen


@pytest.mark.slow  # 14 s (measured on 2 busy cores)
def test_full_campaign_with_every_variant_and_replay():
    g = game("bfn")
    assert g.variants == tuple(VARIANTS)
    state = g.new_state(1944)
    seen = _play_with_carpets(state, 6)
    assert state.is_terminal and state.turn == 16 and seen == set(range(17))
    f = state.flags["bfn"]
    assert WITHDRAWAL_FIRST <= date.fromisoformat(f["battleships"]) <= WITHDRAWAL_LAST
    assert set(f["airborne"]) == {"us-82", "us-101"}
    assert all(WITHDRAWAL_FIRST <= date.fromisoformat(d) <= WITHDRAWAL_LAST for d in f["airborne"].values())
    airborne = [u for u, d in g.units.items() if d.division in ("us-82", "us-101")]
    for u in airborne:
        us = state.units[u]
        assert us.status in ("withdrawn", "eliminated") or (
            us.status == "on_map" and state.encircled(us.hex, "allied")), (u, us.status)
    assert 1 <= len(f["carpet_turns"]) <= 2 and all(t >= 14 for t in f["carpet_turns"])
    assert sum(1 for e in state.events if e.rule == "BFN 19.6.2") == 4
    assert any(e.rule == "BFN 19.4.1" for e in state.events)
    assert not any(e.kind == "mulberry" and e.rule == "CN 9.0" and "installed" in e.text for e in state.events)
    again = replay(g, 1944, state.action_log)
    assert again.fingerprint() == state.fingerprint()
    assert [e.text for e in again.events] == [e.text for e in state.events]
    assert again.victory_points() == state.victory_points()
