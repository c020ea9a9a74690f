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
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TextIO

from wargame.event_text import RESULT_CODES
from wargame.i18n import LANGUAGES, Catalogue, language, resolve_language, using_language

__all__ = ["main", "build_parser", "TEXT"]

GAMES = ("normandy", "dragoon")
PLAYERS = ("greedy", "random", "easy", "normal", "hard")  # every name of bots.play.POLICY_NAMES
MEMOIR = "memoir"  # Memoir '44's one id (issue #27), game.kind too
OLD_GAME_WORDS = {"memoir44": MEMOIR}  # still accepted: the --game of earlier versions
M44_TARGETS = ("infantry", "armor", "artillery")
# the target terrains of wargame.analysis.memoir.TERRAINS (a test checks they are the same)
M44_TERRAINS = ("plain", "woods", "hedgerow", "buildings", "hills", "bunker", "sandbags", "beach")
# Bounds of the Memoir '44 odds (M44 p.12): no roll of the game comes near 30 dice (4 at most
# before cards); a unit has 1-4 figures; no two hexes of the 13 x 9 board are 20 apart.
M44_MAX_DICE = 30
M44_MAX_FIGURES = 4
M44_MAX_DISTANCE = 20
MAX_PORT = 65535
MAX_GAMES = 1000  # a Normandy bot campaign: ~7-8 s of CPU (docs/bots.md): 1000 is hours already
# wargame study (issue #31): a million games is weeks of CPU already, and the study's tables
# grow with it (10**9 ended in MemoryError); more workers than twice the cores only add
# processes and memory (12 on 2 cores: 14 processes, 1.2 GB). wargame.analysis.study checks
# the same bounds (MAX_STUDY_GAMES, max_workers) for callers of run_study.
MAX_STUDY_GAMES = 1_000_000
# the seeds a save holds (wargame.schema.save's MIN_SEED, MAX_SEED: a test checks they are the
# same; that module imports pydantic, which the argument parser should not wait for)
MIN_SEED, MAX_SEED = -(2**63), 2**63 - 1
EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 1, 2, 70, 130, 141

# Every user-facing sentence of this module, by message id (wargame.i18n: English here,
# Portuguese in wargame/locale/pt/LC_MESSAGES/wargame.po; tools/i18n.py update after a change).
TEXT = Catalogue("cli", {
    "prog": "wargame",
    "description": "Classic WWII board wargames: odds, scenarios and dashboards.",
    "odds.help": "exact odds of one attack on the combat results table (CN/OD 5.1)",
    "bombard.help": "exact odds of an air or artillery bombardment (CN/OD 6.2, 8.0)",
    "scenario.help": "list, describe and validate scenarios",
    "serve.help": "open the game dashboard in a browser",
    "autoplay.help": "computer players replay whole games (campaigns or Memoir '44) and report the score",
    "autoplay.progress": "game {game}/{games} (seed {seed}): turn {turn}/{last}",
    "autoplay.row": "seed {seed}: Allies {allied} VP, Axis {axis} VP -> {winner}; units lost: "
                    "Allied {allied_lost}, Axis {axis_lost}; {actions} actions",
    "autoplay.summary": "{games} games, {allied_player} Allies vs {axis_player} Axis: Allies won {allied_wins}, "
                        "Axis {axis_wins}, drawn {draws}; mean VP Allies {allied_mean:.1f}, Axis {axis_mean:.1f}",
    "autoplay.saved": "last game saved to {path} (load it in the dashboard to replay it)",
    "autoplay.player": "no computer player {name!r} for the {side} in {game} games; known: {known}",
    "not_negative": "must be a whole number >= 0, got {value!r}",
    "whole_number": "must be a whole number, got {value!r}",
    "in_range": "must be a whole number from {low} to {high}, got {value!r}",
    "seed_range": "a seed is a whole number from -2**63 to 2**63 - 1 (the largest a save "
                  "holds), got {value!r}",
    "autoplay.seed_last": "--seed {seed} with --games {games}: the last game's seed would be "
                          "{last}, beyond 2**63 - 1 (the largest a save holds); give a smaller "
                          "--seed",
    "path.empty": "needs a file or folder name, got an empty string",
    "path.nul": "a file name cannot contain a NUL character",
    "error": "{prog}: error: {message}",
    "usage_error": "{prog}: error: {message} (see {prog} --help)\n",
    "os_error": "{what}: {reason}",
    "interrupted": "{prog}: interrupted",
    "too_deep": "the input is nested too deeply to read",
    "memory": "not enough memory for this command",
    "internal": "unexpected error inside wargame ({kind}: {message}); please report it with "
                "the command line",
    "save.folder": "--save {path}: that is a folder; give a file name",
    "save.parent": "--save {path}: cannot write in {folder} ({reason})",
    "serve.failed": "cannot serve on {address}:{port}: {reason}",
    "serve.address": "the address to listen on (default: WARGAME_ADDRESS or 127.0.0.1; 0.0.0.0 "
                     "serves the whole network and then needs --allow-origin)",
    "serve.origin": "HOST[:PORT] of the page as the browsers type it, e.g. 192.168.1.20:5006; "
                    "repeatable; required unless the address is localhost (docs/serving.md)",
    "odds.head": "{title}: attack {attack} against defence {defence}",
    "odds.ratio": "ratio {ratio}",
    "odds.beyond": " (beyond the table: column {column})",
    "odds.shift": "  {reason}: {columns:+d} column(s)",
    "odds.column": "column {column}",
    "odds.clamped": "  (clamped at the end of the table)",
    "bombard.head": "{title}: strength {strength} x vulnerability {vulnerability} = {value}",
    "bombard.column": "column {base}{shifted}",
    "bombard.shifted": " -> {column} after {shift:+d} column(s) of terrain",
    "table.head": "  {result:<9} {in36:>5}  {pct:>6}",
    "table.row": "  {result:<9} {in36:>2}/36  {pct:>5.1f}%  {bar}",
    "scenario.none": "no bundled scenarios",
    "scenario.unknown": "unknown scenario: {error}",
    "scenario.valid": "ok: {title} ({units} units, {hexes} hexes)",
    "scenario.no_validate": "scenario validation is not available yet ({error})",
    "import.help": "import a Memoir '44 Scenario Editor layout (.m44) as a playable scenario",
    "import.file": "the .m44 file (JSON saved by the Scenario Editor)",
    "import.id": "the scenario's name (played as memoir44-NAME); default: from the file name",
    "import.title": "the title shown in lists (default: the file's own name for it)",
    "import.replace": "overwrite an earlier import of the same name",
    "import.done": "imported memoir44-{id}: {title} ({units} units) -> {path}",
    "import.note": "note: {note}",
    "import.play": "play it: wargame serve --scenario memoir44-{id}",
    "serve.not_yet": "the dashboard is not available yet ({error}); scenario summary above",
    "info.turns": "turns {first}-{last}",
    "info.hexes": "{count} land hexes: {detail}",
    "info.units": "{count} units: {detail} ({ss} SS)",
    "info.places": "{count} named places",
    "info.warning": "note: {warning}",
    "info.provenance": "{what}: {provenance}",
    "odds.need": "--attack and --defense are required for {game}",
    "m44.dice": "Memoir '44: number of battle dice rolled",
    "m44.target": "Memoir '44: the target unit type",
    "m44.figures": "Memoir '44: figures in the target unit (adds the chance to eliminate it)",
    "m44.attacker": "Memoir '44: the attacking unit type (dice from range and terrain)",
    "m44.distance": "Memoir '44: distance to the target in hexes (with --attacker)",
    "m44.terrain": "Memoir '44: the target's terrain (woods, hills, bunker, sandbags ...)",
    "m44.stars": "Memoir '44: stars also hit (Air Power)",
    "m44.need": "Memoir '44 odds need --target and either --dice or --attacker with --distance",
    "m44.head": "Memoir '44: {dice} dice against {target}{figures}",
    "m44.figures_note": " ({figures} figures)",
    "m44.battle": "{attacker} at {distance} hex(es) against {target} in {terrain}: "
                  "{base} dice{steps} -> {dice}",
    "m44.hits_head": "  hits  chance",
    "m44.hits_row": "  {k:>4}  {pct:>6.2f}%  {bar}",
    "m44.expected": "expected hits {value:.3f}",
    "m44.eliminate": "eliminate ({figures} hits or more): {pct:.2f}%",
    "m44.flag": "at least one flag: {pct:.2f}%",
    "info.medals": "medals to win: Allies {allies}, Axis {axis}",
    "info.side_units": "{side}: {infantry} infantry, {armor} armor, {artillery} artillery",
    "info.cards": "cards: Allies {allies}, Axis {axis}; {starts} start",
    "table.result": "result",
    "table.chance": "chance",
    "odds.attack": "total attack",
    "odds.defence": "total defence",
    "lang.help": "language of the output: en or pt (default: the LANG environment, else en)",
    "version.help": "print the installed version and exit",
    "version.unknown": "(not installed: run from a checkout)",
})

