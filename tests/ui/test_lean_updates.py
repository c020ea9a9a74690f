"""wargame.ui.panel_internals.lean_property_updates (issue #31): a property change, or an HTML
pane's new text, no longer resolves the component's design; what reaches the models is the
same. And what a room's seat page costs the server per update, counted (not timed): the
design's resolutions, the property changes and the bytes the other seat's page receives
while the rooms bench's script of moves is played (bench/rooms.py: Auto-answer in turn)."""

from __future__ import annotations

import html
import threading

import panel as pn
import pytest
from bokeh.core.json_encoder import serialize_json
from bokeh.core.serialization import Serializer
from bokeh.document import Document
from bokeh.model import Model
from panel.io.state import set_curdoc
from panel.pane.markup import HTMLBasePane
from panel.reactive import Reactive
from panel.theme.base import Design

from wargame.bots.memoir_random import auto_action
from wargame.ui import panel_internals
from wargame.ui.panel_internals import lean_property_updates


@pytest.fixture
def counted(monkeypatch):
    """How many times a design was resolved (``Design.params``) and which model properties
    changed, with their serialized size."""
    seen = {"design": 0, "changes": []}
    params = Design.params

    def counting_params(self, *args, **kwargs):
        seen["design"] += 1
        return params(self, *args, **kwargs)

    trigger = Model.trigger

    def counting_trigger(self, attr, old, new, hint=None, setter=None):
        size = len(serialize_json(Serializer().serialize(new).content))
        seen["changes"].append((type(self).__name__, attr, size))
        return trigger(self, attr, old, new, hint, setter)

    monkeypatch.setattr(Design, "params", counting_params)
    monkeypatch.setattr(Model, "trigger", counting_trigger)
    return seen


def _panel_methods(monkeypatch, lean: bool) -> None:
    """Panel's own methods (``lean=False``) or the patched ones, for this test only."""
    monkeypatch.setattr(Reactive, "_update_properties",
                        panel_internals.panel_original(Reactive, "_update_properties"))
    monkeypatch.setattr(HTMLBasePane, "_update",
                        panel_internals.panel_original(HTMLBasePane, "_update"))
    if lean:
        lean_property_updates()


def _changes(counted) -> tuple[int, dict]:
    """A button and an HTML pane in a document, changed four times: the design's
    resolutions, and the models' properties at the end."""
    button = pn.widgets.Button(label="a", visible=False)
    pane = pn.pane.HTML("<b>a</b>", stylesheets=[":host{color:#222}"], margin=(5, 10))
    doc = Document()
    with set_curdoc(doc):
        root = pn.Column(button, pane).get_root(doc)
        doc.add_root(root)
        counted["design"] = 0
        for i in range(4):
            button.param.update(label=f"play {i}", visible=i % 2 == 0)
            pane.object = f"<i>{i} &amp; more</i>"
            pane.margin = (0, 5 + i)
    resolved = counted["design"]
    models = {name: {k: v for k, v in model.properties_with_values().items()
                     if k not in ("id", "stylesheets", "subscribed_events")}
              for name, model in zip(("button", "pane"), root.children, strict=True)}
    return resolved, models


def test_panel_still_has_what_the_patch_replaces():
    assert callable(getattr(Reactive, "_update_properties", None)), \
        "panel.reactive.Reactive._update_properties is gone: lean_property_updates replaces it"
    pane = pn.pane.HTML("x")
    assert pane._process_param_change({"object": "<b>x</b>"}) == {"text": "&lt;b&gt;x&lt;/b&gt;"}, \
        "an HTML pane's object no longer becomes its model's text this way"


def test_without_the_patch_every_change_resolves_the_design(monkeypatch, counted):
    _panel_methods(monkeypatch, lean=False)
    resolved, _ = _changes(counted)
    assert resolved >= 8, ("Panel no longer resolves the design for each property change: "
                           "lean_property_updates may not be needed any more")


def test_with_the_patch_no_change_resolves_the_design_and_the_models_end_the_same(
        monkeypatch, counted):
    _panel_methods(monkeypatch, lean=False)
    _, panel_models = _changes(counted)
    _panel_methods(monkeypatch, lean=True)
    patched = Reactive._update_properties
    lean_property_updates()  # idempotent
    assert Reactive._update_properties is patched
    resolved, lean_models = _changes(counted)
    assert resolved == 0
    assert lean_models == panel_models
    assert lean_models["pane"]["text"] == "&lt;i&gt;3 &amp;amp; more&lt;/i&gt;"
    assert lean_models["button"]["label"] == "play 3"


def test_a_changed_stylesheet_still_goes_through_the_design(monkeypatch, counted):
    _panel_methods(monkeypatch, lean=True)
    button = pn.widgets.Button(label="a")
    doc = Document()
    with set_curdoc(doc):
        root = pn.Column(button).get_root(doc)
        doc.add_root(root)
        counted["design"] = 0
        button.stylesheets = [":host{color:red}"]
    assert counted["design"] >= 1
    assert ":host{color:red}" in [s for s in root.children[0].stylesheets if isinstance(s, str)]


