"""Shared pieces of the fuzzers: the example count, the per-input hang detector, junk values,
tree walking and a tally of outcomes.

``WARGAME_FUZZ_EXAMPLES`` sets hypothesis' ``max_examples`` of every fuzzer (the normal suite
uses a small default per file); ``WARGAME_FUZZ_TIMEOUT`` the seconds after which one input
counts as a hang (default 2: a hang detector, not a speed assertion). Run with ``-s`` to see
each fuzzer's tally (accepted, refused, exceptions, hangs, slowest input)::

    WARGAME_FUZZ_EXAMPLES=600 .venv/bin/python -m pytest -s -p no:randomly tests/fuzz
"""

from __future__ import annotations

import gc
import math
import os
import signal
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from wargame.errors import IllegalAction
from wargame.scenario_errors import ScenarioError, short_repr

__all__ = [
    "Hang",
    "SURVEY",
    "Tally",
    "examples",
    "fuzz_settings",
    "hang_guard",
    "JUNK",
    "NUMBERS",
    "leaves",
    "paths",
    "get",
    "put",
    "delete",
    "deep",
]

TIMEOUT = float(os.environ.get("WARGAME_FUZZ_TIMEOUT", "2"))


def examples(default: int) -> int:
    """The number of examples: ``WARGAME_FUZZ_EXAMPLES`` if set, else ``default``."""
    raw = os.environ.get("WARGAME_FUZZ_EXAMPLES", "")
    return int(raw) if raw.strip() else default


SURVEY = bool(os.environ.get("WARGAME_FUZZ_SURVEY"))


def fuzz_settings(default: int) -> settings:
    """Bounded examples, no deadline, no example database, derandomized in the normal suite;
    without the explain phase (its tracing slows Python < 3.12 tenfold and would trip the hang
    detector)."""
    phases = [Phase.explicit, Phase.reuse, Phase.generate]
    if not SURVEY:
        phases.append(Phase.shrink)
    # the normal suite draws the same inputs every run (a red CI is a bug, never a dice roll);
    # ``make fuzz`` (WARGAME_FUZZ_EXAMPLES) explores new ones each time
    return settings(max_examples=examples(default), deadline=None, database=None,
                    derandomize=not os.environ.get("WARGAME_FUZZ_EXAMPLES", "").strip(),
                    suppress_health_check=list(HealthCheck), phases=phases)


class Hang(BaseException):  # noqa: N818 - not an Exception: no `except Exception` swallows it
    """One input ran longer than the hang detector allows."""


@contextmanager
def hang_guard(seconds: float = TIMEOUT) -> Iterator[None]:
    """Raise ``Hang`` in the main thread if the block uses more than ``seconds`` of CPU.

    CPU time (``ITIMER_PROF``), not wall time: an endless loop burns CPU and is caught, while
    other jobs on a shared machine do not turn a slow moment into a false hang.

    The objects alive before the block are frozen (``gc.freeze``) while it runs: a full
    garbage collection that an input's allocations set off then walks only what the input
    made, not the fuzzer's own heap (the parsed scenarios, hypothesis' data: millions of
    objects in a long run), which is no work of the input's. Without it, ``make fuzz`` at
    2,000 examples charged a 50,000-action save 1.4 s of CPU that a fresh process reads in
    0.6 s (issue #31)."""

    fired = []

    def _alarm(signum: int, frame: Any) -> None:
        fired.append(True)
        raise Hang(f"no answer within {seconds} s of CPU time")

    previous = signal.signal(signal.SIGPROF, _alarm)
    gc.freeze()
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        gc.unfreeze()
        signal.signal(signal.SIGPROF, previous)
    if fired:  # raised where it was swallowed (a gc callback, an `except BaseException`)
        raise Hang(f"no answer within {seconds} s of CPU time")


