"""The hard player in the Memoir '44 dashboard's store (issue #33): chosen by its plain-words
level, it answers as the computer, and "Why this card?" says its last card play in the page's
language (card, units ordered, the chance to win it expected)."""

from __future__ import annotations

from wargame.bots.memoir_hard import MemoirHardPolicy
from wargame.i18n import using_language
from wargame.memoir.board import ALLIES, AXIS
from wargame.ui.memoir_model import ExplainedPolicy, MemoirStore
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
