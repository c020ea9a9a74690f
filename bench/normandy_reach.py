"""Evidence for issue #34, item 5: can the Axis hold its victory cities at all after D-Day?

Plays the invasion turn (turn 0) with the given players (``--allied``, ``--axis``, greedy by
default) up to the Axis's first movement phase, then prints, for each CN/OD 11.2 victory city:

- ``allied_1`` / ``allied_2``: the believed attack (``campaign_eval.estimated_values``, the
  counter mix a player knows, CN/OD 5.1.1) of the Allied units that could end their next one /
  two movement phases in the city or next to it, **with no Axis unit in the way**
  (``campaign_hard.enemy_reach``: the board's movement costs, CN/OD 4.0; reinforcements due by
  then from their entry hexes, CN/OD 4.2.1);
- ``empty_1``: whether an Allied unit could end its next move in the city itself (an empty
  city is then lost without a fight: control goes to the last side to enter a hex);
- ``axis_reach``: the real defence of the German units on the map that can end this Axis
  movement phase in the city (``State.legal_destinations``: Allied zones and hexes in the way);
- ``best_stack``: the strongest defence one hex can hold (the ``stacking_limit`` strongest of
  those units); ``cols``: the city's terrain columns in defence (CN 5.1.2, each moves the
  attack one CRT column left); ``odds``: ``allied_1`` over ``best_stack``, before the columns.
  ``allied_1`` is a bound (every unit that could get there, none in the way, no stacking
  limit next to the city), not an attack that will be made.

Then the totals: German units able to reach any city against the cities an Allied unit could
enter. The LAST line is one JSON object of the figures. Run::

    python bench/normandy_reach.py [--scenario normandy] [--seed 1000003]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

try:
    import wargame  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame.bots.campaign_eval import Belief, victory_hexes  # noqa: E402
from wargame.bots.campaign_hard import enemy_reach  # noqa: E402
from wargame.bots.play import make_policy  # noqa: E402
from wargame.games import open_game  # noqa: E402
from wargame.operational.combat import terrain_columns  # noqa: E402
from wargame.operational.state_types import Phase  # noqa: E402


def to_axis_movement(scenario: str, seed: int, allied: str, axis: str):
    """The position at the start of the Axis's first movement phase, the invasion played by
    the given players."""
    game = open_game(scenario)
    state = game.new_state(seed)
    policies = {"allied": make_policy(game, allied, 1), "axis": make_policy(game, axis, 2)}
    while not (state.phase is Phase.AXIS_MOVEMENT and state.pending is None):
        state.apply(policies[state.side_to_act].choose(state))
    return state


def city_rows(state) -> list[dict]:
    one, ends = enemy_reach(Belief(state, "axis"), "axis", phases=1)
    two, _ = enemy_reach(Belief(state, "axis"), "axis", phases=2)
    limit = state.game.scenario.stacking_limit
    movers = [u for u in sorted(state.units) if state.units[u].status == "on_map"
              and state.side_of(u) == "axis" and state.move_refusal(u) is None]
    dests = {u: state.legal_destinations(u) for u in movers}
    rows = []
    for h in sorted(victory_hexes(state.game), key=lambda x: x.id):
        if state.control.get(h) == "allied":
            continue
        here = [u for u in state.units_at(h) if state.side_of(u) == "axis"]
        can = sorted({*here, *(u for u in movers if h in dests[u])},
                     key=lambda u: -state.defence_of(u))
        best = sum(state.defence_of(u) for u in can[:limit])
        cols = terrain_columns(state, h)[0]
        ratio = one.get(h, 0.0) / best if best else float("inf")
        rows.append({"city": state.game.board.place_name(h) or h.id, "hex": h.id,
                     "allied_1": round(one.get(h, 0.0), 1), "allied_2": round(two.get(h, 0.0), 1),
                     "empty_1": h in ends, "axis_units": len(can),
                     "axis_reach": sum(state.defence_of(u) for u in can), "best_stack": best,
                     "columns": cols, "odds": round(ratio, 1)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="normandy")
    parser.add_argument("--seed", type=int, default=1000003)
    parser.add_argument("--allied", default="greedy")
    parser.add_argument("--axis", default="greedy")
    args = parser.parse_args()
    state = to_axis_movement(args.scenario, args.seed, args.allied, args.axis)
    rows = city_rows(state)
    print(f"{args.scenario}, seed {args.seed}: turn {state.turn}, Axis movement; "
          f"{sum(1 for u in state.units.values() if u.status == 'on_map')} units on the map")
    print(f"  {'city':<26}{'hex':>5}{'allied_1':>9}{'allied_2':>9}{'empty_1':>8}"
          f"{'units':>6}{'axis_reach':>11}{'best_stack':>11}{'cols':>5}{'odds':>6}")
    for r in rows:
        print(f"  {r['city']:<26}{r['hex']:>5}{r['allied_1']:>9}{r['allied_2']:>9}"
              f"{'yes' if r['empty_1'] else 'no':>8}{r['axis_units']:>6}{r['axis_reach']:>11}"
              f"{r['best_stack']:>11}{r['columns']:>5}{r['odds']:>6}")
    movers = {u for u in state.units if state.units[u].status == "on_map"
              and state.side_of(u) == "axis" and state.move_refusal(u) is None}
    exposed = sum(1 for r in rows if r["empty_1"])
    totals = {"axis_units_on_map": sum(1 for u in state.units if state.units[u].status == "on_map"
                                       and state.side_of(u) == "axis"),
              "axis_units_free_to_move": len(movers),
              "city_hexes_axis": len(rows), "city_hexes_an_allied_unit_could_enter": exposed}
    print("  " + ", ".join(f"{k} {v}" for k, v in totals.items()))
    print(json.dumps({"scenario": args.scenario, "seed": args.seed, "turn": state.turn,
                      "cities": rows, "totals": totals}))


if __name__ == "__main__":
    main()
