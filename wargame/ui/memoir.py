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

from wargame.event_text import face_name, memoir_prompt
from wargame.hexgrid import Hex
from wargame.i18n import check_language, using_language
from wargame.memoir import (
    ALLIES,
    AXIS,
    LAYOUT,
    card,
)
from wargame.memoir.board import SECTIONS, m44_to_hex
from wargame.memoir.scenario import load_scenario
from wargame.memoir.text import IMPORT_TEXT_EN as TEXT_IMPORT
from wargame.paths import MEMOIR_PREFIX
from wargame.student_text import glossed, glossed_html
from wargame.ui.describe import TERM_CSS, card_html, describe_action, memoir_unit
from wargame.ui.hexmap import Counter, HexMap, HexSpec, Highlight, served_session
from wargame.ui.memoir_model import (
    COMPUTER_PLAYERS,
    SIDE_LABELS,
    TEXT,
    MemoirStore,
    where,
)
from wargame.ui.slots import Slot, SlotColumn
from wargame.ui.store import new_seed
from wargame.ui.text import MAP_WORDS, MEMOIR_LEGEND, SIDE_WORDS, UI, player_word
from wargame.ui.upload import SaveInput, tell_store

__all__ = ["MemoirStore", "MemoirDashboard", "TEXT", "display_hex", "board_hex"]

KIND_LETTER = {"inf": "INF", "tank": "ARM", "gun": "ART"}
KIND_SYMBOL = {"inf": "infantry", "tank": "armour", "gun": "artillery"}  # hexmap.NATO_SYMBOLS
SIDE_COLOUR = {AXIS: "#9aa39a", ALLIES: "#a9bf72"}
TERRAIN_TO_STYLE = {"plain": "open", "woods": "woods", "hills": "hill", "buildings": "city",
                    "hedgerow": "bocage", "river": "sea", "ocean": "sea", "beach": "rough",
                    "mountain": "mountain"}
# dice faces drawn as small SVG shapes (no emoji font needed): a helmet, a tank, a grenade, a
# flag, a star on a white die
_FACE_SHAPES = {
    "infantry": "<path d='M7 21 A9 9 0 0 1 25 21 Z' fill='#3a5a2a'/>"
                "<rect x='5' y='21' width='22' height='3' rx='1' fill='#3a5a2a'/>",
    "armor": "<rect x='5' y='17' width='22' height='7' rx='3' fill='#4a4a4a'/>"
             "<rect x='11' y='11' width='10' height='6' rx='1' fill='#4a4a4a'/>"
             "<rect x='21' y='13' width='8' height='2' fill='#4a4a4a'/>",
    "grenade": "<ellipse cx='16' cy='19' rx='7' ry='8' fill='#2f4f2f'/>"
               "<rect x='13' y='7' width='6' height='5' fill='#555'/>"
               "<path d='M19 9 L25 13' stroke='#555' stroke-width='2'/>",
    "flag": "<path d='M9 6 L9 27' stroke='#222' stroke-width='2'/>"
            "<path d='M10 7 L25 11 L10 16 Z' fill='#c0392b'/>",
    "star": "<path d='M16 5 L19 13 L27 13 L21 18 L23 26 L16 21 L9 26 L11 18 L5 13 L13 13 Z' "
            "fill='#d4a017'/>",
}


def face_svg(face: str, size: int = 30) -> str:
    """One die face as inline SVG (unknown faces: a question mark)."""
    shape = _FACE_SHAPES.get(face, "<text x='16' y='22' font-size='16' text-anchor='middle'>"
                                   "?</text>")
    return (f"<svg class='m44-die' width='{size}' height='{size}' viewBox='0 0 32 32' "
            f"role='img' aria-label='{_esc(face_name(face))}'><title>{_esc(face_name(face))}</title>"
            f"<rect x='1' y='1' width='30' height='30' rx='6' fill='#fff' stroke='#333' "
            f"stroke-width='1.5'/>{shape}</svg>")
