"""Issue #32: no English reaches a Portuguese Memoir '44 page through a refusal.

A pt game is played (the random player, seeded) and at every position actions of every kind
seen so far, illegal there, are tried: each refusal's reason and the rule it cites, as the
dashboard's message bar shows them (``GameStore.refuse``), are scanned for English words.
Malformed actions (``MemoirGame.action_from_dict``) and a refused ``.m44`` upload (its
"field '...'" frame) are scanned the same way. Only the data the player typed or the file holds
is left out of the scan: quoted values, lists and hexes."""

from __future__ import annotations

import html
import json
import random
import re

import pytest

from wargame import i18n
from wargame.bots.play import make_policy
from wargame.error_texts import RULES, rule_text
from wargame.games import open_game
from wargame.memoir import Action

# words that are English and not Portuguese (the refusals' and rules' English vocabulary)
ENGLISH = re.compile(
    r"\b(the|not|must|may|cannot|can|only|already|first|unit|units|card|cards|order|orders|"
    r"move|movement|battle|battles|target|range|sight|line|retreat|ground|take|wire|remove|"
    r"field|expected|found|action|actions|mapping|whole|number|numbers|short|text|unknown|"
    r"hex|hexes|board|play|game|issue|command|terrain|power|air|ambush|barrage|medics|"
    r"recon|sandbags|overrun|armor|appendix|rooms|of|and|or|is|in|to|with|has|end)\b",
    re.IGNORECASE)
# what a refusal quotes from the player's action or the file: ids, lists, hexes, file names
QUOTED = re.compile(r"Memoir '44|'[^']*'|\[[^\]]*\]|\([0-9, ]+\)|\S+\.m44|«[^»]*»")


def english_words(text: str) -> list[str]:
    return ENGLISH.findall(QUOTED.sub(" ", html.unescape(text)))


def test_the_scan_finds_english():
    """The scan itself: it finds the English it is for and passes Portuguese."""
    assert english_words("play a command card first, not 'order' (M44 p.5 Play a Command Card)")
    assert english_words("bad.m44: field 'board': cannot play 2 things")
    assert not english_words("primeiro jogue uma carta de Comando, não «dar uma ordem» "
                             "(M44 p.5 Jogar uma Carta de Comando)")


def shown(exc) -> str:
    """A refusal as the message bar shows it in expert words: reason (rule)."""
    return f"{exc.reason} ({rule_text(exc.rule)})" if exc.rule else exc.reason


@pytest.fixture(scope="module")
def refusals_pt() -> dict[tuple[str, str], str]:
    """(key, rule) -> the refusal shown in pt, over a whole seeded game of Pegasus Bridge."""
    game = open_game("memoir44-1")
    state = game.new_state(7)
    bot = make_policy(game, "random", seed=3)
    rng = random.Random(5)
    pool: list[Action] = []
    seen: dict[tuple[str, str], str] = {}
    extra = [Action("play", card=99), Action("battle", unit=9999), Action("order", unit=-1),
             Action("move", unit=0, hex=None), Action("end_battles"), Action("retreat")]
    for _ in range(600):
        if state.winner:
            break
        for a in state.legal_actions():
            if a not in pool:
                pool.append(a)
        for a in rng.sample(pool, min(25, len(pool))) + extra:
            with i18n.using_language("pt"):
                exc = state.why_illegal(a)
                if exc is not None:
                    seen.setdefault((exc.key, exc.rule), shown(exc))
        state.apply(bot.choose(state))
    return seen


def test_every_refusal_of_a_game_is_portuguese(refusals_pt):
    kinds = {key.split(".")[1] for key, _ in refusals_pt}
    assert {"phase", "card", "order", "move", "battle"} <= kinds, sorted(kinds)
    english = {k: (text, english_words(text)) for k, text in refusals_pt.items()
               if english_words(text)}
    assert not english, english


def test_every_memoir_rule_cited_has_portuguese(refusals_pt):
    with i18n.using_language("pt"):
        for _, rule in refusals_pt:
            assert rule in RULES, rule
            assert rule_text(rule) != rule or not rule.startswith("M44"), rule


@pytest.mark.parametrize("data", [
    [1], {"kind": "order", "zz": 1}, {"kind": "order", "zz": 1, "yy": 2}, {"kind": ""},
    {"kind": "play", "card": "a"}, {"kind": "move", "unit": True}, {"kind": "move", "hex": [1]},
    {"kind": "play", "option": 5}])
def test_a_malformed_action_is_refused_in_portuguese(data):
    from wargame.errors import MalformedAction

    game = open_game("memoir44-1")
    with i18n.using_language("pt"):
        with pytest.raises(MalformedAction) as exc:
            game.action_from_dict(data)
        said = shown(exc.value)
    assert said.startswith("não é uma ação de Memoir '44"), said
    assert not english_words(said), said
    assert exc.value.render("en").startswith("not a Memoir '44 action: ")


def test_a_refused_upload_is_framed_in_portuguese(tmp_path, monkeypatch):
    from wargame.ui.m44_upload import M44Import

    monkeypatch.setenv("WARGAME_HOME", str(tmp_path / "home"))
    bad = {"game_info": {}, "board": {"type": "standard", "hexagons": [
        {"row": 0, "col": 0, "unit": {"name": "infger"}},
        {"row": 8, "col": 24, "unit": {"name": "cavus"}},
        {"row": 4, "col": 4, "terrain": {"name": "price"}}]}}
    control = M44Import(lang="pt")
    assert control.import_bytes(json.dumps(bad).encode(), "bad.m44") is None
    said = html.unescape(re.sub(r"<[^>]+>", " ", control.message.object))
    assert "campo 'board" in said and "field '" not in said, said
    assert not english_words(said), (said, english_words(said))
    english = M44Import(lang="en")
    assert english.import_bytes(json.dumps(bad).encode(), "bad.m44") is None
    assert "field 'board" in html.unescape(english.message.object)
