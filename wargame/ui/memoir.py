"""The Memoir '44 dashboard: a store (``MemoirStore``, no Panel) and thin Panel views.

``MemoirDashboard(scenario="1", seed=44)`` shows in a notebook cell and under
``panel serve wargame/ui/memoir.py``. Views never decide rules: the store asks the engine
(``wargame.memoir``) for legal actions and applies them; the board is the shared ``HexMap``.

Clicking the map does what the phase allows: order a unit, pick a unit then its destination,
pick an attacker then its target, choose a retreat hex, take ground, pick Air Power targets.
"""

from __future__ import annotations

import html
from typing import Any

import param

from wargame.bots.memoir_random import auto_action
from wargame.hexgrid import Hex
from wargame.memoir import (
    ALLIES,
    AXIS,
    LAYOUT,
    Action,
    IllegalAction,
    MemoirGame,
    MemoirState,
    card,
    hex_to_m44,
    scenario_ids,
)
from wargame.memoir.dice import hits_distribution
from wargame.memoir.scenario import load_scenario

__all__ = ["MemoirStore", "MemoirDashboard", "TEXT", "display_hex", "board_hex", "serve_memoir"]

# Every user-facing sentence of the dashboard (English now; Portuguese next).
TEXT = {
    "title": "Memoir '44: {title}",
    "status": "Turn {turn}: {side} to act, phase {phase}",
    "winner": "{side} wins{why}",
    "medals": "Medals: Allies {allies}/{allies_need}, Axis {axis}/{axis_need}",
    "hand": "{side}'s hand",
    "hidden_hand": "{side} holds {n} card(s)",
    "pending": "{owner} must decide: {kind}",
    "selected": "Selected unit {unit}",
    "no_unit": "No unit of yours there to select.",
    "illegal": "Not allowed: {reason} ({rule})",
    "undo_none": "Nothing to undo.",
    "dice": "Last roll: {faces}",
    "target": "{dice} dice at {target}: P(at least 1 hit) {p1:.0%}, expected {exp:.2f} hits",
    "phase.card": "play a card",
    "phase.order": "order units",
    "phase.move": "move",
    "phase.battle": "battle",
    "phase.air": "Air Power targets",
    "phase.barrage": "Barrage target",
    "phase.medics": "Medics & Mechanics",
    "end.order": "Done ordering",
    "end.move": "Done moving",
    "end.battle": "End battles (draw a card)",
    "undo": "Undo",
    "auto": "Auto-answer",
    "new": "New game",
}

KIND_LETTER = {"inf": "INF", "tank": "ARM", "gun": "ART"}
SIDE_COLOUR = {AXIS: "#9aa39a", ALLIES: "#a9bf72"}
TERRAIN_TO_STYLE = {"plain": "open", "woods": "woods", "hills": "hill", "buildings": "city",
                    "hedgerow": "bocage", "river": "sea", "ocean": "sea", "beach": "rough",
                    "mountain": "mountain"}
FACE_SYMBOL = {"infantry": "🪖", "armor": "🛡", "grenade": "💥", "flag": "⚑", "star": "★"}
# The shared HexMap names hexes by four-digit ids, which need q >= 0: Memoir's axial q starts
# at -4 (row 8, col 0); the map draws every hex shifted SHIFT columns right (a translation).
SHIFT = 5


def display_hex(h: Hex) -> Hex:
    return Hex(h.q + SHIFT, h.r)


def board_hex(h: Hex) -> Hex:
    return Hex(h.q - SHIFT, h.r)


def where(h: Hex | None) -> str:
    if h is None:
        return "-"
    r, c = hex_to_m44(h)
    return f"({r},{c})"


