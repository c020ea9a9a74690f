"""Build a campaign map (``map.json`` and a PNG picture) from documented inputs.

The printed maps of the campaign games are not in the sources; this script rebuilds one from

* a *features* YAML file written by hand (``tools/normandy_features.yaml``): the board size, the
  georeferenced fit (longitude/latitude -> column/row), the rule-pinned places, terrain areas,
  rivers and canals (on hexsides), roads, flags (villages, fortifications, airfields), edges and
  off-map road arrows;
* the 1 km land/sea mask of the ``global-land-mask`` package (sea vs land per hex).

Usage (from the repository root)::

    python tools/build_map.py tools/normandy_features.yaml
    python tools/build_map.py tools/normandy_features.yaml --out x.json --png x.png

Build-time only: numpy, global-land-mask and matplotlib (the ``build-maps`` extra) are imported
here and nowhere in the game. The output is deterministic: same inputs, same bytes.

Hex geometry: flat-top hexes in columns, id ``CCRR`` (column, row, both from 01), odd-numbered
columns half a hex lower ("odd-q"), all from ``wargame.hexgrid``.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import heapq
import json
import math
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from wargame.hexgrid import DIRECTIONS, Hex, hex_round  # noqa: E402

SQ3 = math.sqrt(3.0)
FORMAT_VERSION = 1
FLAGS = ("village", "fortification", "airfield")


# --------------------------------------------------------------------------------------------
# Hex ids (odd-q: odd-numbered columns half a hex lower)
# --------------------------------------------------------------------------------------------
def hex_from_id(hex_id: str) -> Hex:
    return Hex.from_id(str(hex_id))


def hex_id(h: Hex) -> str:
    return h.id


def col_row(h: Hex) -> tuple[int, int]:
    return h.col, h.row


def centre(h: Hex) -> tuple[float, float]:
    """Pixel centre (hex radius 1, y downwards): x = 1.5 col, y = sqrt3 (row + col odd / 2)."""
    col, row = col_row(h)
    return 1.5 * col, SQ3 * (row + 0.5 * (col & 1))


def hex_at(fcol: float, fy: float) -> Hex:
    """Hex containing the fractional point (column, y) with y = row + 0.5 in odd columns."""
    return hex_round(fcol, fy - fcol / 2.0)


def neighbours(h: Hex) -> list[Hex]:
    return h.neighbours()


# --------------------------------------------------------------------------------------------
# Georeferenced fit: (lon, lat) <-> (column, y)
# --------------------------------------------------------------------------------------------
class Fit:
    """Affine fit stored as in ``normandy_fit.json`` (docs/map-sources.md).

    Local kilometres ``e = (lon - lon0) * k * cos(lat0)``, ``s = (lat0 - lat) * k`` (east,
    south, k = 111.32 km per degree) map by ``M`` and ``t`` to ``(u, y)`` where ``u`` is the
    column times sqrt(3)/2 (hex-centre spacing 1) and ``y`` the row plus 0.5 in odd columns.
    """

    KM_PER_DEG = 111.32

    def __init__(self, spec: dict):
        self.m = [list(map(float, r)) for r in spec["M"]]
        self.t = list(map(float, spec["t"]))
        self.lat0 = float(spec["lat0"])
        self.lon0 = float(spec["lon0"])
        self.kx = self.KM_PER_DEG * math.cos(math.radians(self.lat0))
        (a, b), (c, d) = self.m
        det = a * d - b * c
        self.inv = [[d / det, -b / det], [-c / det, a / det]]

    def to_hex_plane(self, lon: float, lat: float) -> tuple[float, float]:
        e = (lon - self.lon0) * self.kx
        s = (self.lat0 - lat) * self.KM_PER_DEG
        u = self.m[0][0] * e + self.m[0][1] * s + self.t[0]
        y = self.m[1][0] * e + self.m[1][1] * s + self.t[1]
        return u / (SQ3 / 2.0), y

    def to_lonlat(self, fcol, fy):
        """Inverse; works elementwise on numpy arrays too."""
        u = fcol * (SQ3 / 2.0) - self.t[0]
        y = fy - self.t[1]
        e = self.inv[0][0] * u + self.inv[0][1] * y
        s = self.inv[1][0] * u + self.inv[1][1] * y
        return self.lon0 + e / self.kx, self.lat0 - s / self.KM_PER_DEG

    def hex_of(self, lon: float, lat: float) -> Hex:
        return hex_at(*self.to_hex_plane(lon, lat))


# --------------------------------------------------------------------------------------------
# Land mask
# --------------------------------------------------------------------------------------------
def sample_offsets(n: int) -> list[tuple[float, float]]:
    """Points inside a flat-top hex of radius 1 (pixel units), a regular sub-grid."""
    pts = []
    step = 1.0 / n
    for i in range(-2 * n, 2 * n + 1):
        for j in range(-2 * n, 2 * n + 1):
            x = i * step * 0.75
            y = j * step * SQ3 / 2 + (i % 2) * step * SQ3 / 4
            # inside flat-top hex of radius 0.98
            ax, ay = abs(x), abs(y)
            if ay <= SQ3 / 2 * 0.98 and SQ3 * ax + ay <= SQ3 * 0.98:
                pts.append((x, y))
    return pts


def land_fractions(board: list[Hex], fit: Fit, samples: int) -> dict[str, float]:
    import numpy as np
    from global_land_mask import globe

    offs = np.array(sample_offsets(samples))
    cx = np.array([centre(h)[0] for h in board])
    cy = np.array([centre(h)[1] for h in board])
    px = cx[:, None] + offs[None, :, 0]
    py = cy[:, None] + offs[None, :, 1]
    lon, lat = fit.to_lonlat(px / 1.5, py / SQ3)
    land = globe.is_land(lat.ravel(), lon.ravel()).reshape(lon.shape)
    frac = land.mean(axis=1)
    return {hex_id(h): round(float(f), 4) for h, f in zip(board, frac, strict=True)}


# --------------------------------------------------------------------------------------------
# Geometry helpers
# --------------------------------------------------------------------------------------------
def point_in_polygon(x: float, y: float, poly: list[tuple[float, float]]) -> bool:
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xi > x:
                inside = not inside
    return inside


def seg_distance(p, a, b) -> float:
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / ll))
    qx, qy = ax + t * dx, ay + t * dy
    return math.hypot(px - qx, py - qy)


def vertex_key(hexes) -> tuple[str, ...]:
    return tuple(sorted(hex_id(h) if isinstance(h, Hex) else str(h) for h in hexes))


def hex_vertices(h: Hex) -> list[tuple[str, ...]]:
    ns = [h + d for d in DIRECTIONS]
    return [vertex_key((h, ns[i], ns[(i + 1) % 6])) for i in range(6)]


def vertex_xy(key: tuple[str, ...]) -> tuple[float, float]:
    pts = [centre(hex_from_id(k)) for k in key]
    return sum(p[0] for p in pts) / 3.0, sum(p[1] for p in pts) / 3.0


def vertex_neighbours(key: tuple[str, ...]):
    """The three vertices joined to ``key`` by a hexside, with that hexside's two hex ids."""
    hs = [hex_from_id(k) for k in key]
    out = []
    for i in range(3):
        a, b = hs[i], hs[(i + 1) % 3]
        c = hs[(i + 2) % 3]
        # the other vertex of side a|b: the common neighbour of a and b that is not c
        common = [n for n in a.neighbours() if n in set(b.neighbours()) and n != c]
        out.append((vertex_key((a, b, common[0])), tuple(sorted((hex_id(a), hex_id(b))))))
    return out


