"""The reconstructed Campanha da Normandia map (scenarios/normandy/map.json).

Checks the hexes the rulebook names (CN 4.0, 4.2.2, 9.0, 10.0, 11.1, 11.2), the land count of
CN 2.1, the shape of the data, and the CN 4.0 worked movement example with a small local cost
function (the engine's own movement code gets its own test). The map comes from
tools/build_map.py; the determinism test rebuilds it and needs the "build-maps" extra.
"""

from __future__ import annotations

import heapq
import json
import math
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "scenarios" / "normandy" / "map.json"
TABLES = ROOT / "scenarios" / "normandy" / "tables.yaml"
FEATURES = ROOT / "tools" / "normandy_features.yaml"


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(MAP.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def tables() -> dict:
    return yaml.safe_load(TABLES.read_text(encoding="utf-8"))


# Hex geometry, written out independently of the builder: flat-top columns, odd-numbered
# columns half a hex lower ("odd-q"), id CCRR.
def axial(hex_id: str) -> tuple[int, int]:
    col, row = int(hex_id[:2]), int(hex_id[2:])
    return col, row - (col - (col & 1)) // 2


def distance(a: str, b: str) -> int:
    (aq, ar), (bq, br) = axial(a), axial(b)
    dq, dr = aq - bq, ar - br
    return max(abs(dq), abs(dr), abs(dq + dr))


def adjacent(a: str, b: str) -> bool:
    return distance(a, b) == 1


def neighbour_ids(hex_id: str) -> list[str]:
    q, r = axial(hex_id)
    out = []
    for dq, dr in ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)):
        nq, nr = q + dq, r + dr
        row = nr + (nq - (nq & 1)) // 2
        if 0 <= nq <= 99 and 0 <= row <= 99:
            out.append(f"{nq:02d}{row:02d}")
    return out


def is_land(data: dict, hex_id: str) -> bool:
    return hex_id in data["hexes"] and data["hexes"][hex_id]["terrain"] != "sea"


def is_coast(data: dict, hex_id: str) -> bool:
    return is_land(data, hex_id) and any(
        n in data["hexes"] and data["hexes"][n]["terrain"] == "sea" for n in neighbour_ids(hex_id)
    )


# --------------------------------------------------------------------------------------------
def test_geometry_helper_fits_rule_adjacencies():
    # the pairs the rules imply (docs/map-sources.md) are neighbours
    for a, b in [("2813", "2913"), ("0502", "0603"), ("1909", "2010"), ("2009", "2010"),
                 ("2409", "2410"), ("1010", "1109"), ("1210", "1309")]:
        assert adjacent(a, b), (a, b)
    assert not adjacent("0502", "0604")


def test_engine_hexgrid_agrees_with_rule_adjacencies():
    from wargame.hexgrid import Hex

    for a, b in [("2813", "2913"), ("0502", "0603"), ("1909", "2010"), ("1010", "1109")]:
        assert Hex.from_id(a).distance(Hex.from_id(b)) == 1, (a, b)


def test_provenance_and_format(data):
    assert data["format_version"] == 1
    assert data["game"] == "normandy"
    assert "Reconstruction" in data["provenance"]
    assert "global-land-mask" in data["provenance"]
    assert "normandy_features.yaml" in data["provenance"]


def test_525_land_hexes(data):
    land = [i for i in data["hexes"] if is_land(data, i)]
    assert len(land) == 525  # CN 2.1


def test_board_and_terrain_keys(data, tables):
    keys = set(tables["terrain"])
    for i, rec in data["hexes"].items():
        col, row = int(i[:2]), int(i[2:])
        assert 1 <= col <= 34 and 1 <= row <= 25, i
        assert rec["terrain"] in keys, (i, rec)
        assert set(rec) <= {"terrain", "name", "village", "fortification", "airfield"}, i
        if rec["terrain"] == "sea":
            assert not any(rec.get(k) for k in ("village", "fortification", "airfield")), i
    # sea next to the coast is on the map
    coast = [i for i in data["hexes"] if is_coast(data, i)]
    assert len(coast) > 40


