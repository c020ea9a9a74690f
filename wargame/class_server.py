"""``wargame class``: a class's rooms served on the school network by one command (issue #29).

``wargame class [--lang pt] [--port N] [--rooms FILE] [--no-show] [--teacher-key KEY]`` finds
this machine's network addresses (``network_addresses``: the IPv4 addresses of its interfaces,
without loopback and link-local ones), listens on every interface when it has one (else on
localhost only, and says so), allows exactly those addresses, the machine's name and localhost
as websocket origins (``class_origins``), keeps the rooms in ``default_rooms_file()`` (the
user's data folder, ``wargame.paths.user_data_home``), prints the students' link
(``http://ADDRESS:PORT/``) and the teacher's (with its key, printed once) and opens the
teacher's page. It is ``wargame serve --rooms`` (``wargame.ui.serve.serve_rooms``) with the
addresses found rather than typed. Ctrl+C stops it; the rooms are kept and resume at the next
start. The address logic is pure (``plan_class``) and the three ways of finding addresses
are separate functions, so tests replace them (docs/serving.md).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from wargame.i18n import LANGUAGES, Catalogue, language

__all__ = ["network_addresses", "class_origins", "plan_class", "ClassPlan",
           "default_rooms_file", "add_class_parser", "CLASS_TEXT", "DEFAULT_PORT",
           "BINDER_PAGES", "binder_page", "binder_teacher_key", "binder_links"]

DEFAULT_PORT = 5006  # as in CLASS_TEXT["port"]
# an address of a private range to "connect" a UDP socket to: connecting a datagram socket
# sends nothing, it only asks the kernel which local address would be used (the interface of
# the default route); no network access is needed, and none happens
ROUTE_PROBE = ("10.254.254.254", 1)
# interfaces of containers and virtual machines on this computer: students cannot reach them
VIRTUAL_INTERFACES = ("lo", "docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "cni",
                      "flannel", "tun", "tap", "utun", "zt")

CLASS_TEXT = Catalogue("cli.class", {
    "help": "serve rooms for a class on this computer's network: finds its address, prints "
            "the students' link and the teacher's, opens the teacher's page",
    "port": "the port to listen on (default 5006)",
    "rooms": "the rooms file (SQLite; default: class/rooms.sqlite in the user's data folder: "
             "WARGAME_HOME, else ~/.local/share/wargame)",
    "no_show": "do not open the teacher's page in a browser",
    "teacher_key": "the key of the teacher's page, 12 characters or more (default: "
                   "WARGAME_TEACHER_KEY, else a new random key at each start)",
    "lang": "the language of the pages and of the seats (also: LANG)",
    "rooms_folder": "--rooms {path}: expected an SQLite file, found a folder",
    "no_network": "No network address found on this computer: serving on this computer only. "
                  "Connect it to the school network and start again to let the students in.",
    "students": "Students open:  {url}   and type their room's code",
    "also": "  (also:  {urls})",
    "teacher": "Teacher's page: {url}",
    "teacher_note": "  (keep this link to yourself: it opens every room)",
    "new_key": "  (a new random key at each start; --teacher-key KEY keeps one)",
    "file": "Rooms kept in {path}",
    "stop": "Ctrl+C stops the server; the rooms are kept and resume at the next start.",
    "stopped": "Server stopped; the rooms are kept in {path}.",
    "failed": "cannot serve on port {port}: {reason}",
})


# ---------------------------------------------------------------------- finding addresses
def usable_address(text: str) -> bool:
    """True for an IPv4 address other machines may reach: not loopback (127.x), link-local
    (169.254.x, no network configured), unspecified, multicast or reserved."""
    try:
        addr = ipaddress.ip_address(str(text).split("%", 1)[0])
    except ValueError:
        return False
    return (addr.version == 4 and not addr.is_loopback and not addr.is_link_local
            and not addr.is_unspecified and not addr.is_multicast and not addr.is_reserved)


def route_address() -> list[str]:
    """The local address of the default route (the UDP-connect probe: nothing is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(ROUTE_PROBE)
            return [sock.getsockname()[0]]
    except OSError:
        return []


def interface_addresses() -> list[str]:
    """The IPv4 addresses of this machine's interfaces, those of containers and virtual
    machines left out (psutil, installed with dask's distributed; none without it)."""
    try:
        import psutil
    except ImportError:
        return []
    found = []
    try:
        interfaces = psutil.net_if_addrs()
    except (OSError, RuntimeError):
        return []
    for name, addresses in interfaces.items():
        if name.lower().startswith(VIRTUAL_INTERFACES):
            continue
        found += [a.address for a in addresses if a.family == socket.AF_INET]
    return found


def hostname_addresses(hostname: str | None = None) -> list[str]:
    """The IPv4 addresses this machine's name resolves to."""
    try:
        infos = socket.getaddrinfo(hostname or socket.gethostname(), None, socket.AF_INET)
    except (OSError, UnicodeError):
        return []
    return [str(info[4][0]) for info in infos]


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, the default route's first, then the
    interfaces', then the host name's; without duplicates, loopback or link-local ones.
    Empty when the machine has no network."""
    found = [*route_address(), *interface_addresses(), *hostname_addresses()]
    return [a for a in dict.fromkeys(found) if usable_address(a)]


# ---------------------------------------------------------------------- the plan
@dataclass(frozen=True)
class ClassPlan:
    """What ``wargame class`` serves: ``listen`` (the address to listen on), ``origins`` (the
    websocket origins allowed), ``students`` (the students' link), ``also`` (other links to
    the same server), ``public_base`` (the base of the seat links and QR codes)."""

    port: int
    addresses: tuple[str, ...]
    listen: str
    origins: tuple[str, ...]
    students: str
    also: tuple[str, ...]

    @property
    def public_base(self) -> str:
        return self.students

    @property
    def networked(self) -> bool:
        return bool(self.addresses)


def class_origins(addresses: list[str] | tuple[str, ...], port: int,
                  hostname: str | None = None) -> list[str]:
    """The ``HOST:PORT`` origins ``wargame class`` allows: localhost, 127.0.0.1, each of
    ``addresses`` and, with a network, the machine's name (``teacher-pc`` and, for a name
    without a dot, ``teacher-pc.local``: what a student may type instead of the address)."""
    hosts = ["localhost", "127.0.0.1", *addresses]
    name = (hostname or "").strip().lower()
    if addresses and name and name != "localhost" and not usable_address(name) \
            and all(c.isalnum() or c in "-." for c in name):
        hosts.append(name)
        if "." not in name:
            hosts.append(f"{name}.local")
    return [f"{host}:{port}" for host in dict.fromkeys(hosts)]


def plan_class(port: int, addresses: list[str] | tuple[str, ...],
               hostname: str | None = None) -> ClassPlan:
    """The plan for ``addresses`` (``network_addresses()``): with one or more, listen on
    every interface (0.0.0.0) and give the first as the students' link; with none, listen on
    127.0.0.1 and give ``http://localhost:PORT/``."""
    addresses = tuple(a for a in dict.fromkeys(addresses) if usable_address(a))
    origins = tuple(class_origins(addresses, port, hostname))
    if not addresses:
        return ClassPlan(port, (), "127.0.0.1", origins, f"http://localhost:{port}/", ())
    links = [f"http://{a}:{port}/" for a in addresses]
    return ClassPlan(port, addresses, "0.0.0.0", origins, links[0], tuple(links[1:]))