# The shared HexMap names hexes by four-digit ids, which need q >= 0: Memoir's axial q starts
# at -4 (row 8, col 0); the map draws every hex shifted SHIFT columns right (a translation).
SHIFT = 8  # q >= 0 on every board, the Breakthrough board (17 rows) included (issue 32)
# the side column: 410 px with its margins, so that a 430-px notebook cell shows it whole
# (issue 28: at 420 the cell scrolled sideways by 11 px)
SIDE_W = 400
# places made once in the hand and the decision columns (wargame.ui.slots, issue #31): a hand
# of 6 cards, each a play button and the card drawn, with its heading and the other hand's line;
# a retreat's hexes. A page needing more grows them once.
HAND_PLACES = 16
PENDING_PLACES = 8
# served, the board fills the window's height less what is above it (a room's page sets
# --wg-map-top: room_page.MAP_TOP) and the width the side column leaves (issue 28: the board was
# a fixed 1000 px, 1365 px on the zoomed teacher's page); in a notebook cell, the cell's width
# at NOTEBOOK_MAP_HEIGHT
MAP_HEIGHT_CSS = "calc(100vh - var(--wg-map-top, 90px))"
NOTEBOOK_MAP_HEIGHT = 560
SHRINK_CSS = ":host { min-width: 0 !important; }"  # as campaign.SHRINK_CSS
# the hand's play buttons (issue #32: drawn as Bokeh's "light" buttons, a pupil took them for
# the cards' headings): a button's border, a background of their own, a pointer, a hover and a
# pressed state (no mark added to the label: it would change the button's accessible name)
PLAY_BUTTON_CSS = (
    ".bk-btn { border: 2px solid #7a5c1e !important; background: #ffe39a !important; "
    "color: #2b1f04 !important; border-radius: 6px !important; cursor: pointer !important; "
    "font-weight: 600 !important; box-shadow: 0 2px 0 #7a5c1e !important; } "
    ".bk-btn:hover { background: #ffd04d !important; } "
    ".bk-btn:active { box-shadow: none !important; transform: translateY(2px); } "
    ".bk-btn:focus-visible { outline: 3px solid #1f4fbf; }")


def _player_label(name: str) -> str:
    """A computer player in the select: its difficulty in plain words ("principiante",
    "normal", "difícil": ``wargame.registry`` levels), else its own name."""
    return TEXT["player.auto"] if name == "auto" else player_word(name)


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
        name = MAP_WORDS["m44.medal"] if h in objective_hexes else ""
        d = display_hex(h)
        label = MAP_WORDS.get(f"m44.terrain.{bh.terrain}", bh.terrain)
        specs.append(HexSpec(d, d.id, TERRAIN_TO_STYLE.get(bh.terrain, "open"), name, feats,
                             terrain_label=label))
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
            f"<b>{_esc(TEXT['title'].format(title=s.scenario.title_in(st.lang)))}</b><br>"
            f"<span class='m44-status'>{_esc(st.status())}</span><br>{_esc(medals)}"
            f"<br><i class='m44-message' style='color:{colour}'>{_esc(st.message)}</i>"
            f"<div class='m44-actions' style='color:#666;font-size:11px'>{st.seed_label()}"
            f"{_esc(TEXT['actions'].format(n=len(s.history)))}</div>")

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
        # checked for size before it is sent (issue #31; wargame.ui.upload)
        self.load = SaveInput(on_refused=tell_store(self.store), width=200)
        self.load.param.watch(self._load, "value")
        # the teacher's switch (issue #27): the hands stay hidden on the projector until shown
        self.reveal = pn.widgets.Toggle(label=UI["show_hands"], value=self.store.reveal_hands,
                                        width=SIDE_W - 20)
        self.reveal.param.watch(lambda e: self.store.reveal(bool(e.new)), "value")

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
        self.end.label = TEXT.get(end_label.get(st.state.phase, ""), TEXT["done"])
        self.end.disabled = not st.can_end_phase()
        self.undo.disabled = not st.state.history
        # a seat waiting for the other side has nothing to press (issue #27)
        mine = st.may_act_for(st.state.side_to_act)
        self.end.visible = self.auto.visible = mine

    def __panel__(self):
        """Only the controls this page's viewer can use are drawn (issue #27): the game's
        owner all of them; a room's player seat End and Auto (no undo, save or load: the room
        keeps the one log); the teacher no game control, only the switch for the hands."""
        viewer = self.store.as_viewer()
        if viewer.role == "teacher":
            return pn.Column(self.reveal, width=SIDE_W, css_classes=["m44-controls"])
        if not viewer.may_save:
            return pn.Column(pn.Row(self.end, self.auto), width=SIDE_W,
                             css_classes=["m44-controls"])
        # the buttons wrap onto a second line where the font is larger (issue 28: Save was
        # cut at the right of a 430-px JupyterLab cell)
        wrap = {"styles": {"flex-wrap": "wrap"}, "stylesheets": [SHRINK_CSS]}
        return pn.Column(pn.Row(self.end, self.undo, self.auto, self.save, **wrap),
                         pn.Row(pn.pane.HTML(_esc(TEXT["load"])), self.load, **wrap),
                         width=SIDE_W, css_classes=["m44-controls"])


