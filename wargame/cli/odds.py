"""``wargame odds``: the exact odds of one attack on the combat results table (CN/OD 5.1), or
of a Memoir '44 battle roll (M44 p.12)."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from wargame.cli.common import GAMES, MEMOIR, UsageError, in_range, non_negative, print_json, whole
from wargame.cli.text import CODES, HELP, TEXT

M44_TARGETS = ("infantry", "armor", "artillery")
# the target terrains of wargame.analysis.memoir.TERRAINS (a test checks they are the same)
M44_TERRAINS = ("plain", "woods", "hedgerow", "buildings", "hills", "bunker", "sandbags", "beach")
# Bounds of the Memoir '44 odds (M44 p.12): no roll of the game comes near 30 dice (4 at most
# before cards); a unit has 1-4 figures; no two hexes of the 13 x 9 board are 20 apart.
M44_MAX_DICE = 30
M44_MAX_FIGURES = 4
M44_MAX_DISTANCE = 20
OLD_GAME_WORDS = {"memoir44": MEMOIR}  # still accepted: the --game of earlier versions


def add_parser(sub: Any) -> None:
    odds = sub.add_parser("odds", help=TEXT["odds.help"], description=TEXT["odds.help"])
    odds.add_argument("--game", choices=GAMES + (MEMOIR,), required=True,
                      type=lambda word: OLD_GAME_WORDS.get(word, word))
    odds.add_argument("--attack", type=non_negative, default=None, help=TEXT["odds.attack"])
    odds.add_argument(
        "--defense", "--defence", dest="defense", type=non_negative, default=None,
        help=TEXT["odds.defence"],
    )
    # Memoir '44: battle dice (M44 p.12) -- either --dice N or --attacker/--distance/--terrain
    odds.add_argument("--dice", type=in_range(0, M44_MAX_DICE), default=None,
                      help=TEXT["m44.dice"])
    odds.add_argument("--target", choices=M44_TARGETS, default=None, help=TEXT["m44.target"])
    odds.add_argument("--figures", type=in_range(1, M44_MAX_FIGURES), default=None,
                      help=TEXT["m44.figures"])
    odds.add_argument("--attacker", choices=M44_TARGETS, default=None, help=TEXT["m44.attacker"])
    odds.add_argument("--distance", type=in_range(1, M44_MAX_DISTANCE), default=None,
                      help=TEXT["m44.distance"])
    odds.add_argument("--terrain", choices=M44_TERRAINS, default="plain", help=TEXT["m44.terrain"])
    odds.add_argument("--stars-hit", action="store_true", help=TEXT["m44.stars"])
    odds.add_argument("--shift", type=whole, action="append", default=[], metavar="N",
                      help=HELP["odds.shift"])
    odds.add_argument("--json", action="store_true", help=HELP["json"])
    odds.set_defaults(handler=cmd_odds)


def outcome_lines(outcomes, out: TextIO) -> None:
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


def cmd_odds(args: argparse.Namespace, out: TextIO) -> int:
    if args.game == MEMOIR:
        return cmd_memoir_odds(args, out)
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
        print_json(result.to_json_dict(), out)
        return 0
    title = load_tables(args.game).title
    print(TEXT["odds.head"].format(title=title, attack=args.attack, defence=args.defense), file=out)
    line = TEXT["odds.ratio"].format(ratio=result.ratio)
    if result.ratio != result.base_column:
        line += TEXT["odds.beyond"].format(column=result.base_column)
    print(line, file=out)
    for reason, columns in result.shifts:
        print(TEXT.plural("odds.shift", abs(columns)).format(reason=reason, columns=columns), file=out)
    line = TEXT["odds.column"].format(column=result.column)
    if result.shifts and result.clamped:
        line += TEXT["odds.clamped"]
    print(line, file=out)
    outcome_lines(result.outcomes, out)
    return 0


def cmd_memoir_odds(args: argparse.Namespace, out: TextIO) -> int:
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
        print_json(data, out)
        return 0
    if battle is not None:
        steps = "".join(f", {r} {n:+d}" for r, n in battle.steps)
        text = TEXT.plural("m44.battle", battle.distance)
        print(text.format(attacker=battle.attacker, distance=battle.distance,
                          target=battle.target, terrain=battle.terrain,
                          base=battle.base_dice, steps=steps, dice=battle.dice), file=out)
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
