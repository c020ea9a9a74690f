"""``parse_yaml`` reads plain texts with libyaml and the rest with the pure-Python loader:
the same data either way, aliases still refused with the line named."""

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from wargame.paths import scenarios_root
from wargame.scenario_errors import (
    MAX_FLOW_NESTING,
    NoAliasLoader,
    ScenarioError,
    _bundled,
    flow_nesting,
    load_yaml,
    parse_yaml,
)

BUNDLED = sorted(scenarios_root().glob("*/*.yaml"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_files_read_the_same_with_both_loaders(path: Path):
    text = path.read_text(encoding="utf-8")
    assert parse_yaml(text, path, trusted=True) == yaml.load(text, Loader=NoAliasLoader)  # noqa: S506
    assert load_yaml(path) == parse_yaml(text, path)


def test_an_alias_is_still_refused_with_its_line():
    with pytest.raises(ScenarioError) as exc:
        parse_yaml("a: &x 1\nb: *x\n", "f.yaml", trusted=True)
    assert exc.value.field == "line 2" and "aliases" in exc.value.expected


def test_a_syntax_error_names_the_line_as_before():
    with pytest.raises(ScenarioError) as exc:
        parse_yaml("a: [1, 2\nb: 3\n", "f.yaml")
    assert exc.value.field.startswith("line ")


scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.text(max_size=12), st.floats(allow_nan=False, allow_infinity=False))
data = st.recursive(scalars, lambda c: st.lists(c, max_size=4)
                    | st.dictionaries(st.text(min_size=1, max_size=8), c, max_size=4),
                    max_leaves=20)


@settings(max_examples=120, deadline=None)
@given(value=data)
def test_dumped_data_reads_back_the_same(value):
    text = yaml.safe_dump(value, allow_unicode=True)
    assert parse_yaml(text, trusted=True) == yaml.load(text, Loader=NoAliasLoader)  # noqa: S506


def test_deep_nesting_from_a_user_file_is_an_error_not_a_crash(tmp_path):
    # libyaml recurses in C: a user's file never reaches it (this input crashed the process)
    path = tmp_path / "deep.yaml"
    path.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        load_yaml(path)
    assert "nested" in exc.value.expected


def test_only_bundled_files_are_trusted(tmp_path):
    assert _bundled(BUNDLED[0])
    copy = tmp_path / "scenario.yaml"
    copy.write_text(BUNDLED[0].read_text(encoding="utf-8"), encoding="utf-8")
    assert not _bundled(copy)


def test_deep_flow_nesting_is_refused_before_the_parser_sees_it(monkeypatch):
    """The pure-Python scanner's work grows with the square of the nesting (5,000 levels took
    2 s of CPU in CI's fuzzing): such a text is refused from a count of its brackets."""
    assert flow_nesting("a: [1, {b: [2]}]\nc: [3]") == 3
    assert flow_nesting("] [x] }") == 1  # stray closing brackets never go below zero
    assert parse_yaml("a: " + "[" * MAX_FLOW_NESTING + "]" * MAX_FLOW_NESTING)["a"] is not None
    deep = "units: " + "[" * (MAX_FLOW_NESTING + 1) + "]" * (MAX_FLOW_NESTING + 1)

    def parser(*args, **kwargs):
        raise AssertionError("the parser was called")

    monkeypatch.setattr(yaml, "load", parser)
    with pytest.raises(ScenarioError) as exc:
        parse_yaml(deep, "units.yaml")
    assert "nested" in exc.value.expected and "units.yaml" in str(exc.value)
