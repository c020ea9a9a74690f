"""The Memoir '44 dashboard's computer opponent: the "Computer plays" and "Computer player"
selects (easy by default, any bundled policy or the auto answer), in the store and in a real
browser where a whole scenario is played against the computer to its end."""

from __future__ import annotations

import json

from wargame.bots.memoir_easy import MemoirEasyPolicy
from wargame.bots.memoir_search import MemoirSearchPolicy
from wargame.saves import from_save
from wargame.ui.memoir_model import AutoPolicy, MemoirStore


def test_store_computer_player_is_a_bundled_policy_and_can_change():
    store = MemoirStore("1", 44, computer="axis")
    assert store.computer_player == "easy"
    # the bundled players come wrapped to keep their last card's reason (issue #33)
    assert isinstance(store.make_policy().policy, MemoirEasyPolicy)
    store.computer_player = "normal"
    assert isinstance(store.make_policy().policy, MemoirSearchPolicy)
    store.computer_player = "auto"
    assert isinstance(store.make_policy(), AutoPolicy)


def test_store_game_against_the_easy_computer_to_the_end():
    store = MemoirStore("2", 3, computer="axis")
    n = 0
    while not store.state.is_terminal and n < 2000:
        assert store.state.side_to_act == "allied"
        assert store.auto()
        n += 1
    assert store.state.is_terminal and store.state.outcome().winner == "axis"


def test_play_a_scenario_against_the_computer_in_the_browser(dashboard_server, wg_page,
                                                             tmp_path):
    page = wg_page
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{dashboard_server}?scenario=memoir44-1&seed=44&computer=axis")
    page.get_by_text("ALLIES to act").first.wait_for()
    assert page.locator("select").filter(has_text="the Axis").count() >= 1
    counter = page.locator(".m44-actions")
    for _ in range(600):
        if page.get_by_text("AXIS wins").count() or page.get_by_text("ALLIES wins").count():
            break
        before = counter.inner_text()
        page.get_by_role("button", name="Auto-answer").click()
        for _ in range(400):  # the action count changes (Panel renders in shadow roots)
            if counter.inner_text() != before:
                break
            page.wait_for_timeout(50)
        else:
            raise AssertionError(f"Auto-answer did nothing after {before!r}")
    page.get_by_text("AXIS wins").first.wait_for(timeout=20000)
    with page.expect_download() as dl:
        page.get_by_role("button", name="Save").click()
    path = tmp_path / "memoir-computer.json"
    dl.value.save_as(path)
    state = from_save(json.loads(path.read_text()), source=str(path))
    assert state.is_terminal and state.outcome().winner == "axis"
    assert errors == []