def default_rooms_file() -> Path:
    """Where ``wargame class`` keeps the rooms without ``--rooms``: ``class/rooms.sqlite``
    in the user's data folder (``WARGAME_HOME``, else ``XDG_DATA_HOME/wargame``, else
    ``~/.local/share/wargame``)."""
    from wargame.paths import user_data_home

    return user_data_home() / "class" / "rooms.sqlite"


# ---------------------------------------------------------------------- the command
def add_class_parser(sub: Any, port_type: Any = int, usage_error: type = ValueError,
                     failed: type = OSError) -> None:
    """``wargame class`` on the command line's subparsers (``wargame.cli.build_parser``):
    ``port_type`` checks ``--port``; the command raises ``usage_error`` (exit 2) and
    ``failed`` (exit 1), the command line's own exceptions."""
    parser = sub.add_parser("class", help=CLASS_TEXT["help"], description=CLASS_TEXT["help"])
    parser.add_argument("--port", type=port_type, default=DEFAULT_PORT,
                        help=CLASS_TEXT["port"])
    parser.add_argument("--rooms", default=None, metavar="FILE",
                        help=CLASS_TEXT["rooms"])
    parser.add_argument("--no-show", dest="show", action="store_false",
                        help=CLASS_TEXT["no_show"])
    parser.add_argument("--teacher-key", dest="teacher_key", default=None, metavar="KEY",
                        help=CLASS_TEXT["teacher_key"])
    # read and taken out by wargame.cli.main wherever it stands; listed here for --help
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=CLASS_TEXT["lang"])
    parser.set_defaults(handler=run_class, usage_error=usage_error, failed=failed)


