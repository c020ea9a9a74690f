"""Issue #15: the Decision panel names hexes by place ("retreat to 2011 near Colleville"), not by
a bare id, in English and in Portuguese (wargame.ui.describe.describe_option)."""

from __future__ import annotations

import re

import pytest

from tests.helpers import omaha_retreat
from wargame.i18n import using_language
from wargame.ui.describe import place_name

# Colleville, Omaha: at seed 1946 (dice version 2, wargame/dice.py) a defence declaration, a
# loss, then a retreat choice; at 1944 that was so with dice 1, with dice 2 the attack ends
# without a retreat (most seeds near it give one: 1946-1952 all but 1949)
SEED = 1946
TARGET = "2010"


@pytest.fixture(scope="module")
def retreat_model():
    m = omaha_retreat(SEED, TARGET)
    assert m.s.pending is not None and m.s.pending.kind == "retreat"
    return m


def test_retreat_options_name_the_places(retreat_model):
    m = retreat_model
    options = m.decision_options()
    with_path = [(label, o) for label, o in options if getattr(o, "path", None)]
    assert with_path
    for label, option in with_path:
        where = place_name(m.s, option.path[-1])
        assert label.endswith(f"retreat to {where}") or f"retreat to {where}, by " in label
        # a hex is never shown bare: an id is followed by "near <place>" or inside "(...)"
        for hid in re.findall(r"\b\d{4}\b", label):
            assert re.search(rf"{hid} near \w|\({hid}\)", label), label
    assert any(" near " in label or "(" in label for label, _ in with_path)


def test_retreat_options_in_portuguese(retreat_model):
    m = retreat_model
    with using_language("pt"):
        labels = [label for label, o in m.decision_options() if getattr(o, "path", None)]
    assert labels and all("recua para" in label for label in labels)


def test_advance_options_name_the_places(retreat_model):
    from wargame.operational.actions import Advance
    from wargame.ui.describe import describe_option

    m = retreat_model
    unit = m.s.pending.options[0].unit
    label = describe_option(m.s, Advance(unit=unit, path=("2011", "2010")))
    assert label.endswith("advance to " + place_name(m.s, "2010") + ", by "
                          + place_name(m.s, "2011"))
    assert "Colleville" in label
