"""Build the Campanha da Normandia counters, setup and reinforcements.

    python tools/build_counters.py            # writes scenarios/normandy/{units,setup}.yaml
    python tools/build_counters.py --out DIR  # writes them to DIR instead
    python tools/build_counters.py --check    # exit 1 if the committed files are stale

Inputs: tools/normandy_oob.yaml (the hand-written, sourced order of battle, setup and
reinforcement lists of CN 11.1.1-11.1.4) and the ONE strength scheme below. The rulebook
prints no counter values except three examples, so every other counter's attack, defence,
movement and range are a reconstruction from this scheme, and its `provenance` says so.

The strength scheme (CN 2.2.1: attack-defence-movement; CN 8.0: artillery range)
--------------------------------------------------------------------------------
1. BASE value by side and type (the side's nations: allied = american, british, canadian;
   axis = german, russian). Anchored on the rulebook's three examples:
     CN 2.2.1  US 120th Infantry Regiment (30th ID)      3-4-8   -> allied infantry
     CN 4.0    British motorized infantry                4-4-15  -> allied motorized_infantry
     CN 8.0    German artillery                          2-1-4   -> axis artillery
   Other types are scaled from these: armour attacks harder than it defends; German infantry
   and armour are slower than Allied (horse-drawn divisions, fuel and air interdiction);
   Allied artillery is stronger than German (ammunition and fire control).
2. GRADE (quality), from the division unless the unit says otherwise:
     line   +0
     elite  +1 attack                (airborne, Rangers/Commandos, Waffen-SS, Panzer Lehr,
                                      Fallschirmjäger, Tiger battalions, Sturm-Abt. AOK 7)
     low    -1 attack, -2 movement   (static coastal divisions 709/711/716, the Ost regiment,
                                      the Cherbourg naval regiment, the Luftwaffe field division)
3. SIZE: regiment/brigade/group +0; battalion -2 attack, -1 defence (the heavy tank
   battalions; the Rangers' two battalions count as one regiment-sized group).
4. ECHELON (artillery only): corps +0; army +1 range.
5. Floors: attack and defence at least 1; movement at least 0 (coastal batteries have MP 0,
   CN 5.3: units with MP 0 exist); range 0 for every type that does not fire at range.
6. REDUCED side (CN 7.0: flipped after losses, movement unchanged): each of attack and
   defence halved, rounded down, at least 1.
"""

from __future__ import annotations

import argparse
import copy
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
OOB_PATH = ROOT / "tools" / "normandy_oob.yaml"
SCENARIO_DIR = ROOT / "scenarios" / "normandy"
TABLES_PATH = SCENARIO_DIR / "tables.yaml"

SIDE_OF_NATION = {
    "american": "allied",
    "british": "allied",
    "canadian": "allied",
    "german": "axis",
    "russian": "axis",
}

# 1. BASE (side, type) -> (attack, defence, movement, range)
BASE: dict[tuple[str, str], tuple[int, int, int, int]] = {
    ("allied", "infantry"): (3, 4, 8, 0),  # anchor: CN 2.2.1, US 120th IR 3-4-8
    ("allied", "paratroop"): (3, 4, 8, 0),
    ("allied", "glider"): (3, 4, 8, 0),
    ("allied", "ranger_commando"): (3, 3, 8, 0),
    ("allied", "motorized_infantry"): (4, 4, 15, 0),  # anchor: CN 4.0, 4-4-15
    ("allied", "armour"): (5, 4, 15, 0),
    ("allied", "mechanized_cavalry"): (2, 2, 18, 0),
    ("allied", "artillery"): (3, 1, 8, 3),
    ("axis", "infantry"): (2, 3, 6, 0),
    ("axis", "paratroop"): (2, 4, 6, 0),
    ("axis", "naval_infantry"): (2, 3, 6, 0),
    ("axis", "bicycle_infantry"): (2, 2, 10, 0),
    ("axis", "motorized_infantry"): (3, 4, 12, 0),
    ("axis", "armour"): (6, 4, 12, 0),
    ("axis", "assault_gun"): (3, 3, 10, 0),
    ("axis", "artillery"): (2, 1, 4, 3),  # anchor: CN 8.0, German artillery 2-1-4
    ("axis", "coastal_artillery"): (3, 2, 0, 3),
    ("axis", "anti_aircraft"): (2, 3, 6, 0),
    ("axis", "rocket_launcher"): (3, 1, 6, 2),
}
# 2.-4. modifiers: (attack, defence, movement, range)
GRADE = {"line": (0, 0, 0, 0), "elite": (1, 0, 0, 0), "low": (-1, 0, -2, 0)}
SIZE = {"regiment": (0, 0, 0, 0), "battalion": (-2, -1, 0, 0)}
ECHELON = {"corps": (0, 0, 0, 0), "army": (0, 0, 0, 1)}
RANGED_TYPES = {"artillery", "mechanized_artillery", "coastal_artillery", "rocket_launcher"}

