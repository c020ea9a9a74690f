"""``movement.reachable`` (Dial's buckets, issue #19's faster engine) against a plain heap
Dijkstra written from CN/OD 4.1.2, on the Normandy map with random enemy hexes, zones of
engagement, costs already spent and off-map links: the same hexes, costs, paths and order."""

import heapq

from hypothesis import given, settings
from hypothesis import strategies as st

from wargame.operational.movement import Reach, blocked_and_zoc, reachable
from wargame.operational.state import Game

GAME = Game("normandy")
STEPS = GAME.steps
HEXES = STEPS.hexes
CLASSES = sorted(GAME.tables.movement_classes)


def reference(movement_class, start, budget, blocked, zoc, start_cost, extra):
    """Heap Dijkstra in half-points: enemy hexes never entered, a zone of engagement stops
    the unit, leaving one at the start costs one more point (CN/OD 4.1.2)."""
    table = STEPS.indexed(movement_class)
    s = STEPS.index[start]
    dist, prev = {s: start_cost}, {}
    heap = [(start_cost, s)]
    while heap:
        cost, h = heapq.heappop(heap)
        if dist[h] < cost:
            continue
        if h == s:
            add = 2 if s in zoc else 0
        elif h in zoc:
            continue
        else:
            add = 0
        for n, c in table[h] + tuple(extra.get(h, ())):
            nc = cost + c + add
            if nc > budget or n in blocked:
                continue
            if n not in dist or nc < dist[n]:
                dist[n] = nc
                prev[n] = h
                heapq.heappush(heap, (nc, n))
    out = {start: Reach(start_cost, None, s in zoc)}
    for n, cost in dist.items():
        if n != s:
            out[HEXES[n]] = Reach(cost, HEXES[prev[n]], n in zoc)
    return out


hex_numbers = st.integers(0, len(HEXES) - 1)


@settings(max_examples=120, deadline=None)
@given(start=hex_numbers, mclass=st.sampled_from(CLASSES), budget=st.integers(0, 40),
       start_cost=st.integers(0, 12), enemies=st.sets(hex_numbers, max_size=60),
       zones=st.sets(hex_numbers, max_size=150),
       links=st.lists(st.tuples(hex_numbers, hex_numbers, st.integers(1, 12)), max_size=3))
def test_bucket_search_equals_the_heap_search(start, mclass, budget, start_cost, enemies, zones,
                                              links):
    enemies.discard(start)
    sets = blocked_and_zoc(STEPS, {HEXES[i] for i in enemies}, {HEXES[i] for i in zones})
    extra_hexes: dict = {}
    extra_ints: dict = {}
    for a, b, c in links:
        extra_hexes.setdefault(HEXES[a], []).append((HEXES[b], c))
        extra_ints.setdefault(a, []).append((b, c))
    got = reachable(STEPS, mclass, HEXES[start], budget, start_cost=start_cost,
                    extra_steps=extra_hexes, indexed_sets=sets)
    want = reference(mclass, HEXES[start], budget, sets[0], sets[1], start_cost, extra_ints)
    assert list(got.items()) == list(want.items())


def test_remembered_searches_equal_fresh_ones_through_a_game():
    """``State.reach`` remembers searches under their inputs; through a bot game every answer
    equals a fresh search, ``legal_destinations`` equals the reach minus the unit's hex and
    the hexes without stacking room (CN/OD 4.1.1), and a caller changing its copy changes
    nothing for the next caller."""
    from wargame.bots.play import make_policy
    from wargame.games import open_game
    from wargame.operational.state_types import Phase

    game = open_game("dragoon")
    state = game.new_state(2)
    bot = make_policy(game, "greedy")
    checked = 0
    for _ in range(160):
        if state.is_terminal:
            break
        if state.phase in (Phase.ALLIED_MOVEMENT, Phase.AXIS_MOVEMENT) and state.pending is None:
            side = state.phase.side
            for uid in [u for u, us in state.units.items()
                        if us.status == "on_map" and state.side_of(u) == side][:12]:
                us = state.units[uid]
                mp, mclass = state.movement_of(uid)
                fresh = reachable(game.steps, mclass, us.hex, 2 * mp, start_cost=us.spent,
                                  extra_steps=state._offmap_roads(side, mclass),
                                  indexed_sets=state._move_obstacles(side))
                got = state.reach(uid)
                assert list(got.items()) == list(fresh.items())
                got.clear()  # the caller's own copy
                assert list(state.reach(uid).items()) == list(fresh.items())
                if state.move_refusal(uid) is None:
                    want = {h: r for h, r in fresh.items()
                            if h != us.hex and state.stack_room(h, side, uid) > 0}
                    assert list(state.legal_destinations(uid).items()) == list(want.items())
                checked += 1
        state.apply(bot.choose(state))
    assert checked > 50
