"""Record, or check, the Memoir '44 heuristic players' choices (issue #33: faster, same choices).

A change that only makes easy, normal, FastEasy or hard faster must leave every choice as it
was. This script plays, for every bundled scenario and seeds 0 and 1:

- easy against normal (``MemoirSearchPolicy(seed, max_seconds=1000)``: its count of
  play-outs, not the clock, decides), easy with the Allies for seed 0, with the Axis for seed 1;
- ``FastEasy`` against ``FastEasy``: normal's weights on both sides (seed 0), the hard player's
  bold and careful styles (seed 1);

each up to ``--max-actions`` actions, and records every action; then hard's choice
(``MemoirHardPolicy(seed, playouts=16, max_seconds=1000)``, its action, orders and the
mean win chance of its arm) at card plays and other decisions of a few positions. ``--write``
stores it all as JSON in test-artifacts/; without it the choices are compared with that file
and the first difference is printed. CPU seconds of each part are printed as they go.

Run: ``python bench/memoir_choices.py [--write] [--scenarios 1,4] [--parts games,fast,hard]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

try:
    import wargame  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame.bots.memoir_easy import MemoirEasyPolicy  # noqa: E402
from wargame.bots.memoir_fast import FastEasy  # noqa: E402
from wargame.bots.memoir_hard import STYLES, MemoirHardPolicy  # noqa: E402
from wargame.bots.memoir_search import NORMAL_WEIGHTS, MemoirSearchPolicy  # noqa: E402
from wargame.memoir import MemoirGame, scenario_ids  # noqa: E402
from wargame.memoir.board import ALLIES, AXIS  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "test-artifacts" / "memoir_choices.json"
HARD_SCENARIOS = ("4", "1", "9", "overlord")


def easy_vs_normal(sid: str, seed: int, max_actions: int) -> list[dict]:
    state = MemoirGame.from_scenario(sid).new_state(seed)
    easy, normal = MemoirEasyPolicy(seed), MemoirSearchPolicy(seed, max_seconds=1000)
    pols = {ALLIES: easy, AXIS: normal} if seed % 2 == 0 else {ALLIES: normal, AXIS: easy}
    while not state.winner and len(state.history) < max_actions:
        state.apply(pols[state.side_to_act].choose(state))
    return state.action_log


def fast_vs_fast(sid: str, seed: int, max_actions: int) -> list[dict]:
    state = MemoirGame.from_scenario(sid).new_state(seed)
    if seed % 2 == 0:
        fast = {ALLIES: FastEasy(NORMAL_WEIGHTS), AXIS: FastEasy(NORMAL_WEIGHTS)}
    else:
        fast = {ALLIES: FastEasy(STYLES["bold"]), AXIS: FastEasy(STYLES["careful"])}
    while not state.winner and len(state.history) < max_actions:
        fast[state.side_to_act].step(state)
    return state.action_log


def _plain(v):
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items() if k not in ("from", "target")}
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    if hasattr(v, "to_dict"):
        return v.to_dict()
    if isinstance(v, float):
        return repr(v)
    return v if isinstance(v, int | str | bool | type(None)) else repr(v)


def hard_choices(sid: str, seed: int) -> list[dict]:
    """Hard's reasons at the card plays 3, 5, 7 of a game played by normal, and at the first
    few other decisions of its turns 5 and 7 (a larger minor share so that they search)."""
    state = MemoirGame.from_scenario(sid).new_state(seed)
    normal = MemoirSearchPolicy(seed, max_seconds=1000)
    out = []
    cards = 0
    minors = 0
    while not state.winner and cards < 8:
        if state.phase == "card" and not state.pending:
            cards += 1
            minors = 0
            if cards in (3, 5, 7):
                hard = MemoirHardPolicy(seed, playouts=16, max_seconds=1000)
                out.append({"at": len(state.history), **_plain(hard.reason(state))})
        elif cards in (5, 7) and minors < 3 and len(state.legal_actions()) > 1:
            minors += 1
            hard = MemoirHardPolicy(seed, playouts=16, max_seconds=1000, minor_share=0.5)
            out.append({"at": len(state.history), **_plain(hard.reason(state))})
        state.apply(normal.choose(state))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--scenarios", default="")
    ap.add_argument("--parts", default="games,fast,hard")
    ap.add_argument("--max-actions", type=int, default=5000)
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)
    sids = args.scenarios.split(",") if args.scenarios else list(scenario_ids())
    parts = args.parts.split(",")
    got: dict[str, object] = {}
    for part in parts:
        t = time.process_time()
        if part == "hard":
            for sid in HARD_SCENARIOS if not args.scenarios else sids:
                got[f"hard/{sid}/20000"] = hard_choices(sid, 20000)
        else:
            fn = easy_vs_normal if part == "games" else fast_vs_fast
            for sid in sids:
                for seed in (0, 1):
                    got[f"{part}/{sid}/{seed}"] = fn(sid, seed, args.max_actions)
        print(f"{part}: {time.process_time() - t:.1f} CPU s", flush=True)
    out = Path(args.out)
    if args.write:
        old = json.loads(out.read_text()) if out.exists() else {}
        old.update(got)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(old, indent=0, sort_keys=True))
        print(f"wrote {len(got)} records to {out}")
        return 0
    ref = json.loads(out.read_text())
    bad = 0
    for key, v in got.items():
        r = ref.get(key)
        if r is None:
            print(f"{key}: not in the reference")
            bad += 1
        elif r != v:
            bad += 1
            i = next((i for i, (x, y) in enumerate(zip(r, v, strict=False)) if x != y),
                     min(len(r), len(v)))
            print(f"{key}: differs at item {i}: reference {r[i] if i < len(r) else None} "
                  f"now {v[i] if i < len(v) else None}")
    print(f"{len(got) - bad}/{len(got)} identical")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
