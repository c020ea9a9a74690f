"""Rooms in a real browser (issue #14): ``wargame serve --rooms <tmp>.sqlite`` and two (or
three) playwright contexts, one per seat (Debian chromium).

(a) a Memoir '44 scenario (Toulon, memoir44-10, seed 11) played to a result between the two
    seats' pages: each action is chosen by a seeded random player on a local copy of the game
    (``random_action``, 51 actions to a sudden-death win) and sent by a click in the acting
    seat's page (card buttons, hexes, the end-phase button, the pending buttons);
(b) a Normandy turn between two seats: an Allied move, the attack on 2010, the defence
    declaration answered in the Axis (defender's) page, the loss answered in the Allied page;
(c) the Axis page's websocket frames (and its HTML) never hold an Allied card title that only
    the Allied hand held (Memoir) nor the values of an Allied unit (Normandy, CN 5.1.1), while
    the Allied page's frames do (so the check can fail);
(d) the seat's page that is not to act shows no end button (issue #27), version unchanged;
(e) the server killed with SIGKILL mid-game and started again on the same file: the reloaded
    teacher page shows the same position fingerprint and version, the seats play on.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.browser import click_hex, wait_for_map
from wargame.games import open_game
from wargame.hexgrid import Hex
from wargame.memoir import LAYOUT, card
from wargame.ui.memoir import display_hex
from wargame.ui.model import CampaignState
from wargame.ui.room_page import fingerprint_digest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
KEY = "test-teacher-key"
M44_MAP = "memoir-map"
# a short random game to a result: 95 actions with the rules of issue 17 (Toulon's sudden death
# now needs 3 town hexes, so its old 51-action game runs to 354); found by searching seeds.
# With dice version 2 (issue 30) seeds 24/32 play 274 actions; 55/2 plays 114 (the shortest of
# game seeds 0-79 x policy seeds 0-11), the Axis wins, and the Allies hold cards the Axis never
# sees (Dig-In, Direct from HQ), as (c) below needs
M44_GAME, M44_SEED, M44_POLICY_SEED = "memoir44-7", 55, 2


class RoomsServer:
    """``wargame serve --rooms DB`` in a subprocess that can be killed and started again."""

    def __init__(self, db: Path, port: int) -> None:
        self.db, self.port = db, port
        self.proc: subprocess.Popen | None = None
        self.url = f"http://127.0.0.1:{port}/"

    def start(self) -> None:
        cmd = [sys.executable, "-c", "import sys; from wargame.cli import main; "
               "sys.exit(main(sys.argv[1:]))", "serve", "--rooms", str(self.db), "--port",
               str(self.port), "--no-show", "--teacher-key", KEY]
        ARTIFACTS.mkdir(exist_ok=True)
        log = open(ARTIFACTS / f"rooms-serve-{self.port}.log", "a")  # noqa: SIM115
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                     env={**os.environ})
        deadline = time.time() + 90
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"wargame serve --rooms exited; see {log.name}")
            try:
                with urllib.request.urlopen(self.url, timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError("wargame serve --rooms did not answer within 90 s")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture(scope="module")
def rooms_server(chromium_path, tmp_path_factory):
    from tests.support.browser import free_port

    server = RoomsServer(tmp_path_factory.mktemp("rooms") / "rooms.sqlite", free_port())
    server.start()
    yield server
    server.stop()


def new_page(browser, frames: list | None = None):
    context = browser.new_context(viewport={"width": 1500, "height": 1100},
                                  accept_downloads=True)
    page = context.new_page()
    if frames is not None:
        def on_ws(ws) -> None:
            ws.on("framereceived", lambda payload: frames.append(
                payload if isinstance(payload, str) else payload.decode("utf-8", "replace")))
        page.on("websocket", on_ws)

        def on_response(response) -> None:
            with contextlib.suppress(Exception):
                if "text/html" in (response.headers.get("content-type") or ""):
                    frames.append(response.text())
        page.on("response", on_response)
    return context, page


def expert_words(page) -> None:
    """Switch a room page to expert words (issue #28: a room opens in student words, where
    the teacher's page shows no position fingerprint)."""
    page.locator(".wg-expert-switch").first.click()
    page.locator(".wg-fingerprint").first.wait_for()


def create_room(page, server: RoomsServer, game_id: str, seed: int) -> dict[str, str]:
    """Create a room on the landing page; returns seat name -> link (and 'code')."""
    from wargame.ui.rooms import room_games

    label = next(k for k, v in room_games().items() if v == game_id)
    page.goto(server.url)
    page.locator("select").first.wait_for()
    page.locator("select").first.select_option(label=label)
    seed_box = page.get_by_placeholder("random")
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    page.get_by_role("button", name="Create the room").click()
    page.locator(".wg-room-code").wait_for()
    links = {}
    for name in ("allied", "axis", "teacher"):
        href = page.locator(f"a.wg-seat-link[data-seat='{name}']").get_attribute("href")
        links[name] = href if href.startswith("http") else server.url + href
    links["code"] = page.locator(".wg-room").get_attribute("data-code")
    return links


def version_of(page) -> int:
    return int(page.locator(".wg-seat-header").get_attribute("data-version"))


def wait_version(page, n: int, timeout: float = 20000) -> None:
    page.locator(f".wg-seat-header[data-version='{n}']").wait_for(timeout=timeout)


# ---------------------------------------------------------------------- Memoir '44
def _button(page, label: str, nth: int = 0):
    return page.get_by_role("button", name=label, exact=True).nth(nth)


def m44_click_action(page, state, action) -> None:
    """Send ``action`` by the clicks a player would make in the seat's page."""
    kind = action.kind
    if state.pending or state.phase == "medics":
        from wargame.ui.describe import describe_action

        _button(page, describe_action(state, action)).click()  # the buttons' words
        return
    if kind == "play":
        label = card(action.card).title + (
            f" as {action.option.replace('_', ' ')}" if action.option else "")
        same = [c for c in state.hands[state.active]
                if card(c).title == card(action.card).title]
        _button(page, label, same.index(action.card)).click()
        return
    if kind in ("end_orders", "end_moves", "end_battles", "air_strike"):
        page.locator("button").filter(has_text=re.compile(
            r"^(Done ordering|Done moving|End battles \(draw a card\)|Done)$")).first.click()
        return
    if kind in ("order", "medics"):
        click_hex(page, display_hex(state.units[action.unit].hex), LAYOUT, M44_MAP)
        return
    if kind in ("move", "battle"):
        click_hex(page, display_hex(state.units[action.unit].hex), LAYOUT, M44_MAP)
        page.locator(".m44-message").filter(has_text=f"Selected unit {action.unit}").wait_for()
        click_hex(page, display_hex(action.hex), LAYOUT, M44_MAP)
        return
    click_hex(page, display_hex(action.hex), LAYOUT, M44_MAP)  # retreat, take ground...


def _where(h) -> str:
    from wargame.ui.memoir_model import where

    return where(h)


def test_memoir_game_between_two_seats(rooms_server, wg_browser):
    from wargame.bots.memoir_random import random_action

    axis_frames: list[str] = []
    allied_frames: list[str] = []
    teacher_ctx, teacher = new_page(wg_browser)
    links = create_room(teacher, rooms_server, M44_GAME, M44_SEED)
    allied_ctx, allied = new_page(wg_browser, allied_frames)
    axis_ctx, axis = new_page(wg_browser, axis_frames)
    pages = {"allied": allied, "axis": axis}
    try:
        for side, page in pages.items():
            page.goto(links["allied" if side == "allied" else "axis"])
            wait_for_map(page, M44_MAP)
        teacher.goto(links["teacher"])
        wait_for_map(teacher, M44_MAP)
        expert_words(teacher)

        mirror = open_game(M44_GAME).new_state(M44_SEED)
        rng = random.Random(M44_POLICY_SEED)
        allied_only: set[str] = set()
        axis_titles: set[str] = set()
        refused = False
        n = 0
        while not mirror.is_terminal:
            allied_only |= {card(c).title for c in mirror.hands["allied"]}
            axis_titles |= {card(c).title for c in mirror.hands["axis"]}
            side = mirror.side_to_act
            other = pages["axis" if side == "allied" else "allied"]
            if not refused and mirror.phase == "order" and not mirror.pending:
                # (d) the seat not to act has no end button to press (issue #27)
                assert not other.locator("button").filter(has_text="Done ordering").first\
                    .is_visible()
                assert pages[side].locator("button").filter(has_text="Done ordering").first\
                    .is_visible()
                assert version_of(teacher) == n
                refused = True
            action = random_action(mirror, rng)
            m44_click_action(pages[side], mirror, action)
            mirror.apply(action)
            n += 1
            wait_version(pages[side], n)
            wait_version(other, n)  # the other seat follows
        assert refused
        wait_version(teacher, n)
        teacher.locator(".wg-fingerprint").filter(
            has_text=fingerprint_digest(mirror)).first.wait_for()
        winner = mirror.outcome().winner
        for page in (allied, axis, teacher):
            page.locator(".m44-status").filter(has_text=f"{winner} wins").wait_for()
            page.locator(".wg-seat-header").filter(has_text="over").wait_for()
        # (c) no card the Allies alone held reaches the Axis page (and it does reach theirs)
        played = {card(a["card"]).title for a in mirror.action_log
                  if a.get("kind") == "play" and a.get("card") is not None}
        secret = allied_only - axis_titles - played
        assert secret
        axis_text = "\n".join(axis_frames)
        assert len(axis_frames) > 20
        assert [t for t in secret if t in axis_text] == []
        allied_text = "\n".join(allied_frames)
        assert any(t in allied_text for t in secret)
        ARTIFACTS.mkdir(exist_ok=True)
        teacher.screenshot(path=str(ARTIFACTS / "rooms-memoir-teacher.png"), full_page=True)
    finally:
        for ctx in (teacher_ctx, allied_ctx, axis_ctx):
            ctx.close()


# ---------------------------------------------------------------------- Normandy
def _values(m: CampaignState, uid: str) -> str:
    s = m.s
    return f"{s.attack_of(uid)}-{s.defence_of(uid)}-{m.game.units[uid].movement}"


def _allied_secrets(m: CampaignState) -> set[str]:
    """Values strings of Allied units on the map that no Axis unit shares."""
    s = m.s
    axis = {_values(m, u) for u in s.units if s.side_of(u) == "axis"}
    return {_values(m, u) for u, us in s.units.items()
            if s.side_of(u) == "allied" and us.status == "on_map"} - axis


def _confirm_decision(page) -> None:
    page.locator(".wg-decision").wait_for()
    page.get_by_role("button", name="Confirm").click()


def test_normandy_turn_between_two_seats_then_sigkill_and_resume(rooms_server, wg_browser):
    axis_frames: list[str] = []
    allied_frames: list[str] = []
    teacher_ctx, teacher = new_page(wg_browser)
    links = create_room(teacher, rooms_server, "normandy", 1944)
    allied_ctx, allied = new_page(wg_browser, allied_frames)
    axis_ctx, axis = new_page(wg_browser, axis_frames)
    try:
        allied.goto(links["allied"])
        axis.goto(links["axis"])
        teacher.goto(links["teacher"])
        for page in (allied, axis, teacher):
            wait_for_map(page)
        expert_words(teacher)
        mirror = CampaignState("normandy", seed=1944)  # the same commands, hot-seat
        secrets_before = _allied_secrets(mirror)

        # (d) the Axis seat has no End phase in the Allied movement phase (issue #27), and
        # a click on an Allied counter there only selects: nothing is played
        allied.get_by_role("button", name="End phase").wait_for()
        assert axis.get_by_role("button", name="End phase").count() == 0
        assert version_of(teacher) == 0

        # an Allied move (a unit that is not in the 2010 attack)
        s = mirror.s
        attackers = set(s.eligible_attackers("allied", Hex.from_id("2010")))
        uid = None
        for _h, here in sorted(s.occupancy().items(), key=lambda kv: kv[0].id):
            own = [u for u in here if s.side_of(u) == "allied"]
            if own and own == here and not set(own) & attackers and s.legal_destinations(own[0]):
                uid = own[0]
                break
        assert uid is not None
        start = s.units[uid].hex.id
        mirror.select_hex(start)  # the first of the stack: one click selects it
        assert mirror.selected_unit == uid
        dest = sorted(h.id for h in mirror.reachable())[0]
        click_hex(allied, start)
        allied.locator(".wg-message").filter(has_text="Selected").wait_for()
        click_hex(allied, dest)
        mirror.select_hex(dest)
        assert mirror.s.units[uid].hex.id == dest
        wait_version(axis, 1)
        allied.get_by_role("button", name="End phase").click()
        mirror.end_phase()
        wait_version(axis, 2)

        # the attack on 2010 with every eligible unit
        click_hex(allied, "2010")
        allied.get_by_role("button", name="Roll the attack").wait_for()
        allied.get_by_role("button", name="Roll the attack").click()
        mirror.select_hex("2010")
        mirror.declare_attack()
        assert mirror.s.pending is not None and mirror.s.pending.side == "axis"
        wait_version(axis, 3)
        # the defence declaration in the defender's page; the Allied page only waits
        wait_version(allied, 3)
        allied.locator(".wg-decision").wait_for()
        assert not allied.get_by_role("button", name="Confirm").is_visible()
        _confirm_decision(axis)
        mirror.answer(0)
        while mirror.s.pending is not None:  # losses, retreats: in the owner's page
            owner = allied if mirror.s.pending.side == "allied" else axis
            wait_version(owner, len(mirror.s.action_log))
            _confirm_decision(owner)
            mirror.answer(0)
        n = len(mirror.s.action_log)
        for page in (allied, axis, teacher):
            wait_version(page, n)
        digest = fingerprint_digest(mirror.s)
        teacher.locator(".wg-fingerprint").filter(has_text=digest).wait_for()

        # (c) no Allied values in the Axis page's traffic; they are in the Allied page's
        axis_text = "\n".join(axis_frames)
        leaked = [v for v in secrets_before if re.search(rf"(?<![\d-]){re.escape(v)}(?![\d-])",
                                                         axis_text)]
        assert leaked == []
        assert any(v in "\n".join(allied_frames) for v in secrets_before)

        # (e) SIGKILL mid-game, start again on the same file: same position, same links
        rooms_server.kill()
        rooms_server.start()
        for page in (allied, axis, teacher):
            page.goto(page.url)
            wait_for_map(page)
            wait_version(page, n)
        expert_words(teacher)  # a reloaded page opens in student words again
        teacher.locator(".wg-fingerprint").filter(has_text=digest).wait_for()
        # and the game goes on: the engaged Canadians must attack 2709 (CN 4.1.2)
        click_hex(allied, "2709")
        allied.get_by_role("button", name="Roll the attack").click()
        mirror.select_hex("2709")
        mirror.declare_attack()
        assert len(mirror.s.action_log) == n + 1
        wait_version(axis, n + 1)
        teacher.locator(".wg-fingerprint").filter(
            has_text=fingerprint_digest(mirror.s)).wait_for()
    finally:
        for ctx in (teacher_ctx, allied_ctx, axis_ctx):
            ctx.close()


def test_unknown_seat_link_and_teacher_page_key(rooms_server, wg_page):
    wg_page.goto(rooms_server.url + "room?seat=" + "z" * 300)
    wg_page.locator(".wg-unknown-seat").wait_for()
    assert "zzzzzzzz" not in wg_page.content()
    wg_page.goto(rooms_server.url + "teacher?key=wrong")
    wg_page.locator(".wg-unknown-seat").wait_for()
    wg_page.goto(rooms_server.url + f"teacher?key={KEY}")
    wg_page.locator(".wg-room-list").wait_for()


def test_two_seats_of_one_room_in_two_languages(rooms_server, wg_browser):
    """Issue #16: the Allied seat's link opened with ``&lang=pt`` shows the page in Portuguese
    while the Axis seat's page, at the same time, is English; the same game in both; the
    Allied page's language switch brings it back to English; the landing page's ``?lang=pt``
    is Portuguese."""
    ctx_a, allied = new_page(wg_browser)
    ctx_x, axis = new_page(wg_browser)
    try:
        links = create_room(axis, rooms_server, "memoir44-1", 5)
        allied.goto(links["allied"] + "&lang=pt")
        axis.goto(links["axis"])
        for page in (allied, axis):
            page.locator(".wg-seat-header").wait_for(timeout=60000)
        a_head = allied.locator(".wg-seat-header").inner_text()
        x_head = axis.locator(".wg-seat-header").inner_text()
        assert f"Sala {links['code']}: Lugar dos Aliados." in a_head, a_head
        assert f"Room {links['code']}: Axis seat." in x_head, x_head
        assert "Língua:" in allied.locator(".wg-lang-switch").inner_text()
        assert "Language:" in axis.locator(".wg-lang-switch").inner_text()
        allied.get_by_role("button", name="Resposta automática").wait_for()
        # the Axis page waits for the Allies: no control to press (issue #27), and it says so
        assert axis.get_by_role("button", name="Auto-answer").count() == 0
        assert "Waiting for the Allies" in x_head, x_head
        assert allied.get_by_role("button", name="Auto-answer").count() == 0
        assert version_of(allied) == version_of(axis) == 0
        allied.locator(".wg-lang-switch a[data-lang='en']").click()
        allied.locator(".wg-seat-header", has_text="Allied seat").wait_for(timeout=60000)
        allied.goto(rooms_server.url + "?lang=pt")
        allied.get_by_role("button", name="Criar a sala").wait_for(timeout=60000)
    finally:
        ctx_a.close()
        ctx_x.close()