class HandView(_View):
    """The acting side's cards (buttons for the playable ones) and the size of the other hand."""

    fields = ("state", "seen")

    def __init__(self, store: MemoirStore, **params: Any) -> None:
        super().__init__(store, **params)
        # at most 45% of the window: the cards drawn as cards scroll inside it, so the hand
        # stays on a 720-px seat with the board (issue 28)
        self.slots = SlotColumn(self.store.act, places=HAND_PLACES, width=SIDE_W,
                                buttons=store.as_viewer().acts,  # none on the teacher's page
                                button_style=[PLAY_BUTTON_CSS], button_classes=["m44-play"],
                                css_classes=["m44-hand"],
                                styles={"max-height": "45vh", "overflow-y": "auto"})
        self.column = self.slots.column

    def refresh(self) -> None:
        st = self.store
        s = st.state
        shown, counted = st.hand_sides()  # a seat: its own hand only (wargame.ui.seats)
        hands = [(side, [(cid, [str(a) for a in plays]) for cid, _t, plays in st.hand(side)])
                 for side in shown]
        buttons = not s.pending and s.phase == "card"  # else the plays show greyed
        key = (repr(hands), tuple((o, st.hand_size(o)) for o in counted),
               buttons and any(plays for _s, cards in hands for _c, plays in cards))
        if key == getattr(self, "_key", None):
            return  # the same cards and buttons: new buttons cost ~0.1 s per refresh
        self._key = key
        items: list[Slot] = []
        for side in shown:
            items.append(Slot(f"<b>{_esc(TEXT[f'hand.{side}'])}</b>"
                              if f"hand.{side}" in TEXT else
                              f"<b>{_esc(TEXT['hand'].format(side=side))}</b>"))
            for cid, title, plays in st.hand(side):
                about = card_html(card(cid)) or None  # issue #28: a card drawn as a card
                if not plays or s.pending or s.phase != "card":
                    items.append(Slot(about, margin=(0, 5)))
                    continue
                labels = [TEXT["play_as"].format(
                    title=title, option=TEXT.get(f"option.{a.option}", a.option))
                    if a.option else title for a in plays]
                # the card keeps its place whether it can be played or not (wargame.ui.slots):
                # its last play button shares the place with the card's text
                items += [Slot(label=lb, payload=a, color="light")
                          for lb, a in zip(labels[:-1], plays[:-1], strict=True)]
                items.append(Slot(about, label=labels[-1], payload=plays[-1], color="light",
                                  margin=(0, 5)))
        teacher = st.as_viewer().role == "teacher"
        for other in counted:
            n = st.hand_size(other)
            text = UI.plural("hands_hidden", n) if teacher else TEXT.plural("hidden_hand", n)
            items.append(Slot(_esc(text.format(side=SIDE_LABELS.get(other, other), n=n))))
        self.slots.show(items)

    def __panel__(self):
        return self.column


class PendingView(_View):
    """The pending decision (retreat, take ground, ambush...) or Medics & Mechanics, as buttons
    (retreat and take-ground hexes are also clickable on the map)."""

    fields = ("pending", "state")

    def __init__(self, store: MemoirStore, **params: Any) -> None:
        super().__init__(store, **params)
        self.slots = SlotColumn(self.store.act, places=PENDING_PLACES, width=SIDE_W,
                                buttons=store.as_viewer().acts)
        self.column = self.slots.column

    def refresh(self) -> None:
        s = self.store.state
        items: list[Slot] = []
        answers = self.store.pending_actions()  # none for the other side's seat
        if s.pending:
            p = s.pending[-1]
            prompt = TEXT["pending"].format(owner=SIDE_WORDS.get(p.owner, p.owner),
                                            kind=memoir_prompt(p.kind))
            items.append(Slot(f"<b>{_esc(prompt)}</b>"))
            if not answers:
                items.append(Slot(_esc(TEXT["waiting"].format(
                    side=SIDE_WORDS.get(p.owner, p.owner)))))
            items += [Slot(label=describe_action(s, a), payload=a) for a in answers]
        elif s.phase in ("medics",):
            items += [Slot(label=describe_action(s, a), payload=a) for a in answers]
        self.slots.show(items)

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
        self.pane.object = ("<div class='m44-dice'>" + " ".join(face_svg(f) for f in faces)
                            + "</div>") if faces else ""

    def __panel__(self):
        return self.pane


