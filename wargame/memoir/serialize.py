"""Saving and replaying a Memoir '44 state as plain JSON.

Rules: none of the rulebook's; same seed and same actions give the same game (M44 p.5 Game
Play replayed action by action).
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar, Self

from wargame.dice import DICE_VERSION, Dice
from wargame.hexgrid import Hex

from . import rules
from .actions import Action, Event, GameSpec, Unit
from .context import PendingDecision, PlayedCard, TurnContext
from .position import StateBase

__all__ = ["FORMAT_VERSION", "SerializeMixin"]

# 2: the turn context, pending decisions and last cards played are typed records
# (wargame.memoir.context) saved with all their fields; format 1 saves (the same records as
# dicts with only the keys set) are still read.
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)


class SerializeMixin(StateBase):
    """``to_json``, ``from_json`` and ``replay``."""

    game_class: ClassVar[Any] = None  # set by wargame.memoir.game: builds the game of a save


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
            "ctx": self.ctx.to_dict(),
            "pending": [p.to_dict() for p in self.pending],
            "last_played": {k: None if v is None else v.to_dict()
                            for k, v in self.last_played.items()},
            "winner": self.winner,
            "win_reason": self.win_reason,
            "history": [a.to_dict() for a in self.history],
            "setup_events": [e.to_dict() for e in self.setup_events],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], game: GameSpec | None = None) -> Self:
        if data.get("format_version") not in READABLE_VERSIONS:
            raise ValueError(f"unsupported memoir state format {data.get('format_version')!r}")
        if game is None:
            game = cls.game_class.from_scenario(data["scenario"], **data.get("options", {}))
        st = cls(game, data["seed"])
        st.dice = Dice.from_dict(data["dice"])  # without a "dice" version: version 1
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
        st.ctx = TurnContext.from_dict(data["ctx"])
        if "stopped" not in data["ctx"]:
            # Saved before the ctx kept ``stopped``: a unit that moved this turn and stands on
            # woods, a hedgerow, a village or wire entered it this turn (moves stop there).
            st.ctx.stopped = [uid for uid in st.ctx.moved if (u := st.units.get(uid)) is not None
                              and u.hex is not None
                              and (st.board.terrain(u.hex) in rules.STOP_TERRAIN
                                   or u.hex in st.wire)]
        st.pending = [PendingDecision.from_dict(p) for p in data["pending"]]
        st.last_played = {k: PlayedCard.from_dict(v) for k, v in data["last_played"].items()}
        st.winner = data["winner"]
        st.win_reason = data.get("win_reason", "")
        st.history = [Action.from_dict(a) for a in data["history"]]
        st.setup_events = [Event(e["kind"], e["data"]) for e in data.get("setup_events", [])]
        return st

    @classmethod
    def replay(cls, game: Any, seed: int, actions: list[Action],
               dice_version: int = DICE_VERSION) -> tuple[Any, list[Event]]:
        """The state after ``actions`` from the opening of ``seed`` (dice of ``dice_version``,
        wargame/dice.py), and every event on the way."""
        st = game.new_initial_state(seed, dice_version)
        events = list(st.setup_events)
        for a in actions:
            events += st.replay_apply(a)
        return st, events
