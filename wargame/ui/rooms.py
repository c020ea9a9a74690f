"""The rooms' pages (``wargame serve --rooms PATH.sqlite``; docs/rooms-seats.md), Panel views over one
``wargame.rooms.RoomManager``:

- ``landing_page`` (``/``): create a room (any game of the catalogue, Memoir '44 scenarios
  included; Battle for Normandy variants for the campaigns; an optional seed; which seats the
  computer holds), then the seat links (Allied, Axis, Teacher) to copy and the room code; "join
  with a code" shows the room's two player-seat links. The code is a convenience, not a lock:
  whoever has it may take either side's link, as whoever sits at a table may take either
  side's cards. The teacher gives each team its own link; the code helps a team that lost it.
- ``teacher_page`` (``/teacher?key=<key>``): every room of the server: open (the teacher's
  link), replay move by move (``Room.state_at``), export the save file, delete (after a
  confirmation); and a class's rooms at once ("6 rooms of Normandy, seats in Portuguese"),
  each shown with its code and, per player seat, its link, a QR code (segno, inline SVG) and
  a copy button (issue #29). The key keeps students out of the list (it holds every seat's
  link); wrong keys are counted per client address (``KeyGuard``).

Seat links are relative to the page (``room?seat=<token>``), so they work behind Binder's and
JupyterHub's proxies; the copyable full address is the browser's own (``pn.state.location``).

Languages (issue #16): every page is built, and every command of it runs, in its language
(``wargame.i18n.using_language``): the landing and teacher pages in ``?lang=`` of their URL,
else the server's (``wargame serve --lang``); the landing page's "Language of the seat pages"
is stored with the room as each seat's language, which each seat may change on its own page
(``wargame.ui.room_page``).
"""

from __future__ import annotations

import html
import io
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import panel as pn
import param

from wargame.i18n import LANGUAGES, check_language, language, using_language
from wargame.scenario_errors import ScenarioError
from wargame.ui.room_page import LANGUAGE_NAMES, language_switch
from wargame.ui.text import ROOMS, player_word

__all__ = ["landing_page", "teacher_page", "seat_links", "room_games", "ROOM_PATH",
           "TEACHER_PATH", "check_key", "LANGUAGE_NAMES", "language_switch", "KeyGuard",
           "qr_svg", "class_room_cards", "DEFAULT_GAME"]

ROOM_PATH = "room"
TEACHER_PATH = "teacher"
W = 560
DEFAULT_GAME = "normandy"
"""The game the landing page and the teacher's class form open on (the Normandy campaign)."""
MAX_CLASS_ROOMS = 30
"""The most rooms the teacher's form creates at once (a class of 60 in pairs)."""
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


def _esc(x: Any) -> str:
    return html.escape(str(x))


def page_language(lang: str | None) -> str:
    """``lang`` when it is one of ours, else the current language."""
    try:
        return check_language(lang) if lang else language()
    except ValueError:
        return language()


def in_page_language(method: Callable[..., Any]) -> Callable[..., Any]:
    """A page's command, run in the page's language (``self.lang``) whoever calls it."""
    import functools

    @functools.wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        with using_language(self.lang):
            return method(self, *args, **kwargs)

    return run


