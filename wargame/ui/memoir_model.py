"""The Memoir '44 dashboard's state: ``MemoirStore``, a ``GameStore`` (wargame.ui.store) around
the engine's ``MemoirState``. No Panel import here: views in ``wargame.ui.memoir`` render it,
tests drive it with plain pytest.

Acting, refusals (reason + rule), the event log, undo, save/load and the computer opponent come
from ``GameStore``; this class holds the selected unit and what a click on the board means in
the current phase (order a unit, pick a unit then its destination, pick an attacker then its
target, choose a retreat hex, take ground, pick Air Power targets).
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping
from typing import Any, ClassVar, cast

import param

from wargame.bots.memoir_random import auto_action
from wargame.bots.play import POLICY_NAMES, make_policy
from wargame.event_text import card_title, event_line
from wargame.hexgrid import Hex
from wargame.i18n import Catalogue, using_language
from wargame.memoir import (
    ALLIES,
    AXIS,
    Action,
    MemoirGame,
    MemoirState,
    card,
    hex_to_m44,
)
from wargame.memoir.dice import hits_distribution
from wargame.protocol import GameState, Policy
from wargame.ui.store import TEACHER, GameStore, batched
from wargame.ui.text import UI

__all__ = ["MemoirStore", "TEXT", "AutoPolicy", "ExplainedPolicy", "where"]

# Every user-facing sentence of the Memoir dashboard (a catalogue: English and Portuguese).
TEXT = Catalogue("ui.memoir", {
    "title": "Memoir '44: {title}",
    # the new-game list (issue 32): front, year and the balance a study measured
    "choice": "{id}: {title} · {when} · {balance}",
    "choice.balance": "Allies won {rate:.0%}",
    "choice.no_balance": "-",
    "front.WESTERN": "Western",
    "front.EASTERN": "Eastern",
    "front.MEDITERRANEAN": "Mediterranean",
    "front.PACIFIC": "Pacific",
    "status": "Turn {turn}: {side} to act, phase {phase}",
    "winner": "{side} wins{why}",
    "medals": "Medals: Allies {allies}/{allies_need}, Axis {axis}/{axis_need}",
    "hand": "{side}'s hand",
    "hand.allied": "The Allies' hand",
    "hand.axis": "The Axis's hand",
    "pending": "{owner} must decide: {kind}",
    "waiting": "Waiting for {side} to decide.",
    "selected": "Selected unit {unit}",
    "no_unit": "No unit of yours there to select.",
    "illegal": "Not allowed: {reason}",  # the store adds " (rule)"
    "undo_none": "Nothing to undo.",
    "dice": "Last roll: {faces}",
    "target": "{dice} dice at {target}: P(at least 1 hit) {p1:.0%}, expected {exp:.2f} hits",
    "phase.card": "play a card",
    "phase.order": "order units",
    "phase.move": "move",
    "phase.battle": "battle",
    "phase.air": "Air Power targets",
    "phase.barrage": "Barrage target",
    "phase.medics": "Medics & Mechanics",
    "end.order": "Done ordering",
    "end.move": "Done moving",
    "end.battle": "End battles (draw a card)",
    "undo": "Undo",
    "auto": "Auto-answer",
    "computer_side": "Computer plays",
    "computer_player": "Computer player",
    "new": "New game",
    "save": "Save",
    "load": "Load a save:",
    "actions": "{n} actions",
    "scenario": "Scenario",
    "legend": "Legend",
    "done": "Done",
    "computer.none": "nobody",
    "computer.allies": "the Allies",
    "computer.axis": "the Axis",
    "section.left": "left flank",
    "section.center": "centre",
    "section.right": "right flank",
    # a card played with a choice (a section of Recon in Force... or Air Power/Barrage's use)
    "play_as": "{title} as {option}",
    "option.left": "left",
    "option.center": "center",
    "option.right": "right",
    "option.air_power": "air power",
    "option.barrage": "barrage",
    # the computer players (wargame.bots: docs/bots.md)
    "player.auto": "auto",
    "player.random": "random",
    "player.easy": "easy",
    "player.normal": "normal",
    "player.hard": "hard",
    # the computer explains its last card play on request (issue #33)
    "why": "Why this card?",
    "why.none": "The computer has not played a card yet in this game.",
    "why.said": "{side}, turn {turn}: {reason}",
    "why.cpu": "My thinking so far: {n} decisions, {mean} s of CPU time each on average, "
               "{max} s at most.",
}, plurals={
    # counted (wargame.i18n Catalogue.plural)
    "hidden_hand": ("{side} holds {n} card", "{side} holds {n} cards"),
})

SIDE_NAMES = Catalogue("ui.memoir_sides", {ALLIES: "Allies", AXIS: "Axis"})
# the side to act and the winner on the status line, in capitals
SIDE_LABELS = Catalogue("ui.memoir_side_labels", {ALLIES: "ALLIES", AXIS: "AXIS"})
# the computer players of the dashboard: the engine's auto answer and the bundled policies
COMPUTER_PLAYERS = ("auto", *POLICY_NAMES["memoir"])
END_KINDS = ("end_orders", "end_moves", "end_battles", "air_strike")


def where(h: Hex | None) -> str:
    if h is None:
        return "-"
    r, c = hex_to_m44(h)
    return f"({r},{c})"


def hard_seconds(environ: Any = None) -> float | None:
    """The hard computer's CPU budget per decision from ``WARGAME_HARD_SECONDS`` (issue #33:
    "a CPU budget per decision, 2 s by default, that can be changed"), None when unset: the
    player's default. A short budget keeps a served game quick (the browser test against
    hard); a value that is not a positive number of seconds is refused by name."""
    import math
    import os

    text = (os.environ if environ is None else environ).get("WARGAME_HARD_SECONDS", "").strip()
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (seconds > 0 and math.isfinite(seconds)):
        raise ValueError(f"WARGAME_HARD_SECONDS: expected a positive number of CPU seconds "
                         f"per decision, got {text[:40]!r}")
    return seconds


class AutoPolicy:
    """The simplest computer player: the engine's auto answer (first option of a decision,
    end the phase otherwise). Memoryless, as ``wargame.protocol.Policy`` asks."""

    def choose(self, state: MemoirState) -> Action:
        return auto_action(state)


class ExplainedPolicy:
    """A computer player that keeps, at each card play, why it played it (its ``reason`` or
    ``explain``), for the dashboard's "Why this card?" (issue #33). The choice is the wrapped
    policy's: the hard player's search is run once, its reason kept with its action."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy
        self.last: tuple[str | None, int, Any] | None = None  # side, turn, reason (data or words)

    def choose(self, state: MemoirState) -> Action:
        if state.phase != "card" or state.pending:
            return self.policy.choose(state)
        side, turn = state.side_to_act, state.turn
        if hasattr(self.policy, "reason"):
            info = self.policy.reason(state)
            self.last = (side, turn, info)
            return info["action"]
        action = self.policy.choose(state)
        if hasattr(self.policy, "explain"):
            self.last = (side, turn, self.policy.explain(state))
        return action

    def said(self) -> tuple[str | None, int, str] | None:
        """The last reason in the current language (the easy and normal players speak
        English only)."""
        if self.last is None:
            return None
        side, turn, info = self.last
        if isinstance(info, dict):
            info = self.policy.describe(info)
        return side, turn, str(info)


