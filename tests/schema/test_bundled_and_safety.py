"""Every bundled scenario validates; hostile YAML is refused fast; the SaveFile model."""

import json
import time

import pytest

from wargame.cli import main as cli_main
from wargame.history import check_scenario
from wargame.memoir.m44 import to_m44
from wargame.memoir.scenario import check_memoir, index, scenario_ids
from wargame.paths import scenarios_root
from wargame.scenario import load_scenario
from wargame.scenario_errors import MAX_FILE_BYTES, ScenarioError, load_json, load_yaml, parse_yaml
from wargame.schema import validate
from wargame.schema.memoir import M44File, MemoirIndex, MemoirScenarioFile
from wargame.schema.save import SaveFile

CAMPAIGNS = sorted(p.parent.name for p in scenarios_root().glob("*/scenario.yaml"))


def test_the_campaigns_are_found():
    assert {"normandy", "dragoon"} <= set(CAMPAIGNS)


@pytest.mark.parametrize("sid", CAMPAIGNS)
def test_bundled_campaign_validates(sid):
    scn = check_scenario(sid)
    assert scn.units and scn.board.hexes
    assert cli_main(["scenario", "validate", sid]) == 0


def test_memoir_index_validates():
    path = scenarios_root() / "memoir44" / "scenarios.yaml"
    model = validate(MemoirIndex, load_yaml(path), path)
    assert set(model.scenarios) == set(index())


@pytest.mark.parametrize("sid", scenario_ids())
def test_every_memoir_scenario_validates(sid):
    entry = index()[sid]
    path = scenarios_root() / "memoir44" / f"{sid}.json"
    validate(MemoirScenarioFile, load_json(path), path)
    validate(M44File, to_m44(entry), path)  # and written back as a layout, an .m44 one
    title, units, hexes = check_memoir(f"memoir44-{sid}")
    assert title == entry["title"] and units > 0 and hexes > 0


def _m44_text(sid: str) -> str:
    """A bundled scenario written back as an .m44 layout (the editor's files are not shipped)."""
    return json.dumps(to_m44(index()[sid]), indent=1)


def test_validate_command_on_memoir_targets(capsys, tmp_path):
    root = scenarios_root() / "memoir44"
    assert cli_main(["scenario", "validate", "memoir44-overlord"]) == 0
    (tmp_path / "2.m44").write_text(_m44_text("2"), encoding="utf-8")
    assert cli_main(["scenario", "validate", str(tmp_path / "2.m44")]) == 0
    assert cli_main(["scenario", "validate", str(root / "2.json")]) == 0
    assert cli_main(["scenario", "validate", str(root / "scenarios.yaml")]) == 0
    assert cli_main(["scenario", "validate", "memoir44-nope"]) == 1
    assert "memoir44" in capsys.readouterr().err


def test_broken_m44_names_file_and_field(tmp_path, capsys):
    data = to_m44(index()["2"])
    first = next(i for i, h in enumerate(data["board"]["hexagons"]) if "unit" in h)
    data["board"]["hexagons"][first]["unit"]["name"] = "infantry-ger"
    bad = tmp_path / "bad.m44"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert cli_main(["scenario", "validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "bad.m44" in err and f"board.hexagons[{first}].unit.name" in err


LAUGHS = "\n".join(
    ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    + [
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 9) + "]"
        for i in range(8)
    ]
)


def test_billion_laughs_is_refused_fast(tmp_path):
    path = tmp_path / "scenario.yaml"
    path.write_text(LAUGHS, encoding="utf-8")
    start = time.perf_counter()
    with pytest.raises(ScenarioError) as exc:
        load_yaml(path)
    assert time.perf_counter() - start < 1.0
    assert exc.value.file == str(path) and "alias" in str(exc.value)
    with pytest.raises(ScenarioError):
        load_scenario(path)


def test_python_tags_and_huge_files_are_refused(tmp_path):
    with pytest.raises(ScenarioError):
        parse_yaml("x: !!python/object/apply:os.system ['true']")
    big = tmp_path / "map.json"
    big.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(ScenarioError) as exc:
        load_json(big)
    assert "MB" in exc.value.expected


def _save(**changes):
    data = {
        "format": "wargame-save",
        "format_version": 1,
        "game": "campaign",
        "scenario": "normandy",
        "options": {"variants": []},
        "seed": 7,
        "actions": [{"kind": "end_phase"}],
        "fingerprint": {"turn": 0, "phase": "allied_movement"},
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not ...}


def test_save_model_accepts_a_valid_save():
    model = validate(SaveFile, _save(), "game.json")
    assert model.seed == 7 and model.game == "campaign"
    validate(SaveFile, _save(game="memoir", scenario="memoir44-5"), "game.json")


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"fingerprint": ...}, "fingerprint"),
        ({"seed": True}, "seed"),
        ({"seed": "7"}, "seed"),
        ({"format": "wargame-campaign-save"}, "format"),
        ({"game": "chess"}, "game"),
        ({"actions": [1, 2]}, "actions[0]"),
        ({"format_version": 0}, "format_version"),
    ],
)
def test_save_model_refuses_broken_saves(changes, field):
    with pytest.raises(ScenarioError) as exc:
        validate(SaveFile, _save(**changes), "game.json")
    assert exc.value.file == "game.json" and exc.value.field == field
