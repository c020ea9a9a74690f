"""What each room page's browser receives (issue #27), in Debian chromium: a Normandy room, a
Dragoon room and a Memoir '44 room served in this process, the Allied seat's page in Portuguese, the Axis
seat's in English and the teacher's in Portuguese, open at once, while the game is played on
the room by seeded computer players (the room's own ``act``, as a seat's click would).

Every websocket frame and HTML response of each page is kept, and then:
- no page's traffic holds the seed;
- a seat's traffic holds no event line rendered in the other language;
- the Axis page's traffic holds no value of an Allied counter that no Axis counter shares
  (CN/OD 5.1.1), while the Allied page's does (so the check can fail); in Memoir, no title of
  a card only the Allied hand held (M44 set-up step 10), while the Allied page's does;
- the teacher's page draws no game control, and in Memoir no hand's card until the teacher's
  switch is pressed in the page (after which they arrive: this check can fail too).
"""

from __future__ import annotations

import html
import json
import re
import time

import pytest

from wargame.bots.play import make_policy
from wargame.event_text import card_title, event_line
from wargame.i18n import using_language
from wargame.memoir.cards import card
from wargame.rooms import RoomManager
from wargame.viewer import Viewer

pytestmark = pytest.mark.browser

SEED = 864213579
KEY = "frames-teacher-key"
LANGS = {"allied": "pt", "axis": "en", "teacher": "pt"}


@pytest.fixture(scope="module")
def served(tmp_path_factory, chromium_path):
    import panel as pn

    from tests.support.browser import free_port
    from wargame.ui.serve import component_routes, rooms_apps

    manager = RoomManager(tmp_path_factory.mktemp("frames") / "rooms.sqlite",
                          start_computers=False)
    port = free_port()
    server = pn.serve(rooms_apps(manager, KEY, "en"), port=port, address="127.0.0.1",
                      websocket_origin=[f"127.0.0.1:{port}"], show=False, threaded=True,
                      extra_patterns=component_routes(), verbose=False)
    deadline = time.time() + 30
    while not getattr(server, "server", None) and time.time() < deadline:
        time.sleep(0.1)
    yield manager, f"http://127.0.0.1:{port}/"
    server.stop()
    manager.close()


def open_pages(browser, base: str, room) -> tuple[dict, dict, list]:
    pages, frames, contexts = {}, {}, []
    for name, lang in LANGS.items():
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        contexts.append(context)
        page = context.new_page()
        got: list[str] = []

        def on_ws(ws, got=got) -> None:
            ws.on("framereceived", lambda payload, got=got: got.append(
                payload if isinstance(payload, str) else payload.decode("utf-8", "replace")))

        def on_response(response, got=got) -> None:
            try:
                if "text/html" in (response.headers.get("content-type") or ""):
                    got.append(response.text())
            except Exception:  # noqa: BLE001 - a response gone with its page
                pass

        page.on("websocket", on_ws)
        page.on("response", on_response)
        page.goto(f"{base}room?seat={room.seats[name].token}&lang={lang}")
        page.locator(".wg-seat-header").first.wait_for(timeout=90000)
        pages[name], frames[name] = page, got
    return pages, frames, contexts


def play(room, steps: int, policy_name: str) -> None:
    policy = make_policy(room.game, policy_name, SEED)
    for _ in range(steps):
        state = room.state()
        if state.is_terminal:
            break
        token = room.seat_of_side(state.side_to_act).token
        room.act(token, policy.choose(state), expected_version=room.version)


def wait_synced(page, version: int) -> None:
    page.locator(f".wg-seat-header[data-version='{version}']").first.wait_for(timeout=60000)


def other_language_lines(room, name: str) -> list[str]:
    viewer = Viewer.player(name, LANGS[name]) if name != "teacher" else Viewer.teacher("pt")
    other = "en" if LANGS[name] == "pt" else "pt"
    out = []
    for e in room.events():
        with using_language(LANGS[name]):
            mine = event_line(e, viewer)
        with using_language(other):
            theirs = event_line(e, viewer)
        if mine != theirs and len(theirs) > 12:
            out.append(theirs)
    return out


def common_checks(room, frames: dict[str, list[str]]) -> None:
    for name, got in frames.items():
        text = "\n".join(got)
        assert len(got) > 5, name
        assert str(SEED) not in text, name  # the seed never leaves the server
        theirs = other_language_lines(room, name)
        if name != "teacher":
            assert theirs, name  # the languages differ on some event: the check can fail
            assert [t for t in theirs if holds(text, t)] == [], name


