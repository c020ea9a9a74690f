"""The engines' events, phases and decision prompts in the viewer's language
(wargame/event_text.py, issue #16).

Every event keeps its English text; rendering it again from its kind and data in English gives
that text back, for every event of seeded bot games of Normandy (Battle for Normandy variants
on and off), Dragoon and Memoir '44 scenarios, and for scripted carpet bombings: the templates
and the data are complete. The same events say themselves in Portuguese without falling back.
"""

from __future__ import annotations

import pytest

from wargame import event_text, i18n
from wargame.bots.play import make_policy
from wargame.event_text import (
    DECISIONS,
    decision_prompt,
    event_line,
    memoir_prompt,
    render_event,
)
from wargame.games import open_game
from wargame.hexgrid import Hex
from wargame.operational.actions import CarpetBomb, EndPhase
from wargame.operational.state import Game
from wargame.operational.state_types import Event
from wargame.operational.variants import CarpetBombArea, carpet_area_around

GAMES = [("normandy", 1, ()), ("normandy", 2, ("bfn",)), ("normandy", 3, ("bfn",)),
         ("dragoon", 4, ()), ("dragoon", 5, ()), ("memoir44-1", 1, ()),
         ("memoir44-2", 4, ()), ("memoir44-4", 2, ()), ("memoir44-9", 3, ())]


def _play(sid: str, seed: int, variants: tuple[str, ...], policy: str = "random",
          limit: int = 4000):
    """The events and pending decisions of a seeded bot game."""
    game = open_game(sid, variants=variants)
    state = game.new_state(seed)
    policies = {side: make_policy(game, policy, seed) for side in game.sides}
    events = [] if game.kind == "campaign" else list(state.setup_events)
    decisions = []
    n = 0
    while not state.is_terminal and n < limit:
        if game.kind == "campaign" and state.pending is not None:
            decisions.append(state.pending)
        if game.kind == "memoir" and state.pending:
            decisions.append(state.pending[-1])
        got = state.apply(policies[state.side_to_act].choose(state))
        n += 1
        if game.kind != "campaign":
            events.extend(got)
    if game.kind == "campaign":
        events = list(state.events)
    return events, decisions


@pytest.fixture(scope="module")
def played():
    return {(sid, seed): _play(sid, seed, variants) for sid, seed, variants in GAMES}


def _carpet_events():
    """CN 6.3 carpet bombing and BFN 19.3 with friendly fire (as tests/variants/test_carpet.py)."""
    base = Game("normandy").new_state(1)
    base.turn = 14
    base.air_points["allied"] = 50
    base.edited()
    carpet = next(a for a in base.legal_actions() if isinstance(a, CarpetBomb))
    base.apply(carpet)
    s = Game("normandy", variants=["bfn-19.3"]).new_state(1)
    s.turn = 14
    s.air_points["allied"] = 50
    targets = carpet_area_around(s, Hex.from_id("2813"))
    area = {Hex.from_id(t) for t in targets}
    board = s.game.board
    spots = [h for h in sorted(board.hexes) if board.is_land(h) and h not in area
             and not s.units_at(h) and any(n in area for n in board.neighbours(h))]
    for uid, h in zip(("us-8-4", "us-12-4"), spots[:2], strict=True):
        s.units[uid].status, s.units[uid].hex = "on_map", h
    s.edited()
    s.apply(CarpetBombArea(targets))
    s.apply(EndPhase())
    return list(base.events) + list(s.events)


def test_english_rendering_gives_back_every_stored_text(played):
    events = [e for evs, _ in played.values() for e in evs] + _carpet_events()
    kinds = {e.kind for e in events}
    msgs = {e.data.get("msg") for e in events if hasattr(e, "rule")} - {None}
    # the games cover the engines' events: campaign, BFN and Memoir '44 ones
    assert {"phase", "move", "attack", "roll", "eliminated", "retreat", "exit", "mulberry",
            "game_over", "control", "carpet", "battle", "card_played", "airdrop"} <= kinds
    assert {"dd", "pinned_roll", "carpet_declared", "carpet_friendly"} <= msgs
    with i18n.using_language("en"):
        wrong = [(e.kind, e.text, render_event(e)) for e in events if render_event(e) != e.text]
    assert wrong == []
    assert len(events) > 5000


