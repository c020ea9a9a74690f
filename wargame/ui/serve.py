"""The one serve path for every game: ``build_dashboard(scenario_id, seed, ...)`` returns the
campaign or the Memoir '44 dashboard for a bundled scenario id (its ``wargame.registry`` family);
``wargame serve`` and ``make play`` call ``serve_dashboard``; ``panel serve
wargame/ui/app.py`` serves the same dashboards (``?scenario=<id>``; add ``--num-threads 4``
for the thread pool ``serve_dashboard`` starts)."""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

__all__ = ["serve_dashboard", "build_dashboard", "DEFAULT_SEED", "MEMOIR_DEFAULT_SEED"]

DEFAULT_SEED = 1944
WEBSOCKET_MAX_BYTES = 10_000_000
"""The largest websocket message ``wargame serve`` takes from a browser (Bokeh's default is
20 MiB): the Load button sends a save in 4 MB pieces (``wargame.ui.upload``), and nothing
else a page sends comes near it; a page that sends more is cut off before its message is
read whole (issue #31)."""
MEMOIR_DEFAULT_SEED = 44
SERVE_THREADS = 4
"""Panel's thread pool for the served dashboards' callbacks (``pn.config.nthreads``; the
``PANEL_NUM_THREADS`` environment variable wins): one session's long Load no longer stalls
the others (bench/latency.py); the store serialises one session's commands (its lock)."""
# the computer's side as ``wargame serve --computer`` names it, for each game
COMPUTER_SIDES = {"campaign": {"none": "none", "axis": "axis", "allied": "allied"},
                  "memoir": {"none": "none", "axis": "axis", "allied": "allied"}}
# what a URL or the environment may say for the computer's side (``?computer=allies``)
COMPUTER_WORDS = {"none": "none", "axis": "axis", "allied": "allied", "allies": "allied"}


def computer_side(text: str | None) -> str:
    """The computer's side named by ``text`` from a URL or the environment: ``axis``,
    ``allied`` (or ``allies``), any case; anything else is ``none`` (nobody)."""
    return COMPUTER_WORDS.get((text or "").strip().lower(), "none")


def _fallback(scenario: str, seed: int, exc: Exception, lang: str | None = None) -> Any:
    """The small demo campaign, with a note in the message bar saying why."""
    from wargame.i18n import using_language
    from wargame.ui.campaign import CampaignDashboard
    from wargame.ui.text import WORDS

    dash = CampaignDashboard("demo", seed=seed, lang=lang)
    with using_language(dash.lang):
        dash.model.say(WORDS["fallback"].format(scenario=scenario, error=exc), error=True)
    return dash


def warm_up(scenario: str = "normandy", lang: str | None = None) -> float:
    """Build one dashboard of ``scenario`` and throw it away, before the server takes its first
    session: the modules the dashboard imports on first use, the scenario's data, map and
    history, and the language's catalogue are then loaded, so the first student does not wait
    for them (about 0.8 s of a cold first load here, ``bench/dashboard.py``). Returns the
    seconds it took; a scenario that fails to build is left for the session to report."""
    started = time.perf_counter()
    try:
        build_dashboard(scenario, None, (), "none", lang)
    except Exception:  # noqa: BLE001 -- the session will show the problem to the user
        log.warning("warm-up of %r failed", scenario, exc_info=True)
    return time.perf_counter() - started


def build_dashboard(scenario: str = "normandy", seed: int | None = None,
                    variants: tuple[str, ...] | list[str] = (), computer: str | None = "none",
                    lang: str | None = None) -> Any:
    """The dashboard for a bundled scenario id: the Memoir '44 dashboard for ``memoir44-<n>``,
    the campaign dashboard otherwise (``demo``: the small demo scenario). ``seed`` None: the
    game's usual seed. ``lang``: the language of its texts (``en``, ``pt``; None: the current
    one, ``wargame.i18n.language()``). Falls back to the demo scenario (with a note in the
    message bar) when the scenario's data cannot be loaded. ``computer``: the computer's side
    (``computer_side``: ``axis``, ``allied`` or ``allies``; anything else nobody)."""
    from wargame.i18n import check_language, language
    from wargame.scenario_errors import ScenarioError

    lang = check_language(lang) if lang else language()
    computer = computer_side(computer)

    scenario = str(scenario)
    from wargame.registry import family_of, resolve

    family = family_of(scenario)  # the game's family makes its dashboard (wargame.registry)
    seed = family.default_seed if seed is None else int(seed)
    side = family.computer_sides.get(computer, "none")
    try:
        if variants and not family.takes_variants:
            raise ValueError("Battle for Normandy variants apply to the campaign games only")
        return resolve(family.dashboard)(scenario, seed, tuple(variants), side, lang)
    except (ScenarioError, FileNotFoundError, OSError, ValueError, KeyError) as exc:
        return _fallback(scenario, seed, exc, lang)


