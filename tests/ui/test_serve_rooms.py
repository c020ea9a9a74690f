"""``wargame serve --rooms``: its routes, its refusals before serving, and a room whose Axis
seat the computer holds, followed by the human seat's store."""

from __future__ import annotations

import pytest

from wargame.cli import main
from wargame.ui.seats import seat_store
from wargame.ui.serve import rooms_apps, serve_rooms, teacher_key


def test_rooms_routes_and_key(monkeypatch):
    apps = rooms_apps(object(), "k")
    assert set(apps) == {"/", "/room", "/teacher"}
    monkeypatch.setenv("WARGAME_TEACHER_KEY", "from-the-env")
    assert teacher_key("given-key-12") == "given-key-12"
    assert teacher_key(None) == "from-the-env"
    monkeypatch.delenv("WARGAME_TEACHER_KEY")
    assert teacher_key(None) != teacher_key(None)  # random each start
    assert len(teacher_key(None)) >= 22  # secrets.token_urlsafe(16): 128 bits


def test_a_given_teacher_key_under_12_characters_is_refused(monkeypatch, tmp_path, capsys):
    with pytest.raises(ValueError, match="--teacher-key.*at least 12 characters"):
        teacher_key("eleven-char")
    monkeypatch.setenv("WARGAME_TEACHER_KEY", "short")
    with pytest.raises(ValueError, match="WARGAME_TEACHER_KEY"):
        teacher_key(None)
    monkeypatch.delenv("WARGAME_TEACHER_KEY")
    with pytest.raises(ValueError, match="12"):
        serve_rooms(tmp_path / "r.sqlite", key="short")
    assert not (tmp_path / "r.sqlite").exists()  # refused before the file is made
    assert main(["serve", "--rooms", str(tmp_path / "r.sqlite"), "--no-show",
                 "--teacher-key", "short"]) == 2
    err = capsys.readouterr().err
    assert "at least 12 characters" in err and len(err.strip().splitlines()) == 1


def test_serve_rooms_refuses_before_serving(tmp_path):
    with pytest.raises(ValueError, match="allow-origin"):
        serve_rooms(tmp_path / "r.sqlite", address="0.0.0.0")
    with pytest.raises(ValueError, match="port"):
        serve_rooms(tmp_path / "r.sqlite", port=0)
    assert not (tmp_path / "r.sqlite").exists()  # nothing created before the checks


def test_cli_rooms_on_a_folder_is_a_usage_error(tmp_path, capsys):
    assert main(["serve", "--rooms", str(tmp_path), "--no-show"]) == 2
    err = capsys.readouterr().err
    assert "--rooms" in err and "folder" in err and len(err.strip().splitlines()) == 1


def test_a_computer_seat_plays_and_the_human_seat_follows(tmp_path):
    from wargame.rooms import RoomManager

    with RoomManager(tmp_path / "rooms.sqlite") as manager:
        room = manager.create("memoir44-1", seed=44, computer={"axis": "easy"})
        allied = seat_store(room, room.seats["allied"])
        heard: list[int] = []
        allied.on_change = lambda: heard.append(1)
        own = 0
        while allied.state.side_to_act == "allied":
            assert allied.auto()
            own += 1
        assert room.wait_idle(timeout=60)
        allied.sync()
        assert allied.state.fingerprint() == room.state().fingerprint()
        # every action of the computer told; the seat's own acts sync themselves (issue #31)
        assert own >= 1 and len(heard) == room.version - own
        assert room.version > 4 and allied.state.side_to_act == "allied"
        allied.close()