# Rule hexes: id -> (place name in `places`, allowed terrains)
NAMED = {
    # 11.1.1 allied setup
    "1009": ("Amfreville", None), "1010": ("Picauville", None),
    "1109": ("Sainte-Mère-Église", None), "1210": ("Vierville (Manche)", None),
    "1309": ("Sainte-Marie-du-Mont", None), "1409": ("Utah", None),
    "1809": ("Pointe du Hoc", {"rough"}), "1909": ("Omaha", None), "2010": ("Omaha", None),
    "2510": ("Gold", None), "2709": ("Juno", None), "3011": ("Sword", None),
    "3111": ("Ranville", None), "3112": ("Bavent", None),
    # 11.1.2 axis setup
    "0205": (None, None), "0307": (None, None), "0310": ("Carteret", None),
    "0711": ("La Haye-du-Puits", None), "1007": ("Montebourg", None),
    "1204": ("Saint-Vaast-la-Hougue", None), "1408": (None, None), "1511": ("Isigny", None),
    "2414": ("Tilly-sur-Seulles", None), "3214": (None, None), "3117": (None, None),
    # 9.0 landing hexes, 4.0 example, 10.0, 4.2.2
    "2410": ("Arromanches", {"open"}), "2014": ("Balleroy", {"bocage"}),
    "1509": ("Grandcamp", None), "1825": (None, None),
}
VICTORY = {  # CN 11.2
    "Caen": ["2813", "2913"], "Cherbourg": ["0502", "0603"], "Avranches": ["1125"],
    "Saint-Lô": ["1615"], "Falaise": ["3220"], "Vire": ["1922"], "Cabourg": ["3310"],
    "Coutances": ["0916"], "Granville": ["0722"], "Flers": ["2524"], "Bayeux": ["2212"],
    "Condé-sur-Noireau": ["2521"], "Carentan": ["1311"], "Valognes": ["0906"],
    "Auderville": ["0101"], "Caumont": ["2016"], "Saint-Sauveur-le-Vicomte": ["0709"],
    "Villers-Bocage": ["2315"], "Périers": ["1014"], "Bourguébus": ["2915"],
    "Villedieu-les-Poêles": ["1322"], "Troarn": ["3213"],
}


def test_rule_hexes_are_land_and_named(data):
    for i, (name, terrains) in NAMED.items():
        assert is_land(data, i), i
        if terrains:
            assert data["hexes"][i]["terrain"] in terrains, (i, data["hexes"][i])
        if name:
            assert i in data["places"][name], (name, i)


def test_victory_cities(data):
    for name, ids in VICTORY.items():
        assert data["places"][name] == ids, name
        for i in ids:
            rec = data["hexes"][i]
            if name == "Caumont":
                # CN 4.0: the second rough hex of the example is Caumont (a village, cost 2)
                assert rec["terrain"] == "rough" and rec.get("village"), rec
            else:
                assert rec["terrain"] == "city", (name, rec)
            assert rec.get("name"), i


def test_two_hex_cities_are_adjacent(data):
    assert adjacent(*data["places"]["Caen"])
    assert adjacent(*data["places"]["Cherbourg"])


def test_beaches(data):
    for beach, ids in {"Utah": ["1409"], "Omaha": ["1909", "2010"], "Gold": ["2510"],
                       "Juno": ["2709"], "Sword": ["3011"]}.items():
        assert data["places"][beach] == ids
        for i in ids:
            assert is_coast(data, i), (beach, i)


def test_mulberries(data):
    # CN 9.0: 2009 (US) and 2409 (British) are sea hexes next to their landing hexes
    for sea, land in (("2009", "2010"), ("2409", "2410")):
        assert data["hexes"][sea]["terrain"] == "sea"
        assert is_land(data, land)
        assert adjacent(sea, land)
    assert data["places"]["Mulberry A"] == ["2009"]
    assert data["places"]["Mulberry B"] == ["2409"]


def test_invasion_coast(data):
    coast = data["places"]["invasion_coast"]
    assert is_coast(data, "1509")  # CN 10.0 names it: coast, but not invasion coast
    assert "1509" not in coast
    for i in coast:
        assert is_coast(data, i), i
    for beach in ("1409", "1909", "2010", "2510", "2709", "3011"):
        assert beach in coast
    cols = [int(i[:2]) for i in coast]
    assert min(cols) == 14 and max(cols) == 30  # from Utah to Sword
    # the Cotentin coast north of Utah and the coast east of the Orne are not included
    assert "1408" not in coast and "3111" not in coast


def test_entry_hex_and_offmap_road(data):
    assert is_land(data, "1125") and "1125" in data["places"]["Avranches"]
    assert {"from": "1125", "to": "1825", "road_hexes": 10} == {
        k: v for k, v in data["offmap_roads"][0].items() if k in ("from", "to", "road_hexes")
    }
    for arrow in data["offmap_roads"]:
        assert is_land(data, arrow["from"]) and is_land(data, arrow["to"])
    # both ends are on a road
    on_road = {i for road in data["roads"] for i in road["hexes"]}
    assert {"1125", "1825"} <= on_road


def test_edges(data):
    south, east = data["edges"]["south"], data["edges"]["east"]
    assert len(south) >= 10 and len(east) >= 8
    for i in south:
        assert is_land(data, i) and int(i[2:]) == 25, i
    for i in east:
        assert is_land(data, i) and int(i[:2]) == 33, i
    assert "1125" in south and "1825" in south and "3220" not in east


def test_roads_and_hexsides_are_well_formed(data):
    names = set()
    for road in data["roads"]:
        hexes = road["hexes"]
        assert len(hexes) >= 2 and len(set(hexes)) == len(hexes), road["name"]
        for a, b in zip(hexes, hexes[1:], strict=False):
            assert is_land(data, a) and is_land(data, b), (road["name"], a, b)
            assert adjacent(a, b), (road["name"], a, b)
        names.add(road["name"])
    assert len(names) == len(data["roads"])
    seen = set()
    for side in data["hexsides"]:
        a, b = side["between"]
        assert side["kind"] in ("river", "canal")
        assert is_land(data, a) and is_land(data, b) and adjacent(a, b), side
        key = tuple(sorted((a, b)))
        assert key not in seen, side
        seen.add(key)
    rivers = {s["name"] for s in data["hexsides"]}
    for river in ("Douve", "Merderet", "Taute", "Vire", "Vire-Taute canal", "Aure", "Drôme",
                  "Seulles", "Odon", "Orne", "Dives", "Sée"):
        assert river in rivers, river


