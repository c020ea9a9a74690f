"""Memoir '44 as state, legal actions and events.

``MemoirGame`` (scenario + rule options, immutable) creates ``MemoirState`` objects. A state
lists ``legal_actions()`` for the side to act (``to_act``); ``apply(action)`` returns the events
it caused or raises ``IllegalAction`` (reason and rule) leaving the state unchanged. Decisions
that interrupt a turn (ambush, retreat path, take ground, Recon keep-1) are pending decisions
owned by one side. All randomness comes from the state's seeded ``wargame.dice.Dice``.

Turn sequence (M44 p.5 Game Play): 1 play a command card, 2 order units, 3 move, 4 battle,
5 draw a command card.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

from wargame.dice import Dice
from wargame.errors import GameOver, IllegalAction, MalformedAction
from wargame.hexgrid import Hex
from wargame.protocol import Decision, Outcome

from . import rules
from .board import (
    ALLIES,
    AXIS,
    CENTER,
    LEFT,
    RIGHT,
    SECTIONS,
    hex_to_m44,
    other_side,
    player_section,
)
from .cards import DECK, card
from .dice import FACES, STAR, UNIT_SYMBOL, count_hits
from .scenario import Scenario, load_scenario
from .text import render

__all__ = [
    "FORMAT_VERSION",
    "Action",
    "Event",
    "IllegalAction",
    "Unit",
    "MemoirGame",
    "MemoirState",
    "auto_action",
    "random_action",
]

FORMAT_VERSION = 1


@dataclass(frozen=True)
class Action:
    """One decision. ``kind`` names it; the other fields are its arguments."""

    kind: str
    unit: int | None = None
    hex: Hex | None = None
    card: int | None = None
    option: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        if self.unit is not None:
            d["unit"] = self.unit
        if self.hex is not None:
            d["hex"] = [self.hex.q, self.hex.r]
        if self.card is not None:
            d["card"] = self.card
        if self.option is not None:
            d["option"] = self.option
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Action:
        h = d.get("hex")
        return cls(d["kind"], d.get("unit"), Hex(*h) if h is not None else None,
                   d.get("card"), d.get("option"))

    def __str__(self) -> str:
        parts = [self.kind]
        if self.card is not None:
            ok = isinstance(self.card, int) and 0 <= self.card < len(DECK)
            parts.append(card(self.card).title if ok else f"card {self.card}")
        if self.unit is not None:
            parts.append(f"unit {self.unit}")
        if self.hex is not None:
            parts.append(f"{hex_to_m44(self.hex)}")
        if self.option:
            parts.append(self.option)
        return " ".join(parts)


@dataclass(frozen=True)
class Event:
    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return render(self.kind, self.data)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data}


# Bumped whenever any unit moves, dies or appears: states cache "who is where" against it.
_POSITIONS = [0]


@dataclass
class Unit:
    id: int
    side: str
    kind: str  # inf, tank, gun
    hex: Hex | None
    figures: int
    max_figures: int
    special: str | None = None  # special, resistance, elite

    def __setattr__(self, name: str, value: Any) -> None:
        # who is where changes with the hex, or with figures only when the unit dies/revives
        if name == "hex" or (name == "figures" and (value <= 0) != (
                self.__dict__.get("figures", 0) <= 0)):
            _POSITIONS[0] += 1
        object.__setattr__(self, name, value)

    @property
    def alive(self) -> bool:
        return self.hex is not None and self.figures > 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "side": self.side, "kind": self.kind,
            "hex": None if self.hex is None else [self.hex.q, self.hex.r],
            "figures": self.figures, "max_figures": self.max_figures, "special": self.special,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Unit:
        h = d["hex"]
        return cls(d["id"], d["side"], d["kind"], None if h is None else Hex(*h), d["figures"],
                   d["max_figures"], d.get("special"))


def _m44(h: Hex | None) -> str:
    if h is None:
        return "-"
    r, c = hex_to_m44(h)
    return f"({r},{c})"


@dataclass(frozen=True)
class MemoirGame:
    """Scenario plus rule options; immutable."""

    scenario: Scenario
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def from_scenario(cls, scenario_id: str | int, **options: Any) -> MemoirGame:
        return cls(load_scenario(scenario_id), tuple(sorted(options.items())))

    def option(self, name: str, default: Any = None) -> Any:
        return dict(self.options).get(name, default)

    def new_initial_state(self, seed: int = 0) -> MemoirState:
        return MemoirState.new(self, seed)

    # ------------------------------------------------------------------ the game protocol
    kind: ClassVar[str] = "memoir"

    @property
    def scenario_id(self) -> str:
        return f"memoir44-{self.scenario.id}"

    @property
    def sides(self) -> tuple[str, str]:
        return (ALLIES, AXIS)

    def options_json(self) -> dict[str, Any]:
        return {"options": dict(self.options)}

    def new_state(self, seed: int = 0) -> MemoirState:
        return MemoirState.new(self, seed)

    def action_from_dict(self, data: Any) -> Action:
        """An action back from its JSON form; ``MalformedAction`` when it is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise MalformedAction(f"a Memoir '44 action is a mapping with a 'kind', not {data!r:.80}")
        try:
            action = Action.from_dict(data)
        except (TypeError, ValueError, KeyError) as exc:
            raise MalformedAction(f"not a Memoir '44 action: {exc}") from None
        for name in ("unit", "card"):
            value = getattr(action, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise MalformedAction(f"'{name}' must be a whole number, not {value!r:.40}")
        if action.option is not None and not isinstance(action.option, str):
            raise MalformedAction(f"'option' must be text, not {action.option!r:.40}")
        if action.hex is not None and not all(isinstance(c, int) and not isinstance(c, bool)
                                              for c in (action.hex.q, action.hex.r)):
            raise MalformedAction("'hex' must be two whole numbers [q, r]")
        return action


# Rules cited in IllegalAction messages.
R_TURN = "M44 p.5 Game Play"
R_CARD = "M44 p.5 Play a Command Card"
R_ORDER = "M44 p.6 Issue Orders"
R_MOVE = "M44 p.6 Move"
R_BATTLE = "M44 p.9 Battle"
R_RANGE = "M44 p.10 Combat Range"
R_LOS = "M44 p.11 Line of Sight"
R_RETREAT = "M44 p.12 Retreat"
R_TAKE = "M44 p.13 Take Ground"
R_DRAW = "M44 p.13 Draw a Command Card"
R_TERRAIN = "M44 p.17 Terrain"
R_CARDS = "M44 Appendix 4 Command Cards"

NO_MOVE_CARDS = {"close_assault", "firefight"}


class MemoirState:
    """One moment of a Memoir '44 game."""

    # ------------------------------------------------------------------ creation
    def __init__(self, game: MemoirGame, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.dice = Dice(seed)
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
        self.ctx: dict[str, Any] = {}
        self.pending: list[dict[str, Any]] = []
        self.last_played: dict[str, dict[str, Any] | None] = {AXIS: None, ALLIES: None}
        self.winner: str | None = None
        self.win_reason: str = ""
        self.history: list[Action] = []
        self.setup_events: list[Event] = []
        # speed only: (positions version, units, hex -> unit, board index numbers or None,
        # live units by side or None)
        self._occ: tuple | None = None

    @classmethod
    def new(cls, game: MemoirGame, seed: int = 0) -> MemoirState:
        st = cls(game, seed)
        sc = game.scenario
        for i, spec in enumerate(sc.units):
            st.units[i] = Unit(i, spec.side, spec.kind, spec.hex, spec.figures, spec.figures,
                               spec.special)
        walls = set().union(*(sc.opt("seawalls") or {}).values()) if sc.opt("seawalls") else set()
        for kind, h in sc.obstacles:
            if h in walls:
                continue  # Omaha Beach: sea walls are permanent sandbags for the Allies only
            (st.sandbags if kind == "sand" else st.wire).add(h)
        # M44 Game Set-up 10: shuffle the command cards and deal each side its hand.
        deck = [c.id for c in DECK]
        for i in range(len(deck) - 1, 0, -1):
            j = st.dice.die(i + 1) - 1
            deck[i], deck[j] = deck[j], deck[i]
        st.deck = deck
        for side in (sc.starts, other_side(sc.starts)):
            for _ in range(sc.cards[side]):
                st.hands[side].append(st.deck.pop())
        ev = [Event("setup", {"title": sc.title, "axis_cards": sc.cards[AXIS],
                              "allies_cards": sc.cards[ALLIES], "starts": sc.starts})]
        if sc.opt("airdrop"):
            ev += st._airdrop(sc.opt("airdrop"))
        st.setup_events = ev
        st._begin_turn()
        return st

    def _airdrop(self, spec: dict[str, Any]) -> list[Event]:
        """Sainte-Mere-Eglise special rule: drop figures; each safe one becomes a unit.

        Each figure lands on a hex drawn uniformly (seeded die) among the hexes within
        ``range`` of ``center``; off the board, on a unit or on impassable ground it is lost.
        """
        from .board import m44_to_hex

        center = m44_to_hex(*spec["center"])
        area = list(center.within(int(spec["range"])))
        t = self._terrain()
        events = []
        for n in range(1, int(spec["figures"]) + 1):
            h = area[self.dice.die(len(area)) - 1]
            occupied = {u.hex for u in self.units.values() if u.alive}
            if not self.board.on_board(h):
                where = f"off the board {_m44(h)}: lost"
            elif h in occupied:
                where = f"on an occupied hex {_m44(h)}: lost"
            elif not rules.can_enter(t, "inf", h):
                where = f"on impassable ground {_m44(h)}: lost"
            else:
                uid = max(self.units) + 1 if self.units else 0
                self.units[uid] = Unit(uid, spec["side"], "inf", h, 4, 4, None)
                where = f"safely at {_m44(h)}: unit {uid} of 4 figures"
            events.append(Event("airdrop", {"n": n, "where": where}))
        return events

    # ------------------------------------------------------------------ basics
    @property
    def scenario(self) -> Scenario:
        return self.game.scenario

    @property
    def board(self):
        return self.game.scenario.board

    @property
    def to_act(self) -> str | None:
        if self.winner:
            return None
        if self.pending:
            return self.pending[-1]["owner"]
        return self.active

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    # ------------------------------------------------------------------ the game protocol
    @property
    def side_to_act(self) -> str | None:
        return self.to_act

    @property
    def is_terminal(self) -> bool:
        return self.winner is not None

    @property
    def action_log(self) -> list[dict[str, Any]]:
        return [a.to_dict() for a in self.history]

    @property
    def pending_decision(self) -> Decision | None:
        if not self.pending or self.winner:
            return None
        p = self.pending[-1]
        kind = p.get("kind", "decision")
        return Decision(kind, p["owner"], _PENDING_PROMPT.get(kind, kind),
                        _PENDING_RULE.get(kind, R_TURN), tuple(self.legal_actions()), p.get("unit"))

    def outcome(self) -> Outcome:
        """M44 p.14 Victory: the first side to its medal count wins."""
        scores = {ALLIES: self.medals(ALLIES), AXIS: self.medals(AXIS)}
        return Outcome(self.winner, scores, self.win_reason or "M44 p.14 Victory medals",
                       self.winner is not None)

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

    def occupancy(self) -> dict[Hex, Unit]:
        """hex -> live unit (cached until a unit moves or loses figures)."""
        occ = self._occ
        if occ is None or occ[0] != _POSITIONS[0] or occ[1] is not self.units:
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
            occ = self._occ = (_POSITIONS[0], self.units, table, occ_ix, by_side)
        return occ[2]

    def _occupied_ix(self) -> set[int]:
        """The occupied hexes as board index numbers (cached with ``occupancy``)."""
        self.occupancy()
        return self._occ[3]

    def unit_at(self, h: Hex) -> Unit | None:
        return self.occupancy().get(h)

    def live_units(self, side: str | None = None) -> list[Unit]:
        """Units on the board (of ``side``), in id order (a new list: callers may change it)."""
        self.occupancy()  # refreshes the cache below when units moved, died or appeared
        return list(self._occ[4][side])

    def _terrain(self, ignore: Unit | None = None) -> rules.Terrainish:
        occ = self.occupancy()
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
        key = (side, _POSITIONS[0], len(self.medal_units[side]), len(self.permanent))
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
        for i, obj in enumerate(self.scenario.objectives):
            if obj.side != side:
                continue
            if obj.permanent:
                if self.permanent.get(str(i)) == side:
                    total += obj.medals
            elif any((u := self.unit_at(h)) is not None and u.side == side for h in obj.hexes):
                total += obj.medals
        return total

    # ------------------------------------------------------------------ copy / json
    def clone(self) -> MemoirState:
        new = MemoirState.__new__(MemoirState)
        for k, v in self.__dict__.items():
            if k == "dice":
                new.dice = _copy_dice(v)
            elif k == "game":
                new.game = v
            elif k in ("history", "setup_events"):
                new.__dict__[k] = list(v)
            elif k in ("_occ", "_moves", "_fits", "_targets", "_medal_cache", "_checked"):
                new.__dict__[k] = {} if k == "_moves" else None
            else:
                new.__dict__[k] = copy.deepcopy(v)
        return new

    def to_json(self) -> dict[str, Any]:
        return {
            "format_version": FORMAT_VERSION,
            "game": "memoir44",
            "scenario": self.scenario.id,
            "options": dict(self.game.options),
            "seed": self.seed,
            "dice": self.dice.to_dict(),
            "units": [u.to_dict() for u in self.units.values()],
            "sandbags": sorted([h.q, h.r] for h in self.sandbags),
            "wire": sorted([h.q, h.r] for h in self.wire),
            "deck": list(self.deck),
            "discard": list(self.discard),
            "hands": {k: list(v) for k, v in self.hands.items()},
            "medal_units": copy.deepcopy(self.medal_units),
            "permanent": dict(self.permanent),
            "active": self.active,
            "turn": self.turn,
            "side_turns": dict(self.side_turns),
            "phase": self.phase,
            "ctx": copy.deepcopy(self.ctx),
            "pending": copy.deepcopy(self.pending),
            "last_played": copy.deepcopy(self.last_played),
            "winner": self.winner,
            "win_reason": self.win_reason,
            "history": [a.to_dict() for a in self.history],
            "setup_events": [e.to_dict() for e in self.setup_events],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], game: MemoirGame | None = None) -> MemoirState:
        if data.get("format_version") != FORMAT_VERSION:
            raise ValueError(f"unsupported memoir state format {data.get('format_version')!r}")
        if game is None:
            game = MemoirGame.from_scenario(data["scenario"], **data.get("options", {}))
        st = cls(game, data["seed"])
        st.dice = Dice.from_dict(data["dice"])
        st.units = {d["id"]: Unit.from_dict(d) for d in data["units"]}
        st.sandbags = {Hex(*p) for p in data["sandbags"]}
        st.wire = {Hex(*p) for p in data["wire"]}
        st.deck = list(data["deck"])
        st.discard = list(data["discard"])
        st.hands = {k: list(v) for k, v in data["hands"].items()}
        st.medal_units = copy.deepcopy(data["medal_units"])
        st.permanent = dict(data["permanent"])
        st.active = data["active"]
        st.turn = data["turn"]
        st.side_turns = dict(data["side_turns"])
        st.phase = data["phase"]
        st.ctx = copy.deepcopy(data["ctx"])
        st.pending = copy.deepcopy(data["pending"])
        st.last_played = copy.deepcopy(data["last_played"])
        st.winner = data["winner"]
        st.win_reason = data.get("win_reason", "")
        st.history = [Action.from_dict(a) for a in data["history"]]
        st.setup_events = [Event(e["kind"], e["data"]) for e in data.get("setup_events", [])]
        return st

    @classmethod
    def replay(cls, game: MemoirGame, seed: int, actions: list[Action]) -> tuple[
            MemoirState, list[Event]]:
        st = game.new_initial_state(seed)
        events = list(st.setup_events)
        for a in actions:
            events += st.apply(a)
        return st, events

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action, validate: bool = True) -> list[Event]:
        """Play ``action``; returns its events. Illegal: ``IllegalAction``, state unchanged.

        ``validate=False`` skips the legality check, like python-chess's ``Board.push``: only
        for an action just taken from ``legal_actions()`` of this very state (playouts).
        """
        if self.winner:
            raise GameOver("the game is over", R_TURN)
        if not isinstance(action, Action):
            raise MalformedAction(f"not a Memoir '44 action: {action!r:.80}", R_TURN)
        if not validate or action in self._legal_for(action):
            # Legal: apply in place (legal actions never raise; the property tests check it).
            events = self._apply(action)
            self.history.append(action)
            return events
        # Illegal: find the specific reason on a throw-away copy; this state is unchanged.
        self.clone()._apply(action)  # raises the specific IllegalAction if there is one
        raise IllegalAction(f"{action} is not one of the legal actions "
                            f"(unexpected arguments?)", R_TURN)

    def _apply(self, a: Action) -> list[Event]:
        ev: list[Event] = []
        if self.pending:
            ev += self._answer_pending(a)
        else:
            handler = {
                "card": self._do_card,
                "order": self._do_order,
                "move": self._do_move,
                "battle": self._do_battle,
                "medics": self._do_medics,
                "air": self._do_air,
                "barrage": self._do_barrage_phase,
            }.get(self.phase)
            if handler is None:
                raise IllegalAction(f"no action possible in phase {self.phase}", R_TURN)
            ev += handler(a)
        ev += self._continue()
        return ev

    # ------------------------------------------------------------------ turn flow
    def _begin_turn(self) -> None:
        self.phase = "card"
        self.ctx = {}
        self.side_turns[self.active] += 1

    def _continue(self) -> list[Event]:
        """Run queued automatic steps until a decision is needed."""
        ev: list[Event] = []
        while not self.pending and not self.winner:
            queue = self.ctx.get("queue")
            if queue:
                item = queue.pop(0)
                ev += self._resolve_queued(item)
                continue
            if self.ctx.get("end_turn"):
                self.ctx.pop("end_turn")
                ev += self._end_turn()
                continue
            if self.ctx.get("finish_turn"):
                self.ctx.pop("finish_turn")
                ev += self._finish_turn()
                continue
            break
        # objectives and medals change only when units move, die or score (speed only)
        key = (_POSITIONS[0], len(self.medal_units[AXIS]), len(self.medal_units[ALLIES]),
               len(self.permanent), id(self.units))
        if self.winner or self.__dict__.get("_checked") != key:
            ev += self._check_objectives()
            ev += self._check_victory()
            self.__dict__["_checked"] = key
        return ev

    def _end_turn(self) -> list[Event]:
        """M44 p.13 Draw a Command Card: discard, then draw (ambusher first)."""
        ev: list[Event] = []
        ctx = self.ctx
        for cid in ctx.get("discard_after", []):
            self.discard.append(cid)
        ctx["discard_after"] = []
        if ctx.get("card") is not None:
            self.discard.append(ctx["card"])
            ctx["played_card"] = ctx["card"]
            ctx["card"] = None
        if ctx.get("effect") == "finest_hour" and not self.scenario.opt("no_reshuffle"):
            # Their Finest Hour: reshuffle the deck and the discards.
            ev += self._reshuffle()
        ambusher = ctx.get("ambush_by")
        if ambusher:
            ev += self._draw(ambusher, 1)
            if self.winner:
                return ev
        n = 1
        sched = (self.scenario.opt("draw_schedule") or {}).get(self.active) or {}
        n = int(sched.get(self.side_turns[self.active], n))
        if ctx.get("effect") == "recon" and not ctx.get("recon_alt"):
            # Recon: draw two, keep one. A scenario that draws n > 1 (Pegasus Bridge): the
            # first n - 1 as usual, the last one by Recon's draw-2-keep-1.
            if n > 1:
                ev += self._draw(self.active, n - 1)
                if self.winner:
                    return ev
            drawn: list[int] = []
            tail: list[Event] = []
            for _ in range(2):
                cid = self._take_from_deck(tail)
                if cid is None:
                    break
                drawn.append(cid)
                if self.winner:
                    break
            ev += [e for e in tail if e.kind == "reshuffle"]
            if len(drawn) == 2 and not self.winner:
                self.pending.append({"kind": "keep", "owner": self.active, "cards": drawn})
                ev.append(Event("draw", {"side": self.active, "count": 2}))
                return ev
            self.hands[self.active] += drawn
            ev.append(Event("draw", {"side": self.active, "count": len(drawn)}))
            ev += [e for e in tail if e.kind != "reshuffle"]
            if self.winner:
                return ev
        else:
            ev += self._draw(self.active, n)
            if self.winner:
                return ev
        ctx["finish_turn"] = True
        return ev

    def _finish_turn(self) -> list[Event]:
        ev = [Event("turn_end", {"side": self.active, "turn": self.turn})]
        ev += self._check_objectives()
        # Toulon / Saverne Gap: sudden death at the end of the side's own turn.
        for sd in self.scenario.opt("sudden_death") or ():
            if sd["side"] != self.active:
                continue
            held = sum(1 for h in sd["hexes"]
                       if (u := self.unit_at(h)) is not None and u.side == sd["side"])
            if held >= sd["required"]:
                self.winner = sd["side"]
                self.win_reason = " (sudden death)"
                ev.append(Event("victory", {"side": self.winner, "medals": self.medals(
                    self.winner), "why": self.win_reason}))
                return ev
        ev += self._check_victory()
        if self.winner:
            return ev
        self.active = other_side(self.active)
        self.turn += 1
        self._begin_turn()
        return ev

    def _take_from_deck(self, ev: list[Event]) -> int | None:
        if not self.deck:
            if self.scenario.opt("no_reshuffle") or not self.discard:
                self._deck_out(ev)
                return None
            ev += self._reshuffle()
        return self.deck.pop()

    def _deck_out(self, ev: list[Event]) -> None:
        """Vassieux special rule: the deck is never reshuffled; when it runs out and the
        Allies have not won, the scenario's ``deck_exhausted_winner`` wins. "Runs out" is read
        as BGA does (Cards.php pickForLocation): a card must be drawn and none is left."""
        winner = self.scenario.opt("deck_exhausted_winner")
        if winner and not self.winner:
            self.winner = winner
            self.win_reason = " (command deck exhausted)"
            self.pending = []
            ev.append(Event("deck_exhausted", {}))
            ev.append(Event("victory", {"side": winner, "medals": self.medals(winner),
                                        "why": self.win_reason}))

    def _draw(self, side: str, n: int) -> list[Event]:
        got = 0
        tail: list[Event] = []
        for _ in range(n):
            cid = self._take_from_deck(tail)
            if cid is None:
                break
            self.hands[side].append(cid)
            got += 1
            if self.winner:
                break
        return ([e for e in tail if e.kind == "reshuffle"]
                + [Event("draw", {"side": side, "count": got})]
                + [e for e in tail if e.kind != "reshuffle"])

    def _reshuffle(self) -> list[Event]:
        """M44 p.13: when the deck runs out, shuffle the discards into a new deck."""
        pile = self.deck + self.discard
        self.discard = []
        for i in range(len(pile) - 1, 0, -1):
            j = self.dice.die(i + 1) - 1
            pile[i], pile[j] = pile[j], pile[i]
        self.deck = pile
        return [Event("reshuffle", {})]

    # ------------------------------------------------------------------ victory
    def _check_objectives(self) -> list[Event]:
        ev = []
        for i, obj in enumerate(self.scenario.objectives):
            if not obj.permanent or str(i) in self.permanent:
                continue
            for h in obj.hexes:
                u = self.unit_at(h)
                if u is not None and u.side == obj.side:
                    self.permanent[str(i)] = obj.side
                    ev.append(Event("objective", {"side": obj.side, "how": "takes",
                                                  "hex": _m44(h)}))
                    break
        return ev

    def _check_victory(self) -> list[Event]:
        if self.winner:
            return []
        for side in (self.active, other_side(self.active)):
            m = self.medals(side)
            if m >= self.scenario.medals[side]:
                self.winner = side
                self.win_reason = ""
                self.pending = []
                return [Event("victory", {"side": side, "medals": m, "why": ""})]
        return []

    # ------------------------------------------------------------------ card phase
    def playable_cards(self) -> list[Action]:
        side = self.active
        hand = self.hands[side]
        out = []
        for cid in hand:
            c = card(cid)
            if c.name == "ambush":
                continue
            if c.name == "counter_attack":
                last = self.last_played[other_side(side)]
                if not last or last["effect"] == "ambush":
                    continue
            if c.name == "infantry_assault":
                for sec in SECTIONS:
                    out.append(Action("play", card=cid, option=sec))
                continue
            out.append(Action("play", card=cid))
            if c.name == "recon":
                if self._recon_air_power_ok(side):
                    out.append(Action("play", card=cid, option="air_power"))
                if self.scenario.opt("recon_as_barrage"):
                    out.append(Action("play", card=cid, option="barrage"))
        if not out:
            # Only an Ambush in hand: it may be discarded as a turn with no orders.
            out = [Action("play", card=cid) for cid in hand]
        return out

    def _recon_air_power_ok(self, side: str) -> bool:
        rap = self.scenario.opt("recon_as_air_power")
        if not rap or rap["side"] != side:
            return False
        return any((u := self.unit_at(h)) is not None and u.side == side for h in rap["hexes"])

    def _do_card(self, a: Action) -> list[Event]:
        if a.kind != "play":
            raise IllegalAction(f"play a command card first, not {a.kind!r}", R_CARD)
        if a.card not in self.hands[self.active]:
            raise IllegalAction(f"card {a.card} is not in {self.active}'s hand", R_CARD)
        if a not in self.playable_cards():
            raise IllegalAction(f"{card(a.card).title} cannot be played that way", R_CARDS)
        c = card(a.card)
        self.hands[self.active].remove(a.card)
        self.ctx = {"card": a.card, "ordered": [], "moved": {}, "battles": {}, "bonus": {},
                    "entered": [], "overrun": [], "queue": [], "battled": []}
        note = f" ({a.option})" if a.option else ""
        ev = [Event("card_played", {"side": self.active, "card": c.title, "note": note})]
        if c.name == "counter_attack":
            last = dict(self.last_played[other_side(self.active)])
            effect, option = last["effect"], last.get("option")
            if effect == "recon" and option:
                # Counter-Attack copies the printed card, not a scenario's alternative use.
                option = None
                last["option"] = None
            self.ctx["counter"] = True
            spec = last
        else:
            effect, option = c.name, a.option
            spec = {"effect": effect, "option": option, "card": a.card}
            if c.is_section:
                # Section names on the card are the player's; store the board's.
                spec["slots"] = [
                    {"sections": [_board_section(s, self.active)], "count": n}
                    for s, n in c.per_section
                ]
            elif effect == "infantry_assault":
                spec["infantry_section"] = _board_section(option, self.active)
        self.last_played[self.active] = spec
        self.ctx["effect"] = effect
        if option in ("air_power", "barrage") and effect == "recon":
            # Mortain Hill 317 / Overlord: Recon played as Air Power or Barrage.
            self.ctx["recon_alt"] = option
            effect = option
            self.ctx["effect"] = option
            if option == "air_power":
                self.ctx["air_section"] = spec["slots"][0]["sections"][0]
        ev += self._start_effect(effect, spec)
        return ev

    def _start_effect(self, effect: str, spec: dict[str, Any]) -> list[Event]:
        side = self.active
        ctx = self.ctx
        ev: list[Event] = []
        if effect == "ambush":
            ctx["end_turn"] = True
            return ev
        if effect == "air_power":
            self.phase = "air"
            ctx["air_targets"] = []
            return ev
        if effect == "barrage":
            self.phase = "barrage"
            return ev
        if effect == "medics_mechanics":
            self.phase = "medics"
            return ev
        slots: list[dict[str, Any]]
        if "slots" in spec and effect not in _TACTIC_SLOTS:
            slots = copy.deepcopy(spec["slots"])
        elif effect == "infantry_assault":
            slots = [{"sections": [spec["infantry_section"]], "kinds": ["inf"], "count": None}]
        elif effect == "finest_hour":
            n = len(self.hands[side]) + 1  # cards in hand including this one
            faces = [FACES[self.dice.d6()] for _ in range(n)]
            ev.append(Event("finest_hour", {"faces": ", ".join(faces)}))
            slots = []
            n_inf = faces.count("infantry")
            n_tank = faces.count("armor")
            n_star = faces.count(STAR)
            if n_inf:
                slots.append({"kinds": ["inf"], "count": n_inf})
            if n_tank:
                slots.append({"kinds": ["tank"], "count": n_tank})
            if n_star:
                slots.append({"count": n_star})
            ctx["bonus_all"] = 1
        else:
            slots = copy.deepcopy(_TACTIC_SLOTS[effect])
        if effect in ("armor_assault",):
            ctx["bonus_close"] = 1
        if effect in ("close_assault", "firefight", "behind_enemy_lines"):
            ctx["bonus_all"] = 1
        ctx["slots"] = slots
        # "If you do not command any unit of that type, issue an order to 1 unit of your choice."
        if effect in _FALLBACK_ONE and not any(self._fits_any_slot(u, slots)
                                               for u in self.live_units(side)):
            # M44 Appendix 4: the fallback is a plain order, without the card's own abilities
            # (no Dig-In sandbags, Armor Assault die, Behind Enemy Lines moves ...).
            ctx["slots"] = [{"count": 1}]
            ctx["effect"] = "fallback"
            ctx.pop("bonus_close", None)
            ctx.pop("bonus_all", None)
        self.phase = "order"
        return ev

    # ------------------------------------------------------------------ order phase
    def _fits_slot(self, u: Unit, slot: dict[str, Any]) -> bool:
        if u.side != self.active or not u.alive:
            return False
        if "kinds" in slot and u.kind not in slot["kinds"]:
            return False
        if "sections" in slot and self.board.board_sections(u.hex).isdisjoint(slot["sections"]):
            return False
        flt = slot.get("filter")
        if flt == "adjacent" and not self._adjacent_enemies(u):
            return False
        if flt == "not_adjacent" and self._adjacent_enemies(u):
            return False
        return True

    def _fits_any_slot(self, u: Unit, slots: list[dict[str, Any]]) -> bool:
        return any(self._fits_slot(u, s) for s in slots)

    def _assignable(self, uids: list[int],
                    fits: dict[int, list[int]] | None = None) -> bool:
        """Can these units all be ordered by the card's slots? (small bipartite matching)

        ``fits`` caches unit id -> indices of the slots it fits (``_orderable``)."""
        slots = self.ctx["slots"]
        caps = [s.get("count") for s in slots]
        options = []
        for uid in uids:
            if fits is not None and uid in fits:
                opts = fits[uid]
            else:
                u = self.units[uid]
                opts = [i for i, s in enumerate(slots) if self._fits_slot(u, s)]
                if fits is not None:
                    fits[uid] = opts
            if not opts:
                return False
            options.append(opts)
        if len(slots) == 1:
            return caps[0] is None or len(uids) <= caps[0]
        order = sorted(range(len(uids)), key=lambda i: len(options[i]))
        used = [0] * len(slots)

        def place(k: int) -> bool:
            if k == len(order):
                return True
            for si in options[order[k]]:
                if caps[si] is None or used[si] < caps[si]:
                    used[si] += 1
                    if place(k + 1):
                        return True
                    used[si] -= 1
            return False

        return place(0)

    def _orderable(self) -> list[int]:
        ordered = self.ctx["ordered"]
        # which slots each unit fits does not change during the order phase (nothing moves)
        key = (self.turn, self.active, _POSITIONS[0], id(self.ctx["slots"]))
        cached = self.__dict__.get("_fits")
        if cached is None or cached[0] != key:
            cached = (key, {})
            self.__dict__["_fits"] = cached
        fits = cached[1]
        slots = self.ctx["slots"]
        if len(slots) == 1:  # one slot (most cards): room left, then the units that fit it
            cap = slots[0].get("count")
            if cap is not None and len(ordered) >= cap:
                return []
            out = []
            for u in self.live_units(self.active):
                if u.id in ordered:
                    continue
                opts = fits.get(u.id)
                if opts is None:
                    opts = fits[u.id] = [0] if self._fits_slot(u, slots[0]) else []
                if opts:
                    out.append(u.id)
            return out
        return [u.id for u in self.live_units(self.active)
                if u.id not in ordered and self._assignable(ordered + [u.id], fits)]

    def _do_order(self, a: Action) -> list[Event]:
        if a.kind == "order":
            if a.unit not in self.units or not self.units[a.unit].alive:
                raise IllegalAction(f"no unit {a.unit} on the board", R_ORDER)
            if a.unit in self.ctx["ordered"]:
                raise IllegalAction(f"unit {a.unit} already has an order", R_ORDER)
            if not self._assignable(self.ctx["ordered"] + [a.unit]):
                raise IllegalAction(
                    f"the card cannot order unit {a.unit} (section, type or count)", R_ORDER)
            self.ctx["ordered"].append(a.unit)
            u = self.units[a.unit]
            return [Event("ordered", {"side": self.active, "unit": u.id, "kind": u.kind,
                                      "hex": _m44(u.hex)})]
        if a.kind == "end_orders":
            return self._start_moves()
        raise IllegalAction(f"order units or end orders, not {a.kind!r}", R_ORDER)

    def _start_moves(self) -> list[Event]:
        ctx = self.ctx
        ev = [Event("orders_done", {"side": self.active, "count": len(ctx["ordered"])})]
        effect = ctx["effect"]
        for uid in ctx["ordered"]:
            u = self.units[uid]
            n = 1
            if effect == "artillery_bombard" and u.kind == "gun":
                n = 2  # Artillery Bombard: battle twice
            ctx["battles"][str(uid)] = n
        if effect == "dig_in":
            for uid in ctx["ordered"]:
                h = self.units[uid].hex
                if h not in self.sandbags:
                    self.sandbags.add(h)
                    ev.append(Event("sandbags_placed", {"hex": _m44(h)}))
            ctx["end_turn"] = True
            return ev
        if effect in NO_MOVE_CARDS:
            self.phase = "battle"
        else:
            self.phase = "move"
        return ev

    # ------------------------------------------------------------------ movement
    def max_move(self, u: Unit) -> int:
        effect = self.ctx.get("effect")
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
        u = self.units[uid]
        key = (uid, u.hex, self.phase, self.ctx.get("effect"), len(self.wire))
        cache = self.__dict__.setdefault("_moves", {})
        version = _POSITIONS[0]
        hit = cache.get(key)
        if hit is not None and hit[0] == version:
            return hit[2]
        st = rules.static_of(self.scenario)
        i = st.index.get(u.hex)
        radius = 3 if self.phase == "battle" else max(1, min(3, self.max_move(u)))
        near = st.within[radius][i] & self._occupied_ix() if i is not None else frozenset()
        if hit is not None and hit[1] == near:
            cache[key] = (version, near, hit[2])
            return hit[2]
        if len(cache) > 256:
            cache.clear()
        result = self._move_options(uid)
        cache[key] = (version, near, result)
        return result

    def _move_options(self, uid: int) -> dict[Hex, int]:
        u = self.units[uid]
        if self.board.at(u.hex).bunker and u.kind == "gun":
            return {}  # M44 Bunkers: artillery starting in a bunker may not leave it
        t = self._terrain(ignore=u)
        limit = self.max_move(u)
        if self.phase == "battle":
            limit = 3  # Behind Enemy Lines second move
        return rules.reachable(t, u.kind, u.hex, limit)

    def _movable(self) -> list[int]:
        ctx = self.ctx
        if self.phase == "move":
            return [uid for uid in ctx["ordered"]
                    if str(uid) not in ctx["moved"] and self.units[uid].alive]
        if self.phase == "battle" and ctx.get("effect") == "behind_enemy_lines":
            return [uid for uid in ctx["ordered"] if self.units[uid].alive
                    and uid in ctx["battled"] and not ctx.get("second_move_done")]
        return []

    def _do_move(self, a: Action) -> list[Event]:
        if a.kind == "end_moves":
            self.phase = "battle"
            return []
        if a.kind == "exit":
            return self._exit_unit(a)
        if a.kind != "move":
            raise IllegalAction(f"move units or end movement, not {a.kind!r}", R_MOVE)
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
            raise IllegalAction("only an ordered unit of the scenario's side on the enemy's "
                                "edge row may leave the board", "M44 Overlord Omaha Beach")
        u = self.units[a.unit]
        frm = u.hex
        ev = self._leave_hex(u)
        u.hex = None
        self.ctx["moved"][str(u.id)] = 1
        self.medal_units[u.side].append([u.id, 1])
        return [Event("exited", {"unit": u.id, "frm": _m44(frm), "side": u.side})] + ev

    def _move_unit(self, a: Action) -> list[Event]:
        if a.unit not in self._movable():
            raise IllegalAction(f"unit {a.unit} may not move now (not ordered or already moved)",
                                R_MOVE)
        opts = self.move_options(a.unit)
        if a.hex not in opts:
            raise IllegalAction(f"unit {a.unit} cannot reach {_m44(a.hex)} "
                                "(distance, terrain or units in the way)", R_MOVE)
        u = self.units[a.unit]
        frm = u.hex
        ev = self._leave_hex(u)
        u.hex = a.hex
        if self.phase == "battle":
            self.ctx["second_move_done"] = True
            self.ctx["battles"][str(u.id)] = 0
        else:
            self.ctx["moved"][str(u.id)] = opts[a.hex]
            if self.board.terrain(a.hex) in rules.NO_BATTLE_TERRAIN:
                self.ctx["entered"].append(u.id)
        ev.insert(0, Event("moved", {"unit": u.id, "frm": _m44(frm), "to": _m44(a.hex)}))
        return ev

    def _leave_hex(self, u: Unit) -> list[Event]:
        # M44 Sandbags: removed when the unit leaves the hex.
        if u.hex in self.sandbags:
            self.sandbags.discard(u.hex)
            return [Event("sandbags_removed", {"hex": _m44(u.hex)})]
        return []

    # ------------------------------------------------------------------ battle
    def _adjacent_enemies(self, u: Unit) -> list[Unit]:
        out = []
        for n in u.hex.neighbours():
            e = self.unit_at(n)
            if e is not None and e.side != u.side:
                out.append(e)
        return out

    def can_battle(self, u: Unit) -> tuple[bool, str]:
        ctx = self.ctx
        if u.id not in ctx.get("ordered", []) or not u.alive:
            return False, "the unit has no order"
        if ctx["battles"].get(str(u.id), 0) <= 0:
            return False, "the unit has already battled"
        if self.board.terrain(u.hex) == "ocean":
            return False, "M44 Ocean: a unit in the ocean may not battle"
        moved = ctx["moved"].get(str(u.id), 0)
        effect = ctx.get("effect")
        if u.kind == "inf":
            limit = 1
            if u.special == "special":
                limit = 2  # M44 Appendix 1 Special Forces: move 2 and battle
            if effect == "infantry_assault":
                limit = 2
            if effect == "behind_enemy_lines":
                limit = 3
            if moved > limit:
                return False, f"infantry that moved {moved} hexes may not battle"
        if u.kind == "gun" and moved > 0:
            return False, "artillery moves or battles"
        if u.id in ctx["entered"] and u.special != "resistance":
            return False, "M44 Terrain: no battle on the turn the unit entered this terrain"
        return True, ""

    def battle_dice(self, u: Unit, target: Unit, check_order: bool = True) -> tuple[int, str]:
        """Number of dice (0 if the battle is impossible) and the reason."""
        if check_order:
            ok, why = self.can_battle(u)
            if not ok:
                return 0, why
        if target.side == u.side:
            return 0, "the target is not an enemy unit"
        dist = u.hex.distance(target.hex)
        base = rules.base_dice(u.kind, dist)
        if base == 0:
            return 0, f"target out of range ({dist} hexes)"
        adj = self._adjacent_enemies(u)
        if adj and dist > 1:
            return 0, "a unit adjacent to an enemy must battle an adjacent unit"
        t = self._terrain()
        if u.kind != "gun":
            if not rules.has_line_of_sight(t, u.hex, target.hex):
                return 0, "no line of sight"
        elif self.scenario.opt("artillery_blocked_by"):
            only = frozenset(self.scenario.opt("artillery_blocked_by"))
            if not rules.has_line_of_sight(t, u.hex, target.hex, only=only):
                return 0, "no line of sight (Saverne Gap: artillery may not fire over hills)"
        wide = self.scenario.opt("wide_river")
        if wide and u.kind == "inf" and rules.crosses(u.hex, target.hex, wide):
            return 0, "Arnhem special rules: infantry may not fire across the Rhine"
        ctx = self.ctx
        bonus = ctx.get("bonus_all", 0)
        if dist == 1:
            bonus += ctx.get("bonus_close", 0) if u.kind == "tank" else 0
        if ctx.get("effect") == "close_assault" and dist != 1:
            return 0, "Close Assault: only adjacent targets"
        prot = rules.protection(t, target.hex, target.side, u.kind, u.hex)
        n = base + bonus - prot - rules.attacker_penalty(t, u.kind, u.hex)
        if n <= 0:
            return 0, "terrain leaves no dice to roll"
        return n, ""

    def battle_targets(self, uid: int) -> list[Hex]:
        u = self.units[uid]
        if not u.alive or not self.can_battle(u)[0]:
            return []
        ctx = self.ctx
        # cached while nothing that battle_dice reads can have changed (speed only)
        key = (uid, _POSITIONS[0], self.turn, ctx.get("effect"), len(self.wire),
               len(self.sandbags), ctx.get("bonus_all", 0), ctx.get("bonus_close", 0))
        cache = self.__dict__.get("_targets")
        if cache is None or len(cache) > 64:
            cache = self.__dict__["_targets"] = {}
        if key in cache:
            return list(cache[key])
        reach = len(rules.RANGE[u.kind]) - 1
        out = [e.hex for e in self.live_units(other_side(u.side))
               if u.hex.distance(e.hex) <= reach
               and self.battle_dice(u, e, check_order=False)[0] > 0]
        cache[key] = out
        return list(out)

    def _overrun_focus(self) -> int | None:
        """The armour unit whose overrun battle must come next (M44 p.13 Armor Overrun: all
        its battles are completed before the next unit battles), if it still can battle."""
        uid = self.ctx.get("overrun_now")
        if uid is None:
            return None
        u = self.units[uid]
        if not u.alive or self.ctx["battles"].get(str(uid), 0) <= 0:
            return None
        return uid if self.battle_targets(uid) else None

    def _do_battle(self, a: Action) -> list[Event]:
        if a.kind == "end_battles":
            self.ctx["end_turn"] = True
            return []
        focus = self._overrun_focus()
        if focus is not None:
            if a.kind == "skip_overrun" and a.unit == focus:
                self.ctx["overrun_now"] = None
                self.ctx["battles"][str(focus)] = 0
                return []
            if a.kind != "battle" or a.unit != focus:
                raise IllegalAction(f"unit {focus} must battle its overrun first (or give it "
                                    "up)", "M44 p.13 Armor Overrun")
            self.ctx["overrun_now"] = None
        if a.kind == "move":
            return self._move_unit(a)
        if a.kind == "remove_wire":
            u = self.units.get(a.unit)
            if u is None or u.kind != "inf" or u.hex not in self.wire:
                raise IllegalAction("only infantry on a wire hex may remove it", "M44 Wire")
            ok, why = self.can_battle(u)
            if not ok:
                raise IllegalAction(why, "M44 Wire")
            self.wire.discard(u.hex)
            self.ctx["battles"][str(u.id)] -= 1
            self.ctx["battled"].append(u.id)
            return [Event("wire_removed", {"hex": _m44(u.hex)})]
        if a.kind != "battle":
            raise IllegalAction(f"battle, remove wire or end battles, not {a.kind!r}", R_BATTLE)
        u = self.units.get(a.unit)
        if u is None or not u.alive or u.side != self.active:
            raise IllegalAction(f"no unit {a.unit} of {self.active}", R_BATTLE)
        target = self.unit_at(a.hex) if a.hex is not None else None
        if target is None:
            raise IllegalAction(f"no unit to battle at {_m44(a.hex)}", R_BATTLE)
        n, why = self.battle_dice(u, target)
        if n <= 0:
            rule = R_LOS if "sight" in why else R_RANGE if "range" in why else R_BATTLE
            raise IllegalAction(why, rule)
        ev: list[Event] = []
        if u.kind == "tank" and u.hex in self.wire:
            self.wire.discard(u.hex)  # M44 Wire: armour removes the wire and may still battle
            ev.append(Event("wire_removed", {"hex": _m44(u.hex)}))
        self.ctx["battles"][str(u.id)] -= 1
        self.ctx["battled"].append(u.id)
        dist = u.hex.distance(target.hex)
        if dist == 1:
            defender = target.side
            amb = [cid for cid in self.hands[defender] if card(cid).name == "ambush"]
            if amb and self.ctx.get("ambush_by") is None:
                self.pending.append({"kind": "ambush", "owner": defender, "attacker": u.id,
                                     "target": target.id, "card": amb[0]})
                return ev
        ev += self._attack(u, target)
        return ev

    def _attack(self, u: Unit, target: Unit) -> list[Event]:
        """Roll and resolve one battle (M44 p.12 Resolving Combat)."""
        n, why = self.battle_dice(u, target, check_order=False)
        if n <= 0:
            # The position changed (an ambush); nothing to roll.
            return [Event("attack_cancelled", {"unit": u.id})]
        dist = u.hex.distance(target.hex)
        faces = [FACES[self.dice.d6()] for _ in range(n)]
        ev = [Event("battle", {"unit": u.id, "target": _m44(target.hex), "distance": dist,
                               "dice": n, "faces": ", ".join(faces)})]
        hits = count_hits(faces, target.kind)
        flags = faces.count("flag")
        then = None
        if dist == 1 and u.kind in ("inf", "tank"):
            then = {"take_ground": u.id, "from_hex": [target.hex.q, target.hex.r]}
        ev += self._hits_and_flags(target, hits, flags, ignorable=True, then=then,
                                   scorer=u.side)
        return ev

    def _hits_and_flags(self, target: Unit, hits: int, flags: int, ignorable: bool,
                        then: dict[str, Any] | None, scorer: str) -> list[Event]:
        ev: list[Event] = []
        if hits:
            ev += self._lose(target, hits, scorer)
        if not target.alive:
            if then:
                ev += self._offer_take_ground(then)
            return ev
        t = self._terrain()
        if flags and ignorable:
            why = rules.ignorable_flags(t, target.hex, target.side)
            if why:
                flags -= 1
                ev.append(Event("flags_ignored", {"unit": target.id, "why": why[0]}))
        if flags <= 0:
            return ev
        if target.kind == "gun" and t.bunker_counts_for(target.hex, target.side):
            # M44 Bunkers: artillery in a bunker loses a figure per flag instead of retreating.
            ev += self._lose(target, flags, scorer)
            return ev
        ev += self._retreat(target, flags, then, scorer)
        return ev

    def _lose(self, u: Unit, n: int, scorer: str) -> list[Event]:
        n = min(n, u.figures)  # M44 Hits: extra hits are lost
        u.figures -= n
        ev = [Event("hits", {"unit": u.id, "hits": n, "left": u.figures})]
        if u.figures <= 0:
            ev += self._leave_hex(u)
            u.hex = None
            per = (self.scenario.opt("elimination_medals") or {}).get(u.side, {})
            medals = int(per.get(u.kind, 1))
            self.medal_units[scorer].append([u.id, medals])
            ev.append(Event("eliminated", {"unit": u.id, "side": scorer, "medals": medals}))
        return ev

    def retreat_options(self, u: Unit, flags: int) -> tuple[list[Hex], int]:
        """Destinations of a retreat and the figures lost for steps that cannot be made.

        M44 p.12 Retreat: toward the own edge, one hex per flag, terrain ignored except
        impassable hexes, never onto or through a unit; a step that cannot be made costs a
        figure. French Resistance retreat 1 to 3 hexes per flag (Appendix 1).
        """
        t = self._terrain(ignore=u)
        max_steps = 3 * flags if u.special == "resistance" else flags
        best: dict[int, set[Hex]] = {0: {u.hex}}
        frontier = {u.hex}
        for step in range(1, max_steps + 1):
            nxt = set()
            for h in frontier:
                for n in self.board.retreat_steps(h, u.side):
                    if n in t.occupied or not rules.can_enter(t, u.kind, n, retreat=True):
                        continue
                    if not rules.step_allowed(t, h, n):
                        continue  # Arnhem: off the bridge only at its ends
                    nxt.add(n)
            if not nxt:
                break
            best[step] = nxt
            frontier = nxt
        reached = max(best)
        if reached < flags:
            return sorted(best[reached]), flags - reached
        dests: set[Hex] = set()
        for step in range(flags, reached + 1):
            dests |= best[step]
        return sorted(dests), 0

    def _retreat(self, u: Unit, flags: int, then: dict[str, Any] | None,
                 scorer: str) -> list[Event]:
        dests, losses = self.retreat_options(u, flags)
        ev: list[Event] = []
        if losses:
            ev.append(Event("retreat_blocked", {"unit": u.id, "steps": losses}))
            ev += self._lose(u, losses, scorer)
            if not u.alive:
                if then:
                    ev += self._offer_take_ground(then)
                return ev
        if len(dests) == 1:
            ev += self._do_retreat_to(u, dests[0])
            if then:
                ev += self._offer_take_ground(then)
            return ev
        self.pending.append({"kind": "retreat", "owner": u.side, "unit": u.id,
                             "options": [[h.q, h.r] for h in dests], "then": then})
        return ev

    def _do_retreat_to(self, u: Unit, h: Hex) -> list[Event]:
        if h == u.hex:
            return []
        frm = u.hex
        ev = self._leave_hex(u)
        u.hex = h
        ev.insert(0, Event("retreat", {"unit": u.id, "frm": _m44(frm), "to": _m44(h)}))
        return ev

    def _offer_take_ground(self, then: dict[str, Any]) -> list[Event]:
        uid = then.get("take_ground")
        if uid is None:
            return []
        u = self.units[uid]
        h = Hex(*then["from_hex"])
        if not u.alive or self.unit_at(h) is not None:
            return []
        if u.id not in self.ctx.get("ordered", []):
            return []
        t = self._terrain(ignore=u)
        if not rules.can_enter(t, u.kind, h) or not rules.step_allowed(t, u.hex, h):
            return []  # M44 p.13 Take Ground: terrain (and scenario movement) restrictions apply
        self.pending.append({"kind": "take_ground", "owner": u.side, "unit": u.id,
                             "hex": [h.q, h.r]})
        return []

    # ------------------------------------------------------------------ tactic phases
    def _do_medics(self, a: Action) -> list[Event]:
        side = self.active
        damaged = [u for u in self.live_units(side) if u.figures < u.max_figures]
        if a.kind == "end_orders" and not damaged:
            self.ctx["end_turn"] = True
            return []
        if a.kind != "medics":
            raise IllegalAction("choose a unit that has lost figures", "M44 Medics & Mechanics")
        u = self.units.get(a.unit)
        if u is None or u not in damaged:
            raise IllegalAction(f"unit {a.unit} has not lost figures", "M44 Medics & Mechanics")
        n = len(self.hands[side]) + 1  # cards in hand including this card
        faces = [FACES[self.dice.d6()] for _ in range(n)]
        sym = UNIT_SYMBOL[u.kind]
        restored = sum(1 for f in faces if f == STAR or (sym is not None and f == sym))
        restored = min(restored, u.max_figures - u.figures)
        u.figures += restored
        ev = [Event("medics", {"unit": u.id, "faces": ", ".join(faces), "restored": restored})]
        if restored:
            self.ctx["slots"] = [{"count": 1}]
            self.ctx["ordered"] = [u.id]
            ev += self._start_moves()
        else:
            self.ctx["end_turn"] = True
        return ev

    def _air_group_ok(self, hexes: list[Hex]) -> bool:
        if len(hexes) > 4 or len(set(hexes)) != len(hexes):
            return False
        seen = {hexes[0]}
        todo = [hexes[0]]
        while todo:
            cur = todo.pop()
            for n in cur.neighbours():
                if n in hexes and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(hexes)

    def air_target_options(self) -> list[Hex]:
        chosen = [Hex(*p) for p in self.ctx["air_targets"]]
        if len(chosen) >= 4:
            return []
        section = self.ctx.get("air_section")
        out = []
        for e in self.live_units(other_side(self.active)):
            if e.hex in chosen:
                continue
            if section and section not in self.board.board_sections(e.hex):
                continue
            if self._air_group_ok(chosen + [e.hex]):
                out.append(e.hex)
        return out

    def _do_air(self, a: Action) -> list[Event]:
        """Air Power: up to 4 adjacent enemy units; 2 dice a hex (Allies) or 1 (Axis)."""
        if a.kind == "air_target":
            if a.hex not in self.air_target_options():
                raise IllegalAction("Air Power targets: up to 4 enemy units in adjacent hexes",
                                    "M44 Air Power")
            self.ctx["air_targets"].append([a.hex.q, a.hex.r])
            return []
        if a.kind == "air_strike":
            if not self.ctx["air_targets"] and self.air_target_options():
                raise IllegalAction("choose at least one target", "M44 Air Power")
            per = 2 if self.active == ALLIES else 1
            for p in self.ctx["air_targets"]:
                self.ctx["queue"].append({"kind": "strike", "hex": p, "dice": per,
                                          "stars": True, "symbols": True})
            self.ctx["end_turn"] = True
            return []
        raise IllegalAction("choose Air Power targets or strike", "M44 Air Power")

    def _do_barrage_phase(self, a: Action) -> list[Event]:
        if a.kind == "barrage":
            u = self.unit_at(a.hex) if a.hex is not None else None
            if u is None or u.side == self.active:
                raise IllegalAction("Barrage targets one enemy unit", "M44 Barrage")
            self.ctx["queue"].append({"kind": "strike", "hex": [a.hex.q, a.hex.r], "dice": 4,
                                      "stars": False, "symbols": True})
            self.ctx["end_turn"] = True
            return []
        if a.kind == "end_orders" and not self.live_units(other_side(self.active)):
            self.ctx["end_turn"] = True
            return []
        raise IllegalAction("choose the Barrage target", "M44 Barrage")

    def _resolve_queued(self, item: dict[str, Any]) -> list[Event]:
        if item["kind"] == "strike":
            target = self.unit_at(Hex(*item["hex"]))
            if target is None or target.side == self.active:
                return []
            faces = [FACES[self.dice.d6()] for _ in range(item["dice"])]
            ev = [Event("battle", {"unit": "card", "target": _m44(target.hex), "distance": 0,
                                   "dice": item["dice"], "faces": ", ".join(faces)})]
            hits = count_hits(faces, target.kind, stars_hit=item["stars"])
            flags = faces.count("flag")
            # Air Power / Barrage: terrain ignored, flags may not be ignored.
            ev += self._hits_and_flags(target, hits, flags, ignorable=False, then=None,
                                       scorer=self.active)
            return ev
        return []

    # ------------------------------------------------------------------ pending decisions
    def pending_options(self) -> list[Action]:
        p = self.pending[-1]
        k = p["kind"]
        if k == "ambush":
            return [Action("ambush", card=p["card"]), Action("no_ambush")]
        if k == "retreat":
            return [Action("retreat", unit=p["unit"], hex=Hex(*h)) for h in p["options"]]
        if k == "take_ground":
            return [Action("take_ground", unit=p["unit"], hex=Hex(*p["hex"])),
                    Action("hold", unit=p["unit"])]
        if k == "keep":
            return [Action("keep", card=c) for c in p["cards"]]
        return []

    def _answer_pending(self, a: Action) -> list[Event]:
        p = self.pending[-1]
        if a not in self.pending_options():
            raise IllegalAction(f"{p['owner']} must answer the pending {p['kind']} decision "
                                f"with one of {[str(x) for x in self.pending_options()]}",
                                _PENDING_RULE[p["kind"]])
        self.pending.pop()
        k = p["kind"]
        if k == "keep":
            self.hands[p["owner"]].append(a.card)
            other = [c for c in p["cards"] if c != a.card]
            self.discard += other
            self.ctx["finish_turn"] = True
            return [Event("keep", {"side": p["owner"]})]
        if k == "retreat":
            u = self.units[p["unit"]]
            ev = self._do_retreat_to(u, a.hex)
            if p.get("then"):
                ev += self._offer_take_ground(p["then"])
            return ev
        if k == "take_ground":
            return self._take_ground(self.units[p["unit"]], a)
        if k == "ambush":
            attacker = self.units[p["attacker"]]
            target = self.units[p["target"]]
            if a.kind == "no_ambush":
                return self._attack(attacker, target)
            return self._ambush(attacker, target, p)
        return []

    def _take_ground(self, u: Unit, a: Action) -> list[Event]:
        if a.kind == "hold":
            return []
        frm = u.hex
        ev = self._leave_hex(u)
        u.hex = a.hex
        ev.insert(0, Event("take_ground", {"unit": u.id, "to": _m44(a.hex), "frm": _m44(frm)}))
        ctx = self.ctx
        if self.board.terrain(a.hex) in rules.NO_BATTLE_TERRAIN and u.special != "resistance":
            ctx["entered"].append(u.id)
        if (u.kind == "tank" and u.id not in ctx["overrun"]
                and not ctx.get("no_overrun")
                and self.board.terrain(a.hex) not in rules.NO_BATTLE_TERRAIN):
            # M44 p.13 Armor Overrun: one more battle, once per turn.
            ctx["overrun"].append(u.id)
            ctx["battles"][str(u.id)] = ctx["battles"].get(str(u.id), 0) + 1
            ctx["overrun_now"] = u.id  # to be fought (or given up) before anyone else battles
            ev.append(Event("overrun", {"unit": u.id}))
        return ev

    def _ambush(self, attacker: Unit, target: Unit, p: dict[str, Any]) -> list[Event]:
        """Ambush: the defender battles first; the attack goes on only if the attacker
        neither dies nor retreats."""
        defender = target.side
        self.hands[defender].remove(p["card"])
        self.ctx.setdefault("discard_after", []).append(p["card"])
        self.ctx["ambush_by"] = defender
        ev = [Event("ambush", {"side": defender, "unit": target.id})]
        t = self._terrain()
        n = rules.base_dice(target.kind, 1)
        n -= rules.protection(t, attacker.hex, attacker.side, target.kind, target.hex)
        n -= rules.attacker_penalty(t, target.kind, target.hex)
        figures_before = attacker.figures
        hex_before = attacker.hex
        if n > 0:
            faces = [FACES[self.dice.d6()] for _ in range(n)]
            ev.append(Event("battle", {"unit": target.id, "target": _m44(attacker.hex),
                                       "distance": 1, "dice": n, "faces": ", ".join(faces)}))
            hits = count_hits(faces, attacker.kind)
            flags = faces.count("flag")
            if hits:
                ev += self._lose(attacker, hits, defender)
            if attacker.alive and flags:
                why = rules.ignorable_flags(t, attacker.hex, attacker.side)
                if why:
                    flags -= 1
                    ev.append(Event("flags_ignored", {"unit": attacker.id, "why": why[0]}))
            if attacker.alive and flags:
                ev += self._retreat(attacker, flags, None, defender)
                ev.append(Event("attack_cancelled", {"unit": attacker.id}))
                return ev
        del figures_before, hex_before
        if not attacker.alive:
            ev.append(Event("attack_cancelled", {"unit": attacker.id}))
            return ev
        ev += self._attack(attacker, target)
        return ev

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        return self._legal_actions(None)

    def _legal_for(self, a: Action) -> list[Action]:
        """The legal actions that could equal ``a`` (a subset of ``legal_actions``, for speed:
        only its unit's moves and battles, only the one unit it orders)."""
        if not self.pending and not self.winner:
            ph, k = self.phase, a.kind
            if (ph, k) in (("order", "end_orders"), ("move", "end_moves"),
                           ("battle", "end_battles")):
                return [Action(k)]
            if ph == "order" and k == "order":
                ordered = self.ctx["ordered"]
                u = self.units.get(a.unit) if isinstance(a.unit, int) else None
                if (u is not None and u.alive and u.side == self.active
                        and u.id not in ordered and self._assignable(ordered + [u.id])):
                    return [Action("order", unit=u.id)]
                return []
        if a.kind in ("move", "battle", "remove_wire") and a.unit is not None:
            return self._legal_actions(a.unit)
        return self._legal_actions(None)

    def _legal_actions(self, only_unit: int | None) -> list[Action]:
        if self.winner:
            return []
        if self.pending:
            return self.pending_options()
        ph = self.phase
        if ph == "card":
            return self.playable_cards()
        if ph == "order":
            return [Action("order", unit=uid) for uid in self._orderable()] + [
                Action("end_orders")]
        if ph == "move":
            out = []
            for uid in self._movable():
                if only_unit is not None and uid != only_unit:
                    continue
                for h in self.move_options(uid):
                    out.append(Action("move", unit=uid, hex=h))
                if self.scenario.opt("exit_medals") and self._can_exit(uid):
                    out.append(Action("exit", unit=uid))
            return out + [Action("end_moves")]
        if ph == "battle":
            focus = self._overrun_focus()
            if focus is not None:
                return [Action("battle", unit=focus, hex=h) for h in self.battle_targets(focus)
                        ] + [Action("skip_overrun", unit=focus), Action("end_battles")]
            out = []
            for uid in self.ctx["ordered"]:
                u = self.units[uid]
                if not u.alive or (only_unit is not None and uid != only_unit):
                    continue
                for h in self.battle_targets(uid):
                    out.append(Action("battle", unit=uid, hex=h))
                if u.kind == "inf" and u.hex in self.wire and self.can_battle(u)[0]:
                    out.append(Action("remove_wire", unit=uid))
            for uid in self._movable():
                if only_unit is not None and uid != only_unit:
                    continue
                for h in self.move_options(uid):
                    out.append(Action("move", unit=uid, hex=h))
            return out + [Action("end_battles")]
        if ph == "medics":
            damaged = [u for u in self.live_units(self.active) if u.figures < u.max_figures]
            if not damaged:
                return [Action("end_orders")]
            return [Action("medics", unit=u.id) for u in damaged]
        if ph == "air":
            out = [Action("air_target", hex=h) for h in self.air_target_options()]
            if self.ctx["air_targets"] or not out:
                out.append(Action("air_strike"))
            return out
        if ph == "barrage":
            enemies = self.live_units(other_side(self.active))
            if not enemies:
                return [Action("end_orders")]
            return [Action("barrage", hex=e.hex) for e in enemies]
        return []

    # ------------------------------------------------------------------ display
    def summary(self) -> str:
        lines = [f"{self.scenario.title}: turn {self.turn}, {self.active} to play, phase "
                 f"{self.phase}; medals Axis {self.medals(AXIS)}/{self.scenario.medals[AXIS]},"
                 f" Allies {self.medals(ALLIES)}/{self.scenario.medals[ALLIES]}"]
        if self.winner:
            lines.append(f"winner: {self.winner}{self.win_reason}")
        return "\n".join(lines)