def test_every_event_says_itself_in_portuguese(played):
    events = [e for evs, _ in played.values() for e in evs] + _carpet_events()
    with i18n.using_language("pt"):
        lines = [render_event(e) for e in events]  # raises if a datum is missing
    assert all("{" not in line for line in lines)
    differ = sum(line != e.text for line, e in zip(lines, events, strict=True))
    assert differ > 0.95 * len(events)
    with i18n.using_language("pt"):
        texts = {e.kind: event_line(e) for e in events}
    assert texts["phase"].startswith("Turno ") and "Fase de" in texts["phase"]
    assert "recua" in texts["retreat"] and "eliminada" in texts["eliminated"]
    assert "Aliados" in texts["card_played"] or "Eixo" in texts["card_played"]


def test_the_turn_line_date_and_phase_follow_the_language():
    state = Game("normandy").new_state(1944)
    phase = next(e for e in state.events if e.kind == "phase")
    assert phase.text == "Turn 0 (1944-06-06): Allied movement."
    with i18n.using_language("pt"):
        assert event_line(phase) == "Turno 0 (6 de junho de 1944): Fase de Movimentação Aliada."
    assert event_line(phase) == phase.text


def test_memoir_texts_name_the_sides_as_people_read_them(played):
    events = played["memoir44-1", 1][0]
    assert all("ALLIES" not in e.text and "AXIS" not in e.text for e in events)
    assert any(e.text.startswith("Allied player plays ") for e in events)


def test_decision_prompts_render_from_their_id_and_values(played):
    campaign = [d for (sid, _), (_, ds) in played.items() if not sid.startswith("memoir")
                for d in ds]
    memoir = [d for (sid, _), (_, ds) in played.items() if sid.startswith("memoir") for d in ds]
    assert {d.kind for d in campaign} >= {"defence", "loss", "retreat", "advance"}
    for d in campaign:
        assert DECISIONS.english[d.prompt_id].format(**dict(d.args)) == d.prompt
        assert decision_prompt(d) == d.prompt
    with i18n.using_language("pt"):
        pt = {d.kind: decision_prompt(d) for d in campaign}
        assert pt["defence"].startswith("declarar a defesa de ")
        assert pt["advance"].startswith("avançar para ")
        assert {memoir_prompt(d.kind) for d in memoir} <= {DECISIONS[k] for k in DECISIONS}
    assert memoir and all(memoir_prompt(d.kind) != d.kind for d in memoir)


def test_an_event_the_catalogues_cannot_say_shows_its_stored_text():
    odd = Event("eliminated", "X is eliminated (for a reason of an older version).", "",
                {"unit": "X", "why": " (for a reason of an older version)"})
    unknown = Event("brand_new", "Something new happened.", "", {})
    with i18n.using_language("pt"):
        assert event_line(odd) == odd.text
        assert event_line(unknown) == unknown.text
        with pytest.raises(KeyError):
            render_event(odd)


def test_the_catalogues_are_registered():
    assert "wargame.event_text" in i18n.CATALOGUE_MODULES
    assert {"events.campaign", "events.bfn", "events.memoir", "events.words", "phases",
            "decisions"} <= set(i18n.load_catalogues())
    assert event_text.PHASES.english is event_text.PHASE_NAMES


def test_dashboards_show_events_and_prompts_in_their_language():
    from wargame.ui.memoir_model import MemoirStore
    from wargame.ui.model import CampaignState

    model = CampaignState("normandy", seed=1944, lang="pt")
    english = CampaignState("normandy", seed=1944)
    with i18n.using_language(model.lang):
        lines = [text for text, _ in model.log_lines()]
    assert any(line.startswith("Turno 0 (6 de junho de 1944)") for line in lines)
    assert [text for text, _ in english.log_lines()] == [e.text for e in english.s.events]
    store = MemoirStore("1", seed=1, lang="pt")
    with i18n.using_language(store.lang):
        assert any("cartas para o Eixo" in line for line in store.log_lines())


