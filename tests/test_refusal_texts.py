"""Refusals and the loaders' errors speak the player's language (issue #16).

Every refusal is a catalogue entry (wargame/error_texts.py) rendered when it is raised, in the
current language; the exception keeps ``key`` and ``data`` so it can be shown again in another
language. English texts are the ones the engines always gave (the refusal tests match them).
The loaders' errors (``ScenarioError``) name the file and the field in both languages."""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest

from wargame import errors, i18n
from wargame.error_texts import (
    LOADER,
    REFUSAL_CATALOGUES,
    REFUSALS_MEMOIR,
    TERMS,
    render_refusal,
)
from wargame.operational.actions import Move, action_from_dict
from wargame.operational.state import Game, State
from wargame.saves import from_save, parse_save_text, to_save
from wargame.scenario import load_scenario
from wargame.scenario_errors import ScenarioError

ROOT = Path(__file__).resolve().parent.parent
ENGINE_FILES = sorted([*ROOT.glob("wargame/operational/*.py"), *ROOT.glob("wargame/memoir/*.py")])
REFUSAL_CLASSES = {cls.__name__ for cls in errors.REFUSAL_KINDS.values()}


def _fields(template: str) -> list[str]:
    return [f for _, f, _, _ in string.Formatter().parse(template) if f]


def _sample(template: str) -> dict[str, object]:
    """Values for every placeholder: unit and place names as they are, a number, an id."""
    return {f: {"unit": "7th Armoured", "hex": "2813", "mp": 4}.get(f, f"X{i}")
            for i, f in enumerate(_fields(template))}


REFUSAL_KEYS = [f"{area}.{mid}" for area, cat in REFUSAL_CATALOGUES.items()
                for mid in [*cat, *cat.plurals]]


def test_the_refusal_catalogues_are_registered():
    assert "wargame.error_texts" in i18n.CATALOGUE_MODULES
    for domain in ("refusals.campaign", "refusals.memoir", "refusals.action", "refusals.terms",
                   "loader"):
        assert domain in i18n.load_catalogues()


@pytest.mark.parametrize("key", REFUSAL_KEYS)
def test_every_refusal_renders_in_portuguese_without_its_english(key):
    area, _, mid = key.partition(".")
    cat = REFUSAL_CATALOGUES[area]
    # a counted refusal: its form for many (the datum count = 2)
    english = cat.plural(mid, 2, english=True) if mid in cat.plurals else cat.english[mid]
    data = _sample(english) | ({"count": 2} if mid in cat.plurals else {})
    assert render_refusal(key, data) == english.format(**data)  # English: the same as ever
    with i18n.using_language("pt"):
        portuguese = render_refusal(key, data)
    assert portuguese != english.format(**data)
    assert "{" not in portuguese and all(str(data[f]) in portuguese for f in _fields(english))
    # no English sentence left: no run of three English words of the template survives
    words = re.findall(r"[a-z]+", re.sub(r"\{[^}]*\}|M44 \w+|BFN|Mulberries", "", english))
    for i in range(len(words) - 2):
        assert " ".join(words[i:i + 3]) not in portuguese, (key, portuguese)


def test_refusal_data_words_are_translated_but_names_stay():
    data = {"side": "allied", "edge": "south"}
    assert render_refusal("campaign.exit.edge_side", data) == (
        "allied units may not leave by the south edge")
    with i18n.using_language("pt"):
        text = render_refusal("campaign.exit.edge_side", data)
        assert "Aliados" in text and "sul" in text and "allied" not in text
        assert render_refusal("campaign.move.not_your_phase", {"phase": "axis_movement"}) == (
            "é a Fase de Movimentação do Eixo")
        assert "pântano" in render_refusal("campaign.move.prohibited_terrain",
                                           {"terrain": "marsh"})
        # a name that is no term (a unit, a place) is shown as it is
        assert "Caen" in render_refusal("campaign.exit.not_on_edge",
                                        {"hex": "Caen", "edge": "south"})
    for tid in TERMS:
        with i18n.using_language("pt"):
            assert TERMS[tid], tid


