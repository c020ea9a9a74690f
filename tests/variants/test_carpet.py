"""BFN 19.3: ten contiguous target hexes after 15 July, twice a game, friendly fire."""

import pytest

from wargame.dice import Dice
from wargame.hexgrid import Hex
from wargame.operational.actions import CarpetBomb, EndPhase, IllegalAction, Move, action_from_dict
from wargame.operational.variants import CarpetBombArea, carpet_area_around, friendly_fire_pinned

from .conftest import game, load


def _turn(state, turn, air=50):
    state.turn = turn
    state.air_points["allied"] = air
    return state


def test_cn_6_3_carpet_bombing_is_replaced():
    base = _turn(game().new_state(1), 8)
    var = _turn(game("bfn-19.3").new_state(1), 8)
    assert base.carpet_targets() and any(isinstance(a, CarpetBomb) for a in base.legal_actions())
    assert var.carpet_targets() == []
    assert not any(isinstance(a, CarpetBomb | CarpetBombArea) for a in var.legal_actions())
    _turn(var, 14)
    offered = [a for a in var.legal_actions() if isinstance(a, CarpetBombArea)]
    assert offered and all(len(a.targets) == 10 for a in offered)


def test_the_action_serializes():
    a = CarpetBombArea(tuple(f"28{r:02d}" for r in range(10, 20)))
    assert action_from_dict(a.to_dict()) == a


@pytest.mark.parametrize("why, setup, rule", [
    ("before 16 July", lambda s, t: (_turn(s, 13), t), "BFN 19.3.1"),
    ("nine hexes", lambda s, t: (s, t[:9]), "BFN 19.3.3"),
    ("a gap", lambda s, t: (s, (*t[:9], "0101")), "BFN 19.3.3"),
    ("no air points", lambda s, t: (_turn(s, 14, air=9), t), "BFN 19.3.2"),
    ("twice already", lambda s, t: (s.flags.setdefault("bfn", {}).update(carpet_turns=[14, 15]) or _turn(s, 16), t), "BFN 19.3.1"),
])
def test_refusals(why, setup, rule):
    s = _turn(game("bfn-19.3").new_state(1), 14)
    targets = carpet_area_around(s, Hex.from_id("2813"))
    s, targets = setup(s, targets)
    before = s.fingerprint()
    with pytest.raises(IllegalAction) as exc:
        s.apply(CarpetBombArea(targets))
    assert exc.value.rule == rule, why
    assert s.fingerprint() == before


def test_refused_after_an_allied_unit_moved():
    s = _turn(game("bfn-19.3").new_state(1), 14)
    s.units["us-505-82"].moved = True
    with pytest.raises(IllegalAction, match="before any Allied unit moves"):
        s.apply(CarpetBombArea(carpet_area_around(s, Hex.from_id("2813"))))


def test_friendly_fire_pins_and_the_bombs_fall_at_the_end_of_movement():
    s = _turn(game("bfn-19.3").new_state(1), 14)
    targets = carpet_area_around(s, Hex.from_id("2813"))   # Caen
    area = {Hex.from_id(t) for t in targets}
    board = s.game.board
    spots = [h for h in sorted(board.hexes) if board.is_land(h) and h not in area and not s.units_at(h)
             and any(n in area for n in board.neighbours(h))]
    for uid, h in zip(("us-8-4", "us-12-4"), spots[:2], strict=True):
        us = s.units[uid]
        us.status, us.hex = "on_map", h
    s.edited()
    near = [u for u in sorted(s.units) if s.units[u].status == "on_map" and s.side_of(u) == "allied"
            and (s.units[u].hex in area or any(n in area for n in board.neighbours(s.units[u].hex)))]
    assert "us-8-4" in near and "us-12-4" in near
    faces = {u: 6 for u in near}           # reads 5: free to move
    faces["us-8-4"] = 10                   # reads 9: pinned
    load(s, *[faces[u] for u in near])
    s.apply(CarpetBombArea(targets))
    assert s.flags["bfn"]["carpet"]["pinned"] == ["us-8-4"]
    assert s.air_points["allied"] == 40 and s.dice.draws == len(near)
    with pytest.raises(IllegalAction) as exc:
        s.apply(Move("us-8-4", s.units["us-12-4"].hex.id))
    assert exc.value.rule == "BFN 19.3.3"
    assert s.legal_destinations("us-8-4") == {}
    assert s.legal_destinations("us-12-4")   # not pinned
    victims = [h for h in sorted(area) if s.units_at(h)]
    german = [u for h in victims for u in s.units_at(h)]
    allied_near = [u for u in near if s.units[u].hex not in area]
    load(s, *([3, 4] * len(victims) + [2, 3] * len(allied_near)))   # 7 = DA on targets, 5 = DB on friends
    s.apply(EndPhase())
    assert german and all(s.units[u].status == "eliminated" for u in german)
    assert all(s.units[u].reduced for u in allied_near)
    assert "carpet" not in s.flags["bfn"]
    kinds = [e.rule for e in s.events if e.kind == "carpet"]
    assert kinds.count("BFN 19.3.3") == len(allied_near) and kinds.count("CN 6.3") == len(victims)


def test_friendly_fire_pin_faces():
    from .conftest import LoadedDice

    assert [friendly_fire_pinned(LoadedDice([v]))[0] for v in range(1, 11)] == \
        [True] + [False] * 8 + [True]     # d10 reading 0 and 9


def test_exact_friendly_fire_losses_against_a_seeded_monte_carlo():
    from wargame.analysis.variants import (
        carpet_unit_outcomes,
        friendly_fire_loss_distribution,
        friendly_fire_pinned_distribution,
    )

    tables = game().tables
    outcomes = carpet_unit_outcomes(tables)
    assert sum(outcomes.values()) == 1 and outcomes["DI"] == 2 * outcomes["DB"] / 8  # 2/36 vs 8/36
    n_units, n = 3, 20000
    dist = friendly_fire_loss_distribution(n_units, tables)
    pinned = friendly_fire_pinned_distribution(n_units)
    assert abs(float(dist.probability.sum()) - 1) < 1e-12 and pinned.probability.sum() == 1
    steps = {"DI": 0, "DB": 1, "DE": 2, "DA": 2}
    dice = Dice(7)
    losses: dict[int, int] = {}
    pins: dict[int, int] = {}
    for _ in range(n):
        lost = k = 0
        for _ in range(n_units):
            hit, _ = friendly_fire_pinned(dice)
            if hit:
                k += 1
                d1, d2 = dice.two_d6()
                lost += steps[tables.carpet_result(d1 + d2)]
        losses[lost] = losses.get(lost, 0) + 1
        pins[k] = pins.get(k, 0) + 1
    for frame, counts, col in ((dist, losses, "steps_lost"), (pinned, pins, "pinned")):
        for row in frame.itertuples():
            f = counts.get(getattr(row, col), 0) / n
            assert abs(f - row.p) <= 4.5 * (row.p * (1 - row.p) / n) ** 0.5 + 1e-9, (col, row, f)
