"""The historical track of Operação Dragoon (scenarios/dragoon/history.yaml), read by the
same wargame/history.py as Normandy's, with Dragoon's own turn length (OD 2.4.1)."""

import copy
import datetime as dt

import pytest
import yaml

from wargame.history import compare_with_history, history_from_data, load_history
from wargame.operational.state import Game
from wargame.paths import scenario_dir
from wargame.scenario import ScenarioError, load_scenario

RAW = yaml.safe_load((scenario_dir("dragoon") / "history.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def scenario():
    return load_scenario("dragoon")


@pytest.fixture(scope="module")
def history(scenario):
    return load_history("dragoon", scenario=scenario)


def test_turn_days_follow_od_2_4_1(scenario):
    # OD 2.4.1: 14 turns of 2 days, 15/08/1944 (the landings) to 11/09/1944 (Dijon)
    assert scenario.turn_days(1) == ("1944-08-15", "1944-08-16")
    assert scenario.turn_days(7) == ("1944-08-27", "1944-08-28")
    assert scenario.turn_days(14) == ("1944-09-10", "1944-09-11")


def test_normandy_turn_zero_is_d_day_alone():
    # CN 2.4.1: turn 0 is D-Day (06/06/44), every other turn 3 days, to 24/07/44
    normandy = load_scenario("normandy")
    assert normandy.turn_days(0) == ("1944-06-06", "1944-06-06")
    assert normandy.turn_days(1) == ("1944-06-07", "1944-06-09")
    assert normandy.turn_days(16) == ("1944-07-22", "1944-07-24")


def test_every_turn_has_its_two_days(history):
    assert [t.turn for t in history.turns] == list(range(1, 15))
    for before, after in zip(history.turns, history.turns[1:], strict=False):
        a, b = dt.date.fromisoformat(after.first), dt.date.fromisoformat(after.last)
        assert a == dt.date.fromisoformat(before.last) + dt.timedelta(days=1)
        assert (b - a).days == 1
    assert history.turn(1).dates_label == "15-16 August 1944"
    assert history.turn(9).dates_label == "31 August - 1 September 1944"


def test_every_turn_tells_its_story_and_names_sources(history):
    assert len(history.sources) >= 3
    assert "own words" in history.provenance
    for t in history.turns:
        assert t.title and len(t.text) > 150, t.turn
        assert t.events
        for e in t.events:
            assert t.first <= e.date <= t.last, (t.turn, e.date)


@pytest.mark.parametrize(
    ("place", "first_turn_held"),
    [
        ("Grenoble", 4),  # 22 August
        ("Avignon", 6),  # 25 August
        ("Marseille", 7),  # garrison surrenders 28 August
        ("Toulon", 7),  # Saint-Mandrier surrenders 28 August
        ("Lyon", 10),  # 3 September
    ],
)
def test_capture_turns_match_the_dates_of_history(history, place, first_turn_held):
    held = [t.turn for t in history.turns if place in t.allied_cities]
    assert held[0] == first_turn_held
    # once freed, never lost again: every later turn lists it
    assert held == list(range(first_turn_held, 15))


def test_all_five_victory_cities_were_free_by_the_end(history):
    # OD 11.2: the five cities of the victory table, all Allied on 11 September 1944
    assert set(history.turn(14).allied_cities) == set(history.city_hexes)
    assert history.city_points(14)["allied"] == 60 and history.city_points(14)["axis"] == 0
    assert history.after_the_game == ()


def test_game_is_compared_with_history(history):
    game = Game("dragoon")
    state = game.new_state(3)
    start = compare_with_history(state, history)
    assert start["turn"] == 1 and start["dates"] == {"first": "1944-08-15",
                                                     "last": "1944-08-16"}
    assert start["held_both"] == [] and start["history_only"] == []
    for h in game.board.places["Toulon"]:
        state.control[h] = "allied"
    ahead = compare_with_history(state, history)
    assert ahead["game_only"] == ["Toulon"] and ahead["allied_difference"] == 20
    state.turn = 7
    later = compare_with_history(state, history)
    assert later["held_both"] == ["Toulon"] and "Marseille" in later["history_only"]


def test_a_wrong_date_names_od_2_4_1(scenario):
    data = copy.deepcopy(RAW)
    data["turns"][2]["dates"]["first"] = "1944-08-18"
    with pytest.raises(ScenarioError) as exc:
        history_from_data(data, scenario, source="history.yaml")
    assert exc.value.field == "turns[2].dates.first"
    assert "1944-08-19" in exc.value.expected and "OD 2.4.1" in exc.value.expected


def test_a_city_outside_the_od_victory_table_is_refused(scenario):
    data = copy.deepcopy(RAW)
    data["turns"][4]["allied_cities"].append("Nice")
    with pytest.raises(ScenarioError) as exc:
        history_from_data(data, scenario, source="history.yaml")
    assert "OD 11.2" in exc.value.expected and exc.value.field.startswith("turns[4].allied_cities")


def test_the_dashboard_shows_dragoons_history():
    # the history panel and overlay of the campaign dashboard read the same file
    from wargame.ui.model import CampaignState

    m = CampaignState(Game("dragoon"), seed=1)
    entry = m.history_entry()
    assert entry is not None and entry.turn == 1 and "Le Muy" in entry.text
    m.s.turn = 7
    assert {h.id for h in m.history_hexes()} >= {"0723", "1024"}  # Marseille, Toulon