def test_no_refusal_in_the_engines_is_a_literal_english_sentence():
    """New refusals must go through the catalogue: ``refuse(Kind, "area.id", rule, **data)``."""
    found = []
    for path in ENGINE_FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else (
                node.func.attr if isinstance(node.func, ast.Attribute) else "")
            if name in REFUSAL_CLASSES and node.args and isinstance(
                    node.args[0], ast.Constant | ast.JoinedStr):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_every_refusal_key_used_in_the_engines_exists():
    used = set()
    for path in [*ENGINE_FILES, ROOT / "wargame" / "errors.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "refuse" and len(node.args) >= 2):
                key = node.args[1]
                assert isinstance(key, ast.Constant), f"{path}:{node.lineno}"
                used.add(key.value)
    assert len(used) > 100
    assert used <= set(REFUSAL_KEYS), used - set(REFUSAL_KEYS)


def test_every_memoir_battle_reason_is_made_from_its_key():
    """``battle_dice``'s reasons are ``errors.Reason``s made in battle.py from the catalogue's
    ``why.*`` keys (issue #35): each key is made there, and the refusal made of each carries it
    and shows in Portuguese, whatever its English says."""
    source = (ROOT / "wargame" / "memoir" / "battle.py").read_text(encoding="utf-8")
    made = set()
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "Reason"):
            key = node.args[0]
            assert isinstance(key, ast.Constant), f"battle.py:{node.lineno}"
            made.add(key.value)
    why_keys = {f"memoir.{mid}" for mid in REFUSALS_MEMOIR.english if mid.startswith("why.")}
    assert len(why_keys) >= 12 and made == why_keys
    for key in sorted(why_keys):
        data = dict.fromkeys(_fields(REFUSALS_MEMOIR.english[key.removeprefix("memoir.")]), 7)
        why = errors.Reason(key, **data)
        refusal = errors.battle_refusal(why, "M44 p.9 Battle")
        assert refusal.reason == why and (refusal.key, refusal.data) == (key, data)
        with i18n.using_language("pt"):
            pt = errors.battle_refusal(why, "M44 p.9 Battle")
        assert pt.reason != why and pt.reason == pt.render("pt") and pt.key == key


# --- real refusals, raised in Portuguese ---------------------------------------------------

@pytest.fixture(scope="module")
def normandy() -> Game:
    return Game(load_scenario("normandy"))


def _too_far(state: State) -> tuple[str, str]:
    """An Allied unit that may move and a land hex far beyond its reach."""
    board = state.game.board
    enemy = state.occupied_by("axis")
    for uid in sorted(state.units):
        if state.move_refusal(uid) is not None:
            continue
        here = state.units[uid].hex
        reach = state.reach(uid)
        for h in sorted(board.hexes, key=lambda x: x.id):
            if (board.is_land(h) and h not in reach and h not in enemy
                    and here.distance(h) >= 12):
                return uid, h.id
    raise AssertionError("no movable Allied unit")


def test_a_move_too_far_in_normandy_is_refused_in_portuguese(normandy):
    state = normandy.new_state(seed=6)
    uid, to = _too_far(state)
    before = json.dumps(state.fingerprint(), sort_keys=True)
    with pytest.raises(errors.MovementRefused) as english:
        state.apply(Move(uid, to))
    assert "is beyond the unit's movement" in english.value.reason
    with i18n.using_language("pt"), pytest.raises(errors.MovementRefused) as exc:
        state.apply(Move(uid, to))
    refusal = exc.value
    assert refusal.rule == "CN 4.0" == english.value.rule
    assert refusal.key == "campaign.move.beyond_reach" and refusal.data["hex"] == to
    assert refusal.reason.startswith(f"{to} fica além da movimentação")
    assert "pontos de movimentação" in refusal.reason and "beyond" not in refusal.reason
    assert str(refusal) == f"CN 4.0: {refusal.reason}"
    assert json.dumps(state.fingerprint(), sort_keys=True) == before
    # the same refusal shown again in the other language (a seat, a bot's explanation)
    assert refusal.render("en") == english.value.reason
    assert english.value.render("pt") == refusal.reason


def test_a_malformed_action_is_refused_in_portuguese(normandy):
    state = normandy.new_state(seed=6)
    with i18n.using_language("pt"):
        with pytest.raises(errors.MalformedAction) as exc:
            action_from_dict({"kind": "move", "unit": 5, "to": "1010"})
        assert exc.value.reason == "move: 'unit' tem de ser um texto curto (um identificador), não 5"
        with pytest.raises(errors.MalformedAction) as exc:
            state.apply(Move(_too_far(state)[0], "zz"))
        assert exc.value.reason == "o destino 'zz' não é um identificador de hexágono"
        with pytest.raises(errors.MalformedAction) as exc:
            action_from_dict({"kind": "fly"})
        assert exc.value.reason.startswith("não é uma ação: {'kind': 'fly'}; esperava-se")


