"""Input that is not what it claims (issue #31 item 3): files that are not regular files, numbers
out of bounds, NaN and infinity, a 5,000-digit seed, a save of a later format, and the command
line's last guard. Each refusal names the file and field or the option and its bound, in one
line, in English and Portuguese, at once (a FIFO is refused from ``stat``, never opened)."""

from __future__ import annotations

import json
import math
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from wargame import cli
from wargame.i18n import using_language
from wargame.saves import from_save, load_game, parse_save_text, to_save
from wargame.scenario_errors import ScenarioError, load_yaml
from wargame.schema.common import Model, Number, validate

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
CORES = os.cpu_count() or 1


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _unblock(fifo: Path) -> None:
    """Open the FIFO's other end, so that a reader stuck in open() goes on (the old code)."""
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass


def run_or_fail_if_blocked(capsys, fifo: Path, *argv: str) -> tuple[int, str, str]:
    result: list = []
    worker = threading.Thread(target=lambda: result.append(run(capsys, *argv)), daemon=True)
    worker.start()
    worker.join(60)  # the answer comes at once; 60 s only for a machine under heavy load
    if worker.is_alive():
        _unblock(fifo)
        worker.join(10)
        pytest.fail(f"{argv} blocked on the FIFO")
    return result[0]


# ------------------------------------------------------------------ only regular files
@needs_fifo
@pytest.mark.parametrize("name, argv", [
    ("scenario.yaml", ["scenario", "validate", "{path}"]),
    ("layout.m44", ["scenario", "validate", "{path}"]),
    ("layout.m44", ["scenario", "import", "{path}"]),
    ("w.yaml", ["study", "--scenario", "dragoon", "--games", "1", "--whatif", "{path}",
                "--out", "{out}", "--quiet"]),
])
def test_a_fifo_is_refused_by_name_without_blocking(capsys, tmp_path, name, argv):
    fifo = tmp_path / name
    os.mkfifo(fifo)
    argv = [a.format(path=fifo, out=tmp_path / "out") for a in argv]
    code, out, err = run_or_fail_if_blocked(capsys, fifo, *argv)
    assert code in (1, 2), err
    assert str(fifo) in err and "FIFO" in err and "regular file" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()  # the study stopped before anything was written


@pytest.mark.parametrize("argv", [
    ["scenario", "import", "{path}"],
    ["study", "--scenario", "dragoon", "--games", "1", "--whatif", "{path}", "--out", "{out}"],
])
def test_a_folder_is_refused_by_name(capsys, tmp_path, argv):
    folder = tmp_path / "a.m44"
    folder.mkdir()
    code, _, err = run(capsys, *[a.format(path=folder, out=tmp_path / "o") for a in argv])
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert str(folder) in err and "regular file" in err and "folder" in err


@needs_fifo
def test_load_game_and_the_loaders_refuse_a_fifo_and_a_folder_in_both_languages(tmp_path):
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    for lang, words in (("en", ("regular file", "named pipe (FIFO)", "folder")),
                        ("pt", ("ficheiro normal", "pipe com nome (FIFO)", "pasta"))):
        with using_language(lang):
            from wargame.scenario_errors import read_bytes

            for load in (load_game, load_yaml, read_bytes):
                with pytest.raises(ScenarioError) as info:
                    load(fifo)
                assert str(fifo) in str(info.value)
                assert words[0] in str(info.value) and words[1] in str(info.value)
                with pytest.raises(ScenarioError) as info:
                    load(tmp_path)
                assert words[0] in str(info.value) and words[2] in str(info.value)


def test_read_bytes_keeps_its_limit(tmp_path):
    from wargame.scenario_errors import read_bytes

    path = tmp_path / "big.json"
    path.write_bytes(b"x" * 11)
    assert read_bytes(path, 11) == b"x" * 11
    with pytest.raises(ScenarioError, match="at most") as info:
        read_bytes(path, 10)
    assert str(path) in str(info.value) and "11 bytes" in str(info.value)


