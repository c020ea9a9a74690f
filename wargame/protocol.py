"""The one game protocol: what every engine offers to everything above it.

Modelled on OpenSpiel's Game/State split. A **game definition** (rules + scenario data,
immutable) makes **states** (one moment of play). Dashboards, rooms, bots, studies, saves and
the CLI speak only this protocol, so a capability written once serves Campanha da Normandia,
Operação Dragoon (``wargame.operational``) and Memoir '44 (``wargame.memoir``) alike.

Game definition::

    game.kind              "campaign" | "memoir"
    game.scenario_id       the bundled scenario id it was made from ("normandy", "memoir44-1")
    game.sides             the two sides, first player first (("allied", "axis"), ...)
    game.options_json()    plain JSON recreating the rule options (variants, Memoir options)
    game.new_state(seed, dice_version=DICE_VERSION)
                           the opening position, dice seeded with ``seed`` (the version of
                           the dice: ``wargame.dice``; an old save's replay passes 1)
    game.action_from_dict(data)  an action back from its JSON form (MalformedAction if not)

State::

    state.game, state.seed, state.dice
    state.side_to_act      the side that must act now (None once the game is over)
    state.legal_actions()  the canonical list of what the side to act may do: one
                           representative action for each choice it offers (a campaign attack
                           on a hex with all its eligible attackers and no optional support, a
                           move along the cheapest path), never an illegal one. Not every
                           legal action: in the campaigns some of the attackers, artillery or
                           air points added, a move along a chosen path, a reinforcement
                           entering and moving on, an air bombardment, an artillery
                           bombardment of a hex that can be attacked are legal and not listed.
                           Memoir '44 lists every legal action
    state.is_legal(action) the exact test: True exactly when ``apply`` would accept
                           ``action`` now (the state is not changed)
    state.why_illegal(action)  the ``IllegalAction`` ``apply`` would raise (reason and rule),
                           or None when it would accept ``action``; the state is not changed
    state.apply(action)    -> list of events; an illegal action raises a subclass of
                           ``wargame.errors.IllegalAction`` and leaves the state unchanged
    state.pending_decision a ``Decision`` (side, kind, prompt, rule, options) or None
    state.is_terminal      True once the game has ended
    state.outcome()        an ``Outcome`` (winner, scores, reason); provisional while playing
    state.action_log       the JSON form of every action applied since the opening
    state.fingerprint()    plain JSON summarising the position (saves check it on load)
    state.to_json()        plain JSON of the whole position (display, debugging, rooms)
    state.view(viewer)     plain JSON of what ``viewer`` (``wargame.viewer.Viewer``: side, role,
                           language) may know and nothing else: no seed or dice but for solo,
                           no hidden value or hand of a side it does not see, never the deck
    state.clone()          an independent copy

Every die is drawn from ``state.dice`` (``wargame.dice.Dice``), so ``chance_outcomes`` can
enumerate the exact outcomes of an action, and ``Dice.force`` makes tests roll chosen faces.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from wargame.dice import DICE_VERSION, Dice
from wargame.errors import IllegalAction

__all__ = [
    "Decision",
    "Outcome",
    "GameDefinition",
    "GameState",
    "Policy",
    "ChanceOutcome",
    "chance_outcomes",
    "TooManyOutcomes",
]


@dataclass(frozen=True)
class Decision:
    """A choice that interrupts play, owned by one side (boardgame.io's stages): which unit
    takes a loss, the retreat path, advance after combat, a defence declaration, Memoir's
    ambush or take-ground. ``options`` are the legal answers."""

    kind: str
    side: str
    prompt: str
    rule: str
    options: tuple[Any, ...]
    unit: Any = None


@dataclass(frozen=True)
class Outcome:
    """The result of a game: ``winner`` is a side or None (a draw, or not decided yet);
    ``scores`` are victory points (campaigns) or medals (Memoir '44); ``losses`` the units
    each side has lost (eliminated counters, Memoir units destroyed)."""

    winner: str | None
    scores: dict[str, int]
    reason: str = ""
    final: bool = False
    losses: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "scores": dict(self.scores), "reason": self.reason,
                "final": self.final, "losses": dict(self.losses)}


@runtime_checkable
class GameState(Protocol):
    game: Any
    seed: int
    dice: Dice

    @property
    def side_to_act(self) -> str | None: ...

    def legal_actions(self) -> list[Any]: ...

    def is_legal(self, action: Any) -> bool: ...

    def why_illegal(self, action: Any) -> IllegalAction | None: ...

    def apply(self, action: Any) -> list[Any]: ...

    @property
    def pending_decision(self) -> Decision | None: ...

    @property
    def is_terminal(self) -> bool: ...

    def outcome(self) -> Outcome: ...

    @property
    def action_log(self) -> list[dict[str, Any]]: ...

    def fingerprint(self) -> dict[str, Any]: ...

    def to_json(self) -> dict[str, Any]: ...

    def view(self, viewer: Any) -> dict[str, Any]: ...

    def clone(self) -> GameState: ...


@runtime_checkable
class GameDefinition(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def scenario_id(self) -> str: ...

    @property
    def sides(self) -> tuple[str, str]: ...

    def options_json(self) -> dict[str, Any]: ...

    def new_state(self, seed: int = 0, dice_version: int = DICE_VERSION) -> GameState: ...

    def action_from_dict(self, data: Any) -> Any: ...


@runtime_checkable
class Policy(Protocol):
    """A computer player: its choice depends on the state alone (no memory), so undo, replay
    and rooms never see a bot act differently on the same position."""

    def choose(self, state: Any) -> Any:
        """The action to play in ``state``, the game's own ``GameState`` (each game's players
        take their game's state class, so the parameter is not narrowed here)."""
        ...


# ---------------------------------------------------------------------- chance outcomes
@dataclass
class ChanceOutcome:
    """One way the dice can fall for an action: the faces drawn in order, their exact
    probability, and the state and events they lead to."""

    faces: tuple[int, ...]
    probability: Fraction
    state: Any
    events: list[Any] = field(default_factory=list)


class TooManyOutcomes(ValueError):
    pass


class _NeedDie(BaseException):
    """Raised by the probe dice when the action draws one more die than the scripted faces:
    a BaseException so that no engine ``except Exception`` swallows it."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class _ProbeDice(Dice):
    """Dice that roll scripted faces, then stop the action at the first unscripted die."""

    def __init__(self, base: Dice, faces: tuple[int, ...]) -> None:
        super().__init__(base.seed, base.version)
        self.setstate(base.getstate())
        self.sides_log = list(base.sides_log)
        self._script = list(faces)
        self.sides_seen: list[int] = []

    def die(self, sides: int) -> int:
        if not self._script:
            raise _NeedDie(sides)
        face = self._script.pop(0)
        self.sides_log.append(sides)
        self.sides_seen.append(sides)
        return face


def _enumerate(state: Any, action: Any, limit: int) -> Iterator[ChanceOutcome]:
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    explored = 0
    while stack:
        faces, probability = stack.pop()
        explored += 1
        if explored > limit:
            raise TooManyOutcomes(f"more than {limit} dice sequences for {action!r}")
        trial = state.clone()
        trial.dice = _ProbeDice(trial.dice, faces)
        try:
            events = trial.apply(action)
        except _NeedDie as need:
            stack.extend((faces + (f,), probability / need.sides)
                         for f in range(need.sides, 0, -1))
            continue
        trial.dice = _continue_dice(trial.dice)
        yield ChanceOutcome(faces, probability, trial, list(events))


def _continue_dice(probe: _ProbeDice) -> Dice:
    dice = Dice(probe.seed, probe.version)
    dice.setstate(probe.getstate())
    dice.sides_log = list(probe.sides_log)
    return dice


def chance_outcomes(state: Any, action: Any, limit: int = 20000,
                    key: Callable[[Any], Any] | None = None) -> list[ChanceOutcome]:
    """Every way the dice can fall when ``action`` is applied to ``state``, with exact
    probabilities summing to 1 (``state`` itself is not changed).

    The action is applied to clones whose dice roll scripted faces: the first unscripted die
    stops the trial and branches on its faces, so a 2d6 combat is 36 outcomes and an action
    without dice is one. ``key`` (e.g. ``lambda s: json.dumps(s.fingerprint())``) merges
    outcomes leading to the same position, summing their probabilities. The states reached
    are hypothetical: their dice do not follow the seed, so they are for analysis, not saves.
    """
    outcomes = list(_enumerate(state, action, limit))
    if key is None:
        return outcomes
    merged: dict[Any, ChanceOutcome] = {}
    for o in outcomes:
        k = key(o.state)
        if k in merged:
            merged[k].probability += o.probability
        else:
            merged[k] = o
    return list(merged.values())