class MemoirStore(param.Parameterized):
    """One game in progress: the engine state plus what the user has selected. No Panel."""

    scenario = param.String(default="1")
    seed = param.Integer(default=44)
    selected = param.Integer(default=None, allow_None=True)
    message = param.String(default="")
    version = param.Integer(default=0)  # bumped on every change: views refresh on it

    def __init__(self, scenario: str | int = "1", seed: int = 44, **params: Any) -> None:
        super().__init__(scenario=str(scenario), seed=seed, **params)
        self.events: list[Any] = []
        self.new_game(str(scenario), seed)

    # ------------------------------------------------------------------ game control
    def new_game(self, scenario: str | None = None, seed: int | None = None) -> None:
        if scenario is not None:
            self.scenario = str(scenario)
        if seed is not None:
            self.seed = seed
        self.game = MemoirGame.from_scenario(self.scenario)
        self.state: MemoirState = self.game.new_initial_state(self.seed)
        self.events = list(self.state.setup_events)
        self.selected = None
        self.message = ""
        self.version += 1

    def apply(self, action: Action) -> bool:
        try:
            ev = self.state.apply(action)
        except IllegalAction as exc:
            self.message = TEXT["illegal"].format(reason=exc.reason, rule=exc.rule)
            self.version += 1
            return False
        self.events += ev
        self.message = ev[-1].text if ev else str(action)
        if self.state.phase not in ("move", "battle"):
            self.selected = None
        self.version += 1
        return True

    def undo(self, steps: int = 1) -> bool:
        """Undo is replay of the log without its last actions (same seed, same dice)."""
        if not self.state.history:
            self.message = TEXT["undo_none"]
            self.version += 1
            return False
        keep = self.state.history[:-steps] if steps else self.state.history
        self.state, self.events = MemoirState.replay(self.game, self.seed, keep)
        self.selected = None
        self.message = ""
        self.version += 1
        return True

    def auto(self) -> bool:
        return self.apply(auto_action(self.state))

    # ------------------------------------------------------------------ what to show
    @property
    def legal(self) -> list[Action]:
        return self.state.legal_actions()

    def hand(self) -> list[tuple[int, str, list[Action]]]:
        """The acting side's cards: (card id, title, the play actions allowed for it)."""
        side = self.state.active
        plays = [a for a in self.legal if a.kind == "play"]
        out = []
        for cid in self.state.hands[side]:
            out.append((cid, card(cid).title, [a for a in plays if a.card == cid]))
        return out

    def medals(self) -> dict[str, int]:
        return {ALLIES: self.state.medals(ALLIES), AXIS: self.state.medals(AXIS)}

    def status(self) -> str:
        s = self.state
        if s.winner:
            return TEXT["winner"].format(side=s.winner, why=s.win_reason)
        return TEXT["status"].format(turn=s.turn, side=s.to_act,
                                     phase=TEXT.get(f"phase.{s.phase}", s.phase))

    def move_targets(self) -> dict[Hex, int]:
        uid = self.selected
        if uid is None:
            return {}
        return {a.hex: self.state.move_options(uid).get(a.hex, 0) for a in self.legal
                if a.kind == "move" and a.unit == uid}

    def battle_targets(self) -> list[dict[str, Any]]:
        """Targets of the selected unit: hex, dice after terrain, hit chances."""
        uid = self.selected
        if uid is None:
            return []
        s = self.state
        out = []
        for a in self.legal:
            if a.kind != "battle" or a.unit != uid:
                continue
            target = s.unit_at(a.hex)
            n, _ = s.battle_dice(s.units[uid], target)
            dist = hits_distribution(n, target.kind)
            out.append({"hex": a.hex, "dice": n, "target": target.kind,
                        "p_hit": float(1 - dist[0]),
                        "expected": float(sum(k * p for k, p in dist.items())),
                        "p_eliminate": float(sum(p for k, p in dist.items()
                                                 if k >= target.figures))})
        return out

    def last_roll(self) -> list[str]:
        for e in reversed(self.events):
            if e.kind in ("battle", "finest_hour", "medics"):
                return [f.strip() for f in e.data["faces"].split(",") if f.strip()]
        return []

    def log(self, n: int = 60) -> list[str]:
        return [e.text for e in self.events[-n:]]

    # ------------------------------------------------------------------ map clicks
    def click(self, h: Hex) -> bool:
        """What a click on board hex ``h`` means in the current phase (None: nothing)."""
        s = self.state
        legal = self.legal
        unit = s.unit_at(h)
        # pending decisions and single-hex actions first
        for kind in ("retreat", "take_ground", "air_target", "barrage"):
            for a in legal:
                if a.kind == kind and a.hex == h:
                    return self.apply(a)
        if unit is not None:
            for kind in ("order", "medics"):
                a = Action(kind, unit=unit.id)
                if a in legal:
                    return self.apply(a)
        if self.selected is not None:
            for a in legal:
                if a.kind in ("move", "battle") and a.unit == self.selected and a.hex == h:
                    return self.apply(a)
        if unit is not None and unit.side == s.active and s.phase in ("move", "battle"):
            self.selected = unit.id
            self.message = TEXT["selected"].format(unit=unit.id)
            self.version += 1
            return True
        self.message = TEXT["no_unit"]
        self.version += 1
        return False

    def end_phase(self) -> bool:
        for kind in ("end_orders", "end_moves", "end_battles", "air_strike"):
            a = Action(kind)
            if a in self.legal:
                return self.apply(a)
        return False


# ---------------------------------------------------------------------- Panel views
def _esc(x: Any) -> str:
    return html.escape(str(x))


