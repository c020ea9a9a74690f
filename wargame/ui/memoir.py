"""The Memoir '44 dashboard: thin Panel views over ``MemoirStore`` (wargame.ui.memoir_model).

``MemoirDashboard(scenario="1", seed=44)`` shows in a notebook cell and is served by
``wargame serve --scenario memoir44-1`` or ``panel serve wargame/ui/app.py`` with
``?scenario=memoir44-1`` (``wargame.ui.serve.build_dashboard``, the one serve path). Views
never decide rules: the store asks the engine (``wargame.memoir``) for legal actions and
applies them; the board is the shared ``HexMap``. Each view names the store fields it shows and
refreshes only when one of them changed; the map's Bokeh sources are patched in place.

Save downloads the game in the one save format (``wargame.saves``), Load takes such a file
back (a damaged or foreign file is refused with a message, the game stays as it was), Undo
takes back the last action (replay of the log).
"""

from __future__ import annotations

import html
import io
from typing import Any, ClassVar

import panel as pn
import param
from panel.io import hold

from wargame.hexgrid import Hex
from wargame.memoir import (
    ALLIES,
    AXIS,
    LAYOUT,
    card,
    scenario_ids,
)
from wargame.memoir.scenario import load_scenario, user_scenario_ids
from wargame.ui.hexmap import Counter, HexMap, HexSpec, Highlight
from wargame.ui.memoir_model import COMPUTER_PLAYERS, TEXT, MemoirStore, where

__all__ = ["MemoirStore", "MemoirDashboard", "TEXT", "display_hex", "board_hex"]

KIND_LETTER = {"inf": "INF", "tank": "ARM", "gun": "ART"}
SIDE_COLOUR = {AXIS: "#9aa39a", ALLIES: "#a9bf72"}
TERRAIN_TO_STYLE = {"plain": "open", "woods": "woods", "hills": "hill", "buildings": "city",
                    "hedgerow": "bocage", "river": "sea", "ocean": "sea", "beach": "rough",
                    "mountain": "mountain"}
FACE_SYMBOL = {"infantry": "🪖", "armor": "🛡", "grenade": "💥", "flag": "⚑", "star": "★"}
# The shared HexMap names hexes by four-digit ids, which need q >= 0: Memoir's axial q starts
# at -4 (row 8, col 0); the map draws every hex shifted SHIFT columns right (a translation).
SHIFT = 5
SIDE_W = 420


def display_hex(h: Hex) -> Hex:
    return Hex(h.q + SHIFT, h.r)


def board_hex(h: Hex) -> Hex:
    return Hex(h.q - SHIFT, h.r)


def _esc(x: Any) -> str:
    return html.escape(str(x))


def hexmap_specs(scenario: str) -> list[HexSpec]:
    sc = load_scenario(scenario)
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


# ---------------------------------------------------------------------- views
class _View(pn.viewable.Viewer):
    """A view of the store: ``refresh`` runs when one of ``fields`` (store fields) changed."""

    store = param.ClassSelector(class_=MemoirStore)
    fields: ClassVar[tuple[str, ...]] = ()

    def __init__(self, store: MemoirStore, **params: Any) -> None:
        super().__init__(store=store, **params)

    def refresh(self) -> None:  # pragma: no cover - overridden
        pass


class StatusView(_View):
    """Scenario, turn, side to act, phase, medals and the last message."""

    fields = ("state", "message", "error")

    def __init__(self, store: MemoirStore, **params: Any) -> None:
        super().__init__(store, **params)
        self.pane = pn.pane.HTML("", width=SIDE_W)

    def refresh(self) -> None:
        st = self.store
        s = st.state
        m = st.medals()
        need = s.scenario.medals
        medals = TEXT["medals"].format(allies=m[ALLIES], axis=m[AXIS], allies_need=need[ALLIES],
                                       axis_need=need[AXIS])
        colour = "#a00000" if st.error else "#164d16"
        self.pane.object = (
            f"<b>{_esc(TEXT['title'].format(title=s.scenario.title))}</b><br>"
            f"<span class='m44-status'>{_esc(st.status())}</span><br>{_esc(medals)}"
            f"<br><i class='m44-message' style='color:{colour}'>{_esc(st.message)}</i>"
            f"<div class='m44-actions' style='color:#666;font-size:11px'>Seed {s.seed}, "
            f"{len(s.history)} actions</div>")

    def __panel__(self):
        return self.pane


