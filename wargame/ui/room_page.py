"""A room's seat page, ``/room?seat=<token>`` (``wargame serve --rooms``; docs/rooms-seats.md).

The page is the game's usual dashboard (campaign or Memoir '44) around the seat's store
(``wargame.ui.seats``): the side's own view, its actions sent to the room. The dashboards draw
only the controls the page's viewer can use (``GameStore.as_viewer``, issue #27): no new game,
load, undo, save, computer switch, hidden-values toggle or seed on any room page (a seat's
Save is also refused on the server); no game control on the teacher's page, where Memoir's
hands stay hidden until the teacher's switch shows them. The room's record is exported from
the teachers' page, behind the teacher's key. The page
follows the room: the room calls the store's subscriber on the acting thread, which schedules
``sync`` in this page's own Bokeh session (``Document.add_next_tick_callback``, the thread-safe
way into a session; the sync then runs with the session's document as Panel's current one);
the subscription ends with the session (``pn.state.on_session_destroyed``). Reloading the link
builds the page again from the room: nothing of the game lives in the browser.

An unknown token gets a short page saying so (never a traceback, never the token back).

Language (issue #16): the page is in ``?lang=`` of its link when given (and that choice is
stored as the seat's language, ``Room.set_language``, so the link opens in it next time), else
in the seat's stored language (chosen when the room was created), else the server's. The
language switch at the top is a link per language to the same seat. Everything of the page is
built in that language and the seat's store runs its commands in it (``wargame.ui.seats``).
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Callable
from typing import Any

import panel as pn

from wargame.i18n import LANGUAGES, check_language, language, using_language
from wargame.ui.seats import SeatMixin, seat_store
from wargame.ui.store import TEACHER
from wargame.ui.text import ROOMS, UI, their_turn

__all__ = ["fingerprint_digest", "seat_page", "seat_page_parts", "unknown_seat_page", "seat_dashboard",
           "follow_room", "language_switch", "LANGUAGE_NAMES", "seat_language"]

# What is above the dashboard's map on a seat's page (the language switch and the seat's line;
# the teacher's position line too), for the map's height: CSS ``--wg-map-top``, read by the
# dashboards (campaign_panels.MAP_HEIGHT_CSS, memoir.MAP_HEIGHT_CSS). The teacher's page is no
# longer zoomed (issue 28: a 1.3 zoom put a third of the map off a 1920x1080 projector): its
# counters and names are drawn large by the map itself, which fills the window.
MAP_TOP = {"campaign": "125px", "memoir": "62px"}
TEACHER_MAP_TOP = {"campaign": "128px", "memoir": "80px"}
SIDE_TOP = {False: "46px", True: "60px"}  # the side column's top (not the teacher's, teacher's)
LANGUAGE_NAMES = {"en": "English", "pt": "Português"}
"""Each language by its own name (a switch is read by someone who may not know the other)."""


def _esc(x: Any) -> str:
    return html.escape(str(x))


def language_switch(href: Callable[[str], str], current: str) -> str:
    """HTML: "Language: English | Português", each other language a link (``href(lang)``),
    the current one in bold (``.wg-lang-switch``, a link per language: ``data-lang``)."""
    items = []
    for code in LANGUAGES:
        name = _esc(LANGUAGE_NAMES.get(code, code))
        if code == current:
            items.append(f"<b data-lang='{code}'>{name}</b>")
        else:
            items.append(f"<a data-lang='{code}' lang='{code}' href='{_esc(href(code))}'>"
                         f"{name}</a>")
    return (f"<div class='wg-lang-switch' style='font-family:sans-serif;font-size:13px'>"
            f"{_esc(ROOMS['lang_switch'])} {' | '.join(items)}</div>")


def unknown_seat_page() -> Any:
    """What an unknown or deleted seat link shows (the token is not repeated)."""
    return pn.pane.HTML(
        f"<div class='wg-unknown-seat' style='font-family:sans-serif'>"
        f"<h3>{_esc(ROOMS['unknown_seat'])}</h3><p>{_esc(ROOMS['unknown_seat_help'])}</p>"
        f"<p><a href='./'>{_esc(ROOMS['title'])}</a></p></div>", sizing_mode="stretch_width")


def seat_dashboard(room: Any, seat: Any, lang: str | None = None) -> tuple[Any, Any]:
    """The dashboard of ``seat`` in ``room`` and its store (no Panel session needed), in
    ``lang`` (default: the seat's own language, else the current one)."""
    from wargame.registry import family_of, resolve

    store = seat_store(room, seat, lang)
    dash = resolve(family_of(str(room.game_id)).store_dashboard)(store)
    return dash, store


def fingerprint_digest(state: Any) -> str:
    """A short digest of the position's fingerprint (equal positions, equal digests)."""
    text = json.dumps(state.fingerprint(), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _header_text(room: Any, seat: Any, store: Any) -> str:
    s = store.state
    if s.is_terminal:
        note = ROOMS["over"]
    elif store.viewer == TEACHER:
        note = ROOMS["teacher_note"]
    elif s.side_to_act == seat.side:
        note = ROOMS["your_turn"]
    else:
        note = their_turn(s.side_to_act)
    text = _esc(ROOMS["seat_header"].format(code=room.code, seat=ROOMS[f"seat.{seat.name}"],
                                            turn_note=note))
    extra = ""
    if store.viewer == TEACHER and not store.in_student_words():  # issue #28: expert words
        digest = fingerprint_digest(s)
        extra = (f"<div class='wg-fingerprint' style='color:#666;font-size:12px'>"
                 f"{_esc(ROOMS['fingerprint'].format(fingerprint=digest))}, "
                 f"{_esc(ROOMS['actions_count'].format(count=len(s.action_log)))}</div>")
    return (f"<div class='wg-seat-header' data-version='{len(s.action_log)}' "
            f"style='font-family:sans-serif;font-size:15px;font-weight:bold'>{text}</div>{extra}")


def follow_room(store: SeatMixin, doc: Any, also: Callable[[], None] | None = None) -> None:
    """Keep ``store`` up to date with its room in the session of ``doc`` (module doc)."""
    import panel as pn

    from wargame.ui.panel_internals import in_session

    def run() -> None:
        with in_session(doc):
            # the whole update (the dashboard's parts and the header) in one message to the
            # browser, sent when it is done (issue #31)
            with pn.io.hold(doc):
                store.sync()
                if also is not None:
                    also()

    def schedule() -> None:
        doc.add_next_tick_callback(run)

    store.on_change = schedule


def seat_language(room: Any, seat: Any, asked: str | None = None,
                  default: str | None = None) -> tuple[Any, str]:
    """The seat (as stored now) and the language of its page (module doc): ``asked`` (the
    link's ``?lang=``, stored as the seat's choice), else the seat's, else ``default``, else
    the current language. An ``asked`` that is not one of ours is ignored."""
    try:
        asked = check_language(asked) if asked else None
    except ValueError:
        asked = None
    if asked is not None and getattr(seat, "lang", None) != asked:
        setter = getattr(room, "set_language", None)
        if callable(setter):
            try:
                seat = setter(seat.name, asked)
            except Exception:  # noqa: BLE001 - the file refused: this page still opens in it
                pass
    for choice in (asked, getattr(seat, "lang", None), default):
        if choice:
            try:
                return seat, check_language(choice)
            except ValueError:
                continue
    return seat, language()


def page_sizes_css(map_top: str, side_top: str) -> str:
    """The page's sizes for the dashboard inside it, as CSS custom properties on the page's
    element (a stylesheet's ``:host`` rule: Bokeh's inline ``styles`` cannot set custom
    properties); they are inherited through every shadow root below."""
    return f":host {{ --wg-map-top: {map_top}; --wg-side-top: {side_top}; }}"


def seat_language_switch(seat: Any, lang: str) -> str:
    """The switch at the top of a seat's page: the same seat's link in each language
    (relative to the page: only its query changes)."""
    return language_switch(lambda code: f"?seat={seat.token}&lang={code}", lang)


def seat_page(manager: Any, token: str | None, lang: str | None = None,
              default: str | None = None) -> Any:
    """The page of the seat whose link carries ``token`` (or the unknown-seat page), in
    ``lang`` (the link's ``?lang=``), else the seat's language, else ``default`` (the
    server's; module doc)."""
    found = manager.by_token(token) if token else None
    if found is None:
        with using_language(lang or default):
            return unknown_seat_page()
    room, seat = found
    seat, page_lang = seat_language(room, seat, lang, default)
    with using_language(page_lang):
        return _seat_page(room, seat, page_lang)


def _seat_page(room: Any, seat: Any, lang: str) -> Any:
    return seat_page_parts(room, seat, lang)[0]


def seat_page_parts(room: Any, seat: Any, lang: str) -> tuple[Any, SeatMixin]:
    """The seat's page (built in ``lang``) and its store: the store is what the page shows,
    kept up to date with the room in a served session (``follow_room``)."""
    from wargame.ui.panel_internals import lean_property_updates

    lean_property_updates()  # an update's property changes cost less (issue #31)
    dash, store = seat_dashboard(room, seat, lang)
    header = pn.pane.HTML(_header_text(room, seat, store), sizing_mode="stretch_width")
    switch = pn.pane.HTML(seat_language_switch(seat, lang), css_classes=["wg-lang"])

    def refresh_header(*_: Any) -> None:
        with using_language(lang):
            header.object = _header_text(room, seat, store)

    store.param.watch(refresh_header, ["state", "student"])
    # issue #28: student words by default in a room; experts switch them off on their page
    expert = pn.widgets.Switch(value=not store.in_student_words(), width=40,
                               css_classes=["wg-expert-switch"])

    def words(event: Any) -> None:
        with store.batch():
            store.student = not event.new

    expert.param.watch(words, "value")
    words_row = pn.Row(expert, pn.pane.HTML(
        f"<span style='font-family:sans-serif;font-size:13px'>{_esc(UI['student_switch'])}"
        f"</span>"), css_classes=["wg-words"])
    doc = pn.state.curdoc
    if doc is not None and doc.session_context is not None:
        follow_room(store, doc)
        pn.state.on_session_destroyed(lambda _ctx: store.close())
    kind = "memoir" if type(dash).__name__.startswith("Memoir") else "campaign"
    top = (TEACHER_MAP_TOP if store.viewer == TEACHER else MAP_TOP)[kind]
    return pn.Column(pn.Row(header, words_row, switch, sizing_mode="stretch_width"), dash,
                     sizing_mode="stretch_width",
                     stylesheets=[page_sizes_css(top, SIDE_TOP[store.viewer == TEACHER])],
                     css_classes=["wg-seat-page"]), store
