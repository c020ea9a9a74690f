"""The ``wargame/cli/`` package (issue #35): a module per command, none over 800 lines, and the
command line's messages in ``wargame.cli.text`` with the other catalogues."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import wargame.cli
from wargame import i18n

PACKAGE = Path(wargame.cli.__file__).resolve().parent
MAX_LINES = 800


def test_no_module_of_the_cli_is_over_800_lines():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines())
             for p in PACKAGE.glob("*.py")}
    assert len(sizes) >= 10, sizes  # the package, not the old one-file module
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}


def test_every_command_of_the_help_has_its_own_module():
    parser = wargame.cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    listed = set(sub.choices)
    assert listed == {"odds", "bombard", "scenario", "serve", "autoplay", "study", "rooms",
                      "class"}
    modules = {m.__name__.rsplit(".", 1)[1] for m in wargame.cli.COMMANDS}
    assert modules == (listed - {"class"}) | {"classroom"}  # `class` is a keyword


def test_the_cli_messages_are_registered_from_their_text_module():
    assert "wargame.cli.text" in i18n.CATALOGUE_MODULES
    assert "wargame.cli" not in i18n.CATALOGUE_MODULES
    catalogues = i18n.load_catalogues()
    for domain in ("cli", "cli.help", "cli.argparse", "cli.study", "cli.rooms"):
        assert type(catalogues[domain]).__module__ == "wargame.i18n"
        assert domain in catalogues
    from wargame.cli import text

    assert catalogues["cli"] is text.TEXT and catalogues["cli.rooms"] is text.ROOMS_TEXT


def test_python_dash_m_runs_the_command_line():
    done = subprocess.run([sys.executable, "-m", "wargame.cli", "odds", "--game", "dragoon",
                           "--attack", "6", "--defense", "2", "--json"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert '"ratio"' in done.stdout
