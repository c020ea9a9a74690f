"""The campaign dashboard's turn panel: the phase line with End phase, Undo and Save (and the
end-phase warning over the map), the turn track and scores, and the new-game setup. Split from
``wargame.ui.campaign`` (issue #35)."""

from __future__ import annotations

import io
from typing import Any

import panel as pn

from wargame.event_text import side_name, victory_line
from wargame.i18n import format_day, short_day, using_language
from wargame.student_text import unit_designation, without_rules
from wargame.ui.campaign_panels import (
    OVERLAY_LOOK,
    OVERLAY_STYLES,
    SHRINK_CSS,
    SIDE_W,
    StoreView,
    box,
    esc,
)
from wargame.ui.layout_text import LAYOUT_TEXT
from wargame.ui.model import CAMPAIGN_PLAYERS, CampaignState
from wargame.ui.store import new_seed
from wargame.ui.text import PHASE_WORDS, UI, WORDS, player_word
from wargame.ui.upload import SaveInput, tell_store


class TurnPanel(StoreView):
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
        self.variant_help = pn.pane.HTML(box("<div class='wg-variant-help'>" + "".join(
            f"<div class='wg-rule'><b>{esc(c['rule'])}</b> {esc(c['title'])}: "
            f"{esc(c['description'])}</div>" for c in choices) + "</div>"), width=SIDE_W - 20,
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
            self.end_warning.object = box(
                f"<div class='wg-warning wg-error' style='{OVERLAY_LOOK}'>"
                f"{esc(UI['end_phase_loses'].format(units=names, why=why))}</div>")
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
            # the day over the month's short name ("6 / jun."), the whole date on hover
            # (issue 28: "06-" over "09" read as a sum, not a date)
            day = esc(short_day(date)).replace(" ", "<br>", 1) if date else ""
            track.append(f"<td{cls} title='{esc(format_day(date)) if date else ''}'>{t}<br>"
                         f"<span class='wg-rule'>{day}</span></td>")
        vp = s.victory_points()
        carpet = m.game.rule("carpet_bombing")
        bombers = "<br>" + esc(without_rules(WORDS["heavy_bombers"].format(
            used=len(s.carpet_turns), uses=carpet["uses"], turn=carpet["from_turn"]),
            m.as_viewer())) if carpet else ""
        lines = "".join(f"<tr><td>{esc(side_name(side))}</td><td>{esc(victory_line(what))}</td>"
                        f"<td>{pts}</td></tr>"
                        for side, what, pts in vp["lines"] if pts)
        date = scn.turn_date(s.turn)
        self.info.object = box(
            "<div class='wg-phase'>" + WORDS["turn_line"].format(
                turn=s.turn, date=f" ({esc(format_day(date))})" if date else "",
                phase=esc(PHASE_WORDS[s.phase.value]))
            + " <span class='wg-rule'>" + esc(WORDS["turn_points"].format(
                air_allied=s.air_points.get("allied", 0), air_axis=s.air_points.get("axis", 0),
                vp_allied=vp["allied"], vp_axis=vp["axis"])) + "</span></div>")
        self.reference.object = box(
            f"<h4>{esc(scn.title_in(m.lang))}</h4>"
            f"<div style='overflow-x:auto;max-width:{SIDE_W - 30}px'><table class='wg-track'>"
            f"<tr>{''.join(track)}</tr></table></div>"
            + esc(WORDS["air_left"].format(allied=s.air_points.get("allied", 0),
                                            axis=s.air_points.get("axis", 0)))
            + f"{bombers}<div class='wg-vp'>"
            + WORDS["vp_now"].format(allied=vp["allied"], axis=vp["axis"])
            + f"</div><table>{lines}</table><div class='wg-rule'>{esc(m.seed_label())}"
            + esc(WORDS["actions"].format(n=len(s.action_log))) + "</div>")
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
            pn.Row(pn.pane.HTML(box(esc(WORDS["load"]))), self.load),
            width=SIDE_W - 10,
        )

    def __panel__(self):
        return pn.Column(self.header(), self.game_tab(), self.setup_tab(), width=SIDE_W)