class Tally:
    """Outcomes of one fuzzer: counts by outcome, the slowest input, the failures."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.counts: Counter[str] = Counter()
        self.slowest = 0.0  # CPU seconds of the slowest input (what the hang guard counts)
        self.slowest_wall = 0.0
        self.slowest_input: Any = None  # what the slowest input was (its edits)
        self.slowest_gc = 0.0  # wall seconds of the slowest input in garbage collections
        self.failures: list[str] = []

    @contextmanager
    def timed(self, what: Any = None) -> Iterator[None]:
        collecting = [0.0, 0.0]  # seconds in garbage collections, start of the current one

        def _gc(phase: str, info: Any) -> None:
            now = time.perf_counter()
            if phase == "start":
                collecting[1] = now
            else:
                collecting[0] += now - collecting[1]

        gc.callbacks.append(_gc)
        start, wall = time.process_time(), time.perf_counter()
        try:
            yield
        finally:
            used = time.process_time() - start
            gc.callbacks.remove(_gc)
            if used > self.slowest:
                self.slowest, self.slowest_input, self.slowest_gc = used, what, collecting[0]
            self.slowest_wall = max(self.slowest_wall, time.perf_counter() - wall)

    def add(self, outcome: str) -> None:
        self.counts[outcome] += 1

    def fail(self, outcome: str, what: Any, exc: BaseException) -> str:
        self.counts[outcome] += 1
        tb = "".join(traceback.format_exception(exc, limit=-4))
        text = f"{outcome}: {short_repr(what, 300)}\n{tb}"
        self.failures.append(text)
        return text

    def check(self, outcome: str, what: Any, exc: BaseException) -> None:
        """Record a failure; fail the test now, or at the end of the module when surveying
        (``WARGAME_FUZZ_SURVEY=1``: every failure of a long run is listed, not the first)."""
        text = self.fail(outcome, what, exc)
        if not SURVEY:
            import pytest

            pytest.fail(text)

    def report(self) -> str:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        return (f"[fuzz] {self.name}: {sum(self.counts.values())} inputs: {counts}; "
                f"slowest input {self.slowest:.2f} s CPU ({self.slowest_wall:.2f} s wall, "
                f"{self.slowest_gc:.2f} s of it in garbage collection)"
                + (f": {short_repr(self.slowest_input, 200)}" if self.slowest_input is not None
                   else ""))

    def finish(self) -> None:
        """Print the tally (seen with ``pytest -s``) and, when surveying, every failure."""
        print("\n" + self.report())
        if self.failures:
            print("\n\n".join(self.failures[:30]))
        assert not self.failures, f"{len(self.failures)} failing inputs (listed above)"


# --- junk ------------------------------------------------------------------------------------
NUMBERS = [-1, 0, -1000, 1, 2, 10**6, 10**18, 0.5, -0.5, 1e308, math.inf, -math.inf, math.nan]

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(NUMBERS),
    st.integers(-10**20, 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(["", "0101", "9999", "12a4", "x" * 500, "allied", "axis", "AXIS", "open"]),
    st.lists(st.integers(-3, 3), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(-3, 3), max_size=2),
)


def deep(depth: int, leaf: Any = 1) -> Any:
    """A list nested ``depth`` levels deep (built without recursion)."""
    value: Any = leaf
    for _ in range(depth):
        value = [value]
    return value


# --- walking parsed data -------------------------------------------------------------------
def paths(data: Any, prefix: tuple = (), limit: int = 40) -> Iterator[tuple]:
    """Every key path below ``data`` (dict keys, list indexes: at most ``limit`` items a
    list, so huge lists do not dominate)."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield prefix + (k,)
            yield from paths(v, prefix + (k,), limit)
    elif isinstance(data, list):
        for i, v in enumerate(data[:limit]):
            yield prefix + (i,)
            yield from paths(v, prefix + (i,), limit)


def leaves(data: Any, limit: int = 40) -> Iterator[tuple[tuple, Any]]:
    """(path, value) of every scalar below ``data``."""
    for p in paths(data, (), limit):
        v = get(data, p)
        if not isinstance(v, dict | list):
            yield p, v


def get(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def put(data: Any, path: tuple, value: Any) -> None:
    get(data, path[:-1])[path[-1]] = value


def delete(data: Any, path: tuple) -> None:
    del get(data, path[:-1])[path[-1]]


def fuzz_case(tally: Tally, edits: Any, load: Callable[[], Any], file_ok: Callable[[str], bool],
              play: Callable[[Any], None] | None = None, max_message: int = 400,
              accepted: str = "accepted") -> None:
    """One fuzzed input: ``load`` it under the hang guard; a ``ScenarioError`` must name a
    file (``file_ok``), a field and what was expected, in a short message; what loads is
    ``play``ed (an ``IllegalAction`` there is an outcome, not a failure). Any other exception
    or a hang is tallied against ``edits``."""
    outcome = accepted
    try:
        with tally.timed(edits), hang_guard():
            try:
                loaded = load()
            except ScenarioError as exc:
                outcome = "refused"
                assert file_ok(str(exc.file)) and exc.field and exc.expected, str(exc)
                assert len(str(exc)) < max_message, str(exc)
            else:
                if play is not None:
                    try:
                        play(loaded)
                    except IllegalAction:
                        outcome = "illegal action in play"
    except Hang as exc:
        tally.check("hang", edits, exc)
        return
    except AssertionError:
        raise
    except Exception as exc:
        tally.check("exception", edits, exc)
        return
    tally.add(outcome)
