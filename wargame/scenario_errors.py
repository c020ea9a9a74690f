"""Errors for broken data files: each names the file, the field and what was expected.

``load_yaml`` and ``load_json`` read data files safely: YAML through a safe loader that refuses
aliases (a "billion laughs" file is refused at its first alias), and no file over
``MAX_FILE_BYTES``.
"""

from __future__ import annotations

import json
import re
import reprlib
from pathlib import Path
from typing import Any

import yaml

__all__ = [
    "ScenarioError", "load_yaml", "load_json", "parse_yaml", "read_text", "MAX_FILE_BYTES",
    "NoAliasLoader", "short_repr",
]

MAX_FILE_BYTES = 5 * 1024 * 1024
TOO_LARGE = f"a file of at most {MAX_FILE_BYTES // (1024 * 1024)} MB"
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


class NoAliasLoader(yaml.SafeLoader):
    """A SafeLoader that refuses YAML aliases (``*name``): data files never need them, and
    refusing them stops "billion laughs" expansion before it starts."""

    def compose_node(self, parent: Any, index: Any) -> Any:  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, f"aliases (*{event.anchor}) are not allowed in data files",
                event.start_mark,
            )
        return super().compose_node(parent, index)


def read_text(path: str | Path) -> str:
    """The UTF-8 text of a data file, or a ScenarioError (missing, too large, not UTF-8)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ScenarioError.keyed(path, "(file)", "file.too_large", f"{size} bytes", mb=_MB)
        with path.open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise ScenarioError.keyed(path, "(file)", "file.existing") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ScenarioError.keyed(path, "(file)", "file.too_large", mb=_MB)
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
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError.keyed(path, f"line {exc.lineno} column {exc.colno}", "json.valid",
                                  exc.msg) from None
    except RecursionError:
        raise ScenarioError.keyed(path, "(structure)", "json.nesting") from None
