"""Issue 32: Scenario Editor files of every variant, nation, terrain family and board, from
small layouts of our own (written here), imported with ``wargame scenario import``."""

from __future__ import annotations

import json
import random

import pytest

from wargame.catalog import memoir_scenarios
from wargame.cli import main as cli_main
from wargame.games import open_game
from wargame.memoir.board import ALLIES, AXIS, OLD_SIDE_IDS, m44_to_hex
from wargame.memoir.imports import APPROXIMATE_MARK, import_m44
from wargame.memoir.m44 import UnsupportedM44
from wargame.memoir.m44_tiles import NATIONS, TILES, label_to_hex
from wargame.memoir.rules import Terrainish
from wargame.memoir.scenario import load_scenario
from wargame.scenario_errors import ScenarioError


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("WARGAME_HOME", str(tmp_path / "home"))


def layout(hexagons, board="STANDARD", **info):
    game_info = {"side_player1": "AXIS", "side_player2": "ALLIES", "starting": "PLAYER1"}
    game_info.update(info)
    base = [{"row": 0, "col": 0, "unit": {"name": "infger"}},
            {"row": 8 if board != "BRKTHRU" else 16, "col": 24, "unit": {"name": "infus"}}]
    taken = {(h["row"], h["col"]) for h in hexagons}
    return {"game_info": game_info, "board": {"type": board, "face": "COUNTRY", "hexagons": [
        h for h in base if (h["row"], h["col"]) not in taken] + hexagons}}


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def saved(result):
    return json.loads(result.path.read_text(encoding="utf-8"))


# --- 1. format variants ------------------------------------------------------------------------
def test_lower_case_values_and_numbers_written_as_text_are_read(tmp_path):
    data = layout([{"row": "2", "col": "4", "unit": {"name": "TANKGER", "nbr_units": "2"}}],
                  cards_player1="5", cards_player2="3", victory_player1="4",
                  victory_player2="5", side_player1="axis", side_player2="allies",
                  starting="player2")
    data["board"].update(type="standard", face="country")
    result = import_m44(write(tmp_path, "lower.m44", data), "lower")
    scn = load_scenario("lower")
    assert scn.cards == {AXIS: 5, ALLIES: 3} and scn.medals == {AXIS: 4, ALLIES: 5}
    assert scn.starts == ALLIES  # PLAYER2, written player2
    tank = next(u for u in scn.units if u.kind == "tank")
    assert tank.hex == m44_to_hex(2, 4) and tank.figures == 2 and tank.side == AXIS
    assert not result.approximated and not result.title.endswith(APPROXIMATE_MARK)


def test_a_hex_listed_twice_is_refused_naming_it(tmp_path):
    data = layout([{"row": 3, "col": 5, "terrain": {"name": "woods"}},
                   {"row": 3, "col": 5, "unit": {"name": "infger"}}])
    with pytest.raises(ScenarioError) as exc:
        import_m44(write(tmp_path, "twice.m44", data), "twice")
    assert "[3, 5]" in str(exc.value) and exc.value.field.startswith("board.hexagons[")


def test_bunkers_belong_to_the_side_of_the_unit_on_them(tmp_path):
    data = layout([{"row": 6, "col": 4, "rect_terrain": {"name": "bunker"},
                    "unit": {"name": "infger"}},  # an Axis unit in the Allied half
                   {"row": 1, "col": 5, "rect_terrain": {"name": "bunker"},
                    "unit": {"name": "infus"}},
                   {"row": 7, "col": 7, "rect_terrain": {"name": "bunker"}},  # empty, Allied half
                   {"row": 2, "col": 2, "rect_terrain": {"name": "bunker"}}])  # empty, Axis half
    import_m44(write(tmp_path, "bunkers.m44", data), "bunkers")
    scn = load_scenario("bunkers")
    t = Terrainish(scn, {}, set(), set())
    assert t.bunker_counts_for(m44_to_hex(6, 4), AXIS)
    assert not t.bunker_counts_for(m44_to_hex(6, 4), ALLIES)
    assert t.bunker_counts_for(m44_to_hex(1, 5), ALLIES)
    assert t.bunker_counts_for(m44_to_hex(7, 7), ALLIES)
    assert t.bunker_counts_for(m44_to_hex(2, 2), AXIS)


