"""Seeds no save can hold are refused on the pages too (issue #31): ``?seed=`` of
``panel serve wargame/ui/app.py`` and the campaign's seed box (a save holds -2**63 ..
2**63 - 1, wargame.schema.save; the command line checks the same: tests/test_cli_seeds.py)."""

from __future__ import annotations

import pytest

from wargame.schema.save import MAX_SEED, MIN_SEED
from wargame.ui import app


@pytest.mark.parametrize("text, seed", [("9", 9), ("-5", -5), (str(MAX_SEED), MAX_SEED),
                                        (str(MIN_SEED), MIN_SEED), (str(MAX_SEED + 1), None),
                                        (str(MIN_SEED - 1), None), ("9" * 5000, None),
                                        ("1e9", None)])
def test_a_url_seed_beyond_a_save_is_the_games_usual_one(monkeypatch, text, seed):
    monkeypatch.setattr(app, "_arg", lambda name: {"scenario": "memoir44-2", "seed": text}.get(
        name))
    built: list[tuple] = []
    monkeypatch.setattr(app, "build_dashboard", lambda *a, **k: built.append(a) or "dashboard")
    assert app._app() == "dashboard"
    assert built == [("memoir44-2", seed, [], "none")]
    assert (app.MIN_SEED, app.MAX_SEED) == (MIN_SEED, MAX_SEED)


@pytest.mark.parametrize("lang, words", [("en", "A seed is a whole number from -2**63"),
                                         ("pt", "Uma semente é um número inteiro de -2**63")])
def test_a_typed_seed_beyond_a_save_is_refused_and_the_game_goes_on(lang, words):
    from wargame.ui.campaign import CampaignDashboard

    d = CampaignDashboard("demo", seed=3, lang=lang)
    d.model.end_phase()
    log = list(d.model.s.action_log)
    d.turn.seed.value = MAX_SEED + 1
    d.turn._new_game()
    assert d.model.error and d.model.message.startswith(words)
    assert list(d.model.s.action_log) == log and d.model.s.seed == 3
    d.turn.seed.value = MAX_SEED  # the largest a save holds: a new game
    d.turn._new_game()
    assert not d.model.error and d.model.s.seed == MAX_SEED and d.model.s.action_log == []
