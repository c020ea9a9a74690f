"""Control of places and victory points.

Rules: CN/OD 11.2 (victory points: cities, units destroyed, units and divisions exited,
other cities, units on the map), CN 11.2.2 (a third of German losses forgiven), OD 11.2.1
(divisions exited intact), CN 9.0 (Mulberry landing hexes count as objectives).
"""

from __future__ import annotations

from typing import Any

from wargame.hexgrid import Hex
from wargame.operational.state_protocol import RulesBase
from wargame.protocol import Outcome


class VictoryRules(RulesBase):
    """Control and victory points (CN/OD 11.2)."""

    def outcome(self) -> Outcome:
        """CN/OD 11.2: the side with more victory points wins (equal points: a draw); while
        the game goes on this is the score if it ended now (``final`` False)."""
        vp = self.victory_points()
        scores = {"allied": int(vp["allied"]), "axis": int(vp["axis"])}
        winner = None if scores["allied"] == scores["axis"] else max(scores, key=scores.__getitem__)
        losses = dict.fromkeys(scores, 0)
        for uid, us in self.units.items():
            if us.status == "eliminated":
                losses[self.side_of(uid)] += 1
        return Outcome(winner, scores, f"{self.rule_prefix} 11.2 victory points", self.is_terminal,
                       losses)

    def _objective_hexes(self) -> set[Hex]:
        hexes: set[Hex] = set()
        for v in self.game.rule("victory", []) or []:
            if v.get("kind") == "city":
                hexes.update(self.game.board.places.get(v["place"], ()))
        for h, info in self.game.board.hexes.items():
            if info.airfield or (info.terrain == "city"):
                hexes.add(h)
        for m in self.game.hooks.mulberry_harbours(self.game, self.game.rule("mulberries")):  # BFN 19.4: chosen beaches
            hexes.add(Hex.from_id(m["landing"]))
        return hexes

    def _take_control(self, h: Hex, side: str) -> None:
        if h in self.control and self.control[h] != side:
            self.control[h] = side
            name = self.game.board.place_name(h)
            if name:
                self._emit("control", "", side=side.capitalize(), place=f"{name} ({h.id})")
        elif h not in self.control and (self.game.board.hexes[h].airfield or self.game.board.hexes[h].terrain == "city"):
            self.control[h] = side

    def victory_points(self) -> dict[str, Any]:
        """CN 11.2 / OD 11.2, computed from the state at any moment (breakdown included)."""
        score = {"allied": 0, "axis": 0}
        lines: list[tuple[str, str, int]] = []
        board = self.game.board
        counted_hexes: set[Hex] = set()
        exits = self.flags.get("exits", [])
        for v in self.game.rule("victory", []) or []:
            kind = v["kind"]
            if kind == "city":
                hexes = board.places.get(v["place"], ())
                counted_hexes.update(hexes)
                for side, pts in v["points"].items():
                    held = sum(1 for h in hexes if self.control.get(h) == side)
                    if held:
                        # docs/rules-notes.md: a city of two hexes is shared by hexes held.
                        value = pts * held // len(hexes)
                        score[side] += value
                        lines.append((side, v["place"], value))
            elif kind == "destroyed":
                dead = [u for u, us in self.units.items() if us.status == "eliminated" and self.side_of(u) == v["side"]]
                n = len(dead)
                if v.get("forgive_third"):
                    n -= n // 3  # CN 11.2.2: the German player removes 1/3 of his losses
                score[v["scorer"]] += n * v["points"]
                lines.append((v["scorer"], f"{v['side']} units destroyed x{n}", n * v["points"]))
            elif kind == "exited":
                n = sum(1 for e in exits if self.side_of(e["unit"]) == v["side"] and e["edge"] in v["edges"]
                        and (e["intact"] or not v.get("intact")))
                score[v["scorer"]] += n * v["points"]
                lines.append((v["scorer"], f"{v['side']} units exited x{n}", n * v["points"]))
            elif kind == "divisions_exited":
                # OD 11.2.1: a division that left by the edge intact and with all its elements
                # (every piece exited there, none reduced when it left).
                out = {e["unit"]: e for e in exits if e["edge"] in v["edges"]}
                n = 0
                for div in sorted(self.game.divisions):
                    members = self.game.scenario.division_units(div)
                    if not members or self.side_of(members[0]) != v["side"]:
                        continue
                    if all(m in out and (out[m]["intact"] or not v.get("intact")) for m in members):
                        n += 1
                score[v["scorer"]] += n * v["points"]
                lines.append((v["scorer"], f"{v['side']} divisions exited x{n}", n * v["points"]))
            elif kind == "other_cities":
                n = sum(1 for h, info in board.hexes.items() if info.terrain == "city" and h not in counted_hexes
                        and self.control.get(h) == v["scorer"])
                score[v["scorer"]] += n * v["points"]
                lines.append((v["scorer"], f"other cities x{n}", n * v["points"]))
            elif kind == "on_map":
                n = sum(1 for u, us in self.units.items() if us.status == "on_map" and self.side_of(u) == v["side"])
                score[v["scorer"]] += n * v["points"]
                lines.append((v["scorer"], f"{v['side']} units on the map x{n}", n * v["points"]))
            elif kind == "none_left":
                n = sum(1 for u, us in self.units.items() if us.status == "on_map" and self.side_of(u) == v["side"])
                if n == 0:
                    score[v["scorer"]] += v["points"]
                    lines.append((v["scorer"], f"no {v['side']} unit left", v["points"]))
        return {"allied": score["allied"], "axis": score["axis"], "lines": lines}
