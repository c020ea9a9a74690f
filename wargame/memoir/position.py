"""Where the units are and what it is worth: the core of a Memoir '44 state.

Rules: M44 p.14 Victory (medals: eliminated enemy units and objectives held, permanent
objectives once taken), M44 p.17 Terrain (the board's terrain, sandbags and wire under the
units). The caches here are for speed only.
"""

from __future__ import annotations

import copy
from typing import Any, Self

from wargame.dice import DICE_VERSION, Dice
from wargame.hexgrid import Hex
from wargame.protocol import Outcome

from . import rules
from .actions import Action, Event, GameSpec, Unit
from .board import ALLIES, AXIS
from .context import PendingDecision, PlayedCard, TurnContext
from .scenario import Scenario
from .state_protocol import RulesBase

__all__ = ["StateBase"]


class StateBase(RulesBase):
    """The state's data, its position queries and medals (the mixins add the rules)."""

    def __init__(self, game: GameSpec, seed: int, dice_version: int = DICE_VERSION) -> None:
        self.game = game
        self.seed = seed
        self.dice = Dice(seed, dice_version)
        self.units: dict[int, Unit] = {}
        self.sandbags: set[Hex] = set()
        self.wire: set[Hex] = set()
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.hands: dict[str, list[int]] = {AXIS: [], ALLIES: []}
        self.medal_units: dict[str, list[list[int]]] = {AXIS: [], ALLIES: []}
        self.permanent: dict[str, str] = {}  # objective index -> side that took it
        self.active: str = game.scenario.starts
        self.turn = 1
        self.side_turns: dict[str, int] = {AXIS: 0, ALLIES: 0}
        self.phase = "card"
        self.ctx = TurnContext()
        self.pending: list[PendingDecision] = []  # the last one is answered first
        self.last_played: dict[str, PlayedCard | None] = {AXIS: None, ALLIES: None}
        self.winner: str | None = None
        self.win_reason: str = ""
        self.history: list[Action] = []
        self.setup_events: list[Event] = []
        # Bumped whenever one of this state's units moves, dies or appears (``place``,
        # ``set_figures``, ``add_unit``): the caches of who is where are keyed on it.
        self._positions = 0
        # speed only: (positions version, units, hex -> unit, board index numbers or None,
        # live units by side or None)
        self._occ: tuple | None = None

    # ------------------------------------------------------------------ basics
    @property
    def scenario(self) -> Scenario:
        return self.game.scenario

    @property
    def board(self):
        return self.game.scenario.board

    # ------------------------------------------------------------------ the game protocol
    @property
    def side_to_act(self) -> str | None:
        if self.winner:
            return None
        if self.pending:
            return self.pending[-1].owner
        return self.active

    @property
    def is_terminal(self) -> bool:
        return self.winner is not None

    @property
    def action_log(self) -> list[dict[str, Any]]:
        return [a.to_dict() for a in self.history]


    def outcome(self) -> Outcome:
        """M44 p.14 Victory: the first side to its medal count wins."""
        scores = {ALLIES: self.medals(ALLIES), AXIS: self.medals(AXIS)}
        losses = {side: sum(1 for u in self.units.values() if u.side == side and not u.alive)
                  for side in scores}
        return Outcome(self.winner, scores, self.win_reason or "M44 p.14 Victory medals",
                       self.winner is not None, losses)

    def fingerprint(self) -> dict[str, Any]:
        """A plain-JSON summary of the position, compared after replaying a save."""
        return {
            "turn": self.turn,
            "active": self.active,
            "phase": self.phase,
            "units": {str(u.id): [u.hex.q, u.hex.r, u.figures] if u.hex else [None, None, u.figures]
                      for u in sorted(self.units.values(), key=lambda u: u.id)},
            "hands": {k: sorted(v) for k, v in sorted(self.hands.items())},
            "medals": {ALLIES: self.medals(ALLIES), AXIS: self.medals(AXIS)},
            "dice_draws": self.dice.draws,
            "winner": self.winner,
        }

    # ------------------------------------------------------------------ changing units
    def place(self, u: Unit, h: Hex | None) -> None:
        """Put unit ``u`` on hex ``h`` (``None``: off the board)."""
        old = u.hex
        object.__setattr__(u, "hex", h)
        self._positions += 1
        if u.figures > 0 and old is not None:
            self._occ_update(u, old, h)

    def set_figures(self, u: Unit, n: int) -> None:
        """Set the figures of unit ``u``; at 0 it no longer counts as on the board."""
        dies_or_revives = (n <= 0) != (u.figures <= 0)
        dies = n <= 0 < u.figures
        object.__setattr__(u, "figures", n)
        if dies_or_revives:
            self._positions += 1
            if dies and u.hex is not None:
                self._occ_update(u, u.hex, None)

    def _occ_update(self, u: Unit, old: Hex, new: Hex | None) -> None:
        """The occupancy cache after live unit ``u`` left ``old`` for ``new`` (``None``: off
        the board or dead), as new objects (callers may hold the old ones); when the cache
        was not current or the move is unusual it is left to be rebuilt (speed only)."""
        occ = self._occ
        if occ is None or occ[0] != self._positions - 1 or occ[1] is not self.units:
            return
        table = occ[2]
        if table.get(old) is not u or (new is not None and new in table):
            return
        index = rules.static_of(self.scenario).index
        table = dict(table)
        del table[old]
        occ_ix = set(occ[3])
        i = index.get(old)
        if i is not None:
            occ_ix.discard(i)
        by_side = occ[4]
        if new is None:
            by_side = {k: [x for x in v if x is not u] for k, v in by_side.items()}
        else:
            table[new] = u
            i = index.get(new)
            if i is not None:
                occ_ix.add(i)
        self._occ = (self._positions, self.units, table, occ_ix, by_side)

    def add_unit(self, u: Unit) -> None:
        """A new unit (airdrops, positions built in tests)."""
        self.units[u.id] = u
        self._positions += 1

    def occupancy(self) -> dict[Hex, Unit]:
        """hex -> live unit (cached until a unit moves or loses figures)."""
        occ = self._occ
        if occ is None or occ[0] != self._positions or occ[1] is not self.units:
            index = rules.static_of(self.scenario).index
            table: dict[Hex, Unit] = {}
            occ_ix: set[int] = set()
            alive: list[Unit] = []
            for u in self.units.values():
                h = u.hex
                if h is not None and u.figures > 0:
                    table[h] = u
                    alive.append(u)
                    i = index.get(h)
                    if i is not None:
                        occ_ix.add(i)
            by_side = {None: alive, AXIS: [u for u in alive if u.side == AXIS],
                       ALLIES: [u for u in alive if u.side == ALLIES]}
            occ = self._occ = (self._positions, self.units, table, occ_ix, by_side)
        return occ[2]

    def _occupied_ix(self) -> set[int]:
        """The occupied hexes as board index numbers (cached with ``occupancy``)."""
        self.occupancy()
        return self._occ[3]

    def unit_at(self, h: Hex) -> Unit | None:
        occ = self._occ
        if occ is not None and occ[0] == self._positions and occ[1] is self.units:
            return occ[2].get(h)
        return self.occupancy().get(h)

    def live_units(self, side: str | None = None) -> list[Unit]:
        """Units on the board (of ``side``), in id order (a new list: callers may change it)."""
        self.occupancy()  # refreshes the cache below when units moved, died or appeared
        return list(self._occ[4][side])

    def _terrain(self, ignore: Unit | None = None) -> rules.Terrainish:
        occ = self.occupancy()
        if ignore is None:
            # the same object while the position, the obstacles' sets and the scenario are
            # (speed only; read-only for callers)
            t = self.__dict__.get("_terr")
            if (t is not None and t.occupied is occ and t.sandbags is self.sandbags
                    and t.wire is self.wire and t.scenario is self.scenario):
                return t
            t = rules.Terrainish(self.scenario, occ, self.sandbags, self.wire)
            t.occupied_ix = self._occ[3]
            self.__dict__["_terr"] = t
            return t
        t = rules.Terrainish(self.scenario, occ, self.sandbags, self.wire)
        index = rules.static_of(self.scenario).index
        occ_ix = self._occupied_ix()
        if ignore is not None and ignore.alive:
            occ = dict(occ)
            occ.pop(ignore.hex, None)
            t.occupied = occ
            occ_ix = occ_ix - {index.get(ignore.hex)}
        t.occupied_ix = occ_ix
        return t

    def medals(self, side: str) -> int:
        """Medals of ``side`` now: eliminated (or exited) enemy units plus objectives."""
        key = (side, self._positions, len(self.medal_units[side]), len(self.permanent))
        cached = self.__dict__.get("_medal_cache")
        if cached is not None and key in cached:
            return cached[key]
        total = self._medals(side)
        if cached is None or len(cached) > 8:
            cached = self.__dict__["_medal_cache"] = {}
        cached[key] = total
        return total

    def _medals(self, side: str) -> int:
        total = sum(n for _, n in self.medal_units[side])
        held: set[Hex] | None = None  # the hexes of side's units on the board
        for i, obj in enumerate(self.scenario.objectives):
            if obj.side != side:
                continue
            if obj.permanent:
                if self.permanent.get(str(i)) == side:
                    total += obj.medals
                continue
            if held is None:
                self.occupancy()
                held = {u.hex for u in self._occ[4][side]}
            if not held.isdisjoint(obj.hexes):
                total += obj.medals
        return total

    # ------------------------------------------------------------------ copy / json
    def clone(self) -> Self:
        """An independent copy: changing it (applying actions, editing its fields) leaves this
        state as it was. Each mutable field is copied as deep as it is ever changed in place
        (units, the containers of the turn, the hands...); immutable values (hexes, the
        frozen records of the turn: pending decisions, played cards) are shared; the caches
        start empty. An attribute this method does not know is deep-copied."""
        new = type(self).__new__(type(self))
        d = new.__dict__
        for k, v in self.__dict__.items():
            copier = _CLONE.get(k)
            if copier is not None:
                d[k] = copier(v)
            elif k in _CACHES:
                d[k] = {} if k == "_moves" else None
            elif v is None or type(v) in _ATOMIC:
                d[k] = v
            else:
                d[k] = copy.deepcopy(v)
        return new

    # ------------------------------------------------------------------ display
    def summary(self) -> str:
        lines = [f"{self.scenario.title}: turn {self.turn}, {self.active} to play, phase "
                 f"{self.phase}; medals Axis {self.medals(AXIS)}/{self.scenario.medals[AXIS]},"
                 f" Allies {self.medals(ALLIES)}/{self.scenario.medals[ALLIES]}"]
        if self.winner:
            lines.append(f"winner: {self.winner}{self.win_reason}")
        return "\n".join(lines)