def served_page(page: Any, lang: str | None = None, keep: bool = False) -> Any:
    """``page`` as a served session shows it (issue #31): a notice and a reconnection when
    its server goes away (``wargame.ui.connection``), and with ``keep`` a solo dashboard's
    game kept in the browser and offered back (``wargame.ui.keeper``: a root of its own in
    the session's document, so the dashboard's layout is untouched). Outside a served
    session (a notebook, a test) ``page`` alone."""
    import panel as pn

    from wargame.ui.panel_internals import ordered_callbacks, steady_stylesheets

    steady_stylesheets()  # an HTML pane's text change sends only the text (bench/rooms.py)
    ordered_callbacks()  # a click sees the value typed just before it (thread pool)
    doc = pn.state.curdoc
    if doc is None or doc.session_context is None:
        return page
    from wargame.ui.connection import watch_connection

    watch_connection(doc, lang)
    if keep:
        from wargame.ui.keeper import keeper_for

        keeper = keeper_for(page)
        if keeper is not None:
            pn.panel(keeper).server_doc(doc)
            page.keeper = keeper  # for tests and tools: the session's keeper
    return page


def session_lang(default: str | None = None) -> str | None:
    """The language a served session asks for with ``?lang=`` in its URL (``pt``, ``en``,
    ``pt-PT``...), else ``default``; an unknown one is ignored (``default``)."""
    import panel as pn

    from wargame.i18n import check_language

    values = (pn.state.session_args or {}).get("lang")
    if not values:
        return default
    value = values[0]
    text = value.decode("utf-8", errors="replace") if isinstance(value, bytes) else str(value)
    try:
        return check_language(text[:20])
    except ValueError:
        return default


LOCAL_ADDRESSES = frozenset({"127.0.0.1", "localhost", "::1"})
# Panel's /components/<module>/<class>/<attribute>/<file> route serves the CSS/JS files a
# component lists, and imports <module> to find them: any installed module named in a URL.
# ``wargame serve`` answers that route itself first (``LimitedComponentResourceHandler``) for
# modules of these packages that are imported already, which is every component on the page.
COMPONENT_PACKAGES = ("wargame", "panel", "bokeh", "panel_material_ui")


def resolve_address(address: str | None = None) -> str:
    """The address to listen on: ``address``, else ``WARGAME_ADDRESS``, else 127.0.0.1."""
    return address or os.environ.get("WARGAME_ADDRESS") or "127.0.0.1"


def websocket_origins(address: str, port: int, allow_origins: list[str] | tuple[str, ...] = ()
                      ) -> list[str]:
    """The ``HOST:PORT`` values Bokeh accepts as a websocket Origin (the page's own address as
    the browser typed it). On localhost: localhost and 127.0.0.1 at ``port``, plus
    ``allow_origins``. On any other address (0.0.0.0, a LAN address) ``allow_origins`` is
    required: otherwise any web page a student opens could drive the game. An origin without a
    port gets ``port``; ``*`` allows every origin (docs/serving.md). ValueError otherwise."""
    origins = [_origin(text, port) for text in allow_origins]
    if address in LOCAL_ADDRESSES:
        return list(dict.fromkeys([f"localhost:{port}", f"127.0.0.1:{port}", *origins]))
    if not origins:
        raise ValueError(
            f"serving on {address} needs --allow-origin HOST:PORT for each address the browsers "
            f"use to reach this machine, e.g. {' '.join(_suggested_origins(port))} "
            "(see docs/serving.md)")
    return list(dict.fromkeys(origins))