def in_language(lang: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` run in ``lang`` (a widget callback runs on Panel's threads, whose language is
    not the page's: the language is a context variable)."""

    def run(*args: Any, **kwargs: Any) -> Any:
        with using_language(lang):
            return fn(*args, **kwargs)

    return run


def room_games() -> dict[str, str]:
    """Label -> game id for every bundled scenario (``wargame scenario list``)."""
    from wargame.catalog import list_scenarios

    return {f"{d['title']} ({d['id']})": d["id"] for d in list_scenarios() if d.get("game")}


def page_base() -> str:
    """The folder of the current page as the browser sees it (``http://host:5006/``; behind a
    proxy with its prefix), or "" when the browser has not said yet."""
    loc = pn.state.location
    href = str(getattr(loc, "href", "") or "") if loc is not None else ""
    if not href.startswith(("http://", "https://")):
        return ""
    return href.split("?", 1)[0].split("#", 1)[0].rsplit("/", 1)[0] + "/"


def seat_link(token: str, base: str = "") -> str:
    return f"{base}{ROOM_PATH}?seat={token}"


def default_game(games: dict[str, str]) -> str | None:
    """``DEFAULT_GAME`` when the catalogue has it, else its first game."""
    ids = list(games.values())
    return DEFAULT_GAME if DEFAULT_GAME in ids else next(iter(ids), None)


def qr_svg(text: str, title: str = "") -> str:
    """A QR code of ``text`` as an inline ``<svg>`` (segno; error correction M, 3 px a module):
    ``role="img"``, class ``wg-qr``, ``title`` as its tooltip and accessible name."""
    import segno

    svg = segno.make(text, error="m").svg_inline(scale=3, border=2, svgclass="wg-qr",
                                                  lineclass=None, title=title or None)
    return svg.replace("<svg ", f"<svg role=\"img\" aria-label=\"{_esc(title)}\" ", 1)


# a copy button's click: the Clipboard API where the page is a secure context (localhost,
# https), else the old select-and-copy (pages at http://192.168.x.y, a school network)
COPY_JS = (
    "var b=this,t=b.getAttribute('data-link');"
    "function ok(){b.textContent=b.getAttribute('data-done')}"
    "function old(){var a=document.createElement('textarea');a.value=t;"
    "b.parentNode.appendChild(a);a.select();try{if(document.execCommand('copy'))ok()}"
    "catch(e){}a.remove()}"
    "if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(t)"
    ".then(ok,old)}else{old()}")


def copy_button(link: str) -> str:
    return (f"<button type='button' class='wg-copy' data-link='{_esc(link)}' "
            f"data-done='{_esc(ROOMS['copied'])}' onclick=\"{html.escape(COPY_JS)}\">"
            f"{_esc(ROOMS['copy'])}</button>")


def class_room_cards(rooms: list[Any], base: str = "") -> str:
    """HTML: a card per room, its code large, and per player seat its link, a QR code of the
    full link (when ``base`` makes it one) and a copy button (``.wg-class-room``,
    ``data-code``; ``a.wg-seat-link``, ``svg.wg-qr`` and ``button.wg-copy`` per seat)."""
    cards = []
    for room in rooms:
        seats = []
        for name in ("allied", "axis"):
            seat = room.seats[name]
            who = ROOMS[f"seat.{name}"]
            if seat.computer:
                seats.append(f"<div class='wg-class-seat'><b>{_esc(who)}</b> "
                             f"{_esc(ROOMS['computer_seat'].format(policy=player_word(seat.computer)))}</div>")
                continue
            link = seat_link(seat.token, base)
            qr = qr_svg(link, ROOMS["qr_title"].format(seat=who, code=room.code)) \
                if link.startswith(("http://", "https://")) else ""
            seats.append(
                f"<div class='wg-class-seat' data-seat='{_esc(name)}' "
                f"style='display:inline-block;vertical-align:top;margin:4px 12px 4px 0;"
                f"max-width:230px'><b>{_esc(who)}</b><br>{qr}<br>"
                f"<a class='wg-seat-link' data-seat='{_esc(name)}' href='{_esc(link)}' "
                f"target='_blank' style='font-size:11px;word-break:break-all'>{_esc(link)}</a>"
                f"<br>{copy_button(link)}</div>")
        cards.append(
            f"<div class='wg-class-room' data-code='{_esc(room.code)}' "
            f"style='display:inline-block;vertical-align:top;border:1px solid #bbb;"
            f"border-radius:6px;padding:6px 10px;margin:6px;font-family:sans-serif'>"
            f"<div class='wg-room-code' style='font-size:26px;font-weight:bold;"
            f"letter-spacing:2px'>{_esc(room.code)}</div>"
            f"<div style='font-size:12px'>{_esc(room.game_id)}</div>{''.join(seats)}</div>")
    return f"<div class='wg-class-rooms-list'>{''.join(cards)}</div>"


def seat_links(room: Any, base: str = "", names: tuple[str, ...] = ("allied", "axis", "teacher")
               ) -> str:
    """HTML: one row per seat with its link to open and its full address to copy."""
    rows = []
    for name in names:
        seat = room.seats[name]
        link = seat_link(seat.token, base)
        who = ROOMS[f"seat.{name}"]
        if seat.computer:
            who += " " + ROOMS["computer_seat"].format(policy=player_word(seat.computer))
            rows.append(f"<tr><th>{_esc(who)}</th><td></td></tr>")
            continue
        rows.append(
            f"<tr><th>{_esc(who)}</th><td><a class='wg-seat-link' data-seat='{_esc(name)}' "
            f"href='{_esc(link)}' target='_blank'>{_esc(link)}</a></td></tr>")
    return (f"<div class='wg-room' data-code='{_esc(room.code)}' style='font-family:sans-serif'>"
            f"<h3 class='wg-room-code'>{_esc(ROOMS['code'].format(code=room.code))}</h3>"
            f"<table>{''.join(rows)}</table></div>")


class Landing(param.Parameterized):
    """The landing page's widgets and commands (module doc)."""

    def __init__(self, manager: Any, lang: str | None = None, **params: Any) -> None:
        super().__init__(**params)
        self.manager = manager
        self.lang = page_language(lang)
        with using_language(self.lang):
            self._build()

    def _build(self) -> None:
        from wargame.ui.model import variant_choices

        games = room_games()
        self.game = pn.widgets.Select(label=ROOMS["game"], options=games,
                                      value=default_game(games), width=W - 20)
        choices = variant_choices()
        self.variants = pn.widgets.MultiChoice(
            label=ROOMS["variants"], options={f"{c['title']} ({c['rule']})": c["name"]
                                             for c in choices}, width=W - 20)
        self.seed = pn.widgets.TextInput(label=ROOMS["seed"], value="", width=200,
                                         placeholder=ROOMS["seed_random"])
        self.computer_allied = pn.widgets.Select(label=ROOMS["computer_allied"], width=200)
        self.computer_axis = pn.widgets.Select(label=ROOMS["computer_axis"], width=200)
        self.seat_lang = pn.widgets.Select(
            label=ROOMS["lang"], options={LANGUAGE_NAMES[c]: c for c in LANGUAGES},
            value=self.lang, width=200)
        self.create = pn.widgets.Button(label=ROOMS["create"], color="primary")
        self.message = pn.pane.HTML("", width=W, css_classes=["wg-rooms-message"])
        self.links = pn.pane.HTML("", width=W + 200, css_classes=["wg-rooms-links"])
        self.code = pn.widgets.TextInput(label=ROOMS["join"], placeholder="ABC234", width=160)
        self.join = pn.widgets.Button(label=ROOMS["join_button"])
        self.joined = pn.pane.HTML("", width=W + 200, css_classes=["wg-rooms-joined"])
        from wargame.ui.m44_upload import M44Import  # issue 32: a Scenario Editor file

        self.importer = M44Import(self._imported, lang=self.lang, width=W)
        self.game.param.watch(in_language(self.lang, lambda _e: self._game_changed()), "value")
        self.create.on_click(in_language(self.lang, lambda _e: self.do_create()))
        self.join.on_click(in_language(self.lang, lambda _e: self.do_join()))
        self._game_changed()

    @in_page_language
    def _game_changed(self) -> None:
        from wargame.registry import family_of

        policies = family_of(str(self.game.value)).policies
        # the classroom's default level first (issue #34: hard; greedy and random stay)
        ordered = sorted(policies, key=lambda p: p != "hard")
        options = {ROOMS["nobody"]: "none", **{player_word(p): p for p in ordered}}
        for w in (self.computer_allied, self.computer_axis):
            w.options = options
            w.value = "none"
        from wargame.operational.variants import offers_variants

        self.variants.visible = offers_variants(str(self.game.value))
        if not self.variants.visible:
            self.variants.value = []

    def _imported(self, sid: str) -> None:
        """An uploaded .m44 became scenario ``sid``: offered and chosen for the new room."""
        self.game.options = room_games()
        self.game.value = f"memoir44-{sid}"

    @in_page_language
    def say(self, text: str, error: bool = False) -> None:
        colour = "#a00000" if error else "#164d16"
        self.message.object = f"<div style='color:{colour}'>{_esc(text)}</div>"

    @in_page_language
    def do_create(self) -> Any:
        seed_text = self.seed.value.strip()
        try:
            seed = int(seed_text) if seed_text else None
            if seed is not None and seed < 0:
                raise ValueError(seed_text)
        except ValueError:
            self.say(ROOMS["seed_bad"].format(seed=seed_text[:20]), error=True)
            return None
        computer = {name: w.value for name, w in (("allied", self.computer_allied),
                                                  ("axis", self.computer_axis))
                    if w.value != "none"}
        try:
            room = self.manager.create(str(self.game.value), tuple(self.variants.value), seed,
                                       computer, lang=page_language(self.seat_lang.value))
        except (ValueError, KeyError, OSError, ScenarioError) as exc:
            self.say(str(exc)[:300], error=True)
            return None
        self.say(ROOMS["created"].format(code=room.code))
        self.links.object = seat_links(room, page_base())
        return room

    @in_page_language
    def do_join(self) -> Any:
        code = self.code.value.strip().upper()[:12]
        room = self.manager.by_code(code) if code else None
        if room is None:
            self.joined.object = f"<div style='color:#a00000'>{_esc(ROOMS['join_unknown'].format(code=code))}</div>"
            return None
        self.joined.object = (f"<div>{_esc(ROOMS['join_links'].format(code=room.code))}</div>"
                              + seat_links(room, page_base(), ("allied", "axis")))
        return room

    def view(self) -> Any:
        with using_language(self.lang):
            switch = language_switch(lambda code: f"./?lang={code}", self.lang)
            return pn.Column(
                pn.pane.HTML(switch, width=W, css_classes=["wg-lang"]),
                pn.pane.HTML(f"<h2>{_esc(ROOMS['title'])}</h2><p>{_esc(ROOMS['intro'])}</p>",
                             width=W),
                self.game, self.importer, self.variants, self.seed,
                pn.Row(self.computer_allied, self.computer_axis), self.seat_lang, self.create,
                self.message, self.links, pn.layout.Divider(), pn.Row(self.code, self.join),
                self.joined)


def landing_page(manager: Any, lang: str | None = None) -> Any:
    """The ``/`` page (module doc) in ``lang`` (None: the current language)."""
    return Landing(manager, lang).view()


def check_key(given: str | None, key: str) -> bool:
    return bool(given) and secrets.compare_digest(str(given).encode(), key.encode())


class KeyGuard:
    """Wrong teacher keys counted per client address: after ``limit`` wrong keys within
    ``window`` seconds that address is refused for ``lockout`` seconds, the right key
    included (issue #29: 5 a minute, then a minute). A visit without a key is not counted.
    Behind a proxy (Binder) every browser has the proxy's address, so they share one count.
    ``check`` is safe from several threads (Panel's pool builds pages)."""

    MAX_CLIENTS = 10_000  # addresses remembered at once; the oldest are forgotten first

    def __init__(self, limit: int = 5, window: float = 60.0, lockout: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.lockout, self.clock = limit, window, lockout, clock
        self._fails: dict[str, deque[float]] = {}
        self._locked: dict[str, float] = {}
        self._lock = threading.Lock()

    def check(self, client: str | None, given: str | None, key: str) -> str:
        """``ok`` (the right key), ``wrong`` (counted) or ``locked`` (too many wrong keys
        lately from ``client``: refused without looking at the key)."""
        client = client or "?"
        now = self.clock()
        with self._lock:
            until = self._locked.get(client)
            if until is not None:
                if now < until:
                    return "locked"
                del self._locked[client]
            if check_key(given, key):
                return "ok"
            if not given:
                return "wrong"
            fails = self._fails.setdefault(client, deque())
            while fails and now - fails[0] >= self.window:
                fails.popleft()
            fails.append(now)
            if len(fails) >= self.limit:
                self._locked[client] = now + self.lockout
                del self._fails[client]
            while len(self._fails) > self.MAX_CLIENTS:
                del self._fails[next(iter(self._fails))]
            while len(self._locked) > self.MAX_CLIENTS:
                del self._locked[next(iter(self._locked))]
            return "wrong"


class TeacherRooms(param.Parameterized):
    """The teacher's list of rooms: open, replay, export, delete (module doc)."""

    def __init__(self, manager: Any, lang: str | None = None, key: str | None = None,
                 public_base: str | None = None, **params: Any) -> None:
        super().__init__(**params)
        self.manager = manager
        self.lang = page_language(lang)
        self.key = key  # the page's own key, for its language links
        self.public_base = public_base  # the students' address of the server (wargame class)
        with using_language(self.lang):
            self._build()

    def _base(self) -> str:
        """The address the seat links start with: the page's own, unless that is localhost
        (or not known yet) and the server knows the students' address (``public_base``)."""
        base = page_base()
        if self.public_base and (not base or urlsplit(base).hostname in LOCAL_HOSTS):
            return self.public_base
        return base

    def _build_class_form(self) -> None:
        games = room_games()
        self.class_count = pn.widgets.IntInput(label=ROOMS["class_count"], value=6, start=1,
                                               end=MAX_CLASS_ROOMS, width=110,
                                               css_classes=["wg-class-count"])
        self.class_game = pn.widgets.Select(label=ROOMS["class_game"], options=games,
                                            value=default_game(games), width=360)
        self.class_lang = pn.widgets.Select(
            label=ROOMS["class_lang"], options={LANGUAGE_NAMES[c]: c for c in LANGUAGES},
            value=self.lang, width=160)
        self.class_button = pn.widgets.Button(label=ROOMS["class_create"], color="primary")
        self.class_message = pn.pane.HTML("", css_classes=["wg-class-message"])
        self.class_rooms = pn.pane.HTML("", sizing_mode="stretch_width",
                                        css_classes=["wg-class-rooms"])
        self.links_button = pn.widgets.Button(label=ROOMS["class_show"])
        self.class_button.on_click(in_language(self.lang, lambda _e: self.create_class()))
        self.links_button.on_click(in_language(self.lang, lambda _e: self.show_links()))

    @in_page_language
    def create_class(self) -> list[Any]:
        """``class_count`` new rooms of ``class_game``, every seat in ``class_lang`` (a random
        seed each, no computer seat), shown as cards with the seats' QR codes."""
        try:
            count = int(self.class_count.value)
        except (TypeError, ValueError):
            count = 0
        if not 1 <= count <= MAX_CLASS_ROOMS:
            self.class_message.object = (
                f"<div style='color:#a00000'>"
                f"{_esc(ROOMS['class_count_bad'].format(most=MAX_CLASS_ROOMS))}</div>")
            return []
        game = str(self.class_game.value)
        lang = page_language(self.class_lang.value)
        made = []
        try:
            for _ in range(count):
                made.append(self.manager.create(game, (), None, {}, lang=lang))
        except (ValueError, KeyError, OSError, ScenarioError) as exc:
            self.class_message.object = f"<div style='color:#a00000'>{_esc(str(exc)[:300])}</div>"
        if made:
            title = next((label for label, v in room_games().items() if v == game), game)
            said = ROOMS["class_created"].format(n=len(made), game=title,
                                                 lang=LANGUAGE_NAMES.get(lang, lang))
            self.class_message.object = f"<div style='color:#164d16'>{_esc(said)}</div>"
            self.class_rooms.object = class_room_cards(made, self._base())
        self.refresh()
        return made

    @in_page_language
    def show_links(self) -> Any:
        """The chosen room's card (codes, links, QR codes), as after ``create_class``."""
        room = self._room()
        if room is not None:
            self.class_rooms.object = class_room_cards([room], self._base())
        return room

    def _build(self) -> None:
        self._build_class_form()
        self.table = pn.pane.HTML("", sizing_mode="stretch_width", css_classes=["wg-room-list"])
        self.choice = pn.widgets.Select(label=ROOMS["room"], options={}, width=300)
        self.refresh_button = pn.widgets.Button(label=ROOMS["refresh"])
        self.replay_button = pn.widgets.Button(label=ROOMS["replay"])
        self.export = pn.widgets.FileDownload(callback=self._export, filename="room-save.json",
                                              label=ROOMS["export"], embed=False, width=120)
        self.delete_button = pn.widgets.Button(label=ROOMS["delete"], color="danger")
        self.confirm = pn.widgets.Button(label="", color="danger", visible=False)
        self.cancel = pn.widgets.Button(label=ROOMS["cancel"], visible=False)
        self.message = pn.pane.HTML("", css_classes=["wg-teacher-message"])
        self.replay = pn.Column()
        lang = self.lang
        self.refresh_button.on_click(in_language(lang, lambda _e: self.refresh()))
        self.replay_button.on_click(in_language(lang, lambda _e: self.open_replay()))
        self.delete_button.on_click(in_language(lang, lambda _e: self.ask_delete()))
        self.confirm.on_click(in_language(lang, lambda _e: self.do_delete()))
        self.cancel.on_click(in_language(lang, lambda _e: self._confirming(False)))
        self.choice.param.watch(in_language(lang, lambda _e: self._chosen()), "value")
        self.refresh()

    def _room(self) -> Any:
        return self.manager.get(self.choice.value) if self.choice.value else None

    @in_page_language
    def _chosen(self) -> None:
        room = self._room()
        self.export.filename = f"room-{room.code}-{room.game_id}-save.json" if room else \
            "room-save.json"
        self._confirming(False)

    def _export(self) -> io.StringIO:
        room = self._room()
        return io.StringIO(room.save_text() if room is not None else "")

    @in_page_language
    def refresh(self) -> None:
        base = self._base()
        rooms = sorted(self.manager.rooms(), key=lambda r: -r.created)
        rows = []
        for r in rooms:
            room = self.manager.get(r.id)
            link = seat_link(room.seats["teacher"].token, base) if room is not None else ""
            variants = f" + {', '.join(r.variants)}" if r.variants else ""
            rows.append(
                f"<tr data-code='{_esc(r.code)}'><td><b>{_esc(r.code)}</b></td>"
                f"<td>{_esc(r.game_id)}{_esc(variants)}</td><td>{r.version}</td>"
                f"<td>{_esc(r.outcome or ROOMS['ongoing'])}</td>"
                f"<td><a href='{_esc(link)}' target='_blank'>{_esc(ROOMS['open'])}</a></td></tr>")
        self.table.object = (
            f"<h3>{_esc(ROOMS['rooms'])}</h3>" + (
                f"<table style='font-family:sans-serif'><tr><th>{_esc(ROOMS['col.code'])}</th>"
                f"<th>{_esc(ROOMS['col.game'])}</th><th>{_esc(ROOMS['col.actions'])}</th>"
                f"<th>{_esc(ROOMS['col.result'])}</th><th></th></tr>{''.join(rows)}</table>"
                if rows else f"<p>{_esc(ROOMS['no_rooms'])}</p>"))
        options = {f"{r.code} ({r.game_id})": r.id for r in rooms}
        value = self.choice.value if self.choice.value in options.values() else (
            next(iter(options.values()), None))
        self.choice.options = options
        self.choice.value = value

    @in_page_language
    def _confirming(self, on: bool) -> None:
        room = self._room()
        self.confirm.visible = self.cancel.visible = on and room is not None
        if room is not None:
            self.confirm.label = ROOMS["confirm_delete"].format(code=room.code)

    @in_page_language
    def ask_delete(self) -> None:
        self._confirming(True)

    @in_page_language
    def do_delete(self) -> bool:
        room = self._room()
        self._confirming(False)
        if room is None:
            return False
        code = room.code
        ok = bool(self.manager.delete(room.id))
        if ok:
            self.message.object = _esc(ROOMS["deleted"].format(code=code))
            self.replay[:] = []
        self.refresh()
        return ok

    @in_page_language
    def open_replay(self) -> Any:
        room = self._room()
        if room is None:
            return None
        replay = Replay(room, lang=self.lang)
        self.replay[:] = [replay.view()]
        return replay

    def view(self) -> Any:
        from urllib.parse import quote

        key = quote(self.key or "", safe="")
        switch = language_switch(lambda code: f"?key={key}&lang={code}", self.lang)
        with using_language(self.lang):
            heading = pn.pane.HTML(f"<h3>{_esc(ROOMS['class_title'])}</h3>")
        return pn.Column(
            pn.pane.HTML(switch, css_classes=["wg-lang"]),
            heading,
            pn.Row(self.class_count, self.class_game, self.class_lang),
            self.class_button, self.class_message, self.class_rooms,
            self.table,
            pn.Row(self.choice, self.refresh_button, self.links_button, self.replay_button,
                   self.export, self.delete_button),
            pn.Row(self.confirm, self.cancel), self.message, self.replay,
            sizing_mode="stretch_width")


class Replay(param.Parameterized):
    """A room's game move by move: a slider over its actions, the teacher's dashboard of the
    position after each (``Room.state_at``)."""

    def __init__(self, room: Any, lang: str | None = None, **params: Any) -> None:
        super().__init__(**params)
        self.lang = page_language(lang)
        with using_language(self.lang):
            self._build(room)

    def _build(self, room: Any) -> None:
        from wargame.ui.room_page import fingerprint_digest
        from wargame.ui.seats import replay_store

        self.room = room
        self.total = room.version
        self.store = replay_store(room, lang=self.lang)
        self._digest = fingerprint_digest
        self.slider = pn.widgets.IntSlider(label=ROOMS["actions"], start=0,
                                           end=max(1, self.total), value=self.total, width=W)
        self.prev = pn.widgets.Button(label="<", width=50)
        self.next = pn.widgets.Button(label=">", width=50)
        self.title = pn.pane.HTML("", css_classes=["wg-replay-title"])
        self.prev.on_click(in_language(self.lang, lambda _e: self.step(-1)))
        self.next.on_click(in_language(self.lang, lambda _e: self.step(1)))
        self.slider.param.watch(in_language(self.lang, lambda e: self.show(int(e.new))), "value")
        from wargame.registry import family_of, resolve

        # the teacher's: no game control (issue #27)
        self.dash: Any = resolve(family_of(str(room.game_id)).store_dashboard)(self.store)
        self.show(self.total)

    @in_page_language
    def step(self, delta: int) -> None:
        self.slider.value = max(0, min(self.total, self.slider.value + delta))

    @in_page_language
    def show(self, n: int) -> None:
        from wargame.ui.seats import show_position

        n = max(0, min(self.total, n))
        show_position(self.store, self.room, n)
        self.title.object = (
            f"<b>{_esc(ROOMS['replay_title'].format(code=self.room.code, n=n, total=self.total))}"
            f"</b> <span class='wg-fingerprint'>"
            f"{_esc(ROOMS['fingerprint'].format(fingerprint=self._digest(self.store.state)))}"
            f"</span>")

    def view(self) -> Any:
        return pn.Column(self.title, pn.Row(self.prev, self.slider, self.next), self.dash)


def teacher_page(manager: Any, given_key: str | None, key: str,
                 lang: str | None = None, client: str | None = None,
                 guard: KeyGuard | None = None, public_base: str | None = None) -> Any:
    """The ``/teacher`` page in ``lang`` (None: the current language): the rooms' list with
    the right key, else the unknown-link page; with a ``guard``, wrong keys from ``client``
    (its address) are counted and, past the limit, refused with a note to wait."""
    lang = page_language(lang)
    verdict = guard.check(client, given_key, key) if guard is not None else (
        "ok" if check_key(given_key, key) else "wrong")
    if verdict == "locked" and guard is not None:  # (locked: a guard counted the wrong keys)
        with using_language(lang):
            return pn.pane.HTML(
                f"<div class='wg-key-locked' style='font-family:sans-serif'>"
                f"<h3>{_esc(ROOMS['key_locked'])}</h3>"
                f"<p>{_esc(ROOMS['key_locked_help'].format(seconds=int(guard.lockout)))}</p>"
                f"</div>", sizing_mode="stretch_width")
    if verdict != "ok":
        from wargame.ui.room_page import unknown_seat_page

        with using_language(lang):
            return unknown_seat_page()
    with using_language(lang):
        return TeacherRooms(manager, lang, key, public_base=public_base).view()
