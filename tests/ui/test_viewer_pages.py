"""Every room page made for its viewer (issue #27), checked on what each page sends to its
browser (``page_frames``: the Bokeh document and every later change of it): Normandy, Dragoon
and Memoir '44 rooms with the Allied seat in Portuguese, the Axis seat in English and the
teacher in Portuguese, while both sides play a scripted stretch of the game (the other side's
live actions, combats with hidden values, Memoir hands).

- no page holds the seed;
- no page holds an event's text in the other language;
- no page holds a save or load control; a seat's and the teacher's Save is refused on the
  server whatever a page sends;
- the teacher's page holds no game control and, in Memoir, no card of a hand until the
  teacher's switch shows them (after which it does: the check can fail);
- the Axis page never holds an Allied card title that only the Allied hand held.
"""

from __future__ import annotations

import os
import re
import sys

import pytest

from tests.support.page_frames import PageFrames
from wargame.bots.play import make_policy
from wargame.errors import SeatRefused
from wargame.event_text import card_title, event_line
from wargame.games import open_game
from wargame.i18n import using_language
from wargame.memoir.cards import card
from wargame.operational.state import State as CampaignEngineState
from wargame.rooms import RoomManager
from wargame.ui.room_page import seat_page_parts
from wargame.ui.text import WORDS
from wargame.viewer import Viewer

SEED = 987654321
LANGS = {"allied": "pt", "axis": "en", "teacher": "pt"}


class RoomPages:
    """A room and the three pages of its seats, each following the room as a served page."""

    def __init__(self, tmp_path, game_id: str, steps: int, stop=None) -> None:
        self.manager = RoomManager(tmp_path / "rooms.sqlite", start_computers=False)
        self.room = room = self.manager.create(game_id, seed=SEED)
        self.pages, self.stores = {}, {}
        for name, lang in LANGS.items():
            room.set_language(name, lang)
            with using_language(lang):
                page, store = seat_page_parts(room, room.seats[name], lang)
            store.on_change = store.sync  # a served page syncs on the next tick
            self.pages[name], self.stores[name] = PageFrames(page), store
        self.hands_seen: dict[str, set[int]] = {}
        policy = make_policy(room.game, "greedy" if not game_id.startswith("memoir") else "easy",
                             SEED)
        for _ in range(steps):
            state = room.state()
            self._note_hands(state)
            if state.is_terminal or (stop is not None and stop(room)):
                break
            token = room.seat_of_side(state.side_to_act).token
            room.act(token, policy.choose(state), expected_version=room.version)
            if room.version % 10 == 0:
                for page in self.pages.values():
                    page.snapshot()
        for page in self.pages.values():
            page.snapshot()
        self._note_hands(room.state())

    def _note_hands(self, state) -> None:
        for side, cards in getattr(state, "hands", {}).items():
            self.hands_seen.setdefault(side, set()).update(cards)

    def close(self) -> None:
        for store in self.stores.values():
            store.close()
        self.manager.close()


def fought(room) -> bool:
    kinds = [e.kind for e in room.events()]
    return "roll" in kinds and kinds.count("attack") >= 3


UI_DIR = f"{os.sep}wargame{os.sep}ui{os.sep}"
SECRET_READS = ("attack_of", "defence_of")  # a counter's values: CN/OD 5.1.1


def reads_from_pages(cls, found: list[str], mp: pytest.MonkeyPatch) -> None:
    """Wrap ``cls``'s value accessors so that a call made directly by page code (a caller in
    ``wargame/ui``) is noted in ``found``: pages draw values from their view (issue #27)."""
    for name in SECRET_READS:
        original = getattr(cls, name)

        def wrapper(self, *args, _original=original, _name=name, **kwargs):
            caller = sys._getframe(1).f_code
            if UI_DIR in caller.co_filename:
                found.append(f"{_name} from {caller.co_filename}:{caller.co_name}")
            return _original(self, *args, **kwargs)

        mp.setattr(cls, name, wrapper)