_PENDING_PROMPT = {
    "ambush": "Ambush: answer the close assault first?",
    "retreat": "Choose the hex the unit retreats to",
    "take_ground": "Take the ground the enemy left?",
    "keep": "Recon: keep one of the cards drawn",
}

_PENDING_RULE = {
    "ambush": "M44 Ambush",
    "retreat": R_RETREAT,
    "take_ground": R_TAKE,
    "keep": "M44 Recon",
}

# Tactic cards that order units: slots of {kinds, count (None = all), filter}.
_TACTIC_SLOTS: dict[str, list[dict[str, Any]]] = {
    "armor_assault": [{"kinds": ["tank"], "count": 4}],
    "artillery_bombard": [{"kinds": ["gun"], "count": None}],
    "behind_enemy_lines": [{"kinds": ["inf"], "count": 1}],
    "close_assault": [{"kinds": ["inf", "tank"], "count": None, "filter": "adjacent"}],
    "dig_in": [{"kinds": ["inf"], "count": 4}],
    "direct_from_hq": [{"count": 4}],
    "firefight": [{"count": 4, "filter": "not_adjacent"}],
    "move_out": [{"kinds": ["inf"], "count": 4}],
}
_FALLBACK_ONE = {"armor_assault", "artillery_bombard", "behind_enemy_lines", "dig_in",
                 "move_out", "infantry_assault"}