def announce_lines(plan: ClassPlan, key: str, path: Path, generated: bool = True) -> list[str]:
    """What ``wargame class`` prints once the rooms are open (the key is printed here only;
    ``generated``: the key is a new random one)."""
    from wargame.ui.rooms import TEACHER_PATH

    lines = [] if plan.networked else [CLASS_TEXT["no_network"]]
    lines.append(CLASS_TEXT["students"].format(url=plan.students))
    if plan.also:
        lines.append(CLASS_TEXT["also"].format(urls="  ".join(plan.also)))
    lines.append(CLASS_TEXT["teacher"].format(url=f"{plan.public_base}{TEACHER_PATH}?key={key}"))
    lines.append(CLASS_TEXT["teacher_note"])
    if generated:
        lines.append(CLASS_TEXT["new_key"])
    lines.append(CLASS_TEXT["file"].format(path=path))
    lines.append(CLASS_TEXT["stop"])
    return lines


def run_class(args: argparse.Namespace, out: TextIO) -> int:
    """``wargame class``: exit 0 after Ctrl+C; 2 for a short key or a folder as --rooms; 1
    when the port is taken (``wargame.cli`` turns the exceptions into one line)."""
    from wargame.ui.serve import serve_rooms

    UsageError, CommandFailed = args.usage_error, args.failed  # noqa: N806

    path = Path(args.rooms).expanduser() if args.rooms else default_rooms_file()
    if path.is_dir():
        raise UsageError(CLASS_TEXT["rooms_folder"].format(path=str(path)[:80]))
    path.parent.mkdir(parents=True, exist_ok=True)  # an OSError: one line from cli.main
    plan = plan_class(args.port, network_addresses(), socket.gethostname())

    generated = not (args.teacher_key or os.environ.get("WARGAME_TEACHER_KEY"))

    def announce(key: str) -> None:
        print("\n".join(announce_lines(plan, key, path, generated)), file=out, flush=True)

    try:
        serve_rooms(path, port=args.port, show=args.show, address=plan.listen,
                    allow_origins=list(plan.origins), key=args.teacher_key, lang=language(),
                    public_base=plan.public_base, announce=announce, show_teacher=True)
    except ValueError as exc:  # a short key
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:  # Ctrl+C before the loop's own handler is installed
        pass
    except OSError as exc:  # the port is taken
        reason = exc.strerror or type(exc).__name__
        raise CommandFailed(CLASS_TEXT["failed"].format(port=args.port, reason=reason)) from None
    print(CLASS_TEXT["stopped"].format(path=path), file=out, flush=True)
    return 0


