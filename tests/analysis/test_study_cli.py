"""``wargame study`` (wargame/cli.py): the summary, the table, resume and one-line errors.

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
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=":0", scheduler_kwargs={"dashboard": False}) as cluster:
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
