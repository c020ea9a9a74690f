"""``wargame rooms list|export|delete --db PATH`` (wargame/cli/rooms.py)."""

from __future__ import annotations

import json

from tests.rooms.roomkit import fingerprint, opener, play
from wargame import cli
from wargame.rooms import RoomManager
from wargame.saves import load_game


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def make_rooms(db_path):
    with RoomManager(db_path, games=opener) as m:
        a = m.create("memoir44-1", seed=3)
        b = m.create("demo", seed=4, computer={"axis": "greedy"})
        play(a, 12)
        play(b, 6)
        b.wait_idle(120)
        return {r.id: (r.code, r.version, fingerprint(r.state())) for r in (a, b)}


def test_list_export_delete(capsys, db_path, tmp_path):
    rooms = make_rooms(db_path)
    code, out, err = run(capsys, "rooms", "list", "--db", str(db_path))
    assert code == 0, err
    for room_id, (room_code, version, _) in rooms.items():
        line = next(line for line in out.splitlines() if line.startswith(room_id))
        assert room_code in line and f" {version} " in line and "to act" in line
    code, out, err = run(capsys, "rooms", "list", "--db", str(db_path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert {r["id"]: r["version"] for r in data["rooms"]} == {k: v[1] for k, v in rooms.items()}

    first = next(iter(rooms))
    save = tmp_path / "out" / "room.json"
    code, out, err = run(capsys, "rooms", "export", first, str(save), "--db", str(db_path))
    assert code == 0, err
    assert fingerprint(load_game(save)) == rooms[first][2]

    code, out, err = run(capsys, "rooms", "delete", first, "--db", str(db_path))
    assert code == 0 and "deleted" in out
    code, out, err = run(capsys, "rooms", "list", "--db", str(db_path), "--json")
    assert [r["id"] for r in json.loads(out)["rooms"]] == [k for k in rooms if k != first]
    # looking at the file never moved a computer seat
    with RoomManager(db_path, games=opener, start_computers=False) as m:
        assert {r.id: r.version for r in m.rooms()} == {k: v[1] for k, v in rooms.items()
                                                       if k != first}


def test_errors_are_one_line(capsys, db_path, tmp_path):
    make_rooms(db_path)
    cases = [
        (["rooms", "export", "nope", str(tmp_path / "x.json"), "--db", str(db_path)],
         1, "no room 'nope'"),
        (["rooms", "delete", "nope", "--db", str(db_path)], 1, "no room 'nope'"),
        (["rooms", "list", "--db", str(tmp_path / "missing.sqlite")], 1,
         "no such rooms database"),
        (["rooms", "list"], 2, "--db"),
    ]
    text = tmp_path / "notes.txt"
    text.write_text("not a database")
    cases.append((["rooms", "list", "--db", str(text)], 1, "not an SQLite database"))
    for argv, expected, words in cases:
        code, out, err = run(capsys, *argv)
        assert code == expected, (argv, err)
        assert words in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "missing.sqlite").exists()
