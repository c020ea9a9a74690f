"""``wargame serve --seed`` and ``autoplay --seed`` take only seeds a save can hold (issue #31):
a seed above 2**63 - 1 used to write a save that would not load."""

from __future__ import annotations

import sys
import types

import pytest

from wargame import cli
from wargame.schema.save import MAX_SEED, MIN_SEED


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_command_line_bounds_are_the_save_schema_bounds():
    assert (cli.MIN_SEED, cli.MAX_SEED) == (MIN_SEED, MAX_SEED)


@pytest.fixture
def served(monkeypatch):
    calls: list[dict] = []
    fake = types.ModuleType("wargame.ui.serve")
    fake.serve_dashboard = lambda **kw: calls.append(kw)
    monkeypatch.setitem(sys.modules, "wargame.ui.serve", fake)
    return calls


@pytest.mark.parametrize("seed", [str(2**63), str(-(2**63) - 1), "9" * 5000])
@pytest.mark.parametrize("command", ["serve", "autoplay"])
def test_a_seed_beyond_what_a_save_holds_is_refused_with_the_bounds(capsys, served, seed,
                                                                      command):
    code, out, err = run(capsys, command, "--seed", seed)
    assert code == 2 and not served
    assert "a seed is a whole number from -2**63 to 2**63 - 1" in err
    assert len(err) < 400  # the 5,000 digits are not echoed back
    assert "Traceback" not in err


@pytest.mark.parametrize("seed", [MAX_SEED, MIN_SEED, 0])
def test_serve_takes_every_seed_a_save_holds(capsys, served, seed):
    code, _, err = run(capsys, "serve", "--seed", str(seed), "--no-show")
    assert code == 0, err
    assert served[0]["seed"] == seed


def test_autoplay_refuses_games_whose_last_seed_passes_the_bound(capsys, tmp_path):
    path = tmp_path / "last.json"
    code, _, err = run(capsys, "autoplay", "--scenario", "memoir44-1", "--seed",
                       str(MAX_SEED - 1), "--games", "3", "--save", str(path))
    assert code == 2 and not path.exists()
    assert f"the last game's seed would be {MAX_SEED + 1}" in err


def test_autoplay_at_the_largest_seed_writes_a_save_that_loads(capsys, tmp_path):
    from wargame.saves import load_game

    path = tmp_path / "largest.json"
    code, out, err = run(capsys, "autoplay", "--scenario", "memoir44-1", "--seed",
                         str(MAX_SEED), "--quiet", "--json", "--save", str(path))
    assert code == 0, err
    state = load_game(path)
    assert state.seed == MAX_SEED and state.is_terminal


def test_the_seed_refusal_reads_in_portuguese(capsys, served):
    code, _, err = run(capsys, "--lang", "pt", "serve", "--seed", str(2**64))
    assert code == 2 and "uma semente é um número inteiro de -2**63 a 2**63 - 1" in err