def test_a_bad_save_file_is_reported_in_portuguese(normandy, tmp_path):
    with i18n.using_language("pt"):
        with pytest.raises(ScenarioError) as exc:
            parse_save_text('{"format": 1,', "partida.json")
        message = str(exc.value)
        assert message.startswith("partida.json: campo 'linha 1 coluna 14': esperava-se JSON "
                                  "completo e válido (o ficheiro está cortado?), encontrado")
        assert exc.value.field == "line 1 column 14" and exc.value.key == "save.json"
        save = to_save(normandy.new_state(seed=6))
        save["fingerprint"] = {"edited": True}
        with pytest.raises(ScenarioError) as exc:
            from_save(save, "gravado.json")
        assert str(exc.value) == ("gravado.json: campo 'fingerprint': esperava-se a posição a que "
                                  "se chega repetindo as ações (o ficheiro foi editado ou "
                                  "danificado)")
    # English as ever, and the error shown again in Portuguese
    with pytest.raises(ScenarioError) as exc:
        parse_save_text(b"\xff\xfe", "partida.json")
    assert str(exc.value) == "partida.json: field '(file)': expected UTF-8 JSON text"
    assert exc.value.render("pt") == (
        "partida.json: campo '(ficheiro)': esperava-se texto JSON em UTF-8")


def test_a_bad_scenario_file_is_reported_in_portuguese(tmp_path):
    import shutil

    folder = tmp_path / "normandia"
    shutil.copytree(ROOT / "scenarios" / "normandy", folder)
    setup = folder / "setup.yaml"
    text = setup.read_text(encoding="utf-8")
    setup.write_text(text + "\n  - {unit: [broken\n", encoding="utf-8")
    with i18n.using_language("pt"), pytest.raises(ScenarioError) as exc:
        load_scenario(folder)
    message = str(exc.value)
    assert message.startswith(f"{setup}: campo 'linha ")
    assert "esperava-se YAML válido sem aliases, encontrado" in message
    # the parser's own words are what was found, quoted; the frame is Portuguese
    assert "field '" not in message and "expected valid" not in message
    with pytest.raises(ScenarioError) as english:
        load_scenario(folder)
    assert str(english.value).startswith(f"{setup}: field 'line ")
    assert "expected valid YAML without aliases" in str(english.value)


def test_a_scenario_setup_on_the_sea_names_file_field_and_terrain_in_portuguese(tmp_path):
    import shutil

    import yaml

    folder = tmp_path / "normandia"
    shutil.copytree(ROOT / "scenarios" / "normandy", folder)
    game = Game(load_scenario("normandy"))
    sea = next(h.id for h, info in sorted(game.board.hexes.items(), key=lambda kv: kv[0].id)
               if info.terrain == "sea")
    setup_path = folder / "setup.yaml"
    data = yaml.safe_load(setup_path.read_text(encoding="utf-8"))
    data["setup"][0]["hex"] = sea
    setup_path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with i18n.using_language("pt"), pytest.raises(ScenarioError) as exc:
        load_scenario(folder)
    assert str(exc.value).startswith(f"{setup_path}: campo 'setup[0].hex': esperava-se um "
                                     "hexágono de terra do mapa")
    assert "(mar não serve)" in str(exc.value)
    assert exc.value.render("en").startswith(f"{setup_path}: field 'setup[0].hex': expected a "
                                             "land hex of the map")


def test_every_loader_text_is_translated_with_its_placeholders():
    with i18n.using_language("pt"):
        for key in LOADER:
            english = LOADER.english[key]
            assert LOADER[key] != english, key
            assert sorted(_fields(LOADER[key])) == sorted(_fields(english)), key


def test_a_bad_memoir_scenario_file_is_reported_in_portuguese(tmp_path):
    from wargame.memoir.scenario import check_memoir

    data = json.loads((ROOT / "scenarios" / "memoir44" / "1.json").read_text(encoding="utf-8"))
    data["number"] = "one"
    data["medal_to_win"] = data.pop("medals_to_win")
    path = tmp_path / "memoir44" / "1.json"
    path.parent.mkdir()
    path.write_text(json.dumps(data), encoding="utf-8")
    with i18n.using_language("pt"), pytest.raises(ScenarioError) as exc:
        check_memoir(path)
    message = str(exc.value)
    assert message.startswith(f"{path}: campo '")
    assert "esperava-se" in message and "expected" not in message
    english = exc.value.render("en")
    assert english.startswith(f"{path}: field '") and "expected" in english
    data["medals_to_win"] = data.pop("medal_to_win")
    path.write_text(json.dumps(data), encoding="utf-8")
    with i18n.using_language("pt"), pytest.raises(ScenarioError) as exc:
        check_memoir(path)
    assert str(exc.value) == f"{path}: campo 'number': esperava-se um número inteiro, encontrado 'one'"
    with pytest.raises(ScenarioError) as exc:
        check_memoir(path)
    assert str(exc.value) == f"{path}: field 'number': expected a whole number, found 'one'"