def holds(text: str, words: str) -> bool:
    """``words`` in a page's traffic: as they are, JSON-escaped (a Bokeh message writes
    "Avan\\u00e7o") or HTML-escaped (an HTML pane's text)."""
    return any(form in text for form in
               {words, json.dumps(words)[1:-1], html.escape(words), html.escape(words, False)})


def button_labels(text: str) -> set[str]:
    return set(re.findall(r'"name":"panel\.models\.widgets\.Button".*?"label":"([^"]*)"', text))


@pytest.mark.parametrize("game_id", ["normandy", "dragoon"])
def test_campaign_room_pages_receive_only_what_their_viewer_may_know(served, wg_browser,
                                                                     game_id):
    manager, base = served
    room = manager.create(game_id, seed=SEED)
    pages, frames, contexts = open_pages(wg_browser, base, room)
    try:
        state = room.state()
        allied_values = {f"{state.attack_of(u)}-{state.defence_of(u)}-"
                         f"{room.game.units[u].movement}"
                         for u, us in state.units.items()
                         if us.status == "on_map" and state.side_of(u) == "allied"}
        play(room, 120, "greedy")
        for name in LANGS:
            wait_synced(pages[name], room.version)
        pages["teacher"].wait_for_timeout(1000)  # playwright delivers frames while it waits
        state = room.state()
        axis_values = {f"{state.attack_of(u)}-{state.defence_of(u)}-"
                       f"{room.game.units[u].movement}" for u in state.units
                       if state.side_of(u) == "axis"}
        secret = allied_values - axis_values
        assert secret
        common_checks(room, frames)
        axis_text = "\n".join(frames["axis"])
        pattern = "|".join(re.escape(v) for v in secret)
        assert re.findall(rf"(?<![\d-])(?:{pattern})(?![\d-])", axis_text) == []
        assert any(v in "\n".join(frames["allied"]) for v in secret)
        teacher = "\n".join(frames["teacher"])
        with using_language("pt"):
            from wargame.ui.text import WORDS

            deselect = WORDS["deselect"]
        assert button_labels(teacher) <= {deselect}
        assert button_labels("\n".join(frames["allied"])) - {deselect}
    finally:
        for context in contexts:
            context.close()


def test_memoir_room_pages_and_the_teachers_hands(served, wg_browser):
    manager, base = served
    room = manager.create("memoir44-1", seed=SEED)
    pages, frames, contexts = open_pages(wg_browser, base, room)
    try:
        seen: dict[str, set[int]] = {}
        policy = make_policy(room.game, "easy", SEED)
        for _ in range(40):
            state = room.state()
            for side, cards in state.hands.items():
                seen.setdefault(side, set()).update(cards)
            if state.is_terminal:
                break
            token = room.seat_of_side(state.side_to_act).token
            room.act(token, policy.choose(state), expected_version=room.version)
        for name in LANGS:
            wait_synced(pages[name], room.version)
        pages["teacher"].wait_for_timeout(1000)  # playwright delivers frames while it waits
        state = room.state()
        allied, axis = state.game.sides
        played = {a["card"] for a in room.actions() if a.get("kind") == "play" and "card" in a}
        titles = {}
        for lang in ("en", "pt"):
            with using_language(lang):
                public = {card_title(card(c)) for c in seen[axis] | played}
                titles[lang] = {card_title(card(c)) for c in seen[allied]} - public
        assert titles["en"] and titles["pt"]
        common_checks(room, frames)
        axis_text = "\n".join(frames["axis"])
        assert [t for t in titles["en"] if holds(axis_text, t)] == []
        assert any(holds("\n".join(frames["allied"]), t) for t in titles["pt"])
        # the teacher: no card of a hand until the switch, then the hands held now
        with using_language("pt"):
            held = {card_title(card(c)) for side in state.hands for c in state.hands[side]}
            from wargame.ui.text import UI, WORDS

            show, deselect = UI["show_hands"], WORDS["deselect"]
        teacher_text = "\n".join(frames["teacher"])
        assert [t for t in held if holds(teacher_text, t) and t in titles["pt"]] == []
        assert button_labels(teacher_text) <= {deselect}
        before = len(frames["teacher"])
        pages["teacher"].get_by_role("button", name=show).click()
        deadline = time.time() + 30
        while time.time() < deadline and not any(
                holds("\n".join(frames["teacher"][before:]), t) for t in held):
            pages["teacher"].wait_for_timeout(300)
        assert any(holds("\n".join(frames["teacher"][before:]), t) for t in held)
    finally:
        for context in contexts:
            context.close()
