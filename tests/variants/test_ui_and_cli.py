"""The variants reach the dashboard model and the CLI's serve command."""

import sys
import types

import pytest

from wargame.cli import main
from wargame.operational.variants import VARIANTS


def test_model_new_game_with_variants_and_choices():
    from wargame.ui.model import CampaignState, make_game, variant_choices

    assert [c["name"] for c in variant_choices()] == list(VARIANTS)
    assert all(c["rule"].startswith("BFN 19.") and c["description"] for c in variant_choices())
    assert make_game("demo", ["bfn_hobart"]) is make_game("demo", ["bfn-19.6"])
    model = CampaignState("demo", seed=3)
    assert model.game.variants == ()
    model.new_game(4, ["bfn-19.5"])
    assert model.game.variants == ("bfn-19.5",) and model.state.game is model.game and model.state.seed == 4
    model.new_game(5)
    assert model.game.variants == ("bfn-19.5",)


def test_serve_passes_variants_and_refuses_unknown_ones(monkeypatch, capsys):
    calls = []
    fake = types.ModuleType("wargame.ui.serve")

    def serve_dashboard(**kw):
        from wargame.operational.variants import normalize_variants

        normalize_variants(kw["variants"])   # what the real serve_dashboard does first
        calls.append(kw)

    fake.serve_dashboard = serve_dashboard
    monkeypatch.setitem(sys.modules, "wargame.ui.serve", fake)
    assert main(["serve", "--variant", "bfn-19.1", "--variant", "bfn-19.4:Utah+Gold", "--no-show"]) == 0
    assert calls[-1]["variants"] == ["bfn-19.1", "bfn-19.4:Utah+Gold"]
    assert main(["serve", "--variant", "bfn-19.9", "--no-show"]) == 2
    assert "unknown variant" in capsys.readouterr().err


def test_real_serve_dashboard_checks_names_before_serving(monkeypatch):
    pytest.importorskip("panel")
    from wargame.ui import serve

    with pytest.raises(ValueError, match="unknown variant"):
        serve.serve_dashboard(variants=["nope"])