# ---------------------------------------------------------------------- rooms on Binder
BINDER_PAGES = {"rooms": "/", "room": "/room", "teacher": "/teacher"}
"""The rooms' pages on Binder (issue #29 item 4), each a Panel app file of binder/ served by
jupyter-panel-proxy (jupyter-panel-proxy.yml) at ``<server>/panel/<name>``, all in the one
``panel serve`` process beside ``/panel/app``: ``rooms`` (also ``/panel/``, the proxy's
index) creates and joins rooms, ``room`` is a seat, ``teacher`` the teacher's list. The
pages' links are relative (``room?seat=...``, ``./?lang=pt``), so they resolve among these
names under the proxy's prefix. Which path of ``wargame serve --rooms`` each one is."""

_binder: dict[str, Any] = {}
_binder_lock = threading.Lock()


def binder_key_file() -> Path:
    """Where the Binder rooms' teacher key is kept: ``class/binder-teacher-key`` in the
    user's data folder (beside the rooms file; readable by the user only)."""
    return default_rooms_file().parent / "binder-teacher-key"


def binder_teacher_key() -> str:
    """The teacher key of the rooms on Binder: ``WARGAME_TEACHER_KEY`` (12 characters or
    more), else a random 128-bit key made once and kept in ``binder_key_file()``, so the
    Panel server (which has no terminal to print it on) and a notebook cell
    (``binder_links``) read the same key. The first process to ask writes it (a complete
    file linked into place: another process never reads half a key)."""
    from wargame.ui.serve import teacher_key

    if os.environ.get("WARGAME_TEACHER_KEY"):
        return teacher_key()
    path = binder_key_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        draft = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(teacher_key() + "\n")
        try:
            os.link(draft, path)  # atomic: fails if another process linked its key first
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    key = path.read_text(encoding="utf-8").strip()
    if not key:  # emptied by hand: teacher_key("") would make a new key at every call
        raise ValueError(f"{path}: the teacher key is empty; delete the file for a new one")
    return teacher_key(key)  # a key under 12 characters (edited by hand) is refused


def binder_rooms() -> tuple[Any, str, dict[str, Any]]:
    """The Binder rooms' one ``RoomManager`` (on ``default_rooms_file()``), teacher key and
    pages (``wargame.ui.serve.rooms_apps``: one wrong-key guard for all), made at the first
    page asked for in this process and shared by every session after it."""
    with _binder_lock:
        if not _binder:
            from wargame.rooms import RoomManager
            from wargame.ui.serve import room_game, rooms_apps

            path = default_rooms_file()
            path.parent.mkdir(parents=True, exist_ok=True)
            manager = RoomManager(path, games=room_game)
            key = binder_teacher_key()
            _binder.update(manager=manager, key=key, apps=rooms_apps(manager, key, None))
        return _binder["manager"], _binder["key"], _binder["apps"]


def binder_page(name: str) -> Any:
    """The page ``name`` (a key of ``BINDER_PAGES``) for the current Panel session, as
    ``wargame serve --rooms`` would serve it at that page's path (its language from
    ``?lang=``, else the seat's, else the server's: ``LANG``)."""
    if name not in BINDER_PAGES:
        raise ValueError(f"binder page {str(name)[:20]!r}: expected one of "
                         f"{', '.join(BINDER_PAGES)}")
    return binder_rooms()[2][BINDER_PAGES[name]]()


def binder_links(prefix: str | None = None) -> dict[str, str]:
    """The Binder rooms' addresses, for a notebook cell: ``students`` (the landing page) and
    ``teacher`` (with its key), under ``prefix`` (default: ``JUPYTERHUB_SERVICE_PREFIX``,
    the Binder session's path, else ``/``). Relative to the server: open them in the
    browser that has the Binder session."""
    base = prefix if prefix is not None else os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/")
    base = base if base.endswith("/") else base + "/"
    return {"students": f"{base}panel/rooms",
            "teacher": f"{base}panel/teacher?key={binder_teacher_key()}"}