# ------------------------------------------------------------------ numbers bounded
@pytest.mark.parametrize("lang, words", [("en", "at most"), ("pt", "no máximo")])
@pytest.mark.parametrize("option, value, bound", [
    ("--games", "1000000000", "1000000"),
    ("--games", "1000001", "1000000"),
    ("--workers", str(2 * CORES + 1), str(2 * CORES)),
    ("--workers", "12" + "0" * 30, str(2 * CORES)),
])
def test_study_numbers_are_bounded_naming_the_option_and_the_bound(capsys, tmp_path, lang,
                                                                    words, option, value, bound):
    code, out, err = run(capsys, "--lang", lang, "study", "--scenario", "nowhere", option, value,
                         "--out", str(tmp_path / "o"))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert option in err and f"{words} {bound}" in err and value[:30] in err
    assert "nowhere" not in err  # refused before the scenario is looked at
    assert not (tmp_path / "o").exists()


def test_the_study_api_has_the_same_bounds():
    from wargame.analysis.study import MAX_STUDY_GAMES, max_workers, run_study

    assert cli.MAX_STUDY_GAMES == MAX_STUDY_GAMES == 1_000_000 and max_workers() == 2 * CORES
    with pytest.raises(ValueError, match="games"):
        run_study("dragoon", 10**9, progress=False)
    with pytest.raises(ValueError, match="workers"):
        run_study("dragoon", 1, workers=2 * CORES + 1, progress=False)


# ------------------------------------------------------------------ NaN and infinity
@pytest.mark.parametrize("text, field", [
    ("postures:\n  allied: {engage_ratio: .nan, attack_threshold: 1}\n",
     "postures.allied.engage_ratio"),
    ("postures:\n  axis: {engage_ratio: 1.5, attack_threshold: .inf}\n",
     "postures.axis.attack_threshold"),
    ("postures:\n  axis: {engage_ratio: .inf, attack_threshold: 1}\n",
     "postures.axis.engage_ratio"),
    ("rules: {naval_support: {strength: -.inf}}\n", "rules.naval_support.strength"),
])
def test_a_whatif_with_nan_or_infinity_is_refused_naming_the_field(capsys, tmp_path, text,
                                                                    field):
    path = tmp_path / "w.yaml"
    path.write_text(text)
    code, _, err = run(capsys, "study", "--scenario", "dragoon", "--games", "1", "--whatif",
                       str(path), "--out", str(tmp_path / "o"), "--quiet")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert str(path) in err and f"'{field}'" in err and "not NaN or infinity" in err
    assert not (tmp_path / "o").exists()  # nothing stored: the study cannot be left unresumable


class _Bag(Model):
    number: Number = 1
    data: Any = None


def test_the_shared_number_type_refuses_non_finite_values_naming_the_field():
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValidationError) as caught:  # the type alone, without validate's scan
            _Bag.model_validate({"number": bad})
        assert any(e["type"] == "finite_number" and e["loc"][0] == "number"
                   for e in caught.value.errors())
        with pytest.raises(ScenarioError) as info:
            validate(_Bag, {"number": bad}, "bag.yaml")
        assert "bag.yaml" in str(info.value) and "'number'" in str(info.value)
        assert "a number, not NaN or infinity" in str(info.value)
    with using_language("pt"), pytest.raises(ScenarioError, match="um número, não NaN nem infinito"):
        validate(_Bag, {"number": math.nan}, "bag.yaml")


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False,
                                                                       allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text("abc", min_size=1,
                                                                        max_size=3), inner,
                                                                max_size=4),
    max_leaves=20)


def _plant(data: Any, bad: Any, choices: list[int]) -> tuple[Any, str]:
    """``data`` with ``bad`` put in one place chosen by ``choices``, and that place's path."""
    if isinstance(data, dict) and data and choices:
        key = sorted(data)[choices[0] % len(data)]
        inner, path = _plant(data[key], bad, choices[1:])
        return {**data, key: inner}, f".{key}{path}"
    if isinstance(data, list) and data and choices:
        i = choices[0] % len(data)
        inner, path = _plant(data[i], bad, choices[1:])
        return data[:i] + [inner] + data[i + 1:], f"[{i}]{path}"
    return bad, ""


