"""Seat views (issue #14): a seat's dashboard never puts the other side's secrets in its Bokeh
document: the Memoir '44 opponent's hand (M44 Set-up step 10), the campaign enemy's attack,
defence and movement values (CN 5.1.1, OD 5.1.1). Checked on the serialised document, the
very JSON the server sends to the browser; hot-seat (viewer None) unchanged."""

from __future__ import annotations

import panel as pn
import pytest
from bokeh.core.json_encoder import serialize_json
from bokeh.document import Document

from wargame.memoir import ALLIES, AXIS, card
from wargame.ui.campaign import CampaignDashboard
from wargame.ui.memoir import MemoirDashboard
from wargame.ui.memoir_model import MemoirStore
from wargame.ui.model import CampaignState


def document_json(dash) -> str:
    doc = Document()
    doc.add_root(pn.panel(dash).get_root(doc))
    return serialize_json(doc.to_json())  # what the server sends (bokeh's own encoder)


# ---------------------------------------------------------------------- Memoir '44
def _memoir(viewer):
    return MemoirDashboard(store=MemoirStore("1", 44, viewer=viewer))


def _only_in(hand_side: str, store: MemoirStore) -> set[str]:
    s = store.state
    other = AXIS if hand_side == ALLIES else ALLIES
    theirs = {card(c).title for c in s.hands[hand_side]}
    return theirs - {card(c).title for c in s.hands[other]}


@pytest.mark.slow  # 4.8 s (measured on 2 busy cores)
def test_memoir_seat_document_holds_its_own_hand_never_the_opponents():
    hot = _memoir(None)
    allied_only = _only_in(ALLIES, hot.store)
    axis_only = _only_in(AXIS, hot.store)
    assert allied_only and axis_only
    assert hot.store.state.active == ALLIES
    hot_json = document_json(hot)
    assert all(t in hot_json for t in allied_only)  # hot-seat: the acting hand, as before
    axis_json = document_json(_memoir(AXIS))
    assert not [t for t in allied_only if t in axis_json]
    assert all(t in axis_json for t in axis_only)  # its own hand even while the Allies act
    allied_json = document_json(_memoir(ALLIES))
    assert not [t for t in axis_only if t in allied_json]
    teacher = _memoir("teacher")
    teacher_json = document_json(teacher)  # on the projector: hidden until shown (issue #27)
    assert not [t for t in allied_only | axis_only if t in teacher_json]
    teacher.store.reveal(True)  # the teacher's switch
    teacher_json = document_json(teacher)
    assert all(t in teacher_json for t in allied_only | axis_only)


def test_memoir_seat_shows_no_play_buttons_out_of_turn_and_no_foreign_answers():
    axis = MemoirStore("1", 44, viewer=AXIS)
    assert axis.hand(ALLIES) == []
    assert all(plays == [] for _c, _t, plays in axis.hand(AXIS))  # the Allies act first
    allied = MemoirStore("1", 44, viewer=ALLIES)
    assert any(plays for _c, _t, plays in allied.hand(ALLIES))
    assert axis.pending_actions() == [] and allied.pending_actions()
    assert axis.hand_sides() == ([AXIS], [ALLIES])
    assert MemoirStore("1", 44).hand_sides() == ([ALLIES], [AXIS])


def test_memoir_against_the_computer_shows_the_players_hand_only():
    """Playing the computer, its hand is as hidden as a human opponent's: the player's own
    cards are shown, even while the computer acts; the computer's only by their count."""
    store = MemoirStore("1", 44, computer=AXIS)  # the Allies act first: the player's turn
    assert store.hand_sides() == ([ALLIES], [AXIS])
    while store.state.active == ALLIES and not store.state.winner:
        store.state.apply(store.state.legal_actions()[-1])
    assert store.state.active == AXIS  # the computer's turn (played here by hand)
    assert store.hand_sides() == ([ALLIES], [AXIS])
    hot = MemoirStore("1", 44)
    hot.state = store.state
    assert hot.hand_sides() == ([AXIS], [ALLIES])  # hot-seat: the acting side's, as before
    assert MemoirStore("1", 44, computer=ALLIES).hand_sides() == ([AXIS], [ALLIES])


# ---------------------------------------------------------------------- campaigns
@pytest.fixture(scope="module")
def normandy_hot() -> CampaignDashboard:
    return CampaignDashboard("normandy", seed=1944)


def _values(state: CampaignState, uid: str) -> str:
    s = state.s
    return f"{s.attack_of(uid)}-{s.defence_of(uid)}-{state.game.units[uid].movement}"


def _distinct_enemy(state: CampaignState, enemy: str) -> str:
    """An on-map unit of ``enemy`` whose printed values no unit of the other side shares."""
    s = state.s
    own = {_values(state, u) for u, us in s.units.items()
           if s.side_of(u) != enemy and us.status == "on_map"}
    for u, us in sorted(s.units.items()):
        if s.side_of(u) == enemy and us.status == "on_map" and _values(state, u) not in own:
            return u
    raise AssertionError("no unit with distinct values")


def test_campaign_hidden_for_a_seat_whatever_the_toggle():
    m = CampaignState("demo", seed=1)
    allied = next(u for u in m.s.units if m.s.side_of(u) == "allied")
    axis = next(u for u in m.s.units if m.s.side_of(u) == "axis")
    assert not m.hidden(allied) and not m.hidden(axis)  # hot-seat, toggle off
    seat = CampaignState("demo", seed=1, viewer="axis")
    assert seat.hidden(allied) and not seat.hidden(axis)
    seat.hide_enemy = False
    assert seat.hidden(allied)
    assert seat.unit_card(allied)["defence"] == "?"
    assert seat.shown_attack(allied) == "?"
    teacher = CampaignState("demo", seed=1, viewer="teacher", hide_enemy=True)
    assert not teacher.hidden(allied) and not teacher.hidden(axis)


@pytest.mark.slow  # 3.5 + 2 s (measured on 2 busy cores)
def test_campaign_seat_document_holds_no_enemy_values(normandy_hot):
    hot = normandy_hot
    enemy = _distinct_enemy(hot.model, "allied")
    values = _values(hot.model, enemy)
    hot.model.select_unit(enemy)
    assert values in document_json(hot)  # hot-seat shows them, as before
    seat = CampaignDashboard(model=CampaignState("normandy", seed=1944, viewer="axis"))
    seat.model.select_unit(enemy)  # the unit card of the enemy unit, tooltips, counters
    axis_json = document_json(seat)
    assert values not in axis_json
    assert seat.model.reachable() == {}
    assert seat.predictions() == ({}, set())  # the Allies move: nothing of theirs predicted
    own = _distinct_enemy(hot.model, "axis")
    seat.model.select_unit(own)
    assert _values(hot.model, own) in document_json(seat)


def test_campaign_seat_sees_no_options_of_the_other_sides_decision():
    from wargame.operational.actions import ChooseLoss
    from wargame.protocol import Decision

    m = CampaignState("demo", seed=1, viewer="allied")
    axis = next(u for u in m.s.units if m.s.side_of(u) == "axis")
    m.s.pending = Decision("loss", "axis", "choose", "CN 5.2", (ChooseLoss(axis),))
    assert m.decision_options() == []
    hot = CampaignState("demo", seed=1)
    hot.s.pending = Decision("loss", "axis", "choose", "CN 5.2", (ChooseLoss(axis),))
    assert hot.decision_options()
