"""Issue 15, Memoir '44: section lines, ordered-unit marks, wire and sandbags drawn, dice
faces as shapes (no emoji font), card texts in our own words, New game asks first."""

from __future__ import annotations

from wargame.memoir.cards import DECK
from wargame.ui.memoir import MemoirDashboard, face_svg
from wargame.ui.text import CARD_TEXT


def test_sections_wire_and_sandbags_are_drawn():
    d = MemoirDashboard("1", 44)
    s = d.store.state
    lines = d.map.figure.select_one({"name": "memoir-map-sections"})
    assert lines is not None and len(lines.data["x0"]) == 2  # two dashed section lines
    x_left, x_right = sorted(lines.data["x0"])
    assert x_left < x_right
    labels = d.map.figure.select_one({"name": "memoir-map-sections-labels"})
    assert list(labels.data_source.data["text"]) == ["left flank", "centre", "right flank"]
    kinds = list(d.map.highlight_source.data["kind"])
    assert kinds.count("wire") == len(s.wire) > 0
    assert kinds.count("sandbags") == len(s.sandbags) > 0


def test_ordered_units_are_marked_in_the_order_phase():
    d = MemoirDashboard("1", 44)
    st = d.store
    for play in [a for a in st.legal if a.kind == "play"]:
        st.act(play)
        if any(a.kind == "order" for a in st.legal):
            break
        st.undo()
    order = next(a for a in st.legal if a.kind == "order")
    st.act(order)
    assert st.state.phase == "order" and st.state.ctx.ordered
    assert "attacker" in d.map.highlight_source.data["kind"]


def test_dice_faces_are_svg_shapes_and_cards_have_texts():
    for face in ("infantry", "armor", "grenade", "flag", "star"):
        svg = face_svg(face)
        assert svg.startswith("<svg") and "<path" in svg or "<rect x='5'" in svg
        assert not any(ord(ch) > 0x2000 for ch in svg)  # no emoji or symbol font needed
    assert {c.name for c in DECK} <= set(CARD_TEXT)
    d = MemoirDashboard("1", 44)
    html = "".join(str(getattr(o, "object", "")) for o in d.hand)
    assert "m44-card-text" in html


def test_new_game_asks_first_and_deals_fresh_dice():
    d = MemoirDashboard("1", 44)
    st = d.store
    st.act(next(a for a in st.legal if a.kind == "play"))
    d.new_button.clicks += 1
    assert st.state.action_log and d.really.visible
    d.cancel.clicks += 1
    assert st.state.action_log and not d.really.visible
    seeds = set()
    for _ in range(3):
        d.new_button.clicks += 1
        d.really.clicks += 1
        assert st.state.action_log == []
        seeds.add(st.state.seed)
    assert len(seeds) > 1  # secrets-derived: three equal seeds is a one in 10^12 chance
