"""Where the units are and what they are worth: positions, stacks, zones of engagement,
strengths, movement allowances, board edges, encirclement and dominant terrain.

Rules: CN/OD 4.1.1 (stacking room), 4.1.2 (zones of engagement, dominant terrain), 4.2.1
(German reinforcements' entry-turn movement), 4.2.2 (permitted board edges), 5.1.3
(encirclement), 7.0 (reduced strengths); BFN 19.5 (the commando movement class).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from wargame.hexgrid import Hex
from wargame.operational.combat import terrain_columns
from wargame.operational.state_protocol import RulesBase


class BoardQueries(RulesBase):
    """Read-only questions about the position, shared by every rule area."""

    @property
    def rule_prefix(self) -> str:
        return self.game.rule_prefix

    @property
    def naval_rule(self) -> str:
        naval = self.game.rule("naval_support") or {}
        return naval.get("rule", f"{self.rule_prefix} 10.0")

    @property
    def landing_rule(self) -> str:
        """The rule cited for landings from the sea (CN 11.1.1; OD 5.3 for Dragoon)."""
        return (self.game.rule("setup_landings") or {}).get("rule", "CN 11.1.1")

    @staticmethod
    def other(side: str) -> str:
        return "axis" if side == "allied" else "allied"

    def position(self, uid: str) -> Hex | None:
        us = self.units[uid]
        return us.hex if us.status == "on_map" else None

    def landing_hex(self, uid: str) -> Hex | None:
        us = self.units[uid]
        return us.hex if us.status == "at_sea" else None

    def _positions_changed(self) -> None:
        """Every change of where a unit stands (hex or status) calls this: the position caches
        (occupancy, occupied hexes, zones of engagement, movement obstacles) are dropped."""
        self._cache.clear()

    def edited(self) -> None:
        """Call after setting a position's fields by hand rather than through ``apply`` (a
        test's or a bench's position, a unit put back to wait): the position caches are
        dropped, so every query reads the fields as they are now."""
        self._cache.clear()

    @contextmanager
    def position_unchanged(self) -> Iterator[None]:
        """Inside ``apply``, a block that only reads the position (the checks before a move)
        may use the position caches; they are dropped when it ends."""
        applying = self._applying
        self._applying = False
        try:
            yield
        finally:
            self._applying = applying
            self._cache.clear()

    def units_at(self, h: Hex) -> list[str]:
        return list(self.occupancy().get(h, ()))

    def occupancy(self) -> dict[Hex, list[str]]:
        """Hex -> units on it. Cached between actions (positions change only inside apply)."""
        cache = self._cache.get("occ")
        if cache is not None:
            return cache
        occ: dict[Hex, list[str]] = {}
        for uid, us in self.units.items():
            h = us.hex  # (not us.at: this loop is the hottest reader of positions)
            if us.status == "on_map" and h is not None:  # an on-map unit always has a hex
                occ.setdefault(h, []).append(uid)
        self._cache["occ"] = occ  # dropped by _positions_changed when a unit moves
        return occ

    def side_of(self, uid: str) -> str:
        return self.game.units[uid].side

    def occupied_by(self, side: str) -> set[Hex]:
        key = ("occupied", side)
        cache = self._cache.get(key)
        if cache is not None:
            return cache
        units = self.game.units
        out = {h for h, uids in self.occupancy().items() if units[uids[0]].side == side}
        self._cache[key] = out
        return out

    def zoc_of(self, side: str) -> set[Hex]:
        """CN/OD 4.1.2: the six hexes around every unit of ``side``."""
        key = ("zoc", side)
        cache = self._cache.get(key)
        if cache is not None:
            return cache
        zoc: set[Hex] = set()
        board = self.game.board
        for h in self.occupied_by(side):
            zoc.update(board.neighbours(h))
        self._cache[key] = zoc
        return zoc

    def engaged(self, uid: str) -> bool:
        h = self.position(uid)
        if h is None:
            return False
        enemy = self.occupied_by(self.other(self.side_of(uid)))
        return any(n in enemy for n in self.game.board.neighbours(h))

    def attack_of(self, uid: str) -> int:
        d = self.game.units[uid]
        return d.reduced_attack if self.units[uid].reduced else d.attack

    def defence_of(self, uid: str) -> int:
        d = self.game.units[uid]
        return d.reduced_defence if self.units[uid].reduced else d.defence

    def unit_type(self, uid: str):
        return self.game.tables.unit_type(self.game.units[uid].type)

    def movement_of(self, uid: str) -> tuple[int, str]:
        """(movement points, movement class) this phase; CN 4.2.1: German reinforcements have
        MP 10 and move as motorized on their entry turn."""
        d = self.game.units[uid]
        us = self.units[uid]
        if us.entered_turn == self.turn:
            entry = self.entry_turn_movement(uid)
            if entry is not None:
                return entry
        return d.movement, self.game.hooks.movement_class(self, uid, self.unit_type(uid).movement_class)  # BFN 19.5

    def entry_turn_movement(self, uid: str) -> tuple[int, str] | None:
        """CN 4.2.1 observation: "todas as unidades de reforço alemãs têm poder de movimentação
        igual a 10" on their entry turn: reinforcements of the rule's side only, not units that
        left by an edge and come back (CN 4.2.2: ``entry_edge`` is set when a unit leaves)."""
        entry = self.game.rule("entry_turn_movement")
        if not entry or self.game.units[uid].side != entry["side"] or self.units[uid].entry_edge is not None:
            return None
        if not any(r.unit == uid for r in self.game.scenario.reinforcements):
            return None
        return int(entry["movement"]), str(entry["movement_class"])

    def stack_room(self, h: Hex, side: str, exclude: str | None = None) -> int:
        """CN/OD 4.1.1: how many more units of ``side`` the hex may hold (``exclude``: a unit
        not counted, the one moving)."""
        units = self.game.units
        n = 0
        for u in self.occupancy().get(h, ()):
            if u != exclude and units[u].side == side:
                n += 1
        return self.game.scenario.stacking_limit - n

    def allowed_edges(self, side: str) -> tuple[str, ...]:
        exits = self.game.rule("exits", {}) or {}
        return tuple(exits.get(side, ()))

    def encircled(self, h: Hex, side: str) -> bool:
        """CN/OD 5.1.3: no adjacent hex free of enemy zones of engagement to retreat to, and no
        permitted board edge to leave by."""
        if any(e in self.allowed_edges(side) for e in self.game.board.edge_of.get(h, ())):
            return False
        enemy = self.other(side)
        zoc = self.zoc_of(enemy)
        occupied = self.occupied_by(enemy)
        for n in self.game.board.neighbours(h):
            if self.game.board.is_land(n) and n not in zoc and n not in occupied:
                return False
        return True

    def _hex_columns(self, h: Hex) -> int:
        return terrain_columns(self, h)[0]

    def dominant(self, h: Hex, enemy_hexes: list[Hex]) -> bool:
        """CN/OD 4.1.2: dominant terrain = more defensive columns than every engaging enemy."""
        mine = self._hex_columns(h)
        return all(mine > self._hex_columns(e) for e in enemy_hexes)

    def no_retreat_places(self, h: Hex, side: str) -> list[tuple[dict[str, Any], tuple[Hex, ...]]]:
        """The ``no_retreat`` rules (CN 5.1.2 Caen, OD 5.3 Toulon and Marseille) of ``side``
        whose place holds ``h``, each with the place's hexes."""
        out = []
        for rule in self.game.rule("no_retreat", []) or []:
            hexes = tuple(self.game.board.places.get(rule["place"], ()))
            if rule["side"] == side and h in hexes:
                out.append((rule, hexes))
        return out

    def may_stay_engaged(self, h: Hex, side: str, enemy_hexes: list[Hex]) -> bool:
        """CN/OD 4.1.2: ``side``'s units that began engaged at ``h`` and do not move may stay
        there without attacking: dominant terrain, or CN 5.1.2's second Caen clause (Germans
        in one Caen hex "não precisam recuar" while the Allies hold the other, read as no
        withdrawal from the engagement either: docs/rules-notes.md, "Caen")."""
        if self.dominant(h, enemy_hexes):
            return True
        return any(rule.get("other_hex_held") and any(o != h and o in enemy_hexes for o in hexes)
                   for rule, hexes in self.no_retreat_places(h, side))
