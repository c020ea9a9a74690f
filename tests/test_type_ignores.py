"""Every ``type: ignore`` in the package names its error code and says why (issue #35 item 4):
``# type: ignore[code]  # why``, so the next maintainer knows what mypy saw and whether the
reason still holds."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IGNORE = re.compile(r"type:\s*ignore")
EXPLAINED = re.compile(r"#\s*type:\s*ignore\[[a-z-]+(?:,\s*[a-z-]+)*\]\s+#\s*\S.{5,}")


def unexplained(source: str, name: str = "<text>") -> list[str]:
    """The comments of ``source`` holding a ``type: ignore`` without a code and a reason."""
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT and IGNORE.search(tok.string) and not EXPLAINED.search(
                tok.string):
            found.append(f"{name}:{tok.start[0]}: {tok.string.strip()}")
    return found


def test_every_type_ignore_of_the_package_has_a_code_and_a_reason():
    files = sorted((ROOT / "wargame").rglob("*.py"))
    assert len(files) > 100
    seen, bad = 0, []
    for path in files:
        text = path.read_text(encoding="utf-8")
        seen += len(IGNORE.findall(text))
        bad += unexplained(text, str(path.relative_to(ROOT)))
    assert seen > 10  # the scan sees them (22 on 2026-12-07)
    assert bad == []


def test_the_scan_tells_an_explained_ignore_from_a_bare_one():
    assert unexplained("x = f()  # type: ignore\n")
    assert unexplained("x = f()  # type: ignore[arg-type]\n")
    assert unexplained("x = f()  # type: ignore  # no code\n")
    assert not unexplained("x = f()  # type: ignore[arg-type]  # a Belief answers it\n")
    assert not unexplained("x = f()  # type: ignore[misc, arg-type]  # a pair from the caller\n")
    assert not unexplained('x = "type: ignore"  # a string, not a comment\n')
