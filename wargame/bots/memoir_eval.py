"""A Memoir '44 position evaluation learned from self-play, evaluated in pure Python.

``features(state, side)`` describes a position from ``side``'s point of view with what that
side's player may know (its own hand, the sizes of the others, the board); ``MemoirEval``
turns them into the log-odds that ``side`` wins, with weights fitted offline by
``tools/train_memoir_eval.py`` (scikit-learn's logistic regression, not needed at run time)
and shipped as ``memoir_eval.json`` beside this module. The fit, its data and its figures are
in docs/bots.md ("hard").

The features (``FEATURES``), each ``side``'s minus the enemy's unless named otherwise:

- medals (M44 p.14 Victory) and the *race*: 1 / the medals each side still needs;
- figures lost by kind (infantry, armour, guns: the enemy's losses minus ``side``'s, from each
  unit's figures at full strength, so a scenario's unequal forces do not count) and units down
  to one figure;
- units under threat: the battles the enemy could fight next turn against each side's units
  (``EasyBrain.threat`` with normal's weights: exact dice, cover, armour's reach), and how
  many units face one worth at least 0.25 medals;
- objectives held (their medals: ``EasyBrain.objective_value``, M44 p.14);
- cards in hand: the units ``side``'s own cards can order (a section card its count, Assault
  every unit of a section counted as 4, a tactic card 2) and the hand sizes (the enemy's hand is
  never read, only its size);
- ``to_act``: 1 when ``side`` is about to play a card.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

from wargame.memoir.board import other_side
from wargame.memoir.cards import card
from wargame.memoir.game import MemoirState

from .memoir_easy import EasyBrain, Weights

__all__ = ["FEATURES", "features", "MemoirEval", "load_eval", "MODEL_PATH", "hand_strength"]

MODEL_PATH = Path(__file__).resolve().with_name("memoir_eval.json")
FEATURES = ("medals", "race_own", "race_enemy", "inf_lost", "tank_lost", "gun_lost", "weak_units",
            "threat_on_own", "threat_on_enemy", "units_threatened", "objectives",
            "hand_orders", "hand_size", "to_act")
KINDS = ("inf", "tank", "gun")
# the threat in features: normal's rules for it (shared, reach, blocked retreats), weight 1
THREAT_WEIGHTS = Weights(threat=1.0, retreat_room=True, threat_reach=True, threat_share=True)
THREATENED = 0.25  # medals: a unit facing a battle worth at least this is "under threat"


def hand_strength(hand: list[int]) -> float:
    """The units a hand's cards could order, summed (M44 p.5 Command cards): a section card
    orders its count (Assault: every unit of its section, reckoned 4), a tactic card 2."""
    total = 0.0
    for cid in hand:
        c = card(cid)
        if c.is_section:
            total += sum(4 if n is None else n for _, n in c.per_section)
        else:
            total += 2.0
    return total


def features(state: MemoirState, side: str) -> list[float]:
    """The ``FEATURES`` of ``state`` for ``side`` (read only what ``side`` may know)."""
    enemy = other_side(side)
    need = state.scenario.medals
    m_own, m_enemy = state.medals(side), state.medals(enemy)
    brain = EasyBrain(state, THREAT_WEIGHTS)
    lost = {(s, k): 0 for s in (side, enemy) for k in KINDS}
    for u in state.units.values():
        if u.side in (side, enemy) and (u.alive or u.figures <= 0):
            lost[(u.side, u.kind if u.kind in KINDS else "inf")] += u.max_figures - max(
                0, u.figures)
    weak = {side: 0, enemy: 0}
    threat = {side: 0.0, enemy: 0.0}
    threatened = {side: 0, enemy: 0}
    objectives = {side: 0.0, enemy: 0.0}
    for u in state.live_units(None):
        weak[u.side] += u.figures == 1
        t = brain.threat(state, u, u.hex)
        threat[u.side] += t
        threatened[u.side] += t >= THREATENED
        objectives[u.side] += brain.objective_value(state, u.side, u.hex)
    return [
        float(m_own - m_enemy),
        1.0 / max(1, need[side] - m_own),
        1.0 / max(1, need[enemy] - m_enemy),
        *(float(lost[(enemy, k)] - lost[(side, k)]) for k in KINDS),
        float(weak[side] - weak[enemy]),
        threat[side],
        threat[enemy],
        float(threatened[side] - threatened[enemy]),
        objectives[side] - objectives[enemy],
        hand_strength(state.hands.get(side, [])),
        float(len(state.hands.get(side, [])) - len(state.hands.get(enemy, []))),
        1.0 if (state.phase == "card" and state.active == side) else 0.0,
    ]


class MemoirEval:
    """Log-odds of a win from ``features``: standardised, then a linear model (pure Python)."""

    def __init__(self, data: dict) -> None:
        names = tuple(data.get("features", ()))
        if names != FEATURES:
            raise ValueError(f"memoir_eval.json: field 'features': expected {list(FEATURES)}, "
                             f"got {list(names)[:20]}")
        for key in ("mean", "scale", "coef"):
            values = data.get(key)
            if (not isinstance(values, list) or len(values) != len(FEATURES)
                    or not all(isinstance(v, (int, float)) and math.isfinite(v)
                               for v in values)):
                raise ValueError(f"memoir_eval.json: field {key!r}: expected {len(FEATURES)} "
                                 "finite numbers")
        self.mean = [float(v) for v in data["mean"]]
        self.scale = [float(v) or 1.0 for v in data["scale"]]
        self.coef = [float(v) for v in data["coef"]]
        self.intercept = float(data.get("intercept", 0.0))
        self.data = data

    def logit(self, x: list[float]) -> float:
        return self.intercept + sum(c * (v - m) / s for c, v, m, s
                                    in zip(self.coef, x, self.mean, self.scale, strict=True))

    def value(self, state: MemoirState, side: str) -> float:
        """The log-odds that ``side`` wins ``state`` (a won game: +/-10)."""
        if state.winner:
            return 10.0 if state.winner == side else -10.0
        return max(-10.0, min(10.0, self.logit(features(state, side))))

    def win_chance(self, state: MemoirState, side: str) -> float:
        return 1.0 / (1.0 + math.exp(-self.value(state, side)))


@cache
def load_eval(path: str = str(MODEL_PATH)) -> MemoirEval:
    """The shipped model (read once)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{Path(path).name}: cannot read the evaluation weights ({exc})"
                         ) from None
    if not isinstance(data, dict):
        raise ValueError(f"{Path(path).name}: expected a JSON object")
    return MemoirEval(data)