@pytest.fixture(scope="module", params=["normandy", "dragoon", "memoir44-1"])
def played(request, tmp_path_factory):
    game_id = request.param
    steps = 90 if game_id.startswith("memoir") else 900
    with pytest.MonkeyPatch.context() as mp:
        found: list[str] = []
        reads_from_pages(CampaignEngineState, found, mp)
        pages = RoomPages(tmp_path_factory.mktemp(game_id), game_id, steps,
                          None if game_id.startswith("memoir") else fought)
        pages.secret_reads = found
        yield pages
    pages.close()


def test_pages_draw_counter_values_from_their_view_never_the_state(played):
    # every page of the scripted play was built and refreshed with the accessors watched
    assert played.secret_reads == []
    for store in played.stores.values():
        seen = store.seen
        assert "seed" not in seen and seen["viewer"]["role"] in ("player", "teacher")


def test_the_watch_on_page_reads_can_fail(tmp_path):
    found: list[str] = []
    probe = compile("def probe(state, uid):\n    return state.attack_of(uid)\n",
                    f"{os.sep}x{UI_DIR}probe.py", "exec")
    space: dict = {}
    exec(probe, space)
    with pytest.MonkeyPatch.context() as mp:
        reads_from_pages(CampaignEngineState, found, mp)
        state = open_game("normandy").new_state(SEED)
        uid = next(u for u, us in state.units.items() if us.status == "on_map")
        state.view(Viewer.player("allied"))  # the view's own reads are not page reads
        assert found == []
        space["probe"](state, uid)
    assert found and "attack_of" in found[0]


def test_a_pages_secrets_come_from_its_view(played):
    """The values a seat's page shows are exactly its view's: its own side's, never the
    other side's (CN/OD 5.1.1); a Memoir page's hands exactly the view's lists."""
    for name, store in played.stores.items():
        seen = store.seen
        if hasattr(store, "values_of"):
            state = store.state
            for uid, us in state.units.items():
                if us.status != "on_map":
                    continue
                shown = store.values_of(uid)
                if name == "teacher" or state.side_of(uid) == name:
                    assert shown == tuple(seen["values"][uid]), (name, uid)
                else:
                    assert shown is None and uid not in seen["values"], (name, uid)
        else:
            for side, cards in seen["hands"].items():
                assert [c for c, _t, _p in store.hand(side)] == (
                    cards if isinstance(cards, list) else []), (name, side)


def test_the_scripted_play_reached_combat(played):
    kinds = {e.kind for e in played.room.events()}
    assert {"attack", "roll"} <= kinds or {"battle"} <= kinds or "dice" in kinds, kinds
    assert played.room.version >= 10


def test_no_page_holds_the_seed(played):
    for name, page in played.pages.items():
        assert not page.holds(str(SEED)), name
        assert not page.holds("semente") and not page.holds("Seed "), name


def test_each_page_reads_the_events_in_its_own_language(played):
    events = played.room.events()
    assert events
    for name, lang in LANGS.items():
        other = "en" if lang == "pt" else "pt"
        viewer = played.stores[name].as_viewer()
        state = played.stores[name].state  # places and Memoir units named from it (issue #28)
        page = played.pages[name]
        checked = 0
        for e in events:
            with using_language(lang):
                mine = event_line(e, viewer, state)
            with using_language(other):
                theirs = event_line(e, viewer, state)
            if mine != theirs and len(theirs) > 12:
                assert not page.holds(theirs), (name, theirs)
                checked += 1
        assert checked, name  # the languages differ on some event: the check can fail
        # the latest events are on the page, in its language (the log or the message)
        with using_language(lang):
            assert page.holds(event_line(events[-1], viewer, state)), name


def holds_widget(page: PageFrames, kind: str) -> bool:
    """Whether the page holds a widget of ``kind`` (an object of that model, Panel's or
    panel_material_ui's data model): not merely the model's definition, which Bokeh sends for
    every data model the process has defined (issue #31's Load button is panel_material_ui's)."""
    pattern = (rf'"type":"object","name":"(?:panel\.models\.widgets\.)?{kind}\d*"'
               rf'|"class_name":"{kind}"')
    return re.search(pattern, "\n".join(page.frames)) is not None


