"""The hand and decision columns keep their Bokeh models across refreshes (issue #31,
wargame/ui/slots.py): a played card or a battle patches text and visibility instead of
replacing the column's children, which made Bokeh recompute every model of the page."""

from __future__ import annotations

from bokeh.document import Document
from panel.io.state import set_curdoc

from wargame.bots.memoir_random import auto_action
from wargame.ui.memoir import HAND_PLACES, MemoirDashboard
from wargame.ui.slots import Slot, SlotColumn, is_shown


def test_a_slot_column_shows_text_and_buttons_and_hands_back_the_payload():
    pressed = []
    col = SlotColumn(pressed.append, places=2)
    children = list(col.column.objects)
    col.show([Slot("<b>a</b>"), Slot(label="go", payload=7)])
    assert [type(p).__name__ for p in col.shown] == ["HTML", "Button"]
    assert col.shown[0].object == "<b>a</b>" and col.shown[1].label == "go"
    assert list(col.column.objects) == children  # same panes, patched
    col.shown[1].clicks += 1
    assert pressed == [7]
    col.show([Slot(label="stop", payload=8)])
    assert [p.label for p in col.shown] == ["stop"]
    col.shown[0].clicks += 1
    assert pressed == [7, 8]
    col.show([Slot("x"), Slot("y"), Slot(label="z", payload=9)])  # more than ever: grows once
    assert len(col.shown) == 3 and len(col.column.objects) == 6
    hidden_button = col._places[0][0]
    assert not is_shown(hidden_button)
    hidden_button.clicks += 1  # a stale click on a place showing text now: nothing
    assert pressed == [7, 8]
    col.show([Slot("card", label="play", payload=10)])  # a button above its card's text
    assert [getattr(p, "label", None) or p.object for p in col.shown] == ["play", "card"]
    assert all(not p.object for p in col.column.objects
               if hasattr(p, "object") and not is_shown(p))


def test_a_teachers_slot_column_has_no_button_at_all():
    col = SlotColumn(print, places=3, buttons=False)
    col.show([Slot("<b>h</b>"), Slot("card", label="<play>", payload=1)])
    assert [type(p).__name__ for p in col.column.objects] == ["HTML"] * 3
    assert col.shown[1].object == "&lt;play&gt;<br>card"


def test_a_memoir_page_keeps_its_hand_models_while_cards_are_played():
    dash = MemoirDashboard("1", seed=3)
    doc = Document()
    with set_curdoc(doc):
        doc.add_root(dash.__panel__().get_root(doc))
        hand = dash.hand_view.column
        before = list(hand.objects)
        ids_before = {m.id for m in doc.models}
        played, cards = 0, 0
        s = dash.store.state
        while played < 16 and not s.winner:
            action = auto_action(s)
            cards += action.kind == "play"
            dash.store.act(action)
            s = dash.store.state
            played += 1
        assert cards >= 2  # the hand changed at least twice
        assert len(before) == 2 * HAND_PLACES
        assert list(hand.objects) == before  # the same panes and buttons, patched
        ids_after = {m.id for m in doc.models}
    assert len(ids_before - ids_after) < 10  # the page's models are kept, not remade
    assert any(getattr(p, "object", "") for p in dash.hand)
