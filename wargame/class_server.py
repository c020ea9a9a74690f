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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from wargame.i18n import LANGUAGES, Catalogue, language

__all__ = ["network_addresses", "class_origins", "plan_class", "ClassPlan",
           "default_rooms_file", "add_class_parser", "CLASS_TEXT", "DEFAULT_PORT"]

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
