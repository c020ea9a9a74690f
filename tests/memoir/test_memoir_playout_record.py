"""The same random playouts, action for action, after every speed-up of the engine (issue #19).

``data/playout_hashes.json`` holds, for two seeded random games of each bundled scenario
played to the end with ``random_action`` (the bench's playouts), digests of the legal actions
offered at every step (in their order), the action log, every event's text and the final
fingerprint. A change that only makes the engine faster must give exactly these games; one
game of each scenario is played with ``apply(action, validate=False)`` (the bench's contract),
the other with the validating ``apply``. The games are those of new games' dice (version 2,
wargame/dice.py), whose faces no Python upgrade changes; recorded again for them in issue 30,
after the same games with dice version 1 were checked to match the previous record exactly (so
the dice change changed the dice alone, not the engine). Recorded again in issue #27 (the
Memoir sides spelt "allied" and "axis"): the games of the previous record, their final
fingerprints and winners with the side words renamed, were checked to give exactly the new
"final" and "winner" digests; the legal, log and events digests did not change.

Regenerate (only when a rule change is meant to change the games): ``python -m
tests.memoir.test_memoir_playout_record --write``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from wargame.bots.memoir_random import random_action
from wargame.memoir import MemoirGame, scenario_ids

RECORD = Path(__file__).resolve().parent / "data" / "playout_hashes.json"
GAMES = ((0, False), (1, True))  # (seed, validate)
MAX_ACTIONS = 3000  # a cap: one recorded game (scenario 6, seed 1) is still on at 3000


def playout_digests(sid: str, seed: int, validate: bool) -> dict[str, object]:
    """Digests of one random game of scenario ``sid`` played to the end."""
    state = MemoirGame.from_scenario(sid).new_state(seed)
    rng = random.Random(seed)
    legal, events = hashlib.sha256(), hashlib.sha256()
    for e in state.setup_events:
        events.update(e.text.encode() + b"\n")
    n = 0
    while not state.is_terminal and n < MAX_ACTIONS:
        acts = state.legal_actions()
        legal.update(repr(acts).encode() + b"\n")
        action = random_action(state, rng)
        for e in state.apply(action, validate=validate):
            events.update(e.text.encode() + b"\n")
        n += 1
    log = json.dumps(state.action_log, sort_keys=True).encode()
    final = json.dumps(state.fingerprint(), sort_keys=True).encode()
    return {"actions": n, "legal": legal.hexdigest()[:16],
            "log": hashlib.sha256(log).hexdigest()[:16], "events": events.hexdigest()[:16],
            "final": hashlib.sha256(final).hexdigest()[:16], "winner": state.winner}


def record_of(sid: str) -> dict[str, object]:
    return {f"seed_{seed}": playout_digests(sid, seed, validate) for seed, validate in GAMES}


RECORDED: dict[str, dict] = (json.loads(RECORD.read_text(encoding="utf-8"))
                             if RECORD.exists() else {})


def test_every_scenario_has_recorded_playouts():
    assert sorted(RECORDED) == sorted(scenario_ids())


@pytest.mark.parametrize("sid", sorted(RECORDED))
def test_random_playouts_are_the_recorded_games(sid):
    assert record_of(sid) == RECORDED[sid], (
        f"scenario {sid}: the random playouts changed (legal actions, log, events or final "
        "position); a speed-up must not change them. If a rule changed on purpose, re-record "
        "with python -m tests.memoir.test_memoir_playout_record --write")


def test_the_digest_sees_a_different_game():
    """The record is sensitive: another seed gives other digests."""
    sid = sorted(RECORDED)[0]
    other = playout_digests(sid, 2, False)
    assert other != RECORDED[sid]["seed_0"]


if __name__ == "__main__" and "--write" in sys.argv:
    RECORD.write_text(json.dumps({sid: record_of(sid) for sid in scenario_ids()}, indent=1)
                      + "\n", encoding="utf-8")
    print(f"wrote {RECORD}")


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
