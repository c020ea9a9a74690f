"""Dragoon studies on Dask worker processes (slow: each Dragoon bot campaign takes 2-4 s)."""

from __future__ import annotations

import pandas as pd
import pytest

from wargame.analysis.study import against_history, compare, results_hash, run_study

CITIES = ("Marseille", "Toulon", "Lyon", "Avignon", "Grenoble")


@pytest.mark.slow  # 25 s: Dask worker processes (measured on 2 busy cores)
def test_dragoon_same_table_for_one_and_two_worker_processes(tmp_path):
    one = run_study("dragoon", 2, seed=1, workers=1, processes=False, progress=False)
    two = run_study("dragoon", 2, seed=1, workers=2, progress=False, out=tmp_path / "s")
    pd.testing.assert_frame_equal(one.table, two.table)
    assert results_hash(one.table) == results_hash(two.table)
    t = one.table
    assert set(t["winner"]) <= {"allied", "axis", "draw"}
    assert (t["last_turn"] == 14).all()  # OD: 14 turns, every game to its end
    assert (t["allied_lost"] == t[["lost_american", "lost_british", "lost_french"]].sum(axis=1)).all()
    assert (t["axis_lost"] == t["lost_german"]).all()
    for city in CITIES:
        fell = t[f"fell_{city}"].dropna()
        assert fell.between(1, 14).all()


@pytest.mark.slow  # 9 s (measured on 2 busy cores)
def test_dragoon_whatif_study_compares_with_the_base(tmp_path):
    path = tmp_path / "bold.yaml"
    path.write_text("name: bold Axis\npostures: {axis: {engage_ratio: 1.5, attack_threshold: 0}}\n"
                    "reinforcements: [{unit: fr-cc1-1db, turn: 1}]\n")
    base = run_study("dragoon", 1, seed=5, workers=1, processes=False, progress=False)
    what = run_study("dragoon", 1, seed=5, workers=1, processes=False, progress=False,
                     whatif=path)
    assert what.name == "bold Axis" and what.params["postures"] == {"axis": [1.5, 0.0]}
    assert results_hash(base.table) != results_hash(what.table)
    table = compare(base, what)
    assert list(table.columns) == ["dragoon", "bold Axis", "difference"]
    history = {"Grenoble": "1944-08-22", "Avignon": "1944-08-25", "Toulon": "1944-08-28",
               "Marseille": "1944-08-28", "Lyon": "1944-09-03"}
    hist = against_history(what, history)
    assert list(hist.index) == list(CITIES)
    assert hist["history_turn"].tolist() == [7, 7, 10, 6, 4]