# --------------------------------------------------------------------------------------------
# CN 4.0 worked example
# --------------------------------------------------------------------------------------------
class Movement:
    """Entering a hex costs its terrain cost for the class (village, airfield: the terrain's),
    plus the river/canal cost when crossing one, except along a road hexside, which costs the
    road cost alone (a road over a river is a bridge)."""

    def __init__(self, data: dict, tables: dict, cls: str):
        self.data, self.cls = data, cls
        self.terrain = {k: v["cost"][cls] for k, v in tables["terrain"].items()}
        self.side_cost = {k: v["cost"][cls] for k, v in tables["hexsides"].items()}
        self.road_cost = tables["road"]["cost"][cls]
        self.roads = {frozenset(p) for r in data["roads"]
                      for p in zip(r["hexes"], r["hexes"][1:], strict=False)}
        self.sides = {frozenset(s["between"]): s for s in data["hexsides"]}

    def step(self, a: str, b: str) -> float:
        assert adjacent(a, b)
        base = self.terrain[self.data["hexes"][b]["terrain"]]
        if base is None:
            return math.inf
        if frozenset((a, b)) in self.roads:
            return self.road_cost
        side = self.sides.get(frozenset((a, b)))
        return base + (self.side_cost[side["kind"]] if side else 0)

    def cheapest(self, start: str) -> dict[str, float]:
        best = {start: 0.0}
        heap = [(0.0, start)]
        while heap:
            d, h = heapq.heappop(heap)
            if d > best[h]:
                continue
            for n in neighbour_ids(h):
                if n not in self.data["hexes"]:
                    continue
                nd = d + self.step(h, n)
                if nd < best.get(n, math.inf):
                    best[n] = nd
                    heapq.heappush(heap, (nd, n))
        return best


# Arromanches 2410 -> SW open -> across the Aurette -> open -> Bayeux -> road SW x2 -> across
# the Drôme into Balleroy (bocage) -> two rough hexes south, the second being Caumont.
EXAMPLE_PATH = ["2410", "2310", "2211", "2212", "2112", "2013", "2014", "2015", "2016"]
EXAMPLE_STEPS = [1, 1 + 2, 1, 0.5, 0.5, 3 + 2, 2, 2]


def test_cn_4_0_example_path_costs_15(data, tables):
    mv = Movement(data, tables, "motorized")
    steps = [mv.step(a, b) for a, b in zip(EXAMPLE_PATH, EXAMPLE_PATH[1:], strict=False)]
    assert steps == EXAMPLE_STEPS
    assert sum(steps) == 15
    hexes = data["hexes"]
    assert [hexes[i]["terrain"] for i in EXAMPLE_PATH] == [
        "open", "open", "open", "city", hexes["2112"]["terrain"], hexes["2013"]["terrain"],
        "bocage", "rough", "rough"]
    assert mv.sides[frozenset(("2310", "2211"))]["kind"] == "river"
    assert mv.sides[frozenset(("2013", "2014"))]["name"] == "Drôme"
    assert data["places"]["Caumont"] == ["2016"] and data["places"]["Balleroy"] == ["2014"]


def test_cn_4_0_caumont_is_the_end_of_the_move(data, tables):
    # "Como ela tem 15 pontos de movimentação, terá que parar aí": no cheaper path exists
    best = Movement(data, tables, "motorized").cheapest("2410")
    assert best["2016"] == 15
    assert best["2212"] == 5  # Bayeux after 1 + 2 + 1 + 1


def test_cost_function_can_fail(data, tables):
    # the checks above are not vacuous: a road from Villers-Bocage to Caumont breaks them
    changed = json.loads(json.dumps(data))
    changed["roads"].append({"name": "test", "hexes": ["2315", "2215", "2116", "2016"]})
    best = Movement(changed, tables, "motorized").cheapest("2410")
    assert best["2016"] < 15


# --------------------------------------------------------------------------------------------
@pytest.mark.slow  # 4.4 s in the fast set: it imports matplotlib and the land mask
def test_build_is_reproducible(tmp_path):
    # Needs the "build-maps" extra (numpy, global-land-mask, matplotlib); skipped without it.
    pytest.importorskip("numpy")
    pytest.importorskip("global_land_mask")
    pytest.importorskip("matplotlib")
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_map", ROOT / "tools" / "build_map.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    outs = []
    for k in range(2):
        out = tmp_path / f"map{k}.json"
        mod.build(FEATURES, out, None, verbose=False, render=False)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    # the committed map was built by another process: same bytes, or it is stale
    assert outs[0] == MAP.read_bytes(), "scenarios/normandy/map.json is stale: rebuild it"