def id_valid(h: Hex) -> bool:
    col, row = col_row(h)
    return 0 <= col <= 99 and 0 <= row <= 99


# --------------------------------------------------------------------------------------------
# The builder
# --------------------------------------------------------------------------------------------
class Builder:
    def __init__(self, features: dict, base: Path, fit_path: str | None, places_path: str | None):
        self.f = features
        self.base = base
        self.log: list[str] = []
        fit_spec = features["fit"]
        if fit_path:
            fit_spec = json.loads(Path(fit_path).read_text())
        self.fit = Fit(fit_spec)
        b = features["board"]
        self.cols = range(int(b["columns"][0]), int(b["columns"][1]) + 1)
        self.rows = range(int(b["rows"][0]), int(b["rows"][1]) + 1)
        self.board = [hex_from_id(f"{c:02d}{r:02d}") for c in self.cols for r in self.rows]
        self.board_ids = {hex_id(h) for h in self.board}
        self.places: dict[str, list[str]] = {}
        self.pinned: dict[str, dict] = {}  # hex -> attributes from rule places
        self.place_coords: list[dict] = []
        self._load_places(places_path)

    # -- inputs ------------------------------------------------------------------------------
    def _load_places(self, places_path: str | None) -> None:
        rows = self.f.get("rule_places", [])
        if places_path:
            with open(places_path, newline="", encoding="utf-8") as fh:
                rows = list(csv.DictReader(fh))
        for r in rows:
            if r.get("lat") not in (None, ""):
                self.place_coords.append(r)

    def resolve(self, ref) -> Hex:
        """A waypoint: a hex id, a place name (first hex) or [lon, lat]."""
        if isinstance(ref, list | tuple):
            return self.fit.hex_of(float(ref[0]), float(ref[1]))
        text = str(ref)
        if text.isdigit() and len(text) == 4:
            return hex_from_id(text)
        if text in self.places:
            return hex_from_id(self.places[text][0])
        raise KeyError(f"unknown waypoint {ref!r}")

    def lonlat_poly(self, pts) -> list[tuple[float, float]]:
        out = []
        for p in pts:
            fcol, fy = self.fit.to_hex_plane(float(p[0]), float(p[1]))
            out.append((1.5 * fcol, SQ3 * fy))
        return out

    # -- steps -------------------------------------------------------------------------------
    def build(self) -> dict:
        f = self.f
        # 1. named places (rule-pinned first, then the other towns located by the fit)
        hex_attr: dict[str, dict] = {}

        def add_place(name: str, spec: dict, ids: list[str]) -> None:
            self.places[name] = ids
            for i in ids:
                attrs = hex_attr.setdefault(i, {})
                for k in ("terrain", *FLAGS):
                    if k in spec:
                        if k in attrs and attrs[k] != spec[k]:
                            raise ValueError(f"{name}: {k} clash at {i}: {attrs[k]} vs {spec[k]}")
                        attrs[k] = spec[k]
                if spec.get("label", True) and "name" not in attrs:
                    attrs["name"] = spec.get("name", name)

        located = []
        for name, spec in f["places"].items():
            ids = spec.get("hexes") or ([spec["hex"]] if "hex" in spec else None)
            if ids is None:
                located.append((name, spec))
                continue
            ids = [str(i) for i in ids]
            add_place(name, spec, ids)
            for i in ids:
                self.pinned[i] = spec
        # 2. land and sea
        lm = f["land"]
        frac = land_fractions(self.board, self.fit, int(lm.get("samples", 4)))
        force_sea = {str(i) for i in lm.get("force_sea", [])}
        force_land = {str(i) for i in lm.get("force_land", [])}
        for i, spec in self.pinned.items():
            if spec.get("terrain") == "sea":
                force_sea.add(i)
            elif i in self.board_ids:
                force_land.add(i)
        target = int(lm["count"])
        land = set(force_land) - force_sea
        rest = sorted(
            (i for i in self.board_ids if i not in land and i not in force_sea and frac[i] > 0),
            key=lambda i: (-frac[i], i),
        )
        need = target - len(land)
        if need < 0 or need > len(rest):
            raise ValueError(f"cannot reach {target} land hexes (pinned {len(land)})")
        chosen = rest[:need]
        land.update(chosen)
        self.threshold = (
            frac[chosen[-1]] if chosen else 1.0,
            frac[rest[need]] if need < len(rest) else 0.0,
        )
        below = sorted(i for i in land if frac[i] < self.threshold[0])
        self.log.append(
            f"land: {len(land)} hexes; effective land-fraction threshold {self.threshold[0]:.3f}"
            f" (first excluded {self.threshold[1]:.3f}); forced land below it: "
            + ", ".join(f"{i} ({frac[i]:.2f})" for i in below)
        )
        self.frac = frac
        self.land = land
        # 1b. towns the rules do not name: located through the fit, never on a rule hex
        for name, spec in located:
            i = self.land_hex_at(spec["lonlat"])
            if i in self.pinned:
                raise ValueError(f"{name} falls on rule hex {i} ({self.places_at(i)})")
            if i in hex_attr:
                self.log.append(f"{name} shares hex {i} with {self.places_at(i)}")
            add_place(name, spec, [i])
        # 3. terrain: default, areas in order, hex overrides, place terrain
        terrain: dict[str, str] = {i: "sea" for i in self.board_ids}
        for i in land:
            terrain[i] = f["default_terrain"]
        flags: dict[str, dict] = {}
        for area in f.get("areas", []):
            hits = self.area_hexes(area)
            for i in hits:
                if i in land:
                    terrain[i] = area["terrain"]
            if area.get("place"):  # a named feature (forest, hill): a place, labelled once
                ids = sorted({i for i in hits if i in land})
                self.places[area["place"]] = ids
                if ids and not hex_attr.get(ids[0], {}).get("name"):
                    hex_attr.setdefault(ids[0], {})["name"] = area["place"]
        for i, t in (f.get("hex_terrain") or {}).items():
            i = str(i)
            if i in land:
                terrain[i] = t
        for i, attrs in hex_attr.items():
            if "terrain" in attrs and i in self.board_ids:
                if attrs["terrain"] == "sea" and i in land:
                    raise ValueError(f"{i} pinned sea but chosen as land")
                terrain[i] = attrs["terrain"]
            for k in FLAGS:
                if attrs.get(k):
                    flags.setdefault(i, {})[k] = True
        for kind in FLAGS:
            for item in f.get(kind + "s", []) or []:
                i = str(item["hex"]) if "hex" in item else self.land_hex_at(item["lonlat"])
                if i not in land:
                    raise ValueError(f"{kind} {item} falls on sea hex {i}")
                flags.setdefault(i, {})[kind] = True
                if item.get("name"):
                    hex_attr.setdefault(i, {}).setdefault("name", item["name"])
                    self.places.setdefault(item["name"], [i])
        self.terrain = terrain
        # 4. hexsides, roads
        hexsides = self.build_hexsides()
        roads = self.build_roads()
        # 5. places, edges
        coast = sorted(i for i in land if self.is_coast(i))
        for name, spec in (f.get("place_groups") or {}).items():
            self.places[name] = self.place_group(spec, coast)
        edges = {}
        for name, spec in f["edges"].items():
            edges[name] = self.edge_hexes(spec)
        # 6. assemble
        hexes = {}
        for i in sorted(self.board_ids):
            rec = {"terrain": terrain[i]}
            attrs = hex_attr.get(i, {})
            if attrs.get("name"):
                rec["name"] = attrs["name"]
            for k in FLAGS:
                if flags.get(i, {}).get(k):
                    rec[k] = True
            hexes[i] = rec
        for i in self.pinned:
            if i not in hexes:
                raise ValueError(f"pinned hex {i} is off the board")
        self.check_places()
        out = {
            "format_version": FORMAT_VERSION,
            "game": f["game"],
            "provenance": self.provenance(),
            "build": {
                "tool": "tools/build_map.py",
                "inputs_sha256": self.inputs_hash,
                "land_hexes": len(land),
                "land_threshold": round(self.threshold[0], 4),
            },
            "hexes": hexes,
            "hexsides": hexsides,
            "roads": roads,
            "offmap_roads": f.get("offmap_roads", []),
            "edges": edges,
            "places": {k: self.places[k] for k in sorted(self.places)},
        }
        names = self.translated_names(hexes)
        if names:
            out["pt"] = {"names": names}
        return out

    def translated_names(self, hexes: dict) -> dict[str, str]:
        """``pt_names`` of the features: English place names -> European Portuguese, for the
        names that differ (Hill 112 -> Cota 112; wargame/localized.py). Each must be a place or
        hex name of the map."""
        raw = self.f.get("pt_names") or {}
        known = set(self.places) | {rec["name"] for rec in hexes.values() if rec.get("name")}
        for name in raw:
            if name not in known:
                raise ValueError(f"pt_names: {name!r} is not a place or hex name of the map")
        return {str(k): str(raw[k]) for k in sorted(raw)}

    def places_at(self, i: str) -> list[str]:
        return [k for k, v in self.places.items() if i in v]

    def land_hex_at(self, lonlat) -> str:
        """The hex of a point; if the fit puts it at sea, the nearest land hex (coast towns)."""
        fcol, fy = self.fit.to_hex_plane(float(lonlat[0]), float(lonlat[1]))
        h = hex_at(fcol, fy)
        if hex_id(h) in self.land:
            return hex_id(h)
        p = (1.5 * fcol, SQ3 * fy)
        cands = [n for n in h.within(2) if id_valid(n) and hex_id(n) in self.land]
        best = min(cands, key=lambda n: (math.dist(centre(n), p), hex_id(n)))
        self.log.append(f"{lonlat}: fit hex {hex_id(h)} is sea, using land hex {hex_id(best)}")
        return hex_id(best)

    def area_hexes(self, area: dict) -> list[str]:
        hits: list[str] = []
        if "polygon" in area:
            poly = self.lonlat_poly(area["polygon"])
            for h in self.board:
                if point_in_polygon(*centre(h), poly):
                    hits.append(hex_id(h))
        if "points" in area:
            for p in area["points"]:
                hits.append(hex_id(self.fit.hex_of(float(p[0]), float(p[1]))))
        for i in area.get("hexes", []) or []:
            hits.append(str(i))
        excl = {str(i) for i in area.get("except", []) or []}
        return [i for i in hits if i not in excl]

    def is_coast(self, i: str) -> bool:
        h = hex_from_id(i)
        return any(hex_id(n) in self.board_ids and self.terrain[hex_id(n)] == "sea"
                   for n in neighbours(h) if id_valid(n))

    def place_group(self, spec: dict, coast: list[str]) -> list[str]:
        if spec.get("kind") == "coast_between":
            a, b = hex_from_id(spec["from"]), hex_from_id(spec["to"])
            xa, xb = centre(a)[0], centre(b)[0]
            lo, hi = min(xa, xb), max(xa, xb)
            ya, yb = centre(a)[1], centre(b)[1]
            band = float(spec.get("max_rows_from_line", 3)) * SQ3
            excl = {str(i) for i in spec.get("except", [])}
            out = []
            for i in coast:
                x, y = centre(hex_from_id(i))
                if lo <= x <= hi and i not in excl:
                    t = 0 if xb == xa else (x - xa) / (xb - xa)
                    if abs(y - (ya + t * (yb - ya))) <= band:
                        out.append(i)
            for i in spec.get("include", []):
                out.append(str(i))
            return sorted(set(out))
        return [str(i) for i in spec["hexes"]]

    def edge_hexes(self, spec: dict) -> list[str]:
        side = spec["side"]
        out = []
        for i in sorted(self.land):
            col, row = int(i[:2]), int(i[2:])
            if side == "south" and row == self.rows[-1]:
                out.append(i)
            elif side == "east" and col == self.cols[-1]:
                out.append(i)
            elif side == "west" and col == self.cols[0]:
                out.append(i)
            elif side == "north" and row == self.rows[0]:
                out.append(i)
        for i in spec.get("add", []) or []:
            out.append(str(i))
        excl = {str(i) for i in spec.get("except", []) or []}
        return sorted({i for i in out if i not in excl})

    # -- hexsides ----------------------------------------------------------------------------
    def build_hexsides(self) -> list[dict]:
        out: list[dict] = []
        seen: dict[tuple[str, str], str] = {}
        for river in self.f.get("hexsides", []):
            sides: list[tuple[str, str]] = []
            if "path" in river:
                sides += self.route(river["path"], float(river.get("stiffness", 3.0)))
            for pair in river.get("sides", []) or []:
                a, b = (str(x) for x in pair)
                sides.append(tuple(sorted((a, b))))
            drop = {tuple(sorted(str(x) for x in p)) for p in river.get("drop", []) or []}
            for s in sides:
                a, b = s
                if s in drop:
                    continue
                if hex_from_id(a).distance(hex_from_id(b)) != 1:
                    raise ValueError(f"{river['name']}: {a}|{b} not adjacent")
                if a not in self.land or b not in self.land:
                    continue  # only land-land hexsides are rivers
                if s in seen:
                    if seen[s] != river["name"]:
                        self.log.append(f"hexside {a}|{b}: {river['name']} shares with {seen[s]}")
                    continue
                seen[s] = river["name"]
                out.append({"kind": river["kind"], "name": river["name"], "between": [a, b]})
        return out

    def waypoint_vertex(self, wp) -> list[tuple[str, ...]]:
        """A river waypoint: "AAAA/BBBB/CCCC" (a hex corner) or [lon, lat] (nearest corner)."""
        if isinstance(wp, str):
            ids = wp.split("/")
            key = vertex_key(ids)
            hs = [hex_from_id(i) for i in ids]
            if not all(a.distance(b) == 1 for a in hs for b in hs if a != b):
                raise ValueError(f"{wp}: not three mutually adjacent hexes")
            return [key]
        fcol, fy = self.fit.to_hex_plane(float(wp[0]), float(wp[1]))
        x, y = 1.5 * fcol, SQ3 * fy
        h = hex_at(fcol, fy)
        best = min(hex_vertices(h), key=lambda k: (math.dist(vertex_xy(k), (x, y)), k))
        return [best]

    def route(self, path: list, stiffness: float) -> list[tuple[str, str]]:
        pts = [self.waypoint_vertex(w)[0] for w in path]
        sides: list[tuple[str, str]] = []
        for a, b in zip(pts, pts[1:], strict=False):
            sides += self.vertex_path(a, b, stiffness)
        return sides

    def vertex_path(self, a, b, stiffness: float) -> list[tuple[str, str]]:
        pa, pb = vertex_xy(a), vertex_xy(b)
        dist = {a: 0.0}
        prev: dict = {}
        heap = [(0.0, a)]
        while heap:
            d, v = heapq.heappop(heap)
            if v == b:
                break
            if d > dist.get(v, math.inf):
                continue
            for w, side in vertex_neighbours(v):
                if not all(id_valid(hex_from_id(x)) for x in w):
                    continue
                mid = ((vertex_xy(v)[0] + vertex_xy(w)[0]) / 2, (vertex_xy(v)[1] + vertex_xy(w)[1]) / 2)
                cost = 1.0 + stiffness * seg_distance(mid, pa, pb) ** 2
                nd = d + cost
                if nd < dist.get(w, math.inf) - 1e-12:
                    dist[w] = nd
                    prev[w] = (v, side)
                    heapq.heappush(heap, (nd, w))
        sides = []
        v = b
        while v != a:
            v, side = prev[v]
            sides.append(side)
        return sides[::-1]

    # -- roads -------------------------------------------------------------------------------
    def build_roads(self) -> list[dict]:
        from wargame.hexgrid import hex_line

        out = []
        for road in self.f.get("roads", []):
            chain: list[Hex] = []
            for wp in road["via"]:
                h = self.resolve(wp)
                if not chain:
                    chain.append(h)
                    continue
                seg = hex_line(chain[-1], h)
                chain.extend(seg[1:])
            ids = [hex_id(h) for h in chain]
            for i in ids:
                if i not in self.land:
                    raise ValueError(f"road {road['name']}: hex {i} is not land")
            if len(set(ids)) != len(ids):
                raise ValueError(f"road {road['name']} revisits a hex: {ids}")
            out.append({"name": road["name"], "hexes": ids})
        return out

    # -- checks and provenance -----------------------------------------------------------------
    def check_places(self) -> None:
        for r in self.place_coords:
            h = self.fit.hex_of(float(r["lon"]), float(r["lat"]))
            for want in str(r["hex"]).split("/"):
                d = h.distance(hex_from_id(want))
                if d > 1:
                    self.log.append(f"fit: {r['name']} rule hex {want}, fit hex {hex_id(h)} ({d})")

    def provenance(self) -> str:
        return " ".join(str(self.f["provenance"]).split())