def _origin(text: str, port: int) -> str:
    value = str(text).strip()
    if value == "*":
        return value
    if "://" in value or "/" in value or not value or any(c.isspace() for c in value):
        raise ValueError(f"--allow-origin {value[:60]!r}: expected HOST or HOST:PORT, without "
                         "http:// or a path (e.g. 192.168.1.20:5006)")
    if value.count(":") > 1 and not value.startswith("["):  # a bare IPv6 address
        value = f"[{value}]"
    host, sep, port_text = value.rpartition(":")
    if not sep or value.endswith("]"):  # no port: the served one
        return f"{value}:{port}"
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535 or not host:
        raise ValueError(f"--allow-origin {value[:60]!r}: the port must be a number from 1 to "
                         "65535")
    return value


def _suggested_origins(port: int) -> list[str]:
    """This machine's name and addresses as ``--allow-origin`` options (what to pass)."""
    import socket

    names = [socket.gethostname()]
    try:
        names += [str(info[4][0])
                  for info in socket.getaddrinfo(names[0], None, socket.AF_INET)]
    except OSError:
        pass
    names = [n for n in dict.fromkeys(names) if n and not n.startswith("127.")]
    return [f"--allow-origin {name}:{port}" for name in names[:3]] or [
        f"--allow-origin 192.168.1.20:{port}"]


