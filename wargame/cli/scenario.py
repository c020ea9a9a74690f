"""``wargame scenario list|info|validate|import``: the bundled scenarios, a summary of one, the
check of a scenario folder or file, and the import of a Memoir '44 Scenario Editor layout."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from wargame.cli.common import MEMOIR, UsageError, describe, path_arg, print_json
from wargame.cli.text import HELP, TEXT


def add_parser(sub: Any) -> None:
    scen = sub.add_parser("scenario", help=TEXT["scenario.help"])
    scen_sub = scen.add_subparsers(dest="action", metavar="ACTION", required=True)
    s_list = scen_sub.add_parser("list", help=HELP["scenario.list"])
    s_list.add_argument("--json", action="store_true", help=HELP["json"])
    s_list.set_defaults(handler=cmd_scenario_list)
    s_info = scen_sub.add_parser("info", help=HELP["scenario.info"])
    s_info.add_argument("id")
    s_info.add_argument("--json", action="store_true", help=HELP["json"])
    s_info.set_defaults(handler=cmd_scenario_info)
    s_val = scen_sub.add_parser("validate", help=HELP["scenario.validate"])
    s_val.add_argument("path", type=path_arg)
    s_val.set_defaults(handler=cmd_scenario_validate)
    s_imp = scen_sub.add_parser("import", help=TEXT["import.help"],
                                description=HELP["import.docs"].format(help=TEXT["import.help"]))
    s_imp.add_argument("file", type=path_arg, help=TEXT["import.file"])
    s_imp.add_argument("--id", dest="name", default=None, metavar="NAME", help=TEXT["import.id"])
    s_imp.add_argument("--title", default=None, help=TEXT["import.title"])
    s_imp.add_argument("--replace", action="store_true", help=TEXT["import.replace"])
    s_imp.set_defaults(handler=cmd_scenario_import)


def cmd_scenario_list(args: argparse.Namespace, out: TextIO) -> int:
    from wargame.catalog import list_scenarios

    items = list_scenarios()
    if args.json:
        print_json(items, out)
        return 0
    if not items:
        print(TEXT["scenario.none"], file=out)
    width = max((len(i["id"]) for i in items), default=0)
    titles = max((len(i["title"]) for i in items), default=0)
    for item in items:
        # issue 32: the front and the year (Memoir '44), and the balance a study measured
        front = item.get("front") or ""
        front = TEXT.get(f"scenario.front.{front}", front.title()) if front else "-"
        print(f"{item['id']:<{width}}  {item['game']:<9} {item['title']:<{titles}}  "
              f"{front:<13} {item.get('year') or '-':<4}  {balance_text(item.get('balance'))}",
              file=out)
    return 0


def balance_text(balance: dict[str, Any] | None) -> str:
    """"Allies won 47% of 200 games" (``wargame.catalog.scenario_balance``), or a dash."""
    if not balance:
        return TEXT["scenario.no_balance"]
    return TEXT.plural("scenario.balance", balance["games"]).format(
        rate=balance["allied_win_rate"], games=balance["games"])



def print_summary(info: dict[str, Any], out: TextIO) -> None:
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
            print(TEXT["info.provenance"].format(what=TEXT[f"info.what.{what}"],
                                                 provenance=info[key]), file=out)
    if info.get("medals_to_win"):
        medals, cards = info["medals_to_win"], info["cards"]
        print(TEXT["info.medals"].format(allies=medals.get("allied"), axis=medals.get("axis")),
              file=out)
        first = TEXT.get(f"info.first.{info['starts']}", info["starts"])
        print(TEXT["info.cards"].format(first=first, allies=cards.get("allied"),
                                        axis=cards.get("axis")), file=out)
    for side, counts in (info.get("units_by_side") or {}).items():
        name = TEXT.get(f"info.side.{side}", side)
        print(TEXT["info.side_units"].format(side=name, **counts), file=out)
    for warning in info.get("warnings", []):
        print(TEXT["info.warning"].format(warning=warning), file=out)


def cmd_scenario_info(args: argparse.Namespace, out: TextIO) -> int:
    info = describe(args.id)
    if args.json:
        print_json(info, out)
    else:
        print_summary(info, out)
    return 0


def cmd_scenario_validate(args: argparse.Namespace, out: TextIO) -> int:
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


def cmd_scenario_import(args: argparse.Namespace, out: TextIO) -> int:
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

    if result.recognised is None and any(result.lines.values()):
        # read, approximated, left out (issue 32), in the reader's language (--lang)
        print(report_text(result.lines), file=out)
    print(TEXT["import.play"].format(id=result.scenario_id), file=out)
    return 0
