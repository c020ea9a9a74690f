"""Issue 28 items 2 and 4 without a browser: counters drawn as wargame counters (a NATO symbol,
values large, stacks counted), place names over them, the last action ringed; steady pages:
reinforcements grouped and collapsed with a line saying what to do, a landing stack selected
where it is drawn, the attack panel cleared on a new target, air points left as the slider
moves, hidden values said in words; the room pages' map sized by the page, not zoomed.
The browser measurements are in test_layout_browser.py."""

from __future__ import annotations

import html

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.fake_rooms import FakeManager
from wargame.bots.play import make_policy
from wargame.hexgrid import Hex
from wargame.ui.campaign import CampaignDashboard
from wargame.ui.hexmap import (
    COUNTER_W,
    NATO_SYMBOLS,
    SYMBOL_H,
    SYMBOL_W,
    Counter,
    HexMap,
    HexSpec,
    symbol_parts,
)
from wargame.ui.layout_text import LAYOUT_TEXT
from wargame.ui.room_page import seat_dashboard, seat_page_parts

SEED = 1946


@pytest.fixture(scope="module")
def normandy():
    return CampaignDashboard("normandy", seed=SEED)


def fresh(d: CampaignDashboard) -> CampaignDashboard:
    d.model.new_game(SEED)
    return d


# ---------------------------------------------------------------------- counters (item 2)
def test_every_unit_type_has_a_symbol_or_a_letter():
    from wargame.ui.model import CampaignState

    for scenario in ("normandy", "dragoon"):
        game = CampaignState(scenario, seed=1).game
        for d in game.units.values():
            parts, letter = symbol_parts(d.type)
            assert parts or letter, (scenario, d.type)
    from wargame.ui.memoir import KIND_SYMBOL

    for kind in KIND_SYMBOL.values():  # Memoir '44's kinds
        assert symbol_parts(kind)[0]


def test_counters_are_drawn_with_symbols_values_and_stack_counts(normandy):
    d = fresh(normandy)
    src = d.map.counter_source.data
    shown = {u: i for i, u in enumerate(src["uid"])}
    infantry = [u for u in shown if d.model.game.units[u].type == "infantry"]
    armour = [u for u in shown if d.model.game.units[u].type == "armour"]
    assert infantry and armour
    lines = d.map.symbol_lines.data
    ovals = d.map.symbol_ovals.data
    size = d.map.layout.size
    for u in infantry:  # the infantry's X: two diagonals of its symbol box
        i = shown[u]
        x, by = src["x"][i], src["by"][i]
        corners = {(round(x0 - x, 6), round(y0 - by, 6), round(x1 - x, 6), round(y1 - by, 6))
                   for x0, y0, x1, y1 in zip(lines["x0"], lines["y0"], lines["x1"], lines["y1"],
                                             strict=True)}
        w, h = round(SYMBOL_W * size / 2, 6), round(SYMBOL_H * size / 2, 6)
        assert (-w, -h, w, h) in corners and (-w, h, w, -h) in corners, u
        assert src["vy"][i] < src["y"][i] < src["by"][i]  # values below, symbol above
    oval_at = set(zip(ovals["x"], ovals["y"], strict=True))
    for u in armour:
        i = shown[u]
        assert (src["x"][i], src["by"][i]) in oval_at
    # a stack of n shows n on its badge, once per stack
    badges = d.map.badge_source.data
    occupancy = d.model.s.occupancy()
    stacks = {h: len(u) for h, u in occupancy.items() if len(u) > 1}
    assert stacks and sorted(map(int, badges["n"])) == sorted(
        list(stacks.values()) + [len(u) for u in d.model.at_sea().values() if len(u) > 1])


