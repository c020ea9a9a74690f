"""The campaign engine: a ``Game`` (scenario + rules, immutable) and its ``State``.

``state.legal_actions()`` lists what the side to act may do; ``state.apply(action)`` returns
the events it caused. An illegal action raises ``IllegalAction`` naming the rule and leaves
the state unchanged. Choices that interrupt a phase (defence declaration, losses, retreats,
advance, EMP) are pending ``Decision``s owned by one side. All dice come from the state's
seeded ``Dice``; the action log replays a game exactly.
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from wargame.dice import Dice
from wargame.errors import MalformedAction
from wargame.hexgrid import Hex
from wargame.i18n import PHASE_NAMES, t
from wargame.operational import variants as bfn
from wargame.operational.actions import (
    Action,
    Advance,
    Attack,
    Bombard,
    CarpetBomb,
    ChooseLoss,
    DeclareDefence,
    EmpEliminate,
    EndAdvance,
    EndPhase,
    Enter,
    Exit,
    IllegalAction,
    Move,
    Retreat,
    action_from_dict,
    check_fields,
)
from wargame.operational.combat import Assessment, Shift, assess_attack, assess_bombardment
from wargame.operational.movement import (
    Reach,
    StepCosts,
    blocked_and_zoc,
    path_to,
    reachable,
    step_cost,
)
from wargame.operational.tables import split_result
from wargame.protocol import Decision as DecisionView
from wargame.protocol import Outcome
from wargame.scenario import Scenario, load_scenario

__all__ = ["Game", "State", "Phase", "Decision", "Event", "UnitState", "IllegalAction"]


class Phase(StrEnum):
    ALLIED_MOVEMENT = "allied_movement"
    ALLIED_COMBAT = "allied_combat"
    AXIS_MOVEMENT = "axis_movement"
    AXIS_COMBAT = "axis_combat"
    GAME_OVER = "game_over"

    @property
    def side(self) -> str | None:
        if self is Phase.GAME_OVER:
            return None
        return self.value.split("_")[0]

    @property
    def is_movement(self) -> bool:
        return self.value.endswith("movement")

    @property
    def is_combat(self) -> bool:
        return self.value.endswith("combat")


# CN/OD 3.0: Allied movement, Allied combat, Axis movement, Axis combat.
PHASES = (Phase.ALLIED_MOVEMENT, Phase.ALLIED_COMBAT, Phase.AXIS_MOVEMENT, Phase.AXIS_COMBAT)


@dataclass
class UnitState:
    status: str  # waiting | on_map | at_sea | eliminated | exited | withdrawn
    hex: Hex | None = None
    reduced: bool = False
    spent: int = 0  # half movement points spent this phase
    stopped: bool = False
    moved: bool = False
    started_engaged: bool = False
    attacked: bool = False
    fired: bool = False
    available: int | None = None  # turn from which a waiting unit may enter
    entry_edge: str | None = None  # for units that may return by the edge they left (CN 4.2.2)
    entered_turn: int | None = None
    maquis_phases: int = 0  # OD 10.0: Axis movement phases ended inside a maquis area
    in_maquis: bool = False  # OD 10.0: forced into a maquis area by a retreat


@dataclass(frozen=True)
class Event:
    kind: str
    text: str
    rule: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "rule": self.rule, "data": self.data}


@dataclass(frozen=True)
class Decision:
    kind: str  # defence | loss | retreat | advance | emp_defender | emp_attacker
    side: str
    prompt: str
    rule: str
    options: tuple[Action, ...]
    unit: str | None = None


@dataclass
class Combat:
    kind: str  # attack | bombard
    side: str  # the attacking side
    target: Hex
    attackers: list[str]
    artillery: list[str]
    air: int
    defenders: list[str]
    defence_air: int = 0
    defence_artillery: list[str] = field(default_factory=list)
    assessment: Any = None
    result: str | None = None
    steps: list[tuple] = field(default_factory=list)
    lost: set[str] = field(default_factory=set)
    retreat_queue: list[str] = field(default_factory=list)
    retreat_side: str | None = None
    attacker_won: bool = False
    emp_value: int = 0
    advanced: set[str] = field(default_factory=set)


class Game:
    """Rules + scenario, immutable. ``Game("normandy")`` loads a bundled scenario."""

    def __init__(self, scenario: Scenario | str, variants: tuple[str, ...] | list[str] = ()) -> None:
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        self.variants = bfn.normalize_variants(variants)  # BFN 19: optional variant rules
        self.tables = bfn.variant_tables(self.scenario.tables, self.variants)
        self.board = self.scenario.board
        self.units = self.scenario.units
        self.divisions = self.scenario.divisions
        self.steps = StepCosts(self.tables, self.board)
        self.rule_prefix = self.tables.rule_prefix

    def rule(self, name: str, default: Any = None) -> Any:
        return self.scenario.rule(name, default)

    def new_state(self, seed: int = 0) -> State:
        return State(self, seed)

    # ------------------------------------------------------------------ the game protocol
    kind = "campaign"

    @property
    def scenario_id(self) -> str:
        return self.scenario.id

    @property
    def sides(self) -> tuple[str, str]:
        return ("allied", "axis")  # CN/OD 3.0: the Allied player moves first each turn

    def options_json(self) -> dict[str, Any]:
        return {"variants": list(self.variants)}

    def action_from_dict(self, data: Any) -> Action:
        """An action back from its JSON form; ``MalformedAction`` when it is not one."""
        try:
            return action_from_dict(data)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise MalformedAction(f"not an action of the campaign games: {exc}") from None


SAVE_FORMAT_VERSION = 1


class State:
    """One moment of play."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.seed = int(seed)
        self.dice = Dice(self.seed)
        self.turn = game.scenario.first_turn
        self.phase = Phase.ALLIED_MOVEMENT
        self.units: dict[str, UnitState] = {}
        self.air_points: dict[str, int] = {"allied": 0, "axis": 0}
        self.attacked_hexes: set[tuple[str, Hex]] = set()
        self.control: dict[Hex, str] = {}
        self.must_attack: set[str] = set()
        self.carpet_turns: list[int] = []
        self.combat: Combat | None = None
        self.pending: Decision | None = None
        self.log: list[dict] = []
        self.events: list[Event] = []
        self.flags: dict[str, Any] = {}
        self._cache: dict[Any, Any] = {}
        self._applying = True
        self._setup()
        self._applying = False

    # ------------------------------------------------------------------ basic queries
    @property
    def rule_prefix(self) -> str:
        return self.game.rule_prefix

    @property
    def naval_rule(self) -> str:
        naval = self.game.rule("naval_support") or {}
        return naval.get("rule", f"{self.rule_prefix} 10.0")

    @property
    def landing_rule(self) -> str:
        """The rule cited for landings from the sea (CN 11.1.1; OD 5.3 for Dragoon)."""
        return (self.game.rule("setup_landings") or {}).get("rule", "CN 11.1.1")

    @property
    def side_to_act(self) -> str | None:
        if self.pending is not None:
            return self.pending.side
        return self.phase.side

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    # ------------------------------------------------------------------ the game protocol
    @property
    def is_terminal(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def action_log(self) -> list[dict]:
        return self.log

    @property
    def pending_decision(self) -> DecisionView | None:
        d = self.pending
        if d is None:
            return None
        return DecisionView(d.kind, d.side, d.prompt, d.rule, tuple(d.options), d.unit)

    def outcome(self) -> Outcome:
        """CN/OD 11.2: the side with more victory points wins (equal points: a draw); while
        the game goes on this is the score if it ended now (``final`` False)."""
        vp = self.victory_points()
        scores = {"allied": int(vp["allied"]), "axis": int(vp["axis"])}
        winner = None if scores["allied"] == scores["axis"] else max(scores, key=scores.get)
        return Outcome(winner, scores, f"{self.rule_prefix} 11.2 victory points", self.is_terminal)

    def to_json(self) -> dict[str, Any]:
        """The whole position as plain JSON (the save format is seed + action log)."""
        data = self.fingerprint()
        data.update({
            "game": "campaign",
            "scenario": self.game.scenario.id,
            "variants": list(self.game.variants),
            "seed": self.seed,
            "control": {h.id: side for h, side in sorted(self.control.items())},
            "must_attack": sorted(self.must_attack),
            "carpet_turns": list(self.carpet_turns),
            "attacked_hexes": sorted([s, h.id] for s, h in self.attacked_hexes),
            "pending_options": [a.to_dict() for a in self.pending.options] if self.pending else [],
            "actions": len(self.log),
        })
        return data

    @staticmethod
    def other(side: str) -> str:
        return "axis" if side == "allied" else "allied"

    def position(self, uid: str) -> Hex | None:
        us = self.units[uid]
        return us.hex if us.status == "on_map" else None

    def landing_hex(self, uid: str) -> Hex | None:
        us = self.units[uid]
        return us.hex if us.status == "at_sea" else None

    def units_at(self, h: Hex) -> list[str]:
        return list(self.occupancy().get(h, ()))

    def occupancy(self) -> dict[Hex, list[str]]:
        """Hex -> units on it. Cached between actions (positions change only inside apply)."""
        cache = self._cache.get("occ")
        if cache is not None:
            return cache
        occ: dict[Hex, list[str]] = {}
        for uid, us in self.units.items():
            if us.status == "on_map":
                occ.setdefault(us.hex, []).append(uid)
        if not self._applying:
            self._cache["occ"] = occ
        return occ

    def side_of(self, uid: str) -> str:
        return self.game.units[uid].side

    def occupied_by(self, side: str) -> set[Hex]:
        key = ("occupied", side)
        cache = self._cache.get(key)
        if cache is not None:
            return cache
        units = self.game.units
        out = {h for h, uids in self.occupancy().items() if units[uids[0]].side == side}
        if not self._applying:
            self._cache[key] = out
        return out

    def zoc_of(self, side: str) -> set[Hex]:
        """CN/OD 4.1.2: the six hexes around every unit of ``side``."""
        key = ("zoc", side)
        cache = self._cache.get(key)
        if cache is not None:
            return cache
        zoc: set[Hex] = set()
        board = self.game.board
        for h in self.occupied_by(side):
            zoc.update(board.neighbours(h))
        if not self._applying:
            self._cache[key] = zoc
        return zoc

    def engaged(self, uid: str) -> bool:
        h = self.position(uid)
        if h is None:
            return False
        enemy = self.occupied_by(self.other(self.side_of(uid)))
        return any(n in enemy for n in self.game.board.neighbours(h))

    def attack_of(self, uid: str) -> int:
        d = self.game.units[uid]
        return d.reduced_attack if self.units[uid].reduced else d.attack

    def defence_of(self, uid: str) -> int:
        d = self.game.units[uid]
        return d.reduced_defence if self.units[uid].reduced else d.defence

    def unit_type(self, uid: str):
        return self.game.tables.unit_type(self.game.units[uid].type)

    def movement_of(self, uid: str) -> tuple[int, str]:
        """(movement points, movement class) this phase; CN 4.2.1: German reinforcements have
        MP 10 and move as motorized on their entry turn."""
        d = self.game.units[uid]
        us = self.units[uid]
        entry = self.game.rule("entry_turn_movement")
        if entry and d.side == entry["side"] and us.entered_turn == self.turn:
            return int(entry["movement"]), str(entry["movement_class"])
        return d.movement, bfn.movement_class(self, uid, self.unit_type(uid).movement_class)  # BFN 19.5

    def stack_room(self, h: Hex, side: str, exclude: str | None = None) -> int:
        n = sum(1 for u in self.units_at(h) if u != exclude and self.side_of(u) == side)
        return self.game.scenario.stacking_limit - n

    def allowed_edges(self, side: str) -> tuple[str, ...]:
        exits = self.game.rule("exits", {}) or {}
        return tuple(exits.get(side, ()))

    def maquis_forbidden(self, side: str) -> frozenset[Hex]:
        """OD 10.0: only Allied units may move through maquis areas."""
        rule = self.game.rule("maquis_areas")
        if not rule or side not in rule.get("closed_to", ["axis"]):
            return frozenset()
        return frozenset(h for h, info in self.game.board.hexes.items() if info.maquis)

    # ------------------------------------------------------------------ setup and turns
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

    def _objective_hexes(self) -> set[Hex]:
        hexes: set[Hex] = set()
        for v in self.game.rule("victory", []) or []:
            if v.get("kind") == "city":
                hexes.update(self.game.board.places.get(v["place"], ()))
        for h, info in self.game.board.hexes.items():
            if info.airfield or (info.terrain == "city"):
                hexes.add(h)
        for m in bfn.mulberry_harbours(self, self.game.rule("mulberries")):  # BFN 19.4: chosen beaches
            hexes.add(Hex.from_id(m["landing"]))
        return hexes

    def _paradrop_dice(self) -> None:
        """CN 4.2.3 / OD 4.2.3: paratroops dropped at the start roll a die each: the listed
        faces land intact, any other lands with a loss."""
        rule = self.game.rule("setup_drops")
        if not rule:
            return
        intact_faces = rule["intact"]  # nation -> faces
        types = set(rule.get("types", ["paratroop"]))
        for uid, h in self.game.scenario.setup:
            d = self.game.units[uid]
            if d.type in types and d.nation in intact_faces:
                if bfn.drop_override(self, uid, h):
                    continue  # BFN 19.8: Pegasus Bridge
                die = self.dice.d6()
                ok = die in intact_faces[d.nation]
                if not ok:
                    self.units[uid].reduced = True
                self._emit("drop", rule.get("rule", f"{self.rule_prefix} 4.2.3"), unit=d.name, hex=h.id, die=die,
                           outcome="intact" if ok else "with losses")

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
        bfn.start_of_turn(self)  # BFN 19.1, 19.2, 19.4, 19.6.2: the daily rolls
        self._withdrawals()
        self._mulberry_turn()

    def _start_phase(self) -> None:
        side = self.phase.side
        if side is None:
            return
        self._emit("phase", f"{self.rule_prefix} 3.0", turn=self.turn, date=self.game.scenario.turn_date(self.turn) or "",
                   phase_name=PHASE_NAMES[self.phase.value])
        for uid, us in self.units.items():
            if self.side_of(uid) != side:
                continue
            us.attacked = False
            us.fired = False
            if self.phase.is_movement:
                us.spent = 0
                us.stopped = False
                us.moved = False
                us.started_engaged = us.status == "on_map" and self.engaged(uid)
        if self.phase.is_combat:
            self.must_attack = self._compute_must_attack(side)

    def _compute_must_attack(self, side: str) -> set[str]:
        """CN/OD 4.1.2 and 5.0: at the end of movement, units next to the enemy must attack,
        except units that began engaged, did not move and hold dominant terrain, and units
        with movement 0 (CN 5.3)."""
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
            adjacent = [n for n in board.neighbours(us.hex) if n in enemy]
            if not adjacent:
                continue
            if us.started_engaged and not us.moved and self._dominant(us.hex, adjacent):
                continue
            out.add(uid)
        return out

    def _hex_columns(self, h: Hex) -> int:
        from wargame.operational.combat import terrain_columns

        return terrain_columns(self, h)[0]

    def _dominant(self, h: Hex, enemy_hexes: list[Hex]) -> bool:
        """CN/OD 4.1.2: dominant terrain = more defensive columns than every engaging enemy."""
        mine = self._hex_columns(h)
        return all(mine > self._hex_columns(e) for e in enemy_hexes)

    def _withdrawals(self) -> None:
        """CN 4.2.2 (82nd and 101st on turn 13), OD 4.2.2 (British para turn 4, 148th turn 5):
        removed unless encircled, then as soon as freed."""
        for w in bfn.withdrawal_rules(self, self.game.rule("withdrawals", []) or []):  # BFN 19.2
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
                if self.encircled(us.hex, self.side_of(uid)):
                    continue
                us.status = "withdrawn"
                us.hex = None
                self._emit("withdrawn", w.get("rule", f"{self.rule_prefix} 4.2.2"), unit=self.game.units[uid].name)

    # ------------------------------------------------------------------ Mulberries (CN 9.0)
    def _mulberry_turn(self) -> None:
        rule = self.game.rule("mulberries")
        if not rule or bfn.replaces_cn_mulberries(self.game):  # BFN 19.4 replaces CN 9.0
            return
        state = self.flags.setdefault("mulberries", {m["name"]: "planned" for m in rule["harbours"]})
        captured = self.flags.setdefault("landing_captured", {})
        for m in rule["harbours"]:
            name = m["name"]
            if state[name] != "planned":
                continue
            landing = Hex.from_id(m["landing"])
            taken = captured.get(name)
            if taken is None:
                continue  # CN 9.0: not taken on turn 0: installed 4 turns after its capture
            if self.turn > self.game.scenario.first_turn and any(self.side_of(u) == "axis" for u in self.units_at(landing)):
                # CN 9.0: the enemy occupies the landing hex after turn 0, once the Allies had
                # taken it (Germans still holding it only delay the harbour, as the sentence
                # before says; docs/rules-notes.md)
                state[name] = "cancelled"
                self._emit("mulberry", "CN 9.0", name=name, status="can no longer be installed")
                continue
            due = rule["install_turn"] if taken <= self.game.scenario.first_turn else taken + rule["delay_turns"]
            if self.turn >= max(due, rule["install_turn"]):
                state[name] = "operating"
                self._emit("mulberry", "CN 9.0", name=name, status=f"installed at {m['hex']}")
        if self.turn == rule["storm_turn"]:
            for m in rule["harbours"]:
                if state[m["name"]] == "operating":
                    die = self.dice.d6()
                    if die % 2 == 1:
                        state[m["name"]] = "destroyed"
                    self._emit("mulberry", "CN 9.0", name=m["name"],
                               status=f"storm die {die}: " + ("destroyed" if die % 2 else "survives"))

    def mulberries_operating(self) -> int:
        return sum(1 for s in (self.flags.get("mulberries") or {}).values() if s == "operating")

    def mulberry_penalty(self) -> int:
        """CN 9.0: from turn 9, with fewer than two Mulberries the Allies lose a column in every
        combat (and with none, also recovery and artillery-only attacks) until Cherbourg falls."""
        rule = self.game.rule("mulberries")
        if not rule or self.turn < rule["penalty_turn"]:
            return 0
        port = Hex.from_id(rule["port"])
        if self.control.get(port) == "allied":
            return 0
        n = self.mulberries_operating()
        return 0 if n >= 2 else (1 if n == 1 else 2)

    def mulberry_landing_free(self, h: Hex) -> bool:
        rule = self.game.rule("mulberries")
        if not rule:
            return False
        states = self.flags.get("mulberries") or {}
        for m in bfn.mulberry_harbours(self, rule):  # BFN 19.4: the chosen beaches
            if Hex.from_id(m["landing"]) == h and states.get(m["name"]) == "operating":
                return True
        port = Hex.from_id(rule["port"])
        return h == port and self.control.get(port) == "allied"

    # ------------------------------------------------------------------ column shifts
    def naval_support_columns(self, target: Hex, attackers: tuple[str, ...]) -> int:
        rule = self.game.rule("naval_support")
        if not rule:
            return 0
        rule = bfn.naval_rule(self, rule)  # BFN 19.1: after the battleships leave
        cols = int(rule["columns"])
        if rule.get("coast_hexes") and target in self.game.board.coast:
            return cols  # OD 9.0: any combat in a coast hex
        if self.turn in rule.get("landing_turns", []) and any(self.units[u].status == "at_sea" for u in attackers):
            return cols  # CN 10.0: turn-0 attacks by units landing from the sea
        for place in rule.get("places", []):
            if target in self.game.board.places.get(place, ()):
                return cols  # CN 10.0: any attack on Cherbourg
        coast_place = rule.get("invasion_coast")
        if coast_place:
            excluded = {Hex.from_id(x) for x in rule.get("excluded", [])}
            coast = [h for h in self.game.board.places.get(coast_place, ()) if h not in excluded]
            if any(target.distance(c) <= int(rule.get("range", 3)) for c in coast):
                return cols  # CN 10.0: within 3 hexes of the invasion coast (not 1509)
        return 0

    def turn_shifts(self, attacking_side: str) -> list[Shift]:
        out = []
        penalties = self.game.rule("attack_penalty_turns", {}) or {}
        if self.turn in penalties.get(attacking_side, []):
            out.append(Shift(f"turn {self.turn}: attacker loses a column", -1, f"{self.rule_prefix} 5.1.1"))
        if self.mulberry_penalty():
            sign = -1 if attacking_side == "allied" else +1
            out.append(Shift("Mulberries lost: Allies lose a column", sign, "CN 9.0"))
        return out

    def maquis_shifts(self, attackers: tuple[str, ...], defenders: list[str]) -> list[Shift]:
        out = []
        if any(self.units[u].in_maquis for u in defenders):
            out.append(Shift("defenders forced into a maquis area", +1, "OD 10.0"))
        if any(self.units[u].in_maquis for u in attackers):
            out.append(Shift("attackers forced into a maquis area", -1, "OD 10.0"))
        out.extend(bfn.combat_shifts(self, attackers, defenders))  # BFN 19.5-19.7
        return out

    def encircled(self, h: Hex, side: str) -> bool:
        """CN/OD 5.1.3: no adjacent hex free of enemy zones of engagement to retreat to, and no
        permitted board edge to leave by."""
        if any(e in self.allowed_edges(side) for e in self.game.board.edge_of.get(h, ())):
            return False
        enemy = self.other(side)
        zoc = self.zoc_of(enemy)
        occupied = self.occupied_by(enemy)
        for n in self.game.board.neighbours(h):
            if self.game.board.is_land(n) and n not in zoc and n not in occupied:
                return False
        return True

    # ------------------------------------------------------------------ movement queries
    def reach(self, uid: str) -> dict[Hex, Reach]:
        """Hexes the unit can reach this phase with their cost (half points)."""
        us = self.units[uid]
        if us.status != "on_map":
            return {}
        mp, mclass = self.movement_of(uid)
        side = self.side_of(uid)
        return reachable(
            self.game.steps,
            mclass,
            us.hex,
            budget=2 * mp,
            start_cost=us.spent,
            extra_steps=self._offmap_roads(side, mclass),
            indexed_sets=self._move_obstacles(side),
        )

    def _move_obstacles(self, side: str) -> tuple[frozenset[int], frozenset[int]]:
        """For a unit of ``side``: the hexes it may not enter and the enemy zones of engagement,
        numbered for the search, cached like ``zoc_of`` until the position changes."""
        key = ("obstacles", side)
        cache = self._cache.get(key)
        if cache is not None:
            return cache
        enemy = self.other(side)
        out = blocked_and_zoc(self.game.steps, self.occupied_by(enemy), self.zoc_of(enemy),
                              self.maquis_forbidden(side))
        if not self._applying:
            self._cache[key] = out
        return out

    def _offmap_roads(self, side: str, movement_class: str) -> dict[Hex, list[tuple[Hex, int]]] | None:
        """CN 4.2.2: German units may use the red off-map arrows, paying the road hexes between
        the two ends, then the road into the far end: Avranches 1125 to south of Vire 1825 is
        10 road hexes, 5 points motorized, "and the count restarts at 5.5 in hex 1825"."""
        if side not in (self.game.rule("offmap_road_sides") or []):
            return None
        road = self.game.tables.road_cost[movement_class]
        out: dict[Hex, list[tuple[Hex, int]]] = {}
        for link in self.game.board.offmap_roads:
            a, b = Hex.from_id(link["from"]), Hex.from_id(link["to"])
            cost = int(round((link["road_hexes"] + 1) * road * 2))
            out.setdefault(a, []).append((b, cost))
            out.setdefault(b, []).append((a, cost))
        return out

    def legal_destinations(self, uid: str) -> dict[Hex, Reach]:
        if self._move_refusal(uid) is not None:
            return {}
        side = self.side_of(uid)
        reach = self.reach(uid)
        return {h: r for h, r in reach.items() if h != self.units[uid].hex and self.stack_room(h, side, uid) > 0}

    def _move_refusal(self, uid: str) -> IllegalAction | None:
        p = self.rule_prefix
        if uid not in self.units:
            return IllegalAction(f"no unit {uid!r}", p)
        if self.pending is not None:
            return IllegalAction(f"a decision is pending: {self.pending.prompt}", self.pending.rule)
        if not self.phase.is_movement:
            return IllegalAction("units move only in their side's movement phase", f"{p} 3.0")
        if self.side_of(uid) != self.phase.side:
            return IllegalAction(f"it is the {PHASE_NAMES[self.phase.value]} phase", f"{p} 3.0")
        us = self.units[uid]
        if us.status != "on_map":
            return IllegalAction(f"{self.game.units[uid].name} is not on the map", f"{p} 4.0")
        if self.game.units[uid].movement == 0:
            return IllegalAction("units with movement 0 cannot move", f"{p} 5.3")
        if us.stopped:
            return IllegalAction("the unit entered an enemy zone of engagement and must stop", f"{p} 4.1.2")
        pinned = bfn.move_refusal(self, uid)  # BFN 19.3.3: friendly fire
        if pinned:
            return pinned
        frozen = self.game.rule("no_move_first_turn_types")
        if frozen and self.turn == self.game.scenario.first_turn and self.game.units[uid].type in frozen["types"] \
                and any(u == uid for u, _ in self.game.scenario.setup):
            return IllegalAction("paratroops dropped on the first turn do not move", frozen.get("rule", f"{p} 4.2.3"))
        wait = self.game.rule("drop_units_wait_contact")
        if wait and uid in wait.get("units", []) and uid not in self.flags.get("contacted", []):
            if not self._in_contact_with_friends(uid):
                return IllegalAction("dropped units move only after contacting other Allied units", f"{p} 4.2.3")
        return None

    def _in_contact_with_friends(self, uid: str) -> bool:
        h = self.position(uid)
        side = self.side_of(uid)
        waiting = set((self.game.rule("drop_units_wait_contact") or {}).get("units", []))
        for n in (h, *self.game.board.neighbours(h)):
            for u in self.units_at(n):
                if u != uid and self.side_of(u) == side and u not in waiting:
                    return True
        return False

    def entry_hexes(self, uid: str) -> list[Hex]:
        """Where a waiting reinforcement may enter now (CN/OD 4.2.1, 11.1.3-11.1.4)."""
        us = self.units[uid]
        if us.status != "waiting" or us.available is None or us.available > self.turn:
            return []
        side = self.side_of(uid)
        landing = self.game.rule("first_turn_landing")
        if landing and uid == landing["unit"] and self.turn == self.game.scenario.first_turn:
            return self._first_turn_landing_hexes(uid, landing)
        if us.entry_edge is not None:
            hexes = list(self.game.board.edges.get(us.entry_edge, ()))
        else:
            entry = next(r.entry for r in self.game.scenario.reinforcements if r.unit == uid)
            if entry.kind == "drop":
                hexes = self._drop_hexes(uid, entry)
            else:
                hexes = list(entry.hexes)
            if entry.kind == "beach":
                port = (self.game.rule("mulberries") or {}).get("port")
                if port and self.control.get(Hex.from_id(port)) == "allied":
                    hexes.append(Hex.from_id(port))  # CN 4.2.1: by Cherbourg after its capture
        enemy = self.occupied_by(self.other(side))
        return sorted({h for h in hexes if h not in enemy and self.game.board.is_land(h)})

    def _drop_hexes(self, uid: str, entry) -> list[Hex]:
        """CN 4.2.3: turn-1 drops land on any hex their division holds; if no Allied unit holds
        the division's drop hexes any more, the unit lands on a beach of its nation on turn 2."""
        division = entry.division
        drop_zone = {h for u, h in self.game.scenario.setup if self.game.units[u].division == division}
        held = [h for h in drop_zone if any(self.side_of(u) == "allied" for u in self.units_at(h))]
        fallback = self.game.rule("drop_fallback")
        if not held and fallback:
            if self.turn < fallback["turn"]:
                return []
            beaches = fallback["beaches"].get(self.game.units[uid].nation, [])
            return [h for name in beaches for h in self.game.board.places.get(name, ())]
        return [self.units[u].hex for u in self.game.scenario.division_units(division)
                if self.units[u].status == "on_map"]

    def _first_turn_landing_hexes(self, uid: str, rule: dict) -> list[Hex]:
        """CN 3.0 observation / 11.1.3: after the Allied combat phase of turn 0 the 1st Commando
        Brigade lands at 3011 once it is taken (then moves to a 6th Airborne hex), or else on
        another British beach, where it stays."""
        if self.phase is not Phase.ALLIED_COMBAT or self.combat is not None or self.pending is not None:
            return []
        enemy = self.occupied_by(self.other(self.side_of(uid)))
        first = Hex.from_id(rule["hex"])
        if first not in enemy and self.control.get(first, "allied") == "allied" and self._stacked_ok(first, uid):
            return [first]
        return sorted(h for name in rule["fallback_beaches"] for h in self.game.board.places.get(name, ())
                      if h not in enemy)

    def _stacked_ok(self, h: Hex, uid: str) -> bool:
        return self.stack_room(h, self.side_of(uid), uid) > 0 or bool(self._join_hexes(uid))

    def _join_hexes(self, uid: str) -> list[Hex]:
        rule = self.game.rule("first_turn_landing") or {}
        return sorted({self.units[u].hex for u in self.game.scenario.division_units(rule.get("join_division", ""))
                       if self.units[u].status == "on_map" and self.stack_room(self.units[u].hex, "allied", uid) > 0})

    # ------------------------------------------------------------------ public API
    def apply(self, action: Action) -> list[Event]:
        """Apply an action; returns the events it caused. Illegal: raises, state unchanged."""
        if not isinstance(action, Action):
            raise MalformedAction(f"not an action: {action!r:.80}")
        check_fields(action)
        if self.is_over:
            raise IllegalAction("the game is over", f"{self.rule_prefix} 11.2")
        snapshot = self._snapshot()
        first_event = len(self.events)
        self._cache.clear()
        self._applying = True
        try:
            self._dispatch(action)
        except BaseException:
            self._restore(snapshot)
            raise
        finally:
            self._applying = False
            self._cache.clear()
        self.log.append(action.to_dict())
        return self.events[first_event:]

    def legal_actions(self) -> list[Action]:
        if self.is_over:
            return []
        if self.pending is not None:
            return list(self.pending.options)
        side = self.phase.side
        actions: list[Action] = []
        if self.phase.is_movement:
            for uid, us in self.units.items():
                if self.side_of(uid) != side:
                    continue
                if us.status == "on_map":
                    for h in self.legal_destinations(uid):
                        actions.append(Move(uid, h.id))
                    actions.extend(self._exit_actions(uid))
                elif us.status == "waiting":
                    actions.extend(Enter(uid, h.id) for h in self.legal_entry_hexes(uid))
            for h in self.carpet_targets():
                actions.append(CarpetBomb(h.id))
            actions.extend(bfn.extra_actions(self))  # BFN 19.3
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
        if self._end_phase_refusal() is None:
            actions.append(EndPhase())
        return actions

    def legal_entry_hexes(self, uid: str) -> list[Hex]:
        """Entry hexes a waiting reinforcement may enter now: the first hex's cost payable
        (CN/OD 4.2.1) and room in its stack (4.1.1)."""
        side = self.side_of(uid)
        return [h for h in self.entry_hexes(uid)
                if self._entry_cost(uid, h) is not None and self.stack_room(h, side) > 0]

    def _exit_actions(self, uid: str) -> list[Action]:
        us = self.units[uid]
        out = []
        if self._move_refusal(uid) is not None:
            return out
        mp, _ = self.movement_of(uid)
        if 2 * mp - us.spent < 2:
            return out
        for edge in self.game.board.edge_of.get(us.hex, ()):
            if edge in self.allowed_edges(self.side_of(uid)):
                out.append(Exit(uid, edge))
        return out

    def _attack_actions(self, side: str) -> list[Action]:
        out: list[Action] = []
        enemy_hexes = self.occupied_by(self.other(side))
        for target in sorted(enemy_hexes):
            if (side, target) in self.attacked_hexes:
                continue
            attackers = self.eligible_attackers(side, target)
            if attackers:
                out.append(Attack(target.id, tuple(attackers)))
            arty = self.artillery_in_range(side, target)
            if arty and not attackers:
                if self._bombard_refusal(target, tuple(arty), 0) is None:
                    out.append(Bombard(target.id, tuple(arty)))
        return out

    def eligible_attackers(self, side: str, target: Hex, one_armour: bool = True) -> list[str]:
        """Units of ``side`` that may attack ``target`` now, respecting CN 5.1.2's one armoured
        unit against bocage (unless ``one_armour`` is False) and OD 5.1.2's no armour against
        mountains."""
        out = []
        armour_taken = False
        info = self.game.board.hexes[target]
        limit_armour = one_armour and info.terrain in (self.game.rule("one_armour_terrain") or [])
        for n in (target, *self.game.board.neighbours(target)):
            for uid in self._attack_candidates_at(n, side, target):
                ut = self.unit_type(uid)
                if info.terrain in ut.no_attack_into:
                    continue
                if limit_armour and ut.armoured:
                    if armour_taken:
                        continue
                    armour_taken = True
                out.append(uid)
        return out

    def _attack_candidates_at(self, h: Hex, side: str, target: Hex) -> list[str]:
        out = []
        for uid, us in self.units.items():
            if self.side_of(uid) != side or us.attacked:
                continue
            if us.status == "on_map" and us.hex == h and h != target:
                out.append(uid)
            elif us.status == "at_sea" and us.hex == target and h == target:
                out.append(uid)
        return out

    def artillery_in_range(self, side: str, target: Hex) -> list[str]:
        """CN/OD 8.0: artillery attacks without engaging, within its range, once per phase."""
        out = []
        for uid, us in self.units.items():
            d = self.game.units[uid]
            if d.side != side or d.range <= 0 or us.status != "on_map" or us.fired or us.attacked:
                continue
            if us.hex == target:
                continue  # docs/rules-notes.md: artillery attacked in its hex defends, no more
            if us.hex.distance(target) <= d.range:
                out.append(uid)
        return out

    # ------------------------------------------------------------------ dispatch
    def _dispatch(self, action: Action) -> None:
        if self.pending is not None:
            if action not in self.pending.options and not self._pending_accepts(action):
                raise IllegalAction(f"a decision is pending: {self.pending.prompt}", self.pending.rule)
            self._answer(action)
            return
        handler = {
            Move: self._do_move,
            Enter: self._do_enter,
            Exit: self._do_exit,
            EndPhase: self._do_end_phase,
            Attack: self._do_attack,
            Bombard: self._do_bombard,
            CarpetBomb: self._do_carpet,
        }.get(type(action)) or bfn.action_handler(self, action)
        if handler is None:
            raise IllegalAction(f"{action.kind} is only an answer to a pending decision")
        handler(action)

    def _pending_accepts(self, action: Action) -> bool:
        """Decisions whose option space is too large to list in full (defence declaration)."""
        return self.pending is not None and self.pending.kind == "defence" and isinstance(action, DeclareDefence)

    def _hex_arg(self, hid: str, what: str) -> Hex:
        try:
            h = Hex.from_id(hid)
        except (ValueError, TypeError):
            raise IllegalAction(f"{what} {hid!r} is not a hex id") from None
        if h not in self.game.board.hexes:
            raise IllegalAction(f"{what} {hid} is not on the map")
        return h

    # movement ---------------------------------------------------------------------------
    def _do_move(self, a: Move) -> None:
        refusal = self._move_refusal(a.unit)
        if refusal:
            raise refusal
        dest = self._hex_arg(a.to, "destination")
        p = self.rule_prefix
        side = self.side_of(a.unit)
        if dest in self.occupied_by(self.other(side)):
            raise IllegalAction("two enemy units never share a hex", f"{p} 4.1.2")
        reach = self.reach(a.unit)
        if dest not in reach or dest == self.units[a.unit].hex:
            mp, mclass = self.movement_of(a.unit)
            cost = step_cost(self.game.tables, self.game.board, mclass, self.units[a.unit].hex, dest) \
                if dest in self.game.board.neighbours(self.units[a.unit].hex) else 1
            if cost is None:
                raise IllegalAction(f"{self.game.board.hexes[dest].terrain} is prohibited to this unit", f"{p} 4.0")
            raise IllegalAction(f"{dest.id} is beyond the unit's movement ({mp} MP) this phase", f"{p} 4.0")
        if self.stack_room(dest, side, a.unit) <= 0:
            raise IllegalAction(f"stacking limit {self.game.scenario.stacking_limit}", f"{p} 4.1.1")
        path = path_to(reach, dest)
        if a.path:
            path = self._check_path(a, reach)
        us = self.units[a.unit]
        start = us.hex
        before = us.spent
        us.hex = dest
        us.spent = reach[dest].cost if not a.path else self._path_cost(a.unit, start, path)
        us.moved = True
        us.stopped = dest in self.zoc_of(self.other(side))
        wait = self.game.rule("drop_units_wait_contact")
        if wait and a.unit in wait.get("units", []) and a.unit not in self.flags.get("contacted", []):
            self.flags.setdefault("contacted", []).append(a.unit)  # OD 4.2.3: free from now on
        for h in path:
            self._take_control(h, side)
        self._emit("move", f"{p} 4.0", unit=self.game.units[a.unit].name, frm=start.id, to=dest.id,
                   cost=(us.spent - before) / 2, path=[h.id for h in path])

    def _check_path(self, a: Move, reach: dict[Hex, Reach]) -> list[Hex]:
        p = self.rule_prefix
        hexes = [self._hex_arg(x, "path hex") for x in a.path]
        if not hexes or hexes[-1] != Hex.from_id(a.to):
            raise IllegalAction("the path must end at the destination", f"{p} 4.0")
        side = self.side_of(a.unit)
        zoc = self.zoc_of(self.other(side))
        for h in hexes[:-1]:
            if h in zoc:
                raise IllegalAction(f"the path enters an enemy zone of engagement at {h.id} and must stop there", f"{p} 4.1.2")
        cost = self._path_cost(a.unit, self.units[a.unit].hex, hexes)
        mp, _ = self.movement_of(a.unit)
        if cost is None or cost > 2 * mp:
            raise IllegalAction(f"the path costs more than the unit's {mp} MP", f"{p} 4.0")
        return hexes

    def _path_cost(self, uid: str, start: Hex, path: list[Hex]) -> int | None:
        _, mclass = self.movement_of(uid)
        us = self.units[uid]
        side = self.side_of(uid)
        enemy = self.occupied_by(self.other(side))
        zoc = self.zoc_of(self.other(side))
        cost = us.spent + (2 if start in zoc else 0)
        prev = start
        for h in path:
            if h in enemy or prev.distance(h) != 1:
                return None
            c = step_cost(self.game.tables, self.game.board, mclass, prev, h)
            if c is None:
                return None
            cost += c
            prev = h
        return cost

    def _entry_cost(self, uid: str, h: Hex) -> int | None:
        """CN/OD 4.2.1: a reinforcement pays the cost of the first hex it occupies; CN 9.0:
        nothing at a working Mulberry (or Cherbourg once Allied)."""
        entry = next((r.entry for r in self.game.scenario.reinforcements if r.unit == uid), None)
        if entry is not None and entry.kind == "drop" and self.units[uid].entry_edge is None:
            return 0
        if self.mulberry_landing_free(h) and self.side_of(uid) == "allied":
            return 0
        _, mclass = self.movement_of_on_entry(uid)
        terrain = self.game.tables.terrain.get(self.game.board.hexes[h].terrain)
        cost = terrain.cost.get(mclass) if terrain else None
        return None if cost is None else int(round(cost * 2))

    def movement_of_on_entry(self, uid: str) -> tuple[int, str]:
        entry = self.game.rule("entry_turn_movement")
        d = self.game.units[uid]
        if entry and d.side == entry["side"]:
            return int(entry["movement"]), str(entry["movement_class"])
        return d.movement, self.unit_type(uid).movement_class

    def _do_enter(self, a: Enter) -> None:
        p = self.rule_prefix
        if self.pending is not None:
            raise IllegalAction("a decision is pending", self.pending.rule)
        if a.unit not in self.units:
            raise IllegalAction(f"no unit {a.unit!r}", p)
        side = self.side_of(a.unit)
        landing = self.game.rule("first_turn_landing")
        if landing and a.unit == landing["unit"] and self.turn == self.game.scenario.first_turn:
            self._do_first_turn_landing(a, landing)
            return
        if not self.phase.is_movement or side != self.phase.side:
            raise IllegalAction("reinforcements enter in their side's movement phase", f"{p} 4.2.1")
        us = self.units[a.unit]
        if us.status != "waiting":
            raise IllegalAction(f"{self.game.units[a.unit].name} is not waiting to enter", f"{p} 4.2.1")
        if us.available is None or us.available > self.turn:
            raise IllegalAction(f"{self.game.units[a.unit].name} arrives on turn {us.available}", f"{p} 11.1")
        h = self._hex_arg(a.hex, "entry hex")
        if h not in self.entry_hexes(a.unit):
            raise IllegalAction(f"{h.id} is not one of this unit's entry hexes", f"{p} 4.2.1")
        cost = self._entry_cost(a.unit, h)
        mp, _ = self.movement_of_on_entry(a.unit)
        if cost is None or cost > 2 * mp:
            raise IllegalAction(f"the unit cannot pay the entry hex's cost ({mp} MP)", f"{p} 4.2.1")
        dest = self._hex_arg(a.to, "destination") if a.to else h
        if self.stack_room(dest, side) <= 0:
            raise IllegalAction(f"stacking limit {self.game.scenario.stacking_limit}", f"{p} 4.1.1")
        us.status = "on_map"
        us.hex = h
        us.spent = cost
        us.entered_turn = self.turn
        us.moved = True
        entry = next((r.entry for r in self.game.scenario.reinforcements if r.unit == a.unit), None)
        zoc = self.zoc_of(self.other(side))
        us.stopped = h in zoc or (entry is not None and entry.kind == "drop")
        self._take_control(h, side)
        self._emit("enter", f"{p} 4.2.1", unit=self.game.units[a.unit].name, hex=h.id)
        if a.to and dest != h:
            self._do_move(Move(a.unit, dest.id))

    def _do_first_turn_landing(self, a: Enter, rule: dict) -> None:
        r = rule.get("rule", "CN 3.0")
        h = self._hex_arg(a.hex, "landing hex")
        if h not in self.entry_hexes(a.unit):
            raise IllegalAction("lands after the Allied combat phase of the first turn, at "
                                f"{rule['hex']} once taken, otherwise on another British beach", r)
        us = self.units[a.unit]
        first = Hex.from_id(rule["hex"])
        dest = h
        if h == first:
            if not a.to:
                raise IllegalAction("after landing it must move to a hex held by the 6th Airborne", r)
            dest = self._hex_arg(a.to, "destination")
            if dest not in self._join_hexes(a.unit):
                raise IllegalAction(f"{dest.id} is not a hex held by the 6th Airborne with room", r)
        elif a.to and self._hex_arg(a.to, "destination") != h:
            raise IllegalAction("landing elsewhere, it does not move", r)
        elif self.stack_room(h, "allied", a.unit) <= 0:
            raise IllegalAction(f"stacking limit {self.game.scenario.stacking_limit}", f"{self.rule_prefix} 4.1.1")
        us.status = "on_map"
        us.hex = dest
        us.entered_turn = self.turn
        us.stopped = True
        self._emit("landing", r, unit=self.game.units[a.unit].name, hex=h.id)
        if dest != h:
            self._emit("move", r, unit=self.game.units[a.unit].name, frm=h.id, to=dest.id, cost=0, path=[dest.id])

    def _do_exit(self, a: Exit) -> None:
        p = self.rule_prefix
        refusal = self._move_refusal(a.unit)
        if refusal:
            raise refusal
        us = self.units[a.unit]
        side = self.side_of(a.unit)
        if a.edge not in self.allowed_edges(side):
            raise IllegalAction(f"{side} units may not leave by the {a.edge} edge", f"{p} 4.2.2")
        if a.edge not in self.game.board.edge_of.get(us.hex, ()):
            raise IllegalAction(f"{us.hex.id} is not on the {a.edge} edge", f"{p} 4.2.2")
        mp, _ = self.movement_of(a.unit)
        if 2 * mp - us.spent < 2:
            raise IllegalAction("leaving the board costs 1 movement point", f"{p} 4.2.2")
        self._leave_board(a.unit, a.edge)

    def _leave_board(self, uid: str, edge: str) -> None:
        p = self.rule_prefix
        us = self.units[uid]
        side = self.side_of(uid)
        us.status = "exited"
        us.hex = None
        self.flags.setdefault("exits", []).append({"unit": uid, "edge": edge, "turn": self.turn,
                                                   "intact": not us.reduced})
        self._emit("exit", f"{p} 4.2.2", unit=self.game.units[uid].name, edge=edge)
        if side in (self.game.rule("may_return") or []):
            # CN 4.2.2: German units may come back from the next turn anywhere on that edge.
            us.status = "waiting"
            us.available = self.turn + 1
            us.entry_edge = edge
            self._emit("return", f"{p} 4.2.2", unit=self.game.units[uid].name, edge=edge, turn=self.turn + 1)

    # phases -----------------------------------------------------------------------------
    def _end_phase_refusal(self) -> IllegalAction | None:
        if self.pending is not None:
            return IllegalAction(f"a decision is pending: {self.pending.prompt}", self.pending.rule)
        if self.phase.is_combat:
            side = self.phase.side
            for uid in sorted(self.must_attack):
                us = self.units[uid]
                if us.attacked or us.status not in ("on_map", "at_sea"):
                    continue
                if self._can_still_attack(uid, side):
                    name = self.game.units[uid].name
                    return IllegalAction(f"{name} is engaged and must attack", f"{self.rule_prefix} 4.1.2")
        return None

    def _can_still_attack(self, uid: str, side: str) -> bool:
        us = self.units[uid]
        if us.status == "at_sea":
            return (side, us.hex) not in self.attacked_hexes and bool(self.units_at(us.hex))
        enemy = self.occupied_by(self.other(side))
        for n in self.game.board.neighbours(us.hex):
            if n in enemy and (side, n) not in self.attacked_hexes and uid in self.eligible_attackers(side, n):
                return True
        return False

    def _do_end_phase(self, a: EndPhase) -> None:
        refusal = self._end_phase_refusal()
        if refusal:
            raise refusal
        side = self.phase.side
        if self.phase.is_movement:
            self._end_of_movement(side)
            bfn.end_of_movement(self, side)  # BFN 19.3.3: the bombs fall
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
                        and not us.started_engaged and not self.engaged(uid) and not bfn.no_recovery(self, uid):
                    us.reduced = False
                    self._emit("recover", rec.get("rule", f"{self.rule_prefix} 7.0"), unit=self.game.units[uid].name)
        maquis = self.game.rule("maquis_areas")
        if maquis:
            # OD 10.0: an Axis unit still in a maquis area at the end of its movement phase
            # takes a loss; at the end of the next, it is eliminated.
            for uid, us in self.units.items():
                if self.side_of(uid) != side or us.status != "on_map":
                    continue
                if self.game.board.hexes[us.hex].maquis and side in maquis.get("closed_to", ["axis"]):
                    us.maquis_phases += 1
                    self._emit("maquis", "OD 10.0", unit=self.game.units[uid].name)
                    if us.maquis_phases >= 2:
                        self._eliminate(uid, " (maquis area)", "OD 10.0")
                    else:
                        self._take_loss(uid, "OD 10.0")
                else:
                    us.maquis_phases = 0
                    us.in_maquis = False

    def _note_mulberry_captures(self) -> None:
        """CN 9.0: the turn each Mulberry's landing hex was first taken by the Allies."""
        rule = self.game.rule("mulberries")
        if not rule:
            return
        captured = self.flags.setdefault("landing_captured", {})
        for m in rule["harbours"]:
            if m["name"] not in captured and self.control.get(Hex.from_id(m["landing"])) == "allied":
                captured[m["name"]] = self.turn

    def _end_of_combat(self, side: str) -> None:
        for uid, us in self.units.items():
            if us.status == "at_sea" and self.side_of(uid) == side:
                # CN 11.1.1 / OD 5.3: a unit that could not occupy its landing hex is destroyed.
                if self.units_at(us.hex) and any(self.side_of(u) != side for u in self.units_at(us.hex)):
                    self._eliminate(uid, " (could not land)", self.landing_rule)
                else:
                    self._land(uid)
        self._note_mulberry_captures()

    def _land(self, uid: str) -> None:
        us = self.units[uid]
        side = self.side_of(uid)
        if self.stack_room(us.hex, side) <= 0:
            self._eliminate(uid, " (no room to land)", self.landing_rule)
            return
        us.status = "on_map"
        self._take_control(us.hex, side)
        self._emit("landing", self.landing_rule, unit=self.game.units[uid].name, hex=us.hex.id)

    # control and victory ----------------------------------------------------------------
    def _take_control(self, h: Hex, side: str) -> None:
        if h in self.control and self.control[h] != side:
            self.control[h] = side
            name = self.game.board.place_name(h)
            if name:
                self._emit("control", "", side=side.capitalize(), place=f"{name} ({h.id})")
        elif h not in self.control and (self.game.board.hexes[h].airfield or self.game.board.hexes[h].terrain == "city"):
            self.control[h] = side

    def victory_points(self) -> dict[str, Any]:
        """CN 11.2 / OD 11.2, computed from the state at any moment (breakdown included)."""
        score = {"allied": 0, "axis": 0}
        lines: list[tuple[str, str, int]] = []
        board = self.game.board
        counted_hexes: set[Hex] = set()
        exits = self.flags.get("exits", [])
        for v in self.game.rule("victory", []) or []:
            kind = v["kind"]
            if kind == "city":
                hexes = board.places.get(v["place"], ())
                counted_hexes.update(hexes)
                for side, pts in v["points"].items():
                    held = sum(1 for h in hexes if self.control.get(h) == side)
                    if held:
                        # docs/rules-notes.md: a city of two hexes is shared by hexes held.
                        value = pts * held // len(hexes)
                        score[side] += value
                        lines.append((side, v["place"], value))
            elif kind == "destroyed":
                dead = [u for u, us in self.units.items() if us.status == "eliminated" and self.side_of(u) == v["side"]]
                n = len(dead)
                if v.get("forgive_third"):
                    n -= n // 3  # CN 11.2.2: the German player removes 1/3 of his losses
                score[v["scorer"]] += n * v["points"]
                lines.append((v["scorer"], f"{v['side']} units destroyed x{n}", n * v["points"]))
            elif kind == "exited":
                n = sum(1 for e in exits if self.side_of(e["unit"]) == v["side"] and e["edge"] in v["edges"]
                        and (e["intact"] or not v.get("intact")))
                score[v["scorer"]] += n * v["points"]
                lines.append((v["scorer"], f"{v['side']} units exited x{n}", n * v["points"]))
            elif kind == "divisions_exited":
                # OD 11.2.1: a division that left by the edge intact and with all its elements
                # (every piece exited there, none reduced when it left).
                out = {e["unit"]: e for e in exits if e["edge"] in v["edges"]}
                n = 0
                for div in sorted(self.game.divisions):
                    members = self.game.scenario.division_units(div)
                    if not members or self.side_of(members[0]) != v["side"]:
                        continue
                    if all(m in out and (out[m]["intact"] or not v.get("intact")) for m in members):
                        n += 1
                score[v["scorer"]] += n * v["points"]
                lines.append((v["scorer"], f"{v['side']} divisions exited x{n}", n * v["points"]))
            elif kind == "other_cities":
                n = sum(1 for h, info in board.hexes.items() if info.terrain == "city" and h not in counted_hexes
                        and self.control.get(h) == v["scorer"])
                score[v["scorer"]] += n * v["points"]
                lines.append((v["scorer"], f"other cities x{n}", n * v["points"]))
            elif kind == "on_map":
                n = sum(1 for u, us in self.units.items() if us.status == "on_map" and self.side_of(u) == v["side"])
                score[v["scorer"]] += n * v["points"]
                lines.append((v["scorer"], f"{v['side']} units on the map x{n}", n * v["points"]))
            elif kind == "none_left":
                n = sum(1 for u, us in self.units.items() if us.status == "on_map" and self.side_of(u) == v["side"])
                if n == 0:
                    score[v["scorer"]] += v["points"]
                    lines.append((v["scorer"], f"no {v['side']} unit left", v["points"]))
        return {"allied": score["allied"], "axis": score["axis"], "lines": lines}

    # combat -----------------------------------------------------------------------------
    def _combat_refusal_common(self, target_id: str) -> tuple[str, Hex]:
        p = self.rule_prefix
        if not self.phase.is_combat:
            raise IllegalAction("attacks happen in the combat phase", f"{p} 3.0")
        side = self.phase.side
        target = self._hex_arg(target_id, "target")
        defenders = self.units_at(target)
        if not defenders or all(self.side_of(u) == side for u in defenders):
            raise IllegalAction(f"no enemy unit in {target.id}", f"{p} 5.0")
        if (side, target) in self.attacked_hexes:
            # CN 6.0 observations; OD 8.0 observations (the same sentence sits elsewhere)
            raise IllegalAction(f"{target.id} was already attacked this turn", "OD 8.0" if p == "OD" else f"{p} 6.0")
        return side, target

    def _check_air(self, side: str, air: int, rule_min: bool) -> None:
        p = self.rule_prefix
        tables_air = self.game.tables.air
        if air < 0:
            raise IllegalAction("air points cannot be negative", f"{p} 6.1")
        if air == 0:
            return
        if self.turn in tables_air.no_air_turns:
            raise IllegalAction(f"no air power on turn {self.turn}", f"{p} 6.0")
        if air > self.air_points.get(side, 0):
            raise IllegalAction(f"only {self.air_points.get(side, 0)} air points left this turn", f"{p} 6.1")
        if air > tables_air.strike_max:
            raise IllegalAction(f"at most {tables_air.strike_max} air points per combat", "OD 6.2" if p == "OD" else f"{p} 6.0")
        if rule_min and air < tables_air.strike_min:
            raise IllegalAction(f"an air strike needs at least {tables_air.strike_min} points", "OD 6.2" if p == "OD" else f"{p} 6.0")

    def _check_artillery(self, side: str, target: Hex, artillery: tuple[str, ...],
                         attackers: tuple[str, ...] = ()) -> None:
        p = self.rule_prefix
        in_range = set(self.artillery_in_range(side, target))
        if len(set(artillery)) != len(artillery):
            raise IllegalAction("an artillery unit is listed twice", f"{p} 8.0")
        for uid in artillery:
            if uid not in self.units:
                raise IllegalAction(f"no unit {uid!r}", p)
            if uid not in in_range:
                raise IllegalAction(f"{self.game.units[uid].name} is not artillery in range or was already used this phase", f"{p} 8.0")
        if artillery and any(self.units[u].in_maquis for u in attackers):
            # OD 10.0: units forced into a maquis area get no artillery support of any kind
            # (in defence: _do_declare_defence)
            raise IllegalAction("units forced into a maquis area get no artillery support", "OD 10.0")

    def preview_attack(self, target: str, attackers: tuple[str, ...], artillery: tuple[str, ...] = (), air: int = 0,
                       defence_air: int = 0, defence_artillery: tuple[str, ...] = ()) -> Assessment:
        """What an attack would be resolved at (no dice, no change)."""
        return assess_attack(self, Hex.from_id(target), tuple(attackers), tuple(artillery), air,
                             defence_air, tuple(defence_artillery))

    def _do_attack(self, a: Attack) -> None:
        p = self.rule_prefix
        side, target = self._combat_refusal_common(a.target)
        if not a.attackers:
            raise IllegalAction("an attack needs attacking units (artillery alone bombards)", f"{p} 8.0")
        if len(set(a.attackers)) != len(a.attackers):
            raise IllegalAction("a unit is listed twice", f"{p} 5.1")
        eligible = set(self.eligible_attackers(side, target, one_armour=False))
        for uid in a.attackers:
            if uid not in self.units:
                raise IllegalAction(f"no unit {uid!r}", p)
            if uid not in eligible:
                us = self.units[uid]
                if us.attacked:
                    raise IllegalAction(f"{self.game.units[uid].name} already attacked this phase", f"{p} 5.0")
                ut = self.unit_type(uid)
                if self.game.board.hexes[target].terrain in ut.no_attack_into:
                    raise IllegalAction("armoured units cannot attack into mountains", f"{p} 5.1.2")
                raise IllegalAction(f"{self.game.units[uid].name} is not adjacent to {target.id}", f"{p} 5.0")
        if self.game.board.hexes[target].terrain in (self.game.rule("one_armour_terrain") or []):
            if sum(1 for u in a.attackers if self.unit_type(u).armoured) > 1:
                raise IllegalAction("only one armoured unit may attack a bocage hex", f"{p} 5.1.2")
        self._check_artillery(side, target, a.artillery, a.attackers)
        if set(a.artillery) & set(a.attackers):
            raise IllegalAction("a unit cannot both attack and fire as artillery", f"{p} 8.0")
        self._check_air(side, a.air, rule_min=False)
        if (a.air or a.artillery) and not self._guerrilla_supported(a.attackers):
            # OD 10.0: guerrillas get no air or artillery support unless stacked with other
            # Allied units (an attack with an unstacked guerrilla gets none at all).
            raise IllegalAction("guerrillas get no air or artillery support unless stacked with other Allied units", "OD 10.0")
        defenders = self.units_at(target)
        combat = Combat(kind="attack", side=side, target=target, attackers=list(a.attackers),
                        artillery=list(a.artillery), air=a.air, defenders=defenders)
        for uid in a.attackers:
            self.units[uid].attacked = True
        for uid in a.artillery:
            self.units[uid].fired = True
        self.air_points[side] = self.air_points.get(side, 0) - a.air
        self.attacked_hexes.add((side, target))
        self.combat = combat
        dside = self.other(side)
        defence_arty = self.artillery_in_range(dside, target)
        can_air = self.air_points.get(dside, 0) > 0 and self.turn not in self.game.tables.air.no_air_turns
        if not self._guerrilla_supported(tuple(defenders)):
            defence_arty, can_air = [], False  # OD 10.0: lone guerrillas defend unsupported
        if can_air or defence_arty:
            options = [DeclareDefence(0, ())]
            if defence_arty:
                options.append(DeclareDefence(0, tuple(defence_arty)))
            if can_air:
                top = min(self.air_points[dside], self.game.tables.air.strike_max)
                options.append(DeclareDefence(top, tuple(defence_arty)))
            self.pending = Decision("defence", dside, f"declare the defence of {target.id}", f"{p} 5.1.1",
                                    tuple(options))
            return
        self._roll_attack()

    def _guerrilla_supported(self, units: tuple[str, ...]) -> bool:
        """OD 10.0: every guerrilla among ``units`` shares its hex with a non-guerrilla ally."""
        for uid in units:
            if self.unit_type(uid).guerrilla and self.units[uid].status == "on_map":
                mates = [u for u in self.units_at(self.units[uid].hex) if u != uid and not self.unit_type(u).guerrilla]
                if not mates:
                    return False
        return True

    def _do_declare_defence(self, a: DeclareDefence) -> None:
        p = self.rule_prefix
        c = self.combat
        dside = self.other(c.side)
        self._check_air(dside, a.air, rule_min=False)
        in_range = set(self.artillery_in_range(dside, c.target))
        for uid in a.artillery:
            if uid not in in_range:
                raise IllegalAction(f"{uid} is not artillery in range or was already used this phase", f"{p} 8.0")
        if any(self.units[u].in_maquis for u in c.defenders) and a.artillery:
            raise IllegalAction("units forced into a maquis area get no artillery support", "OD 10.0")
        if (a.air or a.artillery) and not self._guerrilla_supported(tuple(c.defenders)):
            raise IllegalAction("guerrillas get no air or artillery support unless stacked with other Allied units", "OD 10.0")
        self.pending = None
        c.defence_air = a.air
        c.defence_artillery = list(a.artillery)
        self.air_points[dside] = self.air_points.get(dside, 0) - a.air
        for uid in a.artillery:
            self.units[uid].fired = True
        self._emit("defence", f"{p} 5.1.1", target=c.target.id, air=a.air,
                   artillery=", ".join(self.game.units[u].name for u in a.artillery) or "none")
        self._roll_attack()

    def _roll_attack(self) -> None:
        p = self.rule_prefix
        c = self.combat
        assessment = assess_attack(self, c.target, tuple(c.attackers), tuple(c.artillery), c.air,
                                   c.defence_air, tuple(c.defence_artillery))
        c.assessment = assessment
        shifts = "".join(f"; {s.reason} {s.columns:+d}" for s in assessment.shifts)
        self._emit("attack", f"{p} 5.1", target=c.target.id, attack=assessment.attack, defence=assessment.defence,
                   ratio=assessment.ratio, column=assessment.column_label, shifts=shifts,
                   assessment={"ratio": assessment.ratio, "column": assessment.column_label,
                               "shifts": [s.to_dict() for s in assessment.shifts]})
        d1, d2 = self.dice.two_d6()
        result = self.game.tables.crt_result(assessment.column, d1 + d2)
        c.result = result
        self._emit("roll", f"{p} 5.1.5", dice=f"{d1}+{d2}", total=d1 + d2, result=result)
        d_code, a_code = split_result(result)
        steps: list[tuple] = []
        if d_code == "EMP":
            steps = [("emp_defender",), ("emp_attacker",), ("retreat", "defender", True)]
        elif d_code == "IMP":
            steps = []
        else:
            if d_code == "DE":
                steps.append(("loss", "defender", True))
            elif d_code in ("DRB", "DVB"):
                steps.append(("loss", "defender", False))
            if a_code == "AE":
                steps.append(("loss", "attacker", True))
            elif a_code in ("AVB", "ARB"):
                steps.append(("loss", "attacker", False))
            if d_code in ("DE", "DRB", "DRI"):
                steps.append(("retreat", "defender", d_code == "DE"))
                c.attacker_won = True
            if a_code in ("ARI", "ARB", "AE") or d_code in ("DVB", "DVI"):
                steps.append(("retreat", "attacker", False))
            if c.attacker_won:
                steps.append(("advance",))
        c.steps = steps
        self._run_combat()

    def _do_bombard(self, a: Bombard) -> None:
        p = self.rule_prefix
        side, target = self._combat_refusal_common(a.target)
        refusal = self._bombard_refusal(target, a.artillery, a.air)
        if refusal:
            raise refusal
        self._check_artillery(side, target, a.artillery)
        for uid in a.artillery:
            self.units[uid].fired = True
        self.air_points[side] = self.air_points.get(side, 0) - a.air
        self.attacked_hexes.add((side, target))
        ba = assess_bombardment(self, target, tuple(a.artillery), a.air)
        rule = f"{p} 6.2" if a.air else f"{p} 8.0"
        self.combat = Combat(kind="bombard", side=side, target=target, attackers=[], artillery=list(a.artillery),
                             air=a.air, defenders=self.units_at(target), assessment=ba)
        if ba.column is None:
            self._emit("bombard_none", rule, target=target.id, value=ba.value)
            self.combat = None
            return
        self._emit("bombard", rule, target=target.id, value=ba.value, column=ba.column_label)
        d1, d2 = self.dice.two_d6()
        result = self.game.tables.bombardment_result(ba.column, d1 + d2)
        self.combat.result = result
        self._emit("roll", rule, dice=f"{d1}+{d2}", total=d1 + d2, result=result)
        if result == "DB":
            self.combat.steps = [("loss", "defender", False)]
        elif result == "DE":
            self.combat.steps = [("loss", "defender", True)]
        self._run_combat()

    def _bombard_refusal(self, target: Hex, artillery: tuple[str, ...], air: int) -> IllegalAction | None:
        p = self.rule_prefix
        side = self.phase.side
        if bool(artillery) == bool(air):
            if artillery and air:
                return IllegalAction("artillery-only attacks get no air support", f"{p} 8.0")
            return IllegalAction("a bombardment needs artillery or air points", f"{p} 6.2")
        if air:
            try:
                self._check_air(side, air, rule_min=True)
            except IllegalAction as exc:
                return exc
        if artillery and self.mulberry_penalty() >= 2 and side == "allied":
            return IllegalAction("without Mulberries the Allies make no artillery-only attacks", "CN 9.0")
        return None

    def _do_carpet(self, a: CarpetBomb) -> None:
        """CN 6.3: before Allied movement, two non-consecutive turns from turn 8: roll on the
        carpet bombing table for the hex and each of its six neighbours."""
        p = self.rule_prefix
        center = self._hex_arg(a.center, "carpet bombing hex")
        if center not in self.carpet_targets():
            rule = self.game.rule("carpet_bombing")
            if not rule:
                raise IllegalAction("this game has no carpet bombing", p)
            raise IllegalAction(
                f"carpet bombing: before any Allied move, from turn {rule['from_turn']}, at most "
                f"{rule['uses']} times on non-consecutive turns, not already used this turn", f"{p} 6.3")
        self.carpet_turns.append(self.turn)
        for h in (center, *self.game.board.neighbours(center)):
            victims = self.units_at(h)
            if not victims:
                continue
            d1, d2 = self.dice.two_d6()
            result = self.game.tables.carpet_result(d1 + d2)
            self._emit("carpet", f"{p} 6.3", hex=h.id, total=d1 + d2, result=result)
            if result == "DB":
                self._take_loss(self._weakest(victims), f"{p} 6.3")
            elif result == "DE":
                self._eliminate(self._weakest(victims), " (carpet bombing)", f"{p} 6.3")
            elif result == "DA":
                for uid in victims:
                    self._eliminate(uid, " (carpet bombing)", f"{p} 6.3")

    def carpet_targets(self) -> list[Hex]:
        rule = self.game.rule("carpet_bombing")
        if not rule or self.phase is not Phase.ALLIED_MOVEMENT or self.pending is not None \
                or bfn.enabled(self.game, "bfn-19.3"):  # BFN 19.3 replaces CN 6.3
            return []
        if self.turn < rule["from_turn"] or len(self.carpet_turns) >= rule["uses"]:
            return []
        if self.carpet_turns and self.turn - self.carpet_turns[-1] <= 1:
            return []
        if any(us.moved for uid, us in self.units.items() if self.side_of(uid) == "allied"):
            return []
        # CN 6.3: the Allied player names any hex; the centre need not hold a German unit, so
        # every land hex with a German unit on it or next to it (docs/rules-notes.md)
        board = self.game.board
        axis = self.occupied_by("axis")
        return sorted({h for a in axis for h in (a, *board.neighbours(a)) if board.is_land(h)})

    def _weakest(self, uids: list[str]) -> str:
        """The owner's automatic pick for a loss: the unit worth least (docs/rules-notes.md)."""
        return min(uids, key=lambda u: (self.attack_of(u) + self.defence_of(u), u))

    # combat resolution steps --------------------------------------------------------------
    def _combat_units(self, role: str) -> list[str]:
        c = self.combat
        if role == "defender":
            return [u for u in c.defenders if self.units[u].status == "on_map" and self.units[u].hex == c.target]
        ground = [u for u in c.attackers if self.units[u].status in ("on_map", "at_sea")]
        return ground

    def _run_combat(self) -> None:
        p = self.rule_prefix
        c = self.combat
        while c is not None and self.pending is None:
            if not c.steps and not c.retreat_queue:
                self._finish_combat()
                return
            if c.retreat_queue:
                uid = c.retreat_queue[0]
                if self.units[uid].status not in ("on_map", "at_sea"):
                    c.retreat_queue.pop(0)
                    continue
                options = self.retreat_options(uid)
                if not options:
                    c.retreat_queue.pop(0)
                    self._eliminate(uid, " (no retreat possible)", f"{p} 5.3")
                    continue
                if len(options) == 1:
                    c.retreat_queue.pop(0)
                    self._apply_retreat(options[0])
                    continue
                self.pending = Decision("retreat", self.side_of(uid), f"retreat {self.game.units[uid].name}",
                                        f"{p} 5.3", tuple(options), unit=uid)
                return
            step = c.steps.pop(0)
            kind = step[0]
            if kind == "loss":
                role, eliminate = step[1], step[2]
                candidates = self._loss_candidates(role)
                if not candidates:
                    continue
                side = c.side if role == "attacker" else self.other(c.side)
                if len(candidates) == 1:
                    self._apply_loss(candidates[0], eliminate)
                    continue
                what = "is eliminated" if eliminate else "takes the loss"
                self.pending = Decision("loss", side, f"choose which unit {what}", f"{p} 5.1.6",
                                        tuple(ChooseLoss(u) for u in candidates))
                self.flags["loss_eliminates"] = eliminate
                return
            if kind == "retreat":
                role, forced = step[1], step[2]
                units = self._combat_units(role)
                if role == "attacker":
                    units = [u for u in units if self.units[u].status == "on_map"]
                c.retreat_side = role
                self.flags["retreat_forced"] = forced
                c.retreat_queue = list(units)
                continue
            if kind == "emp_defender":
                defenders = self._combat_units("defender")
                if not defenders:
                    continue
                options = [EmpEliminate(tuple(combo)) for r in range(1, len(defenders) + 1)
                           for combo in itertools.combinations(defenders, r)]
                if len(options) == 1:
                    self._apply_emp(options[0], "defender")
                    continue
                self.pending = Decision("emp_defender", self.other(c.side), "EMP: eliminate one or more defending units",
                                        f"{p} 5.1.6", tuple(options))
                return
            if kind == "emp_attacker":
                options = self._emp_attacker_options()
                if len(options) <= 1:
                    if options:
                        self._apply_emp(options[0], "attacker")
                    continue
                self.pending = Decision("emp_attacker", c.side,
                                        f"EMP: eliminate attacking units worth at least {c.emp_value} attack points",
                                        f"{p} 5.1.6", tuple(options))
                return
            if kind == "advance":
                options = self.advance_options()
                if not options:
                    continue
                c.steps.insert(0, ("advance",))
                self.pending = Decision("advance", c.side, f"advance into {c.target.id}?", f"{p} 5.2",
                                        tuple(options) + (EndAdvance(),))
                return

    def _loss_candidates(self, role: str) -> list[str]:
        c = self.combat
        if role == "defender":
            return self._combat_units("defender")
        units = [u for u in self._combat_units("attacker")]
        if not units:
            units = [u for u in c.artillery if self.units[u].status == "on_map"]
        armoured = [u for u in units if self.unit_type(u).armoured]
        if armoured and self.game.rule("one_armour_terrain"):
            # CN 5.1.2: losses of an attack on bocage, or of armour attacking armour or
            # anti-aircraft artillery, fall on an armoured unit.
            bocage = self.game.board.hexes[c.target].terrain in self.game.rule("one_armour_terrain")
            anti_tank = any(self.unit_type(u).anti_tank for u in c.defenders)
            if bocage or anti_tank:
                return armoured
        return units

    def _answer(self, action: Action) -> None:
        d = self.pending
        c = self.combat
        if d.kind == "defence":
            assert isinstance(action, DeclareDefence)
            self._do_declare_defence(action)
            return
        self.pending = None
        if d.kind == "loss":
            self._apply_loss(action.unit, bool(self.flags.pop("loss_eliminates", False)))
        elif d.kind == "retreat":
            c.retreat_queue.pop(0)
            self._apply_retreat(action)
        elif d.kind in ("emp_defender", "emp_attacker"):
            self._apply_emp(action, "defender" if d.kind == "emp_defender" else "attacker")
        elif d.kind == "advance":
            if isinstance(action, EndAdvance):
                c.steps = [s for s in c.steps if s[0] != "advance"]
            else:
                self._apply_advance(action)
        self._run_combat()

    def _apply_loss(self, uid: str, eliminate: bool) -> None:
        rule = f"{self.rule_prefix} 5.1.6"
        if self.combat is not None:
            self.combat.lost.add(uid)
        if eliminate:
            self._eliminate(uid, "", rule)
        else:
            self._take_loss(uid, rule)

    def _take_loss(self, uid: str, rule: str) -> None:
        """CN/OD 7.0: a first loss flips the counter; a second eliminates it."""
        us = self.units[uid]
        if us.reduced:
            self._eliminate(uid, " (second loss)", rule)
        else:
            us.reduced = True
            self._emit("loss", rule, unit=self.game.units[uid].name)

    def _eliminate(self, uid: str, why: str, rule: str) -> None:
        us = self.units[uid]
        us.status = "eliminated"
        us.hex = None
        self._emit("eliminated", rule, unit=self.game.units[uid].name, why=why)

    def _apply_emp(self, action: EmpEliminate, role: str) -> None:
        """EMP (5.1.6): the defender's eliminated defence sets what the attacker must lose."""
        c = self.combat
        rule = f"{self.rule_prefix} 5.1.6"
        if role == "defender":
            c.emp_value = sum(self.defence_of(u) for u in action.units)
        for u in action.units:
            self._eliminate(u, " (EMP)", rule)

    def _emp_attacker_options(self) -> list[EmpEliminate]:
        """EMP: attacking units whose attack adds up to at least the defence eliminated; all of
        them if they cannot reach it. Minimal sets only (no unit could be spared)."""
        c = self.combat
        units = [u for u in c.attackers + c.artillery if self.units[u].status in ("on_map", "at_sea")]
        need = c.emp_value
        if sum(self.attack_of(u) for u in units) <= need:
            return [EmpEliminate(tuple(units))] if units else []
        options = []
        for r in range(1, len(units) + 1):
            for combo in itertools.combinations(units, r):
                total = sum(self.attack_of(u) for u in combo)
                if total >= need and all(total - self.attack_of(u) < need for u in combo):
                    options.append(EmpEliminate(tuple(combo)))
            if len(options) > 200:
                break
        return options

    def retreat_options(self, uid: str) -> list[Retreat]:
        """CN/OD 5.3: one hex, never into enemy units or an enemy zone of engagement; under
        encirclement (5.3.3) a second hex; off a permitted edge (4.2.2); staying where a rule
        allows it (CN 5.1.2 Caen, OD 5.3 Toulon and Marseille)."""
        us = self.units[uid]
        side = self.side_of(uid)
        board = self.game.board
        if us.status == "at_sea":
            return []  # a landing unit that must fall back cannot land: destroyed (CN 11.1.1)
        h = us.hex
        options: list[Retreat] = []
        if self._may_stay(uid, h):
            options.append(Retreat(uid, ()))
        if self.game.units[uid].movement == 0:
            return options  # CN 5.3: movement-0 units are eliminated on DRI/DRB
        enemy = self.other(side)
        occupied = self.occupied_by(enemy)
        zoc = self.zoc_of(enemy)
        _, mclass = self.movement_of(uid)
        steps = self.game.steps.for_class(mclass)

        def passable(a: Hex, b: Hex) -> bool:
            return any(n == b for n, _ in steps.get(a, ())) and b not in occupied

        for n in board.neighbours(h):
            if passable(h, n) and n not in zoc and self._room_or_chain(n, side, uid):
                options.append(Retreat(uid, (n.id,)))
        for edge in board.edge_of.get(h, ()):
            if edge in self.allowed_edges(side):
                options.append(Retreat(uid, (), edge))
        if any(o.path or o.edge for o in options):
            return options
        for n1 in board.neighbours(h):
            if not passable(h, n1):
                continue
            for n2 in board.neighbours(n1):
                if n2 != h and passable(n1, n2) and n2 not in zoc and self._room_or_chain(n2, side, uid):
                    options.append(Retreat(uid, (n1.id, n2.id)))
        return options

    def _room_or_chain(self, h: Hex, side: str, uid: str) -> bool:
        if self.stack_room(h, side, uid) > 0:
            return True
        return self._chain_hex(h, side) is not None

    def _chain_hex(self, h: Hex, side: str) -> tuple[str, Hex] | None:
        """CN/OD 5.3.1 chain retreat: one piece of a full stack moves on to a legal hex."""
        enemy = self.other(side)
        zoc = self.zoc_of(enemy)
        occupied = self.occupied_by(enemy)
        for u in sorted(self.units_at(h)):
            _, mclass = self.movement_of(u)
            for n, _ in self.game.steps.for_class(mclass).get(h, ()):
                if n not in zoc and n not in occupied and self.stack_room(n, side) > 0:
                    return u, n
        return None

    def _may_stay(self, uid: str, h: Hex) -> bool:
        """CN 5.1.2 (Germans in Caen), OD 5.3 (Germans in Toulon and Marseille): defenders
        need not retreat on DRI or DRB. DE always forces the retreat ("em quaisquer
        circunstâncias", 5.1.6). CN 5.1.2's second clause: Germans in one Caen hex need not
        retreat at all (so not on EMP either) when the turn began with the Allies in the other
        Caen hex (rule option ``other_hex_held``; docs/rules-notes.md)."""
        c = self.combat
        if c is None or uid not in c.defenders or not c.result:
            return False
        code = split_result(c.result)[0]
        if code not in ("DRI", "DRB", "EMP"):
            return False
        enemy_at_start = set(self.flags.get("no_retreat_enemy_at_start", ()))
        for rule in self.game.rule("no_retreat", []) or []:
            hexes = self.game.board.places.get(rule["place"], ())
            if self.side_of(uid) != rule["side"] or h not in hexes:
                continue
            if code in ("DRI", "DRB"):
                return True
            if rule.get("other_hex_held") and any(o.id in enemy_at_start for o in hexes if o != h):
                return True
        return False

    def _apply_retreat(self, a: Retreat) -> None:
        p = self.rule_prefix
        uid = a.unit
        us = self.units[uid]
        side = self.side_of(uid)
        name = self.game.units[uid].name
        if a.edge:
            self._leave_board(uid, a.edge)
            return
        if not a.path:
            self._emit("stays", f"{p} 5.3", unit=name, hex=us.hex.id)
            return
        hexes = [Hex.from_id(x) for x in a.path]
        start = us.hex
        prev = start
        for i, h in enumerate(hexes):
            if self.stack_room(h, side, uid) <= 0:
                chain = self._chain_hex(h, side)
                if chain:
                    mover, dest = chain
                    self.units[mover].hex = dest
                    self._emit("retreat", f"{p} 5.3.1", unit=self.game.units[mover].name, frm=h.id, to=dest.id)
            river = self.game.board.river_between(prev, h)
            us.hex = h
            self._emit("retreat", f"{p} 5.3", unit=name, frm=prev.id, to=h.id)
            if river and self.unit_type(uid).river_retreat_loss:
                self._take_loss(uid, f"{p} 5.3.2")  # armour retreating across a river
                if us.status != "on_map":
                    return
            if i == 1:
                sheltered = any(self.side_of(u) == side for u in self.units_at(prev) if u != uid)
                if not sheltered:
                    self._take_loss(uid, f"{p} 5.3.3")  # second move under encirclement
                    if us.status != "on_map":
                        return
            prev = h
        self._take_control(us.hex, side)
        maquis = self.game.rule("maquis_areas")
        if maquis and self.game.board.hexes[us.hex].maquis and side in maquis.get("closed_to", ["axis"]):
            us.in_maquis = True  # OD 10.0

    def advance_options(self) -> list[Advance]:
        """CN/OD 5.2: into the vacated hex; armour, mechanized cavalry, motorized infantry and
        assault guns a second hex when the first is open, the second open/village/city, with
        no river (or fortification, CN) between; enemy zones ignored."""
        c = self.combat
        if c is None or not c.attacker_won:
            return []
        board = self.game.board
        target = c.target
        if any(self.side_of(u) != c.side for u in self.units_at(target)):
            return []
        rules = self.game.rule("advance", {}) or {}
        first_ok = set(rules.get("first_terrain", ["open"]))
        second_ok = set(rules.get("second_terrain", ["open", "city"]))
        out = []
        enemy = self.occupied_by(self.other(c.side))
        for uid in c.attackers:
            us = self.units[uid]
            if uid in c.advanced or us.status not in ("on_map", "at_sea"):
                continue
            if us.status == "on_map" and target not in board.neighbours(us.hex):
                continue
            ut = self.unit_type(uid)
            if ut.advance < 1:
                continue
            _, mclass = self.movement_of(uid)
            steps = dict(self.game.steps.for_class(mclass).get(us.hex, ())) if us.status == "on_map" else {target: 0}
            if target not in steps and us.status == "on_map":
                continue
            if self.stack_room(target, c.side, uid) <= 0:
                continue
            out.append(Advance(uid, (target.id,)))
            info = board.hexes[target]
            if ut.advance >= 2 and info.terrain in first_ok and not info.fortification and not info.village:
                nsteps = dict(self.game.steps.for_class(mclass).get(target, ()))
                for n in board.neighbours(target):
                    ninfo = board.hexes[n]
                    if n not in nsteps or n in enemy:
                        continue
                    if not (ninfo.terrain in second_ok or (ninfo.village and "village" in second_ok)):
                        continue
                    if board.river_between(target, n) and not (rules.get("bridges") and board.road_between(target, n)):
                        continue
                    if ninfo.fortification and rules.get("no_fortification", True):
                        continue
                    if self.stack_room(n, c.side, uid) <= 0:
                        continue
                    out.append(Advance(uid, (target.id, n.id)))
        return out

    def _apply_advance(self, a: Advance) -> None:
        p = self.rule_prefix
        c = self.combat
        if a not in self.advance_options():
            raise IllegalAction("not a legal advance", f"{p} 5.2")
        us = self.units[a.unit]
        for hid in a.path:
            h = Hex.from_id(hid)
            us.hex = h
            self._take_control(h, c.side)
        if us.status == "at_sea":
            us.status = "on_map"
            self._emit("landing", self.landing_rule, unit=self.game.units[a.unit].name, hex=us.hex.id)
        c.advanced.add(a.unit)
        self._emit("advance", f"{p} 5.2", unit=self.game.units[a.unit].name, to=us.hex.id)

    def _finish_combat(self) -> None:
        c = self.combat
        self.combat = None
        self.flags.pop("retreat_forced", None)
        if c is not None and c.kind == "attack":
            # Landing units whose hex was cleared come ashore (CN 11.1.1).
            for uid in c.attackers:
                us = self.units[uid]
                if us.status == "at_sea" and not any(self.side_of(u) != c.side for u in self.units_at(us.hex)):
                    self._land(uid)

    # ------------------------------------------------------------------ events and copies
    def _emit(self, kind: str, rule: str, **data: Any) -> None:
        self.events.append(Event(kind, t(kind, **data), rule, data))

    _MUTABLE = ("turn", "phase", "units", "air_points", "attacked_hexes", "control", "must_attack", "carpet_turns",
                "combat", "pending", "flags")

    def _snapshot(self) -> dict[str, Any]:
        snap = {k: copy.deepcopy(getattr(self, k)) for k in self._MUTABLE}
        snap["_events"] = len(self.events)
        snap["_rng"] = self.dice._rng.getstate()
        snap["_sides"] = len(self.dice.sides_log)
        snap["_forced"] = list(getattr(self.dice, "_forced", ()))
        return snap

    def _restore(self, snap: dict[str, Any]) -> None:
        for k in self._MUTABLE:
            setattr(self, k, snap[k])
        del self.events[snap["_events"]:]
        self.dice._rng.setstate(snap["_rng"])
        del self.dice.sides_log[snap["_sides"]:]
        if hasattr(self.dice, "_forced"):
            self.dice._forced = snap["_forced"]

    def clone(self) -> State:
        other = State.__new__(State)
        other.game = self.game
        other.seed = self.seed
        other.dice = self.dice.copy() if type(self.dice) is Dice else copy.deepcopy(self.dice)
        for k in self._MUTABLE:
            setattr(other, k, copy.deepcopy(getattr(self, k)))
        other.log = list(self.log)
        other.events = list(self.events)
        other._cache = {}
        other._applying = False
        return other

    def fingerprint(self) -> dict[str, Any]:
        """A plain-JSON summary of the position, compared after replaying a save."""
        return {
            "turn": self.turn,
            "phase": self.phase.value,
            "units": {u: [us.status, us.hex.id if us.hex else None, us.reduced] for u, us in sorted(self.units.items())},
            "air_points": dict(self.air_points),
            "dice_draws": self.dice.draws,
            "pending": self.pending.kind if self.pending else None,
        }
