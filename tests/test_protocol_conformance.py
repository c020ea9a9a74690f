"""Every bundled scenario through the game protocol alone (wargame/protocol.py).

Nothing here knows which engine it holds: games come from ``open_game``, actions from
``legal_actions`` and ``action_from_dict``, saves from ``wargame.saves``. For each scenario,
seeded random playouts check that

* every legal action offered is accepted (all of them, on clones, at sampled positions);
* illegal actions (offered ones with a field changed, actions of another phase, garbage) are
  refused with an ``IllegalAction`` subclass and leave the position exactly as it was;
* save -> JSON -> load -> replay reaches the same fingerprint at random points, and undo by
  replay gives back the earlier position;
* the chance outcomes of an action sum to probability 1;
* legal actions both directions (issue 27), at random positions of every scenario (Normandy
  with the BFN variants too, reached by tests/test_offered_is_accepted.py's helpers) and at
  the campaigns' first combat: every listed action is legal and accepted; for actions made
  from the listed ones (fields changed, the other side's, malformed), ``is_legal`` is True
  exactly when ``apply`` accepts, ``why_illegal`` names ``apply``'s refusal, neither changes
  the state, and in Memoir '44 whatever is accepted is listed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.fuzzlib import fuzz_settings
from tests.test_offered_is_accepted import CASES as OFFERED_CASES
from tests.test_offered_is_accepted import MAX_STEPS as OFFERED_STEPS
from tests.test_offered_is_accepted import _game as offered_game
from tests.test_offered_is_accepted import _ids as offered_ids
from tests.test_offered_is_accepted import _reach as reach
from wargame.catalog import list_scenarios
from wargame.errors import IllegalAction
from wargame.games import open_game
from wargame.protocol import GameDefinition, GameState, Outcome, chance_outcomes
from wargame.saves import from_save, to_save, undo

SCENARIOS = [s["id"] for s in list_scenarios()]
CAMPAIGNS = [s for s in SCENARIOS if not s.startswith("memoir44-")]
# Campaign playouts are long (a turn is hundreds of actions): fewer steps, same checks.
STEPS = {"normandy": 70, "dragoon": 90}


def _position(state: GameState) -> str:
    return json.dumps([state.fingerprint(), state.to_json(), state.action_log], sort_keys=True,
                      default=str)


def _choose(state: GameState, rng: random.Random):
    actions = state.legal_actions()
    assert actions, "a game that is not over always offers an action"
    ends = [a for a in actions if a.to_dict()["kind"] in ("end_phase", "end_moves", "end_orders",
                                                          "end_battles")]
    if ends and rng.random() < 0.15:
        return rng.choice(ends)
    return rng.choice(actions)


def _mutations(state: GameState, rng: random.Random) -> list[dict]:
    """Action dicts built from offered actions with one field changed, plus garbage."""
    out: list[dict] = [{"kind": "no_such_action"}, {"kind": 5}, {}]
    offered = state.legal_actions()
    for action in rng.sample(offered, min(4, len(offered))):
        data = action.to_dict()
        for key, value in data.items():
            if key == "kind":
                continue
            if isinstance(value, str):
                out.append({**data, key: "9999"})
                out.append({**data, key: {}})
            elif isinstance(value, int) and not isinstance(value, bool):
                out.append({**data, key: value + 1000})
                out.append({**data, key: 0.5})
            elif isinstance(value, list):
                out.append({**data, key: value * 3 if value else ["9999"]})
                out.append({**data, key: 5})
    return out


def _check_refused(game: GameDefinition, state: GameState, data: dict) -> None:
    legal = {json.dumps(a.to_dict(), sort_keys=True) for a in state.legal_actions()}
    try:
        action = game.action_from_dict(data)
    except IllegalAction:
        return  # refused as malformed before reaching the rules
    if json.dumps(action.to_dict(), sort_keys=True) in legal:
        return  # the mutation happened to be legal
    before = _position(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert info.value.reason, "a refusal says why"
    assert _position(state) == before, f"refusing {data} changed the state"


@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_protocol_conformance(scenario_id: str) -> None:
    game = open_game(scenario_id)
    assert isinstance(game, GameDefinition)
    assert len(game.sides) == 2
    rng = random.Random(f"conformance-{scenario_id}")
    seed = rng.randrange(10_000)
    state = game.new_state(seed)
    assert isinstance(state, GameState)
    steps = STEPS.get(scenario_id, 250)
    checkpoints = sorted(rng.sample(range(1, steps), 3))
    for step in range(steps):
        if state.is_terminal:
            break
        assert state.side_to_act in game.sides
        decision = state.pending_decision
        if decision is not None:
            assert decision.side == state.side_to_act
            assert decision.options, "a pending decision offers at least one answer"
        if step % 25 == 0:
            offered = state.legal_actions()
            for action in rng.sample(offered, min(8, len(offered))):
                trial = state.clone()
                trial.apply(game.action_from_dict(json.loads(json.dumps(action.to_dict()))))
            for data in _mutations(state, rng):
                _check_refused(game, state, data)
        if step in checkpoints:
            saved = json.loads(json.dumps(to_save(state)))
            loaded = from_save(saved, source=f"<{scenario_id} step {step}>")
            assert loaded.fingerprint() == state.fingerprint()
            assert loaded.action_log == state.action_log
            if state.action_log:
                back = undo(state, 1)
                assert back.action_log == state.action_log[:-1]
        state.apply(_choose(state, rng))
    outcome = state.outcome()
    assert isinstance(outcome, Outcome)
    assert set(outcome.scores) == set(game.sides)
    assert outcome.final == state.is_terminal
    json.dumps(state.to_json())  # plain JSON


@pytest.mark.parametrize("scenario_id", ["memoir44-1", CAMPAIGNS[0]])
def test_chance_outcomes_sum_to_one(scenario_id: str) -> None:
    """Whatever action comes first that rolls dice, its outcomes are exact and complete."""
    game = open_game(scenario_id)
    state = game.new_state(7)
    rng = random.Random(3)
    for _ in range(400):
        actions = state.legal_actions()
        for action in actions[:30]:
            outcomes = chance_outcomes(state, action)
            if len(outcomes) > 1:
                assert sum((o.probability for o in outcomes), Fraction(0)) == 1
                faces = {o.faces for o in outcomes}
                assert len(faces) == len(outcomes)
                # forcing the faces reproduces the outcome the enumeration found
                o = outcomes[len(outcomes) // 2]
                forced = state.clone()
                forced.dice.force(*o.faces)
                forced.apply(action)
                assert forced.fingerprint()["units"] == o.state.fingerprint()["units"]
                return
        state.apply(_choose(state, rng))
    pytest.fail("no action with dice came up")


# ------------------------------------------------------------- legal actions, both directions
# Issue 27: ``legal_actions()`` is the canonical list (one representative per decision), and
# ``is_legal`` / ``why_illegal`` the exact test. At random positions of every bundled scenario
# (reached as in tests/test_offered_is_accepted.py, Normandy with the BFN variants too):
#
# * every listed action is legal and accepted by ``apply`` on a clone;
# * for candidates made from the listed actions (fields changed: some of the attackers, support
#   added or removed, air points from 0 to beyond the limits, other hexes and units, the other
#   side's units and actions, malformed values), ``is_legal`` is True exactly when ``apply`` on
#   a clone accepts, ``why_illegal`` gives the refusal ``apply`` raises, and neither changes
#   the state;
# * where the list is exact (Memoir '44), every accepted candidate is listed.
EXACT_LISTS = {"memoir"}  # game kinds whose legal_actions() is every legal action
CANDIDATES = 120  # mutated actions tried per position
BOTH_FAST = [c for c in OFFERED_CASES if c[0] != "normandy"]
BOTH_SLOW = [c for c in OFFERED_CASES if c[0] == "normandy"]


def _key(action) -> str:
    return json.dumps(action.to_dict(), sort_keys=True)


def _values(tree, depth: int = 0) -> Iterator:
    """Every leaf value of a small JSON tree (dict keys too), a few levels deep."""
    if depth > 3:
        return
    if isinstance(tree, dict):
        for k, v in tree.items():
            yield k
            yield from _values(v, depth + 1)
    elif isinstance(tree, list):
        for v in tree:
            yield from _values(v, depth + 1)
    else:
        yield tree


class _Pools:
    """The values the candidates are made of: those of the listed actions and of the actions
    the other side had at the opening, unit ids (the position's), and numbers around them."""

    def __init__(self, state: GameState, dicts: list[dict], others: list[dict]) -> None:
        texts: set[str] = {"9999", "zz"}
        numbers: set[int] = {0, 1, 2, 3, 5, 8, 12, 20, 40}
        units = state.fingerprint().get("units", {})
        for leaf in [*_values([{k: v for k, v in d.items() if k != "kind"} for d in dicts + others]),
                     *units, *_values(state.fingerprint())]:
            if isinstance(leaf, str):
                texts.add(leaf)
                if leaf.lstrip("-").isdigit():
                    numbers.add(int(leaf))
            elif isinstance(leaf, int) and not isinstance(leaf, bool):
                numbers.update((leaf - 1, leaf, leaf + 1))
        self.texts = sorted(texts)
        self.numbers = sorted(numbers)
        self.kinds = sorted({d["kind"] for d in dicts + others})
        self.fields = sorted({(k, json.dumps(v)) for d in dicts + others for k, v in d.items()
                              if k != "kind"})

    def value_like(self, value, rng: random.Random):
        """Another value for a field holding ``value``: mostly of its type, sometimes junk."""
        if rng.random() < 0.08:
            return rng.choice([None, {}, -1, 0.5, True, "", [], 10**9, "1" * 80])
        if isinstance(value, bool) or value is None:
            return rng.choice(self.texts + self.numbers)
        if isinstance(value, int):
            return rng.choice(self.numbers)
        if isinstance(value, str):
            return rng.choice(self.texts)
        if isinstance(value, list):
            items = list(value)
            move = rng.randrange(5)
            if move == 0 and items:  # a subset (possibly empty)
                return rng.sample(items, rng.randrange(len(items) + 1))
            if move == 1:  # one more
                pool = self.numbers if items and isinstance(items[0], int) else self.texts
                return [*items, rng.choice(pool)]
            if move == 2 and items:  # one replaced
                i = rng.randrange(len(items))
                return [*items[:i], self.value_like(items[i], rng), *items[i + 1:]]
            if move == 3 and items:  # one twice
                return [*items, rng.choice(items)]
            return rng.sample(items, len(items))  # reordered
        return rng.choice(self.texts)


def _mutant(data: dict, pools: _Pools, rng: random.Random) -> dict:
    """``data`` with one to three changes: a field's value, a field added or dropped, the kind."""
    out = dict(data)
    for _ in range(rng.randint(1, 3)):
        fields = [k for k in out if k != "kind"]
        move = rng.random()
        if fields and move < 0.7:
            name = rng.choice(fields)
            out[name] = pools.value_like(out[name], rng)
        elif move < 0.8 and pools.fields:
            name, value = rng.choice(pools.fields)
            out[name] = json.loads(value)
        elif move < 0.9 and fields:
            del out[rng.choice(fields)]
        else:
            out["kind"] = rng.choice(pools.kinds)
    return out


def _verdict(state: GameState, action) -> IllegalAction | None:
    """What ``apply`` does with ``action`` on a clone: None if it accepts, else its refusal."""
    trial = state.clone()
    try:
        trial.apply(action)
    except IllegalAction as exc:
        return exc
    return None


def _check_exact(state: GameState, action, where: str) -> bool:
    """``is_legal`` and ``why_illegal`` agree with ``apply`` on a clone, and change nothing."""
    before = _position(state)
    legal = state.is_legal(action)
    why = state.why_illegal(action)
    assert _position(state) == before, f"{where}: is_legal/why_illegal changed the state"
    refusal = _verdict(state, action)
    assert legal == (refusal is None), (
        f"{where}: is_legal({action!r}) is {legal} but apply "
        + ("accepts it" if refusal is None else f"refuses it: {refusal}"))
    assert (why is None) == legal, f"{where}: why_illegal({action!r}) is {why!r}"
    if why is not None:
        assert isinstance(why, IllegalAction) and why.reason
        assert (type(why), why.key, why.rule) == (type(refusal), refusal.key, refusal.rule), (
            f"{where}: why_illegal says {why!r}, apply refuses with {refusal!r}")
    return legal


def check_both_directions(scenario_id: str, variants: tuple[str, ...], seed: int,
                          fraction: float, players: str) -> None:
    game = offered_game(scenario_id, variants)
    state = reach(game, seed, int(fraction * OFFERED_STEPS[game.kind]), players)
    check_position(game, state, seed, f"{scenario_id} {seed} {fraction} {players}")


def check_position(game: GameDefinition, state: GameState, seed: int, where: str) -> None:
    offered = state.legal_actions()
    listed = {_key(a) for a in offered}
    # (a) listed => legal and accepted
    for action in offered:
        assert state.is_legal(action), f"{action} is listed and is_legal says no"
        assert _verdict(state, action) is None, f"{action} is listed and apply refuses it"
    # (b) legal <=> accepted, for mutants of the listed actions and of the other side's
    opening = game.new_state(seed)
    others = [a.to_dict() for a in opening.legal_actions()]
    dicts = [a.to_dict() for a in offered]
    pools = _Pools(state, dicts, others)
    rng = random.Random(f"both-{where}")
    candidates: list = [{"kind": "no_such_action"}, {"kind": 5}, {}, 5, None]
    candidates += rng.sample(others, min(10, len(others)))
    by_kind: dict[str, list[dict]] = {}
    for d in dicts:
        by_kind.setdefault(d["kind"], []).append(d)
    kinds = sorted(by_kind)
    for _ in range(CANDIDATES if kinds else 0):
        # a kind first, then one of its actions: the few attacks among hundreds of moves
        candidates.append(_mutant(rng.choice(by_kind[rng.choice(kinds)]), pools, rng))
    for data in candidates:
        try:
            action = game.action_from_dict(json.loads(json.dumps(data)))
        except IllegalAction:
            # malformed: not an action of this game; as it stands, neither legal nor accepted
            assert not state.is_legal(data), f"{data!r} is not an action and is_legal says yes"
            assert _verdict(state, data) is not None
            continue
        if _check_exact(state, action, f"{where}: {data}") and game.kind in EXACT_LISTS:
            assert _key(action) in listed, f"{where}: {action} is accepted, not listed"


@pytest.mark.parametrize("scenario_id,variants", BOTH_FAST, ids=offered_ids(BOTH_FAST))
@fuzz_settings(1)
@given(seed=st.integers(0, 2**31 - 1), fraction=st.floats(0.0, 1.0),
       players=st.sampled_from(["random", "heuristic", "mixed"]))
def test_legal_actions_both_directions(scenario_id, variants, seed, fraction, players):
    check_both_directions(scenario_id, variants, seed, fraction, players)


@pytest.mark.slow  # 9 + 25 s (measured on 2 busy cores)
@pytest.mark.parametrize("scenario_id,variants", BOTH_SLOW, ids=offered_ids(BOTH_SLOW))
@fuzz_settings(2)
@given(seed=st.integers(0, 2**31 - 1), fraction=st.floats(0.0, 1.0),
       players=st.sampled_from(["random", "heuristic", "mixed"]))
def test_legal_actions_both_directions_in_normandy(scenario_id, variants, seed, fraction,
                                                   players):
    check_both_directions(scenario_id, variants, seed, fraction, players)


@pytest.mark.parametrize("scenario_id,variants", [c for c in OFFERED_CASES if c[0] in CAMPAIGNS],
                         ids=offered_ids([c for c in OFFERED_CASES if c[0] in CAMPAIGNS]))
@pytest.mark.parametrize("seed", [1, 2])
def test_legal_actions_both_directions_at_the_first_combat(scenario_id, variants, seed):
    """The first Allied combat phase (CN/OD 3.0: the Allied movement phase ended at once),
    where the campaigns' attacks are many: some of the attackers, support added or left out,
    air points from 0 to past the limits."""
    game = offered_game(scenario_id, variants)
    state = game.new_state(seed)
    state.apply(next(a for a in state.legal_actions() if a.to_dict()["kind"] == "end_phase"))
    assert any(a.to_dict()["kind"] == "attack" for a in state.legal_actions())
    check_position(game, state, seed, f"{scenario_id} {variants} first combat, seed {seed}")
