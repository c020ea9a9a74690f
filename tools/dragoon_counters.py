"""Build the Operação Dragoon counters, setup and reinforcements.

    python tools/dragoon_counters.py            # writes scenarios/dragoon/{units,setup}.yaml
    python tools/dragoon_counters.py --out DIR  # writes them to DIR instead
    python tools/dragoon_counters.py --check    # exit 1 if the committed files are stale

Inputs: tools/dragoon_oob.yaml (the hand-written, sourced order of battle, setup and
reinforcement lists of OD 11.1.1-11.1.4) and the ONE strength scheme below. Reuses the
Normandy builder's placement expansion and YAML writer (tools/build_counters.py), which is
not modified: the scheme and the piece counts are per game.

The strength scheme (OD 2.2.1: attack-defence-movement; OD 8.0: artillery range)
--------------------------------------------------------------------------------
1. BASE value by side and type, anchored on the rulebook's five printed values:
     OD 2.2.1  French 6th RTS (9th DIC)                 3-4-5   -> allied infantry
     OD 4.0    US paratroops                            3-3-6   -> allied paratroop
     OD 8.0    German artillery                         1-1-3   -> axis artillery (corps)
     OD 11.1.4 US 7th Army artillery                    3-1-4   -> allied artillery, army
     OD 11.1.4 VI, I and II Corps artillery             2-1-4   -> allied artillery (corps)
   Other types are scaled from these: armour attacks harder than it defends and moves
   further; commandos and mountain troops are infantry with the "special" movement class of
   the OD terrain table; German infantry is second-class (OD 11.0) and slower (horse-drawn);
   guerrillas defend better than they attack.
2. GRADE (quality), from the division unless the unit says otherwise:
     line   +0
     elite  +1 attack                (1st Special Service Force; the veteran 11th Panzer)
     low    -1 attack                (the 157th and 189th Reserve (training) divisions)
3. ECHELON (artillery only): corps +0; army +1 attack, +1 range (the 7th Army's 3-1-4
   against the corps' 2-1-4; the same rule gives the German 19th Army artillery 2-1-3).
4. Floors: attack and defence at least 1.
5. REDUCED side (OD 7.0: flipped after losses, "arredondando para cima para ambos os
   jogadores", movement unchanged): attack and defence halved, rounded UP.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

TOOLS = Path(__file__).resolve().parent
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))

from build_counters import _dump, _Flow, build_placement  # noqa: E402

ROOT = TOOLS.parent
OOB_PATH = TOOLS / "dragoon_oob.yaml"
SCENARIO_DIR = ROOT / "scenarios" / "dragoon"
TABLES_PATH = SCENARIO_DIR / "tables.yaml"

SIDE_OF_NATION = {"american": "allied", "british": "allied", "french": "allied", "german": "axis"}

# 1. BASE (side, type) -> (attack, defence, movement, range)
BASE: dict[tuple[str, str], tuple[int, int, int, int]] = {
    ("allied", "infantry"): (3, 4, 5, 0),  # anchor: OD 2.2.1, 6th RTS 3-4-5
    ("allied", "paratroop"): (3, 3, 6, 0),  # anchor: OD 4.0, US para 3-3-6
    ("allied", "commando"): (3, 3, 6, 0),
    ("allied", "mountain"): (3, 3, 6, 0),
    ("allied", "armoured_infantry"): (4, 3, 8, 0),
    ("allied", "armour"): (5, 3, 8, 0),
    ("allied", "artillery"): (2, 1, 4, 2),  # anchor: OD 11.1.4, corps artillery 2-1-4
    ("allied", "guerrilla"): (1, 2, 5, 0),
    ("axis", "infantry"): (2, 3, 4, 0),
    ("axis", "mountain"): (2, 3, 5, 0),
    ("axis", "armoured_infantry"): (3, 3, 6, 0),
    ("axis", "armour"): (5, 4, 6, 0),
    ("axis", "artillery"): (1, 1, 3, 2),  # anchor: OD 8.0, German artillery 1-1-3
}
GRADE = {"line": (0, 0, 0, 0), "elite": (1, 0, 0, 0), "low": (-1, 0, 0, 0)}
ECHELON = {"corps": (0, 0, 0, 0), "army": (1, 0, 0, 1)}
RANGED_TYPES = {"artillery"}

# The rulebook's printed values: (predicate, (attack, defence, movement), where). build()
# refuses a scheme that does not reproduce them.
EXAMPLES = [
    (lambda u: u["id"] == "fr-6rts-9dic", (3, 4, 5), "OD 2.2.1 example counter: 6th RTS, 9th DIC, 3-4-5"),
    (lambda u: u["nation"] == "american" and u["type"] == "paratroop", (3, 3, 6), "OD 4.0 example: US paratroops 3-3-6"),
    (lambda u: u["id"] == "de-art-ivlw", (1, 1, 3), "OD 11.1.1 and 8.0: German artillery 1-1-3"),
    (lambda u: u["id"] == "us-art-7a", (3, 1, 4), "OD 11.1.4: 7th Army artillery 3-1-4"),
    (lambda u: u["id"] in ("us-art-vi", "fr-art-i", "fr-art-ii"), (2, 1, 4), "OD 11.1.4: corps artillery 2-1-4"),
]

# OD 2.2: the piece count.
EXPECTED_NATIONS = {"german": 28, "french": 25, "american": 13, "british": 1}
EXPECTED_TOTAL = 67
REDUCED_RULE = "reduced = half rounded up (OD 7.0)"


def strength(side: str, utype: str, grade: str, echelon: str) -> tuple[int, int, int, int, str]:
    base = BASE[(side, utype)]
    mods = [GRADE[grade]] + ([ECHELON[echelon]] if utype in RANGED_TYPES else [])
    a, d, m, r = (base[i] + sum(mod[i] for mod in mods) for i in range(4))
    a, d = max(1, a), max(1, d)
    parts = [f"scheme {side}/{utype} {base[0]}-{base[1]}-{base[2]}"]
    if grade != "line":
        parts.append({"elite": "elite +1 attack", "low": "low -1 attack"}[grade])
    if utype in RANGED_TYPES and echelon == "army":
        parts.append("army +1 attack +1 range")
    rule = ", ".join(parts) + (f" = {a}-{d}-{m}" if len(parts) > 1 else "")
    if utype in RANGED_TYPES:
        rule += f"; range {r}"
    return a, d, m, r if utype in RANGED_TYPES else 0, rule


def reduced(value: int) -> int:
    """OD 7.0: half, rounded up."""
    return (value + 1) // 2


def _make_unit(raw: dict[str, Any], division: str | None, div: dict[str, Any],
               sources: dict[str, str]) -> dict[str, Any]:
    nation = raw.get("nation", div.get("nation"))
    side = SIDE_OF_NATION[nation]
    grade = raw.get("grade", div.get("grade", "line"))
    a, d, m, r, rule = strength(side, raw["type"], grade, raw.get("echelon", "corps"))
    unit = {
        "id": raw["id"], "name": raw["name"], "nation": nation, "side": side, "division": division,
        "type": raw["type"], "ss": False, "attack": a, "defence": d, "movement": m, "range": r,
        "reduced": {"attack": reduced(a), "defence": reduced(d)},
    }
    provenance = f"reconstruction: {rule}; {REDUCED_RULE}"
    for match, values, example in EXAMPLES:
        if match(unit):
            if (a, d, m) != values:
                raise SystemExit(f"scheme breaks the rulebook example: {example}")
            provenance = f"{example}; {REDUCED_RULE}" + (f"; range {r} (scheme)" if r else "")
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
        divisions[key] = {"name": div["name"], "nation": div["nation"],
                          "divisional_bonus": bool(div.get("divisional_bonus", True))}
        for raw in div["units"]:
            units.append(_make_unit(raw, key, div, sources))
    for raw in oob["independent"]:
        units.append(_make_unit(raw, None, {}, sources))
    return units, divisions


def validate(units, divisions, setup, reinforcements, types: set[str]) -> list[str]:
    problems = []
    ids = [u["id"] for u in units]
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    if dupes:
        problems.append(f"duplicate ids: {dupes}")
    if len(units) != EXPECTED_TOTAL:
        problems.append(f"{len(units)} pieces, OD 2.2 says {EXPECTED_TOTAL}")
    nations = dict(Counter(u["nation"] for u in units))
    if nations != EXPECTED_NATIONS:
        problems.append(f"pieces by nation {nations}, OD 2.2 says {EXPECTED_NATIONS}")
    for u in units:
        if u["type"] not in types:
            problems.append(f"{u['id']}: type {u['type']} not in tables.yaml")
    for key in divisions:
        n = sum(1 for u in units if u["division"] == key)
        if n > 3:
            problems.append(f"{key}: {n} pieces, OD 2.2.1 divisions have at most 3")
    placed = Counter([s["unit"] for s in setup] + [r["unit"] for r in reinforcements])
    for uid, n in placed.items():
        if uid not in ids:
            problems.append(f"placed unit {uid} has no counter")
        if n > 1:
            problems.append(f"{uid} placed {n} times")
    for uid in sorted(set(ids) - set(placed)):
        problems.append(f"{uid} is neither in setup nor in reinforcements")
    return problems


UNITS_HEADER = """\
# Operação Dragoon: all 67 counters (OD 2.2).
# GENERATED by tools/dragoon_counters.py from tools/dragoon_oob.yaml -- do not edit by hand.
"""
SETUP_HEADER = """\
# Operação Dragoon: initial placement (OD 11.1.1 German, 11.1.2 guerrillas, 11.1.4 turn-1
# landings and drop) and reinforcements (OD 11.1.3 German, 11.1.4 Allied). The turn-1 American
# divisions are placed on their beaches (the 45th at sea off Saint-Tropez, which the Germans
# hold: the engine resolves the landing). See tools/dragoon_oob.yaml for the choices.
# GENERATED by tools/dragoon_counters.py from tools/dragoon_oob.yaml -- do not edit by hand.
"""


def render(oob: dict[str, Any]) -> tuple[str, str]:
    units, divisions = build_units(oob)
    setup, reinforcements = build_placement(oob)
    with open(TABLES_PATH, encoding="utf-8") as f:
        types = set(yaml.safe_load(f)["unit_types"])
    problems = validate(units, divisions, setup, reinforcements, types)
    if problems:
        raise SystemExit("dragoon counters invalid:\n  " + "\n  ".join(problems))
    for u in units:
        u["reduced"] = _Flow(u["reduced"])
    units_doc = {
        "provenance": (
            "Reconstruction: strengths by tools/dragoon_counters.py from the scheme in its "
            "docstring (anchored on OD 2.2.1, 4.0, 8.0 and 11.1.4 values); order of battle from "
            "tools/dragoon_oob.yaml (sources named there). Not the printed counters."
        ),
        "units": units,
        "divisions": {k: _Flow(v) for k, v in divisions.items()},
    }
    for r in reinforcements:
        r["entry"] = _Flow(r["entry"])
    setup_doc = {"setup": [_Flow(s) for s in setup], "reinforcements": [_Flow(r) for r in reinforcements]}
    return UNITS_HEADER + _dump(units_doc), SETUP_HEADER + _dump(setup_doc)


def write(out_dir: Path, oob_path: Path = OOB_PATH) -> tuple[Path, Path]:
    with open(oob_path, encoding="utf-8") as f:
        units_text, setup_text = render(yaml.safe_load(f))
    out_dir.mkdir(parents=True, exist_ok=True)
    units_path, setup_path = out_dir / "units.yaml", out_dir / "setup.yaml"
    units_path.write_text(units_text, encoding="utf-8")
    setup_path.write_text(setup_text, encoding="utf-8")
    return units_path, setup_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oob", type=Path, default=OOB_PATH)
    parser.add_argument("--out", type=Path, default=SCENARIO_DIR)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            fresh = write(Path(tmp), args.oob)
            stale = [p.name for p in fresh
                     if (args.out / p.name).read_text(encoding="utf-8") != p.read_text("utf-8")]
        if stale:
            print(f"stale: {', '.join(stale)} (run tools/dragoon_counters.py)", file=sys.stderr)
            return 1
        return 0
    for p in write(args.out, args.oob):
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
