"""Errors for broken data files: each names the file, the field and what was expected.

``load_yaml`` and ``load_json`` read data files safely: YAML through a safe loader that refuses
aliases (a "billion laughs" file is refused at its first alias), and no file over
``MAX_FILE_BYTES``. ``read_bytes`` is the one way a file a user names is opened (data files,
what-ifs, ``.m44`` imports, saves): only a regular file, decided by ``stat`` before ``open``
(a FIFO would block ``open`` forever, a device never end), and never more than its limit.
"""

from __future__ import annotations

import json
import os
import re
import reprlib
import stat
from pathlib import Path
from typing import Any

import yaml

__all__ = [
    "ScenarioError", "load_yaml", "load_json", "parse_yaml", "read_text", "read_bytes",
    "MAX_FILE_BYTES", "NoAliasLoader", "short_repr", "file_kind", "LongNumber", "json_int",
]

MAX_FILE_BYTES = 5 * 1024 * 1024
_MB = MAX_FILE_BYTES // (1024 * 1024)


_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 6


def short_repr(value: Any, limit: int = 80) -> str:
    """``repr`` cut to ``limit`` characters, safe on any value: a list nested 100 000 deep or
    a huge text gives a short excerpt, never a RecursionError or a megabyte of message."""
    try:
        shown = _REPR.repr(value)
    except (RecursionError, ValueError, TypeError):  # a hostile __repr__ or a huge int
        shown = f"<{type(value).__name__}>"
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


class ScenarioError(ValueError):
    """A scenario, table or save file is broken. Names the file, the field and the expectation.

    The message is written in the current language (``wargame.error_texts.LOADER``): the frame
    always, the expectation when it is given by key (``ScenarioError.keyed``); ``key`` and
    ``data`` stay on the error to show it again in another language (``render``)."""

    def __init__(self, file: str | Path, field: str, expected: str, found: Any = None, *,
                 key: str = "", data: dict[str, Any] | None = None) -> None:
        self.file = str(file)
        self.field = field
        self.expected = expected
        self.found = found
        self.key = key
        """The loader catalogue's id of the expectation, "" when given as text."""
        self.data = dict(data) if data else {}
        super().__init__(self.render())

    @classmethod
    def keyed(cls, file: str | Path, field: str, key: str, found: Any = None,
              **data: Any) -> ScenarioError:
        """The error whose expectation is the loader catalogue's ``key`` with ``data``."""
        from wargame.error_texts import loader_text

        return cls(file, field, loader_text(key, **data), found, key=key, data=data)

    def render(self, lang: str | None = None) -> str:
        """The message in ``lang`` (default: the current language)."""
        from wargame.error_texts import loader_text
        from wargame.i18n import using_language

        with using_language(lang):
            expected = loader_text(self.key, **self.data) if self.key else self.expected
            field = _field_text(self.field)
            if self.found is None:
                return loader_text("frame", file=self.file, field=field, expected=expected)
            return loader_text("frame.found", file=self.file, field=field, expected=expected,
                               found=short_repr(self.found))


_LINE = re.compile(r"line (\d+)(?: column (\d+))?")


def _field_text(field: str) -> str:
    """A field that is no path in the data ("(file)", "line 3 column 5") in the current
    language; a path as it is."""
    from wargame.error_texts import LOADER, loader_text

    if field.startswith("(") and f"field.{field}" in LOADER:
        return LOADER[f"field.{field}"]
    m = _LINE.fullmatch(field)
    if m is not None:
        if m.group(2) is None:
            return loader_text("field.line", line=m.group(1))
        return loader_text("field.line_column", line=m.group(1), column=m.group(2))
    return field


class LongNumber(int):
    """A whole number of a JSON text too long to be one of its data (``json_int``): it stands
    for it as ``10**JSON_DIGITS`` (signed) and remembers how many digits it had, so that the
    schema refuses it naming its field (``wargame.schema.common.validate``) instead of
    ``json.loads`` failing on the whole text (Python reads at most 4,300 digits)."""

    digits: int

    def __new__(cls, text: str) -> LongNumber:
        sign = -1 if text.startswith("-") else 1
        number = super().__new__(cls, sign * 10**JSON_DIGITS)
        number.digits = len(text.lstrip("-"))
        return number


JSON_DIGITS = 30  # = wargame.schema.common.MAX_DIGITS


def json_int(text: str) -> int:
    """``json.loads``' ``parse_int``: a whole number, or a ``LongNumber`` past JSON_DIGITS."""
    return int(text) if len(text) <= JSON_DIGITS else LongNumber(text)


class NoAliasLoader(yaml.SafeLoader):
    """A SafeLoader that refuses YAML aliases (``*name``): data files never need them, and
    refusing them stops "billion laughs" expansion before it starts."""

    def compose_node(self, parent: Any, index: Any) -> Any:  # type: ignore[override]  # yaml's stub types differ; same call as SafeLoader's
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, f"aliases (*{event.anchor}) are not allowed in data files",
                event.start_mark,
            )
        return super().compose_node(parent, index)


def file_kind(mode: int) -> str:
    """The loader catalogue's word for what a path that is not a regular file is (from its
    ``st_mode``): a folder, a named pipe (FIFO), a socket, a device, a special file."""
    from wargame.error_texts import LOADER

    for test, word in ((stat.S_ISDIR, "folder"), (stat.S_ISFIFO, "fifo"),
                       (stat.S_ISSOCK, "socket"), (stat.S_ISCHR, "device"),
                       (stat.S_ISBLK, "device")):
        if test(mode):
            return LOADER[f"file.kind.{word}"]
    return LOADER["file.kind.other"]