# The rulebook's three examples: (predicate on a built unit, provenance). The scheme must
# reproduce their values exactly (checked in build()).
EXAMPLES = [
    (
        lambda u: u["id"] == "us-120-30",
        (3, 4, 8),
        "CN 2.2.1 example counter: 120th Infantry Regiment, 30th ID, 3-4-8",
    ),
    (
        lambda u: u["nation"] == "british" and u["type"] == "motorized_infantry",
        (4, 4, 15),
        "CN 4.0 example: British motorized infantry 4-4-15",
    ),
    (
        lambda u: u["nation"] == "german" and u["type"] == "artillery",
        (2, 1, 4),
        "CN 8.0 example: German artillery 2-1-4",
    ),
]

# CN 2.2: the piece count.
EXPECTED_NATIONS = {"german": 107, "american": 68, "british": 47, "canadian": 8, "russian": 1}
EXPECTED_SS = 21
EXPECTED_TOTAL = 231

UNIT_FIELDS = (
    "id", "name", "nation", "side", "division", "type", "ss",
    "attack", "defence", "movement", "range", "reduced", "provenance",
)


REDUCED_RULE = "reduced = half rounded down, min 1"
RANGE_RULE = "range by type"


@dataclass(frozen=True)
class Strength:
    attack: int
    defence: int
    movement: int
    range: int
    rule: str


def strength(side: str, utype: str, grade: str, size: str, echelon: str) -> Strength:
    """The scheme of the module docstring, with the rule that produced the value."""
    base = BASE[(side, utype)]
    mods = [GRADE[grade], SIZE[size]]
    if utype in RANGED_TYPES:
        mods.append(ECHELON[echelon])
    a, d, m, r = (base[i] + sum(mod[i] for mod in mods) for i in range(4))
    a, d = max(1, a), max(1, d)
    m = 0 if base[2] == 0 else max(1, m)
    r = r if utype in RANGED_TYPES else 0
    parts = [f"scheme {side}/{utype} {base[0]}-{base[1]}-{base[2]}"]
    if grade != "line":
        parts.append({"elite": "elite +1 attack", "low": "low -1 attack -2 movement"}[grade])
    if size != "regiment":
        parts.append("battalion -2 attack -1 defence")
    rule = ", ".join(parts) + (f" = {a}-{d}-{m}" if len(parts) > 1 else "")
    if utype in RANGED_TYPES:
        rule += f"; range {base[3]} by type" + (f" +1 army = {r}" if echelon == "army" else "")
    return Strength(a, d, m, r, rule + f"; {REDUCED_RULE}")


