"""Benchmark: reachable hexes with costs and engagement for one unit, against networkx on the
same problem.

A 33 x 25 map with 100 units (50 a side) and mixed terrain, rivers and roads; the mover is a
15 MP motorised unit. The problem is the movement rule of CN/OD 4.1.2 in half-points: enemy
hexes are never entered, entering an enemy zone of engagement stops the unit, breaking
contact at the start costs one more point, and the budget is 2 x MP.

networkx is given exactly that problem, on the same int hex numbers our search uses
(``StepCosts.index``): a DiGraph without the edges into enemy hexes and without the edges out
of zone hexes (except the start's, which carry the extra point), searched by
``single_source_dijkstra_path_length`` with ``cutoff`` = the budget. The bench checks that
both reach the same hexes at the same costs, then times:
- ``ours (search)``: ``movement.reachable`` on the numbered sets, as ``State.reach`` runs it
  (its result is the full ``{Hex: Reach}`` with costs and the path back);
- ``ours (State.reach)``: the same through the state, with its cached sets;
- ``networkx``: the search alone on the prepared graph, plus, apart, the time to build the
  graph, which networkx needs again whenever a unit moves (the zones change).
The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import json
import random
import statistics
import time

import networkx as nx

from wargame.hexgrid import offset_to_hex
from wargame.operational.movement import reachable
from wargame.operational.state import Game
from wargame.operational.synthetic import small_scenario, unit

COLS, ROWS = 33, 25


def build_game(seed: int = 1944) -> Game:
    rng = random.Random(seed)
    kinds = ["open"] * 6 + ["bocage", "forest", "rough", "hill", "marsh", "city"]
    terrain = {offset_to_hex(c, r).id: rng.choice(kinds) for c in range(1, COLS + 1) for r in range(1, ROWS + 1)}
    hexes = [offset_to_hex(c, r) for c in range(1, COLS + 1) for r in range(1, ROWS + 1)]
    rivers = []
    for h in rng.sample(hexes, 120):
        n = rng.choice(h.neighbours())
        if 1 <= n.col <= COLS and 1 <= n.row <= ROWS:
            rivers.append((h.id, n.id))
    roads = []
    for _ in range(8):
        h = rng.choice(hexes)
        chain = [h.id]
        for _ in range(12):
            nxt = rng.choice(h.neighbours())
            if not (1 <= nxt.col <= COLS and 1 <= nxt.row <= ROWS) or nxt.id in chain:
                break
            chain.append(nxt.id)
            h = nxt
        if len(chain) > 1:
            roads.append(chain)
    units, setup = [], {}
    spots = rng.sample(hexes, 100)
    for i, h in enumerate(spots):
        side = "allied" if h.col <= COLS // 2 else "axis"
        uid = f"u{i}"
        units.append(unit(uid, side, "motorized_infantry" if i % 3 == 0 else "infantry", m=15 if i % 3 == 0 else 8))
        setup[uid] = h.id
    mover = "mover"
    units.append(unit(mover, "allied", "motorized_infantry", 4, 4, 15))
    setup[mover] = offset_to_hex(8, 13).id
    return Game(small_scenario(cols=COLS, rows=ROWS, terrain=terrain, rivers=rivers, roads=roads,
                               units=units, setup=setup))


def networkx_graph(state, uid: str) -> tuple[nx.DiGraph, int, int]:
    """The movement problem of ``uid`` as a networkx graph on hex numbers: (graph, start,
    budget in half-points)."""
    steps = state.game.steps
    mp, mclass = state.movement_of(uid)
    blocked, zoc = state._move_obstacles(state.side_of(uid))
    table = steps.indexed(mclass)
    start = steps.index[state.units[uid].hex]
    leave = 2 if start in zoc else 0  # CN/OD 4.1.2: +1 point to break contact
    graph = nx.DiGraph()
    for h, links in enumerate(table):
        if h in zoc and h != start:
            continue  # engaged: must stop (no edge out)
        for n, cost in links:
            if n not in blocked:
                graph.add_edge(h, n, weight=cost + (leave if h == start else 0))
    return graph, start, 2 * mp


def best_of(fn, repeats: int = 50) -> tuple[float, float]:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return min(times), statistics.median(times)


def main() -> None:
    game = build_game()
    state = game.new_state(1)
    uid = "mover"
    state.reach(uid)  # warm the per-class step table and the state's sets, as a game has them
    steps = game.steps
    mp, mclass = state.movement_of(uid)
    start_hex = state.units[uid].hex
    sets = state._move_obstacles(state.side_of(uid))

    def ours_search():
        return reachable(steps, mclass, start_hex, budget=2 * mp, indexed_sets=sets)

    t0 = time.perf_counter()
    graph, start, budget = networkx_graph(state, uid)
    build_ms = (time.perf_counter() - t0) * 1000

    def networkx_search():
        return nx.single_source_dijkstra_path_length(graph, start, cutoff=budget)

    ours = {steps.index[h]: r.cost for h, r in ours_search().items()}
    theirs = networkx_search()
    same = ours == dict(theirs)
    search_min, search_med = best_of(ours_search)
    reach_min, reach_med = best_of(lambda: state.reach(uid))
    nx_min, nx_med = best_of(networkx_search)
    print(f"map {COLS}x{ROWS} = {len(game.board.hexes)} hexes, {len(game.units) - 1} units + the "
          f"mover ({mp} MP {mclass}); the same problem on both sides: {same} "
          f"({len(ours)} hexes reached)")
    print(f"ours (search, int hexes): min {search_min:.3f} ms, median {search_med:.3f} ms")
    print(f"ours (State.reach):       min {reach_min:.3f} ms, median {reach_med:.3f} ms")
    print(f"networkx (search only):   min {nx_min:.3f} ms, median {nx_med:.3f} ms; building "
          f"its graph for the position: {build_ms:.3f} ms")
    print(f"networkx / ours: {nx_med / search_med:.2f}x (target >= 2x, issue #19)")
    figures = {"same_problem": same, "hexes_reached": len(ours),
               "ours_search_ms": round(search_med, 4), "ours_reach_ms": round(reach_med, 4),
               "networkx_ms": round(nx_med, 4), "networkx_graph_build_ms": round(build_ms, 4),
               "ratio": round(nx_med / search_med, 2)}
    print(json.dumps(figures))
    if not same:
        raise SystemExit("the two searches disagree: the comparison would not be like with like")


if __name__ == "__main__":
    main()