def test_values_fit_their_piece(normandy):
    """The values are drawn at LABEL_SCALE["values"] of the hex radius (14 px on the teacher's
    1920x1080 view: test_layout_browser.py), up to 0.85 of it to reach 11 px on a seat at
    1280x720 (issue 32); three one-digit values fit the piece's width at the larger of the two
    (bold helvetica: a digit 0.556 em, a hyphen 0.333 em)."""
    f, _lo, _want, most = HexMap.LABEL_SCALE["values"]
    f = max(f, most)
    em = {"-": 0.333, "?": 0.611}
    values = set(fresh(normandy).map.counter_source.data["values"])
    short = [v for v in values if len(v) == 5]
    assert short
    for v in short:
        assert sum(em.get(ch, 0.556) for ch in v) * f <= COUNTER_W, v


def test_place_names_over_counters_and_last_action_ringed(normandy):
    d = fresh(normandy)
    fig = d.map.figure
    assert fig.renderers[-1] is d.map.names_renderer
    assert list(d.map.last_source.data["q"]) == []
    m = d.model
    m.end_phase()
    m.set_target("2010")
    m.declare_attack()
    ring = {(q, r) for q, r in zip(d.map.last_source.data["q"], d.map.last_source.data["r"],
                                   strict=True)}
    assert (Hex.from_id("2010").q, Hex.from_id("2010").r) in ring


def test_last_action_ringed_in_a_seats_view():
    """A seat's store holds the room's actions as JSON: the ring reads them too."""
    manager = FakeManager()
    room = manager.create("normandy", seed=SEED)
    dash, store = seat_dashboard(room, room.seats["allied"], "en")
    s = store.state
    move = next(a for a in s.legal_actions() if a.kind == "move")
    assert store.act(move), store.message
    store.sync()
    ring = list(zip(dash.map.last_source.data["q"], dash.map.last_source.data["r"],
                    strict=True))
    to = Hex.from_id(move.to)
    assert ring == [(to.q, to.r)]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6),
                          st.sampled_from(sorted(NATO_SYMBOLS)), st.integers(1, 4)),
                min_size=1, max_size=12, unique_by=lambda t: (t[0], t[1])))
def test_symbols_stay_inside_their_counter(rows):
    """Whatever the units, every part of a symbol is drawn inside its counter's piece."""
    specs = [HexSpec(Hex(q, r), Hex(q, r).id, "open") for q in range(7) for r in range(7)]
    hm = HexMap(specs)
    counters = [Counter(Hex(q, r), f"u{k}", "I", "1-2-3", "#ccc", stack=n, symbol=kind)
                for k, (q, r, kind, n) in enumerate(rows)]
    hm.set_counters(counters)
    cw, ch = hm._counter_size
    centres = [hm.layout.to_xy(c.hex) for c in counters]

    def inside(x, y):
        return any(abs(x - cx) <= cw / 2 + 1e-9 and abs(y - cy) <= ch / 2 + 1e-9
                   for cx, cy in centres)

    L = hm.symbol_lines.data
    for x0, y0, x1, y1 in zip(L["x0"], L["y0"], L["x1"], L["y1"], strict=True):
        assert inside(x0, y0) and inside(x1, y1)
    for src in (hm.symbol_ovals.data, hm.symbol_dots.data):
        for x, y in zip(src["x"], src["y"], strict=True):
            assert inside(x, y)
    assert sorted(hm.badge_source.data["n"]) == sorted(str(n) for *_, n in rows if n > 1)


# ---------------------------------------------------------------------- steady pages (item 4)
@pytest.fixture(scope="module")
def turn_one():
    """Normandy at turn 1's Allied movement (a greedy player's turn 0: 56 actions)."""
    d = CampaignDashboard("normandy", seed=SEED)
    m = d.model
    policy = make_policy(m.game, "greedy", 1)
    for _ in range(400):
        if m.s.turn == 1 and m.s.phase.is_movement and m.s.phase.side == "allied":
            break
        assert m.act(policy.choose(m.s)), m.message
    assert m.s.turn == 1
    return d


