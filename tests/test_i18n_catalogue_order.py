"""The committed translations are what ``python tools/i18n.py update`` writes (issue #35, the
maintainers' house): running it on an unchanged tree changes nothing. Entries added to the
``.po`` by hand in another place, or in another format, made it rewrite about 8,700 lines, with
every translation the same, so a real change drowned in the diff."""

from __future__ import annotations

import difflib

from tests.support.tools import load_tool
from wargame import i18n


def _tool():
    return load_tool("i18n")


def test_update_on_an_unchanged_tree_changes_nothing():
    tool = _tool()
    pot = tool.template()
    assert tool.POT.read_bytes() == tool._dump(pot), \
        "wargame/locale/wargame.pot is not what `python tools/i18n.py extract` writes: run it"
    for lang in i18n.LANGUAGES:
        if lang == "en":
            continue
        path = tool.po_path(lang)
        have = path.read_text(encoding="utf-8").splitlines()
        want = tool.updated(lang, pot).decode("utf-8").splitlines()
        diff = list(difflib.unified_diff(have, want, str(path), "after update", lineterm="",
                                         n=1))
        assert not diff, (f"{path} is not in the order and format `python tools/i18n.py update` "
                          f"writes ({len(diff)} diff lines); run it and commit the result:\n"
                          + "\n".join(diff[:40]))