@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=JSONISH, bad=st.sampled_from([math.nan, math.inf, -math.inf, 10**40, -(10**400)]),
       choices=st.lists(st.integers(0, 10), max_size=6))
def test_any_non_finite_or_overlong_number_anywhere_is_refused_at_its_path(data, bad, choices):
    planted, path = _plant(data, bad, choices)
    validate(_Bag, {"data": data}, "bag.json")  # the same data without it is accepted
    with pytest.raises(ScenarioError) as info:
        validate(_Bag, {"data": planted}, "bag.json")
    assert info.value.field == "data" + path


# ------------------------------------------------------------------ saves
@pytest.fixture(scope="module")
def save_data() -> dict[str, Any]:
    from wargame.games import open_game

    return json.loads(json.dumps(to_save(open_game("memoir44-1").new_state(3))))


@pytest.mark.parametrize("seed", ["9" * 5000, "-" + "1" * 5000, "9" * 40, str(2**63), "1e400",
                                  "NaN", "-Infinity"])
def test_a_save_with_a_huge_seed_names_the_file_and_the_field(save_data, tmp_path, seed):
    path = tmp_path / "upload.json"
    text = json.dumps(save_data).replace('"seed": 3', f'"seed": {seed}')
    assert seed in text
    path.write_text(text)
    with pytest.raises(ScenarioError) as info:
        load_game(path)
    assert str(path) in str(info.value) and info.value.field == "seed"
    assert len(str(info.value)) < 300
    with pytest.raises(ScenarioError) as info:  # the dashboards' Load: the text itself
        from_save(parse_save_text(text, "upload.json"), "upload.json")
    assert info.value.field == "seed"


def test_a_huge_seed_in_a_python_mapping_is_refused_too(save_data):
    for seed in (10**5000, -(2**63) - 1, 2**63):
        with pytest.raises(ScenarioError) as info:
            from_save({**save_data, "seed": seed}, "mine.json")
        assert info.value.field == "seed" and "mine.json" in str(info.value)


@pytest.mark.parametrize("lang, words", [
    ("en", ("written by a newer wargame (format 5)", "reads up to format 4")),
    ("pt", ("wargame mais recente (formato 5)", "até ao formato 4")),
])
def test_a_save_of_a_later_format_says_so(save_data, lang, words):
    data = {**save_data, "format_version": 5, "new_field": {"x": 1}, "dice": 9}
    with using_language(lang), pytest.raises(ScenarioError) as info:
        from_save(data, "later.json")
    text = str(info.value)
    assert "later.json" in text and "format_version" in text
    assert all(w in text for w in words), text
    assert "-1" not in text


def test_the_current_and_older_saves_still_load(save_data):
    assert from_save(save_data, "now.json").seed == 3
    from wargame.games import open_game

    negative = json.loads(json.dumps(to_save(open_game("memoir44-1").new_state(-5))))
    assert from_save(negative, "negative.json").seed == -5  # autoplay --seed may be negative


# ------------------------------------------------------------------ the last guard
@pytest.mark.parametrize("error, code, words", [
    (RuntimeError("boom\nsecond line"), 70, "unexpected error inside wargame "
                                                           "(RuntimeError: boom)"),
    (KeyError("x"), 70, "KeyError"),
    (MemoryError(), cli.EXIT_FAILED, "not enough memory"),
])
def test_every_command_is_inside_the_one_line_guard(capsys, monkeypatch, error, code, words):
    def broken(args, out):
        raise error

    monkeypatch.setattr(cli.scenario, "cmd_scenario_list", broken)
    status, _, err = run(capsys, "scenario", "list")
    assert status == code and words in err and cli.EXIT_INTERNAL == 70
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
