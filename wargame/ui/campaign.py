"""The campaign dashboard: thin Panel views over ``CampaignState`` (wargame.ui.model).

``CampaignDashboard("normandy", seed=1944)`` shows in a notebook cell and under
``panel serve`` alike. Views never decide rules: they render the store and call its commands.
Each view names the store fields it shows (``fields``) and refreshes only when one of them
changed: a click that only selects a unit leaves the log, the turn panel and the decision alone.
"""

from __future__ import annotations

from typing import Any

import panel as pn
import param
from panel.io import hold

from wargame.hexgrid import Hex, Layout
from wargame.i18n import check_language, using_language
from wargame.operational.state import Game
from wargame.scenario import Scenario
from wargame.student_text import unit_designation
from wargame.ui.campaign_attack import AttackPanel, DecisionPanel
from wargame.ui.campaign_panels import (
    MAP_HEIGHT_CSS,
    NOTEBOOK_MAP_HEIGHT,
    SHRINK_CSS,
    SIDE_STYLES,
    SIDE_W,
    HistoryPanel,
    LogPanel,
    MessageBar,
    UnitCard,
    box,
    esc,
    legend_html,
    status_words,
)
from wargame.ui.campaign_reinforcements import ReinforcementPanel
from wargame.ui.campaign_turn import TurnPanel
from wargame.ui.describe import place_name
from wargame.ui.hexmap import NATION_COLOURS, Counter, HexMap, Highlight
from wargame.ui.layout_text import LAYOUT_TEXT
from wargame.ui.model import CampaignState
from wargame.ui.text import MAP_WORDS, RESULT_WORDS, UI, WORDS, type_letter

__all__ = ["CampaignDashboard", "UnitCard", "ReinforcementPanel", "AttackPanel",
           "DecisionPanel", "TurnPanel", "LogPanel", "HistoryPanel", "MessageBar",
           "label_priorities", "legend_html", "status_words", "campaign_dashboard",
           "dashboard_of_store", "RESULT_LEGEND"]


def _served() -> bool:
    """True inside a ``panel serve`` session (a browser window to fill), False in a notebook."""
    doc = pn.state.curdoc
    return doc is not None and getattr(doc, "session_context", None) is not None


TABS_WRAP_CSS = ".bk-headers-wrapper { flex-wrap: wrap !important; }"

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
            width=SIDE_W, dynamic=False, css_classes=["wg-reference"],
            # the tabs wrap onto a second line rather than hide the last one (issue 28:
            # "Legend" cut in a JupyterLab cell, whose larger font made them wider)
            stylesheets=[TABS_WRAP_CSS])
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
            names = ", ".join(esc(unit_designation(m.game.units[u].name)) for u in must)
            self.must_attack.object = box(
                f"<details class='wg-must-attack'><summary class='wg-error'>"
                f"{esc(UI['must_attack'].format(n=len(must)))}</summary>{names}</details>")
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
                if (where := s.units[u].hex) is not None:
                    out.append(Highlight(where, "attacker"))
            for u in m.attack_artillery:
                if (where := s.units[u].hex) is not None:
                    out.append(Highlight(where, "artillery"))
        if s.pending is not None:
            out += [Highlight(Hex.from_id(hid), "retreat") for hid in m.retreat_targets()]
        selected = s.units[m.selected_unit].hex if m.selected_unit else None
        if selected is not None:
            out.append(Highlight(selected, "selected"))
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
            if us.status != "on_map" or us.hex is None or us.hex in seen or s.side_of(uid) != side:
                continue  # (a unit on the map has a hex)
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