def check_address(address: str, port: int) -> None:
    """ValueError, before serving, when ``address`` cannot be resolved."""
    import socket

    try:
        socket.getaddrinfo(address, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        source = "" if address != os.environ.get("WARGAME_ADDRESS") else " (WARGAME_ADDRESS)"
        raise ValueError(f"cannot listen on address {address[:60]!r}{source}: {reason}") from None


def component_routes() -> list[tuple[str, Any, dict[str, Any]]]:
    """Tornado routes answering Panel's ``/components/`` URLs before Panel's own handler."""
    from wargame.ui.panel_internals import component_path

    return [(f"/{component_path()}(.*)", _limited_component_handler(), {})]


def _limited_component_handler() -> type:
    from tornado.web import HTTPError

    from wargame.ui.panel_internals import component_resource_handler

    panel_handler: Any = component_resource_handler()

    class LimitedComponentResourceHandler(panel_handler):
        """Panel's handler, for already imported modules of COMPONENT_PACKAGES only: no URL
        makes the server import a module."""

        def parse_url_path(self, path: str) -> str:
            module = path.split("/", 1)[0]
            if module.split(".")[0] not in COMPONENT_PACKAGES or module not in sys.modules:
                raise HTTPError(404, "Module not found")
            return super().parse_url_path(path)

    return LimitedComponentResourceHandler


def serve_dashboard(scenario: str = "normandy", port: int = 5006, seed: int | None = None,
                    variants: tuple[str, ...] | list[str] = (), show: bool = False,
                    address: str | None = None, computer: str = "none",
                    allow_origins: tuple[str, ...] | list[str] = (), threaded: bool = False,
                    lang: str | None = None) -> Any:
    """Serve one dashboard per browser session at ``http://<address>:<port>/`` (blocks, unless
    ``threaded``: then returns Panel's server thread, ``.stop()`` ends it).

    ``lang``: the dashboards' language (``wargame serve --lang pt``; None: the language current
    when called); a session's ``?lang=pt`` or ``?lang=en`` in the URL wins (``session_lang``).

    ``address`` defaults to ``WARGAME_ADDRESS`` or 127.0.0.1; any other address than localhost
    (0.0.0.0 for a LAN or a container) needs ``allow_origins`` (``websocket_origins``).
    Unknown variant names, variants for a game without them, a bad address or origin raise
    ``ValueError`` before serving; a port in use raises ``OSError``.
    """
    if not 1 <= int(port) <= 65535:
        raise ValueError(f"port must be a number from 1 to 65535, got {port}")
    from wargame.i18n import check_language, language

    lang = check_language(lang) if lang else language()
    address = resolve_address(address)
    origins = websocket_origins(address, port, allow_origins)
    check_address(address, port)
    from wargame.registry import family_of

    if variants and not family_of(scenario).takes_variants:
        raise ValueError("Battle for Normandy variants apply to the campaign games only")
    from wargame.operational.variants import normalize_variants

    variants = normalize_variants(variants)  # unknown names: ValueError before serving
    if variants:
        _check_variants_apply(scenario, variants)
    import panel as pn

    pn.extension()
    if pn.config.nthreads is None:
        pn.config.nthreads = SERVE_THREADS

    def app() -> Any:
        page_lang = session_lang(lang)
        return served_page(build_dashboard(scenario, seed, variants, computer, page_lang),
                           page_lang, keep=True)

    title = family_of(scenario).window_title
    warm_up(scenario, lang)
    line = served_line(lang, url=f"http://{_host(address)}:{port}/")
    if not threaded:  # said once the server's loop runs (it is listening by then)
        from tornado.ioloop import IOLoop

        IOLoop.current().add_callback(print, line, flush=True)
    server = pn.serve(app, port=port, address=address, websocket_origin=origins, show=show,
                      title=title, threaded=threaded, extra_patterns=component_routes(),
                      verbose=False, websocket_max_message_size=WEBSOCKET_MAX_BYTES)
    if threaded:
        print(line, flush=True)
    return server


def _host(address: str) -> str:
    """The host a browser on this machine types for ``address``."""
    return "localhost" if address in LOCAL_ADDRESSES or address == "0.0.0.0" else address


def served_line(lang: str, **fields: str) -> str:
    """The start-up line of ``wargame serve`` in ``lang`` (``wargame.ui.text.SERVE_WORDS``):
    ``url`` for the dashboard, ``url`` and ``teacher`` for the rooms."""
    from wargame.i18n import using_language
    from wargame.ui.text import SERVE_WORDS

    with using_language(lang):
        return SERVE_WORDS["rooms" if "teacher" in fields else "dashboard"].format(**fields)


def _check_variants_apply(scenario: str, variants: tuple[str, ...]) -> None:
    """The engine's check (``check_variants_apply``, also run by ``Game``), said before
    serving from the catalogue's summary, without loading the scenario."""
    from wargame.catalog import describe
    from wargame.operational.variants import check_variants_apply

    try:
        game = describe(scenario).get("game")
    except KeyError:
        return  # an unknown id: the dashboard shows the demo with a note
    check_variants_apply(scenario, game, variants)


# ---------------------------------------------------------------------- rooms (issue #14)
ROOMS_THREADS = 8
"""Panel's thread pool when serving rooms: a class is ~30 sessions; each command holds only
its own store's lock and the room's lock while it stores the action."""


MIN_TEACHER_KEY = 12
"""The shortest teacher key accepted when one is given (``--teacher-key``, or
``WARGAME_TEACHER_KEY``): the key guards the list of every seat's link (issue #29)."""
TEACHER_KEY_BYTES = 16
"""A generated key: ``secrets.token_urlsafe(16)``, 128 random bits (22 characters)."""


def teacher_key(key: str | None = None) -> str:
    """The teacher page's key: ``key``, else ``WARGAME_TEACHER_KEY``, else a new random one
    (128 bits). A given key shorter than ``MIN_TEACHER_KEY`` characters: ValueError."""
    import secrets

    given = key or os.environ.get("WARGAME_TEACHER_KEY")
    if not given:
        return secrets.token_urlsafe(TEACHER_KEY_BYTES)
    if len(given) < MIN_TEACHER_KEY:
        from wargame.ui.text import ROOMS

        source = "--teacher-key" if key else "WARGAME_TEACHER_KEY"
        raise ValueError(ROOMS["key_short"].format(source=source, n=len(given),
                                                   least=MIN_TEACHER_KEY))
    return given


def room_game(game_id: str, variants: tuple[str, ...]) -> Any:
    """The rooms' game opener: bundled ids, and the dashboard's small demo campaign."""
    if game_id == "demo":
        from wargame.ui.model import make_game

        return make_game("demo", variants)
    from wargame.games import open_game

    return open_game(game_id, variants)


def client_address() -> str | None:
    """The address of the browser whose request builds the current page (None outside a
    served session)."""
    import panel as pn

    try:
        request = pn.state.curdoc.session_context.request
        return str(request.remote_ip) if request is not None else None
    except AttributeError:
        return None


def rooms_apps(manager: Any, key: str, lang: str | None = None,
               public_base: str | None = None) -> dict[str, Any]:
    """The Panel apps of ``wargame serve --rooms``: ``/`` (create and join), ``/room``
    (a seat, ``?seat=<token>``) and ``/teacher`` (``?key=<key>``), around one RoomManager.
    ``lang``: the server's language; a page's ``?lang=`` wins (a seat's stored language
    too: ``wargame.ui.room_page``). Wrong teacher keys are counted per client address by
    one ``KeyGuard`` (5 a minute, then a minute refused). ``public_base``: the students'
    address of the server (``http://192.168.1.20:5006/``, ``wargame class``), for the seat
    links and QR codes of the teacher's page when it is opened on localhost."""
    import panel as pn

    from wargame.ui.room_page import seat_page
    from wargame.ui.rooms import ROOM_PATH, TEACHER_PATH, KeyGuard, landing_page, teacher_page

    guard = KeyGuard()

    def arg(name: str) -> str | None:
        values = (pn.state.session_args or {}).get(name)
        if not values:
            return None
        value = values[0]
        text = value.decode("utf-8", errors="replace") if isinstance(value, bytes) else str(value)
        return text[:200]

    # every page says when the server went away and reloads itself when it is back (a seat's
    # link carries its seat: it resumes; issue #31)
    return {
        "/": lambda: served_page(landing_page(manager, session_lang(lang)), session_lang(lang)),
        f"/{ROOM_PATH}": lambda: served_page(
            seat_page(manager, arg("seat"), session_lang(None), lang), session_lang(lang)),
        f"/{TEACHER_PATH}": lambda: served_page(
            teacher_page(manager, arg("key"), key, session_lang(lang), client=client_address(),
                         guard=guard, public_base=public_base), session_lang(lang)),
    }


def serve_rooms(db_path: str | os.PathLike[str], port: int = 5006, show: bool = False,
                address: str | None = None, allow_origins: tuple[str, ...] | list[str] = (),
                threaded: bool = False, key: str | None = None, out: Any = None,
                lang: str | None = None, public_base: str | None = None,
                announce: Any = None, show_teacher: bool = False) -> Any:
    """Serve the rooms of the SQLite file ``db_path`` (created when missing; every stored room
    resumes): ``/`` creates and joins rooms, ``/room?seat=<token>`` is a seat, ``/teacher?key=``
    lists the rooms. Address and origin rules as ``serve_dashboard``. Prints the teacher's
    page address to ``out`` (or calls ``announce(key)`` to say it instead, ``wargame
    class``). Blocks unless ``threaded`` (then returns Panel's server thread); when it returns
    (Ctrl-C) the rooms' file is closed. ``lang``: the pages' language (``wargame serve --rooms
    F --lang pt``; None: the language current when called); a page's ``?lang=`` and a seat's
    own language win. ``public_base``: the address students use (``rooms_apps``).
    ``show_teacher`` with ``show``: open the teacher's page (at ``public_base``) rather
    than the landing page. A given key under 12 characters: ValueError (``teacher_key``)."""
    if not 1 <= int(port) <= 65535:
        raise ValueError(f"port must be a number from 1 to 65535, got {port}")
    address = resolve_address(address)
    origins = websocket_origins(address, port, allow_origins)
    check_address(address, port)
    from wargame.i18n import check_language, language
    from wargame.rooms import RoomManager

    lang = check_language(lang) if lang else language()
    key = teacher_key(key)  # a short given key: refused before the file is opened
    manager = RoomManager(Path(db_path), games=room_game)
    import panel as pn

    pn.extension()
    if pn.config.nthreads is None:
        pn.config.nthreads = ROOMS_THREADS
    base = public_base or f"http://{_host(address)}:{port}/"

    def say_links() -> None:
        if announce is None:
            print(served_line(lang, url=base, teacher=f"{base}teacher?key={key}"),
                  file=out or sys.stdout, flush=True)
        else:
            announce(key)

    from tornado.ioloop import IOLoop

    if threaded:
        say_links()
    else:
        # said once the server's loop runs, so it is listening: a link followed as soon as it
        # is printed was refused while the port was not yet bound (seen in a fresh-clone run
        # beside a busy core: test_class_browser's teacher link, ERR_CONNECTION_REFUSED)
        IOLoop.current().add_callback(say_links)
    if show and show_teacher and not threaded:
        import webbrowser

        from wargame.ui.rooms import TEACHER_PATH

        # run once the server's loop starts (it is listening by then); Panel's own ``show``
        # opens the landing page
        IOLoop.current().add_callback(webbrowser.open, f"{base}{TEACHER_PATH}?key={key}")
        show = False
    try:
        return pn.serve(rooms_apps(manager, key, lang, public_base), port=port, address=address,
                        websocket_origin=origins, show=show, title="wargame: rooms",
                        threaded=threaded, extra_patterns=component_routes(),
                        verbose=False, websocket_max_message_size=WEBSOCKET_MAX_BYTES)
    finally:
        if not threaded:  # Ctrl-C stopped the loop (Panel's SIGINT handler), or it failed
            manager.close()
