"""The bundled scenarios at a glance: what exists and what each holds.

Reads only ``scenario.yaml`` and, when present, the map and units files it names; it never
validates them (``wargame.scenario.load_scenario`` does). A missing or unreadable data file
leaves its fields out (``None``) and adds a line to ``warnings``, so the list and the summary
work while the data is still being generated.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from wargame.localized import pick, translations_of
from wargame.paths import MEMOIR_PREFIX, scenarios_root, user_balance_file, user_memoir_dir
from wargame.scenario_errors import ScenarioError, load_json, load_yaml

__all__ = [
    "list_scenarios", "describe", "scenario_folder", "NATIONS", "NON_LAND_TERRAIN",
    "MEMOIR_PREFIX", "memoir_scenarios", "describe_memoir",
]

NATIONS = ("german", "american", "british", "canadian", "russian", "french")
"""The nations of docs/data-formats.md (units.yaml), in the order summaries show them."""

NON_LAND_TERRAIN = frozenset({"sea", "border"})
"""Terrain that is on the map but not land (docs/data-formats.md: sea; OD: border/Switzerland)."""


def _folders(root: Path | None = None) -> list[Path]:
    root = root or scenarios_root()
    return sorted(
        p
        for p in root.iterdir()
        if p.is_dir() and not p.name.startswith(("_", ".")) and (p / "scenario.yaml").is_file()
    )


def _meta(folder: Path) -> dict[str, Any]:
    meta = load_yaml(folder / "scenario.yaml")
    if not isinstance(meta, dict):
        raise ScenarioError.keyed(folder / "scenario.yaml", "(top level)", "schema.mapping", meta)
    return meta


def _title(meta: dict[str, Any], default: str, lang: str | None) -> str:
    """The file's title in ``lang`` (default: the current language; its ``pt:`` mapping,
    wargame/localized.py), else its English title, else ``default``."""
    return pick(str(meta.get("title", default)), translations_of(meta, ("title",)), "title",
                lang)


def list_scenarios(root: Path | None = None, lang: str | None = None) -> list[dict[str, Any]]:
    """Every bundled ``scenarios/<id>/scenario.yaml`` as {id, game, title, balance}, sorted by
    id; the titles in ``lang`` (default: the current language). ``balance``: what a study
    measured (``scenario_balance``), else None.

    Folders without a scenario.yaml are skipped; a scenario.yaml that does not parse is listed
    with its error as title. Memoir '44 scenarios are the files ``scenarios/memoir44/<id>.json``
    (ids ``memoir44-<rulebook number>`` and ``memoir44-overlord``, game ``memoir44``) and the
    user's imports (``wargame scenario import``, ids ``memoir44-<name>``).
    """
    out: list[dict[str, Any]] = []
    balance = scenario_balance()
    for folder in _folders(root):
        try:
            meta = _meta(folder)
        except ScenarioError as exc:
            out.append({"id": folder.name, "game": "", "title": f"(unreadable: {exc})"})
            continue
        sid = str(meta.get("id", folder.name))
        out.append(
            {
                "id": sid,
                "game": str(meta.get("game", "")),
                "title": _title(meta, folder.name, lang),
                "balance": balance.get(sid),
            }
        )
    out = sorted(out, key=lambda d: d["id"])
    return out + [
        {k: d[k] for k in ("id", "game", "title", "front", "year", "approximated",
                           "approximations", "balance")}
        for d in memoir_scenarios(root, lang)
    ] + registered_scenarios()


BALANCE_KEYS = ("games", "allied_wins", "axis_wins", "draws", "allied", "axis", "seed")


def scenario_balance(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """The balance studies measured, by scenario id (issue 32): {games, allied_wins, axis_wins,
    draws, allied_win_rate, allied, axis, seed} of the largest study of each scenario without
    variants or what-if, played with today's dice (``wargame.analysis.study.record_balance``
    writes ``wargame.paths.user_balance_file``). A missing or damaged file: no balance."""
    from wargame.dice import DICE_VERSION

    path = path or user_balance_file()
    if not path.is_file():
        return {}
    try:
        data = load_json(path)
    except ScenarioError:
        return {}
    out: dict[str, dict[str, Any]] = {}
    for sid, entry in (data.items() if isinstance(data, dict) else ()):
        if not isinstance(entry, dict) or entry.get("dice") != DICE_VERSION:
            continue
        counts = [entry.get(k) for k in ("games", "allied_wins", "axis_wins", "draws")]
        if not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts) \
                or counts[0] < 1 or sum(counts[1:]) != counts[0]:
            continue  # not counts of finished games: left out, never shown wrong
        out[str(sid)] = {k: entry.get(k) for k in BALANCE_KEYS}
        out[str(sid)]["allied_win_rate"] = counts[1] / counts[0]
    return out


def registered_scenarios() -> list[dict[str, str]]:
    """The scenarios of game families registered with their own list (``wargame.registry``:
    a family outside the bundled files, e.g. the tests' toy game)."""
    from wargame.registry import FAMILIES, resolve

    return [dict(d) for f in FAMILIES if f.scenarios for d in resolve(f.scenarios)()]


def scenario_folder(scenario_id: str, root: Path | None = None) -> Path:
    """The folder of a bundled scenario, by folder name or by the ``id`` in its scenario.yaml."""
    folders = _folders(root)
    for folder in folders:
        if folder.name == scenario_id:
            return folder
    for folder in folders:
        try:
            if str(_meta(folder).get("id")) == scenario_id:
                return folder
        except ScenarioError:
            continue
    known = ", ".join(f.name for f in folders) or "(none)"
    raise KeyError(f"no bundled scenario {scenario_id!r}; bundled: {known}")


def _data_file(folder: Path, meta: dict, key: str, default: str) -> Path:
    name = meta.get(key, default)
    return folder / (name if isinstance(name, str) else default)


def _map_summary(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict) or not isinstance(data.get("hexes"), dict):
        raise ValueError("expected a mapping with 'hexes'")
    terrain: Counter[str] = Counter()
    features: Counter[str] = Counter()
    for spec in data["hexes"].values():
        kind = str(spec.get("terrain", "?")) if isinstance(spec, dict) else "?"
        if kind in NON_LAND_TERRAIN:
            continue
        terrain[kind] += 1
        for flag in ("village", "fortification", "airfield", "maquis"):
            if spec.get(flag):
                features[flag] += 1
    places = data.get("places") or {}
    return {
        "hex_count": sum(terrain.values()),
        "terrain_counts": dict(sorted(terrain.items(), key=lambda kv: (-kv[1], kv[0]))),
        "feature_counts": dict(sorted(features.items())),
        "places": {str(k): [str(h) for h in v] for k, v in sorted(places.items())},
        "provenance": data.get("provenance"),
    }


def _units_summary(data: Any) -> dict[str, Any]:
    units = data.get("units") if isinstance(data, dict) else None
    if not isinstance(units, list):
        raise ValueError("expected a mapping with a 'units' list")
    nations: Counter[str] = Counter(
        str(u.get("nation", "?")) for u in units if isinstance(u, dict)
    )
    order = {n: i for i, n in enumerate(NATIONS)}
    by_nation = dict(sorted(nations.items(), key=lambda kv: (order.get(kv[0], 99), kv[0])))
    return {
        "unit_count": len(units),
        "units_by_nation": by_nation,
        "ss_count": sum(1 for u in units if isinstance(u, dict) and u.get("ss")),
        "units_provenance": data.get("provenance"),
    }


MAP_FIELDS = ("hex_count", "terrain_counts", "feature_counts", "places", "provenance")
UNIT_FIELDS = ("unit_count", "units_by_nation", "ss_count", "units_provenance")


def describe(scenario_id: str, root: Path | None = None, lang: str | None = None
             ) -> dict[str, Any]:
    """A summary of one bundled scenario (title and briefing in ``lang``, default: the
    current language).

    Always: id, game, title, turns {first, last}, warnings. From map.json (when present):
    hex_count (land hexes: terrain not sea/border), terrain_counts (land), feature_counts,
    places (name -> hex ids), provenance. From units.yaml (when present): unit_count,
    units_by_nation (only the nations present), ss_count, units_provenance. Fields whose file
    is missing or unreadable are ``None``. Raises ``KeyError`` for an unknown id.
    """
    if scenario_id.startswith(MEMOIR_PREFIX):
        return describe_memoir(scenario_id, root, lang)
    folder = scenario_folder(scenario_id, root)
    meta = _meta(folder)
    turns = meta.get("turns") if isinstance(meta.get("turns"), dict) else {}
    out: dict[str, Any] = {
        "id": str(meta.get("id", folder.name)),
        "game": str(meta.get("game", "")),
        "title": _title(meta, folder.name, lang),
        "turns": {"first": turns.get("first"), "last": turns.get("last")},
        "warnings": [],
    }
    out.update(dict.fromkeys(MAP_FIELDS))
    out.update(dict.fromkeys(UNIT_FIELDS))
    for key, default, reader, summarise in (
        ("map", "map.json", load_json, _map_summary),
        ("units", "units.yaml", load_yaml, _units_summary),
    ):
        path = _data_file(folder, meta, key, default)
        if not path.is_file():
            out["warnings"].append(f"{path.name}: not present yet")
            continue
        try:
            out.update(summarise(reader(path)))
        except (ScenarioError, ValueError, AttributeError, TypeError) as exc:
            out["warnings"].append(f"{path.name}: {exc}")
    return out


# Memoir '44 -------------------------------------------------------------------------------
MEMOIR_KINDS = {"inf": "infantry", "tank": "armor", "gun": "artillery"}
MEMOIR_GAME = "memoir"  # Memoir '44's one id (issue #27): the protocol's game.kind too; its
# scenario ids keep their prefix memoir44- (URLs, rooms, saves name scenarios by them)
_SIDES = {"ALLIES": "allied", "AXIS": "axis", "allied": "allied", "axis": "axis"}  # the files'
# side words (or the ids) -> the side ids (issue #27)


def _memoir_files(root: Path | None = None) -> dict[str, Path]:
    """Memoir '44 scenario files by id: the bundled ``scenarios/memoir44/<id>.json`` (rulebook
    order) then, for the installed data (``root`` None), the user's imports
    (``wargame.paths.user_memoir_dir``) whose names are not bundled ids."""
    def ids(folder: Path) -> list[tuple[str, Path]]:
        if not folder.is_dir():
            return []
        found = [(p.stem, p) for p in folder.glob("*.json")]
        return sorted(found, key=lambda kv: (not kv[0].isdigit(),
                                             int(kv[0]) if kv[0].isdigit() else 0, kv[0]))

    out = dict(ids((root or scenarios_root()) / "memoir44"))
    if root is None:
        for sid, path in ids(user_memoir_dir()):
            out.setdefault(sid, path)
    return out


def _memoir_file(path: Path) -> dict[str, Any]:
    try:
        data = load_json(path)
    except ScenarioError:
        return {}
    return data if isinstance(data, dict) else {}


def memoir_scenarios(root: Path | None = None, lang: str | None = None) -> list[dict[str, Any]]:
    """The Memoir '44 scenarios as {id, game, title, number, source} (source ``bundled`` or
    ``imported``), in rulebook order, the user's imports last; titles in ``lang`` (default:
    the current language)."""
    bundled = (root or scenarios_root()) / "memoir44"
    balance = scenario_balance()
    out = []
    for sid, path in _memoir_files(root).items():
        data = _memoir_file(path)
        title = _title(data, sid, lang) if isinstance(data.get("title"), str) else sid
        report = data.get("import_report") if isinstance(data.get("import_report"), dict) else {}
        date = data.get("date") if isinstance(data.get("date"), str) else ""
        out.append({"id": MEMOIR_PREFIX + sid, "game": MEMOIR_GAME, "title": title,
                    "number": sid,
                    "source": "bundled" if path.parent == bundled else "imported",
                    # issue 32: the front, the year and whether an import plays approximately
                    "front": data.get("front") if isinstance(data.get("front"), str) else None,
                    "year": date[:4] or None,
                    "approximated": bool(report.get("approximated") or report.get("left_out")),
                    # what plays approximately or is left out, in ``lang``
                    "approximations": _approximations(report, lang),
                    "balance": balance.get(MEMOIR_PREFIX + sid)})
    return out


def _approximations(report: dict[str, Any], lang: str | None) -> list[str]:
    from wargame.i18n import using_language
    from wargame.memoir.imports import entry_text

    with using_language(lang):
        return [entry_text(e) for part in ("approximated", "left_out")
                for e in (report.get(part) if isinstance(report.get(part), list) else [])]


def _memoir_units(data: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Units on the board at set-up by side and type (``units`` of the scenario file)."""
    out = {side: dict.fromkeys(MEMOIR_KINDS.values(), 0) for side in ("allied", "axis")}
    for unit in data["units"]:
        out[_SIDES[unit["side"]]][MEMOIR_KINDS[unit["kind"]]] += 1
    return out


def _by_side(values: Any) -> dict[str, int]:
    values = values if isinstance(values, dict) else {}
    return {_SIDES[k]: int(v) for k, v in values.items() if k in _SIDES}


def describe_memoir(scenario_id: str, root: Path | None = None, lang: str | None = None
                    ) -> dict[str, Any]:
    """A summary of one Memoir '44 scenario: medals_to_win and units_by_side {allied, axis}
    each {infantry, armor, artillery} (units at set-up; M44 Game Set-up), cards, who starts,
    briefing and provenance. Raises ``KeyError`` for an unknown id."""
    sid = scenario_id.removeprefix(MEMOIR_PREFIX)
    files = _memoir_files(root)
    if sid not in files:
        known = ", ".join(MEMOIR_PREFIX + k for k in files) or "(none)"
        raise KeyError(f"no bundled scenario {scenario_id!r}; Memoir '44: {known}")
    path = files[sid]
    entry = _memoir_file(path)
    out: dict[str, Any] = {
        "id": MEMOIR_PREFIX + sid,
        "game": MEMOIR_GAME,
        "title": _title(entry, sid, lang),
        "number": sid,
        "turns": {"first": None, "last": None},
        "medals_to_win": _by_side(entry.get("medals_to_win")),
        "cards": _by_side(entry.get("cards")),
        "starts": _SIDES.get(str(entry.get("first_player")), None),
        "special_rules": sorted(
            list((entry.get("special") or {}).keys())
            + (["objectives"] if entry.get("objectives") else [])),
        "units_by_side": None,
        "briefing": pick(entry.get("briefing") or "", translations_of(entry, ("briefing",)),
                         "briefing", lang) or entry.get("briefing"),
        "provenance": entry.get("provenance"),
        "warnings": [],
    }
    try:
        out["units_by_side"] = _memoir_units(entry)
    except (KeyError, TypeError) as exc:
        out["warnings"].append(f"{path.name}: unreadable units ({exc})")
    return out
