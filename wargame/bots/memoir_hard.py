"""A Memoir '44 opponent that searches its whole turn ("hard", issue #33).

Normal (``memoir_search``) searches only the card it plays, and scores a card at the start of its
own battles. The traces of issue #33 showed what that misses: the reply. A unit that takes
ground next to the enemy, or moves into wire beside a sandbagged guard for a 1-die shot, looks
fine at the start of its battles and is eliminated on the next turn; a card that orders nobody
looks safe when every advance is scored before the enemy fires. Hard plays each candidate
through its own turn **and the opponent's reply** in many sampled worlds, and scores the
position it comes back to with an evaluation learned from self-play (``memoir_eval``: the
log-odds of winning from medals, figures, threats, objectives and the cards in hand).

At each decision of its turn (M44 p.5-13: the card, its orders, moves, battles, the choices a
battle leaves it) the policy:

1. lists *arms*: at a card play each playable card (one per distinct effect) played in each of
   three styles -- ``steady`` (normal's weights), ``bold`` (less fear of the enemy's fire, more
   pull toward it: the attacker's turns that normal passed), ``careful`` (twice normal's fear:
   no walking into fire) -- whose orders, moves and battle targets follow the style; at any
   other decision the distinct actions the three styles would take, then (for orders, moves,
   battles and take-ground) the other legal actions by easy's value;
2. samples worlds with ``MemoirState.resample`` for its own viewer (the opponent's hand and
   the deck dealt again from their sorted pool, fresh dice): it never reads the hidden hand or
   the deck order, and two positions that differ only there get the same choice;
3. spends its budget of play-outs with **progressive widening** (Coulom; Chaslot et al.): with
   n play-outs done, only the ``ceil(widen_k * (n + 1) ** widen_alpha)`` arms of best prior
   (easy's value with the style's weights) are open, and among them the next play-out goes to
   the arm of best upper confidence bound (UCB1 on the win chance); an arm's i-th play-out
   uses world i (common random numbers);
4. a play-out plays the arm, the rest of the turn in the arm's style and the opponent's whole
   turn with easy's heuristic and normal's weights (``memoir_fast.FastEasy``), dice rolled with
   the world's own generator, until hard's next card play or the end of the game; it is
   scored with ``memoir_eval`` (the chance to win);
5. plays the arm of best mean among those tried at least half as often as the most tried
   (ties: the prior).

Budget: ``playouts`` per decision (a deterministic count: the same position gives the same
choice) and ``max_seconds`` of CPU time (``time.process_time``, 2 s by default; the machine
may be shared), checked after every play-out: the search stops at whichever comes first, so the
cap is exceeded by at most one play-out. Decisions other than the card play get
``minor_share`` of both. When the cap binds, the choice depends on the machine's speed.

``explain(state)`` says, in the current language (English or Portuguese), the card, the units
it orders and the chance to win it expected (``reason(state)`` gives the same as data).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field, replace
from typing import Any

from wargame.event_text import card_title
from wargame.i18n import Catalogue
from wargame.memoir.actions import Action
from wargame.memoir.board import hex_to_m44, other_side
from wargame.memoir.cards import card
from wargame.memoir.dice import outcome_distribution
from wargame.memoir.game import MemoirState
from wargame.memoir.rules import RANGE
from wargame.viewer import Viewer

from .memoir_easy import EasyBrain, Weights, decide, unit_medals
from .memoir_eval import MemoirEval, load_eval
from .memoir_fast import FastEasy, card_value_and_orders
from .memoir_search import NORMAL_WEIGHTS, MemoirSearchPolicy, _effect_key

__all__ = ["MemoirHardPolicy", "STYLES", "HARD_TEXT", "Arm"]

STYLES: dict[str, Weights] = {
    "steady": NORMAL_WEIGHTS,
    # issue #33: "passive as the attacker" -- a quarter of normal's fear, twice its pull
    "bold": replace(NORMAL_WEIGHTS, threat=0.1, advance=0.08),
    # issue #33: "walks into fire" -- twice normal's fear of the enemy's next battles
    "careful": replace(NORMAL_WEIGHTS, threat=0.8),
}
_END_ORDERS = Action("end_orders")
_WIDEN_KINDS = {"order", "move", "battle", "take_ground", "hold", "end_moves", "end_battles",
                "end_orders"}

HARD_TEXT = Catalogue("bots.memoir_hard", {
    "card": "I played {card}: I expect to win {win}% of the games from here ({n} play-outs "
            "of this turn and the reply, over hands and dice I cannot see).",
    "orders": " It orders the units at {hexes}.",
    "no_orders": " It orders no unit.",
    # the runner-up card is not named: it is still in the hand the player may not see
    "next": " The next best card gave {other_win}%.",
    "battle": "Battle from {hex} at {target} with {dice} dice: {kill}% chance to eliminate "
              "it, {win}% chance to win the game from here.",
    "battle.one": "Battle from {hex} at {target} with 1 die: {kill}% chance to eliminate it, "
                  "{win}% chance to win the game from here.",
    "move": "Move from {hex} to {to}: {win}% chance to win the game from here.",
    "other": "{what}: {win}% chance to win the game from here ({n} play-outs).",
    "only": "{what}: my usual choice here.",
    "what.end_orders": "No more orders",
    "what.end_moves": "No more moves",
    "what.end_battles": "No more battles",
    "what.order": "Order the unit at {hex}",
    "what.take_ground": "Take ground at {hex}",
    "what.hold": "Hold the ground",
    "what.retreat": "Retreat to {hex}",
    "what.action": "{action}",
})


@dataclass
class Arm:
    """A candidate: an action and the style that plays the rest of the turn after it."""

    action: Action
    style: str
    prior: float
    orders: list[int] | None = None  # a card play's units ordered by its style
    total: float = 0.0
    count: int = 0
    results: list[float] = field(default_factory=list)  # by world
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0


def _where(h) -> str:
    if h is None:
        return "-"
    r, c = hex_to_m44(h)
    return f"({r},{c})"


class MemoirHardPolicy:
    """The "hard" computer player: a search of its turn and the reply under hidden
    information, scored by a learned evaluation (see the module's text)."""

    def __init__(self, seed: int = 0, max_seconds: float = 2.0, playouts: int = 64,
                 minor_share: float = 0.25, widen_k: float = 2.0, widen_alpha: float = 0.5,
                 explore: float = 0.4, model: MemoirEval | None = None,
                 min_count: int = 4, margin: float = 0.02, sure: float = 2.0) -> None:
        if not (max_seconds > 0 and math.isfinite(max_seconds)):
            raise ValueError(f"max_seconds: expected a positive number of CPU seconds, got "
                             f"{max_seconds!r:.40}")
        if int(playouts) < 1:
            raise ValueError(f"playouts: expected a whole number >= 1, got {playouts!r:.40}")
        if not 0 < minor_share <= 1:
            raise ValueError(f"minor_share: expected a share in (0, 1], got "
                             f"{minor_share!r:.40}")
        self.seed = seed
        self.max_seconds = float(max_seconds)
        self.playouts = int(playouts)
        self.minor_share = float(minor_share)
        self.widen_k = widen_k
        self.widen_alpha = widen_alpha
        self.explore = explore
        self.min_count = int(min_count)
        self.margin = float(margin)
        self.sure = float(sure)
        if self.min_count < 2:
            raise ValueError(f"min_count: expected a whole number >= 2, got {min_count!r:.40}")
        self.model = model or load_eval()
        self._fast = {name: FastEasy(w) for name, w in STYLES.items()}
        self._reply = FastEasy(NORMAL_WEIGHTS)
        # the default choice: normal's (its card search, its clock, its weights)
        self._normal = MemoirSearchPolicy(seed)
        self.last_cpu = 0.0  # CPU seconds of the last decision (bench/memoir_strength.py)
        self._cpu: list[float] = []  # CPU seconds of every decision, in order (cpu_times)

    # ------------------------------------------------------------------ the protocol
    def choose(self, state: MemoirState) -> Action:
        return self._decide(state)[0]

    def reason(self, state: MemoirState) -> dict[str, Any]:
        """Why it would play what it plays, as data: kind, action, win chance, orders..."""
        return self._decide(state)[1]

    def explain(self, state: MemoirState) -> str:
        """``reason`` in words, in the current language."""
        return self.describe(self.reason(state))

    @property
    def cpu_times(self) -> tuple[float, ...]:
        """The CPU seconds (``time.process_time``) of each decision this player has made
        (each ``choose``, ``reason`` or ``explain``), oldest first: read-only, for the
        dashboard's "Why this card?" and the browser test against hard (issue #33)."""
        return tuple(self._cpu)

    # ------------------------------------------------------------------ search
    def rng_for(self, state: MemoirState) -> random.Random:
        return random.Random(self.seed * 1_000_003 + len(state.history) * 7 + 33)

    def _decide(self, state: MemoirState) -> tuple[Action, dict[str, Any]]:
        start = time.process_time()
        try:
            return self._search(state)
        finally:
            self.last_cpu = time.process_time() - start
            self._cpu.append(self.last_cpu)

    def _search(self, state: MemoirState) -> tuple[Action, dict[str, Any]]:
        acts = state.legal_actions()
        if not acts:
            raise ValueError("hard: the position has no legal action (game over?)")
        side = state.side_to_act
        card_play = state.phase == "card" and not state.pending
        if not card_play and round(self.playouts * self.minor_share) < 2 * self.min_count:
            a, style = self._default_minor(state)  # no budget to search: the default
            return a, {"kind": "only", "action": a, "orders": None, "style": style}
        arms = self._card_arms(state, acts) if card_play else self._minor_arms(state, acts)
        if len(arms) == 1:
            arm = arms[0]
            return arm.action, {"kind": "only", "action": arm.action, "orders": arm.orders,
                                "style": arm.style}
        share = 1.0 if card_play else self.minor_share
        budget = max(len(arms[:2]), round(self.playouts * share))
        if budget < 2 * self.min_count:  # too few play-outs to overrule the default
            arms = arms[:1]
        if len(arms) == 1:
            arm = arms[0]
            return arm.action, {"kind": "only", "action": arm.action, "orders": arm.orders,
                                "style": arm.style}
        seconds = self.max_seconds * share
        rng = self.rng_for(state)
        worlds: list[MemoirState] = []
        start = time.process_time()
        n = 0
        while n < budget:
            open_arms = arms[: min(len(arms), math.ceil(self.widen_k * (n + 1)
                                                        ** self.widen_alpha))]
            arm = self._pick(open_arms, n)
            while len(worlds) <= arm.count:
                worlds.append(state.resample(Viewer.player(side), rng))
            v = self._playout(worlds[arm.count], arm, side)
            arm.results.append(v)
            arm.total += v
            arm.count += 1
            n += 1
            if time.process_time() - start > seconds:
                break
        tried = [a for a in arms if a.count]
        best, runner = self._verdict(arms)
        info: dict[str, Any] = {"kind": "card" if card_play else best.action.kind,
                                "action": best.action, "orders": best.orders,
                                "style": best.style, "win": best.mean, "n": n,
                                "playouts": best.count, "arms": len(arms),
                                "tried": len(tried)}
        if runner is not None:
            info["next"] = runner.action
            info["next_win"] = runner.mean
        info.update(best.extra)
        return best.action, info

    def _verdict(self, arms: list[Arm]) -> tuple[Arm, Arm | None]:
        """The arm to play and the runner-up. The first arm is the default (normal's own
        choice, or the careful one where issue #33 saw normal walk into fire); another arm
        replaces it only when, over the worlds both were played in (common random numbers),
        it did better by ``margin`` on average and by ``sure`` standard errors of the
        differences, with at least ``min_count`` of them: a few noisy play-outs never
        overrule a sound heuristic."""
        default = arms[0]
        best, gain = default, 0.0
        for arm in arms[1:]:
            common = min(arm.count, default.count)
            if common < self.min_count:
                continue
            diffs = [arm.results[i] - default.results[i] for i in range(common)]
            diff = sum(diffs) / common
            spread = math.sqrt(sum((d - diff) ** 2 for d in diffs) / (common - 1))
            # better by the margin, and by ``sure`` standard errors of the paired differences
            if (diff > self.margin and diff * math.sqrt(common) > self.sure * spread
                    and diff > gain):
                best, gain = arm, diff
        others = sorted((a for a in arms if a is not best and a.count),
                        key=lambda a: (a.mean, a.prior), reverse=True)
        return best, (others[0] if others else None)

    def _pick(self, arms: list[Arm], n: int) -> Arm:
        for a in arms:
            if a.count == 0:
                return a
        default = arms[0]
        if any(a.count > default.count for a in arms[1:]):
            return default  # the default is played in every world the others are
        log_n = math.log(n + 1)
        return max(arms, key=lambda a: (a.mean + self.explore * math.sqrt(log_n / a.count),
                                        a.prior))

    def _card_arms(self, state: MemoirState, acts: list[Action]) -> list[Arm]:
        seen: dict[tuple, Action] = {}
        for a in acts:
            seen.setdefault(_effect_key(a), a)
        cands = list(seen.values())
        arms: list[Arm] = []
        by_style: dict[str, list[Arm]] = {}
        for name, w in STYLES.items():
            cache: dict = {}
            row = []
            for a in cands:
                v, ordered = card_value_and_orders(state, a, cache, w)
                row.append(Arm(a, name, v, ordered))
            row.sort(key=lambda arm: -arm.prior)
            by_style[name] = row
        # the steady arms first (by prior), then the bold and careful ones whose orders differ
        keys = set()
        for name in STYLES:
            for arm in by_style[name]:
                key = (arm.action, tuple(arm.orders) if arm.orders is not None else None)
                if key in keys:
                    continue
                keys.add(key)
                arms.append(arm)
        if len(cands) == 1 and all(a.action == arms[0].action for a in arms):
            arms = arms[:1]
        # the default first: normal's card (its search), played in the steady style
        key = _effect_key(self._normal.choose(state))
        first = next((i for i, arm in enumerate(arms)
                      if arm.style == "steady" and _effect_key(arm.action) == key), 0)
        arms.insert(0, arms.pop(first))
        for arm in arms:
            if arm.orders:
                arm.extra = {"order_hexes": [_where(state.units[u].hex) for u in arm.orders]}
        return arms

    def _default_minor(self, state: MemoirState) -> tuple[Action, str]:
        """The default of a decision other than the card play: normal's choice, but the
        careful one whether to take ground (issue #33: a Ranger unit took ground beside the
        enemy, within its guns' range, and was eliminated the next turn)."""
        if state.pending and state.pending[-1].kind == "take_ground":
            return decide(state, STYLES["careful"])[0], "careful"
        a = self._normal.choose(state)
        if a.kind == "move" and not state.pending and _best_shot(state, a.unit, a.hex) == 1:
            # issue #33, "poor shots": a move whose best shot afterwards is a single die
            # (Pegasus Bridge: infantry into the wire beside the sandbagged guard) is the
            # careful style's call, which weighs the enemy's reply twice as much
            careful = decide(state, STYLES["careful"])[0]
            if careful != a:
                return careful, "careful"
        return a, "steady"

    def _minor_arms(self, state: MemoirState, acts: list[Action]) -> list[Arm]:
        arms: list[Arm] = []
        seen: set[Action] = set()
        # the default first (``_default_minor``)
        default, style = self._default_minor(state)
        seen.add(default)
        arms.append(Arm(default, style, 2.0))
        for name, w in STYLES.items():
            a = decide(state, w)[0]
            if a not in seen:
                seen.add(a)
                arms.append(Arm(a, name, 1.0))
        if len(acts) > 1 and state.phase in ("order", "move", "battle") or (
                state.pending and state.pending[-1].kind == "take_ground"):
            for v, a in self._ranked(state, acts):
                if a not in seen and a.kind in _WIDEN_KINDS:
                    seen.add(a)
                    arms.append(Arm(a, "steady", v))
        for arm in arms:
            arm.extra = self._facts(state, arm.action)
        return arms

    def _ranked(self, state: MemoirState, acts: list[Action]) -> list[tuple[float, Action]]:
        """The other legal actions by easy's value with normal's weights (widening order)."""
        brain = EasyBrain(state, NORMAL_WEIGHTS)
        out = []
        base: dict[int, float] = {}
        for a in acts:
            v = 0.0
            if a.kind == "battle":
                u, e = state.units[a.unit], state.unit_at(a.hex)
                v = brain.battle_value(state, u, e)
            elif a.kind == "move":
                u = state.units[a.unit]
                if u.id not in base:
                    base[u.id] = brain.hex_score(u, u.hex, 0)[0]
                cost = state.move_options(u.id).get(a.hex, 1)
                v = brain.hex_score(u, a.hex, cost)[0] - base[u.id]
            out.append((v, a))
        out.sort(key=lambda t: -t[0])
        return out[:12]

    def _facts(self, state: MemoirState, a: Action) -> dict[str, Any]:
        """What an explanation says of a minor action: a battle's dice and kill chance."""
        if a.kind in ("move", "order"):
            return {"from": state.units[a.unit].hex}
        if a.kind != "battle":
            return {}
        u, e = state.units[a.unit], state.unit_at(a.hex)
        n = state.battle_dice(u, e)[0]
        kill = 0.0
        for (hits, _flags), p in outcome_distribution(n, e.kind).items():
            if hits >= e.figures:
                kill += float(p)
        return {"dice": n, "kill": kill, "from": u.hex, "target": a.hex,
                "medals": unit_medals(state, e)}

    def _playout(self, world: MemoirState, arm: Arm, side: str) -> float:
        """The win chance after ``arm`` is played in ``world``: the rest of the turn in the
        arm's style, the opponent's turn by easy with normal's weights, to ``side``'s next
        card play (or the end)."""
        st = world.clone()
        start_turn = st.turn
        st.apply(arm.action, validate=False)
        if arm.orders is not None and st.phase == "order" and not st.pending and not st.winner:
            for uid in arm.orders:
                st.apply(Action("order", unit=uid), validate=False)
            if st.phase == "order" and not st.pending and not st.winner:
                st.apply(_END_ORDERS, validate=False)
        mine = self._fast[arm.style]
        guard = 0
        while not st.winner and guard < 3000:
            if (st.turn > start_turn and st.phase == "card" and st.active == side
                    and not st.pending):
                break
            who = st.side_to_act
            (mine if who == side else self._reply).step(st)
            guard += 1
        return self.model.win_chance(st, side)

    # ------------------------------------------------------------------ words
    @staticmethod
    def describe(info: dict[str, Any]) -> str:
        """An explanation (``reason``) in the current language."""
        a: Action = info["action"]
        if info["kind"] == "card":
            text = HARD_TEXT["card"].format(card=_card_words(a), win=pct(info["win"]),
                                            n=info["n"])
            return text + _orders_words(info) + _next_words(info)
        if info["kind"] == "only":
            if a.kind == "play":
                return HARD_TEXT["only"].format(what=_card_words(a)) + _orders_words(info)
            return HARD_TEXT["only"].format(what=_action_words(a))
        if a.kind == "battle" and "dice" in info:
            key = "battle.one" if info["dice"] == 1 else "battle"
            return HARD_TEXT[key].format(hex=_where(info["from"]),
                                              target=_where(info["target"]),
                                              dice=info["dice"], kill=pct(info["kill"]),
                                              win=pct(info["win"]))
        if a.kind == "move":
            return HARD_TEXT["move"].format(hex=_where(info.get("from")), to=_where(a.hex),
                                            win=pct(info["win"]))
        return HARD_TEXT["other"].format(what=_action_words(a, info.get("from")),
                                         win=pct(info["win"]),
                                         n=info["n"])


def _best_shot(state: MemoirState, uid: int, h) -> int:
    """The most dice unit ``uid`` could roll at an enemy from hex ``h`` (range, line of sight,
    terrain, cards: the engine's ``battle_dice``; M44 p.9-12), 0 for none."""
    st = state.clone()
    u = st.units[uid]
    if h != u.hex:
        if st.unit_at(h) is not None:
            return 0
        st.place(u, h)
        u = st.units[uid]
    best = 0
    for e in st.live_units(other_side(u.side)):
        if u.hex.distance(e.hex) < len(RANGE[u.kind]):
            best = max(best, st.battle_dice(u, e, check_order=False)[0])
    return best


def pct(x: float) -> str:
    """A chance as a whole percentage ("37")."""
    return f"{100 * x:.0f}"


def _card_words(a: Action) -> str:
    return card_title(card(a.card)) + (f" [{a.option}]" if a.option else "")


def _orders_words(info: dict[str, Any]) -> str:
    orders = info.get("orders")
    if orders is None:
        return ""
    if not orders:
        return HARD_TEXT["no_orders"]
    hexes = info.get("order_hexes") or [f"#{u}" for u in orders]
    return HARD_TEXT["orders"].format(hexes=", ".join(hexes))


def _next_words(info: dict[str, Any]) -> str:
    if info.get("next") is None:
        return ""
    return HARD_TEXT["next"].format(other_win=pct(info["next_win"]))


def _action_words(a: Action, at=None) -> str:
    key = f"what.{a.kind}"
    if key in HARD_TEXT:
        return HARD_TEXT[key].format(hex=_where(a.hex if a.hex is not None else at))
    if a.kind == "play":
        return _card_words(a)
    if a.kind == "retreat":
        return HARD_TEXT["what.retreat"].format(hex=_where(a.hex))
    return HARD_TEXT["what.action"].format(action=str(a))
