"""The Memoir '44 heuristic players make the same choices after every speed-up (issue #33).

tests/data/memoir_bot_games/ holds, one readable file each, whole games between the computer
players from fixed seeds -- easy against normal (``MemoirSearchPolicy(seed, max_seconds=1000)``:
its count of play-outs decides, never the clock) and ``FastEasy`` in hard's bold style against
its careful one -- a line per action (who chose it, the action as the log stores it), and hard's
choices (``MemoirHardPolicy(seed, playouts=16, max_seconds=1000)``: the action, the units it
orders, its arm's mean win chance to the last digit) at a few positions of one of them. A change
that only makes the players faster must give exactly these files. The files were written from
the players as they were before issue #33's speed-ups (commit 15484c1); the larger record of
``bench/memoir_choices.py`` (17 scenarios x 2 seeds) is checked the same way by hand.

Regenerate (only when a change is meant to change the players' choices), then read the diff:

    python tests/bots/test_memoir_bot_games.py --write
"""

from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path

import pytest

from wargame.bots.memoir_easy import MemoirEasyPolicy
from wargame.bots.memoir_fast import FastEasy
from wargame.bots.memoir_hard import STYLES, MemoirHardPolicy
from wargame.bots.memoir_search import MemoirSearchPolicy
from wargame.memoir import MemoirGame
from wargame.memoir.board import ALLIES, AXIS

RECORDS = Path(__file__).resolve().parents[1] / "data" / "memoir_bot_games"
# (name, scenario, seed): easy-normal = easy with the Allies, normal with the Axis
GAMES = (("easy-normal", "4", 0), ("normal-easy", "9", 1), ("bold-careful", "1", 1))
HARD = ("hard", "4", 20000)  # hard's choices at card plays 2 and 4 and two other decisions
MAX_ACTIONS = 3000
DIFF_LINES = 60


def _action(a) -> str:
    return json.dumps(a.to_dict(), separators=(",", ":"))


def game_lines(name: str, sid: str, seed: int) -> list[str]:
    """A whole game between the players ``name`` names, as the record's lines."""
    state = MemoirGame.from_scenario(sid).new_state(seed)
    lines = [f"# Memoir '44 scenario {sid}, seed {seed}: {name.replace('-', ' (Allies) vs ')} "
             "(Axis); regenerate: python tests/bots/test_memoir_bot_games.py --write",
             "# n side action"]
    allied, axis = name.split("-")
    if name == "bold-careful":
        fast = {ALLIES: FastEasy(STYLES["bold"]), AXIS: FastEasy(STYLES["careful"])}
        while not state.winner and len(state.history) < MAX_ACTIONS:
            side, n = state.side_to_act, len(state.history)
            fast[side].step(state)
            lines += [f"{i} {side} {_action(a)}" for i, a in enumerate(state.history[n:], n)]
    else:
        make = {"easy": lambda: MemoirEasyPolicy(seed),
                "normal": lambda: MemoirSearchPolicy(seed, max_seconds=1000)}
        pols = {ALLIES: make[allied](), AXIS: make[axis]()}
        while not state.winner and len(state.history) < MAX_ACTIONS:
            side = state.side_to_act
            a = pols[side].choose(state)
            lines.append(f"{len(state.history)} {side} {_action(a)}")
            state.apply(a)
    lines.append(f"# winner {state.winner}, medals {state.medals(ALLIES)}-{state.medals(AXIS)}")
    return lines


def hard_lines(sid: str, seed: int) -> list[str]:
    """Hard's choices in a game played by normal: at its 2nd and 4th card plays, and at the
    first two other decisions of the 4th turn (a larger minor share, so that they search)."""
    state = MemoirGame.from_scenario(sid).new_state(seed)
    normal = MemoirSearchPolicy(1)
    lines = [f"# Memoir '44 scenario {sid}: hard's choices (MemoirHardPolicy({seed}, "
             "playouts=16, max_seconds=1000)) in a game played by MemoirSearchPolicy(1)",
             "# n kind action | orders | mean win chance of its arm | play-outs"]
    cards = minors = 0
    while not state.winner and cards < 5:
        card_play = state.phase == "card" and not state.pending
        cards += card_play
        share = None
        if card_play and cards in (2, 4):
            share = 0.25
        elif not card_play and cards == 4 and minors < 2 and len(state.legal_actions()) > 1:
            minors += 1
            share = 0.5
        if share is not None:
            hard = MemoirHardPolicy(seed, playouts=16, max_seconds=1000, minor_share=share)
            info = hard.reason(state)
            lines.append(f"{len(state.history)} {info['kind']} {_action(info['action'])} | "
                         f"{info.get('orders')} | {info.get('win')!r} | {info.get('n')}")
        state.apply(normal.choose(state))
    return lines


def record_name(name: str, sid: str, seed: int) -> str:
    return f"{name}-{sid}-seed{seed}.txt"


def lines_of(name: str, sid: str, seed: int) -> list[str]:
    return hard_lines(sid, seed) if name == "hard" else game_lines(name, sid, seed)


@pytest.mark.parametrize("name,sid,seed", [*GAMES, HARD])
def test_bots_make_the_recorded_choices(name, sid, seed):
    path = RECORDS / record_name(name, sid, seed)
    expected = path.read_text(encoding="utf-8").splitlines()
    got = lines_of(name, sid, seed)
    if got != expected:
        diff = list(difflib.unified_diff(expected, got, str(path), "now", lineterm="", n=2))
        pytest.fail("the players' choices changed:\n" + "\n".join(diff[:DIFF_LINES]))


def write() -> None:
    import wargame

    print(f"players from {Path(wargame.__file__).parent}")
    RECORDS.mkdir(parents=True, exist_ok=True)
    for name, sid, seed in [*GAMES, HARD]:
        path = RECORDS / record_name(name, sid, seed)
        path.write_text("\n".join(lines_of(name, sid, seed)) + "\n", encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    if "--write" in sys.argv[1:]:
        write()
    else:
        print(__doc__)
