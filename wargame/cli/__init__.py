"""The ``wargame`` command: odds, bombard, scenario list/info/validate, serve, autoplay, study,
rooms list/export/delete, class (``wargame.class_server``).

Memoir '44: ``odds --game memoir44 --dice N --target T``, ``scenario list/info`` and ``scenario
import FILE.m44`` (a community layout into the user scenario folder).

Exit codes: 0 success; 1 the command could not do its work (a scenario failed validation, a
file could not be read or written, the port is taken); 2 bad input (argparse errors, numbers out
of range, unknown scenario or variant); 3 a feature that is not installed yet (scenario
validation); 70 an unexpected error inside wargame (a bug: ``main``'s last guard, with the
error's kind and message); 130 interrupted (Ctrl-C); 141 the reader of the output went away
(``| head``). Every failure is one line on stderr, never a traceback (``main``'s guard).
A file named on the command line is opened only if it is a regular file, within a size
limit (``wargame.scenario_errors.read_bytes``): a FIFO or a folder is refused at once.
Heavy modules (pandas, Panel, the scenario loader) are imported inside the commands.

One module per command (``odds``, ``bombard``, ``scenario``, ``serve``, ``autoplay``,
``study``, ``rooms``, ``classroom`` for ``class``), each with its ``add_parser``; the bounds,
argument types, errors and the guard in ``wargame.cli.common``; the messages in
``wargame.cli.text``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from wargame.cli import autoplay, bombard, classroom, odds, rooms, scenario, serve, study
from wargame.cli.autoplay import MAX_GAMES
from wargame.cli.common import (
    EXIT_BROKEN_PIPE,
    EXIT_FAILED,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    GAMES,
    MAX_PORT,
    MAX_SEED,
    MEMOIR,
    MIN_SEED,
    PLAYERS,
    CommandFailed,
    Parser,
    UsageError,
    argparse_in_language,
    guarded,
    printable,
    take_lang,
)
from wargame.cli.odds import M44_TARGETS, M44_TERRAINS
from wargame.cli.study import MAX_STUDY_GAMES
from wargame.cli.text import ARGPARSE_TEXT, CODES, HELP, ROOMS_TEXT, STUDY_TEXT, TEXT
from wargame.i18n import LANGUAGES, resolve_language, using_language

__all__ = ["main", "build_parser", "TEXT", "HELP", "STUDY_TEXT", "ROOMS_TEXT", "ARGPARSE_TEXT",
           "CODES", "GAMES", "PLAYERS", "MEMOIR", "M44_TARGETS", "M44_TERRAINS", "MAX_PORT",
           "MAX_GAMES", "MAX_STUDY_GAMES", "MIN_SEED", "MAX_SEED", "EXIT_FAILED", "EXIT_USAGE",
           "EXIT_INTERNAL", "EXIT_INTERRUPTED", "EXIT_BROKEN_PIPE", "UsageError",
           "CommandFailed"]

COMMANDS = (odds, bombard, scenario, serve, autoplay, study, rooms, classroom)
"""The command modules, in the order ``wargame --help`` lists them."""


def _installed_version() -> str:
    """The installed distribution's version (a wheel's, or the checkout's editable one)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("wargame")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return TEXT["version.unknown"]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog=TEXT["prog"], description=TEXT["description"])
    # read (and taken out of the arguments) by main() wherever it stands: ``wargame odds
    # --lang pt ...`` works too; listed here for --help
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=TEXT["lang.help"])
    parser.add_argument("--version", action="version", version=f"wargame {_installed_version()}",
                        help=TEXT["version.help"])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it).

    The one guard of every command (``wargame.cli.common.guarded``): whatever goes wrong
    becomes one line on stderr and an exit code (module docstring), never a traceback."""
    argv = list(argv) if argv is not None else sys.argv[1:]
    asked, argv = take_lang(argv)
    try:
        lang = resolve_language(asked)
    except ValueError as exc:
        print(printable(f"{TEXT['prog']}: error: --lang: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    with using_language(lang), argparse_in_language():
        return guarded(build_parser(), argv)
