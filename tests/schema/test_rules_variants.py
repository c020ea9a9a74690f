"""A scenario's ``rules.variants`` are checked against the campaign engine's variant names,
which the loaders pass in the validation context: the schema sits below the engines and imports
none of them (pyproject's layers contract, issue #35)."""

import pytest

from wargame.analysis.whatif import _context as whatif_context
from wargame.operational.variants import normalize_variants
from wargame.scenario import load_scenario
from wargame.scenario_errors import ScenarioError
from wargame.schema.common import validate
from wargame.schema.rules import Rules


def test_an_unknown_variant_is_refused_naming_the_field():
    with pytest.raises(ScenarioError) as info:
        validate(Rules, {"variants": ["bfn-99"]}, "rules.yaml",
                 {"normalize_variants": normalize_variants})
    assert "variants" in str(info.value) and "bfn-99" in str(info.value)


def test_known_variants_pass_and_the_loaders_give_the_names():
    rules = validate(Rules, {"variants": ["bfn", "bfn-19.4:Gold+Omaha"]}, "rules.yaml",
                     {"normalize_variants": normalize_variants})
    assert rules.variants == ["bfn", "bfn-19.4:Gold+Omaha"]
    assert whatif_context(load_scenario("normandy"))["normalize_variants"] is normalize_variants