def test_a_streaming_pane_still_streams(monkeypatch):
    _panel_methods(monkeypatch, lean=True)
    calls = []
    pane = pn.pane.HTML("abc", enable_streaming=True)
    doc = Document()
    with set_curdoc(doc):
        root = pn.Column(pane).get_root(doc)
        doc.add_root(root)
        monkeypatch.setattr(HTMLBasePane, "_send_event",
                            lambda self, *a, **k: calls.append(k), raising=False)
        pane.object = "abcdef"
    assert calls and calls[-1]["patch"] == "def"


# ---------------------------------------------------------------- a room's seat pages
ROUNDS = 8  # bench/rooms.py's default: play, end orders, end moves, end battles, twice
MAX_CHANGES = 40  # property changes of the other seat's page in one update
MAX_BYTES = 6000  # their serialized size


def test_the_other_seats_update_resolves_no_design_and_stays_small(tmp_path, counted):
    """The bench's script in one room: after each Auto-answer, the other seat's page syncs.
    Per update: no design resolved, at most MAX_CHANGES property changes and MAX_BYTES
    (measured on this code: at most 34 changes and about 3 KB, when the turn passes)."""
    from wargame.rooms import RoomManager
    from wargame.ui.room_page import seat_page_parts

    manager = RoomManager(tmp_path / "rooms.sqlite", start_computers=False)
    try:
        room = manager.create("memoir44-1", seed=100)
        pages = {}
        for side in ("allied", "axis"):
            doc = Document()
            with set_curdoc(doc):
                page, store = seat_page_parts(room, room.seats[side], "en")
                doc.add_root(pn.panel(page).get_root(doc))
            pages[side] = (doc, store)
        turn_passed = 0
        for _ in range(ROUNDS):
            state = room.state()
            actor = state.side_to_act
            other = "axis" if actor == "allied" else "allied"
            with set_curdoc(pages[actor][0]):
                assert pages[actor][1].act(auto_action(state))
            counted["design"] = 0
            counted["changes"] = []
            with set_curdoc(pages[other][0]):
                assert pages[other][1].sync()
            changes = counted["changes"]
            assert counted["design"] == 0
            assert 1 <= len(changes) <= MAX_CHANGES, changes
            assert sum(size for *_, size in changes) <= MAX_BYTES, changes
            turn_passed += room.state().side_to_act == other
        assert turn_passed >= 1  # the turn passed: the other hand's buttons were shown
        for _doc, store in pages.values():
            store.close()
    finally:
        manager.close()


def test_a_followed_page_sends_its_whole_update_at_once(tmp_path, monkeypatch):
    """follow_room's sync runs under one hold of the page's document: nothing of the update
    leaves before all of it (the dashboard's parts and the header) is done, then it all goes."""
    from wargame.rooms import RoomManager
    from wargame.ui.room_page import follow_room, seat_page_parts

    manager = RoomManager(tmp_path / "rooms.sqlite", start_computers=False)
    try:
        room = manager.create("memoir44-1", seed=100)
        allied_doc, axis_doc = Document(), Document()
        with set_curdoc(allied_doc):
            allied_page, allied = seat_page_parts(room, room.seats["allied"], "en")
            allied_doc.add_root(pn.panel(allied_page).get_root(allied_doc))
        with set_curdoc(axis_doc):
            axis_page, axis = seat_page_parts(room, room.seats["axis"], "en")
            axis_doc.add_root(pn.panel(axis_page).get_root(axis_doc))
        sent: list = []
        axis_doc.on_change(lambda event: sent.append(event))
        scheduled: list = []
        axis_doc.add_next_tick_callback = scheduled.append  # the session's next tick, by hand
        during: dict = {}

        def also() -> None:  # the last part of the update
            during["held"] = axis_doc.callbacks.hold_value is not None
            during["sent"] = len(sent)

        follow_room(axis, axis_doc, also)
        from panel.io.state import state

        monkeypatch.setitem(state._connected, axis_doc, True)  # unhold: the doc's callbacks
        monkeypatch.setitem(state._thread_id_, axis_doc, threading.get_ident())  # its loop
        with set_curdoc(allied_doc):
            assert allied.act(auto_action(room.state()))
        assert len(scheduled) == 1
        while scheduled:  # the sync, then what Panel schedules after it (its unhold)
            scheduled.pop(0)()
        assert axis.version == 1
        assert during == {"held": True, "sent": 0}
        texts = [getattr(e, "new", None) for e in sent]
        assert any(isinstance(t, str) and "data-version='1'" in html.unescape(t)
                   for t in texts), texts  # the header came with the rest
        allied.close()
        axis.close()
    finally:
        manager.close()