def test_every_objective_tag_is_read(tmp_path):
    data = layout([
        {"row": 4, "col": 12, "tags": [{"name": "medal0"}]},  # either side's
        {"row": 3, "col": 3, "tags": [{"name": "medal4"}]},  # an Allied (British) medal
        {"row": 3, "col": 9, "tags": [{"name": "medal7", "medal": {"permanent": True,
                                                                    "counts_for": 2}}]},
        {"row": 5, "col": 5, "tags": [{"name": "medal1", "group": ["D6"],  # (5, 7)
                                       "medal": {"nbr_hex": 2, "counts_for": 1}}]},
        {"row": 5, "col": 7, "tags": [{"name": "medal1", "group": ["c6"],  # (5, 5)
                                       "medal": {"nbr_hex": 2, "counts_for": 1}}]},
        {"row": 6, "col": 2, "tags": [{"name": "tag4", "behavior": "EXIT_MARKER"}]},
    ])
    result = import_m44(write(tmp_path, "medals.m44", data), "medals")
    objectives = saved(result)["objectives"]
    # the written file keeps the editor's side words; they are the ids once read (issue #27)
    by = {(OLD_SIDE_IDS[o["side"]], tuple(map(tuple, o["hexes"]))): o for o in objectives}
    assert (AXIS, ((4, 12),)) in by and (ALLIES, ((4, 12),)) in by
    assert (ALLIES, ((3, 3),)) in by
    assert by[(AXIS, ((3, 9),))]["permanent"] and by[(AXIS, ((3, 9),))]["medals"] == 2
    assert by[(ALLIES, ((5, 5), (5, 7)))]["medals"] == 1  # one objective for the group
    assert len(objectives) == 5
    assert any("needing 2 hex" in a for a in result.report["approximated"])
    assert any("tag4" in a and "(6,2)" in a for a in result.report["left_out"])
    assert result.approximated and result.title.endswith(APPROXIMATE_MARK)
    assert label_to_hex("G5") == (4, 12) and label_to_hex("f8") == (7, 11)


# --- 2. nations --------------------------------------------------------------------------------
@pytest.mark.parametrize("code", sorted(NATIONS))
def test_each_nation_plays_as_its_side_with_the_nation_on_the_counter(tmp_path, code):
    file_side, nation = NATIONS[code]
    side = OLD_SIDE_IDS[file_side]  # the file's word as the engine's id (issue #27)
    row = 2 if side == AXIS else 6
    data = layout([{"row": row, "col": 10, "unit": {"name": f"inf{code}"}},
                   {"row": row, "col": 12, "unit": {"name": f"tank2{code}"}}])
    result = import_m44(write(tmp_path, f"{code}.m44", data), f"n-{code}")
    scn = load_scenario(f"n-{code}")
    mine = [u for u in scn.units if u.hex in (m44_to_hex(row, 10), m44_to_hex(row, 12))]
    assert {u.side for u in mine} == {side}
    assert [u.special for u in mine if u.kind == "tank"] == ["elite"]
    if nation in ("German", "American"):
        assert all(u.nation is None for u in mine) and not result.approximated
    else:
        assert all(u.nation == nation for u in mine)
        # its own rules are not played, and the report says so
        assert any(nation in item for item in result.report["left_out"])
        assert result.approximated


def test_an_unknown_nation_and_expansion_figures_are_refused_by_name(tmp_path):
    data = layout([{"row": 2, "col": 10, "unit": {"name": "infzz"}},
                   {"row": 2, "col": 12, "unit": {"name": "vehus"}}])
    with pytest.raises(UnsupportedM44) as exc:
        import_m44(write(tmp_path, "zz.m44", data), "zz")
    assert any("'infzz'" in p and "(2,10)" in p for p in exc.value.problems)
    assert any("'vehus'" in p and "(2,12)" in p for p in exc.value.problems)


def test_badged_combat_engineers_are_reported_not_silent(tmp_path):
    data = layout([{"row": 6, "col": 10, "unit": {"name": "inf2us", "badge": "badge6"}},
                   {"row": 6, "col": 12, "unit": {"name": "inf2us", "badge": "badge2"}}])
    result = import_m44(write(tmp_path, "eng.m44", data), "eng")
    assert any("Combat Engineers" in a and "(6,10)" in a for a in result.report["approximated"])
    assert not any("(6,12)" in a for a in result.report["approximated"])  # an emblem only


