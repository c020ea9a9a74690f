"""The campaign dashboard's state: ``CampaignState``, a ``GameStore`` (wargame.ui.store)
around the engine's State.

No Panel import here: views in ``wargame.ui.campaign`` render this store, tests drive it with
plain pytest. Every rule question goes to the engine; the base store acts, refuses (reason +
rule), undoes, saves and loads; this class remembers what the user has selected and plans
attacks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import param

from wargame.bots.air_plan import (
    PlannedAttack,
    optimise_air,
    planned_attack,
    sequential_air,
    value_table,
)
from wargame.bots.campaign_random import auto_answer
from wargame.event_text import DECISIONS, event_line
from wargame.hexgrid import Hex
from wargame.operational.actions import (
    Action,
    Advance,
    Attack,
    Bombard,
    CarpetBomb,
    EndPhase,
    Enter,
    Move,
    Retreat,
)
from wargame.operational.combat import Assessment, BombardAssessment, assess_bombardment
from wargame.operational.movement import Reach
from wargame.operational.state import Game, State
from wargame.operational.variants import VARIANTS, normalize_variants
from wargame.protocol import GameState
from wargame.scenario import Scenario
from wargame.student_text import unit_designation
from wargame.ui.describe import describe_option as describe_decision_option
from wargame.ui.describe import place_name as describe_place
from wargame.ui.store import GameStore, batched
from wargame.ui.text import (
    ACTION_WORDS,
    PHASE_WORDS,
    SIDE_NAMES,
    UI,
    result_words,
    variant_word,
)

__all__ = ["CampaignState", "HistoryEntry", "load_history", "describe_option", "make_game",
           "CAMPAIGN_PLAYERS"]

CAMPAIGN_PLAYERS = ("hard", "greedy", "random")  # the levels, the classroom's default first


@dataclass(frozen=True)
class HistoryEntry:
    turn: int
    dates: str
    text: str
    allied_cities: tuple[str, ...]
    title: str = ""
    allied_hexes: tuple[str, ...] = ()  # cities held only in part (Caen 2813 after Charnwood)
    events: tuple[tuple[str, str], ...] = ()  # (date, text)
    localized: dict[str, HistoryEntry] = field(default_factory=dict, hash=False, compare=False)

    def in_language(self, lang: str) -> HistoryEntry:
        """This entry's texts in ``lang`` (history.pt.yaml), else itself (English)."""
        return self.localized.get(lang, self)


def load_history(scenario: Scenario) -> list[HistoryEntry] | None:
    """The scenario's ``history.yaml``, checked by ``wargame.history`` (dates, cities, sources),
    as one entry per turn. A bare list of ``{turn, dates, text, allied_cities}`` (small test and
    demo scenarios) is read as it is. None when the scenario has no such file; a broken full
    history file raises the ScenarioError naming file and field."""
    src = Path(scenario.source) if scenario.source and not scenario.source.startswith("<") else None
    if src is None:
        return None
    folder = src.parent if src.suffix in (".yaml", ".yml") else src
    path = folder / "history.yaml"
    if not path.exists():
        return None
    import yaml

    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None
    if isinstance(raw, dict) and "format_version" in raw:
        from wargame.history import history_from_data

        hist = history_from_data(raw, scenario, source=str(path))

        def entry(t, lang: str = "en") -> HistoryEntry:
            return HistoryEntry(
                turn=t.turn, dates=t.dates_label_in(lang), text=t.text_in(lang),
                allied_cities=t.allied_cities, title=t.title_in(lang),
                allied_hexes=tuple(h for hexes in t.allied_hexes.values() for h in hexes),
                events=tuple((e.date, e.text_in(lang)) for e in t.events),
                localized={lang: entry(t, lang) for lang in t.translations} if lang == "en" else {})
        return [entry(t) for t in hist.turns]
    if isinstance(raw, dict):
        raw = raw.get("turns") or raw.get("history") or []
    out = []
    for item in raw or []:
        if not isinstance(item, dict) or "turn" not in item:
            continue
        out.append(HistoryEntry(
            turn=int(item["turn"]), dates=str(item.get("dates", "")), text=str(item.get("text", "")),
            allied_cities=tuple(str(c) for c in item.get("allied_cities") or ()),
        ))
    return out


_GAMES: dict[tuple[str, tuple[str, ...]], Game] = {}


