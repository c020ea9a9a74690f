"""BFN 19.4: Mulberries built by daily d6 to 21, 3d6 storm damage, CN 9.0's benefits."""

from itertools import product

from wargame.dice import Dice
from wargame.hexgrid import Hex
from wargame.operational.variants import MULBERRY_TARGET, simulate_mulberry, storm_damage

from .conftest import LoadedDice, game, load


def _held(state, *hexes):
    """The landing hexes taken: German defenders gone, Allied control."""
    for hid in hexes:
        h = Hex.from_id(hid)
        for u in state.units_at(h):
            if state.side_of(u) == "axis":
                state.units[u].status, state.units[u].hex = "eliminated", None
        state.control[h] = "allied"
    state.edited()


def test_construction_storm_and_repair_in_the_engine():
    s = game("bfn-19.4").new_state(1)
    _held(s, "2010", "2410")
    s.turn = 2
    load(s, 6, 6, 6, 6)      # 8 and 9 June: American, British
    s._start_turn()
    assert s.dice.draws == 4
    assert {n: h["progress"] for n, h in s.flags["bfn"]["mulberry"].items()} == {"American": 12, "British": 12}
    assert s.mulberries_operating() == 0
    s.turn = 3
    load(s, 6, 5, 6, 4)      # 10 June: 18, 17; 11 June: 21 (done), 21 (done); 12 June: no rolls
    s._start_turn()
    assert s.dice.draws == 4
    assert s.flags["mulberries"] == {"American": "operating", "British": "operating"}
    assert s.mulberry_landing_free(Hex.from_id("2010")) and s.mulberry_landing_free(Hex.from_id("2410"))
    s.turn = 5               # the storm: American odd -> 3d6 = 9; British even -> survives
    load(s, 1, 2, 3, 4, 2)
    s._start_turn()
    assert s.flags["bfn"]["mulberry"]["American"] == {"progress": 12, "status": "repairing", "taken": True}
    assert s.flags["mulberries"]["American"] == "repairing"
    assert s.mulberries_operating() == 1
    assert not s.mulberry_landing_free(Hex.from_id("2010"))
    s.turn = 6               # repairs on 19-21 June
    load(s, 3, 3, 3)
    s._start_turn()
    assert s.flags["mulberries"]["American"] == "operating"
    assert s.mulberries_operating() == 2


def test_no_progress_while_the_landing_hex_is_not_allied():
    s = game("bfn-19.4").new_state(1)
    s.control[Hex.from_id("2010")] = "axis"
    s.control[Hex.from_id("2410")] = "axis"
    s.turn = 2
    load(s)
    s._start_turn()
    assert s.dice.draws == 0
    assert all(h["progress"] == 0 for h in s.flags["bfn"]["mulberry"].values())


def test_cn_turn_4_install_is_replaced():
    base = game().new_state(1)
    var = game("bfn-19.4").new_state(1)
    _held(base, "2010", "2410")
    base.flags["landing_captured"] = {"American": 0, "British": 0}
    base.turn = 4
    base._start_turn()
    assert base.mulberries_operating() == 2          # CN 9.0: installed on turn 4
    _held(var, "2010", "2410")
    var.turn = 4
    load(var, 1, 1, 1, 1, 1, 1)                      # 13-15 June only: 3 each
    var._start_turn()
    assert var.mulberries_operating() == 0


def test_chosen_beaches():
    s = game("bfn-19.4:Utah+Sword").new_state(1)
    assert Hex.from_id("1409") in s.control    # the landing hex's control is tracked
    _held(s, "1409", "3011")
    s.turn = 2
    load(s, 6, 6, 6, 6)
    s._start_turn()
    s.turn = 3
    load(s, 6, 6, 6, 6)
    s._start_turn()
    assert s.flags["mulberries"] == {"Utah": "operating", "Sword": "operating"}
    assert s.mulberry_landing_free(Hex.from_id("1409"))
    assert not s.mulberry_landing_free(Hex.from_id("2010"))


def test_storm_damage_procedure():
    assert storm_damage(15, LoadedDice([2])) == (15, 2, None)
    assert storm_damage(15, LoadedDice([3, 6, 6, 5])) == (0, 3, 17)      # never below 0
    assert storm_damage(21, LoadedDice([5, 1, 1, 1])) == (18, 5, 3)


def test_earliest_completion_is_turn_3_with_the_exact_5d6_probability():
    """Five daily dice by the start of turn 3 (8-12 June): P(5d6 >= 21), counted by brute force."""
    from wargame.analysis.variants import mulberry_turn_probabilities

    hits = sum(1 for faces in product(range(1, 7), repeat=5) if sum(faces) >= MULBERRY_TARGET)
    probs = mulberry_turn_probabilities(0, 16, 5)
    assert probs[0][0] == probs[1][0] == probs[2][0] == 0
    assert probs[3][0] * 6 ** 5 == hits
    assert sum(first for first, _ in probs.values()) == 1


def test_seeded_monte_carlo_matches_the_exact_mulberry_distribution():
    from wargame.analysis.variants import mulberry_distribution

    dist = mulberry_distribution()
    dice = Dice(44)
    n = 4000
    working = {t: 0 for t in range(17)}
    first = {t: 0 for t in range(17)}
    for _ in range(n):
        run = simulate_mulberry(dice)
        for t, w in run.items():
            working[t] += w
        t0 = min((t for t, w in run.items() if w), default=None)
        if t0 is not None:
            first[t0] += 1
    for row in dist.itertuples():
        for f, p in ((working[row.cn_turn] / n, row.p_working), (first[row.cn_turn] / n, row.p)):
            assert abs(f - p) <= 4.5 * (p * (1 - p) / n) ** 0.5 + 1e-9, (row.cn_turn, f, p)
    # the storm matters: about half the harbours are out on turn 5 (CN 9.0's own odds)
    t4, t5 = dist.set_index("cn_turn").loc[[4, 5], "p_working"]
    assert 0.4 < t5 / t4 < 0.6


def test_germans_who_never_left_the_landing_hex_delay_the_harbour_and_retaking_cancels_it():
    """CN 9.0 as the campaign reads it (docs/rules-notes.md), kept by BFN 19.4: German
    units still on a landing hex after turn 0 only delay the harbour; Germans back on it after
    the Allies had taken it cancel it."""
    s = game("bfn-19.4").new_state(1)
    omaha, gold = Hex.from_id("2010"), Hex.from_id("2410")
    s.control[omaha] = "axis"
    s.units["de-916-352"].status, s.units["de-916-352"].hex = "on_map", omaha  # never left
    _held(s, "2410")
    s.edited()
    s.turn = 2
    load(s, 6, 6)            # 8 and 9 June: only the British harbour rolls
    s._start_turn()
    mul = s.flags["bfn"]["mulberry"]
    assert mul["American"]["status"] != "cancelled" and mul["American"]["progress"] == 0
    assert mul["British"]["progress"] == 12
    # the Germans come back onto Gold after the Allies had it: that harbour is lost
    s.units["de-915-352"].status, s.units["de-915-352"].hex = "on_map", gold
    s.control[gold] = "axis"
    s.edited()
    s.turn = 3
    load(s)
    s._start_turn()
    assert mul["British"]["status"] == "cancelled"
    assert mul["American"]["status"] != "cancelled"
