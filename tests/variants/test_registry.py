"""The variant declarations: names, aliases, options; off by default."""

import pytest

from wargame.operational.variants import (
    ALL_VARIANTS,
    VARIANTS,
    enabled,
    mulberry_harbours,
    normalize_variants,
    variant_option,
)

from .conftest import game


def test_every_variant_is_declared_with_title_description_and_rule():
    assert list(VARIANTS) == [f"bfn-19.{i}" for i in range(1, 9)]
    for vid, v in VARIANTS.items():
        assert v.id == vid and v.title and v.description and v.adaptation
        assert v.rule == "BFN " + vid.removeprefix("bfn-")


def test_variants_are_off_by_default():
    g = game()
    assert g.variants == ()
    assert not any(enabled(g, v) for v in VARIANTS)


def test_all_aliases_and_order():
    assert normalize_variants([ALL_VARIANTS]) == tuple(VARIANTS)
    assert normalize_variants(["bfn-19.3", "bfn_battleship_withdrawal", "bfn-19.3"]) == ("bfn-19.1", "bfn-19.3")
    assert normalize_variants(["bfn_mulberry_construction"]) == ("bfn-19.4",)


def test_unknown_variant_and_bad_options_are_refused():
    with pytest.raises(ValueError, match="unknown variant"):
        normalize_variants(["bfn-19.9"])
    with pytest.raises(ValueError):
        normalize_variants(["bfn-19.4:Omaha"])
    with pytest.raises(ValueError):
        normalize_variants(["bfn-19.4:Omaha+Omaha"])
    with pytest.raises(ValueError):
        normalize_variants(["bfn-19.1:Omaha+Gold"])


def test_mulberry_beaches_default_historical_or_chosen():
    g = game("bfn-19.4")
    assert [m["landing"] for m in mulberry_harbours(g)] == ["2010", "2410"]  # Omaha, Gold (CN 9.0 hexes)
    g2 = game("bfn-19.4:utah+sword")
    assert g2.variants == ("bfn-19.4:Utah+Sword",)
    assert variant_option(g2, "bfn-19.4") == "Utah+Sword"
    assert [m["landing"] for m in mulberry_harbours(g2)] == ["1409", "3011"]
    assert [m["landing"] for m in mulberry_harbours(game())] == ["2010", "2410"]  # CN 9.0 itself
