"""All 17 scenarios load with the layout's units and the rulebook's instructions."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tests.memoir.reference import REFERENCE, needs_reference
from wargame.memoir import ALLIES, AXIS, DECK, MemoirGame, load_scenario, scenario_ids
from wargame.memoir.board import hex_to_m44
from wargame.memoir.cards import SECTION_CARDS, TACTIC_CARDS
from wargame.memoir.m44 import to_m44
from wargame.memoir.scenario import index
from wargame.scenario_errors import load_yaml

ROOT = Path(__file__).resolve().parents[2] / "scenarios" / "memoir44"

# rulebook number -> (Axis cards, Allied cards, who starts, medals) from the rulebook text
RULEBOOK = {
    "1": (2, 6, ALLIES, 4), "2": (4, 5, ALLIES, 4), "3": (4, 5, ALLIES, 5),
    "4": (4, 6, ALLIES, 4), "5": (5, 4, AXIS, 6), "6": (4, 5, ALLIES, 4),
    "7": (4, 4, AXIS, 4), "8": (4, 5, ALLIES, 4), "9": (5, 6, AXIS, 4),
    "10": (4, 6, ALLIES, 6), "11": (4, 5, ALLIES, 5), "12": (5, 5, AXIS, 6),
    "13": (6, 6, AXIS, 5), "14": (4, 6, AXIS, 6), "15": (5, 4, AXIS, 6),
    "16": (4, 6, ALLIES, 4), "overlord": (8, 8, AXIS, 8),
}
BASE = {"inf": 4, "tank": 3, "gun": 2}
INDEX = {str(k): e for k, e in load_yaml(ROOT / "scenarios.yaml")["scenarios"].items()}


def m44_units(file):
    """Units and figures of a layout: the reference .m44 where found, else the bundled
    scenario written back as one."""
    if REFERENCE is not None and (REFERENCE / file).exists():
        raw = json.loads((REFERENCE / file).read_text(encoding="utf-8"))
    else:
        sid = next(k for k, e in INDEX.items() if e["file"] == file)
        raw = to_m44(json.loads((ROOT / f"{sid}.json").read_text(encoding="utf-8")))
    out = Counter()
    figures = Counter()
    for h in raw["board"]["hexagons"]:
        if "unit" in h:
            name = h["unit"]["name"]
            side = AXIS if name.endswith("ger") else ALLIES
            kind = name.removesuffix("ger").removesuffix("us").rstrip("2")
            out[(side, kind)] += 1
            default = 4 if name.startswith("tank2") else BASE[kind]
            figures[side] += int(h["unit"].get("nbr_units") or default)
    return out, figures, raw


def test_seventeen_scenarios_indexed():
    assert len(scenario_ids()) == 17 == len(INDEX)
    assert len(list(ROOT.glob("*.json"))) == 17
    assert not list(ROOT.glob("*.m44"))  # the editor's files are not shipped


@pytest.mark.parametrize("sid", list(RULEBOOK))
def test_scenario_units_and_instructions(sid):
    sc = load_scenario(sid)
    counts, figures, raw = m44_units(INDEX[sid]["file"])
    got = Counter((u.side, u.kind) for u in sc.units)
    assert got == counts
    got_fig = Counter()
    for u in sc.units:
        got_fig[u.side] += u.figures
    assert got_fig == figures
    axis_cards, allied_cards, starts, medals = RULEBOOK[sid]
    assert sc.cards == {AXIS: axis_cards, ALLIES: allied_cards}
    assert sc.starts == starts
    assert sc.medals == {AXIS: medals, ALLIES: medals}
    gi = raw["game_info"]
    assert (gi["starting"] == "PLAYER2") == (starts == ALLIES)
    st = MemoirGame(sc).new_state(seed=11)
    assert len(st.hands[AXIS]) == axis_cards and len(st.hands[ALLIES]) == allied_cards
    assert len(st.deck) + len(st.hands[AXIS]) + len(st.hands[ALLIES]) == 60
    hexes = [u.hex for u in st.live_units()]
    assert len(hexes) == len(set(hexes)) >= 1
    assert all(sc.board.on_board(h) for h in hexes)


@needs_reference
def test_documented_m44_differences():
    """Where the .m44 disagrees with the rulebook, scenarios.yaml says so (and the scenario
    file carries the note)."""
    for sid, entry in INDEX.items():
        sc = load_scenario(sid)
        gi = json.loads((REFERENCE / entry["file"]).read_text(encoding="utf-8"))["game_info"]
        assert index()[sid]["notes"] == list(entry.get("m44_differences") or [])
        differs = (gi["cards_player1"] != sc.cards[AXIS]
                   or gi["cards_player2"] != sc.cards[ALLIES]
                   or gi["victory_player1"] != sc.medals[AXIS])
        assert differs == bool(entry.get("m44_differences")) or sid == "9", sid


def test_special_units():
    mm = load_scenario(6)  # Mont Mouchet: Resistance 3 figures, German tanks 4
    assert {u.figures for u in mm.units if u.side == ALLIES} == {3}
    assert {u.special for u in mm.units if u.side == ALLIES} == {"resistance"}
    assert {u.figures for u in mm.units if u.kind == "tank"} == {4}
    sword = load_scenario(3)
    assert sum(1 for u in sword.units if u.special == "special") == sum(
        1 for u in sword.units if u.side == ALLIES and u.kind == "inf" and u.special)
    mont = load_scenario(12)  # Montélimar: other German infantry have 3 figures
    assert Counter(u.figures for u in mont.units if u.side == AXIS and u.kind == "inf"
                   and not u.special) == {3: 6}
    hoc = load_scenario(4)  # Pointe-du-Hoc: all Allied units are Rangers
    assert {u.special for u in hoc.units if u.side == ALLIES} == {"special"}


def test_beach_face_background():
    sc = load_scenario(5)
    b = sc.board
    assert b.terrain(b.all_hexes()[0]) != "ocean"
    rows = {hex_to_m44(h)[0]: b.terrain(h) for h in b.all_hexes() if b.terrain(h) in
            ("beach", "ocean")}
    assert rows[5] == "beach" and rows[8] == "ocean"
    assert load_scenario(1).board.terrain(load_scenario(1).board.all_hexes()[60]) != "beach"


def test_objectives():
    peg = load_scenario(1)
    assert [hex_to_m44(next(iter(o.hexes))) for o in peg.objectives] == [(2, 6), (5, 21)]
    assert all(not o.permanent for o in peg.objectives)
    assert all(o.permanent for o in load_scenario(11).objectives)
    mont = load_scenario(12)
    rhone = [o for o in mont.objectives if o.side == ALLIES][0]
    assert len(rhone.hexes) >= 4 and all(hex_to_m44(h)[0] <= 1 for h in rhone.hexes)
    assert [o.side for o in load_scenario(9).objectives] == [AXIS]


def test_deck_composition():
    """M44 Components: 60 command cards, 40 section and 20 tactic cards."""
    assert len(DECK) == 60 and len(SECTION_CARDS) == 40 and len(TACTIC_CARDS) == 20
    names = Counter(c.name for c in DECK)
    assert names["recon"] == 6 and names["probe"] == 13 and names["attack"] == 10
    assert names["assault"] == 6 and names["recon_in_force"] == 3
    assert len({c.name for c in TACTIC_CARDS}) == 15
    assert sum(1 for c in DECK if c.name == "probe" and c.section == "center") == 5
