"""The campaign dashboard's shared look and its small views: the base of every view of the
store (``StoreView``), the message bar, the unit card, the log, the history and the legend.

Split from ``wargame.ui.campaign`` (issue #35: no module over 800 lines); the dashboard itself
and its other panels import the layout constants and helpers from here.
"""

from __future__ import annotations

import html
from typing import Any, ClassVar

import panel as pn
import param

from wargame.student_text import glossed, glossed_html, unit_designation
from wargame.ui.describe import TERM_CSS, place_name
from wargame.ui.model import CampaignState
from wargame.ui.text import (
    LEGEND_COLOURS,
    LEGEND_LETTERS,
    LEGEND_MARKS,
    PHASE_HELP,
    SIDE_WORDS,
    STATUS_WORDS,
    UI,
    UNIT_TYPE_WORDS,
    WORDS,
    nation_word,
    their_turn,
)

SIDE_W = 400  # the side column: 410 px, so a notebook cell of 430 px shows it whole (issue 28)
# the map's box: the window's height less what is above it: the message bar and the phase line
# (MAP_TOP), and on a room's page its header too (the page sets --wg-map-top: room_page.py; a
# CSS custom property is inherited through the components' shadow roots)
MAP_TOP = "110px"
MAP_HEIGHT_CSS = f"calc(100vh - var(--wg-map-top, {MAP_TOP}))"
# Panel gives a row the sum of its children's widths as min-width: overridden, so that a
# narrow notebook cell wraps the row (the side panel under the map, the buttons under the
# phase line) instead of cutting it (issue 28); an !important :host rule beats the inline style
SHRINK_CSS = ":host { min-width: 0 !important; }"
# warnings float over the map's top edge instead of pushing it down (issue 28 item 4)
OVERLAY_STYLES = {"position": "absolute", "top": "100%", "left": "0", "z-index": "50",
                  "max-width": "calc(100vw - 16px)"}
# the overlay's look, on its parts (the host element of a Panel column is not its content's
# height): a pale warning ground, a red edge and a shadow over the map
OVERLAY_LOOK = ("background:#fff6d8;border:2px solid #a00000;border-radius:6px;"
                "box-shadow:0 4px 14px rgba(0,0,0,0.35);padding:6px 10px;margin:0")
# the side column scrolls on its own: the action area at its top stays beside the map
# (less what a room's page puts above the dashboard: --wg-side-top, room_page.py)
SIDE_STYLES = {"max-height": "calc(100vh - var(--wg-side-top, 0px))", "overflow-y": "auto",
               "overflow-x": "hidden"}
CSS = """
.wg-box {font-family: sans-serif; font-size: 13px; line-height: 1.35;}
.wg-box h4 {margin: 2px 0 4px 0;}
.wg-box table {border-collapse: collapse;}
.wg-box td, .wg-box th {padding: 1px 6px; border-bottom: 1px solid #ddd; text-align: left;}
.wg-error {color: #a00000; font-weight: bold;}
.wg-ok {color: #164d16;}
.wg-rule {color: #666; font-size: 11px;}
.wg-cur {background: #ffe98a; font-weight: bold;}
.wg-shifts td, .wg-shifts th {padding: 0 4px; font-size: 11px;}
.wg-box h4 {font-size: 14px;}
""" + TERM_CSS + "\n"


NOTEBOOK_MAP_HEIGHT = 600


def status_words(status: str) -> str:
    """``"on_map (reduced)"`` -> "on the map (reduced)"."""
    head, _, rest = status.partition(" ")
    return STATUS_WORDS.get(head, head.replace("_", " ")) + (f" {rest}" if rest else "")


def esc(x: Any) -> str:
    return html.escape(str(x))


def box(inner: str, cls: str = "") -> str:
    return f'<style>{CSS}</style><div class="wg-box {cls}">{inner}</div>'


class StoreView(pn.viewable.Viewer):
    """A view of the store: ``refresh`` runs when one of ``fields`` (store fields) changed."""

    model = param.ClassSelector(class_=CampaignState)
    fields: ClassVar[tuple[str, ...]] = ()

    def __init__(self, model: CampaignState, **params: Any) -> None:
        super().__init__(model=model, **params)
        self._updating = False

    def refresh(self) -> None:  # pragma: no cover - overridden
        pass