class MemoirStore(GameStore):
    """One Memoir '44 game in progress: the engine state plus the selected unit. No Panel."""

    scenario = param.String(default="1", doc="the rulebook scenario number (or 'overlord')")
    seed = param.Integer(default=44)
    selected = param.Integer(default=None, allow_None=True)
    computer = param.Selector(default="none", objects=["none", ALLIES, AXIS])
    computer_player = param.Selector(default="easy", objects=list(COMPUTER_PLAYERS),
                                     doc="how the computer plays: 'auto' answers (first "
                                         "option, end the phase) or a bundled Memoir policy")

    TEXT: ClassVar[Mapping[str, str]] = ChainMap(TEXT, UI)  # type: ignore[arg-type]  # Memoir's own words first; ChainMap only reads the two (read-only) catalogues

    def __init__(self, scenario: str | int = "1", seed: int = 44, **params: Any) -> None:
        game = MemoirGame.from_scenario(str(scenario))
        super().__init__(game, seed, scenario=str(scenario), **params)
        self.seed = int(seed)
        self.param.watch(lambda _e: self._player_changed(), "computer_player")

    def _player_changed(self) -> None:
        """Another computer player: the next computer action is the new one's."""
        self._policy = None
        if self.computer != "none":
            self._computer_changed()

    # ------------------------------------------------------------------ GameStore hooks
    def opening_events(self, state: GameState) -> list[Any]:
        return list(cast(MemoirState, state).setup_events)

    def action_message(self, action: Action, events: list[Any]) -> str:
        from wargame.ui.describe import describe_action

        done = UI["done"].format(what=describe_action(self.state, action))
        return event_line(events[-1], self.as_viewer(), self.state) if events else done

    def describe_logged(self, entry: dict[str, Any]) -> str:
        from wargame.ui.describe import describe_action

        return describe_action(self.state, entry)

    def clear_selection(self, everything: bool = True) -> None:
        self.selected = None

    def after_position(self) -> None:
        s = self.state
        self.turn, self.phase, self.seed = s.turn, s.phase, s.seed
        if s.phase not in ("move", "battle"):
            self.selected = None

    def make_policy(self) -> Policy:
        if self.computer_player == "auto":
            return AutoPolicy()
        policy = make_policy(self.game, self.computer_player, self.seed)
        if self.computer_player == "hard":
            seconds = hard_seconds()
            if seconds is not None:
                policy.max_seconds = seconds  # type: ignore[attr-defined]  # make_policy gives the Policy protocol; hard has max_seconds
        return ExplainedPolicy(policy)

    def computer_reason(self) -> str:
        """Why the computer played its last card, in this store's language (issue #33)."""
        with using_language(self.lang):
            policy = self._policy
            said = policy.said() if isinstance(policy, ExplainedPolicy) else None
            if said is None or not isinstance(policy, ExplainedPolicy):
                return TEXT["why.none"]
            side, turn, reason = said
            text = TEXT["why.said"].format(side=self.side_name(side), turn=turn, reason=reason)
            spans = getattr(policy.policy, "cpu_times", ())  # the hard player's record
            if spans:
                text += " " + TEXT["why.cpu"].format(
                    n=len(spans), mean=f"{sum(spans) / len(spans):.2f}", max=f"{max(spans):.2f}")
            return text

    def side_name(self, side: str | None) -> str:
        return SIDE_NAMES.get(side or "", str(side))

    def phase_label(self) -> str:
        return TEXT.get(f"phase.{self.state.phase}", self.state.phase)

    # ------------------------------------------------------------------ game control
    @batched
    def new_game(self, scenario: str | None = None, seed: int | None = None) -> None:
        """A new game, of another scenario when ``scenario`` is given."""
        game = None
        if scenario is not None and str(scenario) != self.scenario:
            game = MemoirGame.from_scenario(str(scenario))
        if seed is not None:
            self.seed = int(seed)
        self.restart(self.seed, game)
        if game is not None:
            self.scenario = str(scenario)

    def apply(self, action: Action) -> bool:
        """``act`` under the name the Memoir dashboard always had."""
        return self.act(action)

    def auto(self) -> bool:
        return self.act(auto_action(self.state))

    @property
    def events(self) -> list[Any]:
        return self.log

    # ------------------------------------------------------------------ what to show
    @property
    def legal(self) -> list[Action]:
        return self.state.legal_actions()

    def hand(self, side: str | None = None) -> list[tuple[int, str, list[Action]]]:
        """``side``'s cards (default: the acting side's): (card id, title, the play actions
        this session may send for it). A seat asking for the other side's hand gets nothing
        (M44 Set-up step 10: the cards are held "so that your opponent does not see them")."""
        side = side or self.state.active
        cards = self.seen.get("hands", {}).get(side)
        if not isinstance(cards, list):
            return []  # the viewer's view holds only the hand's size (wargame.viewer)
        plays = [a for a in self.legal if a.kind == "play"] if self.may_act_for(side) else []
        out = []
        for cid in cards:
            out.append((cid, card_title(card(cid)), [a for a in plays if a.card == cid]))
        return out

    def hand_size(self, side: str) -> int:
        """How many cards ``side`` holds, as this session's view says (issue #27)."""
        cards = self.seen.get("hands", {}).get(side, 0)
        return len(cards) if isinstance(cards, list) else int(cards)

    def hand_sides(self) -> tuple[list[str], list[str]]:
        """(the sides whose cards this session shows, the sides shown by their count only):
        hot-seat the acting side's hand; against the computer the player's own hand only,
        even while the computer acts (its hand is as hidden as a human opponent's); a seat its
        own hand, even while the other acts; the teacher both."""
        active = self.state.active
        other = AXIS if active == ALLIES else ALLIES
        seat = self.seat_side()
        if self.viewer == TEACHER:  # on the projector only once the teacher shows them
            return ([active, other], []) if self.reveal_hands else ([], [active, other])
        if seat is None and self.computer in (ALLIES, AXIS):
            seat = AXIS if self.computer == ALLIES else ALLIES
        if seat is not None:
            return [seat], [AXIS if seat == ALLIES else ALLIES]
        return [active], [other]

    @batched
    def reveal(self, on: bool) -> None:
        """The teacher's switch: show (or hide again) both hands on the teacher's page. Only
        the teacher's page has it; a seat never reveals the other hand."""
        if self.viewer != TEACHER:
            return
        self.reveal_hands = bool(on)

    def pending_actions(self) -> list[Action]:
        """The answers to the pending decision (or Medics & Mechanics) this session shows:
        none to a seat that does not own it (an Ambush or a Recon choice names cards)."""
        s = self.state
        if self.is_other_side(s.side_to_act) or not self.may_act_for(s.side_to_act):
            return []  # the other side's seat, and the teacher, who acts for neither
        return list(s.legal_actions())

    def medals(self) -> dict[str, int]:
        return {ALLIES: self.state.medals(ALLIES), AXIS: self.state.medals(AXIS)}

    def status(self) -> str:
        s = self.state
        if s.winner:
            return TEXT["winner"].format(side=SIDE_LABELS.get(s.winner, s.winner),
                                         why=s.win_reason)
        return TEXT["status"].format(turn=s.turn, side=SIDE_LABELS.get(s.side_to_act, s.side_to_act),
                                     phase=TEXT.get(f"phase.{s.phase}", s.phase))

    def move_targets(self) -> dict[Hex, int]:
        uid = self.selected
        if uid is None:
            return {}
        return {a.hex: self.state.move_options(uid).get(a.hex, 0) for a in self.legal
                if a.kind == "move" and a.unit == uid and a.hex is not None}  # (a move has one)

    def battle_targets(self) -> list[dict[str, Any]]:
        """Targets of the selected unit: hex, dice after terrain, hit chances."""
        uid = self.selected
        if uid is None:
            return []
        s = self.state
        out = []
        for a in self.legal:
            if a.kind != "battle" or a.unit != uid:
                continue
            target = s.unit_at(a.hex)
            n, _ = s.battle_dice(s.units[uid], target)
            dist = hits_distribution(n, target.kind)
            out.append({"hex": a.hex, "dice": n, "target": target.kind,
                        "p_hit": float(1 - dist[0]),
                        "expected": float(sum(k * p for k, p in dist.items())),
                        "p_eliminate": float(sum(p for k, p in dist.items()
                                                 if k >= target.figures))})
        return out

    def last_roll(self) -> list[str]:
        for e in reversed(self.log):
            if e.kind in ("battle", "finest_hour", "medics"):
                return [f.strip() for f in e.data["faces"].split(",") if f.strip()]
        return []

    def log_lines(self, n: int = 60) -> list[str]:
        """The last ``n`` events in the store's language (``wargame.event_text.event_line``)."""
        viewer = self.as_viewer()
        return [event_line(e, viewer, self.state) for e in self.log[-n:]]

    def can_end_phase(self) -> bool:
        return any(a.kind in END_KINDS for a in self.legal)

    # ------------------------------------------------------------------ map clicks
    @batched
    def click(self, h: Hex) -> bool:
        """What a click on board hex ``h`` means in the current phase."""
        s = self.state
        legal = self.legal
        unit = s.unit_at(h)
        # pending decisions and single-hex actions first
        for kind in ("retreat", "take_ground", "air_target", "barrage", "airdrop"):
            for a in legal:
                if a.kind == kind and a.hex == h:
                    return self.act(a)
        if unit is not None:
            for kind in ("order", "medics"):
                a = Action(kind, unit=unit.id)
                if a in legal:
                    return self.act(a)
        if self.selected is not None:
            for a in legal:
                if a.kind in ("move", "battle") and a.unit == self.selected and a.hex == h:
                    return self.act(a)
        if unit is not None and unit.side == s.active and s.phase in ("move", "battle"):
            self.selected = unit.id
            self.say(TEXT["selected"].format(unit=unit.id))
            return True
        self.say(TEXT["no_unit"])
        return False

    @batched
    def end_phase(self) -> bool:
        for kind in END_KINDS:
            a = Action(kind)
            if a in self.legal:
                return self.act(a)
        return False
