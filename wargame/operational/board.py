"""The campaign map: hexes with terrain and features, river hexsides, roads, edges, places."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wargame.hexgrid import Hex
from wargame.i18n import LANGUAGES
from wargame.localized import pick
from wargame.scenario_errors import ScenarioError

__all__ = ["HexInfo", "Board", "board_from_dict", "hexside"]

IMPASSABLE_TERRAIN = ("sea", "border")


def hexside(a: Hex, b: Hex) -> frozenset[Hex]:
    return frozenset((a, b))


@dataclass(frozen=True, slots=True)
class HexInfo:
    hex: Hex
    terrain: str
    name: str | None = None
    village: bool = False
    fortification: bool = False
    airfield: bool = False
    maquis: bool = False

    @property
    def id(self) -> str:
        return self.hex.id


@dataclass
class Board:
    hexes: dict[Hex, HexInfo]
    hexsides: dict[frozenset[Hex], str] = field(default_factory=dict)
    hexside_names: dict[frozenset[Hex], str] = field(default_factory=dict)
    roads: set[frozenset[Hex]] = field(default_factory=set)
    edges: dict[str, frozenset[Hex]] = field(default_factory=dict)
    places: dict[str, tuple[Hex, ...]] = field(default_factory=dict)
    offmap_roads: list[dict[str, Any]] = field(default_factory=list)
    provenance: str = ""
    # {"pt": {English name: Portuguese name}} where they differ (map.json pt.names)
    translations: dict[str, dict[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._neighbours: dict[Hex, tuple[Hex, ...]] = {
            h: tuple(n for n in h.neighbours() if n in self.hexes) for h in self.hexes
        }
        self.coast: frozenset[Hex] = frozenset(
            h
            for h, info in self.hexes.items()
            if info.terrain not in IMPASSABLE_TERRAIN
            and any(self.hexes[n].terrain == "sea" for n in self._neighbours[h])
        )
        self.edge_of: dict[Hex, tuple[str, ...]] = {}
        for name, hexes in self.edges.items():
            for h in hexes:
                self.edge_of[h] = self.edge_of.get(h, ()) + (name,)

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        return self._neighbours.get(h, ())

    def __contains__(self, h: Hex) -> bool:
        return h in self.hexes

    def info(self, h: Hex) -> HexInfo:
        return self.hexes[h]

    def is_land(self, h: Hex) -> bool:
        info = self.hexes.get(h)
        return info is not None and info.terrain not in IMPASSABLE_TERRAIN

    def land_hexes(self) -> list[Hex]:
        return [h for h in self.hexes if self.is_land(h)]

    def river_between(self, a: Hex, b: Hex) -> str | None:
        return self.hexsides.get(hexside(a, b))

    def road_between(self, a: Hex, b: Hex) -> bool:
        return hexside(a, b) in self.roads

    def place(self, name: str) -> tuple[Hex, ...]:
        try:
            return self.places[name]
        except KeyError:
            raise KeyError(f"the map has no place named {name!r}") from None

    def place_name(self, h: Hex) -> str | None:
        info = self.hexes.get(h)
        return info.name if info else None

    def name_in(self, name: str, lang: str | None = None) -> str:
        """A place or hex name in ``lang`` (default: the current language): "Hill 112" ->
        "Cota 112" in Portuguese; names that do not differ come back as they are."""
        return pick(name, self.translations, name, lang)


def board_from_dict(data: dict, source: str = "<map>", terrain_names: set[str] | None = None) -> Board:
    """Build a Board from map.json data (docs/data-formats.md), validating as it goes."""
    if not isinstance(data, dict):
        raise ScenarioError.keyed(source, "(top level)", "board.json_object")
    raw_hexes = data.get("hexes")
    if not isinstance(raw_hexes, dict) or not raw_hexes:
        raise ScenarioError.keyed(source, "hexes", "board.hexes", raw_hexes)
    hexes: dict[Hex, HexInfo] = {}
    for hid, spec in raw_hexes.items():
        where = f"hexes.{hid}"
        try:
            h = Hex.from_id(hid)
        except ValueError:
            raise ScenarioError.keyed(source, where, "schema.hex_id", hid) from None
        if not isinstance(spec, dict):
            raise ScenarioError.keyed(source, where, "board.hex_spec", spec)
        terrain = spec.get("terrain")
        if not isinstance(terrain, str) or (terrain_names is not None and terrain not in terrain_names):
            if terrain_names:
                raise ScenarioError.keyed(source, f"{where}.terrain", "schema.one_of", terrain,
                                          options=sorted(terrain_names))
            raise ScenarioError.keyed(source, f"{where}.terrain", "map.terrain_name", terrain)
        for flag in ("village", "fortification", "airfield", "maquis"):
            if flag in spec and not isinstance(spec[flag], bool):
                raise ScenarioError.keyed(source, f"{where}.{flag}", "schema.bool", spec[flag])
        name = spec.get("name")
        if name is not None and not isinstance(name, str):
            raise ScenarioError.keyed(source, f"{where}.name", "board.string", name)
        hexes[h] = HexInfo(
            hex=h,
            terrain=terrain,
            name=name,
            village=bool(spec.get("village", False)),
            fortification=bool(spec.get("fortification", False)),
            airfield=bool(spec.get("airfield", False)),
            maquis=bool(spec.get("maquis", False)),
        )

    def known(hid: Any, where: str) -> Hex:
        try:
            h = Hex.from_id(hid)
        except (ValueError, TypeError):
            raise ScenarioError.keyed(source, where, "schema.hex_id", hid) from None
        if h not in hexes:
            raise ScenarioError.keyed(source, where, "map.hex_in_hexes", hid)
        return h

    sides: dict[frozenset[Hex], str] = {}
    side_names: dict[frozenset[Hex], str] = {}
    for i, spec in enumerate(data.get("hexsides", []) or []):
        where = f"hexsides[{i}]"
        if not isinstance(spec, dict) or not isinstance(spec.get("between"), list) or len(spec["between"]) != 2:
            raise ScenarioError.keyed(source, where, "board.hexside", spec)
        a = known(spec["between"][0], f"{where}.between[0]")
        b = known(spec["between"][1], f"{where}.between[1]")
        if a.distance(b) != 1:
            raise ScenarioError.keyed(source, f"{where}.between", "board.adjacent_pair",
                                      spec["between"])
        kind = spec.get("kind", "river")
        if not isinstance(kind, str):
            raise ScenarioError.keyed(source, f"{where}.kind", "board.hexside_kind", kind)
        sides[hexside(a, b)] = kind
        if spec.get("name"):
            side_names[hexside(a, b)] = str(spec["name"])

    roads: set[frozenset[Hex]] = set()
    for i, spec in enumerate(data.get("roads", []) or []):
        where = f"roads[{i}].hexes"
        chain = spec.get("hexes") if isinstance(spec, dict) else None
        if not isinstance(chain, list) or len(chain) < 2:
            raise ScenarioError.keyed(source, where, "board.road", chain)
        prev = None
        for j, hid in enumerate(chain):
            h = known(hid, f"{where}[{j}]")
            if prev is not None:
                if prev.distance(h) != 1:
                    raise ScenarioError.keyed(source, f"{where}[{j}]", "board.adjacent_to", hid,
                                              hex=prev.id)
                roads.add(hexside(prev, h))
            prev = h

    edges: dict[str, frozenset[Hex]] = {}
    raw_edges = data.get("edges", {}) or {}
    if not isinstance(raw_edges, dict):
        raise ScenarioError.keyed(source, "edges", "board.edges", raw_edges)
    for name, ids in raw_edges.items():
        if not isinstance(ids, list):
            raise ScenarioError.keyed(source, f"edges.{name}", "map.hex_ids", ids)
        edges[name] = frozenset(known(hid, f"edges.{name}") for hid in ids)

    places: dict[str, tuple[Hex, ...]] = {}
    raw_places = data.get("places", {}) or {}
    if not isinstance(raw_places, dict):
        raise ScenarioError.keyed(source, "places", "board.places", raw_places)
    for name, ids in raw_places.items():
        if isinstance(ids, str):
            ids = [ids]
        if not isinstance(ids, list):
            raise ScenarioError.keyed(source, f"places.{name}", "map.hex_ids", ids)
        places[name] = tuple(known(hid, f"places.{name}") for hid in ids)

    # CN 4.2.2 off-map roads: from, to (hex ids) and the road hexes between them (make fuzz,
    # issue #31: a number here was a raw TypeError)
    raw_offmap = data.get("offmap_roads", []) or []
    if not isinstance(raw_offmap, list):
        raise ScenarioError.keyed(source, "offmap_roads", "board.offmap_roads", raw_offmap)
    for i, link in enumerate(raw_offmap):
        steps = link.get("road_hexes") if isinstance(link, dict) else None
        if not isinstance(steps, int) or isinstance(steps, bool) or not 0 <= steps <= 1000:
            raise ScenarioError.keyed(source, f"offmap_roads[{i}]", "board.offmap_road", link)
        known(link.get("from"), f"offmap_roads[{i}].from")
        known(link.get("to"), f"offmap_roads[{i}].to")
    for lang, texts in data.items():
        if (lang in LANGUAGES and lang != "en" and isinstance(texts, dict)
                and not isinstance(texts.get("names") or {}, dict)):
            raise ScenarioError.keyed(source, f"{lang}.names", "board.names", texts["names"])

    return Board(
        hexes=hexes,
        hexsides=sides,
        hexside_names=side_names,
        roads=roads,
        edges=edges,
        places=places,
        offmap_roads=list(raw_offmap),
        provenance=str(data.get("provenance", "")),
        translations={lang: dict(texts.get("names") or {}) for lang, texts in data.items()
                      if lang in LANGUAGES and lang != "en" and isinstance(texts, dict)},
    )
