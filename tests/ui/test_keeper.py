"""A solo dashboard's game kept in the browser and offered back (issue #31;
wargame/ui/keeper.py). The browser's side (localStorage across a reload and a server
restart) is tested in tests/ui/test_session_browser.py; here the page's side, with the
browser's reports set by hand as BokehJS would set them."""

from __future__ import annotations

import json

import pytest

from tests.ui.test_store import play
from wargame.saves import to_save
from wargame.ui.keeper import KEY_PREFIX, GameKeeper, keeper_for


def memoir(lang: str = "en"):
    from wargame.ui.memoir import MemoirDashboard

    return MemoirDashboard("1", 44, lang=lang)


def browser_reports(keeper: GameKeeper, found: str | None) -> None:
    keeper.browser.found = found
    keeper.browser.checked = True


def test_every_change_is_kept_once_the_browser_has_reported():
    dash = memoir()
    keeper = GameKeeper(dash.store)
    assert keeper.browser.key == KEY_PREFIX + "memoir44-1"
    play(dash.store, 2)
    assert keeper.browser.saved == ""  # the browser has not said what it holds yet
    browser_reports(keeper, None)
    kept = json.loads(keeper.browser.saved)
    assert kept == json.loads(json.dumps(to_save(dash.store.state)))
    assert kept["seed"] == 44 and len(kept["actions"]) == 2
    play(dash.store, 3)
    assert len(json.loads(keeper.browser.saved)["actions"]) == 5
    assert not keeper.offer.visible


def test_a_kept_game_is_offered_and_continued_in_the_pages_language():
    first = memoir()
    play(first.store, 6)
    kept = GameKeeper(first.store).kept_text()
    fp = first.store.state.fingerprint()
    dash = memoir("pt")  # a reload, or a new session after a server restart
    keeper = GameKeeper(dash.store)
    browser_reports(keeper, kept)
    assert keeper.offer.visible and keeper.deciding
    assert "(6 ações)" in keeper.text.object and keeper.go.label == "Continuar a partida"
    play(dash.store, 1)
    assert keeper.browser.saved == ""  # undecided: the kept game is not overwritten
    assert keeper.continue_kept()
    assert dash.store.state.fingerprint() == fp and not keeper.offer.visible
    assert json.loads(keeper.browser.saved) == json.loads(kept)


def test_start_afresh_sets_the_kept_game_aside():
    first = memoir()
    play(first.store, 4)
    dash = memoir()
    keeper = GameKeeper(dash.store)
    browser_reports(keeper, GameKeeper(first.store).kept_text())
    keeper.discard_kept()
    assert not keeper.offer.visible and dash.store.state.action_log == []
    assert json.loads(keeper.browser.saved)["actions"] == []
    assert "new game" in dash.store.message


@pytest.mark.parametrize("found", ["", "{broken", "[1, 2]", '{"actions": "x"}', "x" * 10_000,
                                   json.dumps({"format": "wargame-save", "actions": []})])
def test_what_the_browser_sends_is_untrusted_and_nothing_is_offered(found):
    dash = memoir()
    keeper = GameKeeper(dash.store)
    browser_reports(keeper, found)
    assert not keeper.offer.visible and not keeper.deciding
    assert json.loads(keeper.browser.saved)["actions"] == []  # the page's game is kept


def test_a_kept_game_that_does_not_load_is_only_a_message():
    first = memoir()
    play(first.store, 3)
    data = json.loads(GameKeeper(first.store).kept_text())
    data["fingerprint"] = {"tampered": True}
    dash = memoir()
    keeper = GameKeeper(dash.store)
    browser_reports(keeper, json.dumps(data))
    assert keeper.offer.visible
    assert not keeper.continue_kept()
    assert dash.store.error and dash.store.state.action_log == []
    assert json.loads(keeper.browser.saved)["actions"] == []


def test_a_full_browser_storage_is_said_once():
    dash = memoir()
    keeper = GameKeeper(dash.store)
    browser_reports(keeper, None)
    keeper.browser.full = True
    assert dash.store.error and "no room left" in dash.store.message
    dash.store.say("x")
    keeper.browser.full = False
    keeper.browser.full = True
    assert dash.store.message == "x"


def test_only_the_games_owner_keeps_it_in_its_browser():
    from wargame.rooms import RoomManager
    from wargame.ui.room_page import seat_page_parts
    from wargame.ui.serve import room_game

    assert keeper_for(memoir()) is not None
    from wargame.ui.campaign import CampaignDashboard

    assert keeper_for(CampaignDashboard("demo", seed=2)) is not None
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder, \
            RoomManager(Path(folder) / "r.sqlite", games=room_game) as m:
        room = m.create("memoir44-1", seed=5)
        for name in ("allied", "axis", "teacher"):
            page, store = seat_page_parts(room, room.seats[name], "en")
            assert keeper_for(page) is None and keeper_for(type("P", (), {"store": store})) is None
