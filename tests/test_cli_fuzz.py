"""Fuzzing the ``wargame`` command line (issue 13): random argument lists built from the real
flags of the non-serving commands, with huge, negative and zero numbers, random strings, and
paths to folders, missing and junk files, FIFOs. Every run ends with an exit code (0, 2 or 3; 1 only
for ``scenario validate``'s refusals), never a traceback, and within HANG_SECONDS (a hang
detector, not a speed test).

``autoplay`` plays no game here: ``play`` is replaced by three moves of the policies,
each scenario is parsed once, and ``save_game`` writes nothing. ``make fuzz`` runs this with WARGAME_FUZZ_EXAMPLES examples
(the normal suite runs a bounded few).
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from wargame import cli
from wargame.bots.play import play as REAL_PLAY

EXAMPLES = int(os.environ.get("WARGAME_FUZZ_EXAMPLES", "0") or 0)
HANG_SECONDS = 2.0
COMMANDS = (("odds",), ("bombard",), ("scenario", "list"), ("scenario", "info"),
            ("scenario", "validate"), ("scenario", "import"), ("autoplay",))
ALLOWED = {0, 2, 3}


def fuzz_settings(examples: int) -> Any:
    """``examples`` in the normal suite, WARGAME_FUZZ_EXAMPLES under ``make fuzz``."""
    return settings(max_examples=EXAMPLES or examples, deadline=None, derandomize=not EXAMPLES,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _flags(command: tuple[str, ...]) -> list[str]:
    """The option strings of one subcommand, read from the parser itself."""
    parser = cli.build_parser()
    for name in command:
        sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
        parser = sub.choices[name]
    return sorted(s for a in parser._actions for s in a.option_strings)


FLAGS = {command: _flags(command) for command in COMMANDS}
WORK = Path(tempfile.mkdtemp(prefix="wargame-cli-fuzz-"))
(WORK / "folder").mkdir()
(WORK / "junk.yaml").write_bytes(b"\xff\x00: [unclosed\n")
(WORK / "junk.m44").write_text('{"board": [[[', encoding="utf-8")
(WORK / "deep.yaml").write_text("[" * 5000 + "]" * 5000, encoding="utf-8")
(WORK / "nan.m44").write_text('{"board": {"face": NaN}}', encoding="utf-8")
(WORK / "long.m44").write_text('{"board": ' + "9" * 5000 + "}", encoding="utf-8")
FIFOS = []
if hasattr(os, "mkfifo"):  # issue #31: refused from stat, never opened (open would block)
    for name in ("fifo.yaml", "fifo.m44", "fifo.json"):
        os.mkfifo(WORK / name)
        FIFOS.append(name)
PATHS = [str(WORK / name) for name in ("folder", "junk.yaml", "junk.m44", "deep.yaml", "missing",
                                       "missing/deeper.json", "junk.yaml/below.json",
                                       "nan.m44", "long.m44", *FIFOS)]
PATHS += ["/", "/dev/null", ".", "..", "-", "scenarios/normandy", "memoir44-1", "memoir44-999"]
WORDS = ["normandy", "dragoon", "memoir44", "memoir44-1", "demo", "greedy", "random",
         "infantry", "armor", "artillery", "plain", "bunker", "lava", "bfn", "bfn-19.1",
         "bfn-19.4:Utah+Gold", "bfn-19.4:Utah+Utah", "nonsense", "--", "-", "--help"]
NUMBERS = st.one_of(
    st.integers(-3, 40), st.integers(-10**30, 10**30), st.sampled_from([0, 1, -1, 65535, 65536]),
).map(str)
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"),
               max_size=30)
VALUES = st.one_of(NUMBERS, st.sampled_from(WORDS), st.sampled_from(PATHS), TEXT,
                   st.floats(allow_nan=True).map(str))


@st.composite
def argv(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(COMMANDS))
    args = list(command)
    flags = FLAGS[command] + ["--nope", "-x"]
    for _ in range(draw(st.integers(0, 7))):
        kind = draw(st.integers(0, 9))
        if kind < 6:
            args.append(draw(st.sampled_from(flags)))
            if draw(st.booleans()):
                args.append(draw(VALUES))
        else:
            args.append(draw(VALUES))
    if command == ("autoplay",) and draw(st.booleans()):  # a short Memoir game often
        args += ["--scenario", draw(st.sampled_from(["memoir44-1", "dragoon", "normandy"]))]
    return args


class Hang(BaseException):
    """Raised by the alarm: not an Exception, so that no guard of the CLI swallows it."""


def _few_moves(state: Any, policies: Any, max_actions: int = 0, on_action: Any = None) -> Any:
    """``play`` cut to three moves: the fuzz is about the command line, not the games."""
    return REAL_PLAY(state, policies, max_actions=3, on_action=on_action)


@pytest.fixture(scope="module")
def quiet_autoplay():
    import wargame.bots.play
    import wargame.operational.state
    import wargame.saves

    with pytest.MonkeyPatch.context() as mp:
        # each scenario parsed once (pure-Python YAML: 0.5-3 s for Normandy on a busy machine)
        mp.setattr(wargame.operational.state, "load_scenario",
                   functools.lru_cache(maxsize=8)(wargame.operational.state.load_scenario))
        mp.setattr(wargame.bots.play, "play", _few_moves)
        mp.setattr(wargame.saves, "save_game", lambda state, path: Path(path))
        mp.setattr(cli.autoplay, "MAX_GAMES", 50)  # the bound itself: tests/test_cli.py
        mp.chdir(WORK)
        yield


def run_guarded(args: list[str]) -> tuple[int, str, str]:
    def alarm(signum: int, frame: Any) -> None:
        raise Hang(f"no answer within {HANG_SECONDS} s: {args!r}"[:300])

    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return code, out.getvalue(), err.getvalue()


def check(args: list[str]) -> None:
    code, out, err = run_guarded(args)
    allowed = ALLOWED | ({1} if args[:2] == ["scenario", "validate"] else set())
    assert code in allowed, (args, code, err[-500:])
    assert "Traceback" not in err and "Traceback" not in out, (args, err[-2000:])
    if code not in (0,):
        lines = [line for line in err.split("\n") if line.strip()]
        assert len(lines) == 1, (args, err[-2000:])


@pytest.fixture(scope="module")
def warm(quiet_autoplay):
    """Load each scenario once outside the hang detector (the first load imports modules)."""
    for args in (["scenario", "info", "normandy"], ["autoplay", "--scenario", "normandy"],
                 ["autoplay", "--scenario", "dragoon"], ["autoplay", "--scenario", "memoir44-1"],
                 ["odds", "--game", "memoir44", "--dice", "3", "--target", "armor"],
                 ["odds", "--game", "normandy", "--attack", "3", "--defense", "1"],
                 ["bombard", "--game", "dragoon", "--strength", "3", "--vulnerability", "1"],
                 ["scenario", "validate", "memoir44-1"]):
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            cli.main(args)


@fuzz_settings(25)
@given(args=argv())
def test_fuzz_cli_arguments_give_an_exit_code_never_a_traceback(warm, args):
    check(args)


@fuzz_settings(10)
@given(command=st.sampled_from(COMMANDS), tail=st.lists(VALUES, max_size=5))
def test_fuzz_cli_free_words_give_an_exit_code_never_a_traceback(warm, command, tail):
    check([*command, *tail])


def test_the_hang_detector_detects_a_hang(monkeypatch):
    import time

    monkeypatch.setattr(cli.scenario, "cmd_scenario_list", lambda args, out: time.sleep(10))
    monkeypatch.setattr(sys.modules[__name__], "HANG_SECONDS", 0.2)
    with pytest.raises(Hang):
        run_guarded(["scenario", "list"])
