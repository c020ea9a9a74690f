"""``wargame class``: a class's rooms on the school network in one command (issue #29); the
command itself is ``wargame.class_server``, which this module puts on the command line."""

from __future__ import annotations

from typing import Any

from wargame.cli.common import MAX_PORT, CommandFailed, UsageError, in_range


def add_parser(sub: Any) -> None:
    from wargame.class_server import add_class_parser

    add_class_parser(sub, in_range(1, MAX_PORT), UsageError, CommandFailed)
