"""The turn: set-up, the action loop, drawing and reshuffling cards, and victory.

Rules: M44 Game Set-up 10 (shuffle, deal the hands), p.5 Game Play (play a card, order,
move, battle, draw), p.13 Draw a Command Card (discard, draw; reshuffle when the deck runs
out), p.14 Victory (medals, permanent objectives), scenario special rules: Sainte-Mere-Eglise
airdrop, draw schedules (Pegasus Bridge), sudden death (Toulon, Saverne Gap), deck exhaustion
(Vassieux). Also which actions are legal in each phase.
"""

from __future__ import annotations

from typing import Any, Self

from wargame.dice import DICE_VERSION
from wargame.errors import GameOver, IllegalAction, MalformedAction, WrongPhase, refuse
from wargame.hexgrid import Hex

from . import rules
from .actions import R_TURN, Action, Event, GameSpec, Unit, _m44
from .board import ALLIES, AXIS, m44_to_hex, other_side
from .cards import DECK
from .context import PendingDecision, TurnContext
from .position import StateBase

__all__ = ["SequenceMixin"]


class SequenceMixin(StateBase):
    """Set-up, ``apply``, the turn flow, victory and ``legal_actions``."""

    @classmethod
    def new(cls, game: GameSpec, seed: int = 0, dice_version: int = DICE_VERSION) -> Self:
        st = cls(game, seed, dice_version)
        sc = game.scenario
        for i, spec in enumerate(sc.units):
            st.add_unit(Unit(i, spec.side, spec.kind, spec.hex, spec.figures, spec.figures,
                             spec.special))
        walls = set().union(*(sc.opt("seawalls") or {}).values()) if sc.opt("seawalls") else set()
        for kind, h in sc.obstacles:
            if h in walls:
                continue  # Omaha Beach: sea walls are permanent sandbags for the Allies only
            (st.sandbags if kind == "sand" else st.wire).add(h)
        # M44 Game Set-up 10: shuffle the command cards and deal each side its hand.
        deck = [c.id for c in DECK]
        st.dice.shuffle(deck)
        st.deck = deck
        for side in (sc.starts, other_side(sc.starts)):
            for _ in range(sc.cards[side]):
                st.hands[side].append(st.deck.pop())
        ev = [Event("setup", {"title": sc.title, "axis_cards": sc.cards[AXIS],
                              "allies_cards": sc.cards[ALLIES], "starts": sc.starts})]
        st.setup_events = ev
        st._begin_turn()
        if sc.opt("airdrop"):
            # Sainte-Mere-Eglise: "Antes do lado dos aliados fazerem a sua primeira jogada, o
            # jogador Aliado tem um lançamento de pára-quedista adicional": the player holds
            # the figures over the battlefield -- the drop point is the player's decision.
            st.pending.append(PendingDecision("airdrop", sc.opt("airdrop")["side"],
                                              options=st._drop_points()))
        return st

    def _drop_points(self) -> tuple[Hex, ...]:
        """Every board hex, the scenario's suggested ``center`` first (the auto answer)."""
        center = m44_to_hex(*self.scenario.opt("airdrop")["center"])
        return (center,) + tuple(h for h in self.board.all_hexes() if h != center)

    def _airdrop(self, spec: dict[str, Any], center: Hex) -> list[Event]:
        """Sainte-Mere-Eglise special rule: drop figures over ``center``; each safe one becomes
        a unit.

        The figures scatter: each lands on a hex drawn uniformly (seeded die) among the hexes
        within ``range`` of the drop point; off the board ("cair para fora do tabuleiro"), on
        a unit ("num hexágono com outra unidade amiga ou inimiga") or on impassable ground it
        is lost, with no medal for the Axis.
        """
        events = [Event("airdrop_point", {"side": spec["side"], "hex": _m44(center)})]
        area = list(center.within(int(spec["range"])))
        t = self._terrain()
        for n in range(1, int(spec["figures"]) + 1):
            h = area[self.dice.die(len(area)) - 1]
            occupied = {u.hex for u in self.units.values() if u.alive}
            uid = None
            if not self.board.on_board(h):
                fate = "off_board"
            elif h in occupied:
                fate = "occupied"
            elif not rules.can_enter(t, "inf", h):
                fate = "impassable"
            else:
                uid = max(self.units) + 1 if self.units else 0
                self.add_unit(Unit(uid, spec["side"], "inf", h, 4, 4, None))
                fate = "safe"
            # the figure's fate as a code (wargame.event_text words m44.drop.*)
            events.append(Event("airdrop", {"n": n, "fate": fate, "at": _m44(h), "id": uid}))
        return events

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action, validate: bool = True) -> list[Event]:
        """Play ``action``; returns its events. Illegal: ``IllegalAction``, state unchanged.

        ``validate=False`` skips the legality check, like python-chess's ``Board.push``: only
        for an action just taken from ``legal_actions()`` of this very state (playouts).
        """
        if self.winner:
            raise refuse(GameOver, "action.game_over", R_TURN)
        if not validate or self.is_legal(action):
            # Legal: apply in place (legal actions never raise; the property tests check it).
            events = self._apply(action)
            self.history.append(action)
            return events
        raise self.why_illegal(action)

    def is_legal(self, action: Action) -> bool:
        """True exactly when ``apply(action)`` would accept ``action`` now; this state is not
        changed. Memoir '44's ``legal_actions()`` is exact: ``apply`` accepts an action only
        when it is listed (this test looks in the part of the list that could hold it)."""
        return (not self.winner and isinstance(action, Action)
                and action in self._legal_for(action))

    def why_illegal(self, action: Action) -> IllegalAction | None:
        """The ``IllegalAction`` that ``apply(action)`` would raise now, or None when it would
        be accepted; this state is not changed."""
        if self.winner:
            return refuse(GameOver, "action.game_over", R_TURN)
        if not isinstance(action, Action):
            return refuse(MalformedAction, "action.not_memoir_action", R_TURN,
                          detail=f"{action!r:.80}")
        if action in self._legal_for(action):
            return None
        # Illegal: find the specific reason on a throw-away copy; this state is unchanged.
        try:
            self.clone()._apply(action)
        except IllegalAction as exc:
            return exc
        return refuse(MalformedAction, "action.not_legal", R_TURN, action=str(action))

    # Decisions added after saves were written, and the answer the engine then made itself.
    LEGACY_ANSWERS = ("airdrop", "ignore_flag")

    def replay_apply(self, action: Action) -> list[Event]:
        """``apply`` for replaying a saved log (``wargame.saves.replay``, ``replay``). A log
        written before a decision existed (issue 17: the airdrop point, ignoring a flag) does
        not answer it: when such a decision is pending and the logged action is not one of its
        answers, the engine first gives the answer it used to make itself (its first option:
        the scenario's drop centre; ignore the flag), then applies the action. The dice are drawn in the same order
        as then, so the old game replays identically."""
        ev: list[Event] = []
        while (self.pending and self.pending[-1].kind in self.LEGACY_ANSWERS
               and not self.winner and isinstance(action, Action)
               and action not in self.pending_options()):
            ev += self.apply(self.pending_options()[0])
        return ev + self.apply(action)

    def _apply(self, a: Action) -> list[Event]:
        ev: list[Event] = []
        if self.pending:
            ev += self._answer_pending(a)
        else:
            name = _HANDLERS.get(self.phase)
            if name is None:
                raise refuse(WrongPhase, "memoir.phase.none", R_TURN, memoir_phase=self.phase)
            ev += getattr(self, name)(a)
        ev += self._continue()
        return ev

    # ------------------------------------------------------------------ turn flow
    def _begin_turn(self) -> None:
        self.phase = "card"
        self.ctx = TurnContext()
        self.side_turns[self.active] += 1

    def _continue(self) -> list[Event]:
        """Run queued automatic steps until a decision is needed."""
        ev: list[Event] = []
        while not self.pending and not self.winner:
            queue = self.ctx.queue
            if queue:
                item = queue.pop(0)
                ev += self._resolve_queued(item)
                continue
            if self.ctx.end_turn:
                self.ctx.end_turn = False
                ev += self._end_turn()
                continue
            if self.ctx.finish_turn:
                self.ctx.finish_turn = False
                ev += self._finish_turn()
                continue
            break
        # objectives and medals change only when units move, die or score (speed only)
        key = (self._positions, len(self.medal_units[AXIS]), len(self.medal_units[ALLIES]),
               len(self.permanent), id(self.units))
        if self.winner or self.__dict__.get("_checked") != key:
            ev += self._check_objectives()
            ev += self._check_victory()
            self.__dict__["_checked"] = key
        return ev

    def _end_turn(self) -> list[Event]:
        """M44 p.13 Draw a Command Card: discard, then draw (ambusher first)."""
        ev: list[Event] = []
        ctx = self.ctx
        for cid in ctx.discard_after:
            self.discard.append(cid)
        ctx.discard_after = []
        if ctx.card is not None:
            self.discard.append(ctx.card)
            ctx.played_card = ctx.card
            ctx.card = None
        if ctx.effect == "finest_hour" and not self.scenario.opt("no_reshuffle"):
            # Their Finest Hour: reshuffle the deck and the discards.
            ev += self._reshuffle()
        ambusher = ctx.ambush_by
        if ambusher:
            ev += self._draw(ambusher, 1)
            if self.winner:
                return ev
        n = 1
        sched = (self.scenario.opt("draw_schedule") or {}).get(self.active) or {}
        n = int(sched.get(self.side_turns[self.active], n))
        if ctx.effect == "recon" and not ctx.recon_alt:
            # Recon: draw two, keep one. A scenario that draws n > 1 (Pegasus Bridge): the
            # first n - 1 as usual, the last one by Recon's draw-2-keep-1.
            if n > 1:
                ev += self._draw(self.active, n - 1)
                if self.winner:
                    return ev
            drawn: list[int] = []
            tail: list[Event] = []
            for _ in range(2):
                cid = self._take_from_deck(tail)
                if cid is None:
                    break
                drawn.append(cid)
                if self.winner:
                    break
            ev += [e for e in tail if e.kind == "reshuffle"]
            if len(drawn) == 2 and not self.winner:
                self.pending.append(PendingDecision("keep", self.active, cards=tuple(drawn)))
                ev.append(Event("draw", {"side": self.active, "count": 2}))
                return ev
            self.hands[self.active] += drawn
            ev.append(Event("draw", {"side": self.active, "count": len(drawn)}))
            ev += [e for e in tail if e.kind != "reshuffle"]
            if self.winner:
                return ev
        else:
            ev += self._draw(self.active, n)
            if self.winner:
                return ev
        ctx.finish_turn = True
        return ev

    def _finish_turn(self) -> list[Event]:
        ev = [Event("turn_end", {"side": self.active, "turn": self.turn})]
        ev += self._check_objectives()
        # Toulon / Saverne Gap: sudden death at the end of the side's own turn.
        for sd in self.scenario.opt("sudden_death") or ():
            if sd["side"] != self.active:
                continue
            held = sum(1 for h in sd["hexes"]
                       if (u := self.unit_at(h)) is not None and u.side == sd["side"])
            if held >= sd["required"]:
                self.winner = sd["side"]
                self.win_reason = " (sudden death)"
                ev.append(Event("victory", {"side": self.winner, "medals": self.medals(
                    self.winner), "why": self.win_reason}))
                return ev
        ev += self._check_victory()
        if self.winner:
            return ev
        if self.scenario.opt("last_unit_loses"):
            # imported layouts (docs/rules-notes.md, issue 32): a side with no unit left on the
            # board loses (its reinforcements come by rules in words we do not play)
            for side in (other_side(self.active), self.active):
                if not self.live_units(side):
                    self.winner = other_side(side)
                    self.win_reason = " (no units left)"
                    ev.append(Event("victory", {"side": self.winner, "medals": self.medals(
                        self.winner), "why": self.win_reason}))
                    return ev
        if not self.deck and self.scenario.opt("no_reshuffle"):
            # Vassieux victory conditions: "Deverá o baralho de Cartas de Comando esgotar-se e o
            # jogador aliado não ganhou, o combate termina como uma vitória do jogador Alemão":
            # the deck ran out with this turn's draw, so the battle ends now.
            self._deck_out(ev)
            if self.winner:
                return ev
        self.active = other_side(self.active)
        self.turn += 1
        self._begin_turn()
        return ev

    def _take_from_deck(self, ev: list[Event]) -> int | None:
        if not self.deck:
            if self.scenario.opt("no_reshuffle") or not self.discard:
                self._deck_out(ev)
                return None
            ev += self._reshuffle()
        return self.deck.pop()

    def _deck_out(self, ev: list[Event]) -> None:
        """Vassieux special rule: the deck is never reshuffled; when it runs out and the
        Allies have not won, the scenario's ``deck_exhausted_winner`` wins: at the end of the
        turn that drew the last card (``_finish_turn``), or when a card must be drawn and none
        is left."""
        winner = self.scenario.opt("deck_exhausted_winner")
        if winner and not self.winner:
            self.winner = winner
            self.win_reason = " (command deck exhausted)"
            self.pending = []
            ev.append(Event("deck_exhausted", {}))
            ev.append(Event("victory", {"side": winner, "medals": self.medals(winner),
                                        "why": self.win_reason}))

    def _draw(self, side: str, n: int) -> list[Event]:
        got = 0
        tail: list[Event] = []
        for _ in range(n):
            cid = self._take_from_deck(tail)
            if cid is None:
                break
            self.hands[side].append(cid)
            got += 1
            if self.winner:
                break
        return ([e for e in tail if e.kind == "reshuffle"]
                + [Event("draw", {"side": side, "count": got})]
                + [e for e in tail if e.kind != "reshuffle"])

    def _reshuffle(self) -> list[Event]:
        """M44 p.13: when the deck runs out, shuffle the discards into a new deck."""
        pile = self.deck + self.discard
        self.discard = []
        self.dice.shuffle(pile)
        self.deck = pile
        return [Event("reshuffle", {})]

    # ------------------------------------------------------------------ victory
    def _check_objectives(self) -> list[Event]:
        ev = []
        occ = None
        for i, obj in enumerate(self.scenario.objectives):
            if not obj.permanent or str(i) in self.permanent:
                continue
            if occ is None:
                occ = self.occupancy()
            for h in obj.hexes:
                u = occ.get(h)
                if u is not None and u.side == obj.side:
                    self.permanent[str(i)] = obj.side
                    ev.append(Event("objective", {"side": obj.side, "how": "takes",
                                                  "hex": _m44(h)}))
                    break
        return ev

    def _check_victory(self) -> list[Event]:
        if self.winner:
            return []
        for side in (self.active, other_side(self.active)):
            m = self.medals(side)
            if m >= self.scenario.medals[side]:
                self.winner = side
                self.win_reason = ""
                self.pending = []
                return [Event("victory", {"side": side, "medals": m, "why": ""})]
        return []

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        return self._legal_actions(None)

    def _legal_for(self, a: Action) -> list[Action]:
        """The legal actions that could equal ``a`` (a subset of ``legal_actions``, for speed:
        only its unit's moves and battles, only the one unit it orders)."""
        if not self.pending and not self.winner:
            ph, k = self.phase, a.kind
            if (ph, k) in (("order", "end_orders"), ("move", "end_moves"),
                           ("battle", "end_battles")):
                return [Action(k)]
            if ph == "order" and k == "order":
                ordered = self.ctx.ordered
                u = self.units.get(a.unit) if isinstance(a.unit, int) else None
                if (u is not None and u.alive and u.side == self.active
                        and u.id not in ordered and self._assignable(ordered + [u.id])):
                    return [Action("order", unit=u.id)]
                return []
        if a.kind in ("move", "battle", "remove_wire") and a.unit is not None:
            return self._legal_actions(a.unit)
        return self._legal_actions(None)

    def _legal_actions(self, only_unit: int | None) -> list[Action]:
        if self.winner:
            return []
        if self.pending:
            return self.pending_options()
        ph = self.phase
        if ph == "card":
            return self.playable_cards()
        if ph == "order":
            return [_order_action(uid) for uid in self._orderable()] + [END_ORDERS]
        if ph == "move":
            out = []
            for uid in self._movable():
                if only_unit is not None and uid != only_unit:
                    continue
                out += self._move_actions(uid)
                if self.scenario.opt("exit_medals") and self._can_exit(uid):
                    out.append(Action("exit", unit=uid))
            out.append(END_MOVES)
            return out
        if ph == "battle":
            focus = self._overrun_focus()
            if focus is not None:
                return [Action("battle", unit=focus, hex=h) for h in self.battle_targets(focus)
                        ] + [Action("skip_overrun", unit=focus), Action("end_battles")]
            out = []
            for uid in self.ctx.ordered:
                u = self.units[uid]
                if not u.alive or (only_unit is not None and uid != only_unit):
                    continue
                made = _BATTLE_ACTIONS.get(uid)
                if made is None:
                    made = _BATTLE_ACTIONS[uid] = {}
                for h in self.battle_targets(uid):
                    a = made.get(h)
                    if a is None:
                        a = made[h] = Action("battle", unit=uid, hex=h)
                    out.append(a)
                if u.kind == "inf" and u.hex in self.wire and self.can_battle(u)[0]:
                    out.append(Action("remove_wire", unit=uid))
            for uid in self._movable():
                if only_unit is not None and uid != only_unit:
                    continue
                out += self._move_actions(uid)
            out.append(END_BATTLES)
            return out
        if ph == "medics":
            damaged = [u for u in self.live_units(self.active) if u.figures < u.max_figures]
            if not damaged:
                return [Action("end_orders")]
            return [Action("medics", unit=u.id) for u in damaged]
        if ph == "air":
            out = [Action("air_target", hex=h) for h in self.air_target_options()]
            if self.ctx.air_targets or not out:
                out.append(Action("air_strike"))
            return out
        if ph == "barrage":
            enemies = self.live_units(other_side(self.active))
            if not enemies:
                return [Action("end_orders")]
            return [Action("barrage", hex=e.hex) for e in enemies]
        return []


# the method playing an action in each phase
_HANDLERS = {"card": "_do_card", "order": "_do_order", "move": "_do_move",
             "battle": "_do_battle", "medics": "_do_medics", "air": "_do_air",
             "barrage": "_do_barrage_phase"}

# Actions are values: the common ones made once (speed only)
END_ORDERS, END_MOVES, END_BATTLES = Action("end_orders"), Action("end_moves"), Action(
    "end_battles")
_ORDER_ACTIONS: dict[int, Action] = {}
_BATTLE_ACTIONS: dict[int, dict[Hex, Action]] = {}


def _order_action(uid: int) -> Action:
    a = _ORDER_ACTIONS.get(uid)
    if a is None:
        a = _ORDER_ACTIONS[uid] = Action("order", unit=uid)
    return a
