"""``wargame class`` (wargame/class_server.py, issue #29): the addresses it finds, the origins
and links it derives from them, the default rooms file, the short teacher key refused, and
what the command hands to the rooms' server (``serve_rooms`` replaced: nothing is served)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from wargame import class_server as cs
from wargame.cli import main
from wargame.i18n import using_language


def fake_machine(monkeypatch, route=(), interfaces=(), hostname=()):
    monkeypatch.setattr(cs, "route_address", lambda: list(route))
    monkeypatch.setattr(cs, "interface_addresses", lambda: list(interfaces))
    names = list(hostname)
    monkeypatch.setattr(cs, "hostname_addresses", lambda hostname=None: names)


def test_network_addresses_route_first_without_loopback_link_local_or_duplicates(monkeypatch):
    fake_machine(monkeypatch, route=["192.168.1.20"],
                 interfaces=["127.0.0.1", "10.0.0.5", "192.168.1.20", "169.254.3.4"],
                 hostname=["127.0.1.1", "10.0.0.5", "fe80::1", "0.0.0.0"])
    assert cs.network_addresses() == ["192.168.1.20", "10.0.0.5"]


def test_no_network_address_serves_localhost_and_says_so(monkeypatch):
    fake_machine(monkeypatch, route=[], interfaces=["127.0.0.1"], hostname=["127.0.1.1"])
    assert cs.network_addresses() == []
    plan = cs.plan_class(5006, cs.network_addresses(), "teacher-pc")
    assert plan.listen == "127.0.0.1" and not plan.networked
    assert plan.students == "http://localhost:5006/"
    assert plan.origins == ("localhost:5006", "127.0.0.1:5006")  # not the name: unreachable
    lines = cs.announce_lines(plan, "k" * 22, Path("/x/rooms.sqlite"))
    assert lines[0] == cs.CLASS_TEXT["no_network"] and "http://localhost:5006/" in lines[1]
    with using_language("pt"):
        assert "Não foi encontrado nenhum endereço" in cs.announce_lines(
            plan, "k" * 22, Path("r"))[0]


def test_with_addresses_every_one_is_an_origin_and_the_first_the_students_link():
    plan = cs.plan_class(5123, ["192.168.1.20", "10.0.0.5", "127.0.0.1"], "Teacher-PC")
    assert plan.listen == "0.0.0.0" and plan.networked
    assert plan.origins == ("localhost:5123", "127.0.0.1:5123", "192.168.1.20:5123",
                            "10.0.0.5:5123", "teacher-pc:5123", "teacher-pc.local:5123")
    assert plan.students == plan.public_base == "http://192.168.1.20:5123/"
    assert plan.also == ("http://10.0.0.5:5123/",)
    lines = "\n".join(cs.announce_lines(plan, "KEY-of-22-characters__", Path("r.sqlite")))
    assert "http://192.168.1.20:5123/teacher?key=KEY-of-22-characters__" in lines
    assert lines.count("KEY-of-22-characters__") == 1  # printed once
    assert cs.CLASS_TEXT["new_key"] in lines
    assert cs.CLASS_TEXT["new_key"] not in cs.announce_lines(plan, "k" * 22, Path("r"), False)
    # a name that is not a plain host name is not made an origin
    assert cs.class_origins(["10.0.0.5"], 80, "evil/name") == [
        "localhost:80", "127.0.0.1:80", "10.0.0.5:80"]
    assert "pc.school.lan:80" in cs.class_origins(["10.0.0.5"], 80, "pc.school.lan")


def test_usable_addresses():
    assert cs.usable_address("192.168.0.3") and cs.usable_address("172.20.1.1")
    for text in ("127.0.0.1", "169.254.1.1", "0.0.0.0", "::1", "fe80::1", "224.0.0.1",
                 "not an address", "2001:db8::1"):
        assert not cs.usable_address(text), text


def test_the_real_finders_return_ipv4_strings():
    for found in (cs.route_address(), cs.interface_addresses(), cs.hostname_addresses(),
                  cs.network_addresses()):
        assert isinstance(found, list)
        for address in found:
            socket.inet_aton(address)  # an IPv4 address, or OSError


def test_the_default_rooms_file_is_in_the_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("WARGAME_HOME", str(tmp_path))
    assert cs.default_rooms_file() == tmp_path / "class" / "rooms.sqlite"


@pytest.fixture
def served(monkeypatch, tmp_path):
    """``serve_rooms`` replaced by a recorder; the machine has 192.168.1.20 and 10.0.0.5."""
    calls: list[dict] = []

    def fake_serve_rooms(path, **kwargs):
        from wargame.ui.serve import teacher_key

        key = teacher_key(kwargs.get("key"))
        calls.append({"path": Path(path), **kwargs, "given_key": kwargs.get("key"), "key": key})
        kwargs["announce"](key)

    import wargame.ui.serve as serve

    monkeypatch.setattr(serve, "serve_rooms", fake_serve_rooms)
    monkeypatch.setenv("WARGAME_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("WARGAME_TEACHER_KEY", raising=False)
    fake_machine(monkeypatch, route=["192.168.1.20"], interfaces=["10.0.0.5"])
    monkeypatch.setattr(socket, "gethostname", lambda: "teacher-pc")
    return calls


def test_the_command_passes_the_found_origins_and_the_default_file(served, tmp_path, capsys):
    assert main(["class", "--no-show", "--port", "5077"]) == 0
    call = served[0]
    assert call["address"] == "0.0.0.0" and call["port"] == 5077 and call["show"] is False
    assert call["allow_origins"] == ["localhost:5077", "127.0.0.1:5077", "192.168.1.20:5077",
                                     "10.0.0.5:5077", "teacher-pc:5077",
                                     "teacher-pc.local:5077"]
    assert call["public_base"] == "http://192.168.1.20:5077/" and call["show_teacher"]
    assert call["path"] == tmp_path / "home" / "class" / "rooms.sqlite"
    assert call["path"].parent.is_dir()
    out = capsys.readouterr().out
    assert "http://192.168.1.20:5077/" in out and "http://10.0.0.5:5077/" in out
    assert f"http://192.168.1.20:5077/teacher?key={call['key']}" in out
    assert len(call["key"]) >= 22 and out.count(call["key"]) == 1


def test_the_command_in_portuguese_with_a_given_file(served, tmp_path, capsys):
    rooms = tmp_path / "aula.sqlite"
    assert main(["class", "--lang", "pt", "--rooms", str(rooms), "--no-show"]) == 0
    assert served[0]["path"] == rooms and served[0]["lang"] == "pt"
    out = capsys.readouterr().out
    assert "Os alunos abrem:  http://192.168.1.20:5006/" in out and "Servidor parado" in out


def test_a_short_teacher_key_is_refused(served, tmp_path, capsys):
    rooms = tmp_path / "r.sqlite"
    assert main(["class", "--no-show", "--rooms", str(rooms), "--teacher-key", "short-key"]) == 2
    err = capsys.readouterr().err
    assert "--teacher-key" in err and "12" in err and len(err.strip().splitlines()) == 1
    assert main(["class", "--no-show", "--rooms", str(rooms),
                 "--teacher-key", "twelve-chars"]) == 0
    assert served[-1]["key"] == "twelve-chars"


def test_a_folder_as_the_rooms_file_is_a_usage_error(served, tmp_path, capsys):
    assert main(["class", "--no-show", "--rooms", str(tmp_path)]) == 2
    assert "folder" in capsys.readouterr().err and not served


def test_help_in_both_languages(capsys):
    assert main(["class", "--help"]) == 0
    assert "--teacher-key" in capsys.readouterr().out
    assert main(["--lang", "pt", "class", "--help"]) == 0
    assert "página do professor" in capsys.readouterr().out


# ---------------------------------------------------------------------- rooms on Binder
def test_the_binder_teacher_key_is_made_once_and_shared(monkeypatch, tmp_path):
    """The Panel server on Binder has no terminal to print its key on: the first process to
    ask (the server or a notebook's binder_links) makes it, every later one reads it."""
    monkeypatch.setenv("WARGAME_HOME", str(tmp_path))
    monkeypatch.delenv("WARGAME_TEACHER_KEY", raising=False)
    key = cs.binder_teacher_key()
    assert len(key) >= 22 and cs.binder_teacher_key() == key
    path = cs.binder_key_file()
    assert path == tmp_path / "class" / "binder-teacher-key"
    assert path.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["binder-teacher-key"]  # no draft left
    links = cs.binder_links("/user/abc/")
    assert links == {"students": "/user/abc/panel/rooms",
                     "teacher": f"/user/abc/panel/teacher?key={key}"}
    monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", "/user/xyz")
    assert cs.binder_links()["students"] == "/user/xyz/panel/rooms"
    path.unlink()
    assert cs.binder_teacher_key() != key  # a deleted key file: a new key


def test_the_binder_teacher_key_from_the_environment_or_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("WARGAME_HOME", str(tmp_path))
    monkeypatch.setenv("WARGAME_TEACHER_KEY", "a class key of ours")
    assert cs.binder_teacher_key() == "a class key of ours"
    assert not cs.binder_key_file().exists()
    monkeypatch.delenv("WARGAME_TEACHER_KEY")
    cs.binder_key_file().parent.mkdir(parents=True)
    for text, words in (("", "empty"), ("short", "12")):
        cs.binder_key_file().write_text(text)
        with pytest.raises(ValueError, match=words):
            cs.binder_teacher_key()


def test_the_binder_pages_are_the_rooms_paths_and_nothing_else():
    from wargame.ui.rooms import ROOM_PATH, TEACHER_PATH

    assert cs.BINDER_PAGES == {"rooms": "/", "room": f"/{ROOM_PATH}",
                               "teacher": f"/{TEACHER_PATH}"}
    root = Path(__file__).resolve().parents[1]
    for name in cs.BINDER_PAGES:
        assert f'binder_page("{name}")' in (root / "binder" / f"{name}.py").read_text()
    with pytest.raises(ValueError, match="expected one of rooms, room, teacher"):
        cs.binder_page("../etc")