def test_memoir_card_titles_in_both_languages():
    """M44 p.5: every card's English title comes back from the catalogue; in Portuguese each
    is the glossary's name, in the hand, in the log and in the action texts."""
    from wargame.memoir.cards import DECK
    from wargame.ui.describe import describe_action
    from wargame.ui.memoir_model import MemoirStore

    assert [event_text.card_title(c) for c in DECK] == [c.title for c in DECK]
    with i18n.using_language("pt"):
        titles = {c.title: event_text.card_title(c) for c in DECK}
    assert all(pt != en for en, pt in titles.items())
    assert titles["Attack (right)"] == "Ataque (direita)"
    assert event_text.card_title_of("not a card") == "not a card"
    with i18n.using_language("pt"):
        assert all(event_text.card_title_of(c.title) == titles[c.title] for c in DECK)

    store = MemoirStore("1", seed=1, lang="pt")
    with i18n.using_language(store.lang):
        hand = store.hand()
        assert hand and all(title in titles.values() for _, title, _ in hand)
        play = next(a for _, _, plays in hand for a in plays)
        english_title = DECK[play.card].title
        assert titles[english_title] in describe_action(store.state, play)
        events = store.state.apply(play)
        played = next(e for e in events if e.kind == "card_played")
        assert english_title in played.text  # the stored English text is unchanged
        assert titles[english_title] in event_text.event_line(played)


def test_outcome_reasons_in_both_languages():
    for reason in ("CN 11.2 victory points", "OD 11.2 victory points", "M44 p.14 Victory medals",
                   " (sudden death)", " (command deck exhausted)"):
        assert event_text.outcome_reason(reason) == reason
        with i18n.using_language("pt"):
            pt = event_text.outcome_reason(reason)
        assert pt != reason and not ({"victory", "medals", "sudden", "deck"} & set(pt.split()))
    assert event_text.outcome_reason("something else") == "something else"


def test_the_map_tooltip_speaks_the_viewers_language():
    """The hover tooltip's labels, the terrain and the features come from catalogues (the
    terrain ids of the data files were shown raw); Memoir hexes say their own terrain."""
    from wargame.hexgrid import Hex
    from wargame.ui.hexmap import HexSpec, terrain_words
    from wargame.ui.memoir import hexmap_specs

    spec = HexSpec(Hex(0, 0), "0101", "bocage", "", ("fortification",))
    assert terrain_words(spec) == "bocage, fortification"
    with i18n.using_language("pt"):
        assert terrain_words(spec) == "bocage, fortificação"
        assert terrain_words(HexSpec(Hex(0, 0), "0101", "open")) == "terreno aberto"
        specs = hexmap_specs("1")
    words = {terrain_words(s) for s in specs}
    assert "sea" not in words and "rio" in {w.split(",")[0] for w in words}
    assert {s.name for s in specs if s.name} == {"medalha"}


@pytest.mark.parametrize(("starts", "en", "pt"), [
    ("allied", "the Allies play first.", "os Aliados jogam primeiro."),
    ("axis", "the Axis plays first.", "o Eixo joga primeiro.")])
def test_memoirs_setup_line_says_who_plays_first_in_good_grammar(starts, en, pt):
    """Issue #32: the log's first line said "Allies starts"; the verb now agrees with the side,
    in English and in Portuguese."""
    from wargame.memoir.actions import Event as MemoirEvent

    state = open_game("memoir44-1").new_state(1)
    event = MemoirEvent("setup", {"title": "Pegasus Bridge", "axis_cards": 2,
                                  "allies_cards": 6, "starts": starts})
    english = event_line(event, None, state)
    assert english.endswith(en) and "starts" not in english, english
    assert event.text == english
    with i18n.using_language("pt"):
        said = event_line(event, None, state)
    assert said.endswith(pt) and "Allies" not in said and "Axis" not in said, said
