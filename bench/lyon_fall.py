"""Measure: when Lyon falls in Operação Dragoon, bot against bot (issue #30, item 4).

Plays the games of a ``wargame study`` (same game seeds: study seed S, game i has seed
S * 1000003 + i; the same players and their seeds) and follows Lyon (0609) action by action:
- ``first``: the turn Lyon first became Allied, and the unit that took it (the study's
  ``fell_Lyon``);
- ``held from``: for games it ends Allied, the first turn from which it was Allied at the end
  of every turn to the last (what the history track records: 3 September, turn 10);
- German retakes (a German unit entering it: control goes to the side that entered last).
``--garrison`` is a what-if for scale, not a rule: the 759th (OD 11.1.1, Saint-Étienne) starts
in Lyon. A game that raises (issue #30 item 1, e.g. seed 1000147) is skipped and named.
The rule question itself is settled in docs/rules-notes.md ("Lyon and the FFI").
The LAST line is one JSON object of the figures.

Run: ``python bench/lyon_fall.py [--games 50] [--seed 1] [--allied greedy] [--axis greedy]
[--garrison]``.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
from pathlib import Path

try:
    import wargame  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame.analysis.study import game_seed  # noqa: E402
from wargame.bots.play import make_policy, play  # noqa: E402
from wargame.games import open_game  # noqa: E402


def one_game(game, seed: int, allied: str, axis: str, garrison: bool) -> dict:
    lyon = game.board.places["Lyon"][0]
    state = game.new_state(seed)
    if garrison:
        state.units["de-759-338"].hex = lyon
        state.edited()
    # the players and their seeds as in wargame.analysis.study (seed * 2 + 1 + k)
    policies = {"allied": make_policy(game, allied, seed * 2 + 1),
                "axis": make_policy(game, axis, seed * 2 + 2)}
    info: dict = {"seed": seed, "first": None, "by": None, "ends": {}, "retakes": []}
    last = [state.control.get(lyon)]

    def watch(s, _action) -> None:
        c = s.control.get(lyon)
        info["ends"][int(s.turn)] = c
        if c != last[0]:
            if c == "allied" and info["first"] is None:
                info["first"], info["by"] = int(s.turn), ",".join(s.units_at(lyon)) or "-"
            if c == "axis":
                info["retakes"].append((int(s.turn), ",".join(s.units_at(lyon)) or "-"))
            last[0] = c

    play(state, policies, on_action=watch)
    info["end"] = state.control.get(lyon)
    held = None
    for turn in sorted(info["ends"], reverse=True):
        if info["ends"][turn] != "allied":
            break
        held = turn
    info["held_from"] = held
    return info


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--allied", default="greedy")
    ap.add_argument("--axis", default="greedy")
    ap.add_argument("--garrison", action="store_true")
    args = ap.parse_args(argv)
    game = open_game("dragoon")
    rows, skipped = [], []
    for i in range(args.games):
        seed = game_seed(args.seed, i)
        try:
            rows.append(one_game(game, seed, args.allied, args.axis, args.garrison))
        except Exception as exc:  # noqa: BLE001 - a broken game is named and skipped
            skipped.append(seed)
            print(f"seed {seed}: skipped ({type(exc).__name__}: {exc})", file=sys.stderr)
    first = [r["first"] for r in rows if r["first"] is not None]
    held = [r["held_from"] for r in rows if r["held_from"] is not None]
    retakes = [t for r in rows for t in r["retakes"]]
    out = {
        "games": len(rows), "skipped": skipped, "garrison": args.garrison,
        "first_allied": len(first),
        "first_turn_median": statistics.median(first) if first else None,
        "first_turns": dict(sorted(collections.Counter(first).items())),
        "first_taker": dict(collections.Counter(r["by"] for r in rows if r["by"]).most_common()),
        "games_retaken": sum(bool(r["retakes"]) for r in rows), "retakes": len(retakes),
        "retake_turns": dict(sorted(collections.Counter(t for t, _ in retakes).items())),
        "retaken_by": dict(collections.Counter(u for _, u in retakes).most_common()),
        "allied_at_end": sum(r["end"] == "allied" for r in rows),
        "held_from_median": statistics.median(held) if held else None,
        "held_from": dict(sorted(collections.Counter(held).items())),
        "history_turn": 10,
    }
    print(f"Dragoon, {args.allied} v {args.axis}, {len(rows)} games (study seed {args.seed})"
          + (", the 759th starting in Lyon" if args.garrison else ""))
    print(f"Lyon first Allied in {len(first)}: median turn {out['first_turn_median']}, "
          f"turns {out['first_turns']}; taken by {out['first_taker']}")
    print(f"German retakes: {len(retakes)} in {out['games_retaken']} games, turns "
          f"{out['retake_turns']}, by {out['retaken_by']}")
    print(f"Allied at the end: {out['allied_at_end']}; held from median turn "
          f"{out['held_from_median']}, {out['held_from']} (history: turn 10)")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