def test_the_widget_check_can_fail():
    from wargame.ui.memoir import MemoirDashboard

    solo = PageFrames(MemoirDashboard("1", 44))
    assert holds_widget(solo, "FileDownload") and holds_widget(solo, "FileInput")


def test_room_pages_hold_no_save_or_load_and_refuse_a_save(played):
    for name, page in played.pages.items():
        assert not holds_widget(page, "FileDownload"), name
        assert not holds_widget(page, "FileInput"), name
        assert not page.holds("-save.json"), name
        with pytest.raises(SeatRefused):
            played.stores[name].save_text()  # what a Save message from this page would run
    assert played.room.save_text()  # the room's own record exists (the teachers' export)


def button_labels(page: PageFrames) -> set[str]:
    return set(re.findall(r'"name":"panel\.models\.widgets\.Button".*?"label":"([^"]*)"',
                          "\n".join(page.frames)))


def test_the_teachers_page_holds_no_game_control(played):
    teacher = played.pages["teacher"]
    for control in ("FileDownload", "FileInput"):
        assert not holds_widget(teacher, control), control
    assert not teacher.holds('"Select"')
    with using_language("pt"):
        deselect = WORDS["deselect"]
    assert button_labels(teacher) <= {deselect}  # only letting go of a selected counter
    seat = played.pages["allied"]
    assert button_labels(seat) - {deselect}  # a seat does hold its controls


def test_memoir_hands_reach_only_their_side_and_the_teacher_when_shown(played):
    state = played.room.state()
    if not hasattr(state, "hands"):
        pytest.skip("a campaign has no hands")
    allied, axis = state.game.sides
    played_cards = {a["card"] for a in played.room.actions()
                    if a.get("kind") == "play" and "card" in a}
    only_allied = played.hands_seen[allied] - played.hands_seen[axis] - played_cards
    assert only_allied
    with using_language("en"):
        secret = {card_title(card(c)) for c in only_allied}
    with using_language("pt"):
        secret_pt = {card_title(card(c)) for c in only_allied}
    # titles shared by a card the Axis may have seen are not secrets
    with using_language("en"):
        public = {card_title(card(c)) for c in played.hands_seen[axis] | played_cards}
    secret -= public
    assert secret
    for title in secret:
        assert not played.pages["axis"].holds(title), title
    with using_language("pt"):
        public_pt = {card_title(card(c)) for c in played.hands_seen[axis] | played_cards}
    teacher, store = played.pages["teacher"], played.stores["teacher"]
    for title in secret_pt - public_pt:
        assert not teacher.holds(title), title
    with using_language("pt"):
        now_pt = {card_title(card(c)) for c in state.hands[allied]} - public_pt
    store.reveal(True)  # the teacher's switch
    teacher.snapshot()
    assert now_pt and all(teacher.holds(t) for t in now_pt)


def test_page_code_reads_no_hidden_part_of_the_state_by_name():
    """A source check beside the watched run above: in ``wargame/ui`` the hands, the deck and
    a counter's values are read only from a view (``store.seen``), except the one describer
    that also writes the server's own texts (given no view's values, issue #27)."""
    allowed = {"describe.py": 2}  # describe_option without ``values``: the server's words
    pattern = re.compile(r"\.(?:hands|deck)\b(?!\s*=)|\b(?:attack_of|defence_of)\(")
    ui = os.path.join(os.path.dirname(open_game.__code__.co_filename), "ui")
    counts = {}
    for name in sorted(os.listdir(ui)):
        if name.endswith(".py"):
            with open(os.path.join(ui, name), encoding="utf-8") as f:
                n = len(pattern.findall(f.read()))
            if n:
                counts[name] = n
    assert counts == allowed
