"""The CLI's remaining tables in Portuguese (issue #16): ``wargame --lang pt rooms list``,
``study``, ``scenario import`` and the options' help; English unchanged without --lang."""

from __future__ import annotations

import json

import pytest

from wargame import cli


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_every_help_text_of_the_options_is_a_catalogue_entry(capsys):
    """No option's help is inline English: under --lang pt each command's --help is
    Portuguese (the help of every option comes from a catalogue)."""
    from wargame.i18n import translations, using_language

    with using_language("pt"):
        parser = cli.build_parser()
    english = {text for cat in (cli.TEXT, cli.HELP, cli.STUDY_TEXT, cli.ROOMS_TEXT)
               for text in cat.english.values()}
    portuguese = set(translations("pt").values())
    stack = [parser]
    seen = 0
    while stack:
        p = stack.pop()
        for action in p._actions + [c for a in p._actions
                                    for c in getattr(a, "_choices_actions", [])]:
            if action.help and action.option_strings != ["-h", "--help"]:
                seen += 1
                # a Portuguese text of a catalogue (inline English would be neither)
                assert action.help not in english, (p.prog, action.dest, action.help)
                assert action.help in portuguese or action.help.endswith(".md)"), (
                    p.prog, action.dest, action.help)
            choices = getattr(action, "choices", None)
            if isinstance(choices, dict):
                stack += [sub for sub in choices.values() if hasattr(sub, "_actions")]
    assert seen > 60
    code, out, _ = run(capsys, "--lang", "pt", "serve", "--help")
    assert code == 0 and "servir salas para uma turma" in out and "não abrir o navegador" in out
    code, out, _ = run(capsys, "serve", "--help")
    assert code == 0 and "serve rooms for a class" in out


def test_rooms_list_export_delete_in_portuguese(capsys, tmp_path):
    from tests.rooms.roomkit import opener, play
    from wargame.rooms import RoomManager

    db = tmp_path / "rooms.sqlite"
    with RoomManager(db, games=opener) as m:
        room = m.create("memoir44-1", seed=3)
        play(room, 4)
        rid, code = room.id, room.code
    status, out, err = run(capsys, "--lang", "pt", "rooms", "list", "--db", str(db))
    assert status == 0, err
    head, row = out.splitlines()[:2]
    assert head.split()[:4] == ["SALA", "CÓDIGO", "JOGO", "AÇÕES"] and "ESTADO" in head
    assert rid in row and code in row and "vez do lado" in row
    status, out, _ = run(capsys, "rooms", "list", "--db", str(db))
    assert out.split()[:2] == ["ROOM", "CODE"] and " to act" in out
    status, out, _ = run(capsys, "--lang", "pt", "rooms", "list", "--db", str(db), "--json")
    assert json.loads(out)["rooms"][0]["id"] == rid
    status, out, _ = run(capsys, "--lang", "pt", "rooms", "export", rid, str(tmp_path / "s.json"),
                         "--db", str(db))
    assert status == 0 and out.startswith(f"sala {rid} (4 ações) gravada em")
    status, _, err = run(capsys, "--lang", "pt", "rooms", "delete", "nope", "--db", str(db))
    assert status == 1 and "não há sala 'nope'" in err
    status, out, _ = run(capsys, "--lang", "pt", "rooms", "delete", rid, "--db", str(db))
    assert status == 0 and out.strip() == f"sala {rid} apagada"
    status, out, _ = run(capsys, "--lang", "pt", "rooms", "list", "--db", str(db))
    assert out.startswith("não há salas em")
    status, _, err = run(capsys, "--lang", "pt", "rooms", "list", "--db",
                         str(tmp_path / "none.sqlite"))
    assert status == 1 and "essa base de dados de salas não existe" in err


