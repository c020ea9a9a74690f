"""``bench/memoir_strength.py --record FILE``: a long bench run (issue #33's 600 games of hard
against normal) kept game by game, resumed where it stopped, and refused with the file and
line when the file holds something else. Run as a maintainer runs it, in a process of its own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# easy's heuristic with normal's weights against easy: about a second a game
RUN = ["bench/memoir_strength.py", "--heuristic-only", "--scenarios", "1", "--workers", "1"]


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *RUN, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def summary(run: subprocess.CompletedProcess) -> dict:
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_a_recorded_run_resumes_and_prints_the_whole_run(tmp_path):
    record = tmp_path / "games.jsonl"
    first = summary(bench("--games", "1", "--record", str(record)))
    assert (first["games"], first["played_now"]) == (2, 2)
    lines = record.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and all(json.loads(x)["scenario"] == "1" for x in lines)

    # two seeds: the first seed's games are read back, only the second seed's are played
    second = summary(bench("--games", "2", "--record", str(record)))
    assert (second["games"], second["played_now"]) == (4, 2)
    assert len(record.read_text(encoding="utf-8").splitlines()) == 4

    # the same run again plays nothing and prints the same figures
    again = summary(bench("--games", "2", "--record", str(record)))
    assert again["played_now"] == 0
    assert again["overall"] == second["overall"]

    # the games read back are the games a run without the file plays (runs repeat exactly)
    fresh = summary(bench("--games", "2"))
    assert fresh["overall"] == second["overall"]
    assert fresh["as_Allies"] == second["as_Allies"]


def test_another_setting_is_another_game(tmp_path):
    record = tmp_path / "games.jsonl"
    summary(bench("--games", "1", "--record", str(record)))
    other = summary(bench("--games", "1", "--option", "threat=0.3", "--record", str(record)))
    assert other["played_now"] == 2
    assert len(record.read_text(encoding="utf-8").splitlines()) == 4


def test_a_line_cut_short_is_played_again_and_a_bad_line_is_refused(tmp_path):
    record = tmp_path / "games.jsonl"
    summary(bench("--games", "1", "--record", str(record)))
    kept = record.read_text(encoding="utf-8").splitlines()
    # the run was killed while it wrote its second game
    record.write_text(kept[0] + "\n" + kept[1][:40], encoding="utf-8")
    run = bench("--games", "1", "--record", str(record))
    assert summary(run)["played_now"] == 1
    assert "line 2 was cut short" in run.stderr
    assert [json.loads(x)["key"] for x in record.read_text(encoding="utf-8").splitlines()] \
        == [json.loads(x)["key"] for x in kept]

    record.write_text("not a game\n" + kept[0] + "\n", encoding="utf-8")
    run = bench("--games", "1", "--record", str(record))
    assert run.returncode != 0
    assert f"{record}: line 1: expected one game" in run.stderr


def test_the_human_comparison_is_kept_and_resumed_the_same_way(tmp_path):
    """``bench/memoir_human.py --record``: hard against itself on the scenarios with published
    results, kept game by game (a tiny budget here: the file's handling is what is tested)."""
    record = tmp_path / "human.jsonl"
    cheap = ["bench/memoir_human.py", "--games", "1", "--option", "playouts=2",
             "--option", "max_seconds=0.05", "--record", str(record)]

    def human() -> dict:
        run = subprocess.run([sys.executable, *cheap], cwd=ROOT, capture_output=True,
                             text=True, timeout=600)
        return summary(run)

    first = human()
    assert first["played_now"] == 3 and sum(r["games"] for r in first["scenarios"].values()) == 3
    assert len(record.read_text(encoding="utf-8").splitlines()) == 3
    again = human()
    assert again["played_now"] == 0
    assert again["scenarios"] == first["scenarios"]