class ControlsView(_View):
    """End the phase, undo, auto-answer, save (download), load (upload)."""

    fields = ("state",)

    def __init__(self, store: MemoirStore, **params: Any) -> None:
        super().__init__(store, **params)
        self.end = pn.widgets.Button(label=TEXT["end.move"], color="success")
        self.end.on_click(lambda _e: self.store.end_phase())
        self.undo = pn.widgets.Button(label=TEXT["undo"])
        self.undo.on_click(lambda _e: self.store.undo())
        self.auto = pn.widgets.Button(label=TEXT["auto"])
        self.auto.on_click(lambda _e: self.store.auto())
        self.save = pn.widgets.FileDownload(callback=self._save, filename=self._filename(),
                                            label=TEXT["save"], width=90, embed=False)
        self.load = pn.widgets.FileInput(accept=".json", width=200)
        self.load.param.watch(self._load, "value")

    def _filename(self) -> str:
        return f"memoir44-{self.store.scenario}-save.json"

    def _save(self) -> io.StringIO:
        return io.StringIO(self.store.save_text())

    def _load(self, event: param.parameterized.Event) -> None:
        if event.new:
            self.store.load_text(event.new)

    def refresh(self) -> None:
        st = self.store
        self.save.filename = self._filename()  # the scenario may have changed
        end_label = {"order": "end.order", "move": "end.move", "battle": "end.battle"}
        self.end.label = TEXT.get(end_label.get(st.state.phase, ""), "Done")
        self.end.disabled = not st.can_end_phase()
        self.undo.disabled = not st.state.history

    def __panel__(self):
        return pn.Column(pn.Row(self.end, self.undo, self.auto, self.save),
                         pn.Row(pn.pane.HTML(_esc(TEXT["load"])), self.load), width=SIDE_W)


class HandView(_View):
    """The acting side's cards (buttons for the playable ones) and the size of the other hand."""

    fields = ("state",)

    def __init__(self, store: MemoirStore, **params: Any) -> None:
        super().__init__(store, **params)
        self.column = pn.Column(width=SIDE_W)

    def refresh(self) -> None:
        st = self.store
        s = st.state
        items: list[Any] = [pn.pane.HTML(f"<b>{_esc(TEXT['hand'].format(side=s.active))}</b>")]
        for _cid, title, plays in st.hand():
            if not plays or s.pending or s.phase != "card":
                items.append(pn.pane.HTML(f"<span style='color:#777'>{_esc(title)}</span>"))
                continue
            for a in plays:
                label = title + (f" as {a.option}" if a.option else "")
                b = pn.widgets.Button(label=label, color="light", width=360)
                b.on_click(lambda _e, a=a: self.store.act(a))
                items.append(b)
        other = AXIS if s.active == ALLIES else ALLIES
        items.append(pn.pane.HTML(_esc(TEXT["hidden_hand"].format(
            side=other, n=len(s.hands[other])))))
        self.column[:] = items

    def __panel__(self):
        return self.column


class PendingView(_View):
    """The pending decision (retreat, take ground, ambush...) or Medics & Mechanics, as buttons
    (retreat and take-ground hexes are also clickable on the map)."""

    fields = ("pending", "state")

    def __init__(self, store: MemoirStore, **params: Any) -> None:
        super().__init__(store, **params)
        self.column = pn.Column(width=SIDE_W)

    def refresh(self) -> None:
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
                b.on_click(lambda _e, a=a: self.store.act(a))
                items.append(b)
        elif s.phase in ("medics",):
            for a in s.legal_actions():
                b = pn.widgets.Button(label=str(a), width=360)
                b.on_click(lambda _e, a=a: self.store.act(a))
                items.append(b)
        self.column[:] = items

    def __panel__(self):
        return self.column


class PreviewView(_View):
    """The selected unit's battle targets: dice after terrain and exact hit chances."""

    fields = ("state", "selected")

    def __init__(self, store: MemoirStore, **params: Any) -> None:
        super().__init__(store, **params)
        self.pane = pn.pane.HTML("", width=SIDE_W)

    def refresh(self) -> None:
        self.pane.object = "<br>".join(
            _esc(TEXT["target"].format(dice=b["dice"], target=where(b["hex"]), p1=b["p_hit"],
                                       exp=b["expected"]))
            for b in self.store.battle_targets())

    def __panel__(self):
        return self.pane


class DiceView(_View):
    """The faces of the last roll."""

    fields = ("log",)

    def __init__(self, store: MemoirStore, **params: Any) -> None:
        super().__init__(store, **params)
        self.pane = pn.pane.HTML("", width=SIDE_W)

    def refresh(self) -> None:
        faces = self.store.last_roll()
        self.pane.object = (
            "<span style='font-size:22px'>"
            + " ".join(f"<span title='{_esc(f)}'>{FACE_SYMBOL.get(f, '?')}</span>"
                       for f in faces) + "</span>") if faces else ""

    def __panel__(self):
        return self.pane