def test_a_study_answers_in_portuguese(capsys, tmp_path):
    """Zero games: the study's head and table lines without running any game."""
    status, out, err = run(capsys, "--lang", "pt", "study", "--scenario", "memoir44-1",
                           "--games", "0", "--out", str(tmp_path / "s"), "--quiet")
    assert status == 0, err
    assert out.startswith("estudo ") and "partidas" in out and "tabela:" in out
    status, _, err = run(capsys, "--lang", "pt", "study", "--workers", "0")
    assert status == 2 and "tem de ser um número inteiro >= 1" in err
    (tmp_path / "f").write_text("x")
    status, _, err = run(capsys, "--lang", "pt", "study", "--out", str(tmp_path / "f"))
    assert status == 2 and "é um ficheiro; indique uma pasta" in err


def test_scenario_import_in_portuguese_writes_english_into_the_file(capsys, tmp_path,
                                                                   monkeypatch):
    from wargame.memoir.m44 import to_m44
    from wargame.memoir.scenario import index

    monkeypatch.setenv("WARGAME_HOME", str(tmp_path / "home"))
    layout = tmp_path / "Sword Beach.m44"
    layout.write_text(json.dumps(to_m44(index()["3"])), encoding="utf-8")
    status, out, err = run(capsys, "--lang", "pt", "scenario", "import", str(layout))
    assert status == 0, err
    assert "reconhecido como o cenário incluído 3" in out
    saved = json.loads((tmp_path / "home" / "scenarios" / "memoir44" / "sword-beach.json")
                       .read_text(encoding="utf-8"))
    assert any("recognised as the bundled scenario 3" in n for n in saved["notes"])
    assert "imported by wargame scenario import" in saved["provenance"]
    status, _, err = run(capsys, "--lang", "pt", "scenario", "import", str(layout))
    assert status == 2 and "já existe um cenário importado" in err and "--replace" in err
    data = to_m44(index()["14"])
    data["board"]["hexagons"].append({"row": 4, "col": 0, "terrain": {"name": "price"}})
    bad = tmp_path / "expansion.m44"
    bad.write_text(json.dumps(data), encoding="utf-8")
    status, _, err = run(capsys, "--lang", "pt", "scenario", "import", str(bad))
    assert status == 2 and "não é possível jogar 1 elemento deste mapa" in err
    assert "terreno 'price' (sem efeito conhecido) em (4,0)" in err and len(err.strip().splitlines()) == 1


def test_serve_rooms_passes_the_language_down(monkeypatch, tmp_path):
    import sys
    import types

    calls = []
    fake = types.ModuleType("wargame.ui.serve")
    fake.serve_rooms = lambda path, **kw: calls.append(kw)
    monkeypatch.setitem(sys.modules, "wargame.ui.serve", fake)
    db = str(tmp_path / "r.sqlite")
    assert cli.main(["--lang", "pt", "serve", "--rooms", db, "--no-show"]) == 0
    assert cli.main(["serve", "--rooms", db, "--no-show"]) == 0
    assert calls[0]["lang"] == "pt" and calls[1]["lang"] == "en"


def test_argparse_own_words_follow_the_language(capsys):
    """argparse's "usage:", "options", -h's help and its usage errors are catalogue texts:
    Portuguese under --lang pt, argparse's English without it, and argparse is left as it was."""
    import argparse

    before = argparse._
    code, out, _ = run(capsys, "--lang", "pt", "odds", "--help")
    assert code == 0 and out.startswith("utilização: wargame odds")
    assert "opções:" in out and "mostra esta ajuda e sai" in out and "usage:" not in out
    code, _, err = run(capsys, "--lang", "pt", "odds", "--game", "chess")
    assert code == 2 and "escolha inválida: 'chess'" in err and "invalid choice" not in err
    code, _, err = run(capsys, "--lang", "pt", "odds")
    assert code == 2 and "faltam os argumentos obrigatórios: --game" in err
    code, out, _ = run(capsys, "odds", "--help")
    assert out.startswith("usage: wargame odds") and "show this help message and exit" in out
    code, _, err = run(capsys, "odds")
    assert "the following arguments are required: --game" in err
    assert argparse._ is before
