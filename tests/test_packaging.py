"""Every subpackage of wargame/ ships: pyproject's explicit package list names them all (a
plain ``pip install .``, as on Binder, installs only what is listed)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "wargame").rglob("__init__.py")}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"


def test_every_scenario_folder_ships_as_declared_data():
    """setuptools ships a data folder only when it is a declared package with package data
    (else it warns, and a later setuptools drops it): each scenarios/<folder> is listed in
    packages and package-data, with a pattern for every kind of file it holds."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    for folder in sorted(p for p in (ROOT / "scenarios").iterdir()
                         if p.is_dir() and p.name != "__pycache__"):
        package = f"wargame.scenarios.{folder.name}"
        assert package in config["packages"], f"add {package} to packages in pyproject.toml"
        patterns = config["package-data"].get(package, [])
        for path in folder.rglob("*"):
            if path.is_file():
                assert any(path.match(p) for p in patterns), \
                    f"{path.relative_to(ROOT)}: no package-data pattern of {package} ships it"


def test_the_compiled_catalogue_says_what_the_po_says(tmp_path, monkeypatch):
    """setup.py's build step compiles each .po to the .mo the wheel carries; read back through
    wargame.i18n (as an installed wheel reads it: a .mo and no .po), it gives every Portuguese
    text the checkout gives from the .po (compiled in memory), fuzzy entries left out."""
    import importlib.util

    from wargame import i18n

    spec = importlib.util.spec_from_file_location("wargame_setup", ROOT / "setup.py")
    setup_module = importlib.util.module_from_spec(spec)
    monkeypatch.setattr("setuptools.setup", lambda **kwargs: None)
    spec.loader.exec_module(setup_module)
    written = setup_module.compile_catalogues(ROOT, tmp_path)
    # the .mo beside where the checkout keeps the .po (built only: not in the repository)
    assert [p.relative_to(tmp_path) for p in written] == \
        [i18n.catalogue_files("pt")[1].relative_to(ROOT)]

    from_po = i18n.translations("pt")
    assert len(from_po) > 1000
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "wargame" / "locale")
    i18n.gettext_translations.cache_clear()
    i18n.translations.cache_clear()
    try:
        po, mo = i18n.catalogue_files("pt")
        assert mo.is_file() and not po.is_file()
        assert i18n.translations("pt") == from_po
        with i18n.using_language("pt"):
            assert i18n.load_catalogues()["cli"]["version.help"] == \
                "mostra a versão instalada e termina"
    finally:
        i18n.gettext_translations.cache_clear()
        i18n.translations.cache_clear()


STUDY_HIDDEN = """
import sys
for name in ("dask", "distributed", "tqdm"):
    sys.modules[name] = None  # import fails, importlib.util.find_spec says None
import wargame, wargame.ui.serve, wargame.class_server, wargame.analysis.explore
from wargame.ui import CampaignDashboard
from wargame.cli import main
CampaignDashboard("normandy", seed=1)
assert main(["scenario", "list"]) == 0
print("study exit", main(["study", "--games", "1", "--quiet"]))
loaded = sorted(m for m, v in sys.modules.items() if v is not None
                and m.split(".")[0] in ("dask", "distributed", "tqdm"))
print("loaded", loaded)
"""


def test_without_the_study_extra_everything_but_study_works(tmp_path):
    """Dask and tqdm are the ``study`` extra (issue #35): with them hidden, the package, the
    dashboard and the CLI work, and ``wargame study`` says which extra to install."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "WARGAME_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", STUDY_HIDDEN], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "study exit 1" in result.stdout and "loaded []" in result.stdout
    assert "pip install 'wargame[study]'" in result.stderr
    assert "dask, distributed, tqdm" in result.stderr
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not any(r.startswith(("dask", "tqdm")) for r in extras["dependencies"])
    assert any(r.startswith("dask[distributed]") for r in extras["optional-dependencies"]["study"])