# The rulebook's result codes (CN/OD 5.1.6, 6.2 tables), shown under the odds table: the
# dashboards' words too (one word per concept, wargame.event_text.RESULT_CODES).
CODES = RESULT_CODES


# The help texts of the options (``--help``), by option (wargame.i18n, as TEXT).
HELP = Catalogue("cli.help", {
    "json": "print JSON",
    "odds.shift": "column shift, repeatable: + to the right (attacker), - to the left (defender)",
    "bombard.strength": "air points, or the artillery's summed attack",
    "bombard.vulnerability": "sum of the targets' vulnerability indices",
    "bombard.shift": "terrain columns: negative = to the left (e.g. -2 for a city)",
    "scenario.list": "the bundled scenarios",
    "scenario.info": "summary of one bundled scenario",
    "scenario.validate": "check a scenario folder or file, an .m44 file or a Memoir '44 id",
    "import.docs": "{help} (docs/memoir44-import.md)",
    "serve.scenario": "the scenario to serve (wargame scenario list)",
    "serve.port": "the port to listen on",
    "serve.seed": "the game's seed (default: the scenario's usual one)",
    "serve.variant": "optional rule, repeatable: bfn (all), bfn-19.1 ... bfn-19.8 (Battle for "
                     "Normandy 19; see docs/bfn-variants.md)",
    "serve.no_show": "do not open a browser",
    "serve.computer": "the side the computer plays (the hard player unless the page picks "
                      "another: docs/bots.md)",
    "serve.rooms": "serve rooms for a class instead of one dashboard: a seat link per side, "
                   "every action stored in this SQLite file (docs/rooms-seats.md)",
    "serve.teacher_key": "with --rooms: the key of the teacher's page /teacher?key=KEY "
                         "(default: WARGAME_TEACHER_KEY or a random key, printed)",
    "serve.rooms_folder": "--rooms {path}: expected an SQLite file, found a folder",
    "autoplay.scenario": "a bundled id (wargame scenario list)",
    "autoplay.allied": "who plays the Allies (default: greedy in campaigns, random in "
                       "Memoir '44)",
    "autoplay.axis": "who plays the Axis (as --allied)",
    "autoplay.seed": "seed of the first game",
    "autoplay.games": "games, seeds seed, seed+1, ...",
    "variant": "optional rule, repeatable (see serve --help)",
    "autoplay.save": "write the last game's save file",
    "autoplay.quiet": "no progress lines on stderr",
    "save.not_folder": "not a folder",
    "save.denied": "permission denied",
})


class UsageError(Exception):
    """Bad input found after parsing: printed on stderr, exit code 2."""