class MessageBar(StoreView):
    fields = ("message", "error", "phase", "side_to_act")

    def __init__(self, model: CampaignState, **params: Any) -> None:
        super().__init__(model, **params)
        self.pane = pn.pane.HTML("", sizing_mode="stretch_width", min_height=24)

    def refresh(self) -> None:
        m = self.model
        cls = "wg-error" if m.error else "wg-ok"
        help_line = PHASE_HELP.get(m.s.phase.value, "")
        if m.viewer is not None and m.side_to_act and not m.plans_for_viewer():
            # a seat whose side is not to act, and the teacher's projector, are not told to
            # click a unit (issue 28: the Axis seat read "click a unit, then a shaded hex"
            # during the Allied movement): they read whom the class waits for
            help_line = their_turn(m.side_to_act)
        text = m.message or help_line
        self.pane.object = box(f'<div class="wg-message {cls}">{esc(text)}</div>')

    def __panel__(self):
        return self.pane


class UnitCard(StoreView):
    """The selected unit and the rest of its stack."""

    fields = ("state", "selected_unit", "reinforcement", "hide_enemy", "student")

    def __init__(self, model: CampaignState, **params: Any) -> None:
        super().__init__(model, **params)
        self.pane = pn.pane.HTML("", width=SIDE_W, css_classes=["wg-unit-card"])
        # with a unit selected, a click on a reachable friendly stack moves there: this button
        # (or a click on the selected unit's own hex, which cycles the stack) picks another
        self.deselect = pn.widgets.Button(label=WORDS["deselect"], width=100, visible=False)
        self.deselect.on_click(lambda _e: self.model.select_unit(None))

    def refresh(self) -> None:
        m = self.model
        uid = m.selected_unit
        self.deselect.visible = uid is not None
        if uid is None and m.reinforcement:
            uid = m.reinforcement
        if uid is None:
            self.pane.object = box(f"<h4>{esc(WORDS['unit'])}</h4>{esc(UI['no_unit'])}")
            return
        c = m.unit_card(uid)
        rows = [
            (WORDS["card.name"], c["name"]),
            (WORDS["card.type"], UNIT_TYPE_WORDS.get(c["type"], c["type"].replace("_", " "))),
            (WORDS["card.nation"],
             f"{nation_word(c['nation'])} / {SIDE_WORDS.get(c['side'], c['side'])}"),
            # the division's name in the page's language ("Divisão de Infantaria 4")
            (WORDS["card.division"], unit_designation(c["division"])),
            (WORDS["card.adm"], f"{c['attack']}-{c['defence']}-{c['movement']}"),
            (WORDS["card.status"], status_words(c["status"])),
            (WORDS["card.hex"], place_name(m.s, c["hex"]) if c["hex"] else "-"),
        ]
        if c["range"]:
            rows.append((WORDS["card.range"], c["range"]))
        if c["mp_left"] is not None and m.s.phase.is_movement and m.s.side_of(uid) == m.side:
            rows.append((WORDS["card.mp_left"], f"{c['mp_left']:g}"))  # 8, not 8.0
        if c["engaged"]:
            rows.append((WORDS["card.engaged"], WORDS["card.engaged_yes"]))
        body = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows)
        stack = ""
        us = m.s.units[uid]
        if us.hex is not None:
            others = [u for u in m.s.units_at(us.hex) if u != uid]
            if others:
                names = ", ".join(esc(unit_designation(m.game.units[u].name)) for u in others)
                stack = f"<div>{WORDS['also_in'].format(hex=us.hex.id, units=names)}</div>"
        card = f'<table class="wg-unit">{body}</table>{stack}'
        if m.in_student_words():  # issue #28: the jargon explained on hover, as in the log
            card = glossed_html(card)
        self.pane.object = box(f'<h4>{esc(WORDS["unit"])}</h4>{card}')

    def __panel__(self):
        return pn.Column(self.pane, self.deselect)


