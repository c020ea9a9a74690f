"""The Load button checks a save's size before it is sent, and the server checks again
(issue #31; wargame/ui/upload.py). The browser's side is tested in
tests/ui/test_session_browser.py; here the server's side, message by message, as
panel_material_ui's file input sends them."""

from __future__ import annotations

import pytest
from bokeh.server.tornado import DEFAULT_WEBSOCKET_MAX_MESSAGE_SIZE_BYTES

from tests.ui.test_store import play
from wargame.i18n import using_language
from wargame.saves import MAX_SAVE_BYTES
from wargame.ui.upload import CHUNK_BYTES, MAX_CHUNKS, SaveInput, refusal_text


def chunks(data: bytes, name: str = "save.json", size: int = CHUNK_BYTES) -> list[dict]:
    parts = [data[i:i + size] for i in range(0, len(data), size)] or [b""]
    return [{"type": "status", "status": "upload_event", "chunk": i + 1, "data": part,
             "name": name, "total_chunks": len(parts), "mime_type": "application/json"}
            for i, part in enumerate(parts)]


def send(widget: SaveInput, data: bytes, **kw) -> None:
    widget._handle_msg({"type": "status", "status": "initializing"})
    for msg in chunks(data, **kw):
        widget._handle_msg(msg)
    widget._handle_msg({"type": "status", "status": "finished"})


@pytest.fixture
def upload():
    told: list[str] = []
    widget = SaveInput(on_refused=told.append)
    widget._send_msg = lambda data: None  # no page: what would go back to it is dropped
    return widget, told


def test_the_limits_are_the_saves_and_each_message_is_far_under_bokehs():
    widget = SaveInput()
    assert widget.max_file_size == MAX_SAVE_BYTES == widget.max_total_file_size
    assert widget.chunk_size == CHUNK_BYTES
    assert CHUNK_BYTES * 4 < DEFAULT_WEBSOCKET_MAX_MESSAGE_SIZE_BYTES
    assert MAX_CHUNKS * CHUNK_BYTES >= MAX_SAVE_BYTES and widget.accept == ".json"


def test_a_file_in_several_chunks_arrives_whole(upload):
    widget, told = upload
    data = b"{" + b"x" * (2 * CHUNK_BYTES + 10) + b"}"
    send(widget, data)
    assert widget.value == data and widget.filename == "save.json" and told == []
    assert widget._file_buffer == {} and widget._buffer == []


def test_the_browsers_refusal_is_told_and_nothing_is_kept(upload):
    widget, told = upload
    widget._handle_msg({"type": "status", "status": "error",
                        "error": 'File "big.json" (25 MB) exceeds maximum file size'})
    assert told == ["too_big"] and widget.value is None and widget.refused == 1


def test_a_page_that_skips_the_check_is_cut_off_at_the_limit(upload):
    widget, told = upload
    big = b"y" * (MAX_SAVE_BYTES + 1)
    send(widget, big)
    assert told == ["too_big"] and widget.value is None
    assert widget._file_buffer == {} and widget._received == 0  # nothing of it is held
    send(widget, b'{"ok": 1}')  # the next file is taken
    assert widget.value == b'{"ok": 1}' and told == ["too_big"]


@pytest.mark.parametrize("bad", [
    {"chunk": 2},                          # out of order
    {"chunk": 0},                          # not a chunk number
    {"total_chunks": MAX_CHUNKS + 1},      # more chunks than a save may take
    {"data": "text, not bytes"},
    {"data": b"z" * (CHUNK_BYTES + 1)},    # a chunk larger than the page sends
    {"name": None},
])
def test_chunks_no_page_would_send_are_refused(upload, bad):
    widget, told = upload
    widget._handle_msg({"type": "status", "status": "initializing"})
    msg = {**chunks(b"{}")[0], **bad}
    msg["total_chunks"] = max(msg["total_chunks"], msg["chunk"] if isinstance(msg["chunk"], int)
                              else 1)
    widget._handle_msg(msg)
    widget._handle_msg({"type": "status", "status": "finished"})
    assert len(told) == 1 and told[0] in ("too_big", "bad_upload") and widget.value is None


def test_a_second_file_drops_the_unfinished_first(upload):
    widget, told = upload
    widget._handle_msg({"type": "status", "status": "initializing"})
    first = chunks(b"a" * (CHUNK_BYTES + 5), name="one.json")
    widget._handle_msg(first[0])
    for msg in chunks(b'{"two": 2}', name="two.json"):
        widget._handle_msg(msg)
    widget._handle_msg({"type": "status", "status": "finished"})
    assert widget.value == b'{"two": 2}' and widget._received == 0


def test_the_refusal_reads_in_the_pages_language_in_its_message_bar():
    from wargame.ui.memoir import MemoirDashboard

    dash = MemoirDashboard("1", 44, lang="pt")
    play(dash.store, 3)
    fp = dash.store.state.fingerprint()
    dash.controls.load._handle_msg({"type": "status", "status": "error", "error": "too big"})
    assert dash.store.error and dash.store.state.fingerprint() == fp
    assert dash.store.message.startswith("Esse ficheiro tem mais de 20 MB")
    with using_language("en"):
        assert refusal_text("too_big").startswith("That file is larger than the 20 MB")


def test_the_campaign_dashboard_loads_through_the_chunked_input():
    from wargame.ui.campaign import CampaignDashboard

    d = CampaignDashboard("demo", seed=3)
    text = d.turn._save().getvalue()
    d.model.end_phase()
    assert d.model.s.action_log != []
    d.turn.load._send_msg = lambda data: None
    send(d.turn.load, text.encode())
    assert not d.model.error and "Game loaded" in d.model.message


def test_wargame_serve_takes_no_websocket_message_much_larger_than_a_piece(monkeypatch):
    import panel as pn

    from wargame.ui import serve

    calls: list[dict] = []
    monkeypatch.setattr(serve, "build_dashboard", lambda *a, **k: object())
    monkeypatch.setattr(pn, "serve", lambda *a, **k: calls.append(k))
    serve.serve_dashboard(scenario="memoir44-1", port=5998)
    limit = calls[0]["websocket_max_message_size"]
    assert limit == serve.WEBSOCKET_MAX_BYTES
    assert 2 * CHUNK_BYTES < limit < DEFAULT_WEBSOCKET_MAX_MESSAGE_SIZE_BYTES