def reduced(value: int) -> int:
    """CN 7.0 reduced side: half, rounded down, at least 1 (scheme rule 6)."""
    return max(1, value // 2)


def load_oob(path: Path = OOB_PATH) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def unit_types(path: Path = TABLES_PATH) -> set[str]:
    with open(path, encoding="utf-8") as f:
        return set(yaml.safe_load(f)["unit_types"])


def _make_unit(raw: dict[str, Any], division: str | None, div: dict[str, Any],
               sources: dict[str, str]) -> dict[str, Any]:
    nation = raw.get("nation", div.get("nation"))
    side = SIDE_OF_NATION[nation]
    utype = raw["type"]
    grade = raw.get("grade", div.get("grade", "line"))
    size = raw.get("size", "regiment")
    echelon = raw.get("echelon", "corps")
    ss = bool(raw.get("ss", div.get("ss", False)))
    s = strength(side, utype, grade, size, echelon)
    unit = {
        "id": raw["id"],
        "name": raw["name"],
        "nation": nation,
        "side": side,
        "division": division,
        "type": utype,
        "ss": ss,
        "attack": s.attack,
        "defence": s.defence,
        "movement": s.movement,
        "range": s.range,
        "reduced": {"attack": reduced(s.attack), "defence": reduced(s.defence)},
    }
    provenance = f"reconstruction: {s.rule}"
    for match, values, example in EXAMPLES:
        if match(unit):
            if (s.attack, s.defence, s.movement) != values:
                raise SystemExit(f"scheme breaks the rulebook example: {example}")
            extra = [REDUCED_RULE]
            if s.range:
                extra.insert(0, f"range {s.range} ({RANGE_RULE}" + (
                    ", +1 army)" if echelon == "army" else ")"))
            provenance = f"{example}; reconstruction: {', '.join(extra)}"
            break
    keys = raw.get("sources", div.get("sources", []))
    refs = "; ".join(sources[k].split(" (")[0] for k in keys)
    unit["provenance"] = f"{provenance}. Order of battle: {refs}" if refs else provenance
    return unit


def build_units(oob: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    sources = oob["sources"]
    units: list[dict[str, Any]] = []
    divisions: dict[str, dict[str, Any]] = {}
    for key, div in oob["divisions"].items():
        divisions[key] = {
            "name": div["name"],
            "nation": div["nation"],
            "divisional_bonus": bool(div.get("divisional_bonus", True)),
        }
        for raw in div["units"]:
            units.append(_make_unit(raw, key, div, sources))
    for raw in oob["independent"]:
        units.append(_make_unit(raw, None, {}, sources))
    return units, divisions


def build_placement(oob: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    setup = [{"unit": u, "hex": str(line["hex"])} for line in oob["setup"] for u in line["units"]]
    reinforcements = []
    for line in sorted(oob["reinforcements"], key=lambda r: r["turn"]):  # stable
        for u in line["units"]:
            entry: dict[str, Any] = {"turn": line["turn"], "unit": u, "entry": copy.deepcopy(line["entry"])}
            if "note" in line:
                entry["note"] = line["note"]
            reinforcements.append(entry)
    return setup, reinforcements


def validate(units: list[dict[str, Any]], divisions: dict[str, dict[str, Any]],
             setup: list[dict[str, Any]], reinforcements: list[dict[str, Any]],
             types: set[str]) -> list[str]:
    """Every problem found; empty when the counters match CN 2.2 and the lists."""
    problems = []
    ids = [u["id"] for u in units]
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    if dupes:
        problems.append(f"duplicate ids: {dupes}")
    if len(units) != EXPECTED_TOTAL:
        problems.append(f"{len(units)} pieces, CN 2.2 says {EXPECTED_TOTAL}")
    nations = Counter(u["nation"] for u in units)
    if dict(nations) != EXPECTED_NATIONS:
        problems.append(f"pieces by nation {dict(nations)}, CN 2.2 says {EXPECTED_NATIONS}")
    ss = sum(u["ss"] for u in units)
    if ss != EXPECTED_SS:
        problems.append(f"{ss} Waffen-SS pieces, CN 2.2 says {EXPECTED_SS}")
    for u in units:
        if u["type"] not in types:
            problems.append(f"{u['id']}: type {u['type']} not in tables.yaml")
        if u["division"] is not None and u["division"] not in divisions:
            problems.append(f"{u['id']}: unknown division {u['division']}")
    placed = Counter([s["unit"] for s in setup] + [r["unit"] for r in reinforcements])
    known = set(ids)
    for uid, n in placed.items():
        if uid not in known:
            problems.append(f"placed unit {uid} has no counter")
        if n > 1:
            problems.append(f"{uid} placed {n} times")
    for uid in sorted(known - set(placed)):
        problems.append(f"{uid} is neither in setup nor in reinforcements")
    return problems


class _Flow(dict):
    """A mapping written in YAML flow style ({a: 1, b: 2})."""


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:  # no &id001 anchors in the output
        return True


_Dumper.add_representer(
    _Flow, lambda d, data: d.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True)
)


def _dump(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=4096,
                     default_flow_style=False)


UNITS_HEADER = """\
# Campanha da Normandia: all 231 counters (CN 2.2).
# GENERATED by tools/build_counters.py from tools/normandy_oob.yaml -- do not edit by hand.
"""
SETUP_HEADER = """\
# Campanha da Normandia: initial placement (CN 11.1.1 Allied, 11.1.2 Axis) and reinforcements
# (CN 11.1.3 Allied, 11.1.4 German). Allied turn-0 hexes are the landing/drop hexes the rule
# assigns (some are held by Germans on turn 0; the engine resolves the landing).
# GENERATED by tools/build_counters.py from tools/normandy_oob.yaml -- do not edit by hand.
"""


def render(oob: dict[str, Any]) -> tuple[str, str]:
    """The text of units.yaml and setup.yaml."""
    units, divisions = build_units(oob)
    setup, reinforcements = build_placement(oob)
    problems = validate(units, divisions, setup, reinforcements, unit_types())
    if problems:
        raise SystemExit("normandy counters invalid:\n  " + "\n  ".join(problems))
    for u in units:
        u["reduced"] = _Flow(u["reduced"])
    units_doc = {
        "provenance": (
            "Reconstruction: strengths by tools/build_counters.py from the scheme in its "
            "docstring (anchored on CN 2.2.1, 4.0 and 8.0 examples); order of battle from "
            "tools/normandy_oob.yaml (sources named there). Not the printed counters."
        ),
        "units": units,
        "divisions": {k: _Flow(v) for k, v in divisions.items()},
    }
    for r in reinforcements:
        r["entry"] = _Flow(r["entry"])
    setup_doc = {
        "setup": [_Flow(s) for s in setup],
        "reinforcements": [_Flow(r) for r in reinforcements],
    }
    return UNITS_HEADER + _dump(units_doc), SETUP_HEADER + _dump(setup_doc)


def write(out_dir: Path, oob_path: Path = OOB_PATH) -> tuple[Path, Path]:
    units_text, setup_text = render(load_oob(oob_path))
    out_dir.mkdir(parents=True, exist_ok=True)
    units_path, setup_path = out_dir / "units.yaml", out_dir / "setup.yaml"
    units_path.write_text(units_text, encoding="utf-8")
    setup_path.write_text(setup_text, encoding="utf-8")
    return units_path, setup_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oob", type=Path, default=OOB_PATH)
    parser.add_argument("--out", type=Path, default=SCENARIO_DIR)
    parser.add_argument("--check", action="store_true",
                        help="compare with the files in --out instead of writing them")
    args = parser.parse_args(argv)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            fresh = write(Path(tmp), args.oob)
            stale = [p.name for p in fresh
                     if (args.out / p.name).read_text(encoding="utf-8") != p.read_text("utf-8")]
        if stale:
            print(f"stale: {', '.join(stale)} (run tools/build_counters.py)", file=sys.stderr)
            return 1
        return 0
    for p in write(args.out, args.oob):
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
