"""The sequence of play: set-up, turns, phases, the end of a phase, withdrawals, and the
dispatch of actions to the rule areas.

Rules: CN/OD 3.0 (turn sequence: Allied movement, Allied combat, Axis movement, Axis
combat), 4.1.2 and 5.0 (engaged units must attack), 4.2.2 (withdrawals), 6.0 (air points
each turn), 7.0 (recovery at the end of movement), 11.1.1 / OD 5.3 (units that could not
land), 11.2 (the game ends after the last turn); the BFN 19 hooks at the start of a turn and
the end of movement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wargame.errors import (
    CombatRefused,
    DecisionRefused,
    EndPhaseRefused,
    GameOver,
    MalformedAction,
    NotYourTurn,
    refuse,
)
from wargame.event_text import PHASE_NAMES
from wargame.hexgrid import Hex
from wargame.operational.actions import (
    Action,
    Attack,
    Bombard,
    CarpetBomb,
    DeclareDefence,
    EndPhase,
    Enter,
    Exit,
    IllegalAction,
    Move,
    check_fields,
)
from wargame.operational.state_protocol import RulesBase
from wargame.operational.state_types import PHASES, Event, Phase, UnitState
from wargame.protocol import Decision as DecisionView


class SequenceRules(RulesBase):
    """Turns and phases (CN/OD 3.0), ``apply`` and ``legal_actions``."""

    @property
    def side_to_act(self) -> str | None:
        if self.pending is not None:
            return self.pending.side
        return self.phase.side

    @property
    def is_terminal(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def pending_decision(self) -> DecisionView | None:
        d = self.pending
        if d is None:
            return None
        return DecisionView(d.kind, d.side, d.prompt, d.rule, tuple(d.options), d.unit)

    def _setup(self) -> None:
        scn = self.game.scenario
        for uid in scn.units:
            self.units[uid] = UnitState(status="waiting")
        for uid, h in scn.setup:
            self.units[uid] = UnitState(status="on_map", hex=h)
        landing = self.game.rule("setup_landings")
        if landing:
            # CN 11.1.1: Allied units assigned to a hex the enemy holds attack it from the
            # sea (or air) on the first turn; if they cannot occupy it they are destroyed.
            for uid, h in scn.setup:
                if self.side_of(uid) == landing["side"]:
                    enemies = [u for u in self.units_at(h) if self.side_of(u) != landing["side"]]
                    if enemies:
                        self.units[uid].status = "at_sea"
                        self._positions_changed()
        for r in scn.reinforcements:
            us = self.units[r.unit]
            us.available = r.turn
        for name, spec in (self.game.rule("initial_control") or {}).items():
            for h in self.game.board.places.get(name, ()):
                self.control[h] = spec
        for h in self._objective_hexes():
            if h not in self.control:
                occupants = self.units_at(h)
                self.control[h] = self.side_of(occupants[0]) if occupants else self.game.rule("default_control", "axis")
        self._emit("game_start", "", title=self.game.scenario.title, seed=self.seed)
        self._paradrop_dice()
        self._start_turn()
        self._start_phase()

    def _start_turn(self) -> None:
        air = self.game.tables.air
        self.attacked_hexes.clear()
        # CN 5.1.2 second clause: which hexes of a no-retreat city the enemy occupies now
        self.flags["no_retreat_enemy_at_start"] = sorted(
            h.id for rule in (self.game.rule("no_retreat", []) or [])
            for h in self.game.board.places.get(rule["place"], ())
            if any(self.side_of(u) != rule["side"] for u in self.units_at(h)))
        allied_air = air.per_turn + air.per_airfield * sum(
            1 for h, info in self.game.board.hexes.items() if info.airfield and self.control.get(h) == "allied"
        )
        if self.turn in air.no_air_turns:
            allied_air = 0  # CN 6.0: no air power on turn 5
        self.air_points = {"allied": allied_air, "axis": 0}
        self._emit("air_points", f"{self.rule_prefix} 6.0", side="Allied", points=allied_air)
        self.game.hooks.on_turn_start(self)  # BFN 19.1, 19.2, 19.4, 19.6.2: the daily rolls
        self._withdrawals()
        self._mulberry_turn()
        self._note_mulberry_penalty()  # CN 9.0: the harbours of turn 9 fix the penalty

    def _start_phase(self) -> None:
        side = self.phase.side
        if side is None:
            return
        self._emit("phase", f"{self.rule_prefix} 3.0", turn=self.turn, date=self.game.scenario.turn_date(self.turn) or "",
                   phase_name=PHASE_NAMES[self.phase.value], phase=self.phase.value)
        with self.position_unchanged():  # flags change here, not where units stand
            for uid, us in self.units.items():
                # CN/OD 8.0: artillery is used in one combat "por fase": a gun that fired in its
                # side's combat phase may support the defence in the next enemy combat phase
                us.fired = False
                if self.side_of(uid) != side:
                    continue
                us.attacked = False
                if self.phase.is_movement:
                    us.spent = 0
                    us.stopped = False
                    us.moved = False
                    us.started_engaged = us.status == "on_map" and self.engaged(uid)
            if self.phase.is_combat:
                self.must_attack = self._compute_must_attack(side)
        self.game.hooks.on_phase_start(self)

    def _compute_must_attack(self, side: str) -> set[str]:
        """CN/OD 4.1.2 and 5.0: at the end of movement, units next to the enemy must attack,
        except units that began engaged, did not move and hold dominant terrain (or a Caen
        hex beside the Allies in the other, CN 5.1.2), and units with movement 0 (CN 5.3)."""
        out = set()
        enemy = self.occupied_by(self.other(side))
        board = self.game.board
        for uid, us in self.units.items():
            if self.side_of(uid) != side:
                continue
            if us.status == "at_sea":
                out.add(uid)
                continue
            if us.status != "on_map" or self.game.units[uid].movement == 0:
                continue
            adjacent = [n for n in board.neighbours(us.at) if n in enemy]
            if not adjacent:
                continue
            if us.started_engaged and not us.moved and self.may_stay_engaged(us.at, side, adjacent):
                continue
            out.add(uid)
        return out

    def _withdrawals(self) -> None:
        """CN 4.2.2 (82nd and 101st on turn 13), OD 4.2.2 (British para turn 4, 148th turn 5):
        removed unless encircled, then as soon as freed."""
        for w in self.game.hooks.withdrawal_rules(self, self.game.rule("withdrawals", []) or []):  # BFN 19.2
            if self.turn < w["turn"]:
                continue
            members = [u for u, d in self.game.units.items() if d.division in w.get("divisions", []) or u in w.get("units", [])]
            for uid in members:
                us = self.units[uid]
                if us.status == "waiting":
                    us.status = "withdrawn"
                    continue
                if us.status != "on_map":
                    continue
                if self.encircled(us.at, self.side_of(uid)):
                    continue
                us.status = "withdrawn"
                us.hex = None
                self._positions_changed()
                self._emit("withdrawn", w.get("rule", f"{self.rule_prefix} 4.2.2"), unit=self.game.units[uid].name)

    def apply(self, action: Action) -> list[Event]:
        """Apply an action; returns the events it caused. Illegal: raises, state unchanged."""
        return self._apply_action(action, guard=True)

    def replay_apply(self, action: Action) -> list[Event]:
        """The replay fast path (``wargame.saves.replay``): ``apply`` with the same checks,
        events and log, but without the snapshot that restores the state after a refusal (a
        deep copy of the position: about 3 ms an action late in a Normandy game, nine tenths
        of a replay's time). A refused action raises as usual but leaves this state
        half-changed: only for a state that is thrown away on any error (a log replayed onto
        a fresh state or a clone)."""
        return self._apply_action(action, guard=False)

    def why_illegal(self, action: Action) -> IllegalAction | None:
        """The ``IllegalAction`` that ``apply(action)`` would raise now, or None when it would
        be accepted; this state is not changed.

        ``legal_actions()`` is the canonical list, one representative per decision (an attack
        with every eligible attacker and no support, a move along the cheapest path); many
        more actions are legal (some of the attackers, artillery or air points added, a move
        along a chosen path), and this is the exact test. It applies ``action`` to a clone,
        so it runs the very checks of ``apply`` and cannot drift from them: the rule checks
        are interleaved with the changes in every handler, and a clone costs about 1 ms at
        sampled Normandy positions (clone and apply together 1 to 3 ms, against 15 to 60 ms
        for ``legal_actions()``; measured on 2026-11-27, issue 27)."""
        trial = self.clone()
        try:
            # the clone is thrown away: no snapshot needed to undo a refusal on it
            trial._apply_action(action, guard=False)
        except IllegalAction as exc:
            return exc
        return None

    def is_legal(self, action: Action) -> bool:
        """True exactly when ``apply(action)`` would accept ``action`` now (``why_illegal``);
        this state is not changed."""
        return self.why_illegal(action) is None

    def _apply_action(self, action: Action, guard: bool) -> list[Event]:
        if not isinstance(action, Action):
            raise refuse(MalformedAction, "action.not_action", action=f"{action!r:.80}")
        check_fields(action)  # types, ranges, no id twice: before any rule
        if self.is_terminal:
            raise refuse(GameOver, "action.game_over", f"{self.rule_prefix} 11.2")
        snapshot = self._snapshot() if guard else None
        first_event = len(self.events)
        self._cache.clear()
        self._applying = True
        try:
            self._dispatch(action)
        except BaseException:
            if snapshot is not None:
                self._restore(snapshot)
            raise
        finally:
            self._applying = False
            self._cache.clear()
        self.action_log.append(action.to_dict())
        return self.events[first_event:]

    def legal_actions(self) -> list[Action]:
        """The canonical list (wargame/protocol.py): one representative action per choice,
        e.g. one attack per hex with every eligible attacker and no support. Many more are
        legal (some of the attackers, support added, a chosen path, an air bombardment):
        ``is_legal`` is the exact test."""
        if self.is_terminal:
            return []
        if self.pending is not None:
            return list(self.pending.options)
        side = self.phase.acting
        actions: list[Action] = []
        if self.phase.is_movement:
            for uid, us in self.units.items():
                if self.side_of(uid) != side:
                    continue
                if us.status == "on_map":
                    for h in self.legal_destinations(uid):
                        actions.append(Move(uid, h.id))
                    actions.extend(self.exit_actions(uid))
                elif us.status == "waiting":
                    actions.extend(Enter(uid, h.id) for h in self.legal_entry_hexes(uid))
            for h in self.carpet_targets():
                actions.append(CarpetBomb(h.id))
            actions.extend(self.game.hooks.extra_actions(self))  # BFN 19.3
        else:
            actions.extend(self._attack_actions(side))
            landing = self.game.rule("first_turn_landing")
            if landing and self.turn == self.game.scenario.first_turn and self.units.get(landing["unit"]) \
                    and self.units[landing["unit"]].status == "waiting":  # CN 3.0: turn 0 only
                uid = landing["unit"]
                for h in self.entry_hexes(uid):
                    if h == Hex.from_id(landing["hex"]):
                        actions.extend(Enter(uid, h.id, j.id) for j in self._join_hexes(uid))
                    elif self.stack_room(h, side, uid) > 0:  # CN 4.1.1 on the other beach
                        actions.append(Enter(uid, h.id))
        if self.end_phase_refusal() is None:
            actions.append(EndPhase())
        return actions

    def _dispatch(self, action: Action) -> None:
        if self.pending is not None:
            if action not in self.pending.options and not self._pending_accepts(action):
                raise refuse(DecisionRefused, "campaign.pending.decision", self.pending.rule,
                             prompt=self.pending.prompt)
            self._answer(action)
            return
        # each handler takes the action class it is filed under (so Any, not Action)
        handlers: dict[type[Action], Callable[[Any], None]] = {
            Move: self._do_move,
            Enter: self._do_enter,
            Exit: self._do_exit,
            EndPhase: self._do_end_phase,
            Attack: self._do_attack,
            Bombard: self._do_bombard,
            CarpetBomb: self._do_carpet,
        }
        handler = handlers.get(type(action)) or self.game.hooks.action_handler(self, action)
        if handler is None:
            raise refuse(DecisionRefused, "campaign.pending.answer_only", action=action.kind)
        handler(action)

    def _pending_accepts(self, action: Action) -> bool:
        """Decisions whose option space is too large to list in full (defence declaration)."""
        return self.pending is not None and self.pending.kind == "defence" and isinstance(action, DeclareDefence)

    def _hex_arg(self, hid: str, what: str) -> Hex:
        try:
            h = Hex.from_id(hid)
        except (ValueError, TypeError):
            raise refuse(MalformedAction, "action.not_hex_id", what=what, hex=repr(hid)) from None
        if h not in self.game.board.hexes:
            raise refuse(MalformedAction, "action.not_on_map", what=what, hex=hid)
        return h

    def end_phase_refusal(self) -> IllegalAction | None:
        """Why the phase cannot end now (a pending decision; CN/OD 4.1.2 engaged units that
        must still attack), or None."""
        if self.pending is not None:
            return refuse(NotYourTurn, "campaign.pending.decision", self.pending.rule,
                          prompt=self.pending.prompt)
        if self.phase.is_combat:
            side = self.phase.acting
            for uid in sorted(self.must_attack):
                us = self.units[uid]
                if us.attacked or us.status not in ("on_map", "at_sea"):
                    continue
                if self._can_still_attack(uid, side):
                    name = self.game.units[uid].name
                    return refuse(EndPhaseRefused, "campaign.end.must_attack",
                                  f"{self.rule_prefix} 4.1.2", unit=name)
        return None

    def _can_still_attack(self, uid: str, side: str, besides: Hex | None = None) -> bool:
        """CN/OD 4.1.2: ``uid`` has an enemy hex next to it (its landing hex, for a unit at
        sea) not yet attacked this turn, other than ``besides``, that it may attack."""
        us = self.units[uid]
        if us.status == "at_sea":
            return us.at != besides and (side, us.at) not in self.attacked_hexes and bool(self.units_at(us.at))
        enemy = self.occupied_by(self.other(side))
        for n in self.game.board.neighbours(us.at):
            if n != besides and n in enemy and (side, n) not in self.attacked_hexes \
                    and uid in self.eligible_attackers(side, n, one_armour=False):
                return True
        return False

    def left_behind(self, side: str, target: Hex, taking_part: tuple[str, ...] = ()) -> str | None:
        """CN/OD 4.1.2 and 5.0 with CN 6.0 / OD 8.0 (a hex is attacked once a turn, by any kind
        of attack): the first engaged unit that must attack, could join this attack on
        ``target`` and is left out of it although it has no other hex to attack (the attack
        would free it from its obligation for good); None when there is none. A second
        armoured unit against a bocage hex already attacked by one could not join (CN 5.1.2)."""
        if not self.phase.is_combat or side != self.phase.side:
            return None
        waiting = [u for u in sorted(self.must_attack) if u not in taking_part and not self.units[u].attacked
                   and self.units[u].status in ("on_map", "at_sea")]
        if not waiting:
            return None
        eligible = set(self.eligible_attackers(side, target, one_armour=False))
        armour_full = self.game.board.hexes[target].terrain in (self.game.rule("one_armour_terrain") or []) \
            and any(self.unit_type(u).armoured for u in taking_part)
        for uid in waiting:
            if uid not in eligible or (armour_full and self.unit_type(uid).armoured):
                continue
            if not self._can_still_attack(uid, side, besides=target):
                return uid
        return None

    def left_behind_refusal(self, side: str, target: Hex, taking_part: tuple[str, ...] = ()) -> IllegalAction | None:
        uid = self.left_behind(side, target, taking_part)
        if uid is None:
            return None
        name = self.game.units[uid].name
        return refuse(CombatRefused, "campaign.combat.left_behind", f"{self.rule_prefix} 4.1.2",
                      unit=name, hex=target.id)

    def _do_end_phase(self, a: EndPhase) -> None:
        refusal = self.end_phase_refusal()
        if refusal:
            raise refusal
        side = self.phase.acting
        if self.phase.is_movement:
            self._end_of_movement(side)
            self.game.hooks.on_movement_end(self, side)  # BFN 19.3.3: the bombs fall
        else:
            self._end_of_combat(side)
        i = PHASES.index(self.phase)
        if i == len(PHASES) - 1:
            if self.turn >= self.game.scenario.last_turn:
                self.phase = Phase.GAME_OVER
                vp = self.victory_points()
                winner = "Allied victory." if vp["allied"] > vp["axis"] else (
                    "Axis victory." if vp["axis"] > vp["allied"] else "A draw.")
                self._emit("game_over", f"{self.rule_prefix} 11.2", turn=self.turn, allied=vp["allied"],
                           axis=vp["axis"], winner=winner)
                return
            self.turn += 1
            self.phase = PHASES[0]
            self._start_turn()
        else:
            self.phase = PHASES[i + 1]
        self._start_phase()

    def _end_of_movement(self, side: str) -> None:
        rec = self.game.rule("recovery") or {}
        if side in rec.get("sides", []) and self.turn not in rec.get("no_turns", []) and self.mulberry_penalty() < 2:
            # CN 7.0: Allied units that stay disengaged through their movement phase recover.
            for uid, us in self.units.items():
                if self.side_of(uid) == side and us.status == "on_map" and us.reduced \
                        and not us.started_engaged and not self.engaged(uid) and not self.game.hooks.no_recovery(self, uid):
                    us.reduced = False
                    self._emit("recover", rec.get("rule", f"{self.rule_prefix} 7.0"), unit=self.game.units[uid].name)
        self._maquis_end_of_movement(side)

    def _end_of_combat(self, side: str) -> None:
        for uid, us in self.units.items():
            if us.status == "at_sea" and self.side_of(uid) == side:
                # CN 11.1.1 / OD 5.3: a unit that could not occupy its landing hex is destroyed.
                if self.units_at(us.at) and any(self.side_of(u) != side for u in self.units_at(us.at)):
                    self.eliminate(uid, " (could not land)", self.landing_rule)
                else:
                    self._land(uid)
        self._note_mulberry_captures()