def _hexmap_specs(store: MemoirStore):
    from wargame.ui.hexmap import HexSpec

    sc = load_scenario(store.scenario)
    board = sc.board
    objective_hexes = {h for o in sc.objectives for h in o.hexes}
    specs = []
    for h in board.all_hexes():
        bh = board.at(h)
        feats = tuple(f for f, on in (("bunker", bh.bunker), ("bridge", bh.bridge),
                                      ("hedgehog", bh.hedgehog)) if on)
        name = "medal" if h in objective_hexes else ""
        d = display_hex(h)
        specs.append(HexSpec(d, d.id, TERRAIN_TO_STYLE.get(bh.terrain, "open"), name, feats))
    return specs


class MemoirDashboard:
    """Board, hand, controls, battle preview, dice, medals and log for one game.

    A ``pn.viewable.Viewer`` (built lazily so the module imports without Panel for the store).
    """

    def __new__(cls, *args: Any, **kwargs: Any):  # noqa: D102
        return _dashboard_class()(*args, **kwargs)


_DASH = None


def _dashboard_class():
    global _DASH
    if _DASH is not None:
        return _DASH
    import panel as pn

    from wargame.ui.hexmap import Counter, HexMap, Highlight

    class _MemoirDashboard(pn.viewable.Viewer):
        store = param.ClassSelector(class_=MemoirStore)

        def __init__(self, scenario: str | int = "1", seed: int = 44,
                     store: MemoirStore | None = None, **params: Any) -> None:
            store = store or MemoirStore(scenario, seed)
            super().__init__(store=store, **params)
            self.chooser = pn.widgets.Select(
                label="Scenario", value=store.scenario,
                options={f"{sid}: {load_scenario(sid).title}": sid for sid in scenario_ids()},
                width=300)
            self.new_button = pn.widgets.Button(label=TEXT["new"], color="primary")
            self.new_button.on_click(lambda _e: self._new())
            self.end_button = pn.widgets.Button(label=TEXT["end.move"], color="success")
            self.end_button.on_click(lambda _e: self.store.end_phase())
            self.undo_button = pn.widgets.Button(label=TEXT["undo"])
            self.undo_button.on_click(lambda _e: self.store.undo())
            self.auto_button = pn.widgets.Button(label=TEXT["auto"])
            self.auto_button.on_click(lambda _e: self.store.auto())
            self.status = pn.pane.HTML("", width=420)
            self.hand = pn.Column(width=420)
            self.pending = pn.Column(width=420)
            self.preview = pn.pane.HTML("", width=420)
            self.dice = pn.pane.HTML("", width=420)
            self.log = pn.pane.HTML("", width=420, height=260,
                                    styles={"overflow-y": "auto"})
            self._build_map()
            self.map_holder = pn.Column(self.map)
            controls = pn.Row(self.chooser, self.new_button)
            side = pn.Column(self.status, pn.Row(self.end_button, self.undo_button,
                                                 self.auto_button),
                             self.pending, self.hand, self.preview, self.dice, self.log)
            self.layout = pn.Column(controls, pn.Row(side, self.map_holder))
            store.param.watch(lambda _e: self.refresh(), "version")
            self.refresh()

        def _new(self) -> None:
            scenario_changed = self.chooser.value != self.store.scenario
            self.store.new_game(self.chooser.value)
            if scenario_changed:
                self._build_map()
                self.map_holder[:] = [self.map]
            self.refresh()

        def _build_map(self) -> None:
            self.map = HexMap(_hexmap_specs(self.store), LAYOUT, name="memoir-map")
            self.map.on_click = self._on_click

        def _on_click(self, hex_id: str) -> None:
            self.store.click(board_hex(Hex.from_id(hex_id)))

        # ---------------------------------------------------------------- refresh
        def refresh(self) -> None:
            st = self.store
            s = st.state
            counters = []
            for u in s.live_units():
                special = {"special": "*", "elite": "*", "resistance": "R"}.get(u.special, "")
                counters.append(Counter(
                    hex=display_hex(u.hex), uid=str(u.id),
                    letter=KIND_LETTER[u.kind] + special, values=f"{u.figures}/{u.max_figures}",
                    colour=SIDE_COLOUR[u.side], reduced=u.figures < u.max_figures,
                    side=u.side, title=f"{u.side} {KIND_LETTER[u.kind]} #{u.id}"))
            sel = str(st.selected) if st.selected is not None else None
            self.map.set_counters(counters, selected=sel)
            hl = []
            ordered = s.ctx.ordered if s.phase in ("move", "battle") else []
            for uid in ordered:
                if s.units[uid].alive:
                    hl.append(Highlight(display_hex(s.units[uid].hex), "attacker"))
            targets = st.move_targets()
            for h, cost in targets.items():
                hl.append(Highlight(display_hex(h), "reach", HexMap.reach_colour(
                    1 - cost / 3), label=str(cost)))
            battle = st.battle_targets()
            for b in battle:
                hl.append(Highlight(display_hex(b["hex"]), "target",
                                    label=f"{b['dice']}d {b['p_hit']:.0%}"))
            for a in st.legal:
                if a.kind in ("retreat", "take_ground") and a.hex is not None:
                    hl.append(Highlight(display_hex(a.hex), "retreat"))
                if a.kind in ("air_target", "barrage") and a.hex is not None:
                    hl.append(Highlight(display_hex(a.hex), "target"))
            for h in s.ctx.air_targets:
                hl.append(Highlight(display_hex(h), "selected"))
            self.map.set_highlights(hl)
            # side panels
            m = st.medals()
            need = s.scenario.medals
            self.status.object = (
                f"<b>{_esc(TEXT['title'].format(title=s.scenario.title))}</b><br>"
                f"{_esc(st.status())}<br>"
                f"{_esc(TEXT['medals'].format(allies=m[ALLIES], axis=m[AXIS], allies_need=need[ALLIES], axis_need=need[AXIS]))}"  # noqa: E501
                f"<br><i>{_esc(st.message)}</i>")
            self._refresh_hand()
            self._refresh_pending()
            self.preview.object = "<br>".join(
                _esc(TEXT["target"].format(dice=b["dice"], target=where(b["hex"]),
                                           p1=b["p_hit"], exp=b["expected"])) for b in battle)
            faces = st.last_roll()
            self.dice.object = (
                "<span style='font-size:22px'>"
                + " ".join(f"<span title='{_esc(f)}'>{FACE_SYMBOL.get(f, '?')}</span>"
                           for f in faces) + "</span>") if faces else ""
            self.log.object = "<br>".join(_esc(t) for t in reversed(st.log()))
            end_label = {"order": "end.order", "move": "end.move", "battle": "end.battle"}
            self.end_button.label = TEXT.get(end_label.get(s.phase, ""), "Done")
            self.end_button.disabled = not any(
                a.kind in ("end_orders", "end_moves", "end_battles", "air_strike")
                for a in st.legal)

        def _refresh_hand(self) -> None:
            st = self.store
            s = st.state
            items: list[Any] = [pn.pane.HTML(
                f"<b>{_esc(TEXT['hand'].format(side=s.active))}</b>")]
            for _cid, title, plays in st.hand():
                if not plays or s.pending or s.phase != "card":
                    items.append(pn.pane.HTML(f"<span style='color:#777'>{_esc(title)}</span>"))
                    continue
                for a in plays:
                    label = title + (f" as {a.option}" if a.option else "")
                    b = pn.widgets.Button(label=label, color="light", width=360)
                    b.on_click(lambda _e, a=a: self.store.apply(a))
                    items.append(b)
            other = AXIS if s.active == ALLIES else ALLIES
            items.append(pn.pane.HTML(_esc(TEXT["hidden_hand"].format(
                side=other, n=len(s.hands[other])))))
            self.hand[:] = items

        def _refresh_pending(self) -> None:
            s = self.store.state
            items: list[Any] = []
            if s.pending:
                p = s.pending[-1]
                items.append(pn.pane.HTML(
                    f"<b>{_esc(TEXT['pending'].format(owner=p.owner, kind=p.kind))}</b>"))
                for a in s.legal_actions():
                    label = a.kind + (f" {where(a.hex)}" if a.hex is not None else "") + (
                        f" {card(a.card).title}" if a.card is not None else "")
                    b = pn.widgets.Button(label=label, width=360)
                    b.on_click(lambda _e, a=a: self.store.apply(a))
                    items.append(b)
            elif s.phase in ("medics",):
                for a in s.legal_actions():
                    b = pn.widgets.Button(label=str(a), width=360)
                    b.on_click(lambda _e, a=a: self.store.apply(a))
                    items.append(b)
            self.pending[:] = items

        def __panel__(self):
            return self.layout

    _DASH = _MemoirDashboard
    return _DASH


def serve_memoir(scenario: str = "1", port: int = 5006, seed: int | None = 44,
                 show: bool = False, address: str | None = None) -> None:
    """Serve the Memoir '44 dashboard (``wargame serve --scenario memoir44-<n>``; blocks)."""
    import os

    import panel as pn

    pn.extension()
    address = address or os.environ.get("WARGAME_ADDRESS", "127.0.0.1")
    origins = [f"localhost:{port}", f"127.0.0.1:{port}"]
    if address not in ("127.0.0.1", "localhost"):
        origins.append("*")
    pn.serve(lambda: MemoirDashboard(scenario, 44 if seed is None else int(seed)), port=port,
             address=address, allow_websocket_origin=origins, show=show,
             title="wargame: Memoir '44")


if __name__.startswith("bokeh"):  # panel serve wargame/ui/memoir.py
    import os

    import panel as pn

    pn.extension()
    MemoirDashboard(os.environ.get("MEMOIR_SCENARIO", "1"),
                    int(os.environ.get("MEMOIR_SEED", "44"))).servable()
