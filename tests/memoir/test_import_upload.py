"""Issue 32: the "Importar cenário (.m44)" control of the Memoir '44 dashboard and of the
rooms' landing page (wargame/ui/m44_upload.py), without a browser."""

from __future__ import annotations

import json

import pytest

from wargame.memoir.scenario import load_scenario, user_scenario_ids
from wargame.paths import user_memoir_dir
from wargame.rooms import RoomManager
from wargame.scenario_errors import MAX_FILE_BYTES
from wargame.ui.m44_upload import M44Import
from wargame.ui.memoir import MemoirDashboard
from wargame.ui.rooms import Landing
from wargame.ui.serve import room_game

LAYOUT = {"game_info": {"side_player1": "AXIS", "side_player2": "ALLIES"},
          "board": {"type": "standard", "hexagons": [
              {"row": 0, "col": 0, "unit": {"name": "infger"}},
              {"row": 8, "col": 24, "unit": {"name": "infbrit"}},
              {"row": 4, "col": 4, "terrain": {"name": "wforest"}}]}}


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("WARGAME_HOME", str(tmp_path / "home"))


def test_an_upload_is_imported_under_a_name_never_a_path():
    seen = []
    control = M44Import(seen.append, lang="pt")
    sid = control.import_bytes(json.dumps(LAYOUT).encode(), "../../etc/My Battle.m44")
    assert sid == "my-battle" and seen == ["my-battle"] and user_scenario_ids() == ["my-battle"]
    assert (user_memoir_dir() / "my-battle.json").is_file()
    assert "Importado" in control.message.object and "Reino Unido" in control.message.object
    assert "British" not in control.message.object  # the report in the reader's language
    assert load_scenario("my-battle").units[1].nation == "British"


def test_a_bad_or_too_large_upload_is_refused_with_its_reason_and_writes_nothing():
    control = M44Import(lang="en")
    assert control.import_bytes(b"x" * (MAX_FILE_BYTES + 1), "big.m44") is None
    assert "MB" in control.message.object
    bad = dict(LAYOUT, board=dict(LAYOUT["board"], hexagons=[
        {"row": 1, "col": 1, "terrain": {"name": "pairfield"}}]))
    assert control.import_bytes(json.dumps(bad).encode(), "air.m44") is None
    assert "pairfield" in control.message.object and "wargame-m44-" not in control.message.object
    assert control.import_bytes(b"{not json", "broken.m44") is None
    assert user_scenario_ids() == []


def test_the_dashboard_and_the_landing_page_offer_the_imported_scenario(tmp_path):
    board = MemoirDashboard("1", 3)
    sid = board.importer.import_bytes(json.dumps(LAYOUT).encode(), "club.m44")
    assert sid == "club" and board.chooser.value == "club" and board.really.visible
    with RoomManager(tmp_path / "class.sqlite", games=room_game) as manager:
        landing = Landing(manager, lang="pt")
        assert landing.importer.import_bytes(json.dumps(LAYOUT).encode(), "clube.m44") == "clube"
        assert landing.game.value == "memoir44-clube"
        assert "memoir44-clube" in landing.game.options.values()


def test_the_counter_of_an_imported_unit_says_its_nation():
    control = M44Import(lang="en")
    assert control.import_bytes(json.dumps(LAYOUT).encode(), "brits.m44") == "brits"
    board = MemoirDashboard("brits", 1)
    titles = list(board.map.counter_source.data["title"])
    assert any(t.endswith("(British)") for t in titles)
    assert sum("(British)" in t for t in titles) == 1


def test_the_dashboard_draws_the_whole_breakthrough_board():
    deep = dict(LAYOUT, board=dict(LAYOUT["board"], type="BRKTHRU", hexagons=[
        {"row": 0, "col": 0, "unit": {"name": "infger"}},
        {"row": 16, "col": 0, "unit": {"name": "infus"}}]))
    assert M44Import(lang="en").import_bytes(json.dumps(deep).encode(), "deep.m44") == "deep"
    board = MemoirDashboard("deep", 1)
    assert len(board.map.hex_source.data["id"]) == 9 * 13 + 8 * 12  # 17 rows drawn
