"""The repository stands alone (issue 35): no tracked file holds an absolute path of a machine
or a path outside the repository, cites a rulebook by the file name of its text extract, or
cites a file of the repository that does not exist.

What counts as a citation: a path that starts with one of the repository's top folders
(``docs/``, ``tools/``, ``tests/``, ``wargame/``, ``scenarios/``, ``bench/``, ``notebooks/``,
``binder/``, ``.ci/``) and is not part of a URL or of a longer path, in any tracked text file.
A path followed by a placeholder or a glob (``scenarios/<id>/``, ``tests/ui/*browser*.py``) is
a pattern, not checked; a module path followed by one of its names (``wargame/ui/store.GameStore``)
cites the module. A path that names something else than a file of this repository is listed in
``EXAMPLES`` with the reason.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TOP = ("docs", "tools", "tests", "wargame", "scenarios", "bench", "notebooks", "binder", ".ci")

# A machine's own folders (a scratch folder too: a file there is no file of the repository), the
# folder beside the checkout the project grew in, and the rulebooks' text extracts by file name
# (cite "CN 5.1.3" or the title and section instead). System programs such as /usr/bin/chromium
# are not matched: they are what a Debian machine has, not a data location.
OUTSIDE = re.compile(
    r"(?<![\w.-])(?:/work/|/home/\w|/root/|/tmp/\w|/Users/\w|[A-Za-z]:\\\\?Users)"
    r"|\.\./shared\b|(?<![\w-])shared/(?:seeds|reference)\b"
    r"|\b00\d_(?:[0-9a-f]{16}(?:\.txt)?\b|…|\.\.\.)|\bseeds/00\d")
# possessive: a path followed by a pattern's character is not cut short to a shorter one
_PATH = re.compile(
    r"(?<![\w./:@~$-])((?:" + "|".join(re.escape(t) for t in TOP) + r")/[\w./-]*+)(?![*<{\[])")


def citations(text: str) -> list[tuple[int, str]]:
    """(offset, path) of every repository path cited in ``text``, trailing punctuation off."""
    out = []
    for m in _PATH.finditer(text):
        path = m.group(1).rstrip("./-")
        if "/" in path:
            out.append((m.start(), path))
    return out
# DESIGN.md and STACK-NOTES.md are in docs/: a bare name is a citation of a file not there
BARE_DOCS = re.compile(r"(?<![\w/.-])(DESIGN\.md|STACK-NOTES(?:\.md)?)\b")

EXAMPLES: dict[str, str] = {
    "docs/documentation": "boardgame.io's documentation folder, in that project's repository "
                          "(docs/DESIGN.md, 'Reference codebases')",
}
# (file, text) pairs allowed to match OUTSIDE, with the reason
OUTSIDE_ALLOWED: dict[tuple[str, str], str] = {
}
SKIP_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".ico", ".sqlite", ".npz", ".mo", ".woff",
                 ".woff2", ".ttf", ".pdf", ".gz", ".zip"}


def tracked_text_files() -> dict[str, str]:
    try:
        names = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True,
                               check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    out = {}
    for name in filter(None, names):
        path = REPO / name
        if path.suffix.lower() in SKIP_SUFFIXES or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue
        out[name] = data.decode("utf-8", errors="replace")
    return out


FILES = tracked_text_files()
THIS = Path(__file__).resolve().relative_to(REPO).as_posix()


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def test_no_absolute_path_nor_path_outside_the_repository():
    found = [f"{name}:{_line(text, m.start())}: {m.group(0)!r}"
             for name, text in FILES.items() if name != THIS
             for m in OUTSIDE.finditer(text)
             if (name, m.group(0)) not in OUTSIDE_ALLOWED]
    assert not found, "\n".join(found)


def _exists(cited: str) -> bool:
    if (REPO / cited).exists() or cited in EXAMPLES:
        return True
    # a module and one of its names: wargame/ui/store.GameStore, wargame/bots/play.POLICY_NAMES
    folder, _, last = cited.rpartition("/")
    return "." in last and (REPO / folder / (last.split(".")[0] + ".py")).is_file()


def test_every_cited_repository_file_exists():
    missing = [f"{name}:{_line(text, pos)}: {cited}"
               for name, text in FILES.items() if name != THIS
               for pos, cited in citations(text) if not _exists(cited)]
    missing += [f"{name}:{_line(text, m.start())}: {m.group(1)} (it is docs/{m.group(1)})"
                for name, text in FILES.items() if name != THIS
                for m in BARE_DOCS.finditer(text)]
    assert not missing, "\n".join(missing)


def test_the_checks_find_what_they_look_for():
    text = ("see /work/shared/x.md, ../shared/seeds/ (000_30a977d055887f5c.txt), /home/ann/w, "
            "the rulebook 004_…; /tmp/api.md, /usr/bin/chromium; "
            "docs/no-such-file.md, https://example.org/docs/no-such.md, docs/DESIGN.md, "
            "scenarios/<id>/map.json, tests/ui/*browser*.py, wargame/ui/store.GameStore, "
            "wargame/ui/store.py, wargame/ui/nothing.Name, (DESIGN.md's layers)")
    assert OUTSIDE.findall(text) == ["/work/", "../shared", "000_30a977d055887f5c.txt",
                                     "/home/a", "004_…", "/tmp/a"]
    cited = [c for _, c in citations(text)]
    assert cited == ["docs/no-such-file.md", "docs/DESIGN.md", "wargame/ui/store.GameStore",
                     "wargame/ui/store.py", "wargame/ui/nothing.Name"]
    assert [c for c in cited if not _exists(c)] == ["docs/no-such-file.md",
                                                    "wargame/ui/nothing.Name"]
    assert BARE_DOCS.findall(text) == ["DESIGN.md"]
