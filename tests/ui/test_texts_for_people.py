"""Issue 15: no internal identifier (``attack(target=...``, ``declare_defence``, ``on_map``,
``end_moves``) reaches the message bar or the event log; every action kind of both engines
has a sentence naming units and places (wargame.ui.describe)."""

from __future__ import annotations

import re

import pytest

from wargame.bots.greedy import GreedyPolicy
from wargame.hexgrid import Hex
from wargame.memoir.actions import Action as MemoirAction
from wargame.operational.actions import ACTION_TYPES
from wargame.ui.describe import describe_action, place_name
from wargame.ui.memoir_model import AutoPolicy, MemoirStore
from wargame.ui.model import CampaignState
from wargame.ui.text import ACTION_WORDS

# "unit(s)" is a plural, not a call: the only "word(" allowed
INTERNAL = re.compile(r"\w+\((?!s\))|[A-Za-z]_[A-Za-z]")


@pytest.mark.slow  # 9 s (measured on 2 busy cores)
def test_scripted_turns_0_and_1_of_normandy_speak_plainly():
    """The greedy bot plays both sides through the store for turns 0 and 1; every message and
    every log line after each action, and every Undone: message, is free of identifiers."""
    m = CampaignState("normandy", seed=1944)
    bot = GreedyPolicy()
    messages = []
    while m.s.turn <= 1 and not m.s.is_terminal and len(messages) < 600:
        m.act(bot.choose(m.s))
        messages.append(m.message)
    assert m.s.turn == 2 and len(messages) > 100
    kinds = {a["kind"] for a in m.s.action_log}
    assert {"declare_defence", "attack", "move"} <= kinds  # the texts of the issue were met
    for _ in range(40):
        m.undo()
        messages.append(m.message)
    bad = [t for t in messages if INTERNAL.search(t)]
    assert not bad, bad[:5]
    lines = [text for text, _rule in m.log_lines(100000)]
    assert not [t for t in lines if INTERNAL.search(t)]
    assert any(t.startswith("Undone: ") for t in messages)


@pytest.mark.parametrize("kind", sorted(ACTION_TYPES))
def test_every_campaign_action_kind_has_words(kind):
    m = CampaignState("normandy", seed=1944)
    units = sorted(m.s.units)
    sample = {"kind": kind, "unit": units[0], "to": "2010", "hex": "2010", "edge": "south",
              "target": "2010", "attackers": units[:2], "artillery": units[2:3], "air": 2,
              "center": "2010", "path": ["2011", "2010"], "units": units[:2],
              "targets": ["2010", "2011"]}
    text = describe_action(m.s, sample)
    assert not INTERNAL.search(text), text
    assert text != kind.replace("_", " ") or kind in ("end_phase",) or kind in ACTION_WORDS


def test_places_are_named_from_the_map():
    m = CampaignState("normandy", seed=1944)
    assert place_name(m.s, "2010") == "Colleville-sur-Mer (2010)"
    assert place_name(m.s, Hex.from_id("2011")).startswith("2011 near ")


MEMOIR_KINDS = ["play", "order", "end_orders", "move", "end_moves", "battle", "end_battles",
                "retreat", "take_ground", "skip_overrun", "hold", "exit", "keep", "ambush",
                "no_ambush", "air_target", "air_strike", "barrage", "medics", "remove_wire",
                "sand", "reshuffle"]


@pytest.mark.parametrize("kind", MEMOIR_KINDS)
def test_every_memoir_action_kind_has_words(kind):
    st = MemoirStore("1", 44)
    uid = sorted(st.state.units)[0]
    text = describe_action(st.state, MemoirAction(kind, unit=uid, hex=Hex(3, 2), card=0,
                                                  option="air_power"))
    assert not INTERNAL.search(text), text
    assert f"m44_{kind}" in ACTION_WORDS


def test_memoir_messages_speak_plainly():
    st = MemoirStore("1", 44)
    bot = AutoPolicy()
    messages = []
    for _ in range(60):
        if st.state.is_terminal:
            break
        st.act(bot.choose(st.state))
        messages.append(st.message)
    for _ in range(10):
        st.undo()
        messages.append(st.message)
    bad = [t for t in messages + st.log_lines(1000) if INTERNAL.search(t)]
    assert not bad, bad[:5]
