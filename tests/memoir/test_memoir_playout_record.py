"""The same random playouts, action for action, after every speed-up of the engine (issue #19).

tests/data/memoir_playouts/ holds, for two seeded random games of each bundled scenario played
to the end with ``random_action`` (the bench's playouts), one readable file per game: a line
per action with the action as the log stores it, the number of legal actions offered and a
digest of them (in their order), and the events it gave by kind and fields; the setup events
first, the final position's digest and the winner last. Language-independent: event kinds and
their data, never their English text, so a change of wording changes nothing here, and a
change of the games shows as a diff of these files (issue 35).

A change that only makes the engine faster must give exactly these games; one game of each
scenario is played with ``apply(action, validate=False)`` (the bench's contract), the other
with the validating ``apply``. The games are those of new games' dice (version 2,
wargame/dice.py), whose faces no Python upgrade changes. History of the record: recorded for
dice version 2 in issue 30 (after the same games with dice version 1 were checked to match the
previous record exactly); again in issue #27 (the Memoir sides spelt "allied" and "axis");
in issue 35 turned from a file of digests into these readable files, which were checked when
written to give exactly the digests of the previous record (its legal, log, events, final and
winner digests, computed from the same games).

Regenerate (only when a rule change is meant to change the games), then read the diff:

    python -m tests.memoir.test_memoir_playout_record --write
"""

from __future__ import annotations

import difflib
import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from wargame.bots.memoir_random import random_action
from wargame.memoir import MemoirGame, scenario_ids

RECORDS = Path(__file__).resolve().parents[1] / "data" / "memoir_playouts"
GAMES = ((0, False), (1, True))  # (seed, validate)
MAX_ACTIONS = 3000  # a cap: one recorded game (scenario 6, seed 1) is still on at 3000
DIFF_LINES = 60


def _value(v: object) -> str:
    """A field's value: a plain word as it is, anything else as JSON."""
    if isinstance(v, str) and v and all(c.isalnum() or c in "_-(),." for c in v):
        return v
    return json.dumps(v, ensure_ascii=False, sort_keys=True)


def _fields(d: dict) -> str:
    return " ".join(f"{k}={_value(v)}" for k, v in d.items())


def _event(e) -> str:
    return f"{e.kind} {_fields(e.data)}".rstrip()


def record_name(sid: str, seed: int) -> str:
    return f"{sid}-seed{seed}.txt"


def playout_lines(sid: str, seed: int, validate: bool) -> list[str]:
    """One random game of scenario ``sid`` played to the end, as the record's lines."""
    state = MemoirGame.from_scenario(sid).new_state(seed)
    rng = random.Random(seed)
    lines = [f"# Memoir '44 scenario {sid}, seed {seed}, random_action with random.Random"
             f"({seed}), apply(validate={validate}); regenerate: python -m "
             "tests.memoir.test_memoir_playout_record --write",
             "# n action | legal: how many offered, sha256 of their repr list | events"]
    lines += [f"setup | {_event(e)}" for e in state.setup_events]
    n = 0
    while not state.is_terminal and n < MAX_ACTIONS:
        acts = state.legal_actions()
        offered = hashlib.sha256(repr(acts).encode()).hexdigest()[:12]
        action = random_action(state, rng)
        events = state.apply(action, validate=validate)
        n += 1
        entry = dict(state.action_log[-1])
        kind = entry.pop("kind", "?")
        lines.append(f"{n} {kind} {_fields(entry)}".rstrip()
                     + f" | legal {len(acts)} {offered} | " + "; ".join(map(_event, events)))
    final = json.dumps(state.fingerprint(), sort_keys=True).encode()
    lines.append(f"end actions={n} terminal={state.is_terminal} winner={state.winner} "
                 f"final={hashlib.sha256(final).hexdigest()[:16]}")
    return lines


def write_records() -> None:
    RECORDS.mkdir(parents=True, exist_ok=True)
    for old in RECORDS.glob("*.txt"):
        old.unlink()
    for sid in scenario_ids():
        for seed, validate in GAMES:
            path = RECORDS / record_name(sid, seed)
            path.write_text("\n".join(playout_lines(sid, seed, validate)) + "\n",
                            encoding="utf-8")
            print(f"wrote {path}")


def test_every_scenario_has_recorded_playouts():
    names = sorted(p.name for p in RECORDS.glob("*.txt"))
    assert names == sorted(record_name(sid, seed) for sid in scenario_ids() for seed, _ in GAMES)


@pytest.mark.parametrize("sid", sorted(scenario_ids()))
def test_random_playouts_are_the_recorded_games(sid):
    for seed, validate in GAMES:
        path = RECORDS / record_name(sid, seed)
        recorded = path.read_text(encoding="utf-8").splitlines()
        played = playout_lines(sid, seed, validate)
        if played != recorded:
            diff = list(difflib.unified_diff(recorded, played, str(path), "this engine",
                                             lineterm="", n=1))
            pytest.fail(
                f"scenario {sid}, seed {seed}: the random playout changed (legal actions, "
                "log, events or final position); a speed-up must not change it. If a rule "
                "changed on purpose, re-record with python -m "
                "tests.memoir.test_memoir_playout_record --write and read the diff.\n"
                + "\n".join(diff[:DIFF_LINES])
                + (f"\n... ({len(diff)} diff lines)" if len(diff) > DIFF_LINES else ""))


def test_the_record_sees_a_different_game():
    """The record is sensitive: another seed gives another game."""
    sid = sorted(scenario_ids())[0]
    recorded = (RECORDS / record_name(sid, 0)).read_text(encoding="utf-8").splitlines()
    other = playout_lines(sid, 2, False)
    assert other[2:] != recorded[2:] and other[0] != recorded[0]


def test_the_record_has_no_english_event_text():
    """Kinds and fields, not texts: no event's English sentence is in a record."""
    state = MemoirGame.from_scenario("1").new_state(0)
    text = (RECORDS / record_name("1", 0)).read_text(encoding="utf-8")
    sentences = [e.text for e in state.setup_events if len(e.text) > 12]
    assert sentences and not any(s in text for s in sentences)


if __name__ == "__main__" and "--write" in sys.argv:
    write_records()


def test_line_interiors_are_the_lines_moved_from_the_origin():
    """``line_interiors`` computes each line once per offset (the geometry does not depend on
    where the line starts): it must equal the interior of ``_line_variants`` computed at the
    line's own hexes, everywhere on a board (every 3rd hex of the standard board, every
    target within the longest range)."""
    from wargame.hexgrid import Hex
    from wargame.memoir.board import _line_variants, line_interiors, m44_to_hex

    starts = [m44_to_hex(row, col) for row in range(9) for col in range(row % 2, 25, 2)]
    n = 0
    for a in starts[::3]:
        for b in a.within(6):
            one, two = _line_variants(a, b)
            assert line_interiors(a, b) == (tuple(one[1:-1]), tuple(two[1:-1])), (a, b)
            n += 1
    assert n > 4000 and line_interiors(Hex(0, 0), Hex(3, 0)) != ((), ())