def make_game(scenario: Game | Scenario | str, variants: tuple[str, ...] | list[str] = ()) -> Game:
    """A Game for an id, a Scenario or a Game; Games of bundled ids are shared (immutable)."""
    if isinstance(scenario, Game):
        return scenario
    variants = normalize_variants(variants)  # BFN 19: canonical names share one Game
    if isinstance(scenario, Scenario):
        return Game(scenario, variants=variants)
    key = (scenario, variants)
    if key not in _GAMES:
        if scenario == "demo":
            from wargame.ui.demo import demo_scenario

            _GAMES[key] = Game(demo_scenario(), variants=tuple(variants))
        else:
            _GAMES[key] = Game(scenario, variants=tuple(variants))
    return _GAMES[key]


def variant_choices() -> list[dict[str, str]]:
    """The optional variant rules for a new-game control: name, title, description, rule."""
    return [{"name": v.id, "title": variant_word(v.id, "title", v.title),
             "description": variant_word(v.id, "description", v.description), "rule": v.rule}
            for v in VARIANTS.values()]


def describe_option(state: State, action: Action,
                    values: dict[str, Any] | None = None) -> str:
    """A decision option in plain words, hexes by place (``wargame.ui.describe``); a loss
    choice's values from ``values`` (the page's view) when given."""
    return describe_decision_option(state, action, values)


def and_list(parts: list[str]) -> str:
    """"a and b", "a, b and c" in the current language."""
    if len(parts) <= 1:
        return "".join(parts)
    return DECISIONS["opt.and"].format(first=", ".join(parts[:-1]), second=parts[-1])




