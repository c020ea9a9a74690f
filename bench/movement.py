"""Benchmark: reachable hexes with costs and engagement for one unit.

A 33 x 25 map with 100 units (50 a side) and mixed terrain, rivers and roads. Our
``State.reach`` (zones of engagement, stacking-free passage, half-point costs) is timed beside
``networkx.single_source_dijkstra_path_length`` on the same step-cost graph with the same
cutoff, in the same run. The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import json
import random
import statistics
import time

import networkx as nx

from wargame.hexgrid import offset_to_hex
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


def networkx_graph(game: Game, movement_class: str) -> nx.DiGraph:
    graph = nx.DiGraph()
    for h, steps in game.steps.for_class(movement_class).items():
        for n, cost in steps:
            graph.add_edge(h, n, weight=cost)
    return graph


def best_of(fn, repeats: int = 30) -> tuple[float, float]:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return min(times), statistics.median(times)


def main() -> None:
    game = build_game()
    state = game.new_state(1)
    start = state.units["mover"].hex
    graph = networkx_graph(game, "motorized")
    state.reach("mover")  # warm the per-class step table, as a running game has it
    ours_min, ours_med = best_of(lambda: state.reach("mover"))
    nx_min, nx_med = best_of(lambda: nx.single_source_dijkstra_path_length(graph, start, cutoff=30))
    reach = state.reach("mover")
    print(f"map {COLS}x{ROWS} = {len(game.board.hexes)} hexes, {len(game.units) - 1} units + the mover (15 MP motorized)")
    print(f"ours (costs + zones of engagement + enemy hexes): {len(reach)} hexes, min {ours_min:.3f} ms, median {ours_med:.3f} ms")
    print(f"networkx single_source_dijkstra_path_length (costs only): min {nx_min:.3f} ms, median {nx_med:.3f} ms")
    figures = {"ours_ms": round(ours_med, 4), "networkx_ms": round(nx_med, 4), "ratio": round(nx_med / ours_med, 2),
               "hexes_reached": len(reach)}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