def read_bytes(path: str | Path, limit: int = MAX_FILE_BYTES, *, too_large: str = "file.too_large",
               missing: str = "file.existing") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them, or a ScenarioError
    naming the file: missing (the loader catalogue's ``missing``), not a regular file (a
    folder, a FIFO, a device: refused from ``stat`` alone, at once, never opened), or larger
    than ``limit`` (``too_large``, with ``mb``)."""
    path = Path(path)
    mb = _MB if limit == MAX_FILE_BYTES else max(1, round(limit / 1_000_000))
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        raise ScenarioError.keyed(path, "(file)", missing) from None
    except (OSError, ValueError) as exc:  # a name too long, a loop of links, a NUL...
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise ScenarioError.keyed(path, "(file)", "file.readable", reason) from None
    if not stat.S_ISREG(info.st_mode):
        raise ScenarioError.keyed(path, "(file)", "file.regular", kind=file_kind(info.st_mode))
    if info.st_size > limit:
        raise ScenarioError.keyed(path, "(file)", too_large, f"{info.st_size} bytes", mb=mb)
    try:
        # O_NONBLOCK: a FIFO put in the file's place between stat and open cannot block
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            mode = os.fstat(fh.fileno()).st_mode
            if not stat.S_ISREG(mode):
                raise ScenarioError.keyed(path, "(file)", "file.regular", kind=file_kind(mode))
            raw = fh.read(limit + 1)
    except FileNotFoundError:
        raise ScenarioError.keyed(path, "(file)", missing) from None
    except OSError as exc:
        raise ScenarioError.keyed(path, "(file)", "file.readable",
                                  exc.strerror or type(exc).__name__) from None
    if len(raw) > limit:  # it grew after stat
        raise ScenarioError.keyed(path, "(file)", too_large, mb=mb)
    return raw


def read_text(path: str | Path) -> str:
    """The UTF-8 text of a data file, or a ScenarioError (missing, not a regular file, too
    large, not UTF-8): ``read_bytes``."""
    raw = read_bytes(path)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioError.keyed(path, "(file)", "file.utf8") from None


_FAST_LOADER = getattr(yaml, "CSafeLoader", None)
# flow collections ([ ], { }) nested deeper than this are refused before parsing: the
# pure-Python scanner slows down faster than the depth grows until its RecursionError (5,000
# levels: about 1 s of CPU, 2 s on a loaded CI machine); no scenario needs more than a few
MAX_FLOW_NESTING = 200
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def flow_nesting(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in ``text``, counting every bracket, quoted or not.

    A cheap pre-count, not a parser: quoted closing brackets (``["]", ["]", ...``) make it
    under-count. Such texts still end in the parser's RecursionError, caught in
    ``parse_yaml``, after about 0.35 s of CPU whatever their length (measured 2026-11-26)."""
    depth = deepest = 0
    for ch in _NOT_BRACKET.sub("", text):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif depth:
            depth -= 1
    return deepest


def parse_yaml(text: str, source: str | Path = "<yaml>", trusted: bool = False) -> Any:
    """Parse YAML text safely (no aliases, no Python objects).

    ``trusted``: a file bundled with wargame (``load_yaml`` decides). Such a text, when it
    holds no ``&`` or ``*`` (so no anchor or alias), is read by libyaml's safe loader, about
    eight times faster (loading a save reads the scenario's files again). Anything else goes
    through the pure-Python ``NoAliasLoader``: libyaml recurses in C, so a deeply nested
    upload would crash the process instead of raising (RecursionError is caught below)."""
    if trusted and _FAST_LOADER is not None and "&" not in text and "*" not in text:
        try:
            return yaml.load(text, Loader=_FAST_LOADER)  # noqa: S506 - libyaml's SafeLoader
        except yaml.YAMLError:
            pass  # the same text again below, for the error message naming the line
    if flow_nesting(text) > MAX_FLOW_NESTING:
        raise ScenarioError.keyed(source, "(structure)", "yaml.nesting")
    try:
        return yaml.load(text, Loader=NoAliasLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "(syntax)"
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ScenarioError.keyed(source, where, "yaml.valid", problem) from None
    except ValueError as exc:  # a whole number of more than 4,300 digits (Python's limit)
        raise ScenarioError.keyed(source, "(file)", "yaml.valid",
                                  str(exc).split(":")[0]) from None
    except RecursionError:
        raise ScenarioError.keyed(source, "(structure)", "yaml.nesting") from None


def load_yaml(path: str | Path) -> Any:
    return parse_yaml(read_text(path), path, trusted=_bundled(path))


def _bundled(path: str | Path) -> bool:
    """A file of the scenarios shipped with wargame (not a user's copy or upload)."""
    from wargame.paths import scenarios_root

    try:
        return Path(path).resolve().is_relative_to(scenarios_root().resolve())
    except (OSError, ValueError):
        return False


def load_json(path: str | Path) -> Any:
    path = Path(path)
    text = read_text(path)
    try:
        return json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as exc:
        raise ScenarioError.keyed(path, f"line {exc.lineno} column {exc.colno}", "json.valid",
                                  exc.msg) from None
    except RecursionError:
        raise ScenarioError.keyed(path, "(structure)", "json.nesting") from None