def _non_negative(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(TEXT["whole_number"].format(value=value)) from None
    if number < 0:
        raise argparse.ArgumentTypeError(TEXT["not_negative"].format(value=value))
    return number


def _whole(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(TEXT["whole_number"].format(value=value)) from None


def _in_range(low: int, high: int) -> Any:
    """An argparse type: a whole number from ``low`` to ``high`` (both included)."""

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            number = None
        if number is None or not low <= number <= high:
            raise argparse.ArgumentTypeError(
                TEXT["in_range"].format(low=low, high=high, value=_excerpt(value)))
        return number

    parse.__name__ = f"whole number {low}-{high}"  # argparse names the type in some messages
    return parse


def _seed(value: str) -> int:
    """An argparse type: a seed a save can hold (``wargame.schema.save``: a signed 64-bit
    whole number); a larger one would write a save that does not load (issue #31)."""
    try:
        number = int(value)
    except ValueError:
        number = None
    if number is None or not MIN_SEED <= number <= MAX_SEED:
        raise argparse.ArgumentTypeError(TEXT["seed_range"].format(value=_excerpt(value)))
    return number


def _path_arg(value: str) -> str:
    """An argparse type for file and folder names: not empty, no NUL (the OS refuses it)."""
    if not value.strip():
        raise argparse.ArgumentTypeError(TEXT["path.empty"])
    if "\0" in value:
        raise argparse.ArgumentTypeError(TEXT["path.nul"])
    return value


def _printable(text: str) -> str:
    """``text`` on one line: control characters from the user's input shown as ``?``."""
    return "".join(c if c.isprintable() else "?" for c in text)


def _excerpt(value: Any, limit: int = 40) -> str:
    """A short excerpt of user input for error messages."""
    text = str(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


class _Parser(argparse.ArgumentParser):
    """argparse, with its usage errors on one line (the usage itself is in ``--help``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, TEXT["usage_error"].format(prog=self.prog,
                                                         message=_printable(message)))


def _installed_version() -> str:
    """The installed distribution's version (a wheel's, or the checkout's editable one)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("wargame")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return TEXT["version.unknown"]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=TEXT["prog"], description=TEXT["description"])
    # read (and taken out of the arguments) by main() wherever it stands: ``wargame odds
    # --lang pt ...`` works too; listed here for --help
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=TEXT["lang.help"])
    parser.add_argument("--version", action="version", version=f"wargame {_installed_version()}",
                        help=TEXT["version.help"])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    odds = sub.add_parser("odds", help=TEXT["odds.help"], description=TEXT["odds.help"])
    odds.add_argument("--game", choices=GAMES + (MEMOIR,), required=True,
                      type=lambda word: OLD_GAME_WORDS.get(word, word))
    odds.add_argument("--attack", type=_non_negative, default=None, help=TEXT["odds.attack"])
    odds.add_argument(
        "--defense", "--defence", dest="defense", type=_non_negative, default=None,
        help=TEXT["odds.defence"],
    )
    # Memoir '44: battle dice (M44 p.12) -- either --dice N or --attacker/--distance/--terrain
    odds.add_argument("--dice", type=_in_range(0, M44_MAX_DICE), default=None,
                      help=TEXT["m44.dice"])
    odds.add_argument("--target", choices=M44_TARGETS, default=None, help=TEXT["m44.target"])
    odds.add_argument("--figures", type=_in_range(1, M44_MAX_FIGURES), default=None,
                      help=TEXT["m44.figures"])
    odds.add_argument("--attacker", choices=M44_TARGETS, default=None, help=TEXT["m44.attacker"])
    odds.add_argument("--distance", type=_in_range(1, M44_MAX_DISTANCE), default=None,
                      help=TEXT["m44.distance"])
    odds.add_argument("--terrain", choices=M44_TERRAINS, default="plain", help=TEXT["m44.terrain"])
    odds.add_argument("--stars-hit", action="store_true", help=TEXT["m44.stars"])
    odds.add_argument("--shift", type=_whole, action="append", default=[], metavar="N",
                      help=HELP["odds.shift"])
    odds.add_argument("--json", action="store_true", help=HELP["json"])
    odds.set_defaults(handler=_cmd_odds)

    bomb = sub.add_parser("bombard", help=TEXT["bombard.help"], description=TEXT["bombard.help"])
    bomb.add_argument("--game", choices=GAMES, required=True)
    bomb.add_argument("--strength", type=_non_negative, required=True,
                      help=HELP["bombard.strength"])
    bomb.add_argument("--vulnerability", type=_non_negative, required=True,
                      help=HELP["bombard.vulnerability"])
    bomb.add_argument("--shift", type=_whole, default=0, metavar="N",
                      help=HELP["bombard.shift"])
    bomb.add_argument("--json", action="store_true", help=HELP["json"])
    bomb.set_defaults(handler=_cmd_bombard)

    scen = sub.add_parser("scenario", help=TEXT["scenario.help"])
    scen_sub = scen.add_subparsers(dest="action", metavar="ACTION", required=True)
    s_list = scen_sub.add_parser("list", help=HELP["scenario.list"])
    s_list.add_argument("--json", action="store_true", help=HELP["json"])
    s_list.set_defaults(handler=_cmd_scenario_list)
    s_info = scen_sub.add_parser("info", help=HELP["scenario.info"])
    s_info.add_argument("id")
    s_info.add_argument("--json", action="store_true", help=HELP["json"])
    s_info.set_defaults(handler=_cmd_scenario_info)
    s_val = scen_sub.add_parser("validate", help=HELP["scenario.validate"])
    s_val.add_argument("path", type=_path_arg)
    s_val.set_defaults(handler=_cmd_scenario_validate)
    s_imp = scen_sub.add_parser("import", help=TEXT["import.help"],
                                description=HELP["import.docs"].format(help=TEXT["import.help"]))
    s_imp.add_argument("file", type=_path_arg, help=TEXT["import.file"])
    s_imp.add_argument("--id", dest="name", default=None, metavar="NAME", help=TEXT["import.id"])
    s_imp.add_argument("--title", default=None, help=TEXT["import.title"])
    s_imp.add_argument("--replace", action="store_true", help=TEXT["import.replace"])
    s_imp.set_defaults(handler=_cmd_scenario_import)

    serve = sub.add_parser("serve", help=TEXT["serve.help"], description=TEXT["serve.help"])
    serve.add_argument("--scenario", default="normandy", help=HELP["serve.scenario"])
    serve.add_argument("--port", type=_in_range(1, MAX_PORT), default=5006,
                       help=HELP["serve.port"])
    serve.add_argument("--address", default=None, metavar="ADDR", help=TEXT["serve.address"])
    serve.add_argument("--allow-origin", dest="allow_origin", action="append", default=[],
                       metavar="HOST[:PORT]", help=TEXT["serve.origin"])
    serve.add_argument("--seed", type=_seed, default=None, help=HELP["serve.seed"])
    serve.add_argument("--variant", action="append", default=[], metavar="NAME",
                       help=HELP["serve.variant"])
    serve.add_argument("--no-show", dest="show", action="store_false", help=HELP["serve.no_show"])
    serve.add_argument("--computer", choices=("none", "axis", "allied"), default="none",
                       help=HELP["serve.computer"])
    serve.add_argument("--rooms", default=None, metavar="PATH.sqlite", help=HELP["serve.rooms"])
    serve.add_argument("--teacher-key", dest="teacher_key", default=None, metavar="KEY",
                       help=HELP["serve.teacher_key"])
    serve.set_defaults(handler=_cmd_serve)

    auto = sub.add_parser("autoplay", help=TEXT["autoplay.help"], description=TEXT["autoplay.help"])
    auto.add_argument("--scenario", default="normandy", help=HELP["autoplay.scenario"])
    auto.add_argument("--allied", choices=PLAYERS, default=None, help=HELP["autoplay.allied"])
    auto.add_argument("--axis", choices=PLAYERS, default=None, help=HELP["autoplay.axis"])
    auto.add_argument("--seed", type=_seed, default=1944, help=HELP["autoplay.seed"])
    auto.add_argument("--games", type=_in_range(1, MAX_GAMES), default=1,
                      help=HELP["autoplay.games"])
    auto.add_argument("--variant", action="append", default=[], metavar="NAME",
                      help=HELP["variant"])
    auto.add_argument("--save", type=_path_arg, default=None, metavar="PATH",
                      help=HELP["autoplay.save"])
    auto.add_argument("--json", action="store_true", help=HELP["json"])
    auto.add_argument("--quiet", action="store_true", help=HELP["autoplay.quiet"])
    auto.set_defaults(handler=_cmd_autoplay)

    # wargame study (wargame.analysis.study; docs/studies.md)
    study = sub.add_parser("study", help=STUDY_TEXT["help"], description=STUDY_TEXT["help"])
    study.add_argument("--scenario", default="dragoon", help=STUDY_TEXT["opt.scenario"])
    study.add_argument("--games", type=_non_negative, default=20, help=STUDY_TEXT["opt.games"])
    study.add_argument("--seed", type=_whole, default=1, help=STUDY_TEXT["opt.seed"])
    study.add_argument("--workers", type=_non_negative, default=None,
                       help=STUDY_TEXT["opt.workers"])
    study.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help=STUDY_TEXT["opt.scheduler"])
    study.add_argument("--allied", choices=PLAYERS, default=None, help=HELP["autoplay.allied"])
    study.add_argument("--axis", choices=PLAYERS, default=None, help=STUDY_TEXT["opt.axis"])
    study.add_argument("--variant", action="append", default=[], metavar="NAME",
                       help=HELP["variant"])
    study.add_argument("--whatif", default=None, metavar="FILE", help=STUDY_TEXT["opt.whatif"])
    study.add_argument("--out", default=None, metavar="DIR", help=STUDY_TEXT["opt.out"])
    study.add_argument("--json", action="store_true", help=STUDY_TEXT["opt.json"])
    study.add_argument("--quiet", action="store_true", help=STUDY_TEXT["opt.quiet"])
    study.add_argument("--retry-failed", action="store_true", help=STUDY_TEXT["opt.retry_failed"])
    study.add_argument("--dashboard", action="store_true", help=STUDY_TEXT["opt.dashboard"])
    study.set_defaults(handler=_cmd_study)
    _add_rooms_parser(sub)
    from wargame.class_server import add_class_parser  # wargame class (issue #29)

    add_class_parser(sub, _in_range(1, MAX_PORT), UsageError, CommandFailed)
    return parser


class CommandFailed(Exception):
    """The command could not do its work (a port taken, a file not written): exit code 1."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it).

    The one guard of every command: whatever goes wrong becomes one line on stderr and an exit
    code (module docstring), never a traceback."""
    argv = list(argv) if argv is not None else sys.argv[1:]
    asked, argv = _take_lang(argv)
    try:
        lang = resolve_language(asked)
    except ValueError as exc:
        print(_printable(f"{TEXT['prog']}: error: --lang: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    with using_language(lang), _argparse_in_language():
        return _main(argv)


# argparse's own words ("usage:", "options", its error messages), which it passes through
# gettext's ``_``: while the command line runs, that ``_`` reads them from this catalogue, so
# ``wargame --lang pt odds --help`` is Portuguese throughout. Keys: argparse's English msgids.
ARGPARSE_TEXT = Catalogue("cli.argparse", {
    "usage": "usage: ",
    "options": "options",
    "positional": "positional arguments",
    "help": "show this help message and exit",
    "error": "%(prog)s: error: %(message)s\n",
    "argument": "argument %(argument_name)s: %(message)s",
    "invalid_choice": "invalid choice: %(value)r (choose from %(choices)s)",
    "invalid_type": "invalid %(type)s value: %(value)r",
    "required": "the following arguments are required: %s",
    "unrecognized": "unrecognized arguments: %s",
    "expected_one": "expected one argument",
    "expected_at_most_one": "expected at most one argument",
    "expected_at_least_one": "expected at least one argument",
    "ambiguous": "ambiguous option: %(option)s could match %(matches)s",
    "not_allowed": "not allowed with argument %s",
    "one_required": "one of the arguments %s is required",
    "ignored_explicit": "ignored explicit argument %r",
})
_ARGPARSE_KEYS = {english: key for key, english in ARGPARSE_TEXT.english.items()}


def _argparse_gettext(message: str) -> str:
    key = _ARGPARSE_KEYS.get(message)
    return ARGPARSE_TEXT[key] if key is not None else message


@contextmanager
def _argparse_in_language() -> Iterator[None]:
    """argparse's ``_`` reads ``ARGPARSE_TEXT`` in the current language inside the block (the
    module's own gettext function again after it)."""
    before = argparse._  # type: ignore[attr-defined]
    argparse._ = _argparse_gettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._ = before  # type: ignore[attr-defined]


def _take_lang(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` / ``--lang=X`` anywhere before ``--`` (read before the parser is built,
    since its help texts are in that language), and the arguments without it."""
    rest: list[str] = []
    asked: str | None = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i:]
            break
        if arg == "--lang":
            asked = argv[i + 1] if i + 1 < len(argv) else ""
            i += 2
            continue
        if arg.startswith("--lang="):
            asked = arg.split("=", 1)[1]
        else:
            rest.append(arg)
        i += 1
    return asked, rest


def _main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2), already printed
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
    except KeyboardInterrupt:
        return _fail(parser, TEXT["interrupted"].format(prog=parser.prog), EXIT_INTERRUPTED)
    from wargame.scenario_errors import ScenarioError

    try:
        code = int(args.handler(args, sys.stdout) or 0)
        sys.stdout.flush()  # a closed pipe shows here, inside the guard, not at exit
        return code
    except BrokenPipeError:  # `wargame odds ... | head`: the reader is gone, stop quietly
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except UsageError as exc:
        return _fail(parser, str(exc), EXIT_USAGE)
    except KeyboardInterrupt:
        return _fail(parser, TEXT["interrupted"].format(prog=parser.prog), EXIT_INTERRUPTED)
    except (CommandFailed, ScenarioError) as exc:
        return _fail(parser, TEXT["error"].format(prog=parser.prog, message=exc), EXIT_FAILED)
    except RecursionError:
        return _fail(parser, TEXT["error"].format(prog=parser.prog, message=TEXT["too_deep"]),
                     EXIT_FAILED)
    except OSError as exc:
        return _fail(parser, TEXT["error"].format(prog=parser.prog, message=_os_error(exc)),
                     EXIT_FAILED)
    except MemoryError:
        return _fail(parser, TEXT["error"].format(prog=parser.prog, message=TEXT["memory"]),
                     EXIT_FAILED)
    except Exception as exc:  # the last guard (issue #31): a bug, still one line, its own code
        message = TEXT["internal"].format(kind=type(exc).__name__,
                                          message=_excerpt(_first_line(exc), 200))
        return _fail(parser, TEXT["error"].format(prog=parser.prog, message=message),
                     EXIT_INTERNAL)


def _first_line(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:  # a hostile __str__, a huge int in the message...
        return ""
    return text.splitlines()[0] if text else ""


def _fail(parser: argparse.ArgumentParser, message: str, code: int) -> int:
    if code == EXIT_USAGE:
        message = TEXT["error"].format(prog=parser.prog, message=message)
    try:
        print(_printable(message.splitlines()[0] if message else ""), file=sys.stderr)
    except (OSError, ValueError):  # stderr closed as well: the exit code still tells
        pass
    return code


def _os_error(exc: OSError) -> str:
    """One line for an OSError: the file named (a short excerpt) and the system's reason."""
    reason = exc.strerror or type(exc).__name__
    if exc.filename is not None:
        return TEXT["os_error"].format(what=_excerpt(exc.filename, 80), reason=reason)
    return reason if exc.strerror else _excerpt(str(exc) or reason, 120)


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so that the interpreter's final flush
    does not raise again (the recipe of Python's signal module documentation)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout without a file descriptor (tests)
        pass


# Commands --------------------------------------------------------------------------------
def _print_json(data: Any, out: TextIO) -> None:
    out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _outcome_lines(outcomes, out: TextIO) -> None:
    print(TEXT["table.head"].format(result=TEXT["table.result"], in36=TEXT["table.chance"],
                                    pct=""), file=out)
    for result, p in outcomes:
        print(
            TEXT["table.row"].format(
                result=result, in36=int(p * 36), pct=float(p) * 100, bar="#" * int(p * 36)
            ),
            file=out,
        )
    codes = dict.fromkeys(code for result, _ in outcomes for code in result.split())
    for code in codes:
        if code in CODES:
            print(f"  {code:<4} {CODES[code]}", file=out)


def _cmd_odds(args: argparse.Namespace, out: TextIO) -> int:
    if args.game == MEMOIR:
        return _cmd_memoir_odds(args, out)
    if args.attack is None or args.defense is None:
        raise UsageError(TEXT["odds.need"].format(game=args.game))
    from wargame.analysis.odds import odds_distribution
    from wargame.operational.tables import load_tables

    shifts = [("shift", n) for n in args.shift]
    try:
        result = odds_distribution(args.game, args.attack, args.defense, shifts)
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        _print_json(result.to_json_dict(), out)
        return 0
    title = load_tables(args.game).title
    print(TEXT["odds.head"].format(title=title, attack=args.attack, defence=args.defense), file=out)
    line = TEXT["odds.ratio"].format(ratio=result.ratio)
    if result.ratio != result.base_column:
        line += TEXT["odds.beyond"].format(column=result.base_column)
    print(line, file=out)
    for reason, columns in result.shifts:
        print(TEXT["odds.shift"].format(reason=reason, columns=columns), file=out)
    line = TEXT["odds.column"].format(column=result.column)
    if result.shifts and result.clamped:
        line += TEXT["odds.clamped"]
    print(line, file=out)
    _outcome_lines(result.outcomes, out)
    return 0


def _cmd_memoir_odds(args: argparse.Namespace, out: TextIO) -> int:
    """Memoir '44 battle dice: exact hits distribution (M44 p.12 Resolving Combat)."""
    from wargame.analysis.memoir import battle_odds, dice_odds

    if args.target is None or (args.dice is None and (
            args.attacker is None or args.distance is None)):
        raise UsageError(TEXT["m44.need"])
    battle = None
    try:
        if args.dice is not None:
            result = dice_odds(args.dice, args.target, args.figures or None, args.stars_hit)
        else:
            battle = battle_odds(args.attacker, args.target, args.distance, args.terrain,
                                 figures=args.figures or None)
            result = battle.odds or dice_odds(0, args.target, args.figures or None)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        data = result.to_json_dict()
        if battle is not None:
            data["battle"] = battle.to_json_dict()
            data["battle"].pop("odds")
        _print_json(data, out)
        return 0
    if battle is not None:
        steps = "".join(f", {r} {n:+d}" for r, n in battle.steps)
        print(TEXT["m44.battle"].format(attacker=battle.attacker, distance=battle.distance,
                                        target=battle.target, terrain=battle.terrain,
                                        base=battle.base_dice, steps=steps, dice=battle.dice),
              file=out)
    fig = TEXT["m44.figures_note"].format(figures=result.figures) if result.figures else ""
    print(TEXT["m44.head"].format(dice=result.dice, target=result.target, figures=fig), file=out)
    print(TEXT["m44.hits_head"], file=out)
    for k, p in enumerate(result.hits):
        print(TEXT["m44.hits_row"].format(k=k, pct=float(p) * 100, bar="#" * round(p * 40)),
              file=out)
    print(TEXT["m44.expected"].format(value=float(result.expected_hits)), file=out)
    if result.eliminate is not None:
        print(TEXT["m44.eliminate"].format(figures=result.figures,
                                           pct=float(result.eliminate) * 100), file=out)
    print(TEXT["m44.flag"].format(pct=float(result.at_least_one_flag) * 100), file=out)
    return 0


def _cmd_bombard(args: argparse.Namespace, out: TextIO) -> int:
    from wargame.analysis.odds import bombardment_distribution
    from wargame.operational.tables import load_tables

    try:
        result = bombardment_distribution(args.game, args.strength, args.vulnerability, args.shift)
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        _print_json(result.to_json_dict(), out)
        return 0
    title = load_tables(args.game).title
    print(
        TEXT["bombard.head"].format(
            title=title, strength=result.strength, vulnerability=result.vulnerability,
            value=result.value,
        ),
        file=out,
    )
    shifted = ""
    if result.shift:
        shifted = TEXT["bombard.shifted"].format(column=result.column, shift=result.shift)
    print(TEXT["bombard.column"].format(base=result.base_column, shifted=shifted), file=out)
    _outcome_lines(result.outcomes, out)
    return 0


def _cmd_scenario_list(args: argparse.Namespace, out: TextIO) -> int:
    from wargame.catalog import list_scenarios

    items = list_scenarios()
    if args.json:
        _print_json(items, out)
        return 0
    if not items:
        print(TEXT["scenario.none"], file=out)
    width = max((len(i["id"]) for i in items), default=0)
    for item in items:
        print(f"{item['id']:<{width}}  {item['game']:<9} {item['title']}", file=out)
    return 0


def _describe(scenario_id: str) -> dict[str, Any]:
    from wargame.catalog import describe

    try:
        return describe(scenario_id)
    except KeyError as exc:
        raise UsageError(TEXT["scenario.unknown"].format(error=exc.args[0])) from None


def _check_id(scenario_id: str) -> None:
    """UsageError (with the known ids) unless ``scenario_id`` is in the bundled catalogue;
    cheaper than ``_describe``, which reads the map and units."""
    from wargame.catalog import list_scenarios

    if scenario_id not in {item["id"] for item in list_scenarios()}:
        _describe(scenario_id)


def _print_summary(info: dict[str, Any], out: TextIO) -> None:
    print(f"{info['id']}: {info['title']} [{info['game']}]", file=out)
    if info["turns"]["first"] is not None or info["game"] != MEMOIR:
        print(TEXT["info.turns"].format(**info["turns"]), file=out)
    if info.get("hex_count") is not None:
        detail = ", ".join(f"{k} {v}" for k, v in info["terrain_counts"].items())
        print(TEXT["info.hexes"].format(count=info["hex_count"], detail=detail), file=out)
    if info.get("unit_count") is not None:
        detail = ", ".join(f"{k} {v}" for k, v in info["units_by_nation"].items())
        print(
            TEXT["info.units"].format(
                count=info["unit_count"], detail=detail, ss=info["ss_count"]
            ),
            file=out,
        )
    if info.get("places") is not None:
        print(TEXT["info.places"].format(count=len(info["places"])), file=out)
    for what, key in (("map", "provenance"), ("units", "units_provenance")):
        if info.get(key):
            print(TEXT["info.provenance"].format(what=what, provenance=info[key]), file=out)
    if info.get("medals_to_win"):
        medals, cards = info["medals_to_win"], info["cards"]
        print(TEXT["info.medals"].format(allies=medals.get("allied"), axis=medals.get("axis")),
              file=out)
        print(TEXT["info.cards"].format(starts=info["starts"], allies=cards.get("allied"),
                                        axis=cards.get("axis")), file=out)
    for side, counts in (info.get("units_by_side") or {}).items():
        print(TEXT["info.side_units"].format(side=side, **counts), file=out)
    for warning in info.get("warnings", []):
        print(TEXT["info.warning"].format(warning=warning), file=out)


def _cmd_scenario_info(args: argparse.Namespace, out: TextIO) -> int:
    info = _describe(args.id)
    if args.json:
        _print_json(info, out)
    else:
        _print_summary(info, out)
    return 0


def _cmd_scenario_validate(args: argparse.Namespace, out: TextIO) -> int:
    try:
        from wargame.registry import family_of_target, resolve
        from wargame.scenario_errors import ScenarioError

        validate = resolve(family_of_target(args.path).validator)
    except ImportError as exc:
        print(TEXT["scenario.no_validate"].format(error=exc), file=sys.stderr)
        return 3
    try:
        title, units, hexes = validate(args.path)
    except ImportError as exc:  # the family's loader is missing (loaded on first use)
        print(TEXT["scenario.no_validate"].format(error=exc), file=sys.stderr)
        return 3
    except ScenarioError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    print(TEXT["scenario.valid"].format(title=title, units=units, hexes=hexes), file=out)
    return 0


def _cmd_scenario_import(args: argparse.Namespace, out: TextIO) -> int:
    """``wargame scenario import FILE.m44``: a broken or unplayable file, or a bad name, is bad
    input (exit 2, one line naming the file and the field or the things it cannot play)."""
    from wargame.memoir.imports import import_m44
    from wargame.scenario_errors import ScenarioError

    try:
        result = import_m44(args.file, args.name, title=args.title, replace=args.replace)
    except (ScenarioError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    print(TEXT["import.done"].format(id=result.scenario_id, title=result.title,
                                     units=result.units, path=result.path), file=out)
    for note in result.notes:
        print(TEXT["import.note"].format(note=note), file=out)
    from wargame.memoir.imports import report_text

    if result.recognised is None and any(result.report.values()):
        print(report_text(result.report), file=out)  # read, approximated, left out (issue 32)
    print(TEXT["import.play"].format(id=result.scenario_id), file=out)
    return 0


def _cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    if getattr(args, "rooms", None):
        return _cmd_serve_rooms(args, out)
    info = _describe(args.scenario)  # unknown scenario: exit 2 before starting anything
    try:  # one serve path for every game (wargame.ui.serve.build_dashboard)
        from wargame.ui.serve import serve_dashboard
    except ImportError as exc:
        _print_summary(info, out)
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
            address=address, port=args.port, reason=_os_error(exc))) from None
    return 0


def _cmd_serve_rooms(args: argparse.Namespace, out: TextIO) -> int:
    """``wargame serve --rooms PATH.sqlite``: the rooms' pages (wargame.ui.serve.serve_rooms)."""
    from wargame.ui.serve import serve_rooms

    path = Path(args.rooms)
    if path.is_dir():
        raise UsageError(HELP["serve.rooms_folder"].format(path=_excerpt(args.rooms)))
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
            address=address, port=args.port, reason=_os_error(exc))) from None
    return 0


def _check_save_path(text: str) -> Path:
    """``--save``, checked before any game is played: not a folder, and its folder (or the
    nearest existing parent, save_game creates the rest) a writable folder."""
    path = Path(text)
    parent = path.absolute().parent
    try:
        if path.is_dir():
            raise UsageError(TEXT["save.folder"].format(path=_excerpt(text)))
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        reason = None
        if not parent.is_dir():
            reason = HELP["save.not_folder"]
        elif not os.access(parent, os.W_OK | os.X_OK):
            reason = HELP["save.denied"]
    except OSError as exc:  # a name too long for the system, ...
        reason = exc.strerror or type(exc).__name__
    if reason is not None:
        raise UsageError(TEXT["save.parent"].format(path=_excerpt(text), folder=_excerpt(parent),
                                                    reason=reason))
    return path


def _cmd_autoplay(args: argparse.Namespace, out: TextIO) -> int:
    """Seeded games between computer players, for every game through the protocol; per game
    the score and losses, then a summary. Progress goes to stderr, one line a turn (a Normandy
    bot campaign takes ~7-8 s of CPU, a Dragoon one ~1 s: bench/campaign.py, docs/bots.md)."""
    from wargame.bots.play import make_policy, play
    from wargame.games import open_game
    from wargame.saves import save_game

    _check_id(args.scenario)  # an unknown id: the list of known ones
    last_seed = args.seed + args.games - 1  # the games' seeds are seed, seed + 1, ...
    if last_seed > MAX_SEED:
        raise UsageError(TEXT["autoplay.seed_last"].format(seed=args.seed, games=args.games,
                                                           last=last_seed))
    save_path = _check_save_path(args.save) if args.save is not None else None
    try:
        game = open_game(args.scenario, variants=list(args.variant))
    except ValueError as exc:  # an unknown --variant, or variants on Memoir '44
        raise UsageError(str(exc)) from None
    from wargame.registry import family_of_game

    known = family_of_game(game).policies  # the game family's computer players
    default = known[0]
    players = {"allied": args.allied or default, "axis": args.axis or default}
    for side, name in players.items():
        if name not in known:
            raise UsageError(TEXT["autoplay.player"].format(name=name, side=side, game=game.kind,
                                                            known=", ".join(known)))
    first, second = game.sides  # the Allies, then the Axis, in every game
    rows = []
    state = None
    for i in range(args.games):
        seed = args.seed + i
        state = game.new_state(seed)
        policies = {first: make_policy(game, players["allied"], seed * 2 + 1),
                    second: make_policy(game, players["axis"], seed * 2 + 2)}
        last_turn = [None]

        def progress(s, _action, i=i, seed=seed, last_turn=last_turn):
            if not args.quiet and s.turn != last_turn[0]:
                last_turn[0] = s.turn
                print(TEXT["autoplay.progress"].format(game=i + 1, games=args.games, seed=seed,
                                                       turn=s.turn, last=_last_turn(s)),
                      file=sys.stderr)

        play(state, policies, on_action=progress)
        result = state.outcome()
        winner = {first: "allied", second: "axis"}.get(result.winner, "draw")
        rows.append({"seed": seed, "allied": result.scores[first], "axis": result.scores[second],
                     "winner": winner, "allied_lost": result.losses.get(first, 0),
                     "axis_lost": result.losses.get(second, 0),
                     "actions": len(state.action_log), "turn": state.turn})
    summary = {
        "scenario": args.scenario, "allied_player": players["allied"],
        "axis_player": players["axis"], "variants": list(args.variant), "games": len(rows),
        "allied_wins": sum(r["winner"] == "allied" for r in rows),
        "axis_wins": sum(r["winner"] == "axis" for r in rows),
        "draws": sum(r["winner"] == "draw" for r in rows),
        "allied_mean": sum(r["allied"] for r in rows) / len(rows) if rows else 0.0,
        "axis_mean": sum(r["axis"] for r in rows) / len(rows) if rows else 0.0,
    }
    if save_path is not None and state is not None:
        path = save_game(state, save_path)
        if not args.json:
            print(TEXT["autoplay.saved"].format(path=path), file=out)
    if args.json:
        _print_json({**summary, "results": rows}, out)
        return 0
    for r in rows:
        print(TEXT["autoplay.row"].format(**r), file=out)
    print(TEXT["autoplay.summary"].format(**summary), file=out)
    return 0


# wargame study ---------------------------------------------------------------------------
STUDY_TEXT = Catalogue("cli.study", {
    "help": "many seeded computer-played campaigns in parallel on Dask: win rates, VP, "
            "capture turns (docs/studies.md)",
    "head": "study {name} ({scenario}, seed {seed}): {games} games, {allied} Allies vs {axis} "
            "Axis; {played} played now, {resumed} already done",
    "wins": "Allies won {allied_wins} ({ar:.1%}, 95% CI {al:.1%}-{ah:.1%}), Axis "
            "{axis_wins} ({xr:.1%}, 95% CI {xl:.1%}-{xh:.1%}), drawn {draws}",
    "vp": "mean VP: Allies {a:.1f} (95% CI {al:.1f}-{ah:.1f}), Axis {x:.1f} "
          "(95% CI {xl:.1f}-{xh:.1f})",
    "lost": "mean units lost: Allies {a:.1f}, Axis {x:.1f}",
    "city": "  {city}: taken in {share:.0%} of games{turn}",
    "city_turn": ", on turn {turn:.1f} on average",
    "cities": "victory cities (first held whole by the Allies):",
    "table": "table: {path}",
    "scheduler": "--scheduler {address}: cannot reach the Dask scheduler ({error})",
    "workers": "--workers: must be a whole number >= 1, got 0",
    "workers_max": "--workers: at most {high} (twice the {cores} cores of this machine), got "
                   "{value}",
    "games_max": "--games: at most {high} games in one study, got {value}",
    "out_file": "--out {folder}: that is a file; give a folder",
    "out_error": "--out {folder}: {reason}",
    "opt.scenario": "a bundled id (wargame scenario list): dragoon, normandy, memoir44-1...",
    "opt.games": "games in the study",
    "opt.seed": "the study's seed (game i: seed * 1000003 + i)",
    "opt.workers": "local worker processes (default: one per core)",
    "opt.scheduler": "a running Dask scheduler, e.g. tcp://host:8786 (instead of local)",
    "opt.axis": "as --allied",
    "opt.whatif": "a what-if YAML file (docs/studies.md)",
    "opt.out": "folder of the results (default study-SCENARIO-seedN); an unfinished study "
               "there resumes",
    "opt.json": "print the summary as JSON",
    "opt.quiet": "no progress bar on stderr",
    "opt.retry_failed": "play again the games --out records as failed (skipped otherwise)",
    "opt.dashboard": "start Dask's dashboard, on 127.0.0.1 only; its address goes to stderr",
    "dashboard": "Dask dashboard: {link}",
    "failed_head": "{failed} games failed and are not counted above (records in {folder}):",
    "failed_row": "  game {game}, seed {seed}: {error_type}: {error_message} ({error_where}; "
                  "after {actions} actions, turn {last_turn})",
    "failed": "{failed} of {total} games failed (seeds {seeds}); the others are summarised; "
              "--retry-failed plays them again",
    "more_seeds": "{seeds} and {more} more",
    "no_extra": "wargame study needs Dask and tqdm, which are not installed here ({missing}): "
                "pip install 'wargame[study]'",
})

STUDY_PACKAGES = ("dask", "distributed", "tqdm")
"""What ``wargame study`` imports beyond the package's own dependencies: the ``study`` extra
(pyproject.toml; issue #35)."""


def _cmd_study(args: argparse.Namespace, out: TextIO) -> int:
    """A seeded study on Dask (wargame.analysis.study): the summary, and the table in --out."""
    from wargame.registry import family_of
    from wargame.scenario_errors import ScenarioError

    # the bounds first (issue #31): refused at once, before any scenario is read
    if args.workers == 0:
        raise UsageError(STUDY_TEXT["workers"])
    cores = os.cpu_count() or 1
    if args.workers is not None and args.workers > 2 * cores:
        raise UsageError(STUDY_TEXT["workers_max"].format(high=2 * cores, cores=cores,
                                                          value=_excerpt(args.workers)))
    if args.games > MAX_STUDY_GAMES:
        raise UsageError(STUDY_TEXT["games_max"].format(high=MAX_STUDY_GAMES,
                                                        value=_excerpt(args.games)))
    _describe(args.scenario)  # an unknown id: the list of known ones
    default = family_of(args.scenario).policies[0]  # the family's default player
    allied, axis = args.allied or default, args.axis or default
    import importlib.util

    missing = [name for name in STUDY_PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        raise CommandFailed(STUDY_TEXT["no_extra"].format(missing=", ".join(missing)))
    from wargame.analysis.study import run_study

    folder = Path(args.out) if args.out else Path(f"study-{args.scenario}-seed{args.seed}")
    if folder.exists() and not folder.is_dir():
        raise UsageError(STUDY_TEXT["out_file"].format(folder=folder))

    def show_dashboard(client: Any) -> None:
        if args.dashboard and client.dashboard_link:
            print(STUDY_TEXT["dashboard"].format(link=client.dashboard_link), file=sys.stderr)

    try:
        study = run_study(args.scenario, args.games, seed=args.seed, variants=args.variant,
                          allied=allied, axis=axis, whatif=args.whatif,
                          workers=args.workers, scheduler=args.scheduler, out=folder,
                          progress=not args.quiet, retry_failed=args.retry_failed,
                          dashboard=args.dashboard, on_client=show_dashboard)
    except (ScenarioError, ValueError) as exc:
        raise UsageError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
    except (OSError, TimeoutError) as exc:
        if args.scheduler:
            raise UsageError(STUDY_TEXT["scheduler"].format(address=args.scheduler,
                                                            error=type(exc).__name__)) from None
        raise UsageError(STUDY_TEXT["out_error"].format(folder=folder,
                                                        reason=exc.strerror or exc)) from None
    _print_study(args, study, folder, out)
    if study.failures:  # exit 1, naming the seeds; the summary above is of the others
        seeds = [str(f["seed"]) for f in study.failures]
        listed = ", ".join(seeds[:20])
        if len(seeds) > 20:
            listed = STUDY_TEXT["more_seeds"].format(seeds=listed, more=len(seeds) - 20)
        raise CommandFailed(STUDY_TEXT["failed"].format(failed=len(seeds), seeds=listed,
                                                        total=study.params["games"]))
    return 0


def _print_study(args: argparse.Namespace, study: Any, folder: Path, out: TextIO) -> None:
    """The summary of ``study`` on ``out``: JSON with --json, else lines; then its failures."""
    summary = study.summary()
    table = next((p for p in (folder / "results.parquet", folder / "results.csv") if p.exists()),
                 folder)
    total = study.params["games"]
    if args.json:
        _print_json({**summary, "played": study.played, "table": str(table),
                     "failures": study.failures}, out)
        return
    print(STUDY_TEXT["head"].format(**{**summary, "games": total}, played=study.played,
                                    resumed=total - study.played), file=out)
    if summary["games"]:
        ar, (al, ah) = summary["allied_win_rate"], summary["allied_win_rate_ci"]
        xr, (xl, xh) = summary["axis_win_rate"], summary["axis_win_rate_ci"]
        print(STUDY_TEXT["wins"].format(**summary, ar=ar, al=al, ah=ah, xr=xr, xl=xl, xh=xh),
              file=out)
        a, (al, ah) = summary["allied_vp_mean"], summary["allied_vp_ci"]
        x, (xl, xh) = summary["axis_vp_mean"], summary["axis_vp_ci"]
        print(STUDY_TEXT["vp"].format(a=a, al=al, ah=ah, x=x, xl=xl, xh=xh), file=out)
        print(STUDY_TEXT["lost"].format(a=summary["allied_lost_mean"],
                                        x=summary["axis_lost_mean"]), file=out)
        print(STUDY_TEXT["cities"], file=out)
        for city, c in summary["cities"].items():
            turn = ("" if c["mean_turn"] is None
                    else STUDY_TEXT["city_turn"].format(turn=c["mean_turn"]))
            print(STUDY_TEXT["city"].format(city=city, share=c["fell_share"], turn=turn),
                  file=out)
    if study.failures:
        print(STUDY_TEXT["failed_head"].format(failed=len(study.failures),
                                               folder=folder / "failed"), file=out)
        for f in study.failures:
            print(STUDY_TEXT["failed_row"].format(**f), file=out)
    print(STUDY_TEXT["table"].format(path=table), file=out)


def _last_turn(state: Any) -> Any:
    scenario = state.game.scenario
    return getattr(scenario, "last_turn", None) or "?"


# wargame rooms (wargame.rooms; docs/architecture.md "Rooms") ------------------------------
ROOMS_TEXT = Catalogue("cli.rooms", {
    "help": "list, export and delete the rooms of a rooms database (wargame serve --rooms)",
    "db": "the rooms database (SQLite file)",
    "list": "every room: id, code, game, actions, whose turn or the result",
    "export": "write one room as a save file (load it in the dashboard)",
    "delete": "delete one room (its links and code stop working); stop the server first",
    "head": "{id:<14} {code:<7} {game:<22} {actions:>7}  {created:<17} {status}",
    "row": "{id:<14} {code:<7} {game:<22} {actions:>7}  {created:<17} {status}",
    "to_act": "{seat} to act",
    "unloaded": "{id:<14} not resumable: {why}",
    "none": "no rooms in {path}",
    "missing": "{path}: no such rooms database",
    "no_room": "no room {room!r} in {path} (wargame rooms list --db {path})",
    "exported": "room {room} ({actions} actions) saved to {path}",
    "deleted": "room {room} deleted",
    "room_id": "the room's id (wargame rooms list)",
    "file": "the save file to write",
    "file_folder": "FILE {path}: that is a folder; give a file name",
    "file_parent": "FILE {path}: cannot write there (its folder is missing, not a folder or "
                   "not writable)",
    "col.id": "ROOM",
    "col.code": "CODE",
    "col.game": "GAME",
    "col.actions": "ACTIONS",
    "col.created": "CREATED (UTC)",
    "col.status": "STATUS",
})


def _add_rooms_parser(sub: Any) -> None:
    rooms = sub.add_parser("rooms", help=ROOMS_TEXT["help"], description=ROOMS_TEXT["help"])
    rooms_sub = rooms.add_subparsers(dest="action", metavar="ACTION", required=True)
    r_list = rooms_sub.add_parser("list", help=ROOMS_TEXT["list"])
    r_list.add_argument("--json", action="store_true", help=HELP["json"])
    r_list.set_defaults(handler=_cmd_rooms_list)
    r_export = rooms_sub.add_parser("export", help=ROOMS_TEXT["export"])
    r_export.add_argument("room_id", metavar="ROOM_ID", help=ROOMS_TEXT["room_id"])
    r_export.add_argument("file", metavar="FILE", help=ROOMS_TEXT["file"])
    r_export.set_defaults(handler=_cmd_rooms_export)
    r_delete = rooms_sub.add_parser("delete", help=ROOMS_TEXT["delete"])
    r_delete.add_argument("room_id", metavar="ROOM_ID", help=ROOMS_TEXT["room_id"])
    r_delete.set_defaults(handler=_cmd_rooms_delete)
    for p in (r_list, r_export, r_delete):
        p.add_argument("--db", required=True, metavar="PATH", help=ROOMS_TEXT["db"])


def _rooms_opener(game_id: str, variants: tuple[str, ...]) -> Any:
    """Bundled games, and the dashboard's synthetic demo (it lives in wargame.ui)."""
    if game_id == "demo":
        from wargame.operational.state import Game
        from wargame.ui.demo import demo_scenario

        return Game(demo_scenario(), variants=variants)
    from wargame.games import open_game

    return open_game(game_id, variants)


def _rooms_manager(path: str) -> Any:
    if not Path(path).exists():
        raise CommandFailed(ROOMS_TEXT["missing"].format(path=_excerpt(path, 80)))
    from wargame.rooms import RoomManager

    # read_only: looking at a file never plays a computer's move in it nor writes it, and
    # works on a file a server holds (issue #31) or a read-only one. A FIFO or a device is
    # refused by its stat before it is opened (wargame.rooms.db.RoomsDB._check_file)
    return RoomManager(path, games=_rooms_opener, read_only=True)


def _rooms_save_path(text: str) -> Path:
    """``rooms export``'s FILE, checked as ``--save`` is, before the database is opened
    (a folder given as FILE was a traceback naming --save; issue #31)."""
    try:
        return _check_save_path(text)
    except UsageError:
        try:
            folder = Path(text).is_dir()
        except OSError:
            folder = False
        key = "file_folder" if folder else "file_parent"
        raise UsageError(ROOMS_TEXT[key].format(path=_excerpt(text))) from None


def _cmd_rooms_list(args: argparse.Namespace, out: TextIO) -> int:
    import datetime

    from wargame.rooms.text import seat_word

    with _rooms_manager(args.db) as manager:
        manager.load_all()  # every room replayed: whose turn it is, rooms that no longer load
        with using_language("en" if args.json else language()):  # JSON: one language
            rows = manager.rooms()
        unloaded = dict(manager.unloaded)
    if args.json:
        _print_json({"rooms": [{**vars(r), "variants": list(r.variants)} for r in rows],
                     "unloaded": unloaded}, out)
        return 0
    if not rows and not unloaded:
        print(ROOMS_TEXT["none"].format(path=args.db), file=out)
        return 0
    print(ROOMS_TEXT["head"].format(
        id=ROOMS_TEXT["col.id"], code=ROOMS_TEXT["col.code"], game=ROOMS_TEXT["col.game"],
        actions=ROOMS_TEXT["col.actions"], created=ROOMS_TEXT["col.created"],
        status=ROOMS_TEXT["col.status"]), file=out)
    for r in rows:
        created = datetime.datetime.fromtimestamp(r.created, datetime.UTC)
        game = r.game_id + (f" +{','.join(r.variants)}" if r.variants else "")
        status = r.outcome or ROOMS_TEXT["to_act"].format(seat=seat_word(r.side_to_act))
        print(ROOMS_TEXT["row"].format(id=r.id, code=r.code, game=_excerpt(game, 22),
                                       actions=r.version,
                                       created=created.strftime("%Y-%m-%d %H:%M"),
                                       status=status), file=out)
    for room_id, why in unloaded.items():
        print(ROOMS_TEXT["unloaded"].format(id=room_id, why=why), file=out)
    return 0


def _cmd_rooms_export(args: argparse.Namespace, out: TextIO) -> int:
    from wargame.saves import save_game

    args.file = _rooms_save_path(args.file)
    with _rooms_manager(args.db) as manager:
        room = manager.get(args.room_id)
        if room is None:
            raise CommandFailed(ROOMS_TEXT["no_room"].format(room=_excerpt(args.room_id),
                                                             path=args.db))
        state = room.state()
    save_game(state, args.file)
    print(ROOMS_TEXT["exported"].format(room=room.id, actions=len(state.action_log),
                                        path=args.file), file=out)
    return 0


def _cmd_rooms_delete(args: argparse.Namespace, out: TextIO) -> int:
    if not Path(args.db).exists():
        raise CommandFailed(ROOMS_TEXT["missing"].format(path=_excerpt(args.db, 80)))
    from wargame.rooms.db import RoomsDB

    # no replay needed to mark a room deleted; exclusive: refused while a server holds the
    # file (it would go on serving the room), naming that server's process
    db = RoomsDB(args.db, exclusive=True)
    try:
        if not db.mark_deleted(args.room_id):
            raise CommandFailed(ROOMS_TEXT["no_room"].format(room=_excerpt(args.room_id),
                                                             path=args.db))
    finally:
        db.close()
    print(ROOMS_TEXT["deleted"].format(room=args.room_id), file=out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