class LogPanel(StoreView):
    """The event log in plain words, newest first, with rule references."""

    fields = ("log", "student")

    def __init__(self, model: CampaignState, **params: Any) -> None:
        super().__init__(model, **params)
        self.pane = pn.pane.HTML("", width=SIDE_W - 20)
        self._key: tuple | None = None

    def refresh(self) -> None:
        log = self.model.log
        key = (id(log), len(log), self.model.in_student_words())
        if key == self._key:
            return
        self._key = key
        say = glossed if self.model.in_student_words() else esc  # issue #28: hover glossary
        rows = "".join(
            f"<li>{say(text)} <span class='wg-rule'>{esc(rule)}</span></li>"
            for text, rule in reversed(self.model.log_lines(150)))
        self.pane.object = box(f"<h4>{esc(WORDS['event_log'])}</h4>"
                                f"<ul class='wg-log'>{rows}</ul>")

    def __panel__(self):
        return self.pane


class HistoryPanel(StoreView):
    """What really happened this turn (scenario history.yaml) and which cities the Allies
    held, as a map overlay."""

    fields = ("turn",)

    def __init__(self, model: CampaignState, **params: Any) -> None:
        super().__init__(model, **params)
        self.pane = pn.pane.HTML("", width=SIDE_W)
        self.overlay = pn.widgets.Toggle(label=WORDS["history_overlay"], width=260)
        self.overlay.param.watch(self._overlay, "value")

    def _overlay(self, event) -> None:
        self.model.history_overlay = bool(event.new)

    def refresh(self) -> None:
        m = self.model
        if m.history is None:
            self.pane.object = box(f"<h4>{esc(WORDS['history'])}</h4>"
                                    f"{esc(UI['no_history'])}")
            self.overlay.visible = False
            return
        entry = m.history_entry()
        if entry is None:
            self.pane.object = box(f"<h4>{esc(WORDS['history'])}</h4>"
                                    f"{esc(WORDS['no_entry'].format(turn=m.s.turn))}")
            return
        entry = entry.in_language(m.lang)  # history.pt.yaml (wargame/localized.py)
        cities = ", ".join(esc(c) for c in entry.allied_cities) or esc(WORDS["none"])
        if entry.allied_hexes:
            cities += " " + esc(WORDS["in_part"].format(
                hexes=", ".join(entry.allied_hexes)))
        title = f"{esc(entry.title)}, " if entry.title else ""
        events = "".join(f"<li><b>{esc(d)}</b>: {esc(t)}</li>" for d, t in entry.events)
        self.pane.object = box(
            f"<h4>{esc(WORDS['history'])}: {title}{esc(entry.dates)}</h4>"
            f"<div class='wg-history-text'>{esc(entry.text)}</div>"
            + (f"<ul class='wg-log'>{events}</ul>" if events else "")
            + f"<div class='wg-rule'>{esc(WORDS['allied_cities'])} {cities}</div>")

    def __panel__(self):
        return pn.Column(self.pane, self.overlay, width=SIDE_W)


def legend_html() -> str:
    """Letters, colours and marks of the map, in words (the Legend tab)."""
    letters = "".join(f"<tr><td><b>{esc(k)}</b></td><td>{esc(v)}</td></tr>"
                      for k, v in LEGEND_LETTERS)
    colours = "".join(
        f"<tr><td><span style='display:inline-block;width:18px;height:12px;"
        f"background:{c};border:1px solid #333'></span></td><td>{esc(n)}</td></tr>"
        for n, c in LEGEND_COLOURS)
    marks = "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in LEGEND_MARKS)
    # the jargon (zone of engagement, stack, reduced...) explained on hover, each term once
    # (issue #28): a legend is read by beginners whatever the page's mode
    return box("<div class='wg-legend'>" + glossed_html(
        f"<h4>{esc(WORDS['counters'])}</h4><table>{letters}</table>"
        f"<h4>{esc(WORDS['colours'])}</h4><table>{colours}</table>"
        f"<h4>{esc(WORDS['marks'])}</h4><table>{marks}</table>") + "</div>")


