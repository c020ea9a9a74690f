"""Battle for Normandy §19 variants as they act on a game: the engine's hooks.

Rules: BFN 19.1 (battleship withdrawal), 19.2 (airborne withdrawal), 19.3 (carpet bombing),
19.4 (Mulberry construction), 19.5 (Commandos and Rangers), 19.6 (Hobart's funnies and DD
tanks), 19.7 (assault engineers), 19.8 (Pegasus Bridge); CN 9.0 kept for the Mulberries'
loss. The registry, calendar and dice procedures are in ``variants.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any

from wargame.errors import (
    CombatRefused,
    MalformedAction,
    MovementRefused,
    SupportRefused,
    WrongPhase,
    refuse,
)
from wargame.event_text import bfn_text, campaign_text
from wargame.hexgrid import Hex
from wargame.operational.actions import Action, IllegalAction
from wargame.operational.combat import Shift
from wargame.operational.hooks import RuleHooks
from wargame.operational.state_types import Event, Phase
from wargame.operational.variants import (
    AIRBORNE,
    BEACHES,
    BRITISH_SECTOR_FROM_COLUMN,
    CARPET_AIR_COST,
    CARPET_FROM_TURN,
    CARPET_HEXES,
    CARPET_USES,
    DATA,
    DD_VALUES,
    INFANTRY_TYPES,
    MULBERRY_FIRST_DAY,
    MULBERRY_TARGET,
    PEGASUS_UNIT,
    STORM_TURN,
    WITHDRAWAL_FIRST,
    CarpetBombArea,
    _connected,
    carpet_area_around,
    day_of,
    days_to_roll,
    dd_landing,
    effective_turn,
    enabled,
    friendly_fire_pinned,
    mulberry_harbours,
    mulberry_progress,
    pegasus_landing,
    storm_damage,
    withdrawal_check,
)

if TYPE_CHECKING:  # pragma: no cover
    from wargame.operational.state import Game
    from wargame.operational.state_protocol import CampaignSelf


# ------------------------------------------------------------------------------ engine hooks
def _flags(state: CampaignSelf) -> dict[str, Any]:
    return state.flags.setdefault("bfn", {})


def _emit(state: CampaignSelf, kind: str, rule: str, msg: str, **data: Any) -> None:
    """An event of template ``msg`` (``wargame.event_text.BFN_EVENTS``): its English text
    made from ``data``, which keeps ``msg`` so that it can be said in another language."""
    data = {"msg": msg, **data}
    state.events.append(Event(kind, bfn_text(data), rule, data))


def _mulberry_cancel(state: CampaignSelf, f: dict) -> None:
    """CN 9.0 kept, read as the campaign reads it (docs/rules-notes.md): a harbour is lost when
    German units are back on its landing hex after turn 0, once the Allies had taken it;
    Germans who never left only delay it (no progress while the hex is not Allied)."""
    mul = f.setdefault("mulberry", {})
    for m in mulberry_harbours(state):
        h = mul.setdefault(m["name"], {"progress": 0, "status": "planned"})
        landing = Hex.from_id(m["landing"])
        if state.control.get(landing) == "allied":
            h["taken"] = True
        if h["status"] == "cancelled" or state.turn <= state.game.scenario.first_turn:
            continue
        if not (h.get("taken") or h.get("progress", 0) > 0):
            continue
        if any(state.side_of(u) == "axis" for u in state.units_at(landing)):
            h["status"] = "cancelled"
            _emit(state, "mulberry", "CN 9.0", "mulberry_cancelled", name=m["name"], status="cancelled")


def _dd_rolls(state: CampaignSelf, f: dict) -> None:
    """BFN 19.6.2: one DD landing roll per beach with turn-0 landings and a DD value."""
    if "dd" in f:
        return
    dd = f.setdefault("dd", {})
    beach_hexes = {b: set(state.game.board.places.get(b, ())) for b in DD_VALUES}
    for beach in DD_VALUES:
        landing = any(state.side_of(u) == "allied" and h in beach_hexes[beach] for u, h in state.game.scenario.setup)
        if not landing:
            continue
        ok, die = dd_landing(beach, state.dice)
        dd[beach] = ok
        _emit(state, "bfn", "BFN 19.6.2", "dd", beach=beach, die=die, ok=ok, value=DD_VALUES[beach])


def _beach_of(state: CampaignSelf, uid: str) -> str | None:
    us = state.units[uid]
    if us.hex is None:
        return None
    for b in BEACHES:
        if us.hex in state.game.board.places.get(b, ()):
            return b
    return None


# --- BFN 19.3 carpet bombing ----------------------------------------------------------------
def carpet_refusal(state: CampaignSelf, targets: tuple[str, ...]) -> IllegalAction | None:
    r = "BFN 19.3"
    if not enabled(state.game, "bfn-19.3"):
        return refuse(CombatRefused, "campaign.carpet.bfn_off", r)
    if state.pending is not None or state.phase is not Phase.ALLIED_MOVEMENT:
        return refuse(WrongPhase, "campaign.carpet.bfn_phase", "BFN 19.3.1")
    f = _flags(state)
    used = f.get("carpet_turns", [])
    if state.turn < CARPET_FROM_TURN:
        return refuse(CombatRefused, "campaign.carpet.bfn_from", "BFN 19.3.1", turn=CARPET_FROM_TURN)
    if len(used) >= CARPET_USES or state.turn in used:
        return refuse(CombatRefused, "campaign.carpet.bfn_uses", "BFN 19.3.1", uses=CARPET_USES)
    if any(us.moved for u, us in state.units.items() if state.side_of(u) == "allied"):
        return refuse(CombatRefused, "campaign.carpet.bfn_before_moves", "BFN 19.3.3")
    if state.air_points.get("allied", 0) < CARPET_AIR_COST:
        return refuse(SupportRefused, "campaign.carpet.bfn_cost", "BFN 19.3.2",
                      points=CARPET_AIR_COST)
    try:
        hexes = [Hex.from_id(t) for t in targets]
    except (ValueError, TypeError):
        return refuse(MalformedAction, "action.not_hex_ids", r, targets=repr(targets))
    if len(hexes) != CARPET_HEXES or len(set(hexes)) != CARPET_HEXES:
        return refuse(CombatRefused, "campaign.carpet.bfn_count", "BFN 19.3.3", count=CARPET_HEXES)
    board = state.game.board
    if not all(h in board.hexes and board.is_land(h) for h in hexes):
        return refuse(CombatRefused, "campaign.carpet.bfn_land", "BFN 19.3.3")
    if not _connected(board, set(hexes)):
        return refuse(CombatRefused, "campaign.carpet.bfn_contiguous", "BFN 19.3.3")
    return None


def _do_carpet_area(state: CampaignSelf, a: CarpetBombArea) -> None:
    refusal = carpet_refusal(state, a.targets)
    if refusal:
        raise refusal
    f = _flags(state)
    f.setdefault("carpet_turns", []).append(state.turn)
    state.air_points["allied"] -= CARPET_AIR_COST
    targets = {Hex.from_id(t) for t in a.targets}
    pinned = []
    for uid in sorted(state.units):
        us = state.units[uid]
        if us.status != "on_map" or state.side_of(uid) != "allied":
            continue
        if us.at in targets or any(n in targets for n in state.game.board.neighbours(us.at)):
            hit, die = friendly_fire_pinned(state.dice)
            if hit:
                pinned.append(uid)
            _emit(state, "bfn", "BFN 19.3.3", "pinned_roll", unit=uid, die=die, pinned=hit,
                  name=state.game.units[uid].name)
    f["carpet"] = {"targets": sorted(a.targets), "pinned": pinned}
    _emit(state, "bfn", "BFN 19.3", "carpet_declared", targets=sorted(a.targets), cost=CARPET_AIR_COST)


def _carpet_roll(state: CampaignSelf, h: Hex, victims: list[str], friendly: bool = False) -> None:
    d1, d2 = state.dice.two_d6()
    result = state.game.tables.carpet_result(d1 + d2)
    rule = "BFN 19.3.3" if friendly else "CN 6.3"
    if friendly:
        _emit(state, "carpet", rule, "carpet_friendly", hex=h.id, total=d1 + d2, result=result,
              friendly=friendly, unit=state.game.units[victims[0]].name)
    else:
        data = {"hex": h.id, "total": d1 + d2, "result": result, "friendly": friendly}
        state.events.append(Event("carpet", campaign_text("carpet", **data), rule, data))
    if result == "DB":
        state.take_loss(state.weakest(victims), rule)
    elif result == "DE":
        state.eliminate(state.weakest(victims), " (carpet bombing)", rule)
    elif result == "DA":
        for uid in victims:
            state.eliminate(uid, " (carpet bombing)", rule)


class BattleForNormandyRules(RuleHooks):
    """Battle for Normandy §19 on the engine's hooks. Installed on every campaign game; each
    hook does nothing unless its variant is on (``game.variants`` or the scenario's
    ``rules: variants:``), so a BFN action in a game without it is refused naming BFN."""

    def mulberry_harbours(self, game: Game, cn_rule: dict | None = None) -> list[dict]:
        """BFN 19.4: the two chosen beaches; else CN 9.0's list."""
        return mulberry_harbours(game, cn_rule)

    def replaces_carpet_bombing(self, game: Game) -> bool:
        """BFN 19.3 replaces CN 6.3."""
        return enabled(game, "bfn-19.3")

    def tables(self, tables: Any, variants: tuple[str, ...]) -> Any:
        """BFN 19.5: a 'commando' movement class (non-motorized, hills at half cost)."""
        if not any(n.partition(":")[0] == "bfn-19.5" for n in variants):
            return tables
        if "hill" not in tables.terrain or "non_motorized" not in tables.movement_classes:
            return tables
        def add(cost: dict, half: bool) -> dict:
            base = cost.get("non_motorized")
            return {**cost, "commando": (None if base is None else (base / 2 if half else base))}

        terrain = {n: replace(t, cost=add(t.cost, n == "hill")) for n, t in tables.terrain.items()}
        hexsides = {n: replace(t, cost=add(t.cost, False)) for n, t in tables.hexsides.items()}
        road = {**tables.road_cost, "commando": tables.road_cost["non_motorized"]}
        return replace(tables, terrain=terrain, hexsides=hexsides, road_cost=road,
                       movement_classes=(*tables.movement_classes, "commando"))

    def replaces_mulberries(self, game: Game) -> bool:
        return enabled(game, "bfn-19.4")

    def on_turn_start(self, state: CampaignSelf) -> None:
        """The daily BFN rolls for the days of the turn just played (19.1, 19.2, 19.4), the
        turn-5 storm (19.4.2) and, on the first turn, the DD landing rolls (19.6.2)."""
        game = state.game
        if not any(enabled(game, v) for v in ("bfn-19.1", "bfn-19.2", "bfn-19.4", "bfn-19.6")):
            return
        f = _flags(state)
        if state.turn == game.scenario.first_turn and enabled(game, "bfn-19.6"):
            _dd_rolls(state, f)
        if enabled(game, "bfn-19.4"):
            _mulberry_cancel(state, f)
        for k in days_to_roll(state.turn):
            if k < f.get("next_day", 0):
                continue
            day = day_of(k)
            if enabled(game, "bfn-19.1") and "battleships" not in f:
                gone, die = withdrawal_check(day, state.dice)
                if die is not None or gone:
                    _emit(state, "bfn", "BFN 19.1", "battleships", day=day.isoformat(), die=die,
                          days=(day - WITHDRAWAL_FIRST).days, gone=gone)
                if gone:
                    f["battleships"] = day.isoformat()
            if enabled(game, "bfn-19.2"):
                airborne = f.setdefault("airborne", {})
                for div in AIRBORNE:
                    if div in airborne:
                        continue
                    gone, die = withdrawal_check(day, state.dice)
                    if die is not None or gone:
                        _emit(state, "bfn", "BFN 19.2", "division", day=day.isoformat(), die=die, division=div,
                              name=game.divisions[div].name if div in game.divisions else div,
                              days=(day - WITHDRAWAL_FIRST).days, gone=gone)
                    if gone:
                        airborne[div] = day.isoformat()
            if enabled(game, "bfn-19.4") and day >= MULBERRY_FIRST_DAY:
                for m in mulberry_harbours(state):
                    h = f["mulberry"][m["name"]]
                    if h["status"] in ("cancelled", "working") or h["progress"] >= MULBERRY_TARGET:
                        continue
                    if state.control.get(Hex.from_id(m["landing"])) != "allied":
                        continue
                    h["progress"], die = mulberry_progress(h["progress"], state.dice)
                    h["status"] = "building" if h["status"] == "planned" else h["status"]
                    _emit(state, "mulberry", "BFN 19.4.1", "mulberry_progress", name=m["name"], die=die,
                          progress=h["progress"], day=day.isoformat(), target=MULBERRY_TARGET)
            f["next_day"] = k + 1
        if enabled(game, "bfn-19.4"):
            storm = (game.rule("mulberries") or {}).get("storm_turn", STORM_TURN)
            if state.turn == storm:
                for m in mulberry_harbours(state):
                    h = f["mulberry"][m["name"]]
                    if h["status"] == "cancelled" or h["progress"] <= 0:
                        continue
                    h["progress"], die, damage = storm_damage(h["progress"], state.dice)
                    _emit(state, "mulberry", "BFN 19.4.2", "mulberry_storm", name=m["name"], die=die,
                          damage=damage, progress=h["progress"], target=21)
                    if damage is not None and h["status"] == "working":
                        h["status"] = "repairing"
            statuses = state.flags.setdefault("mulberries", {})
            for m in mulberry_harbours(state):
                h = f["mulberry"][m["name"]]
                if h["status"] != "cancelled" and h["progress"] >= MULBERRY_TARGET and h["status"] != "working":
                    h["status"] = "working"
                    _emit(state, "mulberry", "BFN 19.4.1", "mulberry_working", name=m["name"],
                          status="operating", hex=m["hex"])
                statuses[m["name"]] = "operating" if h["status"] == "working" else h["status"]

    def on_movement_end(self, state: CampaignSelf, side: str) -> None:
        """BFN 19.3.3: at the end of Allied movement the bombs fall on the targets and on Allied
        units next to them, each through CN 6.3's carpet bombing table."""
        f = state.flags.get("bfn", {})
        carpet = f.get("carpet")
        if side != "allied" or not carpet:
            return
        f.pop("carpet")
        targets = {Hex.from_id(t) for t in carpet["targets"]}
        board = state.game.board
        for h in sorted(targets):
            victims = state.units_at(h)
            if victims:
                _carpet_roll(state, h, victims)
        near = sorted(u for u, us in state.units.items() if us.status == "on_map" and state.side_of(u) == "allied"
                      and us.at not in targets and any(n in targets for n in board.neighbours(us.at)))
        for uid in near:
            if state.units[uid].status == "on_map":
                _carpet_roll(state, state.units[uid].at, [uid], friendly=True)

    def extra_actions(self, state: CampaignSelf) -> list[Action]:
        """Legal BFN actions to list: one canonical carpet area around each German-held hex."""
        if not enabled(state.game, "bfn-19.3") or state.turn < CARPET_FROM_TURN:
            return []
        out: list[Action] = []
        for h in sorted(state.occupied_by("axis")):
            a = CarpetBombArea(carpet_area_around(state, h))
            if len(a.targets) == CARPET_HEXES and carpet_refusal(state, a.targets) is None:
                out.append(a)
        return out

    def action_handler(self, state: CampaignSelf, action: Action) -> Callable[[Action], None] | None:
        if isinstance(action, CarpetBombArea):
            return lambda _same: _do_carpet_area(state, action)  # called with this action
        return None

    def move_refusal(self, state: CampaignSelf, uid: str) -> IllegalAction | None:
        carpet = state.flags.get("bfn", {}).get("carpet")
        if carpet and uid in carpet["pinned"]:
            return refuse(MovementRefused, "campaign.move.pinned", "BFN 19.3.3")
        return None

    def movement_class(self, state: CampaignSelf, uid: str, default: str) -> str:
        """BFN 19.5: Rangers and Commandos pay half for hills."""
        if default == "non_motorized" and state.game.units[uid].type == DATA.commando_type \
                and enabled(state.game, "bfn-19.5") and "commando" in state.game.tables.movement_classes:
            return "commando"
        return default

    def no_recovery(self, state: CampaignSelf, uid: str) -> bool:
        """BFN 19.5: Rangers and Commandos never receive replacements: no CN 7.0 recovery."""
        return enabled(state.game, "bfn-19.5") and state.game.units[uid].type == DATA.commando_type

    def withdrawal_rules(self, state: CampaignSelf, rules: list[dict]) -> list[dict]:
        """BFN 19.2: the airborne divisions' turn comes from their rolled day, not CN's turn 13."""
        if not enabled(state.game, "bfn-19.2"):
            return rules
        airborne = _flags(state).get("airborne", {})
        out = []
        for w in rules:
            divs = [d for d in w.get("divisions", []) if d in AIRBORNE]
            if not divs:
                out.append(w)
                continue
            rest = [d for d in w.get("divisions", []) if d not in AIRBORNE]
            if rest or w.get("units"):
                out.append({**w, "divisions": rest})
            for d in divs:
                turn = effective_turn(date.fromisoformat(airborne[d])) if d in airborne else 10 ** 6
                out.append({"turn": turn, "divisions": [d], "rule": "BFN 19.2"})
        return out

    def drop_override(self, state: CampaignSelf, uid: str, h: Hex) -> bool:
        """BFN 19.8: the Pegasus Bridge coup de main; True when it decided the drop."""
        if uid != PEGASUS_UNIT or not enabled(state.game, "bfn-19.8"):
            return False
        ok, die = pegasus_landing(state.dice)
        _emit(state, "bfn", "BFN 19.8", "pegasus", die=die, ok=ok)
        if ok:
            _emit(state, "drop", "BFN 19.8", "pegasus_drop", unit=state.game.units[uid].name, hex=h.id,
                  die=die, outcome="intact")
        return ok

    def naval_rule(self, state: CampaignSelf, rule: dict) -> dict:
        """BFN 19.1: once the battleships leave, CN 10.0's column only off the British sector."""
        if not enabled(state.game, "bfn-19.1"):
            return rule
        gone = _flags(state).get("battleships")
        if gone is None or state.turn < effective_turn(date.fromisoformat(gone)):
            return rule
        coast = state.game.board.places.get(rule.get("invasion_coast", ""), ())
        american = [h.id for h in coast if int(h.id[:2]) < BRITISH_SECTOR_FROM_COLUMN]
        return {**rule, "places": [], "landing_turns": [], "excluded": [*rule.get("excluded", []), *american]}

    def combat_shifts(self, state: CampaignSelf, attackers: tuple[str, ...], defenders: list[str]) -> list:
        """Column shifts of BFN 19.5, 19.6 and 19.7 for an attack (CN has no DRMs)."""
        game = state.game
        out: list = []
        if not attackers or not defenders or state.units[defenders[0]].hex is None:
            return out
        side = state.side_of(attackers[0])
        if side != "allied":
            return out
        target = state.units[defenders[0]].at
        fortified = game.board.hexes[target].fortification or (
            bool(game.rule("coastal_fortification")) and target in game.board.coast)
        if enabled(game, "bfn-19.5") and fortified and any(game.units[u].type == DATA.commando_type for u in attackers):
            shifts_reason = "Rangers/Commandos against fortifications"
            out.append(Shift(shifts_reason, +1, "BFN 19.5"))
        if state.turn != game.scenario.first_turn:
            return out
        from_beach = [u for u in attackers if state.units[u].status == "at_sea" or _beach_of(state, u)]
        if enabled(game, "bfn-19.6") and from_beach:
            if fortified and any(game.units[u].nation in DATA.avre_nations for u in from_beach):
                out.append(Shift("Hobart's funnies (AVRE) on the beaches", +1, "BFN 19.6.1"))
            dd = _flags(state).get("dd", {})
            beaches = {b for u in from_beach if (b := _beach_of(state, u))}
            if any(dd.get(b) for b in beaches):
                out.append(Shift("DD tanks ashore", +1, "BFN 19.6.2"))
        if enabled(game, "bfn-19.7") and from_beach and len(from_beach) == len(attackers) \
                and all(game.units[u].type in INFANTRY_TYPES for u in attackers):
            out.append(Shift("assault engineers with the infantry", +1, "BFN 19.7"))
        return out
