"""The engine's declared extension points (operational/hooks.py), the BFN 19 rules plugged
into them, and the Normandy data file of the variants."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import small_scenario, unit
from wargame import errors
from wargame.bots.play import play_random_game
from wargame.hexgrid import Hex
from wargame.operational.actions import Action, EndPhase, Move
from wargame.operational.bfn_rules import BattleForNormandyRules
from wargame.operational.hooks import RuleHooks
from wargame.operational.state import Game, State
from wargame.operational.variants import (
    BEACH_HARBOURS,
    DATA,
    CarpetBombArea,
    carpet_area_around,
    load_variant_data,
)
from wargame.paths import scenario_dir
from wargame.scenario_errors import ScenarioError

from .conftest import game


def test_every_campaign_game_has_the_bfn_hooks() -> None:
    assert isinstance(game().hooks, BattleForNormandyRules)
    assert isinstance(game().hooks, RuleHooks)


@pytest.mark.slow  # 3.1 s (measured on 2 busy cores)
def test_without_variants_the_bfn_hooks_play_like_the_bare_rulebook() -> None:
    """The same seed and policy give the same game with the inert BFN hooks and with the
    do-nothing base hooks."""
    plain = Game("normandy")
    bare = Game("normandy")
    bare.hooks = RuleHooks()
    a = play_random_game(plain.new_state(3), seed=3, max_actions=300)
    b = play_random_game(bare.new_state(3), seed=3, max_actions=300)
    assert a.action_log == b.action_log
    assert a.fingerprint() == b.fingerprint()
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]


class _Recorder(RuleHooks):
    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []

    def on_turn_start(self, state: State) -> None:
        self.calls.append(("turn", state.turn))

    def on_phase_start(self, state: State) -> None:
        self.calls.append(("phase", state.phase.value))

    def on_movement_end(self, state: State, side: str) -> None:
        self.calls.append(("movement_end", side))

    def move_refusal(self, state: State, uid: str) -> errors.IllegalAction | None:
        if uid == "frozen":
            return errors.MovementRefused("frozen by a test rule", "TEST 1.0")
        return None

    def extra_actions(self, state: State) -> list[Action]:
        return []


def _small_game(hooks: RuleHooks) -> Game:
    g = Game(small_scenario(units=[unit("a", "allied"), unit("frozen", "allied"), unit("g", "axis")],
                            setup={"a": "0202", "frozen": "0303", "g": "0909"}))
    g.hooks = hooks
    return g


def test_the_engine_calls_the_hooks_at_their_declared_points() -> None:
    hooks = _Recorder()
    s = _small_game(hooks).new_state()
    assert hooks.calls == [("turn", 1), ("phase", "allied_movement")]
    s.apply(EndPhase())
    assert hooks.calls[-2:] == [("movement_end", "allied"), ("phase", "allied_combat")]


def test_a_hook_refusal_is_raised_and_the_unit_offers_no_move() -> None:
    s = _small_game(_Recorder()).new_state()
    before = s.fingerprint()
    with pytest.raises(errors.MovementRefused, match="frozen by a test rule"):
        s.apply(Move("frozen", "0304"))
    assert s.fingerprint() == before
    assert s.legal_destinations("frozen") == {}
    assert s.move_refusal("frozen").rule == "TEST 1.0"
    assert s.legal_destinations("a")


def test_bfn_carpet_refusals_name_their_kind() -> None:
    s = game("bfn-19.3").new_state(1)
    s.turn = 14
    s.air_points["allied"] = 50
    targets = carpet_area_around(s, Hex.from_id("2813"))
    with pytest.raises(errors.CombatRefused):
        s.apply(CarpetBombArea(targets[:9]))
    s.air_points["allied"] = 9
    with pytest.raises(errors.SupportRefused):
        s.apply(CarpetBombArea(targets))
    with pytest.raises(errors.CombatRefused, match="does not use BFN carpet bombing"):
        game().new_state(1).apply(CarpetBombArea(targets))


def test_the_normandy_data_comes_from_the_scenario_file() -> None:
    data = load_variant_data()
    assert data == DATA
    assert BEACH_HARBOURS["Omaha"] == {"name": "American", "hex": "2009", "landing": "2010",
                                       "nations": ["american"]}  # CN 9.0: 2010 for Americans
    assert data.british_sector_from_column == 22 and data.pegasus_unit == "gb-5p-6ab"
    for site in data.mulberry_sites.values():
        assert Hex.from_id(site["landing"]) in game().board.hexes


@pytest.mark.parametrize("field", ["pegasus_unit", "d_day", "mulberry_sites", "dd_values"])
def test_a_missing_field_names_the_file_and_the_field(tmp_path: Path, field: str) -> None:
    shutil.copy(scenario_dir("normandy") / "variants.yaml", tmp_path / "variants.yaml")
    text = (tmp_path / "variants.yaml").read_text(encoding="utf-8")
    kept = [line for line in text.splitlines() if not line.startswith(f"{field}:")]
    if field == "mulberry_sites":
        kept = [line for line in kept if not line.startswith("  ") or "{name:" not in line]
    (tmp_path / "variants.yaml").write_text("\n".join(kept) + "\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        load_variant_data(tmp_path)
    assert exc.value.field == field
    assert exc.value.file.endswith("variants.yaml")


def test_a_malformed_site_names_its_field(tmp_path: Path) -> None:
    text = (scenario_dir("normandy") / "variants.yaml").read_text(encoding="utf-8")
    (tmp_path / "variants.yaml").write_text(text.replace('landing: "2010"', "landing: 2010"),
                                            encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        load_variant_data(tmp_path)
    assert exc.value.field == "mulberry_sites.Omaha.landing"
