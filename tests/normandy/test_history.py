"""The historical track of the Normandy campaign (scenarios/normandy/history.yaml) and the
comparison of a game with history (wargame/history.py)."""

import copy
import datetime as dt

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from wargame.hexgrid import Hex
from wargame.history import compare_with_history, history_from_data, load_history
from wargame.operational.state import Game
from wargame.paths import scenario_dir
from wargame.scenario import ScenarioError, load_scenario

RAW = yaml.safe_load((scenario_dir("normandy") / "history.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def scenario():
    return load_scenario("normandy")


@pytest.fixture(scope="module")
def history(scenario):
    return load_history("normandy", scenario=scenario)


def test_every_turn_has_its_three_days(history):
    # CN 2.4.1: turn 0 is 6 June 1944, then 3 days a turn, to 24 July
    assert [t.turn for t in history.turns] == list(range(17))
    assert history.turns[0].first == history.turns[0].last == "1944-06-06"
    assert history.turns[-1].last == "1944-07-24"
    for before, after in zip(history.turns, history.turns[1:], strict=False):
        a, b = dt.date.fromisoformat(after.first), dt.date.fromisoformat(after.last)
        assert a == dt.date.fromisoformat(before.last) + dt.timedelta(days=1)
        assert (b - a).days == 2
    assert history.turn(1).dates_label == "7-9 June 1944"
    assert history.turn(8).dates_label == "28-30 June 1944"


def test_every_turn_tells_its_story_and_names_sources(history):
    assert len(history.sources) >= 3
    assert "own words" in history.provenance
    for t in history.turns:
        assert t.title and len(t.text) > 200
        for e in t.events:
            assert t.first <= e.date <= t.last, (t.turn, e.date)


@pytest.mark.parametrize(
    ("place", "first_turn_held"),
    [
        ("Bayeux", 1),  # 7 June
        ("Carentan", 2),  # 12 June
        ("Cherbourg", 7),  # 26-27 June
        ("Saint-Lô", 14),  # 18 July
    ],
)
def test_capture_turns_match_the_dates_of_history(history, place, first_turn_held):
    held = [t.turn for t in history.turns if place in t.allied_cities]
    assert held and held[0] == first_turn_held
    assert held == list(range(first_turn_held, 17))  # never lost again at a turn's end


def test_caen_is_taken_in_two_steps(history, scenario):
    # Charnwood (9 July) took the old town north of the Orne; Goodwood/Atlantic Vaucelles.
    caen = [h.id for h in scenario.board.places["Caen"]]
    assert sorted(caen) == ["2813", "2913"]
    assert "Caen" not in history.turn(10).allied_cities and not history.turn(10).allied_hexes
    assert history.turn(11).allied_hexes == {"Caen": ("2813",)}
    assert "2813" in history.allied_hexes(11) and "2913" not in history.allied_hexes(11)
    assert "Caen" in history.turn(15).allied_cities


def test_villers_bocage_brief_capture_is_told_not_counted(history):
    t = history.turn(3)  # 13 June
    assert "Villers-Bocage" not in t.allied_cities
    assert any("Villers-Bocage" in e.text for e in t.events) or "Villers-Bocage" in t.text


def test_history_points_follow_the_victory_rules(history, scenario):
    # independent count from scenario.yaml's CN 11.2 city list
    allied = history.allied_hexes(16)
    expected = {"allied": 0, "axis": 0}
    for v in scenario.rule("victory"):
        if v["kind"] != "city":
            continue
        hexes = [h.id for h in scenario.board.places[v["place"]]]
        mine = sum(1 for h in hexes if h in allied)
        for side, pts in v["points"].items():
            k = mine if side == "allied" else len(hexes) - mine
            expected[side] += pts * k // len(hexes)
    got = history.city_points(16)
    assert (got["allied"], got["axis"]) == (expected["allied"], expected["axis"])
    assert got["allied"] > history.city_points(7)["allied"] > history.city_points(0)["allied"]


def test_cities_not_reached_by_24_july_are_dated_after_the_game(history):
    later = {c.place for c in history.after_the_game}
    held = set(history.turn(16).allied_cities)
    assert {"Avranches", "Falaise", "Vire", "Coutances"} <= later
    assert not later & held


def test_game_is_compared_with_history(history):
    game = Game("normandy")
    state = game.new_state(7)
    start = compare_with_history(state, history)
    assert start["turn"] == 0 and start["dates"]["first"] == "1944-06-06"
    assert start["game_points"]["allied"] == sum(
        p for side, name, p in state.victory_points()["lines"] if side == "allied"
        and name in history.city_hexes
    )
    # hand Bayeux to the Allies on D-Day: ahead of history by Bayeux's points
    for h in game.board.places["Bayeux"]:
        state.control[h] = "allied"
    ahead = compare_with_history(state, history)
    assert "Bayeux" in ahead["game_only"] and ahead["allied_difference"] == 10
    state.turn = 2
    later = compare_with_history(state, history)
    assert "Bayeux" in later["held_both"] and "Carentan" in later["history_only"]
    assert later["hexes"]["history_only"] == sorted(h.id for h in game.board.places["Carentan"])
    assert Hex.from_id("2212") in game.board.places["Bayeux"]


# --- broken files ---------------------------------------------------------------------------
def test_a_wrong_date_names_the_field(scenario):
    data = copy.deepcopy(RAW)
    data["turns"][3]["dates"]["last"] = "1944-06-16"
    with pytest.raises(ScenarioError) as exc:
        history_from_data(data, scenario, source="history.yaml")
    assert exc.value.field == "turns[3].dates.last" and "1944-06-15" in exc.value.expected


def test_an_unknown_city_is_refused(scenario):
    data = copy.deepcopy(RAW)
    data["turns"][5]["allied_cities"].append("Paris")
    with pytest.raises(ScenarioError) as exc:
        history_from_data(data, scenario, source="history.yaml")
    assert "turns[5]" in exc.value.field and "Paris" in str(exc.value)


def test_a_missing_turn_is_refused(scenario):
    data = copy.deepcopy(RAW)
    del data["turns"][9]
    with pytest.raises(ScenarioError, match="missing"):
        history_from_data(data, scenario, source="history.yaml")


def _paths(data, prefix=()):
    if isinstance(data, dict):
        for k, v in data.items():
            yield prefix + (k,)
            yield from _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data[:4]):
            yield prefix + (i,)
            yield from _paths(v, prefix + (i,))


PATHS = list(_paths(RAW))
JUNK = st.one_of(st.none(), st.integers(-3, 3000), st.text(max_size=5), st.booleans(),
                 st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@pytest.mark.slow  # 2.1 s (measured on 2 busy cores)
@settings(max_examples=60, deadline=None)
@given(path=st.sampled_from(PATHS), how=st.sampled_from(["delete", "replace"]), junk=JUNK)
def test_fuzzed_history_gives_only_scenario_errors(scenario, path, how, junk):
    data = copy.deepcopy(RAW)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if how == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = junk
    try:
        history_from_data(data, scenario, source="history.yaml")
    except ScenarioError as exc:
        assert exc.field and exc.expected and str(exc).startswith("history.yaml")
