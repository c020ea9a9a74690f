"""wargame.ui.panel_internals.ordered_callbacks: on a served page's thread pool, a click sees
the value typed just before it. Without it, Panel runs the value's change and the click as two
pool tasks at once (a fresh-clone CI run: 3 typed in "Rooms", 6 rooms created). If a Panel
upgrade moves what the patch replaces, test_panel_still_has_what_the_patch_replaces says what."""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.events import ButtonClick
from panel.io.state import set_curdoc, state
from panel.reactive import Syncable

from wargame.ui import panel_internals
from wargame.ui.panel_internals import in_order, ordered_callbacks

# the source of Panel 1.9.4's methods that ordered_callbacks replaces with copies
PANEL_SOURCES = {"_change_coroutine": "bc35417d1b8de8c8", "_comm_event": "8d5008739386a684",
                 "_event_coroutine": "c8003e3bd9af03a7"}


def _panel_method(name: str):
    ordered_callbacks()
    return panel_internals.panel_original(Syncable, name)


def test_panel_still_has_what_the_patch_replaces():
    for name, digest in PANEL_SOURCES.items():
        source = inspect.getsource(_panel_method(name))
        assert hashlib.sha256(source.encode()).hexdigest()[:16] == digest, (
            f"panel.reactive.Syncable.{name} changed in this Panel: ordered_callbacks "
            f"(wargame/ui/panel_internals.py) holds a copy of the old one; compare and update")
    assert callable(getattr(state._change_callbacks, "get", None)), \
        "panel.io.state.state._change_callbacks (pending changes per document) is gone"
    assert callable(getattr(state, "_handle_future_exception", None))


@pytest.fixture
def pool(monkeypatch):
    executor = ThreadPoolExecutor(4)
    monkeypatch.setattr(state, "_thread_pool", executor)
    yield executor
    executor.shutdown(wait=True)


def _form(monkeypatch):
    """A count field (6) whose change takes 0.3 s to reach the widget, a button recording the
    count its click sees, in one document."""
    count = pn.widgets.IntInput(value=6)
    button = pn.widgets.Button(label="Create")
    seen: list[int] = []
    button.on_click(lambda _e: seen.append(count.value))
    panel_process = count._process_events

    def slow(events):
        time.sleep(0.3)
        panel_process(events)

    monkeypatch.setattr(count, "_process_events", slow)
    doc = Document()
    with set_curdoc(doc):
        model = button.get_root(doc)
        count.get_root(doc)
    return count, button, doc, model, seen


def _run(coroutine) -> None:
    """``coroutine`` run to its end on a thread of its own: the session's sync playwright (any
    browser test run before these) keeps an asyncio loop running on the main thread, where
    asyncio.run refuses to start another."""
    with ThreadPoolExecutor(1) as runner:
        runner.submit(asyncio.run, coroutine).result(timeout=30)


def _typed_then_clicked(count, button, doc, model, seen, in_flight: bool) -> list[int]:
    """3 typed, then the click: the change still pending (debounced) or already handed to the
    pool (``in_flight``)."""
    count._events = {"value": 3}
    state._change_callbacks[doc] = {"typed": partial(count._change_coroutine, doc,
                                                     event_id="typed")}
    click = ButtonClick(model)
    if in_flight:
        _run(count._change_coroutine(doc, event_id="typed"))
        button._comm_event(doc, click)  # no pending change left: straight to the pool
    else:
        _run(button._event_coroutine(doc, click))
    deadline = time.time() + 10
    while not seen and time.time() < deadline:
        time.sleep(0.02)
    time.sleep(0.4)
    return seen


@pytest.mark.parametrize("in_flight", [False, True])
def test_a_click_sees_the_value_typed_before_it(monkeypatch, pool, in_flight):
    ordered_callbacks()
    count, button, doc, model, seen = _form(monkeypatch)
    assert _typed_then_clicked(count, button, doc, model, seen, in_flight) == [3]
    assert count.value == 3


def test_without_the_patch_the_click_sees_the_old_value(monkeypatch, pool):
    panel_methods = {name: _panel_method(name) for name in PANEL_SOURCES}
    for name, method in panel_methods.items():
        monkeypatch.setattr(Syncable, name, method)
    count, button, doc, model, seen = _form(monkeypatch)
    assert _typed_then_clicked(count, button, doc, model, seen, in_flight=False) == [6]


def test_in_order_runs_one_documents_tasks_one_after_the_other(pool):
    doc_a, doc_b, log = Document(), Document(), []

    def task(name, pause):
        log.append(f"{name}+")
        time.sleep(pause)
        log.append(f"{name}-")
        return name

    first = in_order(pool, doc_a, task, "a1", 0.2)
    other = in_order(pool, doc_b, task, "b1", 0.05)
    second = in_order(pool, doc_a, task, "a2", 0)
    assert [f.result(timeout=5) for f in (first, other, second)] == ["a1", "b1", "a2"]
    assert log.index("a1-") < log.index("a2+")
    assert log.index("b1+") < log.index("a1-")  # another session is not held up


def test_a_failed_task_does_not_stop_the_next(pool):
    doc = Document()
    failed = in_order(pool, doc, lambda: 1 / 0)
    after = in_order(pool, doc, lambda: "ran")
    assert after.result(timeout=5) == "ran"
    assert isinstance(failed.exception(timeout=5), ZeroDivisionError)