# --- 3. terrain families -----------------------------------------------------------------------
FAMILIES = {  # tile -> the engine terrain it plays as, exactly
    "winter": {"wforest": "woods", "whill": "hills", "wvillage": "buildings"},
    "desert": {"dhill": "hills", "bled": "buildings"},
    "pacific": {"pbeach": "beach", "pvillage": "buildings"},
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_winter_desert_and_pacific_base_terrain_play_as_base_terrain(tmp_path, family):
    tiles = FAMILIES[family]
    data = layout([{"row": 4, "col": 2 * i, "terrain": {"name": name}}
                   for i, name in enumerate(tiles)])
    result = import_m44(write(tmp_path, f"{family}.m44", data), family)
    scn = load_scenario(family)
    for i, expected in enumerate(tiles.values()):
        assert scn.board.terrain(m44_to_hex(4, 2 * i)) == expected
    assert not result.approximated and len(result.report["read"]) >= len(tiles)


def test_terrain_pack_tiles_exact_approximated_and_unknown(tmp_path):
    data = layout([{"row": 4, "col": 0, "terrain": {"name": "lakeA"}},
                   {"row": 4, "col": 2, "terrain": {"name": "descarpment"}},
                   {"row": 4, "col": 4, "terrain": {"name": "road"}},
                   {"row": 4, "col": 6, "terrain": {"name": "marshes"}},
                   {"row": 4, "col": 8, "terrain": {"name": "pjungle"}}])
    result = import_m44(write(tmp_path, "pack.m44", data), "pack")
    scn = load_scenario("pack")
    t = Terrainish(scn, {}, set(), set())
    assert scn.board.terrain(m44_to_hex(4, 0)) == "river" and t.impassable(m44_to_hex(4, 0))
    assert t.impassable(m44_to_hex(4, 2)) and scn.board.terrain(m44_to_hex(4, 2)) == "hills"
    assert scn.board.terrain(m44_to_hex(4, 8)) == "woods"
    approximated = " ".join(result.report["approximated"])
    for name in ("road", "marshes", "pjungle"):
        assert name in approximated
    assert "lakeA" not in approximated and "descarpment" not in approximated
    unknown = layout([{"row": 4, "col": 0, "terrain": {"name": "pairfield"}}])
    with pytest.raises(UnsupportedM44) as exc:
        import_m44(write(tmp_path, "air.m44", unknown), "air")
    assert exc.value.problems == ["terrain 'pairfield' (no known effect) at (4,0)"]


def test_every_tile_has_a_card_and_plays_as_something():
    for name, tile in TILES.items():
        assert tile.card and (tile.terrain or tile.rect or tile.obstacle or tile.lost), name


# --- 4. the Breakthrough board -----------------------------------------------------------------
def test_the_breakthrough_board_is_13_by_17_with_the_standard_sections(tmp_path):
    data = layout([{"row": 16, "col": 0, "unit": {"name": "tankus"}},
                   {"row": 12, "col": 12, "terrain": {"name": "woods"}}], board="BRKTHRU")
    import_m44(write(tmp_path, "bt.m44", data), "bt")
    scn = load_scenario("bt")
    board = scn.board
    assert (board.width, board.rows) == (13, 17) and len(board.all_hexes()) == 9 * 13 + 8 * 12
    assert board.home_row(ALLIES) == 16 and board.on_board(m44_to_hex(16, 24))
    assert not board.on_board(m44_to_hex(17, 1))
    assert board.board_sections(m44_to_hex(11, 7)) == {"left", "center"}
    assert board.board_sections(m44_to_hex(16, 18)) == {"right"}
    st = open_game("memoir44-bt").new_state(2)
    rng = random.Random(2)
    for _ in range(80):
        if st.is_terminal:
            break
        st.apply(rng.choice(list(st.legal_actions())))
    too_deep = layout([{"row": 17, "col": 1, "unit": {"name": "infus"}}], board="BRKTHRU")
    with pytest.raises(ScenarioError) as exc:
        import_m44(write(tmp_path, "deep.m44", too_deep), "deep")
    assert exc.value.field.endswith(".row") and "16" in str(exc.value)


# --- 5. the report, the title mark and the list ------------------------------------------------
def test_the_report_is_in_the_briefing_the_title_and_the_list(tmp_path, capsys):
    data = layout([{"row": 6, "col": 10, "unit": {"name": "infru"}},
                   {"row": 4, "col": 4, "terrain": {"name": "wroad"}}], front="EASTERN",
                  date_begin="1943-07-05", options={"russian_commissar_rule": "ALLIES"})
    path = write(tmp_path, "kursk.m44", data)
    assert cli_main(["scenario", "import", str(path), "--id", "kursk"]) == 0
    out = capsys.readouterr().out
    scn = load_scenario("kursk")
    assert scn.approximated and scn.title.endswith(APPROXIMATE_MARK)
    assert "road" in scn.briefing and "Commissar" in scn.briefing
    assert "russian_commissar_rule" in scn.briefing
    assert "Jogado de forma aproximada" in scn.briefing_in("pt")
    assert "road" in out and "Commissar" in out
    entry = next(d for d in memoir_scenarios() if d["id"] == "memoir44-kursk")
    assert entry["approximated"] and entry["front"] == "EASTERN" and entry["year"] == "1943"
    assert cli_main(["scenario", "list"]) == 0
    assert APPROXIMATE_MARK in next(line for line in capsys.readouterr().out.splitlines()
                                    if "memoir44-kursk" in line)


def test_a_rule_marked_on_a_tile_or_unit_is_reported_not_silent(tmp_path):
    data = layout([{"row": 4, "col": 4, "terrain": {"name": "river", "behavior":
                                                    "FORDABLE_STREAM"}},
                   {"row": 6, "col": 6, "unit": {"name": "inf2us", "behavior": "FRENCH_RESISTANCE"}},
                   {"row": 6, "col": 8, "unit": {"name": "infus", "behavior": "IS_WITTMANN"}}])
    result = import_m44(write(tmp_path, "marks.m44", data), "marks")
    approximated = " ".join(result.report["approximated"])
    assert "FORDABLE_STREAM" in approximated and "(4,4)" in approximated
    assert "IS_WITTMANN" in approximated and "(6,8)" in approximated
    scn = load_scenario("marks")
    resistance = next(u for u in scn.units if u.hex == m44_to_hex(6, 6))
    assert resistance.special == "resistance" and resistance.figures == 3


def test_sudden_death_bunker_owner_equipment_and_victory_texts(tmp_path):
    data = layout([{"row": 2, "col": 2, "rect_terrain": {"name": "bunker",
                                                         "original_owner": "ALLIES"},
                    "unit": {"name": "infger"}},  # the file names the owner
                   {"row": 6, "col": 10, "unit": {"name": "infus", "equipment": "boat"}}],
                  victory={"condition": [{"group_sudden_death": {
                      "side": "axis", "number": 2, "group": ["G5", "g4", "H5"]}}]})
    data["text"] = {"en": {"name": "Test", "victory": "6 Medals"}}
    result = import_m44(write(tmp_path, "sd.m44", data), "sd")
    scn = load_scenario("sd")
    (sd,) = scn.opt("sudden_death")
    assert sd["side"] == AXIS and sd["required"] == 2
    assert sd["hexes"] == {m44_to_hex(4, 12), m44_to_hex(3, 13), m44_to_hex(4, 14)}
    assert Terrainish(scn, {}, set(), set()).bunker_counts_for(m44_to_hex(2, 2), ALLIES)
    assert any("boat" in a and "(6,10)" in a for a in result.report["approximated"])
    assert not any("victory" in x for x in result.report["left_out"])  # "6 Medals" only
    data["text"]["en"]["victory"] = "6 Medals. The Axis start with 3 medals."
    again = import_m44(write(tmp_path, "sd2.m44", data), "sd2")
    assert any("victory conditions written" in x for x in again.report["left_out"])


def test_a_side_with_no_unit_left_loses_an_imported_game(tmp_path):
    # one Allied unit against four Axis ones; the Axis needs 6 medals, so wiping the Allies
    # out does not reach it: without the rule the game could never end
    data = layout([{"row": 1, "col": 1, "unit": {"name": "infger"}},
                   {"row": 1, "col": 3, "unit": {"name": "infger"}},
                   {"row": 1, "col": 5, "unit": {"name": "tankger"}}])
    import_m44(write(tmp_path, "alone.m44", data), "alone")
    scn = load_scenario("alone")
    assert scn.opt("last_unit_loses") and sum(u.side == ALLIES for u in scn.units) == 1
    st = open_game("memoir44-alone").new_state(5)
    allied = next(u for u in st.live_units(ALLIES))
    st.set_figures(allied, 0)  # as if eliminated in battle
    rng = random.Random(5)
    for _ in range(400):
        if st.is_terminal:
            break
        st.apply(rng.choice(list(st.legal_actions())))
    assert st.is_terminal and st.outcome().winner == AXIS
    assert not load_scenario("1").opt("last_unit_loses")  # the bundled scenarios: unchanged
