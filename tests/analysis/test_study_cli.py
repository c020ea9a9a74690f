"""``wargame study`` (wargame/cli/study.py): the summary, the table, resume and one-line errors.

The games run on an in-process Dask cluster given with --scheduler (fast), which also tests
that path; the local cluster of worker processes is tested in test_study_dragoon.py."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from wargame import cli


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def scheduler():
    from wargame.analysis.study import local_cluster

    with local_cluster(2, processes=False) as cluster:  # threads: monkeypatches reach them
        yield cluster.scheduler_address


def test_study_json_table_and_resume(capsys, tmp_path, scheduler):
    out = tmp_path / "m44"
    code, text, err = run(capsys, "study", "--scenario", "memoir44-1", "--games", "3",
                          "--seed", "7", "--scheduler", scheduler, "--out", str(out), "--json")
    assert code == 0, err
    data = json.loads(text)
    assert data["games"] == 3 and data["played"] == 3 and data["allied"] == "random"
    assert data["allied_wins"] + data["axis_wins"] + data["draws"] == 3
    assert "games" in err  # the progress bar, on stderr
    table = pd.read_csv(out / "results.csv")
    assert len(table) == 3 and data["table"] == str(out / "results.csv")
    code, text, err = run(capsys, "study", "--scenario", "memoir44-1", "--games", "4",
                          "--seed", "7", "--scheduler", scheduler, "--out", str(out), "--quiet")
    assert code == 0, err
    assert "4 games" in text and "1 played now, 3 already done" in text
    assert "Allies won" in text and "95% CI" in text and err == ""


@pytest.mark.parametrize("args, needle", [
    (["--scenario", "nowhere"], "nowhere"),
    (["--scenario", "memoir44-1", "--axis", "greedy"], "greedy"),
    (["--scenario", "dragoon", "--workers", "0"], "--workers"),
    (["--scenario", "dragoon", "--whatif", "/nonexistent/w.yaml"], "an existing file"),
    (["--scenario", "dragoon", "--variant", "nonsense"], "nonsense"),
])
def test_study_errors_are_one_line(capsys, tmp_path, args, needle):
    code, text, err = run(capsys, "study", "--games", "1", "--out", str(tmp_path / "o"), *args)
    assert code == 2 and text == ""
    assert needle in err and err.count("\n") == 1


def test_study_whatif_error_names_the_file_and_field(capsys, tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text("reinforcements: [{unit: fr-cc1-1db, turn: 99}]\n")
    code, _, err = run(capsys, "study", "--scenario", "dragoon", "--whatif", str(path),
                       "--out", str(tmp_path / "o"))
    assert code == 2 and err.count("\n") == 1
    assert str(path) in err and "reinforcements[0].turn" in err and "1..14" in err


def test_failed_games_are_listed_exit_1_and_retried(capsys, tmp_path, scheduler, monkeypatch):
    from tests.analysis.studykit import fail_on
    from wargame.analysis.study import game_seed

    bad = sorted({game_seed(7, 0), game_seed(7, 2)})
    fail_on(monkeypatch, set(bad))
    out = tmp_path / "m44"
    base = ["study", "--scenario", "memoir44-1", "--games", "4", "--seed", "7",
            "--scheduler", scheduler, "--out", str(out), "--quiet"]
    code, text, err = run(capsys, *base)
    assert code == 1
    assert err.count("\n") == 1 and f"seeds {bad[0]}, {bad[1]}" in err
    assert "2 of 4 games failed" in err and "--retry-failed" in err
    assert "4 games" in text and "4 played now" in text
    assert f"2 games failed and are not counted above (records in {out / 'failed'}):" in text
    assert f"game 0, seed {bad[0]}: Injected: injected into seed {bad[0]} (tests/" in text
    assert "Allies won" in text  # the summary of the 2 that finished

    code, text, err = run(capsys, *base, "--json")  # resumed: the failures skipped
    assert code == 1 and str(bad[1]) in err
    data = json.loads(text)
    assert data["played"] == 0 and data["games"] == 2 and data["failed"] == 2
    assert data["failed_seeds"] == bad
    assert [f["seed"] for f in data["failures"]] == bad
    assert data["failures"][0]["error_type"] == "Injected"

    monkeypatch.undo()
    code, text, err = run(capsys, *base, "--retry-failed")
    assert code == 0 and err == ""
    assert "2 played now, 2 already done" in text and "games failed" not in text


def test_retry_failed_and_dashboard_reach_run_study(capsys, tmp_path, monkeypatch):
    import wargame.analysis.study as study_module

    seen = {}

    def fake(*args, **kwargs):
        seen.update(kwargs)
        raise ValueError("stopped here")

    monkeypatch.setattr(study_module, "run_study", fake)
    code, _, err = run(capsys, "study", "--scenario", "memoir44-1", "--out",
                       str(tmp_path / "o"))
    assert code == 2 and "stopped here" in err
    assert seen["retry_failed"] is False and seen["dashboard"] is False
    code, _, _ = run(capsys, "study", "--scenario", "memoir44-1", "--out", str(tmp_path / "o"),
                     "--retry-failed", "--dashboard")
    assert seen["retry_failed"] is True and seen["dashboard"] is True
