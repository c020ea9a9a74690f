"""What every command of ``wargame`` shares: the bounds, the argument types, the errors and
the one guard that turns whatever goes wrong into one line on stderr and an exit code
(``wargame.cli``'s docstring)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TextIO

from wargame.cli.text import ARGPARSE_TEXT, HELP, TEXT

GAMES = ("normandy", "dragoon")
PLAYERS = ("greedy", "random", "easy", "normal", "hard")  # every name of bots.play.POLICY_NAMES
PLAYER_METAVAR = "{" + ",".join(PLAYERS) + "}"  # --allied/--axis take PLAYER[:settings]
MEMOIR = "memoir"  # Memoir '44's one id (issue #27), game.kind too
MAX_PORT = 65535
# the seeds a save holds (wargame.schema.save's MIN_SEED, MAX_SEED: a test checks they are the
# same; that module imports pydantic, which the argument parser should not wait for)
MIN_SEED, MAX_SEED = -(2**63), 2**63 - 1
EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 1, 2, 70, 130, 141


class UsageError(Exception):
    """Bad input found after parsing: printed on stderr, exit code 2."""


def non_negative(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(TEXT["whole_number"].format(value=value)) from None
    if number < 0:
        raise argparse.ArgumentTypeError(TEXT["not_negative"].format(value=value))
    return number


def whole(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(TEXT["whole_number"].format(value=value)) from None


def in_range(low: int, high: int) -> Any:
    """An argparse type: a whole number from ``low`` to ``high`` (both included)."""

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            number = None
        if number is None or not low <= number <= high:
            raise argparse.ArgumentTypeError(
                TEXT["in_range"].format(low=low, high=high, value=excerpt(value)))
        return number

    parse.__name__ = f"whole number {low}-{high}"  # argparse names the type in some messages
    return parse


def seed_arg(value: str) -> int:
    """An argparse type: a seed a save can hold (``wargame.schema.save``: a signed 64-bit
    whole number); a larger one would write a save that does not load (issue #31)."""
    try:
        number = int(value)
    except ValueError:
        number = None
    if number is None or not MIN_SEED <= number <= MAX_SEED:
        raise argparse.ArgumentTypeError(TEXT["seed_range"].format(value=excerpt(value)))
    return number


def player_arg(value: str) -> str:
    """An argparse type: a computer player's name (``PLAYERS``), which may carry settings after
    a colon (``hard:worlds=2``, the campaigns' hard player: ``wargame.bots.play``); the
    settings themselves are checked where the player is made (``check_player``)."""
    name, sep, settings = value.partition(":")
    if name not in PLAYERS or (sep and not settings) or len(value) > 120:
        raise argparse.ArgumentTypeError(TEXT["player_arg"].format(
            known=", ".join(PLAYERS), value=excerpt(value)))
    return value


def check_players(family: Any, players: dict[str, str], game: Callable[[], Any]) -> None:
    """``--allied``/``--axis`` (side -> name): each a computer player of the game's family
    (``family.policies``), whose settings after a colon (``hard:worlds=2``) that player takes;
    else a ``UsageError`` naming the option, before any game is played. ``game`` opens the
    game, only when some name carries settings (they are checked by making the player)."""
    from wargame.bots.play import make_policy

    for side, name in players.items():
        if name.partition(":")[0] not in family.policies:
            raise UsageError(TEXT["autoplay.player"].format(
                name=name, side=side, game=family.kind, known=", ".join(family.policies)))
    settings = {side: name for side, name in players.items() if ":" in name}
    opened = game() if settings else None
    for side, name in settings.items():
        try:
            make_policy(opened, name, 0)
        except ValueError as exc:
            raise UsageError(TEXT["player_settings"].format(side=side, name=excerpt(name, 60),
                                                            reason=exc)) from None


def path_arg(value: str) -> str:
    """An argparse type for file and folder names: not empty, no NUL (the OS refuses it)."""
    if not value.strip():
        raise argparse.ArgumentTypeError(TEXT["path.empty"])
    if "\0" in value:
        raise argparse.ArgumentTypeError(TEXT["path.nul"])
    return value


def printable(text: str) -> str:
    """``text`` on one line: control characters from the user's input shown as ``?``."""
    return "".join(c if c.isprintable() else "?" for c in text)


def excerpt(value: Any, limit: int = 40) -> str:
    """A short excerpt of user input for error messages."""
    text = str(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


class Parser(argparse.ArgumentParser):
    """argparse, with its usage errors on one line (the usage itself is in ``--help``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, TEXT["usage_error"].format(prog=self.prog,
                                                         message=printable(message)))


class CommandFailed(Exception):
    """The command could not do its work (a port taken, a file not written): exit code 1."""


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
        print(printable(message.splitlines()[0] if message else ""), file=sys.stderr)
    except (OSError, ValueError):  # stderr closed as well: the exit code still tells
        pass
    return code


def os_error(exc: OSError) -> str:
    """One line for an OSError: the file named (a short excerpt) and the system's reason."""
    reason = exc.strerror or type(exc).__name__
    if exc.filename is not None:
        return TEXT["os_error"].format(what=excerpt(exc.filename, 80), reason=reason)
    return reason if exc.strerror else excerpt(str(exc) or reason, 120)


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so that the interpreter's final flush
    does not raise again (the recipe of Python's signal module documentation)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout without a file descriptor (tests)
        pass


def check_save_path(text: str) -> Path:
    """``--save``, checked before any game is played: not a folder, and its folder (or the
    nearest existing parent, save_game creates the rest) a writable folder."""
    path = Path(text)
    parent = path.absolute().parent
    try:
        if path.is_dir():
            raise UsageError(TEXT["save.folder"].format(path=excerpt(text)))
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
        raise UsageError(TEXT["save.parent"].format(path=excerpt(text), folder=excerpt(parent),
                                                    reason=reason))
    return path


def describe(scenario_id: str) -> dict[str, Any]:
    from wargame.catalog import describe

    try:
        return describe(scenario_id)
    except KeyError as exc:
        raise UsageError(TEXT["scenario.unknown"].format(error=exc.args[0])) from None


def check_id(scenario_id: str) -> None:
    """UsageError (with the known ids) unless ``scenario_id`` is in the bundled catalogue;
    cheaper than ``describe``, which reads the map and units."""
    from wargame.catalog import list_scenarios

    if scenario_id not in {item["id"] for item in list_scenarios()}:
        describe(scenario_id)


def print_json(data: Any, out: TextIO) -> None:
    out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


_ARGPARSE_KEYS = {english: key for key, english in ARGPARSE_TEXT.english.items()}
_ARGPARSE_PLURALS = {forms: key for key, forms in ARGPARSE_TEXT.plurals.items()}


def _argparse_gettext(message: str) -> str:
    key = _ARGPARSE_KEYS.get(message)
    return ARGPARSE_TEXT[key] if key is not None else message


def _argparse_ngettext(singular: str, plural: str, n: int) -> str:
    key = _ARGPARSE_PLURALS.get((singular, plural))
    if key is None:
        return singular if n == 1 else plural
    return ARGPARSE_TEXT.plural(key, n)


@contextmanager
def argparse_in_language() -> Iterator[None]:
    """argparse's ``_`` and ``ngettext`` read ``ARGPARSE_TEXT`` in the current language inside
    the block (the module's own gettext functions again after it)."""
    module: Any = argparse  # its gettext names are not in its typed interface
    before = module._, module.ngettext
    module._, module.ngettext = _argparse_gettext, _argparse_ngettext
    try:
        yield
    finally:
        module._, module.ngettext = before


def take_lang(argv: list[str]) -> tuple[str | None, list[str]]:
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


def guarded(parser: argparse.ArgumentParser, argv: list[str]) -> int:
    """Parse ``argv`` and run its command's handler inside the one guard of every command:
    whatever goes wrong becomes one line on stderr and an exit code (``wargame.cli``'s
    docstring), never a traceback."""
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
        return _fail(parser, TEXT["error"].format(prog=parser.prog, message=os_error(exc)),
                     EXIT_FAILED)
    except MemoryError:
        return _fail(parser, TEXT["error"].format(prog=parser.prog, message=TEXT["memory"]),
                     EXIT_FAILED)
    except Exception as exc:  # the last guard (issue #31): a bug, still one line, its own code
        message = TEXT["internal"].format(kind=type(exc).__name__,
                                          message=excerpt(_first_line(exc), 200))
        return _fail(parser, TEXT["error"].format(prog=parser.prog, message=message),
                     EXIT_INTERNAL)
