"""``wargame autoplay``: computer players replay whole games (campaigns or Memoir '44) and report
the score."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from wargame.cli.common import (
    MAX_SEED,
    PLAYER_METAVAR,
    UsageError,
    check_id,
    check_players,
    check_save_path,
    in_range,
    path_arg,
    player_arg,
    print_json,
    seed_arg,
)
from wargame.cli.text import HELP, TEXT

MAX_GAMES = 1000  # a Normandy bot campaign: ~7-8 s of CPU (docs/bots.md): 1000 is hours already


def add_parser(sub: Any) -> None:
    auto = sub.add_parser("autoplay", help=TEXT["autoplay.help"], description=TEXT["autoplay.help"])
    auto.add_argument("--scenario", default="normandy", help=HELP["autoplay.scenario"])
    auto.add_argument("--allied", type=player_arg, metavar=PLAYER_METAVAR, default=None,
                      help=HELP["autoplay.allied"])
    auto.add_argument("--axis", type=player_arg, metavar=PLAYER_METAVAR, default=None,
                      help=HELP["autoplay.axis"])
    auto.add_argument("--seed", type=seed_arg, default=1944, help=HELP["autoplay.seed"])
    auto.add_argument("--games", type=in_range(1, MAX_GAMES), default=1,
                      help=HELP["autoplay.games"])
    auto.add_argument("--variant", action="append", default=[], metavar="NAME",
                      help=HELP["variant"])
    auto.add_argument("--save", type=path_arg, default=None, metavar="PATH",
                      help=HELP["autoplay.save"])
    auto.add_argument("--json", action="store_true", help=HELP["json"])
    auto.add_argument("--quiet", action="store_true", help=HELP["autoplay.quiet"])
    auto.set_defaults(handler=cmd_autoplay)


def cmd_autoplay(args: argparse.Namespace, out: TextIO) -> int:
    """Seeded games between computer players, for every game through the protocol; per game
    the score and losses, then a summary. Progress goes to stderr, one line a turn (a Normandy
    bot campaign takes ~7-8 s of CPU, a Dragoon one ~1 s: bench/campaign.py, docs/bots.md)."""
    from wargame.bots.play import make_policy, play
    from wargame.games import open_game
    from wargame.saves import save_game

    check_id(args.scenario)  # an unknown id: the list of known ones
    last_seed = args.seed + args.games - 1  # the games' seeds are seed, seed + 1, ...
    if last_seed > MAX_SEED:
        raise UsageError(TEXT["autoplay.seed_last"].format(seed=args.seed, games=args.games,
                                                           last=last_seed))
    save_path = check_save_path(args.save) if args.save is not None else None
    try:
        game = open_game(args.scenario, variants=list(args.variant))
    except ValueError as exc:  # an unknown --variant, or variants on Memoir '44
        raise UsageError(str(exc)) from None
    from wargame.registry import family_of_game

    family = family_of_game(game)  # the game family's computer players
    default = family.policies[0]
    players = {"allied": args.allied or default, "axis": args.axis or default}
    check_players(family, players, lambda: game)  # and hard:worlds=N's settings
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
                                                       turn=s.turn, last=final_turn(s)),
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
        print_json({**summary, "results": rows}, out)
        return 0
    for r in rows:
        print(TEXT["autoplay.row"].format(**r), file=out)
    print(TEXT.plural("autoplay.summary", summary["games"]).format(**summary), file=out)
    return 0


def final_turn(state: Any) -> Any:
    scenario = state.game.scenario
    return getattr(scenario, "last_turn", None) or "?"
