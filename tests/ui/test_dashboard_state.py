"""CampaignState and the dashboard's views without a browser (plain pytest)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers import small_scenario, unit
from wargame.bots.campaign_random import auto_answer
from wargame.hexgrid import Hex
from wargame.operational.actions import Attack, EndPhase, Move
from wargame.operational.state import Game
from wargame.ui.demo import demo_scenario
from wargame.ui.model import CampaignState, describe_option, load_history

SEED = 1944


@pytest.fixture
def model() -> CampaignState:
    return CampaignState(Game(demo_scenario()), seed=SEED)


def to_combat(m: CampaignState) -> None:
    m.select_hex("0405")
    m.select_hex("0605")
    assert m.end_phase()


def test_model_module_imports_no_panel():
    code = ("import sys; import wargame.ui.model; "
            "assert 'panel' not in sys.modules, 'panel imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_select_unit_reachable_equals_engine(model):
    model.select_hex("0405")
    assert model.selected_unit == "us-inf-1"
    assert model.reachable() == model.s.legal_destinations("us-inf-1")
    assert set(model.reachable()) and Hex.from_id("0605") in model.reachable()
    assert "reachable" in model.message


def test_move_by_click(model):
    model.select_hex("0405")
    model.select_hex("0605")
    assert model.s.units["us-inf-1"].hex == Hex.from_id("0605")
    assert model.s.action_log[-1] == Move("us-inf-1", "0605").to_dict()
    assert not model.error


def test_illegal_move_shows_reason_and_rule_state_unchanged(model):
    before = model.s.fingerprint()
    log = list(model.s.action_log)
    model.select_unit("us-inf-1")
    assert not model.move_selected_to("1210")  # far beyond 6 MP
    assert model.error
    assert "beyond" in model.message and "CN 4.0" in model.message
    assert model.s.fingerprint() == before and model.s.action_log == log


def test_illegal_move_onto_enemy(model):
    model.select_unit("us-inf-1")
    assert not model.move_selected_to("0705")
    assert model.error and "CN 4.1.2" in model.message


def test_enemy_zoc_marked(model):
    model.select_hex("0405")
    assert model.enemy_zoc() == model.s.zoc_of("axis")


def test_reinforcement_entry(model):
    assert model.waiting_units() == ["us-inf-2"]
    model.pick_reinforcement("us-inf-2")
    assert model.entry_hexes() == model.s.entry_hexes("us-inf-2")
    model.select_hex(model.entry_hexes()[0].id)
    assert model.s.units["us-inf-2"].status == "on_map"
    assert model.selected_unit == "us-inf-2" and model.reinforcement is None


def test_attack_preview_equals_engine(model):
    to_combat(model)
    model.select_hex("0705")
    assert model.attack_target == "0705"
    assert model.attack_units == model.s.eligible_attackers("allied", Hex.from_id("0705"))
    assert model.artillery_options() == ["us-art-1"]
    assert model.air_max() == min(model.s.air_points["allied"], 10)
    model.attack_artillery = ["us-art-1"]
    model.attack_air = 5
    expected = model.s.preview_attack("0705", ("us-inf-1",), ("us-art-1",), 5)
    got = model.preview()
    assert got == expected
    assert got.ratio == "4-1" and sum(got.distribution.values()) == 1


def test_roll_and_answer_decisions(model):
    to_combat(model)
    air_before = model.s.air_points["allied"]
    assert model.declare_attack("0705", ["us-inf-1"], ["us-art-1"], 5)
    assert model.s.air_points["allied"] == air_before - 5
    d = model.s.pending
    assert d is not None and d.kind == "retreat"  # seed 1944: DRB AVB
    assert "DRB" in model.result_text()
    targets = model.retreat_targets()
    assert set(targets) == {o.path[-1] for o in d.options}
    model.select_hex("0806")  # click a retreat hex on the map
    assert model.s.units["de-inf-1"].hex == Hex.from_id("0806")
    assert model.s.pending.kind == "advance"
    labels = [label for label, _ in model.decision_options()]
    assert "no (further) advance" in labels
    assert model.auto()
    assert model.s.pending is None
    assert model.s.units["us-inf-1"].hex == Hex.from_id("0705")


def test_answer_by_index_and_bad_index(model):
    to_combat(model)
    model.declare_attack("0705", ["us-inf-1"], [], 0)
    assert model.s.pending is not None, "the seeded roll should leave a decision"
    assert not model.answer(99) and model.error
    assert model.answer(0)


def test_decision_labels(model):
    to_combat(model)
    model.declare_attack("0705", ["us-inf-1"], ["us-art-1"], 5)
    for action in model.s.pending.options:
        assert "de-inf-1" in describe_option(model.s, action)


def test_undo(model):
    model.select_hex("0405")
    model.select_hex("0605")
    assert model.undo()
    assert model.s.units["us-inf-1"].hex == Hex.from_id("0405")
    assert model.s.action_log == []
    assert not model.undo()


def test_save_load_round_trip(model):
    to_combat(model)
    model.declare_attack("0705", ["us-inf-1"], ["us-art-1"], 5)
    text = model.save_json()
    data = json.loads(text)
    assert data["format"] == "wargame-save" and data["format_version"] == 4
    assert data["game"] == "campaign" and data["scenario"] == "demo"
    fingerprint = model.s.fingerprint()
    model.new_game(7)
    assert model.s.action_log == []
    assert model.load_json(text.encode())
    assert model.s.fingerprint() == fingerprint
    # a format-1 campaign save (the campaign-only format before wargame.saves) still loads
    v2 = json.loads(text)
    old = json.dumps({"format": "wargame-campaign-save", "format_version": 1,
                      "scenario": v2["scenario"], "seed": v2["seed"],
                      "variants": v2["options"]["variants"], "actions": v2["actions"],
                      "fingerprint": v2["fingerprint"]})
    assert json.loads(old)["format"] == "wargame-campaign-save"
    model.new_game(7)
    assert model.load_json(old) and not model.error
    assert model.s.fingerprint() == fingerprint
    assert not model.load_json("{not json")
    assert model.error and "Could not load" in model.message


def test_end_phase_and_refusal(model):
    to_combat(model)
    # us-inf-1 is engaged and must attack (CN 4.1.2)
    assert not model.end_phase()
    assert "must attack" in model.message and "4.1.2" in model.message
    model.declare_attack("0705", ["us-inf-1"], [], 0)
    while model.s.pending is not None:
        model.auto()
    assert model.end_phase()
    assert model.s.phase.value == "axis_movement"


def test_bombardment(model):
    to_combat(model)
    model.select_hex("1007")  # Villedemo, in range of nothing: air strike
    model.attack_air = 5
    assert model.bombard(air=True), model.message
    assert any(e.kind in ("bombard", "bombard_none") for e in model.s.events)


def test_hidden_values(model):
    model.hide_enemy = True
    card = model.unit_card("de-inf-1")
    assert card["attack"] == "?" and card["defence"] == "?"
    assert model.unit_card("us-inf-1")["attack"] == 3


def test_demo_game_replays_like_engine():
    game = Game(demo_scenario())
    s = game.new_state(SEED)
    for a in (Move("us-inf-1", "0605"), EndPhase(), Attack("0705", ("us-inf-1",), ("us-art-1",), 5)):
        s.apply(a)
    while s.pending is not None:
        s.apply(auto_answer(s))
    m = CampaignState(game, seed=SEED)
    m.select_hex("0405")
    m.select_hex("0605")
    m.end_phase()
    m.declare_attack("0705", ["us-inf-1"], ["us-art-1"], 5)
    while m.s.pending is not None:
        m.auto()
    assert m.s.fingerprint() == s.fingerprint()


def test_history_file(tmp_path):
    scn_dir = tmp_path / "scn"
    scn_dir.mkdir()
    (scn_dir / "history.yaml").write_text(
        "- {turn: 1, dates: '6-8 June', text: 'Landings.', allied_cities: [Villedemo]}\n")
    import dataclasses

    scn = dataclasses.replace(demo_scenario(), source=str(scn_dir / "scenario.yaml"))
    hist = load_history(scn)
    assert hist and hist[0].allied_cities == ("Villedemo",)
    m = CampaignState(Game(scn), seed=1)
    assert m.history_entry().text == "Landings."
    assert m.history_hexes() == [Hex.from_id("1007")]
    assert load_history(demo_scenario()) is None


# ---------------------------------------------------------------------- views (Panel, no browser)
@pytest.mark.slow  # 2.2 s (measured on 2 busy cores)
def test_dashboard_views_follow_state():
    from wargame.ui import CampaignDashboard

    d = CampaignDashboard(Game(demo_scenario()), seed=SEED)
    d.click("0405")
    kinds = d.map.highlight_source.data["kind"]
    assert kinds.count("reach") == len(d.model.reachable())
    assert "zoc" in kinds and "selected" in kinds
    assert "us-inf-1" in d.unit_card.pane.object
    d.click("0605")
    assert d.model.s.units["us-inf-1"].hex == Hex.from_id("0605")
    assert "us-inf-1" in d.map.counter_source.data["uid"]
    d.turn.end.clicks += 1
    assert d.model.s.phase.value == "allied_combat"
    d.click("0705")
    assert d.attack.attackers.options == {"us-inf-1 (3) in 0605": "us-inf-1"}
    d.attack.artillery.value = ["us-art-1"]
    d.attack.air.value = 5
    a = d.model.s.preview_attack("0705", ("us-inf-1",), ("us-art-1",), 5)
    assert f"ratio <b>{a.ratio}</b>" in d.attack.preview.object
    assert d.attack.source.data["p"] == sorted((float(p) for p in a.distribution.values()),
                                               reverse=True)
    assert list(d.attack.chart.x_range.factors) == d.attack.source.data["result"]
    d.attack.roll.clicks += 1
    assert d.model.s.pending.kind == "retreat"
    assert "retreat" in d.decision.info.object
    assert set(d.map.highlight_source.data["kind"]) >= {"retreat"}
    d.decision.options.value = 1
    d.decision.confirm.clicks += 1
    assert d.model.s.pending.kind == "advance"
    d.decision.auto.clicks += 1
    assert d.model.s.pending is None
    d.turn.undo.clicks += 1
    assert d.model.s.pending.kind == "advance"
    text = d.turn._save().getvalue()
    d.turn.new.clicks += 1
    assert d.model.s.action_log != [] and d.turn.really.visible  # New game asks first (issue 15)
    d.turn.really.clicks += 1
    assert d.model.s.action_log == [] and not d.turn.really.visible
    d.turn.load.value = text.encode()
    assert d.model.s.pending.kind == "advance"
    assert "Turn <b>1</b>" in d.turn.info.object


def test_hexmap_geometry_and_pointytop():
    from wargame.hexgrid import Layout
    from wargame.ui.hexmap import HexMap, HexSpec

    specs = [HexSpec(Hex(q, r), f"{q},{r}", "open") for q in range(3) for r in range(3)]
    hm = HexMap(specs, Layout("pointytop", 1.0), hexsides=[(Hex(0, 0), Hex(1, 0), "river")],
                roads=[(Hex(0, 0), Hex(0, 1))])
    seg = hm.shared_edge(Hex(0, 0), Hex(1, 0))
    assert seg is not None
    assert hm.shared_edge(Hex(0, 0), Hex(2, 0)) is None
    clicked = []
    hm.on_click = clicked.append
    hm.click("1,1")
    assert clicked == ["1,1"] and hm.hex_source.selected.indices == []


def test_board_hexsides_drawn_between_corners():
    from wargame.hexgrid import Layout
    from wargame.ui.hexmap import HexMap

    scn = small_scenario(rivers=[("0202", "0302")], roads=[["0101", "0102"]],
                         units=[unit("a", "allied")], setup={"a": "0101"})
    hm = HexMap.from_board(scn.board, Layout("flattop", 1.0))
    (a, b) = hm.shared_edge(Hex.from_id("0202"), Hex.from_id("0302"))
    lay = hm.layout
    for p in (a, b):
        for h in ("0202", "0302"):
            cx, cy = lay.to_xy(Hex.from_id(h))
            assert abs(((p[0] - cx) ** 2 + (p[1] - cy) ** 2) ** 0.5 - 1.0) < 1e-9


def test_selection_sends_changed_cells_only_and_deselect_frees_the_click(monkeypatch):
    from wargame.ui import CampaignDashboard

    d = CampaignDashboard(Game(demo_scenario()), seed=SEED)
    src = d.map.counter_source
    patched: list[set[str]] = []
    from bokeh.models import ColumnDataSource

    original = ColumnDataSource.patch

    def spy(self, patches, *args, **kwargs):
        if self is src:
            patched.append(set(patches))
        return original(self, patches, *args, **kwargs)

    monkeypatch.setattr(ColumnDataSource, "patch", spy)
    uids_before = list(src.data["uid"])
    d.click("0405")
    # the counters did not move: only the selected counter's outline is patched
    assert patched and set().union(*patched) <= {"edge", "lw"}
    assert list(src.data["uid"]) == uids_before
    lw = dict(zip(src.data["uid"], src.data["lw"], strict=True))
    assert lw["us-inf-1"] > lw["de-inf-1"]
    assert d.unit_card.deselect.visible
    d.unit_card.deselect.clicks += 1
    assert d.model.selected_unit is None and not d.unit_card.deselect.visible
    assert "reach" not in d.map.highlight_source.data["kind"]


def test_terrain_marks_are_markers_not_hatches():
    # vectorised hatch patterns cost seconds per repaint in chromium (bench/dashboard.py)
    from wargame.ui.hexmap import TERRAIN_STYLE, HexMap

    hm = HexMap.from_board(Game("normandy").board)
    glyphs = [r.glyph for r in hm.figure.renderers]
    assert all(getattr(g, "hatch_pattern", None) in (None, " ", "") for g in glyphs)
    marks = next(r for r in hm.figure.renderers if r.name == "hexmap-terrain-marks")
    bocage = sum(1 for info in Game("normandy").board.hexes.values() if info.terrain == "bocage")
    assert list(marks.data_source.data["m"]).count(TERRAIN_STYLE["bocage"][1]) == 2 * bocage


def test_normandy_history_panel_uses_the_checked_history():
    from wargame.ui import CampaignDashboard

    d = CampaignDashboard("normandy", seed=SEED)
    text = d.history.pane.object
    heading = text.split("<h4>")[1].split("</h4>")[0]
    assert heading == "History: D-Day, 6 June 1944"
    d.model.s.turn = 11  # Charnwood: Caen north of the Orne only
    d.history.refresh()
    assert "hexes 2813" in d.history.pane.object
    assert Hex.from_id("2813") in d.model.history_hexes()
    assert Hex.from_id("2913") not in d.model.history_hexes()


def test_click_predictions_match_what_the_server_draws():
    # the browser draws predictions[hex] at once (HexMap._PREDICT_JS); the server's answer to
    # the same click must be the same picture, or the map would flicker between two answers
    from wargame.ui import CampaignDashboard
    from wargame.ui.hexmap import HexMap

    d = CampaignDashboard(Game(demo_scenario()), seed=SEED)
    table, zoc = d.predictions()
    assert table and zoc
    src = d.map.predict_source.data
    assert len(src["idx"]) == sum(len(rows) for rows in table.values())
    for origin, rows in table.items():
        d.model.select_unit(None)
        d.click(origin)
        hl = d.map.highlight_source.data
        reach = {(q, r): f for q, r, k, f in zip(hl["q"], hl["r"], hl["kind"], hl["fill"],
                                                  strict=True) if k == "reach"}
        assert reach == {(h.q, h.r): HexMap.reach_colour(frac) for h, frac, _, _ in rows}
        assert {(q, r) for q, r, k in zip(hl["q"], hl["r"], hl["kind"], strict=True)
                if k == "zoc"} == {(h.q, h.r) for h in zoc}
    # no prediction while a decision is pending or in a combat phase
    d.model.select_unit(None)
    d.turn.end.clicks += 1
    assert d.predictions() == ({}, set()) and list(d.map.predict_source.data["idx"]) == []


def test_new_game_with_variant_rules_from_the_dashboard():
    from wargame.ui import CampaignDashboard

    d = CampaignDashboard("normandy", seed=SEED)
    assert d.turn.variants.visible and len(d.turn.variants.options) == 8
    assert d.model.game.variants == ()
    d.turn.variants.value = ["bfn-19.1", "bfn-19.4"]
    d.turn.seed.value = 7
    d.turn.new.clicks += 1
    d.turn.really.clicks += 1
    assert set(d.model.game.variants) == {"bfn-19.1", "bfn-19.4"}
    assert d.model.s.seed == 7
    saved = json.loads(d.model.save_json())
    assert set(saved["options"]["variants"]) == {"bfn-19.1", "bfn-19.4"}
    demo = CampaignDashboard(Game(demo_scenario()), seed=SEED)
    assert not demo.turn.variants.visible