class CampaignState(GameStore):
    """Everything the campaign dashboard shows, and every command it sends to the engine.

    Acting, refusals, the event log, undo, save/load and the computer opponent come from
    ``GameStore``; this class holds the campaign's selection, attack planning and queries."""

    selected_hex = param.String(default=None, allow_None=True)
    selected_unit = param.String(default=None, allow_None=True)
    reinforcement = param.String(default=None, allow_None=True, doc="waiting unit picked to enter")
    attack_target = param.String(default=None, allow_None=True)
    attack_units = param.List(default=[], item_type=str)
    attack_artillery = param.List(default=[], item_type=str)
    attack_air = param.Integer(default=0, bounds=(0, None))
    hide_enemy = param.Boolean(default=False, doc="CN 5.1.1: hide the enemy's values")
    computer = param.Selector(default="none", objects=["none", "axis", "allied"],
                              doc="the side the computer plays")
    # issue #34: the classroom plays the hard player unless a weaker level is picked
    # (difícil / normal / principiante: hard, greedy, random; docs/bots.md)
    computer_player = param.Selector(default="hard", objects=list(CAMPAIGN_PLAYERS),
                                     doc="how the computer plays (wargame.bots.play)")
    history_overlay = param.Boolean(default=False)

    game: Game  # the campaign's (GameStore holds any protocol game)

    def __init__(self, game: Game | Scenario | str = "demo", seed: int = 1944,
                 variants: tuple[str, ...] | list[str] = (), **params: Any) -> None:
        game = make_game(game, variants)
        super().__init__(game, seed, **params)
        self.history = load_history(game.scenario)
        self.param.watch(lambda _e: self._player_changed(), "computer_player")

    # ------------------------------------------------------------------ GameStore hooks
    def opening_events(self, state: GameState) -> list[Any]:
        return list(cast(State, state).events)

    def action_message(self, action: Action, events: list[Any]) -> str:
        from wargame.ui.describe import describe_action

        done = UI["done"].format(what=describe_action(self.s, action))
        return self.news(events) or done

    def describe_logged(self, entry: dict[str, Any]) -> str:
        from wargame.ui.describe import describe_action

        return describe_action(self.s, entry)

    def make_policy(self) -> Any:
        from wargame.bots.play import make_policy

        return make_policy(self.game, self.computer_player, self.s.seed)

    def _player_changed(self) -> None:
        """Another computer player: the next computer action is the new one's."""
        self._policy = None
        if self.computer != "none":
            self._computer_changed()

    def side_name(self, side: str | None) -> str:
        return SIDE_NAMES.get(side or "", str(side))

    def phase_label(self) -> str:
        return self.phase_name

    def clear_selection(self, everything: bool = True) -> None:
        self.selected_unit = None
        self.reinforcement = None
        if everything:
            self.clear_attack()

    def after_position(self) -> None:
        s = self.s
        self.turn, self.phase = s.turn, s.phase.value
        if self.selected_unit and s.units[self.selected_unit].status not in ("on_map", "waiting"):
            self.selected_unit = None
        if self.reinforcement and s.units[self.reinforcement].status != "waiting":
            self.reinforcement = None
        if not s.phase.is_combat or (self.attack_target and not self._enemy_at(self.attack_target)):
            self.clear_attack()
        elif self.attack_target:
            # keep only choices still valid after a previous combat
            eligible = set(self.eligible_attackers())
            arty = set(self.artillery_options())
            self.attack_units = [u for u in self.attack_units if u in eligible]
            self.attack_artillery = [u for u in self.attack_artillery if u in arty]
            self.attack_air = min(self.attack_air, self.air_max())

    # ------------------------------------------------------------------ helpers
    @property
    def s(self) -> State:
        return self.state

    def _ok(self, text: str) -> None:
        self.say(text)

    def _apply(self, action: Action) -> bool:
        """Apply an action; on refusal keep the state and show reason + rule."""
        return self.act(action)

    def _enemy_at(self, hid: str) -> bool:
        side = self.s.phase.side
        return any(self.s.side_of(u) != side for u in self.s.units_at(Hex.from_id(hid)))

    # ------------------------------------------------------------------ queries for views
    @property
    def side(self) -> str | None:
        return self.s.phase.side

    @property
    def phase_name(self) -> str:
        return PHASE_WORDS[self.s.phase.value]

    def reachable(self) -> dict[Hex, Reach]:
        """The selected unit's legal destinations (the engine's legal_destinations)."""
        if not self.selected_unit or not self.s.phase.is_movement:
            return {}
        if self.hidden(self.selected_unit):
            return {}  # CN 5.1.1: where a hidden unit may go shows its movement allowance
        # asked by the unit card and the map in one refresh: computed once per position
        s = self.s
        key = (id(s), len(s.action_log), s.phase, self.selected_unit)
        cached = getattr(self, "_reach_cache", None)
        if cached is None or cached[0] != key:
            cached = (key, s.legal_destinations(self.selected_unit))
            self._reach_cache = cached
        return cached[1]

    def mp_left(self, reach: Reach) -> float:
        mp, _ = self.s.movement_of(self.selected_unit)
        return max(0.0, (2 * mp - reach.cost) / 2)

    def enemy_zoc(self) -> set[Hex]:
        side = self.side
        if side is None:
            return set()
        return self.s.zoc_of(self.s.other(side))

    def entry_hexes(self) -> list[Hex]:
        return self.s.entry_hexes(self.reinforcement) if self.reinforcement else []

    def waiting_units(self) -> list[str]:
        """Reinforcements of the side to act that may enter now."""
        s = self.s
        if not s.phase.is_movement:
            return []
        return [u for u, us in s.units.items()
                if us.status == "waiting" and s.side_of(u) == s.phase.side and s.entry_hexes(u)]

    def upcoming_units(self) -> list[tuple[int, str]]:
        s = self.s
        return sorted((us.available, u) for u, us in s.units.items()
                      if us.status == "waiting" and us.available is not None and us.available > s.turn)

    def eligible_attackers(self) -> list[str]:
        side = self.side
        if not self.attack_target or not self.s.phase.is_combat or side is None:
            return []
        return self.s.eligible_attackers(side, Hex.from_id(self.attack_target))

    def artillery_options(self) -> list[str]:
        side = self.side
        if not self.attack_target or not self.s.phase.is_combat or side is None:
            return []
        return self.s.artillery_in_range(side, Hex.from_id(self.attack_target))

    def air_max(self) -> int:
        """CN/OD 6.0-6.1: 0 .. min(points left, points per combat)."""
        side = self.side
        if side is None or self.s.turn in self.game.tables.air.no_air_turns:
            return 0
        return max(0, min(self.s.air_points.get(side, 0), self.game.tables.air.strike_max))

    def preview(self) -> Assessment | None:
        """What the planned attack would be resolved at (no dice)."""
        if not self.attack_target or not self.attack_units:
            return None
        return self.s.preview_attack(self.attack_target, tuple(self.attack_units),
                                     tuple(self.attack_artillery), self.attack_air)

    def defence_answer(self) -> dict[str, Any] | None:
        """What the defender may add to the planned attack once it is declared (CN/OD 5.1.1,
        8.0): its artillery in range and air points, with the assessment at the strongest
        answer, so the preview is not a surprise; None when it can answer nothing."""
        if not self.attack_target or not self.attack_units:
            return None
        s = self.s
        options = s.defence_answers(Hex.from_id(self.attack_target))
        if not options:
            return None
        strongest = options[-1]
        assessment = s.preview_attack(self.attack_target, tuple(self.attack_units),
                                      tuple(self.attack_artillery), self.attack_air,
                                      strongest.air, strongest.artillery)
        return {"artillery": [unit_designation(s.game.units[u].name) for u in strongest.artillery],
                "air": strongest.air, "assessment": assessment,
                "rule": f"{s.rule_prefix} 5.1.1"}

    def air_suggestion(self) -> dict[str, Any] | None:
        """The air-point optimiser (wargame.bots.air_plan, issue #19) over the attacks still
        open in this combat phase, the planned one as the player set it up: how many air points
        to put on it, and what the split is worth (expected enemy steps lost, summed over the
        attacks) against spending the points attack by attack. None without a planned attack,
        without air points (CN/OD 6.0-6.1), or while the enemy's values are hidden (CN 5.1.1:
        the suggestion would tell them)."""
        s = self.s
        side = self.side
        target = self.attack_target
        if (not target or not self.attack_units or side is None or not s.phase.is_combat
                or s.pending is not None or self.air_max() == 0):
            return None
        if any(self.hidden(u) for u in s.units_at(Hex.from_id(target))):
            return None
        attacks = [PlannedAttack(target, tuple(self.attack_units), tuple(self.attack_artillery)),
                   *(planned_attack(s, a) for a in s.legal_actions()
                     if isinstance(a, Attack) and a.target != target)]
        table = value_table(s, attacks, objective="steps")
        best = optimise_air(s, attacks, objective="steps", table=table)
        one_by_one = sequential_air(s, attacks, objective="steps", table=table, charge=0.0)
        row = table[0]
        air = best.allocation[0]
        # the best the player can still do with the air set on this attack now (the other
        # attacks split the rest): what the suggestion would add to it (issue #32: a
        # suggestion adding "+0.00 steps" was shown); None when the amount set is one the
        # engine refuses (CN 6.0 / OD 6.2 bounds)
        mine = row.get(self.attack_air)
        if mine is None:
            better = None
        else:
            kept = optimise_air(s, attacks, objective="steps",
                                table=[{self.attack_air: mine}, *table[1:]])
            better = best.value - kept.value
        return {"air": air, "attacks": len(attacks), "points": best.points,
                "here": row.get(air, 0.0), "mine": mine,
                "value": best.value, "gain": best.value - one_by_one.value, "better": better}

    def bombard_preview(self, air: bool) -> BombardAssessment | None:
        if not self.attack_target:
            return None
        if air:
            if not self.attack_air:
                return None
            return assess_bombardment(self.s, Hex.from_id(self.attack_target), (), self.attack_air)
        if not self.attack_artillery:
            return None
        return assess_bombardment(self.s, Hex.from_id(self.attack_target),
                                  tuple(self.attack_artillery), 0)

    def decision_options(self) -> list[tuple[str, Action]]:
        d = self.s.pending
        if d is None or self.is_other_side(d.side):
            return []  # a seat never sees the other side's options (its units' values)
        values = self.seen.get("values", {})
        return [(describe_option(self.s, o, values), o) for o in d.options]

    def retreat_targets(self) -> dict[str, Action]:
        """Map hex id -> the pending retreat/advance option ending there (clickable)."""
        d = self.s.pending
        out: dict[str, Action] = {}
        if d is None:
            return out
        for o in d.options:
            if isinstance(o, Retreat | Advance) and o.path:
                out.setdefault(o.path[-1], o)
        return out

    def hidden(self, uid: str) -> bool:
        """CN 5.1.1 / OD 5.1.1 ("the attacker may not check the defence points of the units
        it will attack before declaring"): in one side's seat (``viewer``) the other side's
        attack, defence and movement values are always hidden, and never reach the page; the
        teacher sees both sides; hot-seat: with the toggle on, the side not acting is hidden.
        The values themselves come from the session's view (``values_of``), never the state."""
        if uid not in self.seen.get("values", {}):
            return True  # the viewer's view (state.view, issue #27) does not hold them
        if self.viewer is not None:
            return False
        side = self.side
        return self.hide_enemy and side is not None and self.s.side_of(uid) != side

    def values_of(self, uid: str) -> tuple[int, int, int] | None:
        """The unit's attack, defence and movement allowance as this session's view holds
        them (``seen``, issue #27), or None when hidden from this viewer (``hidden``)."""
        if self.hidden(uid):
            return None
        a, d, mp = self.seen["values"][uid]
        return a, d, mp

    def unit_card(self, uid: str) -> dict[str, Any]:
        s = self.s
        d = self.game.units[uid]
        us = s.units[uid]
        values = self.values_of(uid)
        hidden = values is None
        div = self.game.divisions.get(d.division) if d.division else None
        mp = d.movement if values is None or us.status != "on_map" else values[2]
        return {
            "id": uid, "name": unit_designation(d.name), "nation": d.nation, "side": d.side, "type": d.type,
            "division": div.name if div else (d.division or UI["independent"]),
            "attack": "?" if values is None else values[0],
            "defence": "?" if values is None else values[1],
            "movement": "?" if hidden else mp,
            "range": d.range,
            "status": us.status + (" " + UI["reduced"] if us.reduced else ""),
            "hex": us.hex.id if us.hex else None,
            "mp_left": None if hidden or us.status != "on_map" else max(0, (2 * mp - us.spent) / 2),
            "engaged": s.engaged(uid),
        }

    def shown_attack(self, uid: str) -> str:
        """The unit's attack value as this viewer may see it ("?" when hidden)."""
        values = self.values_of(uid)
        return "?" if values is None else str(values[0])

    def plans_for_viewer(self) -> bool:
        """True when this session may plan the acting side's moves and attacks (hot-seat, or
        the seat whose side is to act); other seats and the teacher only look."""
        return self.viewer is None or self.viewer == self.side_to_act

    def history_entry(self) -> HistoryEntry | None:
        if not self.history:
            return None
        return next((h for h in self.history if h.turn == self.s.turn), None)

    def history_hexes(self) -> list[Hex]:
        """Hexes of the cities the Allies really held this turn (overlay)."""
        entry = self.history_entry()
        if entry is None:
            return []
        places = self.game.board.places
        out: list[Hex] = []
        for name in entry.allied_cities:
            out.extend(places.get(name, ()))
        out.extend(Hex.from_id(h) for h in entry.allied_hexes)
        return out

    def log_lines(self, n: int = 200) -> list[tuple[str, str]]:
        """The last ``n`` events in the store's language (``wargame.event_text.event_line``)."""
        viewer = self.as_viewer()
        return [(event_line(e, viewer, self.state), "" if viewer.student else e.rule)
                for e in self.log[-n:]]

    # ------------------------------------------------------------------ guidance (issue 15)
    def must_attack_units(self) -> list[str]:
        """Units of the side in its combat phase that must still attack before End phase
        (CN/OD 4.1.2: the engine's must-attack set and its own end-of-phase check)."""
        s = self.s
        side = self.side
        if not s.phase.is_combat or side is None or s.pending is not None:
            return []
        still = getattr(s, "_can_still_attack", None)
        out = []
        for uid in sorted(s.must_attack):
            us = s.units[uid]
            if us.attacked or us.status not in ("on_map", "at_sea"):
                continue
            if still is None or still(uid, side):
                out.append(uid)
        return out

    def end_phase_losses(self) -> list[tuple[str, str]]:
        """Units that ending the phase now would lose, with why: CN 11.1.1 / OD 5.3 units at
        sea whose landing hex still holds the enemy are destroyed at the end of combat."""
        s = self.s
        side = self.side
        if not s.phase.is_combat or side is None or s.pending is not None:
            return []
        out = []
        for uid, us in sorted(s.units.items()):
            if us.status != "at_sea" or s.side_of(uid) != side or us.hex is None:
                continue
            if any(s.side_of(u) != side for u in s.units_at(us.hex)):
                out.append((uid, DECISIONS["end.no_landing"].format(
                    place=describe_place(s, us.hex))))
        return out

    def at_sea(self) -> dict[Hex, list[str]]:
        """Units at sea (landing this turn), by landing hex."""
        out: dict[Hex, list[str]] = {}
        for uid, us in sorted(self.s.units.items()):
            if us.status == "at_sea" and us.hex is not None:
                out.setdefault(us.hex, []).append(uid)
        return out

    def attack_being_answered(self) -> str:
        """The attack a pending defence declaration answers, in words ("" for other
        decisions): target, attackers, their support, odds column before the defence."""
        s = self.s
        d = s.pending
        c = getattr(s, "combat", None)
        if d is None or c is None or d.kind != "defence":
            return ""
        support = []
        if c.artillery:
            support.append(ACTION_WORDS["with_artillery"].format(
                units=", ".join(unit_designation(self.game.units[u].name) for u in c.artillery)))
        if c.air:
            support.append(ACTION_WORDS["with_air"].format(n=c.air))
        a = c.assessment
        if a is None:  # before the defence answers: the odds as the attacker declared them
            try:
                a = s.preview_attack(c.target.id, tuple(c.attackers), tuple(c.artillery),
                                     c.air)
            except Exception:  # noqa: BLE001 - only a hint in the prompt
                a = None
        ratio = getattr(a, "ratio", "?") if a is not None else "?"
        column = getattr(a, "column_label", "?") if a is not None else "?"
        return UI["defence_attack"].format(
            target=describe_place(s, c.target),
            units=", ".join(unit_designation(self.game.units[u].name) for u in c.attackers)
            or ACTION_WORDS["nobody"],
            support=(" " + and_list(support)) if support else "",
            ratio=ratio, column=column)

    # ------------------------------------------------------------------ commands
    @batched
    def select_hex(self, hex_id: str) -> None:
        """A click on the map: the meaning depends on what is going on (decision, entry,
        movement, attack planning, plain selection)."""
        s = self.s
        h = Hex.from_id(hex_id)
        self.selected_hex = hex_id
        if s.is_terminal:
            return
        if not self.plans_for_viewer():  # another seat's turn: a click only selects
            here = s.units_at(h)
            self.selected_unit = self._next_in_stack(here) if here else None
            return
        if s.pending is not None:
            option = self.retreat_targets().get(hex_id)
            if option is not None:
                self._apply(option)
                return
            return
        occupants = s.units_at(h)
        own = [u for u in occupants if s.side_of(u) == self.side]
        if s.phase.is_movement:
            if self.reinforcement:
                if h in self.entry_hexes():
                    self.enter_reinforcement(hex_id)
                    return
                if not own:
                    self.enter_reinforcement(hex_id)  # shows why not
                    return
            if self.selected_unit and h in self.reachable():
                self.move_selected_to(hex_id)
                return
            if own:
                pick = self._next_in_stack(own)
                self.select_unit(pick)
                return
            if occupants:
                self.selected_unit = occupants[0]
                self._ok("")
                return
            if self.selected_unit and s.side_of(self.selected_unit) == self.side:
                self.move_selected_to(hex_id)  # not reachable: the engine says why
                return
            return
        # combat phase
        if occupants and not own:
            self.set_target(hex_id)
            return
        if occupants:
            self.selected_unit = self._next_in_stack(occupants)

    def _next_in_stack(self, uids: list[str]) -> str:
        """Clicking a stack again cycles through its units."""
        if self.selected_unit in uids:
            return uids[(uids.index(self.selected_unit) + 1) % len(uids)]
        return uids[0]

    @batched
    def select_unit(self, uid: str | None) -> None:
        self.reinforcement = None
        self.selected_unit = uid
        if uid is not None:
            us = self.s.units[uid]
            if us.hex is not None:
                self.selected_hex = us.hex.id
            n = len(self.reachable())
            if n or not self.s.phase.is_movement:
                self._ok(UI["selected"].format(unit=unit_designation(self.game.units[uid].name), n=n))
            else:
                refusal = self.s.move_refusal(uid) if hasattr(self.s, "move_refusal") else None
                if refusal is not None:
                    rule = f" ({refusal.rule})" if refusal.rule else ""
                    self.say(f"{unit_designation(self.game.units[uid].name)} cannot move: {refusal.reason}{rule}")
                else:
                    self._ok(UI["selected"].format(unit=unit_designation(self.game.units[uid].name), n=0))

    @batched
    def deselect(self) -> None:
        """Esc: forget the selected unit, reinforcement and attack target."""
        self.select_unit(None)
        self.selected_hex = None
        if self.attack_target:
            self.clear_attack()
        self._ok("")

    @batched
    def move_selected_to(self, hex_id: str) -> bool:
        if not self.selected_unit:
            self.say(UI["no_unit"], error=True)
            return False
        ok = self._apply(Move(self.selected_unit, hex_id))
        if ok:
            self.selected_unit = None  # issue 15: the next click selects, never moves again
        return ok

    @batched
    def pick_reinforcement(self, uid: str | None) -> None:
        self.selected_unit = None
        self.reinforcement = uid
        if uid:
            self._ok(UI["select_entry"].format(unit=unit_designation(self.game.units[uid].name)))

    @batched
    def enter_reinforcement(self, hex_id: str, uid: str | None = None) -> bool:
        uid = uid or self.reinforcement
        if not uid:
            self.say(UI["no_unit"], error=True)
            return False
        ok = self._apply(Enter(uid, hex_id))
        if ok:
            self.reinforcement = None
            self.selected_unit = uid
        return ok

    @batched
    def set_target(self, hex_id: str | None) -> None:
        self.attack_target = hex_id
        self.attack_units = self.eligible_attackers() if hex_id else []
        self.attack_artillery = []
        self.attack_air = 0
        if hex_id:
            self._ok(UI["target"].format(target=describe_place(self.s, hex_id)))

    def clear_attack(self) -> None:
        self.attack_target = None
        self.attack_units = []
        self.attack_artillery = []
        self.attack_air = 0

    @batched
    def declare_attack(self, target: str | None = None, attackers: list[str] | None = None,
                       artillery: list[str] | None = None, air: int | None = None) -> bool:
        """Roll the planned attack (arguments override the planned choices)."""
        if target is not None and target != self.attack_target:
            self.set_target(target)
        if attackers is not None:
            self.attack_units = list(attackers)
        if artillery is not None:
            self.attack_artillery = list(artillery)
        if air is not None:
            self.attack_air = air
        if not self.attack_target:
            self.say(UI["no_target"], error=True)
            return False
        return self._apply(Attack(self.attack_target, tuple(self.attack_units),
                                  tuple(self.attack_artillery), self.attack_air))

    @batched
    def bombard(self, air: bool = False) -> bool:
        """Artillery-only (8.0) or air-only (6.2) bombardment of the target."""
        if not self.attack_target:
            self.say(UI["no_target"], error=True)
            return False
        if air:
            action = Bombard(self.attack_target, (), self.attack_air)
        else:
            action = Bombard(self.attack_target, tuple(self.attack_artillery), 0)
        return self._apply(action)

    def carpet_bomb(self, hex_id: str) -> bool:
        return self._apply(CarpetBomb(hex_id))

    @batched
    def answer(self, option: Action | int) -> bool:
        """Answer the pending decision with an option (or its index in the options)."""
        if isinstance(option, int):
            options = self.s.pending.options if self.s.pending else ()
            if not 0 <= option < len(options):
                self.say(UI["no_decision"], error=True)
                return False
            option = options[option]
        return self._apply(option)

    @batched
    def auto(self) -> bool:
        if self.s.pending is None:
            self.say(UI["no_decision"], error=True)
            return False
        return self._apply(auto_answer(self.s))

    @batched
    def end_phase(self) -> bool:
        ok = self._apply(EndPhase())
        if ok:
            self.selected_unit = None
            self.reinforcement = None
            self.clear_attack()
        return ok

    def save_json(self) -> str:
        """The save's JSON text (``GameStore.save_text``: wargame.saves, format 3)."""
        return self.save_text()

    def load_json(self, text: str | bytes) -> bool:
        """Load a save of this game (``GameStore.load_text``; format-1 saves load too)."""
        return self.load_text(text)

    @batched
    def new_game(self, seed: int, variants: tuple[str, ...] | list[str] | None = None) -> None:
        """A new game; ``variants`` (BFN 19 names) starts it under other variant rules."""
        game = make_game(self.game.scenario, variants) if variants is not None else None
        self.selected_hex = None
        self.restart(int(seed), game)

    def result_text(self) -> str:
        """The latest dice result in plain words (for the attack panel)."""
        for e in reversed(self.s.events):
            if e.kind == "roll":
                viewer = self.as_viewer()
                if viewer.student:  # issue #28: the sentence says the result
                    return event_line(e, viewer, self.state)
                return event_line(e) + " " + result_words(str(e.data.get("result", "")))
        return ""
