"""The campaign dashboard's reinforcement panel: the units that may enter this turn, grouped
by turn and entry place (issue 28). Split from ``wargame.ui.campaign`` (issue #35)."""

from __future__ import annotations

from typing import Any

import panel as pn
import param

from wargame.student_text import unit_designation
from wargame.ui.campaign_panels import SIDE_W, StoreView, box, esc
from wargame.ui.layout_text import LAYOUT_TEXT
from wargame.ui.model import CampaignState
from wargame.ui.text import UI, WORDS, type_letter


class ReinforcementPanel(StoreView):
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
        later = ", ".join(esc(WORDS["later_unit"].format(unit=unit_designation(m.game.units[u].name), turn=t))
                          for t, u in upcoming)
        text = "" if groups else esc(UI["no_reinforcements"])
        if later:
            text += f"<div class='wg-rule'>{esc(WORDS['later'])} {later}</div>"
        self.info.object = box(f"<h4>{esc(WORDS['reinforcements'])}</h4>{text}")
        self.help.object = box(
            f"<div class='wg-reinforcements-help'>{esc(LAYOUT_TEXT['reinforcements_help'])}"
            "</div>")
        self.help.visible = self.groups.visible = bool(groups)

    def __panel__(self):
        return pn.Column(self.info, self.help, self.groups, width=SIDE_W,
                         css_classes=["wg-reinforcements"])
