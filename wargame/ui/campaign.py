"""The campaign dashboard: thin Panel views over ``CampaignState`` (wargame.ui.model).

``CampaignDashboard("normandy", seed=1944)`` shows in a notebook cell and under
``panel serve`` alike. Views never decide rules: they render the store and call its commands.
Each view names the store fields it shows (``fields``) and refreshes only when one of them
changed: a click that only selects a unit leaves the log, the turn panel and the decision alone.
"""

from __future__ import annotations

import html
import io
from typing import Any, ClassVar

import panel as pn
import param
from bokeh.models import ColumnDataSource, FactorRange, HoverTool
from bokeh.plotting import figure
from panel.io import hold

from wargame.event_text import decision_prompt, shift_reason, side_name, victory_line
from wargame.hexgrid import Hex, Layout
from wargame.i18n import check_language, format_day, using_language
from wargame.operational.state import Game
from wargame.scenario import Scenario
from wargame.student_text import (
    glossed,
    glossed_html,
    result_sentence,
    unit_designation,
    without_rules,
)
from wargame.ui.describe import place_name, student_odds, terrain_name
from wargame.ui.hexmap import NATION_COLOURS, Counter, HexMap, Highlight
from wargame.ui.layout_text import LAYOUT_TEXT
from wargame.ui.model import CAMPAIGN_PLAYERS, CampaignState, and_list
from wargame.ui.store import new_seed
from wargame.ui.text import (
    LEGEND_COLOURS,
    LEGEND_LETTERS,
    LEGEND_MARKS,
    MAP_WORDS,
    PHASE_HELP,
    PHASE_WORDS,
    RESULT_WORDS,
    SIDE_WORDS,
    STATUS_WORDS,
    UI,
    UNIT_TYPE_WORDS,
    WORDS,
    nation_word,
    player_word,
    result_words,
    type_letter,
)
from wargame.ui.upload import SaveInput, tell_store

