"""Small synthetic maps for tests, benchmarks, the dashboard's demo scenario and teaching
examples.

``small_scenario`` builds a rectangular map of open terrain with the given overrides and
units, using a real game's tables (Normandy's or Dragoon's), so rules can be exercised on a
map small enough to reason about by hand.
"""

from __future__ import annotations

from typing import Any

from wargame.hexgrid import offset_to_hex
from wargame.operational.tables import load_tables
from wargame.scenario import Scenario, scenario_from_data

__all__ = ["small_scenario", "unit"]


def unit(uid: str, side: str, type_: str = "infantry", a: int = 3, d: int = 3, m: int = 6, *,
         nation: str | None = None, division: str | None = None, rng: int = 0,
         reduced: tuple[int, int] | None = None) -> dict[str, Any]:
    nation = nation or ("american" if side == "allied" else "german")
    spec: dict[str, Any] = {
        "id": uid, "name": uid, "nation": nation, "side": side, "type": type_, "attack": a,
        "defence": d, "movement": m, "range": rng, "division": division,
    }
    spec["reduced"] = {"attack": (a + 1) // 2, "defence": (d + 1) // 2} if reduced is None else {
        "attack": reduced[0], "defence": reduced[1]}
    return spec


def small_scenario(
    *,
    game: str = "normandy",
    cols: int = 10,
    rows: int = 10,
    terrain: dict[str, str] | None = None,
    flags: dict[str, dict[str, bool]] | None = None,
    rivers: list[tuple[str, str]] | None = None,
    roads: list[list[str]] | None = None,
    units: list[dict[str, Any]] | None = None,
    setup: dict[str, str] | None = None,
    reinforcements: list[dict[str, Any]] | None = None,
    divisions: dict[str, dict[str, Any]] | None = None,
    edges: dict[str, list[str]] | None = None,
    places: dict[str, list[str]] | None = None,
    rules: dict[str, Any] | None = None,
    turns: tuple[int, int] = (1, 5),
) -> Scenario:
    """A ``cols`` x ``rows`` map (ids 0101 ...), open terrain unless ``terrain`` says otherwise."""
    terrain = terrain or {}
    flags = flags or {}
    hexes = {}
    for c in range(1, cols + 1):
        for r in range(1, rows + 1):
            hid = offset_to_hex(c, r).id
            spec: dict[str, Any] = {"terrain": terrain.get(hid, "open")}
            spec.update(flags.get(hid, {}))
            hexes[hid] = spec
    map_data = {
        "format_version": 1,
        "provenance": "synthetic test map",
        "hexes": hexes,
        "hexsides": [{"kind": "river", "between": [a, b]} for a, b in (rivers or [])],
        "roads": [{"hexes": chain} for chain in (roads or [])],
        "edges": edges or {},
        "places": places or {},
    }
    units_data = {"units": units or [], "divisions": divisions or {}}
    setup_data = {
        "setup": [{"unit": u, "hex": h} for u, h in (setup or {}).items()],
        "reinforcements": reinforcements or [],
    }
    meta = {
        "id": f"test-{game}",
        "game": game,
        "title": f"test map ({game} tables)",
        "turns": {"first": turns[0], "last": turns[1]},
        "stacking_limit": 4,
        "rules": rules or {},
    }
    return scenario_from_data(meta=meta, tables=load_tables(game), map_data=map_data,
                              units_data=units_data, setup_data=setup_data, source="<test map>")
