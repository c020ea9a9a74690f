"""Checkpoints of one game, so that undo and going back never replay from the seed.

A ``Checkpoints`` keeps ``state.clone()`` copies of a game every ``every`` actions, keyed by
the length of the action log. Going back to log length ``n`` (``state_at``) clones the nearest
checkpoint at or before ``n`` and replays only the tail (``wargame.saves.replay``, with its
fast path), noting the checkpoints it passes. A checkpoint is used only if its action log is a
prefix of the log asked for (and it has the same game, seed and dice version), so a state changed behind
the owner's back never yields a wrong position: at worst the replay starts further back.

Cost (bench/replay.py): a clone of a late Normandy position is about 2-3 ms; the tail is at
most ``every`` actions of fast-path replay (about 0.3 ms each).
"""

from __future__ import annotations

from typing import Any

from wargame.dice import DICE_VERSION, check_dice_version
from wargame.protocol import GameDefinition, GameState
from wargame.saves import OnAction, replay

__all__ = ["Checkpoints", "DEFAULT_EVERY"]

DEFAULT_EVERY = 50


class Checkpoints:
    """Clones of one game's states every ``every`` actions (of the game ``game``, seed
    ``seed`` and dice ``dice_version``), keyed by log length; the opening is always available
    (``game.new_state``)."""

    def __init__(self, game: GameDefinition, seed: int, every: int = DEFAULT_EVERY,
                 dice_version: int = DICE_VERSION) -> None:
        if every < 1:
            raise ValueError(f"every: a positive number of actions, got {every!r}")
        self.game = game
        self.seed = int(seed)
        self.dice_version = check_dice_version(dice_version)
        self.every = every
        self._states: dict[int, GameState] = {}

    def __len__(self) -> int:
        return len(self._states)

    def positions(self) -> list[int]:
        """The log lengths that have a checkpoint, in order."""
        return sorted(self._states)

    def note(self, state: GameState, n: int | None = None) -> bool:
        """Keep a clone of ``state`` (whose log has ``n`` actions: given by a caller that knows
        it, to spare building the log) if ``n`` is a multiple of ``every`` and there is no
        checkpoint there yet; True when one was taken. A checkpoint of another line of play
        left there is dropped by ``nearest`` when it is found not to match."""
        n = len(state.action_log) if n is None else n
        if (n == 0 or n % self.every or n in self._states or state.seed != self.seed
                or state.dice.version != self.dice_version):
            return False
        self._states[n] = state.clone()
        return True

    def clear(self) -> None:
        self._states.clear()

    def drop_after(self, n: int) -> None:
        """Forget the checkpoints beyond log length ``n`` (after undo: they are of a future
        that may not happen)."""
        for k in [k for k in self._states if k > n]:
            del self._states[k]

    def nearest(self, log: list[Any], n: int | None = None) -> tuple[int, GameState | None]:
        """The nearest valid checkpoint at or before log length ``n`` (default: all of
        ``log``): (its length, the checkpoint itself, not a copy) or (0, None) for the opening.
        A checkpoint whose log is not a prefix of ``log`` is dropped."""
        n = len(log) if n is None else n
        for k in sorted((k for k in self._states if k <= n), reverse=True):
            state = self._states[k]
            if state.action_log == log[:k]:
                return k, state
            del self._states[k]  # of another line of play
        return 0, None

    def state_at(self, log: list[Any], n: int, source: str = "<log>",
                 on_action: OnAction | None = None) -> GameState:
        """The state after the first ``n`` actions of ``log``: a clone of the nearest
        checkpoint plus a replay of the tail, noting checkpoints on the way."""
        if not 0 <= n <= len(log):
            raise ValueError(f"n: a log length from 0 to {len(log)}, got {n!r}")
        k, base = self.nearest(log, n)
        start = (self.game.new_state(self.seed, self.dice_version) if base is None
                 else base.clone())

        def step(i: int, state: GameState, events: list[Any]) -> None:
            if (i + 1) % self.every == 0:
                self.note(state, i + 1)
            if on_action is not None:
                on_action(i, state, events)

        return replay(self.game, self.seed, log[k:n], source, start=start, first=k,
                      on_action=step)