def _copy_dice(d: Dice) -> Dice:
    if type(d) is not Dice:
        return copy.deepcopy(d)  # test doubles (scripted dice)
    return d.copy()


def _copy_unit(u: Unit) -> Unit:
    """A copy of unit ``u`` (frozen, but ``place`` and ``set_figures`` change it in place)."""
    new = object.__new__(type(u))
    new.__dict__.update(u.__dict__)
    return new


def _copy_lists(d: dict) -> dict:
    """A dict of lists of immutable values (hands) or of [unit, medals] pairs (medal_units)."""
    return {k: [x[:] if type(x) is list else x for x in v] for k, v in d.items()}


# ``StateBase.clone``: how each attribute is copied (speed only: ``copy.deepcopy`` of a whole
# state was most of the cost of a bot's play-out, issue #33)
_CLONE: dict[str, Any] = {
    "game": lambda v: v,  # immutable: the rules and the scenario
    "dice": _copy_dice,
    "units": lambda v: {k: _copy_unit(u) for k, u in v.items()},
    "sandbags": set,
    "wire": set,
    "deck": list,
    "discard": list,
    "history": list,  # of immutable actions
    "setup_events": list,
    "pending": list,  # of frozen PendingDecision
    "hands": _copy_lists,
    "medal_units": _copy_lists,
    "permanent": dict,  # str -> str
    "side_turns": dict,  # str -> int
    "last_played": dict,  # str -> frozen PlayedCard or None
    "ctx": TurnContext.copy,
}
# the caches of who is where, legal moves... (speed only): a copy starts without them
_CACHES = frozenset({"_occ", "_moves", "_fits", "_targets", "_medal_cache", "_checked",
                     "_terr", "_wire"})
_ATOMIC = (int, str, float, bool)
