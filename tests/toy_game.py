"""A tiny test-only game family (issue #27): Nim with a die. Two sides take 1 to 3 stones from a
pile in turn; whoever takes the last stone wins; before the first move a die adds 1-6 stones.
It exists to prove that a game family is one module and one ``wargame.registry.register``
line: rooms, ``wargame autoplay`` and saves play it through the registry and the protocol.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from wargame.dice import DICE_VERSION, Dice
from wargame.errors import IllegalAction, MalformedAction
from wargame.protocol import Decision, Outcome
from wargame.registry import GameFamily

SIDES = ("red", "blue")
PREFIX = "toynim-"


@dataclass(frozen=True)
class Take:
    n: int
    kind: str = "take"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n}


class ToyGame:
    kind = "toynim"

    def __init__(self, scenario_id: str) -> None:
        self._id = scenario_id
        self.pile = int(scenario_id.removeprefix(PREFIX) or 7)

    @property
    def scenario_id(self) -> str:
        return self._id

    @property
    def sides(self) -> tuple[str, str]:
        return SIDES

    def options_json(self) -> dict[str, Any]:
        return {}

    def new_state(self, seed: int = 0, dice_version: int = DICE_VERSION) -> ToyState:
        return ToyState(self, seed, dice_version)

    def action_from_dict(self, data: Any) -> Take:
        if not isinstance(data, dict) or data.get("kind") != "take" or \
                not isinstance(data.get("n"), int):
            raise MalformedAction(f"not a toynim action: {data!r}", "toy")
        return Take(data["n"])


class ToyState:
    def __init__(self, game: ToyGame, seed: int, dice_version: int = DICE_VERSION) -> None:
        self.game, self.seed, self.dice = game, int(seed), Dice(seed, dice_version)
        self.pile = game.pile + self.dice.d6()
        self.to_move = 0
        self.action_log: list[dict[str, Any]] = []
        self.winner: str | None = None

    @property
    def side_to_act(self) -> str | None:
        return None if self.is_terminal else SIDES[self.to_move]

    @property
    def turn(self) -> int:
        return len(self.action_log) // 2 + 1

    @property
    def is_terminal(self) -> bool:
        return self.winner is not None

    @property
    def pending_decision(self) -> Decision | None:
        return None

    def legal_actions(self) -> list[Take]:
        return [] if self.is_terminal else [Take(n) for n in (1, 2, 3) if n <= self.pile]

    def is_legal(self, action: Any) -> bool:
        return action in self.legal_actions()

    def why_illegal(self, action: Any) -> IllegalAction | None:
        if self.is_legal(action):
            return None
        return IllegalAction(f"cannot take {getattr(action, 'n', action)!r}", "toy")

    def apply(self, action: Any) -> list[Any]:
        refusal = self.why_illegal(action)
        if refusal is not None:
            raise refusal
        side = SIDES[self.to_move]
        self.pile -= action.n
        self.action_log.append(action.to_dict())
        if self.pile == 0:
            self.winner = side
        self.to_move = 1 - self.to_move
        return [f"{side} takes {action.n}"]

    def outcome(self) -> Outcome:
        return Outcome(self.winner, {s: int(s == self.winner) for s in SIDES}, "last stone",
                       final=self.is_terminal)

    def fingerprint(self) -> dict[str, Any]:
        return {"pile": self.pile, "to_move": self.to_move, "draws": self.dice.draws}

    def to_json(self) -> dict[str, Any]:
        return {**self.fingerprint(), "seed": self.seed, "winner": self.winner}

    def view(self, viewer: Any) -> dict[str, Any]:
        data = self.to_json()
        if not viewer.sees_seed:
            data.pop("seed")
        return data

    def clone(self) -> ToyState:
        other = ToyState.__new__(ToyState)
        other.game, other.seed, other.dice = self.game, self.seed, self.dice.copy()
        other.pile, other.to_move, other.action_log = self.pile, self.to_move, list(self.action_log)
        other.winner = self.winner
        return other


class ToyPolicy:
    """Takes what leaves a multiple of 4 when it can, else at random (seeded by position)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: ToyState) -> Take:
        for a in state.legal_actions():
            if (state.pile - a.n) % 4 == 0:
                return a
        return random.Random(self.seed * 1009 + len(state.action_log)).choice(state.legal_actions())


def open_toy(scenario_id: str, variants: tuple[str, ...] = (),
             options: dict[str, Any] | None = None) -> ToyGame:
    if variants or options:
        raise ValueError("toynim takes no variants or options")
    return ToyGame(scenario_id)


def toy_policy(game: ToyGame, name: str, seed: int = 0) -> ToyPolicy:
    return ToyPolicy(seed)


def toy_scenarios() -> list[dict[str, str]]:
    return [{"id": f"{PREFIX}{n}", "game": "toynim", "title": f"Nim of {n} stones"}
            for n in (7, 9, 10, 12)]


FAMILY = GameFamily(kind="toynim", owns=lambda sid: str(sid).startswith(PREFIX),
                    opener="tests.toy_game:open_toy", policies=("perfect",),
                    scenarios="tests.toy_game:toy_scenarios",
                    policy_factory="tests.toy_game:toy_policy",
                    computer_sides={"red": "red", "blue": "blue"}, default_seed=1)
