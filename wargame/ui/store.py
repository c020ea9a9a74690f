"""The one store every dashboard is built on: ``GameStore``, a ``param.Parameterized`` around
a protocol game and state (``wargame.protocol``). No Panel import here.

Written once for every game, through the protocol only: act (an illegal action leaves the
state as it was and shows the reason and the rule), the event log, undo (a clone of the
nearest checkpoint and a replay of the tail, ``wargame.checkpoints``: checkpoints are taken
every ``CHECKPOINT_EVERY`` actions as the game goes and while a save loads), save and load
(``wargame.saves``: one format for every game), the side to act, the pending decision, and the computer opponent (a ``Policy``: ``choose(state)``).
``CampaignState`` (wargame.ui.model) and ``MemoirStore`` (wargame.ui.memoir) add only what is
particular to their game: selection, map clicks, previews.

Views depend on the fields they show: ``state`` is signalled whenever the position changes
(an action, undo, load, new game), ``log`` when events were added or taken back, ``pending``,
``side_to_act``, ``message``/``error`` when they change; a subclass's selection fields change
alone on a click that only selects. Every command changes its fields in one batch, so a view
watching several fields refreshes once per command.

Threads: the served dashboards run callbacks on Panel's thread pool (``pn.config.nthreads``,
``wargame.ui.serve``), so a long Load in one session does not stall the others; two events
of one session may then run at once on two threads. Every command holds the store's lock
(``batch``, re-entrant) for its whole run, watchers included, so one session's commands run one
after the other and never see a half-changed game.

Language (issue #16): each store has its ``lang`` (``lang=`` when made, else the language
current then, ``wargame.i18n.language()``); every command (``batch``) and the computer's turn
run in it, watchers included, so a session's texts are in its own language whatever thread
runs its callbacks (the language is a context variable, not copied to Panel's thread pool).
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, ClassVar, TypeVar, cast

import param
from param.parameterized import batch_call_watchers

from wargame.checkpoints import Checkpoints
from wargame.error_texts import rule_text
from wargame.errors import IllegalAction, SeatRefused
from wargame.event_text import event_line
from wargame.i18n import check_language, language, using_language
from wargame.protocol import GameDefinition, GameState, Policy
from wargame.saves import OnAction, OnStart, from_save, parse_save_text, replay, to_save
from wargame.scenario_errors import ScenarioError
from wargame.ui.text import UI
from wargame.viewer import Viewer

__all__ = ["GameStore", "POSITION_FIELDS", "TEACHER", "batched", "new_seed"]

TEACHER = "teacher"
"""The ``viewer`` of a teacher's (spectator's) seat: sees both sides, acts for neither."""

F = TypeVar("F", bound=Callable[..., Any])


def batched(method: F) -> F:
    """A store command whose field changes reach the watchers in one batch."""
    @functools.wraps(method)
    def run(self: GameStore, *args: Any, **kwargs: Any) -> Any:
        with self.batch():
            return method(self, *args, **kwargs)

    return cast(F, run)  # functools.wraps: the same signature

POSITION_FIELDS = ("state", "log", "pending", "side_to_act")
"""The store fields that change together with the position (views of the board watch them)."""


class GameStore(param.Parameterized):
    """A game in progress and every command a dashboard sends to it (any game of the protocol).

    Subclasses override the hooks: ``opening_events``, ``action_message``, ``clear_selection``,
    ``after_position``, ``make_policy``, ``side_name``, ``phase_label``.
    """

    state = param.Parameter(doc="the engine's state; signalled whenever the position changes")
    log = param.List(default=[], doc="the game's events so far, oldest first (never mutated)")
    pending = param.Parameter(default=None, doc="the pending Decision (wargame.protocol) or None")
    side_to_act = param.String(default=None, allow_None=True)
    turn = param.Integer(default=0, doc="the game turn (set by the subclass's after_position)")
    phase = param.String(default="", doc="the phase (set by the subclass's after_position)")
    message = param.String(default="")
    error = param.Boolean(default=False, doc="True when ``message`` is a refusal or an error")
    computer = param.String(default="none", doc="the side the computer plays, or 'none'")
    viewer = param.String(default=None, allow_None=True, constant=True,
                          doc="whose seat this session is: None for hot-seat on one screen "
                              "(as always), a side of the game (its own side string) for a "
                              "room's seat (the enemy's secrets are never shown), or "
                              "'teacher' (both sides, acts for neither); docs/rooms-seats.md")
    reveal_hands = param.Boolean(default=False, doc="the teacher's switch: show the hands "
                                 "(Memoir '44) on the teacher's page; never in a seat")
    seen = param.Dict(default={}, doc="``state.view(as_viewer())``: what this session's viewer "
                      "may know of the position (issue #27). The page's secrets (counter "
                      "values, hands, a decision's answers) are drawn from here, never from "
                      "the state; renewed with every position and with the teacher's switch")
    student = param.Boolean(default=None, allow_None=True, doc="student words (issue #28): "
                            "results as sentences, jargon explained on hover, no rule "
                            "citation, seed or fingerprint; None: on in a room's pages (seats "
                            "and teacher), off on a solo dashboard (its owner is the hobbyist "
                            "or the teacher preparing: docs/rooms-seats.md)")

    TEXT: ClassVar[Mapping[str, str]] = UI
    SAVE_SOURCE: ClassVar[str] = "<uploaded save>"
    CHECKPOINT_EVERY: ClassVar[int] = 100
    LOAD_CHECKPOINTS: ClassVar[int] = 5  # checkpoints kept from a loaded game: its last 500 actions

    def __init__(self, game: GameDefinition, seed: int, **params: Any) -> None:
        computer = params.pop("computer", "none")
        lang = params.pop("lang", None)
        super().__init__(**params)
        self._lock = threading.RLock()  # one command at a time (module doc: threads)
        self.lang = check_language(lang) if lang else language()  # module doc: language
        self.game = game
        self._depth = 0
        self._policy: Policy | None = None
        # (first, end) log positions of the computer's runs of actions, so that undo takes
        # back the player's last action together with the computer's answer to it
        self._computer_runs: list[tuple[int, int]] = []
        # _marks[i]: the number of events in the log before action i
        self._marks: list[int] = []
        self._checkpoints = Checkpoints(game, int(seed), self.CHECKPOINT_EVERY)
        state = game.new_state(int(seed))
        self._set_state(state, self.opening_events(state), [])
        self.param.watch(lambda _e: self._computer_changed(), "computer")
        self.param.watch(lambda _e: self._viewer_changed(), "reveal_hands")
        if computer != "none":
            self.computer = computer

    # ------------------------------------------------------------------ hooks
    def opening_events(self, state: GameState) -> list[Any]:
        """The events of a new game's set-up (before any action)."""
        return []

    def action_message(self, action: Any, events: list[Any]) -> str:
        """The message after a legal action, in this session's language."""
        return self.news(events) or str(action)

    def news(self, events: list[Any]) -> str:
        """The last events in words for this session's viewer, in its language (issue #27:
        each page renders events itself; no text made for one viewer reaches another)."""
        viewer = self.as_viewer()
        return " ".join(event_line(e, viewer, self.state) for e in events[-3:])

    def in_student_words(self) -> bool:
        """True when this page reads student words (``student``; default: in rooms)."""
        return self.viewer is not None if self.student is None else bool(self.student)

    def turn_story(self, events: list[Any], most: int = 6) -> str:
        """The computer's turn told in sentences (issue #28): the lines of its telling events
        (``STORY_SKIPS`` left out: orders given, cards drawn, phases), the last ``most`` of
        them, for this page's viewer."""
        viewer = self.as_viewer()
        told = [e for e in events if getattr(e, "kind", "") not in STORY_SKIPS] or events
        cards = [e for e in told if getattr(e, "kind", "") == "card_played"][:1]
        rest = [e for e in told if e not in cards]
        chosen = cards + rest[-(most - len(cards)):]  # the card it played, then the last ones
        lines = [event_line(e, viewer, self.state) for e in chosen]
        more = len(told) - len(chosen)
        story = " ".join(lines)
        return story + (" " + self.TEXT["story_more"].format(n=more) if more > 0 else "")

    def clear_selection(self, everything: bool = True) -> None:
        """Forget what the user had selected: ``everything`` on undo, load and new game; after
        the computer's answer only what its moves may have invalidated."""

    def after_position(self) -> None:
        """Bring the subclass's own fields up to date after the position changed."""

    def make_policy(self) -> Policy:
        raise NotImplementedError(f"{type(self).__name__} has no computer player")

    def side_name(self, side: str | None) -> str:
        return str(side)

    def phase_label(self) -> str:
        return ""

    # ------------------------------------------------------------------ seats
    def seat_side(self) -> str | None:
        """The side this session's seat plays, or None (hot-seat or the teacher's view)."""
        return None if self.viewer in (None, TEACHER) else self.viewer

    def is_other_side(self, side: str | None) -> bool:
        """True when this session is one side's seat and ``side`` is the other (what that
        side holds secret is never put on this page)."""
        seat = self.seat_side()
        return seat is not None and side != seat

    def as_viewer(self) -> Viewer:
        """This session's viewer (``wargame.viewer``): solo for one screen that owns the game
        (hot-seat, notebook, against the computer), a player for a room's side seat, the
        teacher (hands shown only when ``reveal_hands``) for the teacher's page."""
        student = self.in_student_words()
        if self.viewer is None:
            return Viewer.solo(self.lang, student=student)
        if self.viewer == TEACHER:
            return Viewer.teacher(self.lang, bool(self.reveal_hands), student=student)
        return Viewer.player(self.viewer, self.lang, student=student)

    def _viewer_changed(self) -> None:
        with self.batch():
            self.seen = self.state.view(self.as_viewer())

    def seed_label(self) -> str:
        """"Seed N, " for the status line of the game's owner; nothing on any room page: the
        seed and the action log replay the whole game, the hand and the dice to come."""
        seed = self.seen.get("seed")  # only a solo viewer's view holds it
        if seed is None or self.as_viewer().student:  # issue #28: the seed is expert's words
            return ""
        return UI["seed_label"].format(seed=seed)

    def may_act_for(self, side: str | None) -> bool:
        """True when this session may act for ``side``: hot-seat, or that side's own seat."""
        return self.viewer is None or self.viewer == side
    def describe_logged(self, entry: dict[str, Any]) -> str:
        """An action of the log (its JSON form) in words, for "Undone: ..." messages."""
        return str(entry.get("kind", "action")).replace("_", " ")

    # ------------------------------------------------------------------ batching
    @contextmanager
    def batch(self) -> Iterator[None]:
        """Watchers of the fields changed inside run once, after the outermost batch; the
        store's lock is held throughout (module doc: threads), in the store's language."""
        with using_language(self.lang), self._lock:
            with self._batch():
                yield

    @contextmanager
    def _batch(self) -> Iterator[None]:
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._depth = 1
        try:
            with batch_call_watchers(self):
                try:
                    yield
                finally:
                    self._depth = 0  # commands called by the watchers batch on their own
        finally:
            self._depth = 0

    # ------------------------------------------------------------------ state bookkeeping
    def _set_state(self, state: GameState, events: list[Any], marks: list[int]) -> None:
        """A new position (new game, undo, load) with its whole event log."""
        with self.batch():
            self._marks = list(marks)
            self.state = state
            self.log = list(events)
            self._position_changed(signal_state=False)

    def _position_changed(self, signal_state: bool = True) -> None:
        s = self.state
        with self.batch():
            if signal_state:
                # the engine changed the state in place: assigning it again signals its
                # watchers (param compares engine states as unequal; ``param.trigger``
                # inside a batch would call the watchers twice)
                self.state = s
            self.pending = s.pending_decision
            self.side_to_act = s.side_to_act
            self.seen = s.view(self.as_viewer())
            self.after_position()

    def _record(self, action_events: list[list[Any]]) -> None:
        """Events of actions just applied to ``state``, one list per action."""
        log = list(self.log)
        for events in action_events:
            self._marks.append(len(log))
            log.extend(events)
        self.log = log

    def replay_events(self, state: GameState) -> tuple[list[Any], list[int]]:
        """The events and marks of ``state``'s action log, replayed from its seed (the
        engines do not keep the events of a game, so a loaded game gets its log this way);
        the checkpoints of the replay replace the store's."""
        events: list[Any] = []
        marks: list[int] = []
        on_start, on_action, found = self._replay_watchers(events, marks,
                                                           len(state.action_log))
        replay(self.game, state.seed, list(state.action_log), on_start=on_start,
               on_action=on_action, dice_version=state.dice.version)
        self._checkpoints = found[0]
        return events, marks

    def _replay_watchers(self, events: list[Any], marks: list[int], total: int | None = None
                         ) -> tuple[OnStart, OnAction, list[Checkpoints]]:
        """``on_start``/``on_action`` for ``wargame.saves.replay`` filling ``events`` and
        ``marks`` and taking checkpoints (into the returned one-item list) in the same pass.
        With the log's length ``total`` known, only the last ``LOAD_CHECKPOINTS`` checkpoints
        are taken (a clone costs ~12 ms late in Normandy; undo rarely goes further back, and
        then replays from the nearest earlier checkpoint or the seed)."""
        found: list[Checkpoints] = []
        first = 0 if total is None else total - self.LOAD_CHECKPOINTS * self.CHECKPOINT_EVERY

        def on_start(state: GameState) -> None:
            found.append(Checkpoints(self.game, state.seed, self.CHECKPOINT_EVERY,
                                     state.dice.version))
            events.extend(self.opening_events(state))

        def on_action(i: int, state: GameState, new: list[Any]) -> None:
            marks.append(len(events))
            events.extend(new)
            if i + 1 >= first:
                found[0].note(state, i + 1)

        return on_start, on_action, found

    def _checkpoint(self, n: int) -> None:
        """A checkpoint of the current state if its log (``n`` actions) is due one."""
        if n % self.CHECKPOINT_EVERY == 0:
            self._checkpoints.note(self.state, n)

    # ------------------------------------------------------------------ messages
    def say(self, text: str, error: bool = False) -> None:
        with self.batch():
            self.message, self.error = text, error

    def refuse(self, exc: IllegalAction) -> None:
        """Say why ``exc`` refused the action, in this page's language: the reason, then the
        rule it cites in the same language (issue #32: Memoir's section titles were English on
        a pt page), left out in student words (issue #28: rule citations for experts)."""
        rule = getattr(exc, "rule", "")
        cited = f" ({rule_text(rule)})" if rule and not self.in_student_words() else ""
        self.say(self.TEXT["illegal"].format(reason=exc.reason) + cited, error=True)

    # ------------------------------------------------------------------ commands
    def act(self, action: Any) -> bool:
        """Apply an action; on refusal keep the state and show the reason and the rule."""
        with self.batch():
            try:
                events = self.state.apply(action)
            except IllegalAction as exc:
                self.refuse(exc)
                return False
            self._record([events])
            self._checkpoint(len(self._marks))
            self.say(self.action_message(action, events))
            self._continue_computer()
            self._position_changed()
        return True

    def undo(self, steps: int = 1) -> bool:
        """Take back the last ``steps`` actions (the nearest checkpoint and a replay of the
        tail); a computer answer to the player's last action goes with it."""
        with self.batch():
            log = self.state.action_log
            n_log = len(log)
            if not n_log:
                self.say(self.TEXT["nothing_to_undo"])
                return False
            what = self.describe_logged(log[-1])
            runs = [r for r in self._computer_runs if r[1] <= n_log]
            computer_steps = 0
            if runs and runs[-1][1] == n_log and runs[-1][0] >= 1:
                computer_steps = n_log - runs[-1][0]
                what = self.describe_logged(log[runs[-1][0] - 1])
                steps = computer_steps + steps
                runs.pop()
            steps = max(0, min(steps, n_log))
            keep = n_log - steps
            if len(self._marks) == n_log:
                state = self.state_at(keep)
                end = self._marks[keep] if keep < n_log else len(self.log)
                events, marks = self.log[:end], self._marks[:keep]
            else:  # the state was changed behind the store's back: rebuild the log
                events, marks = [], []
                on_start, on_action, found = self._replay_watchers(events, marks)
                state = replay(self.game, self.state.seed, list(log[:keep]), on_start=on_start,
                               on_action=on_action, dice_version=self.state.dice.version)
                self._checkpoints = found[0]
            self._computer_runs = [r for r in runs if r[1] <= keep]
            self.clear_selection()
            self._set_state(state, events, marks)
            if computer_steps:
                self.say(self.TEXT["computer_undone"].format(what=what, n=computer_steps))
            else:
                self.say(self.TEXT["undone"].format(what=what))
        return True

    def state_at(self, n: int) -> GameState:
        """The position after the first ``n`` actions of the game (a new state): the nearest
        checkpoint and a replay of the tail; the checkpoints beyond ``n`` are dropped."""
        state = self.state
        if (self._checkpoints.game is not self.game or self._checkpoints.seed != state.seed
                or self._checkpoints.dice_version != state.dice.version):
            self._checkpoints = Checkpoints(self.game, state.seed, self.CHECKPOINT_EVERY,
                                            state.dice.version)
        target = self._checkpoints.state_at(list(state.action_log), n)
        self._checkpoints.drop_after(n)
        return target

    def save_text(self) -> str:
        """The game as save JSON (wargame.saves, format 3), for the game's owner only: a save
        holds the seed and the log (issue #27), so any other viewer is refused here, on the
        server, whatever its page sends (``SeatRefused``; a room's record is exported from
        the teacher's key-protected page)."""
        if not self.as_viewer().may_save:
            raise SeatRefused(UI["save_refused"], "rooms")
        with self._lock:
            save = to_save(self.state)
        return json.dumps(save, indent=1)

    def load_text(self, text: str | bytes) -> bool:
        """Load a save (text or the bytes of an uploaded file) of this very game. Any failure
        leaves the game as it was and shows what is wrong with the file."""
        with self.batch():
            try:
                data = parse_save_text(text, self.SAVE_SOURCE)
                events: list[Any] = []
                marks: list[int] = []
                actions = data.get("actions") if isinstance(data, dict) else None
                on_start, on_action, found = self._replay_watchers(
                    events, marks, len(actions) if isinstance(actions, list) else None)
                state = from_save(data, source=self.SAVE_SOURCE, game=self.game,
                                  on_start=on_start, on_action=on_action)
            except ScenarioError as exc:
                self.say(self.TEXT["bad_save"].format(error=exc), error=True)
                return False
            except Exception as exc:  # any other damage of the file: still only a message
                self.say(self.TEXT["bad_save"].format(error=f"{type(exc).__name__}: {exc}"),
                         error=True)
                return False
            self._computer_runs = []
            self._checkpoints = found[0]
            self.clear_selection()
            self._set_state(state, events, marks)
            self.say(self.TEXT["loaded"].format(turn=getattr(state, "turn", "?"),
                                                phase=self.phase_label()))
            self._continue_computer()
            self._position_changed()
        return True

    def restart(self, seed: int, game: GameDefinition | None = None) -> None:
        """A new game (of ``game`` when given) from ``seed``; a seed no save can hold (beyond
        -2**63 .. 2**63 - 1, a number typed in the seed box) is refused with a message and
        the game goes on (issue #31)."""
        if not -(2**63) <= int(seed) <= 2**63 - 1:
            from wargame.ui.session_text import SESSION

            with using_language(self.lang):
                self.say(SESSION["seed_range"].format(seed=str(seed)[:30]), error=True)
            return
        with self.batch():
            if game is not None:
                self.game = game
            state = self.game.new_state(int(seed))
            self._computer_runs = []
            self._checkpoints = Checkpoints(self.game, int(seed), self.CHECKPOINT_EVERY)
            self.clear_selection()
            self._set_state(state, self.opening_events(state), [])
            self.say(self.TEXT["new_game"].format(seed=seed))
            self._continue_computer()
            self._position_changed()

    # ------------------------------------------------------------------ the computer player
    def _computer_changed(self) -> None:
        with self.batch():
            side = self.computer
            if side == "none":
                self.say(self.TEXT["computer_off"])
                return
            self.say(self.TEXT["computer_on"].format(side=self.side_name(side)))
            if self.computer_play():
                self._position_changed()

    def computer_to_act(self) -> bool:
        """True when the side that must act now (the pending decision's, or the phase's) is
        the computer's."""
        s = self.state
        if self.computer == "none" or s.is_terminal:
            return False
        return s.side_to_act == self.computer

    def computer_play(self, limit: int = 5000) -> int:
        """Let the computer act until it is the player's turn to act again; returns the
        number of actions it made (each one legal: the engine applies it)."""
        with using_language(self.lang), self._lock:
            return self._computer_play(limit)

    def _computer_play(self, limit: int) -> int:
        if not self.computer_to_act():
            return 0
        if self._policy is None:
            self._policy = self.make_policy()
        s = self.state
        first = len(self._marks)
        kinds: dict[str, int] = {}
        applied: list[list[Any]] = []
        while self.computer_to_act() and len(applied) < limit:
            action = self._policy.choose(s)
            applied.append(s.apply(action))
            self._checkpoint(first + len(applied))
            kind = str(getattr(action, "kind", type(action).__name__))
            kinds[kind] = kinds.get(kind, 0) + 1
        n = len(applied)
        if n:
            with self.batch():
                self._record(applied)
                self._computer_runs.append((first, first + n))
                self.say(self.TEXT["computer_told"].format(
                    side=self.side_name(self.computer),
                    story=self.turn_story([e for got in applied for e in got]),
                    phase=self.phase_label()))
        return n

    def _continue_computer(self) -> None:
        if self.computer_to_act():
            note = self.message
            self.computer_play()
            self.say(f"{note} {self.message}".strip())
            self.clear_selection(everything=False)


STORY_SKIPS = frozenset({"ordered", "orders_done", "draw", "keep", "phase", "air_points",
                         "turn_end", "reshuffle"})
"""Event kinds the computer's turn story leaves out (bookkeeping, not what happened)."""


def new_seed() -> int:
    """A fresh seed for a new game nobody gave a seed to (issue 15: each new game its own
    dice); from ``secrets``, so two classes starting at the same second differ too."""
    import secrets

    return 1 + secrets.randbelow(999_999)
