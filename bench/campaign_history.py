"""Measure: do bot campaigns look like 1944? (issue #34, item 3)

Plays ``--games`` campaigns of each ``--scenario`` (Normandy, Dragoon) with the given players
(``--allied``, ``--axis``: any name of the campaign family, ``wargame.registry``) through the
study machinery (``wargame.analysis.study.run_study``: Dask workers, the same game seeds as
``wargame study``, a progress bar on stderr) and prints, per CN/OD 11.2 victory city:

- ``history``: the first turn the Allies held it whole in 1944 (``scenarios/<id>/history.yaml``;
  a city not taken by the game's last turn counts as ``last_turn + 1``, 17 in Normandy);
- ``median``: the median over the games of the turn it first fell whole to the Allies (a city
  never taken counts as ``last_turn + 1`` too, as in issue #34's table);
- ``|diff|``: the absolute difference of the two; the mean over the cities is printed below;
- ``held``: the share of games in which the Axis never lost it whole.

Then the win rates, the mean victory points and the units lost by nationality, and, with
``--cpu K``, the CPU seconds each player spent choosing over K further campaigns played in this
process (``time.process_time`` around every ``choose``: a whole campaign's budget, issue #34's
"about 60 s on one core"). The LAST line is one JSON object of the figures.

Run (under load give ``nice -n 19``; one worker a core by default)::

    python bench/campaign_history.py --games 20 --allied hard --axis hard [--scenario normandy]
        [--seed 1] [--workers 2] [--no-dask] [--cpu 1] [--out FOLDER] [--whatif FILE]

``--whatif FILE`` plays the campaigns with a what-if applied (docs/studies.md): the files in
``bench/whatifs/`` change the reconstructed counters or the control rule, to see how far each
moves the campaign from or toward 1944 (docs/rules-notes.md, issue #34 item 5).
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

import pandas as pd  # noqa: E402

from wargame.analysis.study import against_history, game_seed, run_study  # noqa: E402
from wargame.bots.play import make_policy, play  # noqa: E402
from wargame.games import open_game  # noqa: E402


def city_table(study, last_turn: int) -> tuple[list[dict], float]:
    """Per victory city: history turn, median fall turn, |difference|, share held; and the mean
    absolute difference (cities never taken count as ``last_turn + 1`` on both sides)."""
    never = last_turn + 1
    real = against_history(study)["history_turn"].to_dict()
    t = study.table
    n = len(t)
    rows = []
    for city in study.cities:
        turns = [never if pd.isna(v) else int(v) for v in t[f"fell_{city}"]]  # NA: never taken
        hist = real.get(city)
        hist = never if hist is None or pd.isna(hist) else int(hist)
        median = statistics.median(turns) if turns else float("nan")
        held = sum(1 for x in turns if x == never) / n if n else float("nan")
        rows.append({"city": city, "history": hist, "median": median,
                     "diff": abs(median - hist), "held": held})
    mad = statistics.mean(r["diff"] for r in rows) if rows else float("nan")
    return rows, mad


class Timed:
    """A policy that adds the CPU time of each choice to ``spent[side]``."""

    def __init__(self, inner, side: str, spent: dict[str, float]) -> None:
        self.inner, self.side, self.spent = inner, side, spent

    def choose(self, state):
        t0 = time.process_time()
        try:
            return self.inner.choose(state)
        finally:
            self.spent[self.side] += time.process_time() - t0


def cpu_per_player(scenario: str, seed: int, allied: str, axis: str, games: int) -> list[dict]:
    """CPU seconds each side's policy spent in ``choose`` over whole campaigns in this process
    (the seeds of the study's first games, the players' seeds as ``wargame study`` gives)."""
    game = open_game(scenario)
    out = []
    for i in range(games):
        s = game_seed(seed, i)
        spent = {"allied": 0.0, "axis": 0.0}
        policies = {}
        for k, (side, name) in enumerate((("allied", allied), ("axis", axis))):
            inner = make_policy(game, name, s * 2 + 1 + k)

            policies[side] = Timed(inner, side, spent)
        t0 = time.process_time()
        state = play(game.new_state(s), policies)
        total = time.process_time() - t0
        out.append({"seed": s, "allied_cpu": round(spent["allied"], 2),
                    "axis_cpu": round(spent["axis"], 2), "game_cpu": round(total, 2),
                    "winner": str(state.outcome().winner)})
        print(f"  cpu seed {s}: Allies ({allied}) {spent['allied']:.1f} s, Axis ({axis}) "
              f"{spent['axis']:.1f} s, whole campaign {total:.1f} s", file=sys.stderr)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", nargs="+", default=["normandy", "dragoon"])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--allied", default="greedy")
    parser.add_argument("--axis", default="greedy")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--no-dask", action="store_true", help="play in this process")
    parser.add_argument("--cpu", type=int, default=0,
                        help="also time each player's choices over this many campaigns")
    parser.add_argument("--out", default=None, help="a study folder per scenario (resumes)")
    parser.add_argument("--whatif", default=None, metavar="FILE",
                        help="a what-if YAML file (docs/studies.md) applied to the scenario: "
                             "e.g. bench/whatifs/normandy-german-defence-plus-1.yaml")
    args = parser.parse_args()
    figures: dict[str, dict] = {}
    for scenario in args.scenario:
        out = None if args.out is None else Path(args.out) / f"{scenario}-{args.allied}-{args.axis}"
        wall = time.perf_counter()
        study = run_study(scenario, args.games, seed=args.seed, allied=args.allied,
                          axis=args.axis, workers=args.workers, out=out,
                          whatif=args.whatif, use_dask=not args.no_dask)
        wall = time.perf_counter() - wall
        last_turn = open_game(scenario).scenario.last_turn
        rows, mad = city_table(study, last_turn)
        s = study.summary()
        n = s["games"]
        print(f"\n{scenario}: {n} games, {args.allied} Allies vs {args.axis} Axis, seed "
              f"{args.seed}{'' if args.whatif is None else ', what-if ' + args.whatif} "
              f"({wall:.0f} s wall; failed {s['failed']})")
        print(f"  {'city':<26}{'history':>8}{'median':>8}{'|diff|':>8}{'held':>7}")
        for r in rows:
            print(f"  {r['city']:<26}{r['history']:>8}{r['median']:>8.1f}{r['diff']:>8.1f}"
                  f"{r['held']:>7.0%}")
        print(f"  mean |median - history| over {len(rows)} cities: {mad:.2f} turns "
              f"(never taken = turn {last_turn + 1})")
        print(f"  wins: Allies {s['allied_wins']}, Axis {s['axis_wins']}, drawn {s['draws']}"
              f" (Axis {s['axis_win_rate'] or 0:.0%})")
        print(f"  mean VP: Allies {s['allied_vp_mean']:.1f}, Axis {s['axis_vp_mean']:.1f}")
        nations = [c for c in study.table.columns if c.startswith("lost_")]
        lost = {c[5:]: round(float(study.table[c].mean()), 1) for c in nations} if n else {}
        print("  mean units lost by nationality: "
              + ", ".join(f"{k} {v}" for k, v in lost.items()))
        figures[scenario] = {
            "games": n, "allied": args.allied, "axis": args.axis, "seed": args.seed,
            "whatif": args.whatif,
            "mean_abs_diff": round(mad, 2), "axis_win_rate": s["axis_win_rate"],
            "allied_win_rate": s["allied_win_rate"], "lost": lost,
            "cities": {r["city"]: {k: r[k] for k in ("history", "median", "held")} for r in rows},
            "wall_seconds": round(wall, 1)}
        if args.cpu:
            timed = cpu_per_player(scenario, args.seed, args.allied, args.axis, args.cpu)
            figures[scenario]["cpu"] = timed
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
