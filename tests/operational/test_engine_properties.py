"""Invariants under random play (hypothesis), save/load, replay determinism, undo."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import small_scenario, unit
from wargame.bots.campaign_random import RandomPolicy
from wargame.bots.play import play_random_game
from wargame.operational.actions import (
    Attack,
    Bombard,
    EndPhase,
    Enter,
    IllegalAction,
    Move,
    action_from_dict,
)
from wargame.operational.state import Game
from wargame.saves import from_save, load_game, replay, save_game, to_save, undo
from wargame.scenario_errors import ScenarioError


def skirmish(game="normandy"):
    types = ["infantry", "armour", "motorized_infantry"] if game == "normandy" else ["infantry", "armour", "mountain"]
    units = [unit(f"a{i}", "allied", types[i % 3], a=3 + i % 3, d=3, m=6) for i in range(9)]
    units += [unit(f"g{i}", "axis", types[i % 3], a=3, d=2 + i % 3, m=5) for i in range(9)]
    units += [unit("art", "allied", "artillery", 2, 1, 4, rng=3), unit("gart", "axis", "artillery", 2, 1, 4, rng=3)]
    units += [unit("late", "axis", m=5)]
    setup = {f"a{i}": f"{(i % 8) + 1:02d}0{2 + i // 8}" for i in range(9)}
    setup.update({f"g{i}": f"{(i % 8) + 1:02d}0{7 + i // 8}" for i in range(9)})
    setup.update({"art": "0401", "gart": "0409"})
    terrain = {"0405": "bocage", "0505": "hill", "0604": "forest"} if game == "normandy" else {"0405": "woods", "0505": "mountain"}
    return Game(small_scenario(
        game=game, units=units, setup=setup, terrain=terrain, rivers=[("0304", "0305"), ("0604", "0605")],
        roads=[["0101", "0202", "0302", "0403"]], edges={"south": ["0110", "0210", "0310"], "east": ["1003", "1004"]},
        reinforcements=[{"turn": 2, "unit": "late", "entry": {"kind": "edge", "edge": "east"}}],
        rules={"exits": {"allied": ["south"], "axis": ["south", "east"]}, "may_return": ["axis"],
               "entry_turn_movement": {"side": "axis", "movement": 10, "movement_class": "motorized"},
               "recovery": {"sides": ["allied"]}, "one_armour_terrain": ["bocage"] if game == "normandy" else [],
               "carpet_bombing": {"from_turn": 2, "uses": 2}},
        turns=(1, 4),
    ))


def check_invariants(state):
    occ = state.occupancy()
    for h, uids in occ.items():
        sides = {state.side_of(u) for u in uids}
        assert len(sides) == 1, f"enemies share {h.id}"  # CN/OD 4.1.2
        assert len(uids) <= state.game.scenario.stacking_limit, f"stack of {len(uids)} at {h.id}"  # 4.1.1
        assert state.game.board.is_land(h)
    assert all(v >= 0 for v in state.air_points.values())  # 6.1
    for us in state.units.values():
        assert (us.hex is None) == (us.status in ("waiting", "eliminated", "exited", "withdrawn"))


@pytest.mark.slow  # 2 x 3 s (measured on 2 busy cores)
@pytest.mark.parametrize("game_name", ["normandy", "dragoon"])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), policy_seed=st.integers(0, 10_000))
def test_random_games_keep_invariants_and_replay(game_name, seed, policy_seed):
    g = skirmish(game_name)
    state = g.new_state(seed)
    play_random_game(state, seed=policy_seed, on_action=lambda s, a: check_invariants(s))
    assert state.is_terminal
    again = replay(g, seed, state.action_log)
    assert again.fingerprint() == state.fingerprint()
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in state.events]
    round_trip = from_save(json.loads(json.dumps(to_save(state))), game=g)
    assert round_trip.victory_points() == state.victory_points()


def random_action(draw, state):
    uids = sorted(state.units)
    hexes = [h.id for h in state.game.board.hexes]
    kind = draw(st.sampled_from(["move", "enter", "attack", "bombard", "end"]))
    if kind == "move":
        return Move(draw(st.sampled_from(uids)), draw(st.sampled_from(hexes)))
    if kind == "enter":
        return Enter(draw(st.sampled_from(uids)), draw(st.sampled_from(hexes)))
    if kind == "attack":
        return Attack(draw(st.sampled_from(hexes)), tuple(draw(st.lists(st.sampled_from(uids), max_size=3))),
                      air=draw(st.integers(-3, 60)))
    if kind == "bombard":
        return Bombard(draw(st.sampled_from(hexes)), tuple(draw(st.lists(st.sampled_from(uids), max_size=2))),
                       air=draw(st.integers(-3, 60)))
    return EndPhase()


@pytest.mark.slow  # 3.6 s (measured on 2 busy cores)
@settings(max_examples=60, deadline=None)
@given(data=st.data(), seed=st.integers(0, 1000), steps=st.integers(0, 40))
def test_illegal_actions_never_change_state(data, seed, steps):
    g = skirmish()
    state = g.new_state(seed)
    policy = RandomPolicy(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(policy.choose(state))
    for _ in range(10):
        if state.is_terminal:
            break
        action = random_action(data.draw, state)
        before = state.fingerprint()
        snapshot = to_save(state)
        n_events = len(state.events)
        try:
            state.apply(action)
        except IllegalAction as exc:
            assert exc.reason  # every refusal says why
            assert state.fingerprint() == before
            assert to_save(state) == snapshot
            assert len(state.events) == n_events
        else:
            check_invariants(state)


def test_save_load_atomic_round_trip(tmp_path):
    g = skirmish()
    state = play_random_game(g.new_state(7), seed=3, max_actions=60)
    path = save_game(state, tmp_path / "game.json")
    loaded = load_game(path, game=g)
    assert loaded.fingerprint() == state.fingerprint()
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left
    data = json.loads(path.read_text())
    assert data["format"] == "wargame-save" and data["format_version"] == 4
    assert data["game"] == "campaign" and data["scenario"] == g.scenario.id


def test_truncated_or_edited_save_is_refused(tmp_path):
    g = skirmish()
    state = play_random_game(g.new_state(7), seed=3, max_actions=60)
    path = save_game(state, tmp_path / "game.json")
    text = path.read_text()
    (tmp_path / "cut.json").write_text(text[: len(text) // 2])
    with pytest.raises(ScenarioError) as exc:
        load_game(tmp_path / "cut.json", game=g)
    assert "cut.json" in str(exc.value) and "truncated" in str(exc.value)
    data = json.loads(text)
    data["fingerprint"]["turn"] += 1
    (tmp_path / "edited.json").write_text(json.dumps(data))
    with pytest.raises(ScenarioError) as exc:
        load_game(tmp_path / "edited.json", game=g)
    assert "fingerprint" in str(exc.value)
    data = json.loads(text)
    data["format_version"] = 99
    (tmp_path / "future.json").write_text(json.dumps(data))
    with pytest.raises(ScenarioError) as exc:
        load_game(tmp_path / "future.json", game=g)
    assert "format_version" in str(exc.value)
    data = json.loads(text)
    data["actions"].insert(0, {"kind": "move", "unit": "g0", "to": "0101"})
    (tmp_path / "illegal.json").write_text(json.dumps(data))
    with pytest.raises(ScenarioError) as exc:
        load_game(tmp_path / "illegal.json", game=g)
    assert "actions[0]" in str(exc.value)


def test_undo_is_replay_to_an_earlier_point():
    g = skirmish()
    state = g.new_state(11)
    state.apply(Move("a0", "0103"))
    before = state.fingerprint()
    state.apply(Move("a1", "0204"))
    back = undo(state)
    assert back.fingerprint() == before and len(back.action_log) == 1


def test_actions_round_trip_through_json():
    for action in [Move("a", "0101"), Attack("0202", ("a", "b"), ("c",), 5), EndPhase(), Bombard("0303", (), 6)]:
        assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    with pytest.raises(ValueError):
        action_from_dict({"kind": "teleport"})


def test_clone_is_independent():
    g = skirmish()
    state = g.new_state(1)
    twin = state.clone()
    twin.apply(Move("a0", "0103"))
    assert state.units["a0"].hex != twin.units["a0"].hex
    assert state.dice.draws == twin.dice.draws
