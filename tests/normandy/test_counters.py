"""Campanha da Normandia counters, setup and reinforcements (CN 2.2, 2.2.1, 5.1.4, 11.1).

The expected lists below are written from the rulebook text
(the Campanha da Normandia rulebook), not from tools/normandy_oob.yaml, so a slip in either
shows up here. Ids: <nation>-<regiment/brigade>-<division> (see the notes file).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "normandy"
BUILD = ROOT / "tools" / "build_counters.py"


def _load(name: str):
    with open(SCENARIO / name, encoding="utf-8") as f:
        return yaml.safe_load(f)


@pytest.fixture(scope="module")
def units_doc():
    return _load("units.yaml")


@pytest.fixture(scope="module")
def units(units_doc):
    return {u["id"]: u for u in units_doc["units"]}


@pytest.fixture(scope="module")
def setup_doc():
    return _load("setup.yaml")


@pytest.fixture(scope="module")
def build():
    spec = importlib.util.spec_from_file_location("build_counters", BUILD)
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_counters"] = module
    spec.loader.exec_module(module)
    return module


# --------------------------------------------------------------------------- CN 2.2 counts
def test_cn_2_2_total_and_nations(units_doc):
    pieces = units_doc["units"]
    assert len(pieces) == 231
    assert Counter(u["nation"] for u in pieces) == {
        "german": 107, "american": 68, "british": 47, "canadian": 8, "russian": 1,
    }


def test_cn_2_2_waffen_ss(units):
    ss = [u for u in units.values() if u["ss"]]
    assert len(ss) == 21
    assert {u["nation"] for u in ss} == {"german"}


def test_the_russian_piece_is_the_ost_regiment_of_the_716th(units):
    (ost,) = [u for u in units.values() if u["nation"] == "russian"]
    assert ost["id"] == "ru-ost-716"
    assert ost["side"] == "axis" and ost["division"] == "de-716"


def test_ids_unique_and_lowercase(units_doc):
    ids = [u["id"] for u in units_doc["units"]]
    assert len(ids) == len(set(ids))
    assert all(i == i.lower() and " " not in i for i in ids)


def test_fields_nations_sides_types(units, units_doc):
    with open(SCENARIO / "tables.yaml", encoding="utf-8") as f:
        types = set(yaml.safe_load(f)["unit_types"])
    fields = {"id", "name", "nation", "side", "division", "type", "ss", "attack", "defence",
              "movement", "range", "reduced", "provenance"}
    side_of = {"german": "axis", "russian": "axis", "american": "allied",
               "british": "allied", "canadian": "allied"}
    divisions = units_doc["divisions"]
    for u in units.values():
        assert set(u) == fields, u["id"]
        assert u["type"] in types, u["id"]
        assert u["side"] == side_of[u["nation"]], u["id"]
        if u["division"] is not None:
            div = divisions[u["division"]]
            assert div["nation"] == u["nation"] or u["id"] == "ru-ost-716", u["id"]
    for key, div in divisions.items():
        assert set(div) == {"name", "nation", "divisional_bonus"}, key
        assert any(u["division"] == key for u in units.values()), f"{key} has no units"


def test_cn_5_1_4_divisional_bonus(units_doc):
    no_bonus = {k for k, d in units_doc["divisions"].items() if not d["divisional_bonus"]}
    assert no_bonus == {"de-265", "de-266", "de-275", "de-343"}


# ------------------------------------------------------------------ historical composition
@pytest.mark.parametrize("division, expected", [
    ("us-4", {"us-8-4", "us-12-4", "us-22-4"}),
    ("us-29", {"us-115-29", "us-116-29", "us-175-29"}),
    ("us-1", {"us-16-1", "us-18-1", "us-26-1"}),
    ("us-82", {"us-505-82", "us-507-82", "us-508-82", "us-325-82"}),
    ("us-101", {"us-501-101", "us-502-101", "us-506-101", "us-327-101"}),
    ("us-30", {"us-117-30", "us-119-30", "us-120-30"}),
    ("gb-3", {"gb-8-3", "gb-9-3", "gb-185-3"}),
    ("gb-50", {"gb-69-50", "gb-151-50", "gb-231-50"}),
    ("gb-6ab", {"gb-3p-6ab", "gb-5p-6ab", "gb-6al-6ab"}),
    ("gb-7ad", {"gb-22-7ad", "gb-131-7ad"}),
    ("ca-3", {"ca-7-3", "ca-8-3", "ca-9-3"}),
    ("de-lehr", {"de-901-lehr", "de-902-lehr", "de-130-lehr"}),
    ("de-12ss", {"de-25ss-12ss", "de-26ss-12ss", "de-12ss-12ss"}),
    ("de-352", {"de-914-352", "de-915-352", "de-916-352"}),
    ("de-3fj", {"de-5-3fj", "de-8-3fj", "de-9-3fj"}),
    ("de-77", {"de-1049-77", "de-1050-77"}),
    ("de-17ss", {"de-37ss-17ss", "de-38ss-17ss"}),
    ("de-16lw", {"de-31-16lw", "de-32-16lw", "de-46-16lw"}),
    ("de-265", {"de-kg-265"}),
    ("de-343", {"de-kg-343"}),
])
def test_division_composition(units, division, expected):
    assert {u["id"] for u in units.values() if u["division"] == division} == expected


def test_viii_corps_artillery_is_two_counters(units):
    # CN 11.1.3 names "artilharia do VIII Corpo" for Britain (turn 5) and the US (turn 10):
    # both corps existed (O'Connor's and Middleton's), so both are pieces.
    assert units["gb-art-viii"]["nation"] == "british"
    assert units["us-art-viii"]["nation"] == "american"


# --------------------------------------------------------------------------- strengths
def test_rulebook_example_counters(units):
    # CN 2.2.1: the 120th Infantry Regiment of the US 30th Division, 3-4-8.
    u = units["us-120-30"]
    assert (u["type"], u["attack"], u["defence"], u["movement"]) == ("infantry", 3, 4, 8)
    assert u["provenance"].startswith("CN 2.2.1")
    # CN 4.0: British motorized infantry, 4-4-15.
    motorized = [u for u in units.values()
                 if u["nation"] == "british" and u["type"] == "motorized_infantry"]
    assert len(motorized) == 3
    for u in motorized:
        assert (u["attack"], u["defence"], u["movement"]) == (4, 4, 15), u["id"]
        assert u["provenance"].startswith("CN 4.0")
    # CN 8.0: German artillery 2-1-4.
    artillery = [u for u in units.values()
                 if u["nation"] == "german" and u["type"] == "artillery"]
    assert len(artillery) == 8
    for u in artillery:
        assert (u["attack"], u["defence"], u["movement"]) == (2, 1, 4), u["id"]
        assert u["provenance"].startswith("CN 8.0")


def test_provenance_names_the_scheme(units):
    examples = ("CN 2.2.1", "CN 4.0", "CN 8.0")
    for u in units.values():
        assert u["provenance"].startswith(("reconstruction: ",) + examples), u["id"]


def test_reduced_side_is_half_and_not_above_full(units):
    for u in units.values():
        r = u["reduced"]
        assert 1 <= r["attack"] <= u["attack"], u["id"]
        assert 1 <= r["defence"] <= u["defence"], u["id"]
        assert r == {"attack": max(1, u["attack"] // 2), "defence": max(1, u["defence"] // 2)}


def test_movement_and_range(units):
    ranged = {"artillery", "mechanized_artillery", "coastal_artillery", "rocket_launcher"}
    for u in units.values():
        assert u["attack"] >= 1 and u["defence"] >= 1, u["id"]
        assert (u["range"] > 0) == (u["type"] in ranged), u["id"]
        assert (u["movement"] == 0) == (u["type"] == "coastal_artillery"), u["id"]
    assert {u["id"] for u in units.values() if u["type"] == "coastal_artillery"} == {
        "de-coast-cherbourg", "de-coast-hoc"}


def test_scheme_orders_quality(build):
    line = build.strength("axis", "armour", "line", "regiment", "corps")
    elite = build.strength("axis", "armour", "elite", "regiment", "corps")
    tiger = build.strength("axis", "armour", "elite", "battalion", "corps")
    low = build.strength("axis", "infantry", "low", "regiment", "corps")
    assert elite.attack == line.attack + 1
    assert tiger.attack < elite.attack and tiger.defence < elite.defence
    assert low.movement < build.strength("axis", "infantry", "line", "regiment", "corps").movement
    army = build.strength("allied", "artillery", "line", "regiment", "army")
    corps = build.strength("allied", "artillery", "line", "regiment", "corps")
    assert army.range == corps.range + 1 and army.attack == corps.attack


# --------------------------------------------------------------------- CN 11.1.1 / 11.1.2
# (hex, units) per line of the rule, in the rule's order.
CN_11_1_1 = [
    ("1009", ["us-508-82"]),                                   # 508º RPQD
    ("1010", ["us-507-82"]),                                   # 507º RPQD
    ("1109", ["us-505-82"]),                                   # 505º RPQD
    ("1210", ["us-501-101"]),                                  # 501º RPQD
    ("1309", ["us-502-101", "us-506-101"]),                    # 502º e 506º RPQD
    ("1409", ["us-8-4", "us-12-4", "us-22-4"]),                # Utah – 4ª DI
    ("1809", ["us-rangers-2-5"]),                              # Point du Hoc – 2º/5º Rangers
    ("1909", ["us-115-29", "us-116-29", "us-175-29"]),         # Omaha – 29ª DI
    ("2010", ["us-16-1", "us-18-1", "us-26-1"]),               # Omaha – 1ª DI
    ("2510", ["gb-69-50", "gb-151-50", "gb-231-50", "gb-56"]),  # Gold – 50ª DI + 56ª Bgda
    ("2709", ["ca-7-3", "ca-8-3", "ca-9-3"]),                  # Juno – 3ª DI canadense
    ("3011", ["gb-8-3", "gb-9-3", "gb-185-3", "gb-4sb"]),      # Sword – 3ª DI + 4ª Cdo
    ("3111", ["gb-5p-6ab"]),                                   # 5ª Bgda PQD
    ("3112", ["gb-3p-6ab"]),                                   # 3ª Bgda PQD
]
CN_11_1_2 = [
    ("0205", ["de-920-243"]),
    ("0307", ["de-922-243"]),
    ("0310", ["de-921-243"]),                          # Carteret
    ("0502", ["de-naval-cherbourg"]),                  # Cherburgo – Infantaria Naval
    ("0603", ["de-739-709", "de-coast-cherbourg"]),    # Cherburgo – 739º RI + bateria
    ("0711", ["de-1057-91"]),                          # La Haye du Puits
    ("0916", ["de-30-mobile"]),                        # Coutances – 30ª Bgda Móvel
    ("1007", ["de-1058-91", "de-flak-30"]),            # Montebourg – 1058º RI, 30º RAA
    ("1204", ["de-729-709", "de-sturm-aok7"]),         # St.Vaast – 729º RI, Assalto AOK 7
    ("1311", ["de-6fj"]),                              # Carentan – 6º RPQD
    ("1408", ["de-919-709"]),
    ("1615", ["de-art-lxxxiv"]),                       # Saint Lô – art. LXXXIV Corpo
    ("1511", ["de-914-352"]),                          # Isigny
    ("1809", ["de-coast-hoc"]),                        # Point du Hoc – bateria
    ("2010", ["de-916-352"]),                          # Colleville
    ("2212", ["de-flak-1"]),                           # Bayeux – 1º RAA
    ("2414", ["de-915-352"]),                          # Tilly-sur-Seulles
    ("2510", ["ru-ost-716"]),                          # Regimento Ost da 716ª DI
    ("2709", ["de-726-716"]),                          # Courselles
    ("2813", ["de-192-21pz"]),                         # Caen
    ("3011", ["de-736-716"]),                          # Ouistreham
    ("3214", ["de-125-21pz"]),
    ("3117", ["de-22-21pz"]),
    ("3310", ["de-744-711"]),                          # Cabourg
]


def _pairs(lines):
    return sorted((u, h) for h, us in lines for u in us)


def test_cn_11_1_1_allied_setup(setup_doc, units):
    got = sorted((s["unit"], s["hex"]) for s in setup_doc["setup"]
                 if units[s["unit"]]["side"] == "allied")
    assert got == _pairs(CN_11_1_1)


def test_cn_11_1_2_axis_setup(setup_doc, units):
    got = sorted((s["unit"], s["hex"]) for s in setup_doc["setup"]
                 if units[s["unit"]]["side"] == "axis")
    assert got == _pairs(CN_11_1_2)
    assert len(got) == 27


def test_setup_hexes_are_strings(setup_doc):
    for s in setup_doc["setup"]:
        assert isinstance(s["hex"], str) and len(s["hex"]) == 4 and s["hex"].isdigit()


# --------------------------------------------------------------------- CN 11.1.3 / 11.1.4
US = {"kind": "beach", "beaches": ["Omaha", "Utah"]}
CW = {"kind": "beach", "beaches": ["Gold", "Juno", "Sword"]}
EAST = {"kind": "edge", "edge": "east"}
SOUTH = {"kind": "edge", "edge": "south"}
AVRANCHES = {"kind": "hex", "hexes": ["1125"]}

CN_11_1_3 = [
    (0, {"kind": "beach", "beaches": ["Sword"]}, ["gb-1sb"]),
    (1, US, ["us-357-90", "us-358-90", "us-359-90", "us-66-2ad", "us-41-2ad", "us-47-9",
             "us-cav-4", "us-cav-102"]),
    (1, {"kind": "beach", "beaches": ["Utah"]}, ["us-327-101"]),       # CN 4.2.3
    (1, {"kind": "drop", "division": "us-82"}, ["us-325-82"]),
    (1, CW, ["gb-22-7ad", "gb-131-7ad", "gb-70-49", "gb-146-49", "gb-147-49", "gb-152-51",
             "gb-153-51", "gb-154-51", "gb-4ab", "gb-8ab", "gb-27ab", "ca-2ab"]),
    (1, {"kind": "drop", "division": "gb-6ab"}, ["gb-6al-6ab"]),
    (2, US, ["us-9-2", "us-23-2", "us-38-2", "us-67-2ad", "us-39-9", "us-60-9", "us-119-30",
             "us-120-30", "us-313-79", "us-armgp-3", "us-armgp-6", "us-art-v"]),
    (2, CW, ["gb-art-i", "gb-art-xxx"]),
    (3, US, ["us-117-30", "us-314-79", "us-315-79", "us-art-vii"]),
    (3, CW, ["gb-29-11ad", "gb-159-11ad", "gb-44-15", "gb-46-15", "gb-227-15"]),
    (4, CW, ["gb-33ab"]),
    (5, US, ["us-329-83", "us-330-83", "us-331-83"]),
    (5, CW, ["gb-art-viii"]),
    (6, US, ["us-32-3ad", "us-33-3ad"]),
    (6, CW, ["gb-129-43", "gb-130-43", "gb-214-43"]),
    (7, US, ["us-36-3ad", "us-art-xix"]),
    (7, CW, ["gb-71-53", "gb-158-53", "gb-160-53", "gb-176-59", "gb-177-59", "gb-197-59",
             "gb-31tb", "gb-art-2a"]),
    (8, US, ["us-art-1a"]),
    (8, CW, ["gb-5g-gad", "gb-32g-gad"]),
    (9, US, ["us-13-8", "us-28-8", "us-121-8", "us-cav-106", "us-cav-113"]),
    (9, CW, ["gb-art-xii"]),
    (10, US, ["us-134-35", "us-armgp-7", "us-art-viii"]),
    (11, US, ["us-2-5", "us-10-5", "us-11-5", "us-137-35", "us-320-35", "us-cav-6"]),
    (11, CW, ["ca-4-2", "ca-5-2", "ca-6-2"]),
    (12, CW, ["ca-art-ii"]),
    (13, CW, ["gb-34tb"]),
    (15, US, ["us-cav-2"]),
    (16, US, ["us-109-28", "us-110-28", "us-112-28"]),
]
CN_11_1_4 = [
    (0, EAST, ["de-25ss-12ss", "de-731-711", "de-art-gpo"]),
    (0, SOUTH, ["de-art-7a"]),
    (1, EAST, ["de-12ss-12ss", "de-26ss-12ss", "de-857-346", "de-flak-2", "de-flak-3",
               "de-flak-4", "de-art-iss"]),
    (1, SOUTH, ["de-901-lehr", "de-902-lehr"]),
    (1, AVRANCHES, ["de-5-3fj", "de-8-3fj", "de-9-3fj", "de-1049-77", "de-1050-77",
                    "de-stug-902", "de-art-iifj"]),
    (2, EAST, ["de-858-346", "de-werfer-7"]),
    (2, SOUTH, ["de-130-lehr", "de-37ss-17ss", "de-38ss-17ss", "de-hvy-101ss"]),
    (2, AVRANCHES, ["de-984-275", "de-kg-265"]),
    (3, SOUTH, ["de-2-2pz", "de-stug-12"]),
    (4, SOUTH, ["de-4ss-2ss", "de-304-2pz", "de-art-xlvii"]),
    (4, AVRANCHES, ["de-943-353"]),
    (5, SOUTH, ["de-3-2pz"]),
    (5, AVRANCHES, ["de-942-353"]),
    (6, EAST, ["de-19ss-9ss", "de-20ss-9ss", "de-9ss-9ss"]),
    (6, AVRANCHES, ["de-897-266", "de-941-353"]),
    (7, EAST, ["de-21ss-10ss", "de-22ss-10ss", "de-10ss-10ss", "de-1ss-1ss", "de-werfer-9"]),
    (7, SOUTH, ["de-2ss-2ss"]),
    (7, AVRANCHES, ["de-15-5fj"]),
    (8, EAST, ["de-werfer-8", "de-art-iiss"]),
    (9, EAST, ["de-1sspz-1ss", "de-31-16lw", "de-32-16lw", "de-46-16lw"]),
    (10, EAST, ["de-2ss-1ss"]),
    (10, SOUTH, ["de-986-276", "de-987-276"]),
    (11, EAST, ["de-hvy-102ss"]),
    (11, SOUTH, ["de-988-276"]),
    (11, AVRANCHES, ["de-13-5fj"]),
    (12, EAST, ["de-hvy-503"]),
    (12, SOUTH, ["de-3ss-2ss", "de-989-277"]),
    (13, SOUTH, ["de-977-271", "de-990-277"]),
    (14, SOUTH, ["de-980-272", "de-982-272", "de-991-277"]),
    (15, EAST, ["de-751-326", "de-752-326", "de-753-326"]),
    (15, SOUTH, ["de-981-272"]),
    (15, AVRANCHES, ["de-14-5fj", "de-985-275", "de-kg-343"]),
    (16, EAST, ["de-60-116pz", "de-156-116pz", "de-16-116pz"]),
    (16, SOUTH, ["de-978-271", "de-979-271", "de-art-lxxxvi"]),
]


def _triples(lines):
    return sorted((t, u, yaml.safe_dump(e, sort_keys=True)) for t, e, us in lines for u in us)


def _got(setup_doc, units, side):
    return sorted((r["turn"], r["unit"], yaml.safe_dump(r["entry"], sort_keys=True))
                  for r in setup_doc["reinforcements"] if units[r["unit"]]["side"] == side)


def test_cn_11_1_3_allied_reinforcements(setup_doc, units):
    assert _got(setup_doc, units, "allied") == _triples(CN_11_1_3)


def test_cn_11_1_4_german_reinforcements(setup_doc, units):
    assert _got(setup_doc, units, "axis") == _triples(CN_11_1_4)


def test_reinforcement_notes_quote_special_conditions(setup_doc):
    notes = {r["unit"]: r.get("note", "") for r in setup_doc["reinforcements"]}
    assert "3011" in notes["gb-1sb"] and "6ª DAet" in notes["gb-1sb"]
    assert "82ª DAet" in notes["us-325-82"]
    assert "6ª DAet" in notes["gb-6al-6ab"]
    assert "Utah" in notes["us-327-101"]
    assert all(r["turn"] in range(0, 17) for r in setup_doc["reinforcements"])


def test_every_unit_placed_exactly_once(setup_doc, units):
    placed = Counter([s["unit"] for s in setup_doc["setup"]]
                     + [r["unit"] for r in setup_doc["reinforcements"]])
    assert set(placed) == set(units)
    assert max(placed.values()) == 1


def test_stacking_of_setup_within_cn_4_1_1(setup_doc, units):
    per_side_hex = Counter((units[s["unit"]]["side"], s["hex"]) for s in setup_doc["setup"])
    assert max(per_side_hex.values()) <= 4


# --------------------------------------------------------------------------- the build
def test_build_regenerates_identical_files(tmp_path):
    subprocess.run([sys.executable, str(BUILD), "--out", str(tmp_path)], check=True,
                   capture_output=True)
    for name in ("units.yaml", "setup.yaml"):
        assert (tmp_path / name).read_bytes() == (SCENARIO / name).read_bytes(), name


def test_build_validation_catches_a_missing_piece(build):
    oob = build.load_oob()
    units, divisions = build.build_units(oob)
    setup, reinforcements = build.build_placement(oob)
    types = build.unit_types()
    assert build.validate(units, divisions, setup, reinforcements, types) == []
    problems = build.validate(units[1:], divisions, setup, reinforcements, types)
    assert any("230 pieces" in p for p in problems)
    assert any("has no counter" in p for p in problems)
