"""The hard player in the Memoir '44 dashboard's store (issue #33): chosen by its plain-words
level, it answers as the computer, and "Why this card?" says its last card play in the page's
language (card, units ordered, the chance to win it expected)."""

from __future__ import annotations

import pytest

from wargame.bots.memoir_hard import MemoirHardPolicy
from wargame.bots.memoir_search import MemoirSearchPolicy
from wargame.i18n import using_language
from wargame.memoir.board import ALLIES, AXIS
from wargame.ui.memoir_model import ExplainedPolicy, MemoirStore, hard_seconds
from wargame.ui.text import player_word


def test_levels_in_plain_words():
    assert [player_word(p) for p in ("easy", "normal", "hard")] == ["beginner", "normal",
                                                                   "hard"]
    with using_language("pt"):
        assert [player_word(p) for p in ("easy", "normal", "hard")] == [
            "principiante", "normal", "difícil"]
        assert player_word("greedy") == "ambicioso (vai às cidades)"


def test_the_store_explains_the_hard_computers_card_in_its_language(monkeypatch):
    store = MemoirStore("1", 44, lang="pt")
    assert store.computer_reason().startswith("O computador ainda não jogou")
    store.computer_player = "hard"
    policy = store.make_policy()
    assert isinstance(policy, ExplainedPolicy) and isinstance(policy.policy, MemoirHardPolicy)
    policy.policy.playouts = 8  # a quick search for the test
    monkeypatch.setattr(store, "make_policy", lambda: policy)
    side = store.state.side_to_act
    store.computer = AXIS if side == ALLIES else ALLIES  # the player's side first
    store.computer = side  # the computer's turn now: it plays its card and more
    assert store.state.side_to_act != side or store.state.is_terminal
    said = store.computer_reason()
    assert said.startswith(("Aliados, turno", "Eixo, turno")) and "Joguei " in said
    assert "%" in said
    store.lang = "en"
    assert "I played " in store.computer_reason()


def test_the_hard_computers_budget_comes_from_the_environment(monkeypatch):
    """``WARGAME_HARD_SECONDS`` sets the hard computer's CPU seconds per decision in the
    dashboard (the browser test against hard shortens it); unset, hard's 2 s default; a
    value that is not a positive number is refused by name."""
    assert hard_seconds({}) is None and hard_seconds({"WARGAME_HARD_SECONDS": " "}) is None
    assert hard_seconds({"WARGAME_HARD_SECONDS": "0.25"}) == 0.25
    for bad in ("fast", "0", "-1", "nan", "inf"):
        with pytest.raises(ValueError, match="WARGAME_HARD_SECONDS: expected a positive"):
            hard_seconds({"WARGAME_HARD_SECONDS": bad})
    store = MemoirStore("1", 44)
    store.computer_player = "hard"
    monkeypatch.delenv("WARGAME_HARD_SECONDS", raising=False)
    assert store.make_policy().policy.max_seconds == 2.0
    monkeypatch.setenv("WARGAME_HARD_SECONDS", "0.5")
    assert store.make_policy().policy.max_seconds == 0.5
    store.computer_player = "normal"  # the others keep their own clocks
    assert store.make_policy().policy.max_seconds == MemoirSearchPolicy(44).max_seconds


def test_why_this_card_says_the_hard_computers_cpu_time(monkeypatch):
    monkeypatch.setenv("WARGAME_HARD_SECONDS", "0.05")
    store = MemoirStore("1", 44, lang="pt")
    store.computer_player = "hard"
    side = store.state.side_to_act
    store.computer = side  # hard plays its turn
    spans = store._policy.policy.cpu_times
    said = store.computer_reason()
    assert spans and f"{len(spans)} decisões" in said
    assert f"{max(spans):.2f} s no máximo" in said
    assert f"{sum(spans) / len(spans):.2f} s de tempo de CPU" in said
    store.lang = "en"
    assert f"My thinking so far: {len(spans)} decisions" in store.computer_reason()