def inputs_digest(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


# --------------------------------------------------------------------------------------------
# Picture
# --------------------------------------------------------------------------------------------
COLOURS = {
    "open": "#e8e2b0",
    "city": "#b0a8a0",
    "rough": "#c9a878",
    "forest": "#4f8a3c",
    "bocage": "#a9c98a",
    "marsh": "#8fb8a8",
    "hill": "#a0784c",
    "sea": "#9cc3e6",
    "woods": "#4f8a3c",
    "mountain": "#8a6a4a",
    "border": "#cccccc",
}


def render_png(data: dict, path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection, PolyCollection

    hexes = data["hexes"]
    ids = sorted(hexes)
    polys, cols = [], []
    for i in ids:
        cx, cy = centre(hex_from_id(i))
        polys.append([(cx + math.cos(math.radians(60 * k)), -(cy + math.sin(math.radians(60 * k))))
                      for k in range(6)])
        cols.append(COLOURS.get(hexes[i]["terrain"], "#ff00ff"))
    xs = [p[0] for poly in polys for p in poly]
    ys = [p[1] for poly in polys for p in poly]
    w = (max(xs) - min(xs)) / 2.2
    h = (max(ys) - min(ys)) / 2.2
    fig, ax = plt.subplots(figsize=(w, h), dpi=110)
    ax.add_collection(PolyCollection(polys, facecolors=cols, edgecolors="#777777", linewidths=0.3))

    def side_segment(a: str, b: str):
        ha, hb = hex_from_id(a), hex_from_id(b)
        common = [n for n in ha.neighbours() if n in set(hb.neighbours())]
        p = [vertex_xy(vertex_key((ha, hb, c))) for c in common]
        return [(p[0][0], -p[0][1]), (p[1][0], -p[1][1])]

    def xy(i: str):
        x, y = centre(hex_from_id(i))
        return x, -y

    # roads
    segs = []
    for road in data["roads"]:
        pts = [xy(i) for i in road["hexes"]]
        segs += list(zip(pts, pts[1:], strict=False))
    ax.add_collection(LineCollection(segs, colors="#b02020", linewidths=1.6, zorder=3))
    # rivers and canals
    rs = [side_segment(*s["between"]) for s in data["hexsides"] if s["kind"] == "river"]
    cs = [side_segment(*s["between"]) for s in data["hexsides"] if s["kind"] == "canal"]
    ax.add_collection(LineCollection(rs, colors="#1f5fd0", linewidths=2.6, zorder=4))
    ax.add_collection(LineCollection(cs, colors="#00a0c0", linewidths=2.6, linestyles="--",
                                     zorder=4))
    # flags and names
    for i in ids:
        rec = hexes[i]
        x, y = xy(i)
        if rec.get("name"):
            ax.text(x, y + 0.62, i, ha="center", va="center", fontsize=5, color="black",
                    weight="bold")
        elif rec["terrain"] != "sea":
            ax.text(x, y + 0.62, i, ha="center", va="center", fontsize=3.6, color="#555555")
        if rec.get("fortification"):
            ax.plot([x - 0.45, x + 0.45], [y - 0.55, y - 0.55], color="black", lw=1.5, zorder=5)
        if rec.get("airfield"):
            ax.text(x + 0.45, y - 0.2, "\u2708", ha="center", va="center", fontsize=7, zorder=6)
        if rec.get("village"):
            ax.plot([x], [y], marker="s", color="#444444", ms=3, zorder=6)
        if rec["terrain"] == "city":
            ax.plot([x], [y], marker="s", color="black", ms=5, zorder=6)
        if rec.get("name"):
            ax.text(x, y - 0.33, rec["name"], ha="center", va="center", fontsize=5.2,
                    weight="bold", zorder=7,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.6})
    for name, key in (("invasion_coast", "invasion_coast"),):
        for i in data["places"].get(key, []):
            x, y = xy(i)
            ax.plot([x], [y + 0.35], marker="^", color="#d000d0", ms=3, zorder=6)
        _ = name
    for edge, ids_ in data["edges"].items():
        for i in ids_:
            x, y = xy(i)
            ax.plot([x], [y - 0.8], marker="v" if edge == "south" else ">", color="#006000",
                    ms=3, zorder=6)
    handles = [plt.Rectangle((0, 0), 1, 1, fc=COLOURS[k], ec="#777777") for k in
               ("open", "city", "rough", "forest", "bocage", "marsh", "hill", "sea")]
    labels = ["open", "city", "rough", "forest", "bocage", "marsh", "hill (cota)", "sea"]
    handles += [plt.Line2D([], [], color="#1f5fd0", lw=2.6),
                plt.Line2D([], [], color="#00a0c0", lw=2.6, ls="--"),
                plt.Line2D([], [], color="#b02020", lw=1.6),
                plt.Line2D([], [], color="black", lw=1.5),
                plt.Line2D([], [], marker="s", color="#444444", ls="none"),
                plt.Line2D([], [], marker="^", color="#d000d0", ls="none"),
                plt.Line2D([], [], marker="$\u2708$", color="black", ls="none"),
                plt.Line2D([], [], marker="v", color="#006000", ls="none")]
    labels += ["river (hexside)", "canal (hexside)", "road", "fortification", "village",
               "invasion coast", "airfield", "exit edge (south, east)"]
    ax.legend(handles, labels, loc="upper right", fontsize=7, framealpha=0.9)
    ax.set_xlim(min(xs) - 0.5, max(xs) + 0.5)
    ax.set_ylim(min(ys) - 0.5, max(ys) + 0.5)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    # fixed metadata so the PNG bytes are reproducible
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


# --------------------------------------------------------------------------------------------
def build(features_path: Path, out: Path | None, png: Path | None, fit: str | None = None,
          places: str | None = None, verbose: bool = True, render: bool = True) -> dict:
    features = yaml.safe_load(features_path.read_text(encoding="utf-8"))
    b = Builder(features, features_path.parent, fit, places)
    inputs = [features_path, Path(__file__).resolve()]
    if fit:
        inputs.append(Path(fit))
    if places:
        inputs.append(Path(places))
    b.inputs_hash = inputs_digest(inputs)
    data = b.build()
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n"
    out = out or (REPO / features["output"]["map"])
    png = png or (REPO / features["output"]["png"])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    if render:
        png.parent.mkdir(parents=True, exist_ok=True)
        render_png(data, png, features.get("title", features["game"]))
    if verbose:
        for line in b.log:
            print(line)
        counts: dict[str, int] = {}
        for rec in data["hexes"].values():
            counts[rec["terrain"]] = counts.get(rec["terrain"], 0) + 1
        print("terrain:", dict(sorted(counts.items())))
        print(f"wrote {out} and {png}")
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("features", type=Path, help="features YAML (e.g. tools/normandy_features.yaml)")
    ap.add_argument("--out", type=Path, help="map.json path (default: features output.map)")
    ap.add_argument("--png", type=Path, help="PNG path (default: features output.png)")
    ap.add_argument("--fit", help="fit JSON replacing the features' inline fit")
    ap.add_argument("--places", help="places CSV replacing the features' inline rule_places")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    build(args.features, args.out, args.png, args.fit, args.places, verbose=not args.quiet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