def _board_section(section: str, side: str) -> str:
    return player_section(section, side)


def _copy_dice(d: Dice) -> Dice:
    if type(d) is not Dice:
        return copy.deepcopy(d)  # test doubles (scripted dice)
    return d.copy()


# ---------------------------------------------------------------------- policies
def auto_action(state: MemoirState) -> Action:
    """The "auto" answer to the decision at hand: first option for pending decisions
    (retreat to the first listed hex, take ground, ambush, keep the first card) and ending the
    phase otherwise."""
    acts = state.legal_actions()
    if not acts:
        raise IllegalAction("no decision to make", R_TURN)
    if state.pending:
        return acts[0]
    for end in ("end_orders", "end_moves", "end_battles", "air_strike"):
        for a in acts:
            if a.kind == end:
                return a
    return acts[0]


def random_action(state: MemoirState, rng: random.Random, aggressive: bool = True) -> Action:
    """A random legal action; ``aggressive`` prefers battles and ordering units."""
    acts = state.legal_actions()
    if not aggressive or state.pending:
        return rng.choice(acts)
    kinds = {a.kind for a in acts}
    for pref in ("battle", "air_target", "barrage", "medics"):
        if pref in kinds:
            return rng.choice([a for a in acts if a.kind == pref])
    if "order" in kinds:
        return rng.choice([a for a in acts if a.kind == "order"])
    if "move" in kinds and rng.random() < 0.85:
        moves = [a for a in acts if a.kind == "move"]
        # prefer moves toward the enemy edge
        side = state.active
        def advance(a: Action) -> int:
            return -a.hex.r if side == ALLIES else a.hex.r
        moves.sort(key=advance, reverse=True)
        top = moves[: max(1, len(moves) // 3)]
        return rng.choice(top)
    return rng.choice(acts)


__all__ += ["LEFT", "CENTER", "RIGHT"]
