"""``wargame bombard``: the exact odds of an air or artillery bombardment (CN/OD 6.2, 8.0)."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from wargame.cli.common import GAMES, UsageError, non_negative, print_json, whole
from wargame.cli.odds import outcome_lines
from wargame.cli.text import HELP, TEXT


def add_parser(sub: Any) -> None:
    bomb = sub.add_parser("bombard", help=TEXT["bombard.help"], description=TEXT["bombard.help"])
    bomb.add_argument("--game", choices=GAMES, required=True)
    bomb.add_argument("--strength", type=non_negative, required=True,
                      help=HELP["bombard.strength"])
    bomb.add_argument("--vulnerability", type=non_negative, required=True,
                      help=HELP["bombard.vulnerability"])
    bomb.add_argument("--shift", type=whole, default=0, metavar="N",
                      help=HELP["bombard.shift"])
    bomb.add_argument("--json", action="store_true", help=HELP["json"])
    bomb.set_defaults(handler=cmd_bombard)


def cmd_bombard(args: argparse.Namespace, out: TextIO) -> int:
    from wargame.analysis.odds import bombardment_distribution
    from wargame.operational.tables import load_tables

    try:
        result = bombardment_distribution(args.game, args.strength, args.vulnerability, args.shift)
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print_json(result.to_json_dict(), out)
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
        shifted = TEXT.plural("bombard.shifted", abs(result.shift)).format(column=result.column, shift=result.shift)
    print(TEXT["bombard.column"].format(base=result.base_column, shifted=shifted), file=out)
    outcome_lines(result.outcomes, out)
    return 0