class LogView(_View):
    """The event log, newest first."""

    fields = ("log",)

    def __init__(self, store: MemoirStore, **params: Any) -> None:
        super().__init__(store, **params)
        self.pane = pn.pane.HTML("", width=SIDE_W, height=260, styles={"overflow-y": "auto"})

    def refresh(self) -> None:
        self.pane.object = "<br>".join(_esc(t) for t in reversed(self.store.log_lines()))

    def __panel__(self):
        return self.pane


# the store fields the map shows
MAP_FIELDS = ("state", "selected")


class MemoirDashboard(pn.viewable.Viewer):
    """Board, hand, controls (end phase, undo, auto, save, load), battle preview, dice, medals
    and log for one Memoir '44 game."""

    store = param.ClassSelector(class_=MemoirStore)

    def __init__(self, scenario: str | int = "1", seed: int = 44,
                 store: MemoirStore | None = None, computer: str = "none",
                 **params: Any) -> None:
        store = store or MemoirStore(scenario, seed, computer=computer)
        super().__init__(store=store, **params)
        self.chooser = pn.widgets.Select(
            label="Scenario", value=store.scenario,
            options={f"{sid}: {load_scenario(sid).title}": sid
                     for sid in scenario_ids() + user_scenario_ids()},  # imports last
            width=300)
        self.new_button = pn.widgets.Button(label=TEXT["new"], color="primary")
        self.new_button.on_click(lambda _e: self.store.new_game(self.chooser.value))
        self.computer_side = pn.widgets.Select(
            label=TEXT["computer_side"], value=store.computer, width=140,
            options={"nobody": "none", "the Allies": ALLIES, "the Axis": AXIS})
        self.computer_side.param.watch(
            lambda e: setattr(self.store, "computer", e.new), "value")
        self.computer_player = pn.widgets.Select(
            label=TEXT["computer_player"], value=store.computer_player, width=120,
            options=list(COMPUTER_PLAYERS))
        self.computer_player.param.watch(
            lambda e: setattr(self.store, "computer_player", e.new), "value")
        self.status = StatusView(store)
        self.controls = ControlsView(store)
        self.hand_view = HandView(store)
        self.pending_view = PendingView(store)
        self.preview_view = PreviewView(store)
        self.dice_view = DiceView(store)
        self.log_view = LogView(store)
        self.views: list[_View] = [self.status, self.controls, self.pending_view,
                                   self.hand_view, self.preview_view, self.dice_view,
                                   self.log_view]
        self._build_map()
        self.map_holder = pn.Column(self.map)
        side = pn.Column(self.status, self.controls, self.pending_view, self.hand_view,
                         self.preview_view, self.dice_view, self.log_view)
        self.layout = pn.Column(pn.Row(self.chooser, self.new_button, self.computer_side,
                                       self.computer_player),
                                pn.Row(side, self.map_holder))
        watched = {"scenario", *MAP_FIELDS}
        for v in self.views:
            watched |= set(v.fields)
        store.param.watch(self._changed, sorted(watched))
        self.refresh()

    # names the tests and notebooks have used
    @property
    def end_button(self) -> pn.widgets.Button:
        return self.controls.end

    @property
    def undo_button(self) -> pn.widgets.Button:
        return self.controls.undo

    @property
    def hand(self) -> pn.Column:
        return self.hand_view.column

    @property
    def pending(self) -> pn.Column:
        return self.pending_view.column

    @property
    def log(self) -> pn.pane.HTML:
        return self.log_view.pane

    def _build_map(self) -> None:
        self.map = HexMap(hexmap_specs(self.store.scenario), LAYOUT, name="memoir-map")
        self.map.on_click = self._on_click

    def _on_click(self, hex_id: str) -> None:
        self.store.click(board_hex(Hex.from_id(hex_id)))

    def _changed(self, *events: param.parameterized.Event) -> None:
        changed = {e.name for e in events}
        if "scenario" in changed:  # another board: a new figure (never on a click)
            self._build_map()
            self.map_holder[:] = [self.map]
            self.chooser.value = self.store.scenario
            changed = None
        self.refresh(changed)

    # ---------------------------------------------------------------- refresh
    def refresh(self, changed: set[str] | None = None) -> None:
        """Refresh the parts showing a changed store field (all when ``changed`` is None)."""
        def due(fields: tuple[str, ...]) -> bool:
            return changed is None or not changed.isdisjoint(fields)

        with hold():
            if due(MAP_FIELDS):
                self._refresh_map()
            for v in self.views:
                if due(v.fields):
                    v.refresh()

    def _refresh_map(self) -> None:
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
        for h, cost in st.move_targets().items():
            hl.append(Highlight(display_hex(h), "reach", HexMap.reach_colour(1 - cost / 3),
                                label=str(cost)))
        for b in st.battle_targets():
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

    def click(self, hex_id: str) -> None:
        """Same path as a click on the map (board hex id of the display map)."""
        self.map.click(hex_id)

    def __panel__(self):
        return self.layout
