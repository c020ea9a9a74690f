"""The campaign dashboard's combat panels: the attack planner (odds, shifts, the results'
distribution, bombardments, the air-point suggestion) and the pending decision (losses, retreat,
advance). Split from ``wargame.ui.campaign`` (issue #35)."""

from __future__ import annotations

from typing import Any

import panel as pn
from bokeh.models import ColumnDataSource, FactorRange, HoverTool
from bokeh.plotting import figure

from wargame.event_text import decision_prompt, shift_reason
from wargame.hexgrid import Hex
from wargame.student_text import glossed_html, result_sentence, unit_designation, without_rules
from wargame.ui.campaign_panels import SIDE_W, StoreView, box, esc
from wargame.ui.describe import place_name, student_odds, terrain_name
from wargame.ui.layout_text import LAYOUT_TEXT
from wargame.ui.model import CampaignState, and_list
from wargame.ui.text import SIDE_WORDS, UI, WORDS, result_words

# a button whose label wraps onto more lines instead of being cut at the button's edge
WRAP_LABEL_CSS = (":host { height: auto !important; } "
                  ".bk-btn { white-space: normal !important; height: auto !important; "
                  "line-height: 1.2; overflow-wrap: anywhere; }")

# the least gain (enemy steps lost expected) the air optimiser's suggestion is shown for: less
# is "+0.00" at the two decimals it is written with (issue #32)
SHOWN_GAIN = 0.005


