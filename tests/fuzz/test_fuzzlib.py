"""The fuzz harness itself can fail: an uncaught exception, a vague error or a hang in a
fuzzed input fails the test (so the fuzzers' zero counts mean something)."""

from __future__ import annotations

import time

import pytest

from tests.fuzz.fuzzlib import Tally, fuzz_case
from wargame.scenario_errors import ScenarioError


def _raise(exc: BaseException):
    def load():
        raise exc
    return load


def test_a_raw_exception_fails():
    with pytest.raises(pytest.fail.Exception, match="exception"):
        fuzz_case(Tally("probe"), ["edit"], _raise(TypeError("boom")), lambda f: True)


def test_an_error_without_its_file_fails():
    with pytest.raises(AssertionError):
        fuzz_case(Tally("probe"), ["edit"], _raise(ScenarioError("other.yaml", "x", "y")),
                  lambda f: f == "mine.yaml")


@pytest.mark.slow  # 2 s: the hang guard's limit (measured on 2 busy cores)
def test_a_hang_fails():
    def spin():
        end = time.process_time() + 10
        while time.process_time() < end:
            pass
    with pytest.raises(pytest.fail.Exception, match="hang"):
        fuzz_case(Tally("probe"), ["edit"], spin, lambda f: True)


def test_a_refusal_and_an_acceptance_are_counted():
    tally = Tally("probe")
    fuzz_case(tally, ["a"], _raise(ScenarioError("mine.yaml", "x", "y")), lambda f: f == "mine.yaml")
    fuzz_case(tally, ["b"], lambda: 1, lambda f: True, play=lambda loaded: None)
    assert tally.counts == {"refused": 1, "accepted": 1}


def test_the_hang_guard_charges_an_input_only_with_its_own_garbage():
    """The objects alive before an input are frozen while it runs (a full collection it sets
    off walks only its own objects), and collected again as usual afterwards."""
    import gc

    from tests.fuzz.fuzzlib import hang_guard

    heap = [[i] for i in range(50_000)]  # the fuzzer's own long-lived data
    assert gc.get_freeze_count() == 0
    with hang_guard():
        frozen = gc.get_freeze_count()
    assert frozen >= len(heap) and gc.get_freeze_count() == 0


def test_the_tally_names_the_slowest_input_and_its_collections():
    tally = Tally("probe")
    fuzz_case(tally, ["quick"], lambda: 1, lambda f: True)
    fuzz_case(tally, ["slow"], lambda: sum(range(3_000_000)), lambda f: True)
    assert tally.slowest_input == ["slow"] and "['slow']" in tally.report()
    assert "garbage collection" in tally.report() and tally.slowest_gc >= 0
