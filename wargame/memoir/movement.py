"""Moving ordered units.

Rules: M44 p.6 Move (infantry 2, armour 3, artillery 1; cards that change it), p.17 Terrain
(entering terrain that stops a move or forbids battle), Bunkers, Sandbags (removed when the
unit leaves), Overlord Omaha Beach (exiting the board for a medal).
"""

from __future__ import annotations

from wargame.errors import MovementRefused, WrongPhase, refuse
from wargame.hexgrid import Hex

from . import rules
from .actions import NO_MOVE_CARDS, R_MOVE, Action, Event, Unit, _m44
from .board import other_side
from .position import StateBase

__all__ = ["MovementMixin"]

_NO_HEXES: frozenset[int] = frozenset()
# unit id -> hex -> Action("move", ...): actions are values, made once (speed only)
_MOVE_ACTIONS: dict[int, dict[Hex, Action]] = {}


def _move_action(made: dict[Hex, Action], uid: int, h: Hex) -> Action:
    a = made[h] = Action("move", unit=uid, hex=h)
    return a


class MovementMixin(StateBase):
    """The move phase (and Behind Enemy Lines' second move)."""

    # ------------------------------------------------------------------ movement
    def max_move(self, u: Unit) -> int:
        effect = self.ctx.effect
        if effect in NO_MOVE_CARDS:
            return 0
        if effect == "behind_enemy_lines" and u.kind == "inf":
            return 3
        if effect == "infantry_assault" and u.kind == "inf":
            return 3
        if effect == "artillery_bombard" and u.kind == "gun":
            return 3
        return {"inf": 2, "tank": 3, "gun": 1}[u.kind]

    def move_options(self, uid: int) -> dict[Hex, int]:
        """Destinations of unit ``uid``'s move now and their cost (hexes of movement).

        Cached (speed only): a result stays valid while the unit, the phase, the card and the
        wire are the same and no unit appeared or left within reach of the unit (its longest
        move; paths of that length stay within that distance)."""
        return self._move_entry(uid)[1]

    def _move_actions(self, uid: int) -> list[Action]:
        """The move actions of unit ``uid`` (``move_options`` as actions; shared list)."""
        entry = self._move_entry(uid)
        acts = entry[2].get(uid)
        if acts is None:
            made = _MOVE_ACTIONS.get(uid)
            if made is None:
                made = _MOVE_ACTIONS[uid] = {}
            acts = entry[2][uid] = [made.get(h) or _move_action(made, uid, h)
                                    for h in entry[1]]
        return acts

    def _move_entry(self, uid: int) -> list:
        """[positions version, destinations, unit id -> their actions] (speed only)."""
        u = self.units[uid]
        key = (uid, u.hex, self.phase, self.ctx.effect, len(self.wire))
        cache = self.__dict__.get("_moves")
        if cache is None:
            cache = self.__dict__["_moves"] = {}
        version = self._positions
        hit = cache.get(key)
        if hit is not None and hit[0] == version:
            return hit
        result, acts = self._reach_entry(u)
        if len(cache) > 256:
            cache.clear()
        entry = cache[key] = [version, result, acts]
        return entry

    def _move_options(self, uid: int) -> dict[Hex, int]:
        return self._reach_entry(self.units[uid])[0]

    def _reach_entry(self, u: Unit) -> tuple[dict[Hex, int], dict[int, list[Action]]]:
        """The destinations of ``u``'s move (and a table of their actions by unit id), from a
        table shared by every game of the scenario: the result is a pure function of the
        unit's kind, hex and move length and of the units and wire within that length (paths
        of that length stay within that distance). Shared: callers must not change them."""
        if u.kind == "gun" and self.board.at(u.hex).bunker:
            return {}, {}  # M44 Bunkers: artillery starting in a bunker may not leave it
        limit = self.max_move(u)
        if self.phase == "battle":
            limit = 3  # Behind Enemy Lines second move
        st = rules.static_of(self.scenario)
        i = st.index.get(u.hex)
        if i is None or limit <= 0:
            return {}, {}
        if limit > 3:  # no card moves further today; the plain search if one ever does
            return rules.reachable(self._terrain(ignore=u), u.kind, u.hex, limit), {}
        # only the hexes the search may enter count (the start is never re-entered)
        zone = st.reach_zone.get((u.kind, limit, i))
        if zone is None:
            enter = st.i_enter[u.kind]
            zone = st.reach_zone[(u.kind, limit, i)] = frozenset(
                j for j in st.within[limit][i] if enter[j] and j != i)
        near = zone & self._occupied_ix()
        wire = zone & self._wire_ix(st) if self.wire else _NO_HEXES
        key = (u.kind, i, limit, near, wire)
        memo = st.reach_memo
        hit = memo.get(key)
        if hit is None:
            if len(memo) > 50_000:
                memo.clear()
            hit = memo[key] = (rules.reach_ix(st, u.kind, i, limit, near, wire), {})
        return hit

    def _wire_ix(self, st: rules._Static) -> frozenset[int]:
        """The wire hexes as board index numbers (cached while the wire set has the same
        object and size: wire is only ever removed during a game)."""
        wire = self.wire
        hit = self.__dict__.get("_wire")
        if hit is None or hit[0] is not wire or hit[1] != len(wire) or hit[2] is not st:
            ix = st.index
            hit = self.__dict__["_wire"] = (wire, len(wire), st,
                                            frozenset(ix[h] for h in wire if h in ix))
        return hit[3]

    def _movable(self) -> list[int]:
        ctx = self.ctx
        if self.phase == "move":
            return [uid for uid in ctx.ordered
                    if uid not in ctx.moved and self.units[uid].alive]
        if self.phase == "battle" and ctx.effect == "behind_enemy_lines":
            # M44 Appendix 4 Behind Enemy Lines: "As restrições do movimento no terreno e
            # combate ainda se aplicam" -- a unit that entered woods, hedgerows, a village or
            # wire this turn (moving or taking ground) "tem de parar e não se pode mover mais
            # nessa jogada" (M44 Appendix 2 Terrain, p.17 on: Woods, Wire): no second move
            return [uid for uid in ctx.ordered if self.units[uid].alive
                    and uid in ctx.battled and not ctx.second_move_done
                    and uid not in ctx.stopped]
        return []

    def _do_move(self, a: Action) -> list[Event]:
        if a.kind == "end_moves":
            self.phase = "battle"
            return []
        if a.kind == "exit":
            return self._exit_unit(a)
        if a.kind != "move":
            raise refuse(WrongPhase, "memoir.phase.move", R_MOVE, memoir_action=a.kind)
        return self._move_unit(a)

    def _can_exit(self, uid: int) -> bool:
        """Overlord Omaha Beach victory conditions: a unit of ``exit_medals`` side leaving the
        board by the enemy's edge scores a medal and is removed. We let an ordered unit that
        starts its move on the enemy's home row step off the board as its move."""
        side = self.scenario.opt("exit_medals")
        u = self.units.get(uid)
        return (bool(side) and u is not None and u.alive and u.side == side
                and self.phase == "move" and uid in self._movable()
                and u.hex.r == self.board.home_row(other_side(side)))

    def _exit_unit(self, a: Action) -> list[Event]:
        if not self._can_exit(a.unit):
            raise refuse(MovementRefused, "memoir.exit.refused", "M44 Overlord Omaha Beach")
        u = self.units[a.unit]
        frm = u.hex
        ev = self._leave_hex(u)
        self.place(u, None)
        self.ctx.moved[u.id] = 1
        self.medal_units[u.side].append([u.id, 1])
        return [Event("exited", {"unit": u.id, "frm": _m44(frm), "side": u.side})] + ev

    def _move_unit(self, a: Action) -> list[Event]:
        if a.unit not in self._movable():
            raise refuse(MovementRefused, "memoir.move.not_movable", R_MOVE, unit=a.unit)
        opts = self.move_options(a.unit)
        if a.hex not in opts:
            raise refuse(MovementRefused, "memoir.move.cannot_reach", R_MOVE, unit=a.unit,
                         hex=_m44(a.hex))
        u = self.units[a.unit]
        frm = u.hex
        ev = self._leave_hex(u)
        self.place(u, a.hex)
        if self.phase == "battle":
            self.ctx.second_move_done = True
            self.ctx.battles[u.id] = 0
        else:
            self.ctx.moved[u.id] = opts[a.hex]
            if self.board.terrain(a.hex) in rules.NO_BATTLE_TERRAIN:
                self.ctx.entered.append(u.id)
            if self.board.terrain(a.hex) in rules.STOP_TERRAIN or a.hex in self.wire:
                self.ctx.stopped.append(u.id)  # M44 Terrain, Wire: may move no further
        ev.insert(0, Event("moved", {"unit": u.id, "frm": _m44(frm), "to": _m44(a.hex)}))
        return ev

    def _leave_hex(self, u: Unit) -> list[Event]:
        # M44 Sandbags: removed when the unit leaves the hex.
        if u.hex in self.sandbags:
            self.sandbags.discard(u.hex)
            return [Event("sandbags_removed", {"hex": _m44(u.hex)})]
        return []
