"""Errors for broken data files: each names the file, the field and what was expected."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml


class ScenarioError(ValueError):
    """A scenario, table or save file is broken. Names the file, the field and the expectation."""

    def __init__(self, file: str | Path, field: str, expected: str, found: Any = None) -> None:
        self.file = str(file)
        self.field = field
        self.expected = expected
        self.found = found
        msg = f"{self.file}: field '{field}': expected {expected}"
        if found is not None:
            shown = repr(found)
            if len(shown) > 80:
                shown = shown[:77] + "..."
            msg += f", found {shown}"
        super().__init__(msg)


def load_yaml(path: str | Path) -> Any:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise ScenarioError(path, "(file)", "an existing file") from None
    except UnicodeDecodeError:
        raise ScenarioError(path, "(file)", "UTF-8 text") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "(syntax)"
        raise ScenarioError(path, where, "valid YAML", str(exc).splitlines()[0]) from None


def load_json(path: str | Path) -> Any:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise ScenarioError(path, "(file)", "an existing file") from None
    except UnicodeDecodeError:
        raise ScenarioError(path, "(file)", "UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(path, f"line {exc.lineno} column {exc.colno}", "valid JSON", exc.msg) from None
