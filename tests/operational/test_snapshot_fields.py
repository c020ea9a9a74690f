"""The campaign position's mutable fields are declared once (snapshot.MUTABLE_FIELDS); clone,
snapshot/restore and to_json follow that one set, so the "unchanged after a refusal" checks
(which compare to_json) see every field a refused action must leave as it was (issue #35)."""

import json

import pytest

from tests.helpers import small_scenario, unit
from wargame.errors import CombatRefused, refuse
from wargame.hexgrid import Hex
from wargame.operational import snapshot
from wargame.operational.actions import Attack, DeclareDefence, EndPhase
from wargame.operational.state import Game
from wargame.operational.state_types import Phase


def _position(state) -> str:
    """What the refusal checks compare (tests/fuzz, test_protocol_conformance, test_is_legal)."""
    return json.dumps([state.fingerprint(), state.to_json(), state.action_log], sort_keys=True)


@pytest.fixture
def in_combat(load_dice):
    """A combat waiting for the defender's loss (DE): ``combat`` set, a flag raised."""
    units = [unit("a", "allied", a=27), unit("d1", "axis", d=1), unit("d2", "axis", d=2)]
    s = Game(small_scenario(units=units, setup={"a": "0303", "d1": "0304", "d2": "0304"})).new_state()
    s.apply(EndPhase())
    load_dice(s, 1, 1)  # 2 on 9-1: DE AVI
    s.apply(Attack("0304", ("a",)))
    if s.pending.kind == "defence":
        s.apply(DeclareDefence(0))
    assert s.pending.kind == "loss" and s.combat is not None and "loss_eliminates" in s.flags
    return s


def test_every_field_of_a_state_is_declared_mutable_or_fixed(in_combat):
    fresh = Game("normandy").new_state(1)
    for state in (fresh, in_combat, in_combat.clone()):
        assert set(vars(state)) == set(snapshot.MUTABLE_FIELDS) | snapshot.FIXED_FIELDS
    assert not set(snapshot.MUTABLE_FIELDS) & snapshot.FIXED_FIELDS


def test_to_json_shows_the_combat_and_the_flags(in_combat):
    data = in_combat.to_json()
    json.dumps(data)  # plain JSON
    assert data["combat"]["target"] == "0304" and data["combat"]["attackers"] == ["a"]
    assert data["combat"]["result"] == in_combat.combat.result
    assert data["flags"]["loss_eliminates"] is in_combat.flags["loss_eliminates"]
    before = _position(in_combat)
    in_combat.flags["loss_eliminates"] = not in_combat.flags["loss_eliminates"]
    assert _position(in_combat) != before
    in_combat.flags["loss_eliminates"] = not in_combat.flags["loss_eliminates"]
    assert _position(in_combat) == before
    in_combat.combat.lost.add("d1")
    assert _position(in_combat) != before


def test_a_viewer_is_not_sent_the_combat_or_the_flags(in_combat):
    from wargame.viewer import Viewer

    view = in_combat.view(Viewer(side="allied", role="player"))
    assert "combat" not in view and "flags" not in view


def _refused_after_changing_everything(state):
    """A handler that changes every mutable field, then refuses (as a rule found late would)."""

    def dispatch(action):
        state.turn += 1
        state.phase = Phase.GAME_OVER
        state.units["d1"].reduced = True
        state.air_points["allied"] += 7
        state.attacked_hexes.add(("axis", Hex.from_id("0101")))
        state.control[Hex.from_id("0101")] = "axis"
        state.must_attack.add("a")
        state.carpet_turns.append(99)
        state.combat.lost.add("d2")
        state.combat.steps.clear()
        state.pending = None
        state.flags["loss_eliminates"] = "changed"
        state.flags.setdefault("bfn", {})["dd"] = {"omaha": True}
        raise refuse(CombatRefused, "campaign.combat.no_enemy", "CN 5.0", hex="0101")

    state._dispatch = dispatch


def test_a_refusal_restores_every_mutable_field(in_combat):
    before = _position(in_combat)
    _refused_after_changing_everything(in_combat)
    with pytest.raises(CombatRefused):
        in_combat.apply(in_combat.pending.options[0])
    assert _position(in_combat) == before


@pytest.mark.parametrize("forgotten", ["flags", "combat"])
def test_a_restore_that_forgets_a_field_is_caught(in_combat, monkeypatch, forgotten):
    """The check the refusal tests make would see a restore bug in flags or combat (before
    issue #35 to_json left both out, so it could not)."""
    before = _position(in_combat)
    fields = {k: v for k, v in snapshot.MUTABLE_FIELDS.items() if k != forgotten}
    monkeypatch.setattr(snapshot, "MUTABLE_FIELDS", fields)
    _refused_after_changing_everything(in_combat)
    with pytest.raises(CombatRefused):
        in_combat.apply(in_combat.pending.options[0])
    assert _position(in_combat) != before


def test_a_clone_shares_no_mutable_field(in_combat):
    before = _position(in_combat)
    twin = in_combat.clone()
    assert _position(twin) == before
    twin.flags["loss_eliminates"] = "changed"
    twin.combat.lost.add("d2")
    twin.units["d1"].reduced = True
    twin.must_attack.add("a")
    assert _position(in_combat) == before


def test_edited_drops_the_position_caches():
    """Tests and benches set fields by hand, then call ``edited()`` (not ``_cache.clear()``)."""
    s = Game("normandy").new_state(1)
    uid, us = next((u, us) for u, us in s.units.items() if us.status == "on_map")
    old = us.hex
    assert uid in s.units_at(old)  # cached now
    us.hex = Hex.from_id("0101")
    assert uid in s.units_at(old)  # the cache still has it where it was
    s.edited()
    assert uid not in s.units_at(old) and uid in s.units_at(Hex.from_id("0101"))
