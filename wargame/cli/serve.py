"""``wargame serve``: one game's dashboard, or with ``--rooms`` the rooms of a class
(wargame.ui.serve)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any, TextIO

from wargame.cli.common import (
    MAX_PORT,
    CommandFailed,
    UsageError,
    describe,
    excerpt,
    in_range,
    os_error,
    seed_arg,
)
from wargame.cli.scenario import print_summary
from wargame.cli.text import HELP, TEXT
from wargame.i18n import language


def add_parser(sub: Any) -> None:
    serve = sub.add_parser("serve", help=TEXT["serve.help"], description=TEXT["serve.help"])
    serve.add_argument("--scenario", default="normandy", help=HELP["serve.scenario"])
    serve.add_argument("--port", type=in_range(1, MAX_PORT), default=5006,
                       help=HELP["serve.port"])
    serve.add_argument("--address", default=None, metavar="ADDR", help=TEXT["serve.address"])
    serve.add_argument("--allow-origin", dest="allow_origin", action="append", default=[],
                       metavar="HOST[:PORT]", help=TEXT["serve.origin"])
    serve.add_argument("--seed", type=seed_arg, default=None, help=HELP["serve.seed"])
    serve.add_argument("--variant", action="append", default=[], metavar="NAME",
                       help=HELP["serve.variant"])
    serve.add_argument("--no-show", dest="show", action="store_false", help=HELP["serve.no_show"])
    serve.add_argument("--computer", choices=("none", "axis", "allied"), default="none",
                       help=HELP["serve.computer"])
    serve.add_argument("--rooms", default=None, metavar="PATH.sqlite", help=HELP["serve.rooms"])
    serve.add_argument("--teacher-key", dest="teacher_key", default=None, metavar="KEY",
                       help=HELP["serve.teacher_key"])
    serve.set_defaults(handler=cmd_serve)


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    if getattr(args, "rooms", None):
        return cmd_serve_rooms(args, out)
    info = describe(args.scenario)  # unknown scenario: exit 2 before starting anything
    try:  # one serve path for every game (wargame.ui.serve.build_dashboard)
        from wargame.ui.serve import serve_dashboard
    except ImportError as exc:
        print_summary(info, out)
        print(TEXT["serve.not_yet"].format(error=exc), file=out)
        return 0
    options = {"scenario": args.scenario, "port": args.port, "seed": args.seed,
               "variants": list(args.variant), "show": args.show, "computer": args.computer}
    if language() != "en":  # --lang / LANG, resolved by main(); English is the default
        options["lang"] = language()
    if args.address is not None or args.allow_origin:
        options.update(address=args.address, allow_origins=list(args.allow_origin))
    try:
        serve_dashboard(**options)
    except ValueError as exc:  # a bad variant, address or origin: refused before serving
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:  # Ctrl-C is how a server is stopped
        return 0
    except OSError as exc:  # the port is taken, or the address is not this machine's
        address = args.address or os.environ.get("WARGAME_ADDRESS") or "127.0.0.1"
        raise CommandFailed(TEXT["serve.failed"].format(
            address=address, port=args.port, reason=os_error(exc))) from None
    return 0


def cmd_serve_rooms(args: argparse.Namespace, out: TextIO) -> int:
    """``wargame serve --rooms PATH.sqlite``: the rooms' pages (wargame.ui.serve.serve_rooms)."""
    from wargame.ui.serve import serve_rooms

    path = Path(args.rooms)
    if path.is_dir():
        raise UsageError(HELP["serve.rooms_folder"].format(path=excerpt(args.rooms)))
    from wargame.rooms import RoomsDBError

    try:
        serve_rooms(path, port=args.port, show=args.show, address=args.address,
                    allow_origins=list(args.allow_origin), key=args.teacher_key, out=out,
                    lang=language())
    except RoomsDBError as exc:  # another server holds the file, a FIFO, a damaged file...
        raise CommandFailed(str(exc)) from None
    except ValueError as exc:  # a bad address or origin: refused before serving
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        address = args.address or os.environ.get("WARGAME_ADDRESS") or "127.0.0.1"
        raise CommandFailed(TEXT["serve.failed"].format(
            address=address, port=args.port, reason=os_error(exc))) from None
    return 0