__all__ = ["CampaignDashboard", "UnitCard", "ReinforcementPanel", "AttackPanel",
           "DecisionPanel", "TurnPanel", "LogPanel", "HistoryPanel"]

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
"""


NOTEBOOK_MAP_HEIGHT = 600


def _served() -> bool:
    """True inside a ``panel serve`` session (a browser window to fill), False in a notebook."""
    doc = pn.state.curdoc
    return doc is not None and getattr(doc, "session_context", None) is not None


def status_words(status: str) -> str:
    """``"on_map (reduced)"`` -> "on the map (reduced)"."""
    head, _, rest = status.partition(" ")
    return STATUS_WORDS.get(head, head.replace("_", " ")) + (f" {rest}" if rest else "")


def _esc(x: Any) -> str:
    return html.escape(str(x))


def _box(inner: str, cls: str = "") -> str:
    return f'<style>{CSS}</style><div class="wg-box {cls}">{inner}</div>'


class _View(pn.viewable.Viewer):
    """A view of the store: ``refresh`` runs when one of ``fields`` (store fields) changed."""

    model = param.ClassSelector(class_=CampaignState)
    fields: ClassVar[tuple[str, ...]] = ()

    def __init__(self, model: CampaignState, **params: Any) -> None:
        super().__init__(model=model, **params)
        self._updating = False

    def refresh(self) -> None:  # pragma: no cover - overridden
        pass


class MessageBar(_View):
    fields = ("message", "error", "phase")

    def __init__(self, model: CampaignState, **params: Any) -> None:
        super().__init__(model, **params)
        self.pane = pn.pane.HTML("", sizing_mode="stretch_width", min_height=24)

    def refresh(self) -> None:
        m = self.model
        cls = "wg-error" if m.error else "wg-ok"
        text = m.message or PHASE_HELP.get(m.s.phase.value, "")
        self.pane.object = _box(f'<div class="wg-message {cls}">{_esc(text)}</div>')

    def __panel__(self):
        return self.pane


class UnitCard(_View):
    """The selected unit and the rest of its stack."""

    fields = ("state", "selected_unit", "reinforcement", "hide_enemy")

    def __init__(self, model: CampaignState, **params: Any) -> None:
        super().__init__(model, **params)
        self.pane = pn.pane.HTML("", width=SIDE_W)
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
            self.pane.object = _box(f"<h4>{_esc(WORDS['unit'])}</h4>{_esc(UI['no_unit'])}")
            return
        c = m.unit_card(uid)
        rows = [
            (WORDS["card.name"], c["name"]),
            (WORDS["card.type"], UNIT_TYPE_WORDS.get(c["type"], c["type"].replace("_", " "))),
            (WORDS["card.nation"],
             f"{nation_word(c['nation'])} / {SIDE_WORDS.get(c['side'], c['side'])}"),
            (WORDS["card.division"], c["division"]),
            (WORDS["card.adm"], f"{c['attack']}-{c['defence']}-{c['movement']}"),
            (WORDS["card.status"], status_words(c["status"])),
            (WORDS["card.hex"], place_name(m.s, c["hex"]) if c["hex"] else "-"),
        ]
        if c["range"]:
            rows.append((WORDS["card.range"], c["range"]))
        if c["mp_left"] is not None and m.s.phase.is_movement and m.s.side_of(uid) == m.side:
            rows.append((WORDS["card.mp_left"], c["mp_left"]))
        if c["engaged"]:
            rows.append((WORDS["card.engaged"], WORDS["card.engaged_yes"]))
        body = "".join(f"<tr><th>{_esc(k)}</th><td>{_esc(v)}</td></tr>" for k, v in rows)
        stack = ""
        us = m.s.units[uid]
        if us.hex is not None:
            others = [u for u in m.s.units_at(us.hex) if u != uid]
            if others:
                names = ", ".join(_esc(unit_designation(m.game.units[u].name)) for u in others)
                stack = f"<div>{WORDS['also_in'].format(hex=us.hex.id, units=names)}</div>"
        self.pane.object = _box(f'<h4>{_esc(WORDS["unit"])}</h4><table class="wg-unit">{body}'
                                f'</table>{stack}')

    def __panel__(self):
        return pn.Column(self.pane, self.deselect)


class ReinforcementPanel(_View):
    """Units that may enter this turn, grouped by the turn they arrived and where they enter
    (issue 28: about 25 buttons at Normandy's turn 1), each group collapsed, under a line
    saying what to do: open a group, pick a unit, then click a highlighted entry hex."""

    fields = ("state", "reinforcement")

    def __init__(self, model: CampaignState, **params: Any) -> None:
        super().__init__(model, **params)
        self.info = pn.pane.HTML("", width=SIDE_W)
        self.help = pn.pane.HTML("", width=SIDE_W, visible=False)
        self.groups = pn.Column(width=SIDE_W, css_classes=["wg-reinforcement-groups"])
        self._choices: dict[tuple[int, str], pn.widgets.RadioButtonGroup] = {}
        self._cards: dict[tuple[int, str], pn.Card] = {}
        self._shape: list[tuple[tuple[int, str], tuple[str, ...]]] = []

    @property
    def choice(self) -> pn.widgets.RadioButtonGroup | None:
        """The group holding the picked unit (else the first group); None without any."""
        for group in self._choices.values():
            if group.value is not None:
                return group
        return next(iter(self._choices.values()), None)

    def _picked(self, event: param.parameterized.Event) -> None:
        if self._updating or event.new is None:
            return
        self.model.pick_reinforcement(event.new)

    def grouped(self) -> list[tuple[tuple[int, str], list[str]]]:
        """(turn it arrived, where it enters) -> the waiting units, in turn and place order.
        The place is the name of the first entry hex that has one (else its number)."""
        m = self.model
        s = m.s
        groups: dict[tuple[int, str], list[str]] = {}
        for u in m.waiting_units():
            entries = sorted(s.entry_hexes(u), key=lambda h: h.id)
            names = [m.game.board.name_in(m.game.board.hexes[h].name) for h in entries
                     if h in m.game.board.hexes and m.game.board.hexes[h].name]
            place = names[0] if names else (entries[0].id if entries else "?")
            turn = s.units[u].available if s.units[u].available is not None else s.turn
            groups.setdefault((int(turn), place), []).append(u)
        return sorted(groups.items())

    def refresh(self) -> None:
        m = self.model
        groups = self.grouped()
        shape = [(key, tuple(units)) for key, units in groups]
        self._updating = True
        try:
            if shape != self._shape:  # rebuilt only when the waiting units change
                self._shape = shape
                self._choices, self._cards = {}, {}
                cards = []
                for key, units in groups:
                    turn, place = key
                    title = (LAYOUT_TEXT["group_one"] if len(units) == 1
                             else LAYOUT_TEXT["group_many"]).format(turn=turn, place=place,
                                                                    n=len(units))
                    opts = {f"{unit_designation(m.game.units[u].name)} ({type_letter(m.game.units[u].type)})": u
                            for u in units}
                    group = pn.widgets.RadioButtonGroup(options=opts, value=None, color="light",
                                                        orientation="vertical",
                                                        width=SIDE_W - 40)
                    group.param.watch(self._picked, "value")
                    card = pn.Card(group, title=title, collapsed=True, width=SIDE_W - 10,
                                   css_classes=["wg-reinforcement-group"])
                    self._choices[key], self._cards[key] = group, card
                    cards.append(card)
                self.groups.objects = cards
            for key, group in self._choices.items():
                value = m.reinforcement if m.reinforcement in group.options.values() else None
                if group.value != value:
                    group.value = value
                if value is not None:
                    self._cards[key].collapsed = False
        finally:
            self._updating = False
        upcoming = m.upcoming_units()[:8]
        later = ", ".join(_esc(WORDS["later_unit"].format(unit=unit_designation(m.game.units[u].name), turn=t))
                          for t, u in upcoming)
        text = "" if groups else _esc(UI["no_reinforcements"])
        if later:
            text += f"<div class='wg-rule'>{_esc(WORDS['later'])} {later}</div>"
        self.info.object = _box(f"<h4>{_esc(WORDS['reinforcements'])}</h4>{text}")
        self.help.object = _box(
            f"<div class='wg-reinforcements-help'>{_esc(LAYOUT_TEXT['reinforcements_help'])}"
            "</div>")
        self.help.visible = self.groups.visible = bool(groups)

    def __panel__(self):
        return pn.Column(self.info, self.help, self.groups, width=SIDE_W,
                         css_classes=["wg-reinforcements"])


class AttackPanel(_View):
    """Plan an attack: attackers, artillery, air points; odds, shifts and the exact
    distribution of results before rolling."""

    fields = ("state", "log", "attack_target", "attack_units", "attack_artillery", "attack_air",
              "hide_enemy", "student")

    def __init__(self, model: CampaignState, **params: Any) -> None:
        super().__init__(model, **params)
        self.header = pn.pane.HTML("", width=SIDE_W)
        self.attackers = pn.widgets.CheckBoxGroup(label=WORDS["attackers"], options={}, inline=False)
        self.artillery = pn.widgets.CheckBoxGroup(label=WORDS["artillery"], options={}, inline=False)
        self.air = pn.widgets.IntSlider(label=WORDS["air_points"], start=0, end=10, value=0,
                                        width=SIDE_W - 40)
        self.preview = pn.pane.HTML("", width=SIDE_W)
        self.roll = pn.widgets.Button(label=WORDS["roll"], color="danger",
                                      width=125)
        self.bomb_arty = pn.widgets.Button(label=WORDS["artillery_only"], width=125,
                                           description=UI["bombard_arty_help"])
        self.bomb_air = pn.widgets.Button(label=WORDS["air_only"], width=125,
                                          description=UI["bombard_air_help"])
        self.result = pn.pane.HTML("", width=SIDE_W)
        # issue 19: the air-point optimiser's suggestion, one button that applies it (its
        # label gives the gain, its tooltip the whole explanation: the panel must stay short
        # enough for a 720-pixel projector)
        self.use_air = pn.widgets.Button(label="", width=SIDE_W - 40, visible=False,
                                         css_classes=["wg-air-suggestion"])
        self.use_air.on_click(lambda e: self._use_suggestion())
        self.source = ColumnDataSource(dict(result=[], p=[], words=[], frac=[]),
                                       name="distribution-source")
        fig = figure(x_range=FactorRange(factors=[]), height=100, width=SIDE_W - 10,
                     toolbar_location=None, tools="", name="distribution",
                     y_axis_label=WORDS["probability"])
        fig.vbar(x="result", top="p", width=0.8, source=self.source, color="#6a8caf")
        fig.add_tools(HoverTool(tooltips=[(WORDS["result"], "@words"),
                                          (WORDS["probability"], "@frac")]))
        fig.y_range.start = 0
        fig.xaxis.major_label_orientation = 0.6
        self.chart = fig
        self.chart_pane = pn.pane.Bokeh(fig, visible=False)  # no empty box (issue 28)
        self._last_result: tuple[str, int] = ("", -1)
        self._dismissed: tuple[str, int] | None = None
        self._result_target: str | None = None
        self.attackers.param.watch(self._units, "value")
        self.artillery.param.watch(self._arty, "value")
        self.air.param.watch(self._air, "value")
        self.roll.on_click(lambda e: self.model.declare_attack())
        self.bomb_arty.on_click(lambda e: self.model.bombard(air=False))
        self.bomb_air.on_click(lambda e: self.model.bombard(air=True))
        self.arty_title = pn.pane.HTML(_box(f"<b>{_esc(WORDS['artillery_in_range'])}</b>"), margin=(0, 5))
        self._controls = pn.Column(
            pn.pane.HTML(_box(f"<b>{_esc(WORDS['attacking_units'])}</b>"), margin=(0, 5)), self.attackers,
            self.arty_title, self.artillery,
            self.air, self.use_air, self.preview, self.chart_pane,
            pn.Row(self.roll, self.bomb_arty, self.bomb_air), width=SIDE_W)

    def _units(self, event) -> None:
        if not self._updating:
            self.model.attack_units = list(event.new)

    def _arty(self, event) -> None:
        if not self._updating:
            self.model.attack_artillery = list(event.new)

    def _air(self, event) -> None:
        if not self._updating:
            self.model.attack_air = int(event.new)

    def _label(self, uid: str) -> str:
        m = self.model
        d = m.game.units[uid]
        return WORDS["attacker_label"].format(unit=unit_designation(d.name), attack=m.shown_attack(uid),
                                              hex=m.s.units[uid].hex.id)

    def refresh(self) -> None:
        m = self.model
        s = m.s
        target = m.attack_target
        active = target is not None and s.phase.is_combat and s.pending is None
        self._controls.visible = active
        # the last roll's result stays under the target it was rolled on: another target
        # clears it (issue 28: the previous attack's dice showed under a new target)
        text = m.result_text()
        events = m.s.events
        key = (text, next((i for i in range(len(events) - 1, -1, -1)
                           if events[i].kind == "roll"), -1))
        if key != self._last_result:  # a new roll: shown under the target it was rolled on
            self._last_result, self._result_target = key, target
        if target is not None and target != self._result_target:
            self._dismissed = key  # another target chosen: this roll is no longer news
        shown = text if text and key != self._dismissed else ""
        self.result.object = _box(_esc(shown)) if shown else ""
        if not active:
            text = UI["no_target"] if s.phase.is_combat else WORDS["attacks_in_combat"]
            self.header.object = _box(f"<h4>{_esc(WORDS['attack'])}</h4>{_esc(text)}")
            return
        h = Hex.from_id(target)
        defenders = s.units_at(h)
        names = ", ".join(
            _esc(unit_designation(m.game.units[u].name))
            + ("" if (v := m.values_of(u)) is None else f" ({v[1]})")
            for u in defenders)
        info = m.game.board.hexes[h]
        self.header.object = _box(
            f"<h4>{_esc(WORDS['attack_on'].format(target=place_name(s, target)))}</h4>"
            f"{WORDS['defenders'].format(units=names, terrain=_esc(terrain_name(info.terrain)))}")
        eligible = m.eligible_attackers()
        arty = m.artillery_options()
        amax = m.air_max()
        self._updating = True
        try:
            opts = {self._label(u): u for u in eligible}
            if self.attackers.options != opts:
                self.attackers.options = opts
            if self.attackers.value != m.attack_units:
                self.attackers.value = list(m.attack_units)
            aopts = {self._label(u): u for u in arty}
            if self.artillery.options != aopts:
                self.artillery.options = aopts
            if self.artillery.value != m.attack_artillery:
                self.artillery.value = list(m.attack_artillery)
            self.arty_title.visible = self.artillery.visible = bool(aopts)
            self.air.end = max(1, amax)
            self.air.value = min(m.attack_air, amax)
            self.air.disabled = amax == 0
            # what would be left after this attack, as the slider moves (issue 28)
            self.air.label = LAYOUT_TEXT["air_planned_left"].format(
                max=amax, left=max(0, s.air_points.get(m.side, 0) - min(m.attack_air, amax)))
            # issue 15: buttons for what cannot be done are disabled
            self.bomb_air.disabled = amax == 0 or m.attack_air == 0
            self.bomb_arty.disabled = not m.attack_artillery
            self.roll.disabled = not m.attack_units
            # issue 15: the odds of a bombardment before it is fired (on the buttons' tips)
            self.bomb_arty.description = self._bombard_odds(False) or UI["bombard_arty_help"]
            self.bomb_air.description = self._bombard_odds(True) or UI["bombard_air_help"]
        finally:
            self._updating = False
        self._preview()
        self._show_suggestion()

    def _show_suggestion(self) -> None:
        try:
            tip = self.model.air_suggestion()
        except Exception:  # noqa: BLE001 - a hint: the engine judges the attack itself
            tip = None
        self._tip = tip
        if tip is None or tip["air"] == self.model.attack_air:
            self.use_air.visible = False
            return
        self.use_air.label = UI["air_use"].format(**tip)
        self.use_air.description = UI["air_suggestion"].format(**tip)
        self.use_air.visible = True

    def _use_suggestion(self) -> None:
        tip = getattr(self, "_tip", None)
        if tip is not None:
            self.model.attack_air = int(tip["air"])

    def _bombard_odds(self, air: bool) -> str:
        m = self.model
        if any(m.hidden(u) for u in m.s.units_at(Hex.from_id(m.attack_target))):
            return ""
        try:
            b = m.bombard_preview(air)
        except Exception:  # noqa: BLE001 - a hint on a button; the engine decides on click
            return ""
        if b is None or b.column_label is None:
            return ""
        dist = sorted(b.distribution.items(), key=lambda kv: -kv[1])
        odds = ", ".join(f"{r} {float(p):.0%}" for r, p in dist[:4])
        return UI["bombard_odds"].format(
            what=UI["bombard_air"] if air else UI["bombard_arty"], value=b.value,
            column=b.column_label, odds=odds)

    def _defence_answer(self, hidden: bool) -> str:
        """The defender's possible answer to the planned attack (CN/OD 5.1.1, 8.0), with the
        odds it would leave unless the enemy's values are hidden (5.1.1)."""
        got = self.model.defence_answer()
        if got is None:
            return ""
        parts = []
        if got["artillery"]:
            parts.append(WORDS["answer_artillery"].format(units=", ".join(got["artillery"])))
        if got["air"]:
            parts.append(WORDS["answer_air"].format(n=got["air"]))
        answer = _esc(and_list(parts))
        rule = "" if self.model.as_viewer().student else got["rule"]  # issue #28
        if hidden:
            text = WORDS["defence_answer_hidden"].format(rule=_esc(rule), answer=answer)
        else:
            a = got["assessment"]
            text = WORDS["defence_answer"].format(rule=_esc(rule), answer=answer,
                                                  ratio=_esc(a.ratio), column=_esc(a.column_label))
        text = text.replace(" ()", "")  # a student page cites no rule
        return f'<div class="wg-defence-answer">{text}</div>'

    def _preview(self) -> None:
        m = self.model
        a = m.preview()
        student = m.as_viewer().student  # issue #28: sentences, no rule numbers
        hidden = any(m.hidden(u) for u in m.s.units_at(Hex.from_id(m.attack_target)))
        if a is None:
            self.preview.object = _box(_esc(WORDS["pick_attackers"]))
            self.source.data = dict(result=[], p=[], words=[], frac=[])
            self.chart.x_range.factors = []
            self.chart_pane.visible = False
            return
        shifts = "".join(
            f"<tr><td>{_esc(shift_reason(sh.reason))}</td><td>{sh.columns:+d}</td>"
            f"<td class='wg-rule'>{'' if student else _esc(sh.rule)}</td></tr>"
            for sh in a.shifts) or \
            f"<tr><td colspan=3>{_esc(WORDS['no_shifts'])}</td></tr>"
        answer = self._defence_answer(hidden)
        if hidden:
            odds = _esc(WORDS["odds_hidden"].format(attack=a.attack, air=a.attack_air,
                                                    hidden=without_rules(UI["hidden"],
                                                                         m.as_viewer())))
            # the hidden values said in words, not an empty chart (issue 28)
            self.preview.object = _box(
                f'<div class="wg-odds">{odds}</div>{answer}<div class="wg-hidden-note">'
                f'{_esc(LAYOUT_TEXT["hidden_values"])}</div>')
            self.source.data = dict(result=[], p=[], words=[], frac=[])
            self.chart.x_range.factors = []
            self.chart_pane.visible = False
            return
        odds = '<div class="wg-odds">' + WORDS["odds"].format(
            attack=a.attack, air=a.attack_air, defence=a.defence, ratio=_esc(a.ratio),
            base=_esc(m.game.tables.crt_columns[a.base_column]), shift=a.net_shift,
            column=_esc(a.column_label)) + "</div>" + answer
        if student:
            odds = glossed_html(odds) + student_odds(m.s, a.column_label)
        dist = sorted(a.distribution.items(), key=lambda kv: -kv[1])
        rows = "".join(
            f"<tr><td>{_esc(r)}</td><td>{_esc(p)} = {float(p):.1%}</td>"
            f"<td class='wg-rule'>{_esc(result_sentence(r) if student else result_words(r).split(': ', 1)[1])}</td></tr>"
            for r, p in dist)
        self.preview.object = _box(
            f"{odds}<table class='wg-shifts'><tr><th>{_esc(WORDS['shift'])}</th>"
            f"<th>{_esc(WORDS['columns'])}</th><th>{_esc(WORDS['rule'])}</th></tr>"
            f"{shifts}</table>"
            f"<details><summary>{_esc(WORDS['results_in_words'])}</summary>"
            f"<table class='wg-dist'><tr><th>{_esc(WORDS['result'])}</th>"
            f"<th>{_esc(WORDS['probability'])}</th><th></th></tr>{rows}</table></details>")
        results = [r for r, _ in dist]
        self.chart_pane.visible = bool(results)
        self.chart.x_range.factors = results
        self.source.data = dict(
            result=results, p=[float(p) for _, p in dist],
            words=[result_words(r) for r in results], frac=[str(p) for _, p in dist])

    def __panel__(self):
        # never taller than the window (a notebook cell, a 720-px seat): it scrolls instead,
        # its Roll button first (issue 28: the student sentences made it longer)
        return pn.Column(self.header, self._controls, self.result, width=SIDE_W,
                         styles={"max-height": "calc(100vh - 120px)", "overflow-y": "auto"},
                         css_classes=["wg-attack-panel"])


class DecisionPanel(_View):
    """The pending decision: losses, retreat (also clickable on the map), advance, EMP,
    defence declaration; "Auto" answers with the engine's auto_answer."""

    fields = ("pending", "student")

    def __init__(self, model: CampaignState, **params: Any) -> None:
        super().__init__(model, **params)
        self.info = pn.pane.HTML("", width=SIDE_W)
        self.options = pn.widgets.RadioBoxGroup(options={}, inline=False)
        self.confirm = pn.widgets.Button(label=WORDS["confirm"], color="primary", width=120)
        self.auto = pn.widgets.Button(label=WORDS["auto"], color="default", width=120)
        self.confirm.on_click(self._confirm)
        self.auto.on_click(lambda e: self.model.auto())
        self._controls = pn.Column(self.options, pn.Row(self.confirm, self.auto))

    def _confirm(self, event) -> None:
        value = self.options.value
        if value is not None:
            self.model.answer(int(value))

    def refresh(self) -> None:
        m = self.model
        d = m.s.pending
        if d is None:
            self.info.object = _box(f"<h4>{_esc(WORDS['decision'])}</h4>"
                                    f"{_esc(UI['no_decision'])}")
            self._controls.visible = False
            return
        extra = " " + _esc(WORDS["click_purple"]) if m.retreat_targets() else ""
        answers = m.attack_being_answered()
        answers = f"<div class='wg-answers'>{_esc(answers)}</div>" if answers else ""
        self.info.object = _box(
            f"<h4>{_esc(WORDS['decision_for'].format(side=SIDE_WORDS.get(d.side, d.side)))}</h4>"
            f"{answers}<div class='wg-decision'>"
            f"{_esc(decision_prompt(d))} "
            f"{'' if m.as_viewer().student else f'<span class=wg-rule>({_esc(d.rule)})</span>'}"
            f"{extra}</div>")
        opts = {label: i for i, (label, _) in enumerate(m.decision_options())}
        self._updating = True
        try:
            self.options.options = opts
            self.options.value = 0 if opts else None
        finally:
            self._updating = False
        self._controls.visible = bool(opts)  # none: another seat's decision (it only waits)

    def __panel__(self):
        return pn.Column(self.info, self._controls, width=SIDE_W,
                         css_classes=["wg-decision-panel"])


class TurnPanel(_View):
    """Turn track with dates, phase, air points, heavy bombers, victory points, and the
    game's commands (end phase, undo, save, load, new game, hidden values).

    Three parts: ``header`` (phase line, End phase, Undo, Save: always in view above the map),
    ``game_tab`` (turn track, victory points, seed, heavy bombers, hidden values) and
    ``setup_tab`` (new game with its confirm step, computer player, variants, load)."""

    fields = ("state", "computer", "attack_target")

    def __init__(self, model: CampaignState, **params: Any) -> None:
        super().__init__(model, **params)
        self.info = pn.pane.HTML("", sizing_mode="stretch_width", min_width=160)
        self.reference = pn.pane.HTML("", width=SIDE_W - 20)
        self.end = pn.widgets.Button(label=WORDS["end_phase"], color="primary", width=110)
        self.undo = pn.widgets.Button(label=WORDS["undo"], width=80)
        self.save = pn.widgets.FileDownload(callback=self._save, filename="wargame-save.json",
                                            label=WORDS["save"], color="default", width=90,
                                            embed=False)
        # checked for size before it is sent (issue #31; wargame.ui.upload)
        self.load = SaveInput(on_refused=tell_store(model), width=200)
        # an empty seed: a fresh one per new game (new_seed); a typed seed repeats a game.
        # Never the game's own seed here: in a room's seat it would reveal the dice to come.
        self.seed = pn.widgets.IntInput(label=WORDS["seed"], value=None,
                                        placeholder=UI["seed_placeholder"], width=150)
        self.new = pn.widgets.Button(label=WORDS["new_game"], width=100)
        self.really = pn.widgets.Button(label=UI["new_game_confirm"], color="danger",
                                        width=SIDE_W - 40, visible=False)
        self.cancel = pn.widgets.Button(label=UI["new_game_cancel"], width=130, visible=False)
        self.hide = pn.widgets.Toggle(label=WORDS["hide_enemy"], value=False,
                                      width=240)
        self.computer = pn.widgets.Select(
            label=WORDS["computer_plays"], value=model.computer, width=180,
            options={WORDS["computer.none"]: "none", WORDS["computer.axis"]: "axis",
                     WORDS["computer.allied"]: "allied"})
        # issue #34: the levels in plain words, the classroom's default (hard) first
        self.level = pn.widgets.Select(
            label=WORDS["computer_level"], value=model.computer_player, width=220,
            options={player_word(p): p for p in CAMPAIGN_PLAYERS})
        self.carpet_target = pn.widgets.Select(label=WORDS["carpet_centre"], options=[],
                                               width=160)
        self.carpet = pn.widgets.Button(label=WORDS["carpet_bomb"], width=110)
        self.end_warning = pn.pane.HTML("", sizing_mode="stretch_width", visible=False)
        self.end_anyway = pn.widgets.Button(label=UI["end_phase_confirm"], color="danger",
                                            visible=False)
        self.end_keep = pn.widgets.Button(label=LAYOUT_TEXT["end_phase_keep"], visible=False)
        self.end_keep.on_click(lambda e: self._hide_warning())
        self.end_overlay = pn.Column(
            self.end_warning,
            pn.Row(self.end_anyway, self.end_keep, styles={
                "background": "#fff6d8", "border-radius": "6px",
                "box-shadow": "0 4px 14px rgba(0,0,0,0.35)"}), visible=False, width=560,
            css_classes=["wg-overlay"], styles=OVERLAY_STYLES)
        self.end.on_click(lambda e: self._end_phase())
        self.end_anyway.on_click(lambda e: self._end_phase(confirmed=True))
        self.undo.on_click(lambda e: self.model.undo())
        self.new.on_click(lambda e: self._ask_new(True))
        self.cancel.on_click(lambda e: self._ask_new(False))
        self.really.on_click(lambda e: self._new_game())
        # BFN 19 variant rules, chosen for the next new game (names with title and rule)
        from wargame.operational.variants import offers_variants
        from wargame.ui.model import variant_choices

        choices = variant_choices() if offers_variants(model.game.scenario.id) else []
        self.variants = pn.widgets.MultiChoice(
            label=WORDS["variants"],
            options={f"{c['title']} ({c['rule']})": c["name"] for c in choices},
            value=[v for v in model.game.variants if v in {c["name"] for c in choices}],
            width=SIDE_W - 20, visible=bool(choices))
        self.variant_help = pn.pane.HTML(_box("<div class='wg-variant-help'>" + "".join(
            f"<div class='wg-rule'><b>{_esc(c['rule'])}</b> {_esc(c['title'])}: "
            f"{_esc(c['description'])}</div>" for c in choices) + "</div>"), width=SIDE_W - 20,
            visible=bool(choices))
        self.load.param.watch(self._load, "value")
        self.hide.param.watch(self._hide, "value")
        self.computer.param.watch(self._computer, "value")
        self.level.param.watch(self._level, "value")
        self.carpet.on_click(self._carpet)
        self._carpet_row = pn.Row(self.carpet_target, self.carpet)

    def _ask_new(self, ask: bool) -> None:
        self.really.visible = ask
        self.cancel.visible = ask

    def _new_game(self) -> None:
        self._ask_new(False)
        seed = self.seed.value if self.seed.value is not None else new_seed()
        self.model.new_game(int(seed), list(self.variants.value))

    def _end_phase(self, confirmed: bool = False) -> None:
        """End phase; when ending it now would lose units (e.g. landing units that could not
        land), the first click only warns and a second button confirms."""
        with using_language(self.model.lang):
            self._end_phase_in_language(confirmed)

    def _end_phase_in_language(self, confirmed: bool) -> None:
        losses = [] if confirmed else self.model.end_phase_losses()
        if losses:
            names = ", ".join(unit_designation(self.model.game.units[u].name) for u, _ in losses)
            why = "; ".join(sorted({w for _, w in losses}))
            self.end_warning.object = _box(
                f"<div class='wg-warning wg-error' style='{OVERLAY_LOOK}'>"
                f"{_esc(UI['end_phase_loses'].format(units=names, why=why))}</div>")
            self.end_warning.visible = self.end_anyway.visible = True
            self.end_keep.visible = self.end_overlay.visible = True
            return
        self._hide_warning()
        self.model.end_phase()

    def _hide_warning(self) -> None:
        self.end_warning.visible = self.end_anyway.visible = False
        self.end_keep.visible = self.end_overlay.visible = False

    def _save(self) -> io.StringIO:
        return io.StringIO(self.model.save_json())

    def _load(self, event) -> None:
        if event.new:
            self.model.load_json(event.new)

    def _computer(self, event) -> None:
        if not getattr(self, "_updating", False):
            self.model.computer = event.new

    def _level(self, event) -> None:
        if not getattr(self, "_updating", False):
            self.model.computer_player = event.new

    def _hide(self, event) -> None:
        self.model.hide_enemy = bool(event.new)

    def _carpet(self, event) -> None:
        if self.carpet_target.value:
            self.model.carpet_bomb(self.carpet_target.value)

    def refresh(self) -> None:
        m = self.model
        s = m.s
        scn = m.game.scenario
        track = []
        for t in range(scn.first_turn, scn.last_turn + 1):
            date = scn.turn_date(t) or ""
            cls = " class='wg-cur'" if t == s.turn else ""
            track.append(f"<td{cls} title='{_esc(date)}'>{t}<br><span class='wg-rule'>"
                         f"{_esc(date[5:] if date else '')}</span></td>")
        vp = s.victory_points()
        carpet = m.game.rule("carpet_bombing")
        bombers = "<br>" + _esc(without_rules(WORDS["heavy_bombers"].format(
            used=len(s.carpet_turns), uses=carpet["uses"], turn=carpet["from_turn"]),
            m.as_viewer())) if carpet else ""
        lines = "".join(f"<tr><td>{_esc(side_name(side))}</td><td>{_esc(victory_line(what))}</td>"
                        f"<td>{pts}</td></tr>"
                        for side, what, pts in vp["lines"] if pts)
        date = scn.turn_date(s.turn)
        self.info.object = _box(
            "<div class='wg-phase'>" + WORDS["turn_line"].format(
                turn=s.turn, date=f" ({_esc(format_day(date))})" if date else "",
                phase=_esc(PHASE_WORDS[s.phase.value]))
            + " <span class='wg-rule'>" + _esc(WORDS["turn_points"].format(
                air_allied=s.air_points.get("allied", 0), air_axis=s.air_points.get("axis", 0),
                vp_allied=vp["allied"], vp_axis=vp["axis"])) + "</span></div>")
        self.reference.object = _box(
            f"<h4>{_esc(scn.title_in(m.lang))}</h4>"
            f"<div style='overflow-x:auto;max-width:{SIDE_W - 30}px'><table class='wg-track'>"
            f"<tr>{''.join(track)}</tr></table></div>"
            + _esc(WORDS["air_left"].format(allied=s.air_points.get("allied", 0),
                                            axis=s.air_points.get("axis", 0)))
            + f"{bombers}<div class='wg-vp'>"
            + WORDS["vp_now"].format(allied=vp["allied"], axis=vp["axis"])
            + f"</div><table>{lines}</table><div class='wg-rule'>{_esc(m.seed_label())}"
            + _esc(WORDS["actions"].format(n=len(s.action_log))) + "</div>")
        targets = [h.id for h in s.carpet_targets()]
        self._updating = True
        try:
            if self.carpet_target.options != targets:
                self.carpet_target.options = targets
            if self.computer.value != m.computer:
                self.computer.value = m.computer
            if self.level.value != m.computer_player:
                self.level.value = m.computer_player
        finally:
            self._updating = False
        self._carpet_row.visible = bool(targets) and m.plans_for_viewer()
        self.end.disabled = s.is_terminal
        self.end.visible = m.plans_for_viewer()  # a seat waiting for the other side
        self._hide_warning()

    def header(self) -> pn.viewable.Viewable:
        """The phase line with the commands this page's viewer can use (issue #27): the game's
        owner End phase, Undo and Save; a room's player seat End phase only (the room keeps
        the one log; the teacher exports it); the teacher none."""
        viewer = self.model.as_viewer()
        commands = ([self.end] if viewer.acts else []) + (
            [self.undo, self.save] if viewer.may_save else [])
        return pn.Column(
            pn.Row(self.info, *commands, sizing_mode="stretch_width",
                   styles={"flex-wrap": "wrap"}, stylesheets=[SHRINK_CSS]),
            *([self.end_overlay] if viewer.acts else []),
            sizing_mode="stretch_width", styles={"position": "relative", "z-index": "40"},
            stylesheets=[SHRINK_CSS])

    def game_tab(self) -> pn.viewable.Viewable:
        """The turn track and scores; carpet bombing for who may act; the hidden-values
        switch on a hot-seat screen only (a seat never sees the enemy's values anyway)."""
        viewer = self.model.as_viewer()
        return pn.Column(self.reference, *([self._carpet_row] if viewer.acts else []),
                         *([self.hide] if viewer.may_save else []), width=SIDE_W - 10)

    def setup_tab(self) -> pn.viewable.Viewable:
        return pn.Column(
            pn.Row(self.seed, self.new), self.really, self.cancel,
            self.computer,
            self.level,
            self.variants,
            pn.Card(self.variant_help, title=WORDS["about_variants"], collapsed=True,
                    width=SIDE_W - 20, visible=self.variants.visible),
            pn.Row(pn.pane.HTML(_box(_esc(WORDS["load"]))), self.load),
            width=SIDE_W - 10,
        )

    def __panel__(self):
        return pn.Column(self.header(), self.game_tab(), self.setup_tab(), width=SIDE_W)


class LogPanel(_View):
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
        say = glossed if self.model.in_student_words() else _esc  # issue #28: hover glossary
        rows = "".join(
            f"<li>{say(text)} <span class='wg-rule'>{_esc(rule)}</span></li>"
            for text, rule in reversed(self.model.log_lines(150)))
        self.pane.object = _box(f"<h4>{_esc(WORDS['event_log'])}</h4>"
                                f"<ul class='wg-log'>{rows}</ul>")

    def __panel__(self):
        return self.pane


class HistoryPanel(_View):
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
            self.pane.object = _box(f"<h4>{_esc(WORDS['history'])}</h4>"
                                    f"{_esc(UI['no_history'])}")
            self.overlay.visible = False
            return
        entry = m.history_entry()
        if entry is None:
            self.pane.object = _box(f"<h4>{_esc(WORDS['history'])}</h4>"
                                    f"{_esc(WORDS['no_entry'].format(turn=m.s.turn))}")
            return
        entry = entry.in_language(m.lang)  # history.pt.yaml (wargame/localized.py)
        cities = ", ".join(_esc(c) for c in entry.allied_cities) or _esc(WORDS["none"])
        if entry.allied_hexes:
            cities += " " + _esc(WORDS["in_part"].format(
                hexes=", ".join(entry.allied_hexes)))
        title = f"{_esc(entry.title)}, " if entry.title else ""
        events = "".join(f"<li><b>{_esc(d)}</b>: {_esc(t)}</li>" for d, t in entry.events)
        self.pane.object = _box(
            f"<h4>{_esc(WORDS['history'])}: {title}{_esc(entry.dates)}</h4>"
            f"<div class='wg-history-text'>{_esc(entry.text)}</div>"
            + (f"<ul class='wg-log'>{events}</ul>" if events else "")
            + f"<div class='wg-rule'>{_esc(WORDS['allied_cities'])} {cities}</div>")

    def __panel__(self):
        return pn.Column(self.pane, self.overlay, width=SIDE_W)


def legend_html() -> str:
    """Letters, colours and marks of the map, in words (the Legend tab)."""
    letters = "".join(f"<tr><td><b>{_esc(k)}</b></td><td>{_esc(v)}</td></tr>"
                      for k, v in LEGEND_LETTERS)
    colours = "".join(
        f"<tr><td><span style='display:inline-block;width:18px;height:12px;"
        f"background:{c};border:1px solid #333'></span></td><td>{_esc(n)}</td></tr>"
        for n, c in LEGEND_COLOURS)
    marks = "".join(f"<tr><td>{_esc(k)}</td><td>{_esc(v)}</td></tr>" for k, v in LEGEND_MARKS)
    return _box(f"<h4>{_esc(WORDS['counters'])}</h4><table>{letters}</table>"
                f"<h4>{_esc(WORDS['colours'])}</h4><table>{colours}</table>"
                f"<h4>{_esc(WORDS['marks'])}</h4><table>{marks}</table>")


# the store fields the map's counters and highlights show
COUNTER_FIELDS = ("state", "selected_unit", "hide_enemy")
HIGHLIGHT_FIELDS = ("state", "selected_unit", "selected_hex", "reinforcement", "attack_target",
                    "attack_units", "attack_artillery", "history_overlay")


class CampaignDashboard(pn.viewable.Viewer):
    """The whole campaign dashboard for a scenario id, Scenario or Game."""

    def __init__(self, game_or_scenario_id: Game | Scenario | str = "normandy", seed: int = 1944,
                 variants: tuple[str, ...] | list[str] = (), computer: str = "none",
                 model: CampaignState | None = None, lang: str | None = None,
                 fill_window: bool | None = None, **params: Any) -> None:
        super().__init__(**params)
        # ``fill_window``: the map fills the browser window's height (served) or a notebook
        # cell's width at NOTEBOOK_MAP_HEIGHT (False); None: served when in a served session
        self._fill_window = fill_window
        # ``model``: a store made elsewhere (a room's seat, wargame.ui.seats); ``lang``: the
        # language of the texts (default: the store's; wargame.ui.store, module doc)
        if model is None:
            model = CampaignState(game_or_scenario_id, seed=seed, variants=variants,
                                  computer=computer, lang=lang)
        elif lang:
            model.lang = check_language(lang)
        self.model = model
        with using_language(model.lang):
            self._build()

    @property
    def lang(self) -> str:
        """The language of this dashboard's texts (its store's)."""
        return self.model.lang

    def _build(self) -> None:
        # served: the map fills the window's height too; in a notebook cell (no height to
        # fill) it fills the width at NOTEBOOK_MAP_HEIGHT
        self.served = _served() if self._fill_window is None else bool(self._fill_window)
        self.map = HexMap.from_board(self.model.game.board, Layout("flattop", 1.0),
                                     priorities=label_priorities(self.model.game),
                                     stretch="both" if self.served else "width",
                                     height=None if self.served else NOTEBOOK_MAP_HEIGHT)
        self.map.on_click = self._clicked
        self.message = MessageBar(self.model)
        self.unit_card = UnitCard(self.model)
        self.reinforcements = ReinforcementPanel(self.model)
        self.attack = AttackPanel(self.model)
        self.decision = DecisionPanel(self.model)
        self.turn = TurnPanel(self.model)
        self.log = LogPanel(self.model)
        self.history = HistoryPanel(self.model)
        self.views = [self.message, self.unit_card, self.reinforcements, self.attack,
                      self.decision, self.turn, self.log, self.history]
        watched = set(COUNTER_FIELDS) | set(HIGHLIGHT_FIELDS)
        for v in self.views:
            watched |= set(v.fields)
        self.model.param.watch(self._changed, sorted(watched))
        self.refresh()
        self.map.on_escape = self.model.deselect
        self._layout = self._build_layout()

    def _clicked(self, hex_id: str) -> None:
        """A click on the map. On a sea hex where a landing stack is drawn (off its beach,
        ``_offshore``) it selects that stack's unit (the next one on a second click), with a
        message saying it is at sea and where it lands (issue 28: the click selected an empty
        sea hex and said nothing)."""
        m = self.model
        beach = self.drawn_at_sea().get(hex_id)
        if beach is None or m.s.pending is not None or m.reinforcement:
            m.select_hex(hex_id)
            return
        stack = m.at_sea()[beach]
        uid = m._next_in_stack(stack)
        with using_language(m.lang), hold():
            if m.plans_for_viewer() and m.s.phase.is_movement and m.s.side_of(uid) == m.side:
                m.select_unit(uid)  # its reach drawn, as for a unit on land
            else:
                m.selected_unit = uid
                m.selected_hex = beach.id
            m.say(LAYOUT_TEXT["at_sea_selected"].format(unit=m.game.units[uid].name,
                                                       place=place_name(m.s, beach)))

    def drawn_at_sea(self) -> dict[str, Hex]:
        """Sea hex id -> the beach hex of the landing stack drawn in it."""
        lay = self.map.layout
        out: dict[str, Hex] = {}
        for h in self.model.at_sea():
            x, y = self._offshore(h)
            out.setdefault(lay.from_xy(x, y).id, h)
        return out

    def _build_layout(self) -> pn.viewable.Viewable:
        """Map left (filling the width and the window's height), the panel you act in right
        of it, at the top, switching with the phase (``_arrange``); reference material in
        tabs below it; the log under the map."""
        viewer = self.model.as_viewer()
        self._act = {"decision": self.decision.__panel__(), "attack": self.attack.__panel__(),
                     "unit": self.unit_card.__panel__(),
                     "reinforcements": self.reinforcements.__panel__()}
        if not viewer.acts:  # the teacher: no decision, attack or entry controls (issue #27)
            self._act = {"unit": self._act["unit"]}
        self.action_area = pn.Column(*self._act.values(), width=SIDE_W,
                                     css_classes=["wg-action"])
        self.must_attack = pn.pane.HTML("", width=SIDE_W, visible=False)
        setup = [(WORDS["tab.new_game"], self.turn.setup_tab())] if viewer.may_save else []
        self.reference = pn.Tabs(
            (WORDS["tab.game"], self.turn.game_tab()), (WORDS["tab.log"], self.log.__panel__()),
            *setup,
            (WORDS["tab.history"], self.history.__panel__()),
            (WORDS["tab.legend"], pn.pane.HTML(legend_html(), width=SIDE_W - 20)),
            width=SIDE_W, dynamic=False, css_classes=["wg-reference"])
        # the map takes the height the message bar and the phase line leave (the page's
        # column is the window's height when served; MAP_HEIGHT_CSS in a notebook cell)
        # (not grown by the row's flex layout to the side column's height: issue 28)
        map_box = pn.Column(self.map, sizing_mode="stretch_width", styles={
            "height": MAP_HEIGHT_CSS, "min-height": "340px", "flex": "0 0 auto"}
            if self.served else {})
        left = pn.Column(self.message, self.turn.header(), map_box,
                         sizing_mode="stretch_width", stylesheets=[SHRINK_CSS],
                         styles={"flex": "1 1 360px"})
        side = pn.Column(self.action_area, self.must_attack, self.reference,
                         width=SIDE_W + 10, styles=SIDE_STYLES)
        self._arrange()
        # narrower than map + side (a notebook cell of 430-900 px): the side panel wraps under
        # the map instead of being cut (issue 28)
        return pn.Row(left, side, sizing_mode="stretch_width", css_classes=["wg-dashboard"],
                      styles={"flex-wrap": "wrap"}, stylesheets=[SHRINK_CSS])

    def _arrange(self) -> None:
        """Show in the action area what the phase needs: the decision when one is pending;
        the attack planner in a combat phase; the unit card and the reinforcements in a
        movement phase; and the units that must still attack, marked on the map too."""
        act = getattr(self, "_act", None)
        if act is None:
            return
        m = self.model
        s = m.s
        pending = s.pending is not None
        if "decision" not in act:  # the teacher's page: the unit card only
            act["unit"].visible = True
        else:
            act["decision"].visible = pending
            act["attack"].visible = not pending and s.phase.is_combat
            act["unit"].visible = not pending and not (s.phase.is_combat and m.attack_target)
            act["reinforcements"].visible = not pending and s.phase.is_movement
        must = m.must_attack_units()
        if must:
            names = ", ".join(_esc(unit_designation(m.game.units[u].name)) for u in must)
            self.must_attack.object = _box(
                f"<details class='wg-must-attack'><summary class='wg-error'>"
                f"{_esc(UI['must_attack'].format(n=len(must)))}</summary>{names}</details>")
        self.must_attack.visible = bool(must)
        if pending:
            self.map.show_hexes([Hex.from_id(h) for h in m.retreat_targets()])

    # ------------------------------------------------------------------ map rendering
    def counters(self) -> list[Counter]:
        m = self.model
        s = m.s
        must = set(m.must_attack_units())
        out = []

        def counter(h: Hex, uids: list[str], at: tuple[float, float] | None = None,
                    mark: str = "") -> Counter:
            top = m.selected_unit if m.selected_unit in uids else uids[0]
            d = m.game.units[top]
            us = s.units[top]
            seen = m.values_of(top)  # from the session's view (issue #27)
            values = "?-?-?" if seen is None else f"{seen[0]}-{seen[1]}-{d.movement}"
            if not mark and any(u in must for u in uids):
                mark = "must_attack"
            titles = tuple(self._stack_title(u) for u in uids)
            return Counter(h, top, type_letter(d.type), values,
                           NATION_COLOURS.get(d.nation, "#cccccc"), us.reduced, len(uids),
                           d.side, d.name, at=at, mark=mark, stack_titles=titles,
                           symbol=d.type)

        for h, uids in sorted(s.occupancy().items()):
            out.append(counter(h, uids))
        # issue 15: units at sea drawn off the beach they land on
        for h, uids in sorted(m.at_sea().items()):
            out.append(counter(h, uids, at=self._offshore(h),
                               mark="must_attack" if any(u in must for u in uids) else "at_sea"))
        return out

    def last_hexes(self) -> list[Hex]:
        """Where the last action that has a place happened, ringed on the map (issue 28): a
        move's or an entry's destination, an attack's or a bombardment's target, a carpet
        bombing's centre, a retreat's last hex."""
        for action in reversed(list(self.model.s.action_log)):
            # an Action, or its JSON form in a seat's view of the room's game
            get = action.get if isinstance(action, dict) else \
                (lambda k, default=None, a=action: getattr(a, k, default))
            ids = [get(k, None) for k in ("to", "hex", "target", "center")]
            path = get("path", ()) or ()
            if get("kind", "") == "retreat" and path:
                ids.append(path[-1])
            out = []
            for hid in ids:
                if isinstance(hid, str) and hid:
                    try:
                        out.append(Hex.from_id(hid))
                    except (ValueError, TypeError):
                        continue
            if out:
                return out
        return []

    def _stack_title(self, uid: str) -> str:
        m = self.model
        d = m.game.units[uid]
        seen = m.values_of(uid)
        values = "?" if seen is None else f"{seen[0]}-{seen[1]}-{d.movement}"
        sea = " " + MAP_WORDS["tip.at_sea"] if m.s.units[uid].status == "at_sea" else ""
        return f"{unit_designation(d.name)} {values}{sea}"

    def _offshore(self, h: Hex) -> tuple[float, float]:
        """A point off the beach ``h``: two thirds of the way to its first sea neighbour
        (or the neighbour off the map), so the counter sits in the water by its beach."""
        board = self.model.game.board.hexes
        lay = self.map.layout
        x, y = lay.to_xy(h)
        for n in h.neighbours():
            info = board.get(n)
            if info is None or info.terrain == "sea":
                nx, ny = lay.to_xy(n)
                return x + 0.7 * (nx - x), y + 0.7 * (ny - y)
        return x - 0.5 * lay.size, y - 0.6 * lay.size

    def highlights(self) -> list[Highlight]:
        m = self.model
        s = m.s
        out: list[Highlight] = []
        if m.history_overlay:
            out += [Highlight(h, "history") for h in m.history_hexes()]
        if s.phase.is_movement and s.pending is None:
            reach = m.reachable()
            if reach:
                mp, _ = s.movement_of(m.selected_unit)
                labelled = len(reach) <= HexMap.MAX_REACH_LABELS
                for h, r in reach.items():
                    left = m.mp_left(r)
                    label = "" if not labelled else f"{left:g}" if not r.engaged else f"{left:g}!"
                    out.append(Highlight(h, "reach", HexMap.reach_colour(left / max(mp, 1)),
                                         label))
                out += [Highlight(h, "zoc") for h in self._land_zoc()]
            if m.reinforcement:
                out += [Highlight(h, "entry") for h in m.entry_hexes()]
                out += [Highlight(h, "zoc") for h in self._land_zoc()]
        if m.attack_target and s.pending is None:
            out.append(Highlight(Hex.from_id(m.attack_target), "target"))
            for u in m.attack_units:
                if s.units[u].hex is not None:
                    out.append(Highlight(s.units[u].hex, "attacker"))
            for u in m.attack_artillery:
                if s.units[u].hex is not None:
                    out.append(Highlight(s.units[u].hex, "artillery"))
        if s.pending is not None:
            out += [Highlight(Hex.from_id(hid), "retreat") for hid in m.retreat_targets()]
        if m.selected_unit and s.units[m.selected_unit].hex is not None:
            out.append(Highlight(s.units[m.selected_unit].hex, "selected"))
        elif m.selected_hex:
            out.append(Highlight(Hex.from_id(m.selected_hex), "selected"))
        return out

    def _changed(self, *events: param.parameterized.Event) -> None:
        self.refresh({e.name for e in events})

    def refresh(self, changed: set[str] | None = None) -> None:
        """Refresh the parts showing a changed store field (all of them when ``changed`` is
        None); one batched message to the browser, one repaint (panel.io.hold); in the
        dashboard's language."""
        def due(fields: tuple[str, ...]) -> bool:
            return changed is None or not changed.isdisjoint(fields)

        with using_language(self.model.lang), hold():
            if due(COUNTER_FIELDS):
                self.map.set_counters(self.counters(), self.model.selected_unit)
                self.map.set_last(self.last_hexes())
            if due(HIGHLIGHT_FIELDS):
                self.map.set_highlights(self.highlights())
            for v in self.views:
                if due(v.fields):
                    v.refresh()
            self._arrange()
        if due(("state",)):
            self._schedule_predictions()

    # ------------------------------------------------------------------ click prediction
    def _prediction_key(self) -> tuple:
        s = self.model.s
        return (id(s), len(s.action_log), s.phase, s.pending is None)

    def _schedule_predictions(self) -> None:
        """After each change of position, send the browser what a click on each friendly stack
        would show (HexMap.set_predictions), so the reachable hexes appear without waiting for
        the server. Sent after the main update (next tick) when served, at once otherwise."""
        key = self._prediction_key()
        if key == getattr(self, "_predicted", None):
            return
        self._predicted = key
        doc = pn.state.curdoc
        if doc is not None and doc.session_context is not None:
            doc.add_next_tick_callback(lambda: self._send_predictions(key))
        else:
            self._send_predictions(key)

    def _send_predictions(self, key: tuple) -> None:
        if key != self._prediction_key():
            return  # the position changed again meanwhile: a newer call follows
        with using_language(self.model.lang):
            self.map.set_predictions(*self.predictions())

    def predictions(self) -> tuple[dict[str, list[tuple[Hex, float, float, bool]]], set[Hex]]:
        """For each hex holding units of the side to move: the rows the map would draw if the
        first of them were selected (same as ``highlights`` for ``reach``), and the enemy
        zones of engagement. Empty outside movement phases or while a decision is pending."""
        m, s = self.model, self.model.s
        side = m.side
        if not s.phase.is_movement or s.pending is not None or side is None or s.is_terminal:
            return {}, set()
        if not m.plans_for_viewer():  # a seat never gets the other side's movement (CN 5.1.1)
            return {}, set()
        out: dict[str, list[tuple[Hex, float, float, bool]]] = {}
        seen: set[Hex] = set()
        for uid, us in s.units.items():
            if us.status != "on_map" or us.hex in seen or s.side_of(uid) != side:
                continue
            seen.add(us.hex)
            own = [u for u in s.units_at(us.hex) if s.side_of(u) == side]
            first = own[0]
            reach = s.legal_destinations(first)
            if not reach:
                continue
            mp, _ = s.movement_of(first)
            rows = []
            for h, r in reach.items():
                left = max(0.0, (2 * mp - r.cost) / 2)
                rows.append((h, left / max(mp, 1), left, bool(r.engaged)))
            out[us.hex.id] = rows
        return out, self._land_zoc()

    def _land_zoc(self) -> set[Hex]:
        """Enemy zones of engagement on land only (none drawn at sea)."""
        board = self.model.game.board.hexes
        return {h for h in self.model.enemy_zoc()
                if h in board and board[h].terrain != "sea"}

    def click(self, hex_id: str) -> None:
        """Same path as a click on the map (for notebooks and tests)."""
        self.map.click(hex_id)

    def _repr_mimebundle_(self, include=None, exclude=None):
        """In a notebook cell: Panel's output, the later panels' stylesheets from the Jupyter
        server rather than a CDN (wargame.ui.notebook.notebook_bundle)."""
        from wargame.ui.notebook import notebook_bundle

        return notebook_bundle(self, include, exclude)

    def __panel__(self):
        return self._layout


def label_priorities(game: Any) -> dict[str, float]:
    """Place name -> the priority of its label on the map: the victory cities (CN/OD 11.2) by
    their points, before every other name (HexMap places names greedily by priority)."""
    out: dict[str, float] = {}
    for rule in (game.scenario.rules or {}).get("victory", []) or []:
        if rule.get("kind") == "city" and rule.get("place"):
            points = max((rule.get("points") or {}).values(), default=0)
            out[rule["place"]] = max(out.get(rule["place"], 0.0), 100.0 + float(points))
    return out


# Result words exported for the notebook's legend.
RESULT_LEGEND = RESULT_WORDS


def campaign_dashboard(scenario_id: str, seed: int, variants: tuple[str, ...] = (),
                       computer: str = "none", lang: str | None = None) -> CampaignDashboard:
    """The solo dashboard of a campaign scenario id (``wargame.registry``'s factory)."""
    return CampaignDashboard(scenario_id, seed=seed, variants=tuple(variants),
                             computer=computer, lang=lang)


def dashboard_of_store(store: CampaignState) -> CampaignDashboard:
    """The dashboard around a store (a room's seat or the teacher's replay)."""
    return CampaignDashboard(model=store)