def test_reinforcements_grouped_collapsed_with_help(turn_one):
    d = turn_one
    r = d.reinforcements
    waiting = d.model.waiting_units()
    assert len(waiting) > 10
    groups = r.grouped()
    assert 1 < len(groups) < len(waiting)
    assert sorted(u for _, units in groups for u in units) == sorted(waiting)
    for (turn, place), units in groups:
        assert turn <= d.model.s.turn
        for u in units:  # the group's place is one of each unit's entry hexes
            names = {d.model.game.board.hexes[h].name for h in d.model.s.entry_hexes(u)
                     if d.model.game.board.hexes[h].name} or \
                {h.id for h in d.model.s.entry_hexes(u)}
            assert place in {d.model.game.board.name_in(n) for n in names} | names
    cards = r.groups.objects
    assert len(cards) == len(groups) and all(c.collapsed for c in cards)
    assert r.help.visible and LAYOUT_TEXT["reinforcements_help"] in r.help.object
    assert str(len(groups[0][1])) in cards[0].title
    # picking a unit in a group picks it; its group opens; entering it clears the pick
    (key, units) = groups[0]
    group = r._choices[key]
    group.value = units[0]
    assert d.model.reinforcement == units[0]
    assert not r._cards[key].collapsed
    entry = d.model.entry_hexes()[0]
    d.map.click(entry.id)
    assert d.model.s.units[units[0]].status == "on_map", d.model.message
    assert units[0] not in {u for _, us in r.grouped() for u in us}


def test_landing_stack_selected_where_drawn(normandy):
    d = fresh(normandy)
    m = d.model
    drawn = d.drawn_at_sea()
    assert drawn
    sea, beach = next(iter(drawn.items()))
    assert m.game.board.hexes.get(Hex.from_id(sea)) is None or \
        m.game.board.hexes[Hex.from_id(sea)].terrain == "sea"
    d.map.click(sea)
    stack = m.at_sea()[beach]
    assert m.selected_unit == stack[0]
    assert "at sea" in m.message and m.game.units[stack[0]].name in m.message
    assert not m.error
    if len(stack) > 1:  # a second click: the next unit of the stack
        d.map.click(sea)
        assert m.selected_unit == stack[1]
    pt = CampaignDashboard("normandy", seed=SEED, lang="pt")
    pt.map.click(sea)
    assert "no mar" in pt.model.message and "selecionada" in pt.model.message


def test_attack_panel_clears_and_counts_air_at_once(normandy):
    d = fresh(normandy)
    m = d.model
    m.end_phase()
    m.set_target("2010")
    m.declare_attack()
    while m.s.pending is not None:
        m.auto()
    assert m.result_text()
    # the result shows while 2010 is the target (or none is), and clears on another target
    if m.attack_target in (None, "2010"):
        assert d.attack.result.object
    other = next(h for h in ("2709", "2510", "3011", "1809")
                 if any(m.s.side_of(u) == "axis" for u in m.s.units_at(Hex.from_id(h))))
    m.set_target(other)
    assert m.attack_target == other
    assert d.attack.result.object == ""
    # air points: what would be left after this attack, as the slider moves
    pool = m.s.air_points.get(m.side, 0)
    if m.air_max() >= 10:
        m.attack_air = 10
        assert f"{pool - 10} left" in d.attack.air.label


def test_hidden_values_said_in_words_not_an_empty_box():
    from wargame.ui.model import CampaignState

    seat = CampaignDashboard(model=CampaignState("normandy", seed=SEED, viewer="allied"))
    m = seat.model
    m.end_phase()
    m.set_target("2010")
    uid = m.eligible_attackers()[0]
    m.attack_units = [uid]
    assert html.escape(LAYOUT_TEXT["hidden_values"]) in seat.attack.preview.object
    assert not seat.attack.chart_pane.visible  # no empty chart
    hot = CampaignDashboard("normandy", seed=SEED)
    hot.model.end_phase()
    hot.model.set_target("2010")
    hot.model.attack_units = [uid]
    assert hot.attack.chart_pane.visible