class LogView(_View):
    """The event log, newest first."""

    fields = ("log", "student")

    def __init__(self, store: MemoirStore, **params: Any) -> None:
        super().__init__(store, **params)
        self.pane = pn.pane.HTML("", width=SIDE_W, height=260, styles={"overflow-y": "auto"},
                                 stylesheets=[TERM_CSS])

    def refresh(self) -> None:
        say = glossed if self.store.in_student_words() else _esc  # issue #28: hover glossary
        self.pane.object = "<br>".join(say(t) for t in reversed(self.store.log_lines()))

    def __panel__(self):
        return self.pane


# the store fields the map shows
MAP_FIELDS = ("state", "selected")


def scenario_choices(lang: str | None = None) -> dict[str, str]:
    """The new-game list: label -> scenario id, the bundled scenarios then the imports, each
    with its front and year and the balance a study measured, or a dash (issue 32;
    ``wargame.catalog.memoir_scenarios``)."""
    from wargame.catalog import memoir_scenarios

    out = {}
    with using_language(lang):
        for entry in memoir_scenarios(lang=lang):
            front = entry.get("front") or ""
            front = TEXT.get(f"front.{front}", front.title()) if front else ""
            when = " ".join(w for w in (front, entry.get("year") or "") if w) or "-"
            balance = entry.get("balance")
            said = TEXT["choice.balance"].format(rate=balance["allied_win_rate"]) \
                if balance else TEXT["choice.no_balance"]
            out[TEXT["choice"].format(id=entry["number"], title=entry["title"], when=when,
                                      balance=said)] = entry["number"]
    return out


