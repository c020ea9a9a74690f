"""``wargame serve --seed``, ``autoplay --seed`` and ``study --seed`` take only seeds a save can
hold (issue #31): a seed above 2**63 - 1 used to write a save that would not load (and
``study --seed`` took any whole number, its games' seeds being seed * 1000003 + i)."""

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
@pytest.mark.parametrize("command", ["serve", "autoplay", "study"])
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


def test_study_refuses_a_seed_whose_games_seeds_pass_the_bound(capsys, monkeypatch):
    from wargame.analysis import study
    from wargame.analysis.study import SEED_STRIDE, game_seed

    def never(*args, **kwargs):
        raise AssertionError("a study was started")

    monkeypatch.setattr(study, "run_study", never)
    high = (MAX_SEED - 2) // SEED_STRIDE  # the largest --seed whose 3 games' seeds all fit
    assert game_seed(high, 2) <= MAX_SEED < game_seed(high + 1, 2)
    code, out, err = run(capsys, "study", "--seed", str(high + 1), "--games", "3", "--quiet")
    assert code == 2 and not out
    assert f"would be {game_seed(high + 1, 2)}, beyond what a save holds" in err
    assert f"give a --seed from {-(-MIN_SEED // SEED_STRIDE)} to {high}" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    low = -(-MIN_SEED // SEED_STRIDE)
    assert game_seed(low, 0) >= MIN_SEED > game_seed(low - 1, 0)
    code, _, err = run(capsys, "--lang", "pt", "study", "--seed", str(low - 1), "--quiet")
    assert code == 2 and "fora do que um jogo gravado comporta" in err


def test_study_takes_the_largest_seed_whose_games_fit(monkeypatch):
    from wargame.analysis.study import SEED_STRIDE, game_seed
    from wargame.cli.study import check_game_seeds

    for games in (1, 3, 1000):
        high = (MAX_SEED - (games - 1)) // SEED_STRIDE
        check_game_seeds(high, games)  # every game's seed fits: no refusal
        check_game_seeds(-(-MIN_SEED // SEED_STRIDE), games)
        assert game_seed(high, games - 1) <= MAX_SEED
        with pytest.raises(cli.UsageError):
            check_game_seeds(high + 1, games)