def test_end_phase_warning_is_an_overlay(normandy):
    d = fresh(normandy)
    d.turn.end.clicks += 1
    d.turn.end.clicks += 1  # units at sea off enemy beaches: a warning
    assert d.turn.end_overlay.visible and d.turn.end_warning.visible
    assert d.turn.end_overlay.styles["position"] == "absolute"
    d.turn.end_keep.clicks += 1
    assert not d.turn.end_overlay.visible
    assert d.model.s.phase.value == "allied_combat"


# ---------------------------------------------------------------------- layouts (item 1)
def test_room_pages_are_not_zoomed_and_set_the_maps_room():
    manager = FakeManager()
    for game in ("normandy", "memoir44-1"):
        room = manager.create(game, seed=5)
        for seat in ("allied", "axis", "teacher"):
            page, _ = seat_page_parts(room, room.seats[seat], "en")
            assert "zoom" not in page.styles
            css = " ".join(str(x) for x in page.stylesheets)
            assert "--wg-map-top:" in css and "--wg-side-top:" in css


def test_notebook_dashboard_does_not_fill_the_window():
    d = CampaignDashboard("normandy", seed=SEED, fill_window=False)
    assert not d.served
    assert d.map.figure.sizing_mode == "stretch_width"
    served = CampaignDashboard("normandy", seed=SEED, fill_window=True)
    assert served.map.figure.sizing_mode == "stretch_both"
    assert served._layout.styles.get("flex-wrap") == "wrap"


def test_notebook_output_shrinks_to_its_cell(monkeypatch):
    """Issue 28 in JupyterLab: Panel wraps a cell's output in its design's wrapper, whose
    min-width it computes from the dashboard's (map column and side column side by side);
    the wrapper is made with a stylesheet that lets it shrink to a 430-px cell."""
    import panel as pn

    from wargame.ui.notebook import SHRINK_ROOT_CSS, shrinkable_root

    d = CampaignDashboard("normandy", seed=SEED, fill_window=False)
    view = d._create_view()
    root = shrinkable_root(view)
    assert root is not view and root.objects == [view]
    assert SHRINK_ROOT_CSS in root.stylesheets and root.sizing_mode == "stretch_width"
    assert shrinkable_root(root) is root  # never wrapped twice
    monkeypatch.setattr(pn.config, "design", None)
    assert shrinkable_root(view) is view  # no design: Panel does not wrap it either


def test_turn_track_dates_read_as_dates():
    """Issue 28: the turn track wrote "06-" over "09" (month-day); now the day over the month's
    short name in the page's language, the whole date on hover."""
    for lang, month, whole in (("en", "Jun", "9 June 1944"), ("pt", "jun.", "9 de junho de 1944")):
        d = CampaignDashboard("normandy", seed=SEED, lang=lang)
        track = d.turn.reference.object
        assert f"<br>9<br>{month}" in track or f">9<br>{month}" in track, track[-2000:]
        assert f"title='{whole}'" in track
        assert "06-09" not in track


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_a_waiting_seat_is_not_told_to_click(lang):
    """Issue 28: during the Allied movement the Axis seat's message bar (and the teacher's
    projector) said "click a unit, then a shaded hex"; they say whom the class waits for. The
    acting seat keeps the phase's help."""
    from wargame import i18n
    from wargame.ui.model import CampaignState
    from wargame.ui.text import PHASE_HELP, their_turn

    axis = CampaignDashboard(model=CampaignState("normandy", seed=SEED, viewer="axis"),
                             lang=lang)
    allied = CampaignDashboard(model=CampaignState("normandy", seed=SEED, viewer="allied"),
                               lang=lang)
    with i18n.using_language(lang):
        waiting, help_line = their_turn("allied"), PHASE_HELP["allied_movement"]
    assert axis.model.side_to_act == "allied"
    assert html.escape(waiting) in axis.message.pane.object
    assert html.escape(help_line) not in axis.message.pane.object
    assert html.escape(help_line) in allied.message.pane.object
    teacher = CampaignDashboard(model=CampaignState("normandy", seed=SEED, viewer="teacher"),
                                lang=lang)
    assert html.escape(waiting) in teacher.message.pane.object  # the projector