class MemoirDashboard(pn.viewable.Viewer):
    """Board, hand, controls (end phase, undo, auto, save, load), battle preview, dice, medals
    and log for one Memoir '44 game."""

    store = param.ClassSelector(class_=MemoirStore)

    def __init__(self, scenario: str | int = "1", seed: int = 44,
                 store: MemoirStore | None = None, computer: str = "none",
                 lang: str | None = None, **params: Any) -> None:
        # ``lang``: the language of the texts (default: the store's; wargame.ui.store)
        if store is None:
            store = MemoirStore(scenario, seed, computer=computer, lang=lang)
        elif lang:
            store.lang = check_language(lang)
        super().__init__(store=store, **params)
        with using_language(store.lang):
            self._build()

    @property
    def lang(self) -> str:
        """The language of this dashboard's texts (its store's)."""
        return self.store.lang

    def _build(self) -> None:
        store = self.store
        self.chooser = pn.widgets.Select(
            label=TEXT["scenario"], value=store.scenario,
            options=scenario_choices(store.lang),  # imports last
            width=300)
        self.new_button = pn.widgets.Button(label=TEXT["new"], color="primary")
        # New game asks first (issue 15), then deals with fresh dice (new_seed)
        self.really = pn.widgets.Button(label=UI["new_game_confirm"], color="danger",
                                        visible=False)
        self.cancel = pn.widgets.Button(label=UI["new_game_cancel"], visible=False)
        self.new_button.on_click(lambda _e: self._ask_new(True))
        self.cancel.on_click(lambda _e: self._ask_new(False))
        self.really.on_click(lambda _e: self._new_game())
        self.computer_side = pn.widgets.Select(
            label=TEXT["computer_side"], value=store.computer, width=140,
            options={TEXT["computer.none"]: "none", TEXT["computer.allies"]: ALLIES,
                     TEXT["computer.axis"]: AXIS})
        self.computer_side.param.watch(
            lambda e: setattr(self.store, "computer", e.new), "value")
        self.computer_player = pn.widgets.Select(
            label=TEXT["computer_player"], value=store.computer_player, width=120,
            options={_player_label(name): name for name in COMPUTER_PLAYERS})
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
        # beside the side column, the width it leaves (a row's child: flex-basis 360 px, grown)
        self.map_holder = pn.Column(self.map, sizing_mode="stretch_width",
                                    styles={"height": MAP_HEIGHT_CSS, "min-height": "320px",
                                            "flex": "1 1 360px"}
                                    if self._served else {"flex": "1 1 360px"},
                                    stylesheets=[SHRINK_CSS])
        # served, the side column scrolls on its own beside the board (issue 28)
        side = pn.Column(self.status, self.controls, self.pending_view, self.hand_view,
                         self.preview_view, self.dice_view, self.log_view,
                         styles={"max-height": MAP_HEIGHT_CSS, "overflow-y": "auto",
                                 "overflow-x": "hidden"} if served_session() else {})
        why = self._why_panel()
        if store.as_viewer().may_save:  # the computer is the game's owner's (not a room's seat)
            side.insert(2, why)
        # the jargon (sections, flag...) explained on hover, each term once (issue #28)
        self.legend = pn.pane.HTML(
            f"<div class='m44-legend' style='font-size:12px'><b>{_esc(TEXT['legend'])}</b>"
            + glossed_html("<table>" + "".join(
                f"<tr><td><b>{_esc(k)}</b></td><td>{_esc(v)}</td></tr>"
                for k, v in MEMOIR_LEGEND) + "</table>") + "</div>", width=SIDE_W,
            stylesheets=[TERM_CSS])
        side.append(pn.Card(self.legend, title=TEXT["legend"], collapsed=True, width=SIDE_W))
        # a new game, the scenario and the computer belong to the game's owner: a room's pages
        # do not draw them (issue #27)
        owner = store.as_viewer().may_save
        from wargame.ui.m44_upload import M44Import  # issue 32: a Scenario Editor file

        self.importer = M44Import(self._imported, lang=store.lang)
        # the owner's row wraps in a narrow notebook cell instead of cutting "New game" and
        # the computer's choices on the right (issue 28)
        wrap = {"styles": {"flex-wrap": "wrap"}, "stylesheets": [SHRINK_CSS]}
        self.layout = pn.Column(*([pn.Row(self.chooser, self.new_button, self.computer_side,
                                          self.computer_player, **wrap),
                                   pn.Row(self.really, self.cancel, **wrap),
                                   pn.Card(self.importer, title=TEXT_IMPORT["ui.label"],
                                           collapsed=True, width=SIDE_W)] if owner else []),
                                pn.Row(side, self.map_holder, sizing_mode="stretch_width",
                                       styles={} if self._served else {"flex-wrap": "wrap"},
                                       stylesheets=[SHRINK_CSS]),
                                sizing_mode="stretch_width", stylesheets=[SHRINK_CSS])
        watched = {"scenario", *MAP_FIELDS}
        for v in self.views:
            watched |= set(v.fields)
        store.param.watch(self._changed, sorted(watched))
        self.refresh()

    def _why_panel(self) -> pn.Column:
        """"Why this card?": the computer's reason for its last card play, on request (issue
        #33; the hard player: the card, the units it orders, the chance to win it expected)."""
        self.why_button = pn.widgets.Button(label=TEXT["why"], width=160)
        self.why_text = pn.pane.HTML("", width=SIDE_W, css_classes=["m44-why"])

        def show(_e: Any) -> None:
            self.why_text.object = f"<div class='m44-why-text' style='font-size:12px'>" \
                                   f"{_esc(self.store.computer_reason())}</div>"
        self.why_button.on_click(show)
        return pn.Column(self.why_button, self.why_text)

    def _ask_new(self, ask: bool) -> None:
        self.really.visible = self.cancel.visible = ask

    def _imported(self, sid: str) -> None:
        """An uploaded .m44 became scenario ``sid``: listed, chosen, New game asks."""
        with using_language(self.store.lang):
            self.chooser.options = scenario_choices(self.store.lang)
        self.chooser.value = sid
        self._ask_new(True)

    def _new_game(self) -> None:
        self._ask_new(False)
        self.store.new_game(self.chooser.value, new_seed())

    # names the tests and notebooks have used
    @property
    def end_button(self) -> pn.widgets.Button:
        return self.controls.end

    @property
    def undo_button(self) -> pn.widgets.Button:
        return self.controls.undo

    @property
    def hand(self) -> list[Any]:
        """The hand's panes and buttons shown now (``SlotColumn.shown``)."""
        return self.hand_view.slots.shown

    @property
    def pending(self) -> list[Any]:
        """The pending decision's panes and buttons shown now."""
        return self.pending_view.slots.shown

    @property
    def log(self) -> pn.pane.HTML:
        return self.log_view.pane

    def _build_map(self) -> None:
        self._served = served_session()
        self.map = HexMap(hexmap_specs(self.store.scenario), LAYOUT, name="memoir-map",
                          stretch="both" if self._served else "width",
                          height=None if self._served else NOTEBOOK_MAP_HEIGHT)
        self.map.on_click = self._on_click
        self._draw_sections()

    def _draw_sections(self) -> None:
        """M44 Battlefield: the two dashed lines between the left flank, the centre and the
        right flank (as the Allied player, at the bottom, sees them), with their names."""
        board = self.store.state.scenario.board
        lines, labels = [], []
        top = LAYOUT.to_xy(display_hex(m44_to_hex(0, 0)))[1] + 0.9 * LAYOUT.size
        bottom = LAYOUT.to_xy(display_hex(m44_to_hex(board.rows - 1, (board.rows - 1) % 2)))[1] \
            - 0.9 * LAYOUT.size
        xs = []
        for col in board.boundaries:
            x = LAYOUT.to_xy(display_hex(m44_to_hex(col % 2, col)))[0]
            xs.append(x)
            lines.append(((x, top), (x, bottom)))
        x0 = LAYOUT.to_xy(display_hex(m44_to_hex(0, 0)))[0]
        x1 = LAYOUT.to_xy(display_hex(m44_to_hex(0, board.max_col)))[0]
        for name, (a, b) in zip(SECTIONS, [(x0, xs[0]), (xs[0], xs[1]), (xs[1], x1)],
                                strict=True):
            labels.append(((a + b) / 2, bottom - 0.35 * LAYOUT.size, TEXT[f"section.{name}"]))
        self.map.add_guides(lines, labels, name="sections")

    def _on_click(self, hex_id: str) -> None:
        self.store.click(board_hex(Hex.from_id(hex_id)))

    def _changed(self, *events: param.parameterized.Event) -> None:
        with using_language(self.store.lang):
            self._changed_in_language({e.name for e in events})

    def _changed_in_language(self, changed: set[str] | None) -> None:
        # another board: a new figure (never on a click)
        if changed is not None and "scenario" in changed:
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

        with using_language(self.store.lang), hold():
            if due(MAP_FIELDS):
                self._refresh_map()
            for v in self.views:
                if due(v.fields):
                    v.refresh()

    def _refresh_map(self) -> None:
        st = self.store
        s = st.state
        counters = []
        specs = s.scenario.units
        for u in s.live_units():
            special = {"special": "*", "elite": "*", "resistance": "R"}.get(u.special, "")
            # issue 32: an imported British, Soviet... unit says its nation on the counter
            nation = specs[u.id].nation if u.id < len(specs) else None
            key = f"nation.{nation}"
            title = memoir_unit(s, u.id) + (
                f" ({TEXT_IMPORT[key] if key in TEXT_IMPORT else nation})" if nation else "")
            counters.append(Counter(
                hex=display_hex(u.hex), uid=str(u.id), symbol=KIND_SYMBOL[u.kind],
                tag=special,
                letter=KIND_LETTER[u.kind] + special, values=f"{u.figures}/{u.max_figures}",
                colour=SIDE_COLOUR[u.side], reduced=u.figures < u.max_figures,
                side=u.side, title=title))
        sel = str(st.selected) if st.selected is not None else None
        self.map.set_counters(counters, selected=sel)
        hl = []
        for h in sorted(s.wire, key=lambda h: (h.q, h.r)):
            hl.append(Highlight(display_hex(h), "wire"))
        for h in sorted(s.sandbags, key=lambda h: (h.q, h.r)):
            hl.append(Highlight(display_hex(h), "sandbags"))
        ordered = s.ctx.ordered if s.phase in ("order", "move", "battle") else []
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

    def _repr_mimebundle_(self, include=None, exclude=None):
        """In a notebook cell: Panel's output, the later panels' stylesheets from the Jupyter
        server rather than a CDN (wargame.ui.notebook.notebook_bundle)."""
        from wargame.ui.notebook import notebook_bundle

        return notebook_bundle(self, include, exclude)

    def __panel__(self):
        return self.layout


def memoir_dashboard(scenario_id: str, seed: int, variants: tuple[str, ...] = (),
                     computer: str = "none", lang: str | None = None) -> MemoirDashboard:
    """The solo dashboard of a ``memoir44-*`` scenario id (``wargame.registry``'s factory)."""
    return MemoirDashboard(str(scenario_id).removeprefix(MEMOIR_PREFIX), seed,
                           computer=computer, lang=lang)


def dashboard_of_store(store: MemoirStore) -> MemoirDashboard:
    """The dashboard around a store (a room's seat or the teacher's replay)."""
    return MemoirDashboard(store=store)
