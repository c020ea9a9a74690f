"""``wargame serve``'s server (wargame/ui/serve.py): the websocket origins it accepts and Panel's
``/components/`` route limited to modules already imported from the project, Panel and Bokeh.
A real server in a thread on 127.0.0.1 (no browser, no dashboard session)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import socket
import sys
import time
import types
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("panel")

from wargame.ui import serve  # noqa: E402

EXTRA_ORIGIN = "teacher.lan:80"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port: int, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    thread = serve.serve_dashboard(scenario="memoir44-1", port=port, threaded=True,
                                   address="127.0.0.1", allow_origins=[EXTRA_ORIGIN])
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            _get(port, "/components/")
            break
        except OSError:
            time.sleep(0.1)
    yield port
    thread.stop()


@pytest.fixture
def canary(tmp_path, monkeypatch) -> Path:
    """A module whose import leaves a file behind: proof that a URL made the server run it."""
    marker = tmp_path / "imported"
    (tmp_path / "wg_canary_mod.py").write_text(
        f"open({str(marker)!r}, 'w').write('imported')\nclass X:\n    __css__ = []\n",
        encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "wg_canary_mod", raising=False)
    return marker


def test_panels_own_route_imports_any_module_named_in_the_url(canary):
    """Why the limit is needed (docs/serving.md): Panel's handler imports the module first. If
    Panel stops doing that, this test fails: update docs/serving.md."""
    from panel.io.server import ComponentResourceHandler
    from tornado.web import HTTPError

    with pytest.raises(HTTPError):
        # the way panel/io/fastapi.py calls it, with the class for ``self``
        ComponentResourceHandler.parse_url_path(ComponentResourceHandler,
                                                "wg_canary_mod/X/__css__/a.css")
    assert canary.exists()


@pytest.mark.parametrize("module", ["wg_canary_mod", "antigravity", "os", "this",
                                    "panel.tests.conftest", "wargame.no_such_module"])
def test_the_served_route_imports_nothing(server, canary, module):
    before = set(sys.modules)
    code, _ = _get(server, f"/components/{module}/X/__css__/a.css")
    assert code == 404
    assert not canary.exists()
    assert not {m for m in set(sys.modules) - before if m.split(".")[0] == module.split(".")[0]}


def test_the_served_route_still_serves_listed_files_of_project_modules(server, tmp_path,
                                                                       monkeypatch):
    (tmp_path / "style.css").write_text(".wg { color: red }", encoding="utf-8")
    module = types.ModuleType("wargame._served_component")
    module.__file__ = str(tmp_path / "component.py")

    class Component:
        __css__ = ["style.css"]

    Component.__module__ = module.__name__
    module.Component = Component
    monkeypatch.setitem(sys.modules, module.__name__, module)
    code, body = _get(server, f"/components/{module.__name__}/Component/__css__/style.css")
    assert (code, body) == (200, b".wg { color: red }")
    # a file the component does not list stays refused (Panel's own check)
    assert _get(server, f"/components/{module.__name__}/Component/__css__/component.py")[0] == 403


def _websocket(port: int, origin: str) -> str | int:
    from bokeh.util.token import generate_jwt_token, generate_session_id
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    token = generate_jwt_token(generate_session_id())
    request = HTTPRequest(f"ws://127.0.0.1:{port}/ws", headers={
        "Origin": origin, "Sec-WebSocket-Protocol": f"bokeh,{token}"})

    async def connect() -> str | int:
        try:
            connection = await websocket_connect(request)
        except HTTPClientError as exc:
            return exc.code
        connection.close()
        return "open"

    # its own thread and loop: the browser tests' playwright may keep a loop running in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, connect()).result()


def test_the_websocket_accepts_only_the_listed_origins(server):
    assert _websocket(server, f"http://127.0.0.1:{server}") == "open"
    assert _websocket(server, "http://teacher.lan") == "open"  # port 80: as listed
    assert _websocket(server, "http://teacher.lan:8080") == 403
    assert _websocket(server, "http://evil.example") == 403


def test_origins_off_localhost_are_required_and_normalised():
    assert serve.websocket_origins("127.0.0.1", 5006) == ["localhost:5006", "127.0.0.1:5006"]
    assert serve.websocket_origins("0.0.0.0", 5006, ["192.168.1.20", "pc.lan:80", "::1"]) == [
        "192.168.1.20:5006", "pc.lan:80", "[::1]:5006"]
    with pytest.raises(ValueError, match="--allow-origin .*:5006"):
        serve.websocket_origins("0.0.0.0", 5006)
    with pytest.raises(ValueError, match="--allow-origin"):
        serve.websocket_origins("192.168.1.20", 5006, [])
    for bad in ("http://pc.lan", "pc.lan/app", "pc.lan:0", "pc.lan:http", "", "a b"):
        with pytest.raises(ValueError, match="--allow-origin"):
            serve.websocket_origins("0.0.0.0", 5006, [bad])


def test_serve_refuses_before_serving(monkeypatch):
    import panel as pn

    monkeypatch.setattr(pn, "serve", lambda *a, **k: pytest.fail("served"))
    for kwargs, needle in [
        ({"port": 0}, "port"),
        ({"address": "0.0.0.0"}, "--allow-origin"),
        ({"address": "no-such-host.invalid", "allow_origins": ["a"]}, "no-such-host.invalid"),
        ({"scenario": "dragoon", "variants": ["bfn"]}, "Campanha da Normandia"),
        ({"scenario": "memoir44-1", "variants": ["bfn"]}, "campaign games only"),
    ]:
        with pytest.raises(ValueError, match=needle):
            serve.serve_dashboard(**kwargs)


def test_the_server_builds_one_dashboard_before_its_first_session(monkeypatch):
    """wargame serve warms up (issue 15/19: a cold first load paid the dashboard's imports and
    data loading) with the scenario and language it serves, then serves."""
    import panel as pn

    calls: list[tuple] = []
    monkeypatch.setattr(serve, "build_dashboard",
                        lambda *a, **k: calls.append(("build", a)) or object())
    monkeypatch.setattr(pn, "serve", lambda *a, **k: calls.append(("serve", k["port"])))
    serve.serve_dashboard(scenario="dragoon", port=5999, lang="pt")
    assert calls == [("build", ("dragoon", None, (), "none", "pt")), ("serve", 5999)]


def test_a_warm_up_that_fails_is_left_to_the_session(monkeypatch, caplog):
    def broken(*a, **k):
        raise ValueError("bad data")

    monkeypatch.setattr(serve, "build_dashboard", broken)
    assert serve.warm_up("normandy") >= 0
    assert "warm-up of 'normandy' failed" in caplog.text


def test_computer_side_from_a_url_accepts_allies_in_any_case():
    """``?computer=`` names the computer's side: ``axis``, ``allied`` or ``allies`` in any
    case; anything else means nobody (never an error page, never a guess)."""
    assert serve.computer_side("axis") == "axis"
    assert serve.computer_side("Allies") == "allied"
    assert serve.computer_side(" allied ") == "allied"
    assert serve.computer_side(None) == "none"
    assert serve.computer_side("germans") == "none"
    for word in ("axis", "allies"):  # both games know the side the word names
        side = serve.computer_side(word)
        assert side in serve.COMPUTER_SIDES["campaign"]
        assert serve.COMPUTER_SIDES["memoir"][side] in ("axis", "allied")


def test_every_serve_path_reads_allies_as_the_allied_side():
    """``build_dashboard`` (the app's URL, ``wargame serve``, ``wargame.ui.widget``) reads the
    computer's side through ``computer_side``: ``Allies`` puts the computer on the Allied side
    of both games; an unknown word means nobody."""
    memoir = serve.build_dashboard("memoir44-1", 44, computer="Allies")
    assert memoir.store.computer == "allied"
    assert serve.build_dashboard("memoir44-1", 44, computer="germans").store.computer == "none"
    assert serve.build_dashboard("demo", 1, computer="allies").model.computer == "allied"
