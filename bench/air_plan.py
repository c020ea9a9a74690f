"""Benchmark: the air-point optimiser against the greedy bot's point-by-point allocation, on
positions from real bot games (issue #19).

Plays greedy-vs-greedy campaigns; at the start of every combat phase of a side with air points
left (CN/OD 6.1) it keeps the position and the attacks the bot then declared in that phase.
On each such position it compares, under each objective (wargame.bots.air_plan):
- ``bot``: the air points the bot really put on each attack (the greedy bot plans with the
  optimiser at each of its combat decisions, on the position of that moment);
- ``sequential``: the bot's former rule recomputed on the phase-start position (each attack in
  turn takes what is best for itself alone);
- ``optimal``: the exact dynamic programme.
All three are valued on the phase-start position (the same value table), so they compare
like with like. Prints, per objective, the positions, mean values, the mean and largest gain
of the optimiser over the bot, and how often the optimiser is below the bot (it must be 0).
The LAST line is one JSON object of the figures.

Run: ``python bench/air_plan.py [--scenario dragoon] [--games 3] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

try:
    import wargame  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame.bots.air_plan import (  # noqa: E402
    OBJECTIVES,
    PlannedAttack,
    optimise_air,
    sequential_air,
    value_table,
)
from wargame.bots.play import make_policy, play  # noqa: E402
from wargame.games import open_game  # noqa: E402
from wargame.operational.actions import Attack  # noqa: E402


def positions(scenario: str, seed: int) -> list[tuple[object, list[Attack]]]:
    """(phase-start state, the bot's attacks in that phase) for every combat phase in which the
    attacking side had air points and declared at least two attacks."""
    game = open_game(scenario)
    state = game.new_state(seed)
    policy = make_policy(game, "greedy")
    play(state, dict.fromkeys(game.sides, policy))
    replayed = game.new_state(seed)
    out: list[tuple[object, list[Attack]]] = []
    phase_key = None
    start = None
    attacks: list[Attack] = []
    for entry in state.action_log:
        action = game.action_from_dict(entry) if isinstance(entry, dict) else entry
        key = (replayed.turn, replayed.phase)
        if key != phase_key:
            if start is not None and len(attacks) >= 2:
                out.append((start, attacks))
            phase_key, attacks = key, []
            side = replayed.phase.side
            start = None
            if (replayed.phase.value.endswith("combat") and side
                    and replayed.air_points.get(side, 0) > 0):
                start = replayed.clone()
        if start is not None and isinstance(action, Attack):
            attacks.append(action)
        replayed.apply(action)
    if start is not None and len(attacks) >= 2:
        out.append((start, attacks))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="dragoon")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    began = time.perf_counter()
    found = []
    for i in range(args.games):
        found += positions(args.scenario, args.seed + i)
    played = time.perf_counter() - began
    print(f"{args.scenario}: {args.games} greedy games in {played:.1f} s, "
          f"{len(found)} combat phases with air points and >= 2 attacks")
    figures: dict[str, object] = {"scenario": args.scenario, "games": args.games,
                                  "positions": len(found)}
    for objective in OBJECTIVES:
        bot_v, seq_v, opt_v, gains, below, plan_ms = [], [], [], [], 0, []
        for state, attacks in found:
            planned = [PlannedAttack(a.target, a.attackers, a.artillery) for a in attacks]
            t0 = time.perf_counter()
            table = value_table(state, planned, objective=objective)
            best = optimise_air(state, planned, objective=objective, table=table)
            plan_ms.append((time.perf_counter() - t0) * 1000)
            seq = sequential_air(state, planned, objective=objective, table=table)
            bot = sum(row.get(a.air, 0.0) for row, a in zip(table, attacks, strict=True))
            bot_v.append(bot)
            seq_v.append(seq.value)
            opt_v.append(best.value)
            gains.append(best.value - bot)
            below += best.value < bot - 1e-9
        if not found:
            continue
        unit = "steps" if objective == "steps" else "hexes cleared"
        print(f"objective {objective!r} (expected {unit} per phase): bot "
              f"{statistics.mean(bot_v):.3f}, sequential {statistics.mean(seq_v):.3f}, optimal "
              f"{statistics.mean(opt_v):.3f}; gain over the bot mean {statistics.mean(gains):.3f}, "
              f"largest {max(gains):.3f}, improved {sum(g > 1e-9 for g in gains)}/{len(gains)}, "
              f"optimal below the bot {below} times; plan {statistics.median(plan_ms):.1f} ms "
              "median")
        figures[objective] = {"bot": statistics.mean(bot_v), "sequential": statistics.mean(seq_v),
                              "optimal": statistics.mean(opt_v), "gain_mean": statistics.mean(gains),
                              "gain_max": max(gains), "below_bot": below,
                              "plan_ms_median": statistics.median(plan_ms)}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
