"""Saving and replaying a Memoir '44 state as plain JSON.

Rules: none of the rulebook's; same seed and same actions give the same game (M44 p.5 Game
Play replayed action by action).
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar, Self

from wargame.dice import DICE_VERSION, Dice
from wargame.hexgrid import Hex
from wargame.viewer import Viewer

from . import rules
from .actions import Action, Event, GameSpec, Unit
from .board import renamed_sides
from .context import PendingDecision, PlayedCard, TurnContext
from .position import StateBase

__all__ = ["FORMAT_VERSION", "SerializeMixin"]

# 2: the turn context, pending decisions and last cards played are typed records
# (wargame.memoir.context) saved with all their fields; format 1 saves (the same records as
# dicts with only the keys set) are still read. 3 (issue #27): the sides are "axis" and
# "allied"; the AXIS/ALLIES of earlier states are renamed on reading.
FORMAT_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)  # 3: the side ids axis/allied (issue #27); before, AXIS/ALLIES


class SerializeMixin(StateBase):
    """``to_json``, ``from_json`` and ``replay``."""

    game_class: ClassVar[Any] = None  # set by wargame.memoir.game: builds the game of a save


    def to_json(self) -> dict[str, Any]:
        return {
            "format_version": FORMAT_VERSION,
            "game": "memoir",  # game.kind (issue #27: one id; "memoir44" before)
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

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` may know of the position (``wargame.viewer``), as plain JSON: never
        the deck's order (its size only) nor the dice's state and the seed (unless solo); a
        hand only when the viewer sees it (M44 set-up step 10: "sem que o adversário as
        veja"), else its size; the answers of a pending decision only to a viewer who may
        give them or sees that side's hand (an Ambush or a Recon choice names cards)."""
        data = self.to_json()
        data["viewer"] = {"side": viewer.side, "role": viewer.role}
        if not viewer.sees_seed:
            data.pop("seed", None)
            data.pop("dice", None)
        data["deck"] = len(self.deck)
        data["hands"] = {side: (list(cards) if viewer.sees_hand_of(side) else len(cards))
                         for side, cards in self.hands.items()}
        if self.pending and not (viewer.may_act_for(self.side_to_act)
                                 or viewer.sees_hand_of(self.side_to_act)):
            data["pending"] = [{"kind": p.kind} for p in self.pending]
        return data

    def resample(self, viewer: Viewer, rng: Any) -> Self:
        """A world consistent with what ``viewer`` knows: a copy in which the cards it cannot
        see (the hands it does not see and the deck) are dealt again at random from their
        sorted pool (so the result does not depend on which unseen card was where), with
        fresh dice drawn from ``rng`` (a ``random.Random`` of the caller: the game's own dice
        are not touched). The sizes of the hands and the deck are kept."""
        st = self.clone()
        hidden = [side for side in st.hands if not viewer.sees_hand_of(side)]
        pool = sorted([c for side in hidden for c in st.hands[side]] + list(st.deck))
        rng.shuffle(pool)
        for side in hidden:
            n = len(st.hands[side])
            st.hands[side], pool = pool[:n], pool[n:]
        st.deck = pool
        st.dice = Dice(rng.randrange(2**31))
        return st

    @classmethod
    def from_json(cls, data: dict[str, Any], game: GameSpec | None = None) -> Self:
        if data.get("format_version") not in READABLE_VERSIONS:
            raise ValueError(f"unsupported memoir state format {data.get('format_version')!r}")
        if data["format_version"] < 3:
            data = renamed_sides(data)  # AXIS/ALLIES -> axis/allied (issue #27)
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
        st = game.new_state(seed, dice_version)
        events = list(st.setup_events)
        for a in actions:
            events += st.replay_apply(a)
        return st, events