class AttackPanel(StoreView):
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
        # labels wrap onto two lines rather than being cut where the font is larger (issue 28:
        # "Air-only st" in a JupyterLab cell)
        self.roll = pn.widgets.Button(label=WORDS["roll"], color="danger",
                                      width=125, stylesheets=[WRAP_LABEL_CSS])
        self.bomb_arty = pn.widgets.Button(label=WORDS["artillery_only"], width=125,
                                           description=UI["bombard_arty_help"],
                                           stylesheets=[WRAP_LABEL_CSS])
        self.bomb_air = pn.widgets.Button(label=WORDS["air_only"], width=125,
                                          description=UI["bombard_air_help"],
                                          stylesheets=[WRAP_LABEL_CSS])
        self.result = pn.pane.HTML("", width=SIDE_W)
        # issue 19: the air-point optimiser's suggestion, one button that applies it (its
        # label gives the gain, its tooltip the whole explanation: the panel must stay short
        # enough for a 720-pixel projector)
        self.use_air = pn.widgets.Button(label="", width=SIDE_W - 40, visible=False,
                                         css_classes=["wg-air-suggestion"],
                                         stylesheets=[WRAP_LABEL_CSS])
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
        self.arty_title = pn.pane.HTML(box(f"<b>{esc(WORDS['artillery_in_range'])}</b>"), margin=(0, 5))
        self._controls = pn.Column(
            pn.pane.HTML(box(f"<b>{esc(WORDS['attacking_units'])}</b>"), margin=(0, 5)), self.attackers,
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
        self.result.object = box(esc(shown)) if shown else ""
        if not active:
            text = UI["no_target"] if s.phase.is_combat else WORDS["attacks_in_combat"]
            self.header.object = box(f"<h4>{esc(WORDS['attack'])}</h4>{esc(text)}")
            return
        h = Hex.from_id(target)
        defenders = s.units_at(h)
        names = ", ".join(
            esc(unit_designation(m.game.units[u].name))
            + ("" if (v := m.values_of(u)) is None else f" ({v[1]})")
            for u in defenders)
        info = m.game.board.hexes[h]
        self.header.object = box(
            f"<h4>{esc(WORDS['attack_on'].format(target=place_name(s, target)))}</h4>"
            f"{WORDS['defenders'].format(units=names, terrain=esc(terrain_name(info.terrain)))}")
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
        better = None if tip is None else tip.get("better")
        if (tip is None or tip["air"] == self.model.attack_air
                or (better is not None and better < SHOWN_GAIN)):
            # issue #32: no suggestion that adds nothing to what is set ("+0.00 steps")
            self.use_air.visible = False
            return
        self.use_air.label = (UI["air_use"] if better is not None
                              else UI["air_use.here"]).format(**tip)
        self.use_air.description = (UI["air_suggestion"] if tip["gain"] >= SHOWN_GAIN
                                    else UI["air_suggestion.same"]).format(**tip)
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
        answer = esc(and_list(parts))
        rule = "" if self.model.as_viewer().student else got["rule"]  # issue #28
        if hidden:
            text = WORDS["defence_answer_hidden"].format(rule=esc(rule), answer=answer)
        else:
            a = got["assessment"]
            text = WORDS["defence_answer"].format(rule=esc(rule), answer=answer,
                                                  ratio=esc(a.ratio), column=esc(a.column_label))
        text = text.replace(" ()", "")  # a student page cites no rule
        return f'<div class="wg-defence-answer">{text}</div>'

    def _preview(self) -> None:
        m = self.model
        a = m.preview()
        student = m.as_viewer().student  # issue #28: sentences, no rule numbers
        hidden = any(m.hidden(u) for u in m.s.units_at(Hex.from_id(m.attack_target)))
        if a is None:
            self.preview.object = box(esc(WORDS["pick_attackers"]))
            self.source.data = dict(result=[], p=[], words=[], frac=[])
            self.chart.x_range.factors = []
            self.chart_pane.visible = False
            return
        shifts = "".join(
            f"<tr><td>{esc(shift_reason(sh.reason))}</td><td>{sh.columns:+d}</td>"
            f"<td class='wg-rule'>{'' if student else esc(sh.rule)}</td></tr>"
            for sh in a.shifts) or \
            f"<tr><td colspan=3>{esc(WORDS['no_shifts'])}</td></tr>"
        answer = self._defence_answer(hidden)
        if hidden:
            odds = esc(WORDS["odds_hidden"].format(attack=a.attack, air=a.attack_air,
                                                    hidden=without_rules(UI["hidden"],
                                                                         m.as_viewer())))
            # the hidden values said in words, not an empty chart (issue 28)
            self.preview.object = box(
                f'<div class="wg-odds">{odds}</div>{answer}<div class="wg-hidden-note">'
                f'{esc(LAYOUT_TEXT["hidden_values"])}</div>')
            self.source.data = dict(result=[], p=[], words=[], frac=[])
            self.chart.x_range.factors = []
            self.chart_pane.visible = False
            return
        odds = '<div class="wg-odds">' + WORDS["odds"].format(
            attack=a.attack, air=a.attack_air, defence=a.defence, ratio=esc(a.ratio),
            base=esc(m.game.tables.crt_columns[a.base_column]), shift=a.net_shift,
            column=esc(a.column_label)) + "</div>" + answer
        if student:
            odds = glossed_html(odds) + student_odds(m.s, a.column_label)
        dist = sorted(a.distribution.items(), key=lambda kv: -kv[1])
        rows = "".join(
            f"<tr><td>{esc(r)}</td><td>{esc(p)} = {float(p):.1%}</td>"
            f"<td class='wg-rule'>{esc(result_sentence(r) if student else result_words(r).split(': ', 1)[1])}</td></tr>"
            for r, p in dist)
        self.preview.object = box(
            f"{odds}<table class='wg-shifts'><tr><th>{esc(WORDS['shift'])}</th>"
            f"<th>{esc(WORDS['columns'])}</th><th>{esc(WORDS['rule'])}</th></tr>"
            f"{shifts}</table>"
            f"<details><summary>{esc(WORDS['results_in_words'])}</summary>"
            f"<table class='wg-dist'><tr><th>{esc(WORDS['result'])}</th>"
            f"<th>{esc(WORDS['probability'])}</th><th></th></tr>{rows}</table></details>")
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


class DecisionPanel(StoreView):
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
            self.info.object = box(f"<h4>{esc(WORDS['decision'])}</h4>"
                                    f"{esc(UI['no_decision'])}")
            self._controls.visible = False
            return
        extra = " " + esc(WORDS["click_purple"]) if m.retreat_targets() else ""
        answers = m.attack_being_answered()
        answers = f"<div class='wg-answers'>{esc(answers)}</div>" if answers else ""
        self.info.object = box(
            f"<h4>{esc(WORDS['decision_for'].format(side=SIDE_WORDS.get(d.side, d.side)))}</h4>"
            f"{answers}<div class='wg-decision'>"
            f"{esc(decision_prompt(d))} "
            f"{'' if m.as_viewer().student else f'<span class=wg-rule>({esc(d.rule)})</span>'}"
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
