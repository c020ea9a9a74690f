"""Collect community Scenario Editor layouts (``.m44``) for the import tests (issue 32).

The source is the Board Game Arena adaptation, github.com/bga-devs/bga-memoir: its
``modules/php/Scenarios/<id>-<Name>.php`` files hold Days of Wonder Scenario Editor exports as
PHP arrays (``$scenarios[<id>] = [ 'meta_data' => ..., 'game_info' => ..., 'board' => ... ]``).
This tool reads them from a local git clone (no network), turns each array back into the
editor's JSON and writes ``<id>.m44`` into two folders outside the repository:

- ``corpus/``: the files we developed against (tests/memoir/test_import_corpus.py plays them);
- ``acceptance/``: a sample kept aside, chosen by a hash of the scenario id before any import
  was tried (every third by ``sha1(id)``), measured once at the end.

The files are NOT in the repository: the scenarios are (c) Days of Wonder and the BGA licence
(LICENCE_BGA) grants reuse on Board Game Arena only. Their sources (repository, path, commit,
blob) are listed in tests/data/m44/SOURCES.tsv, which ``--check`` compares with the clone.

    python tools/collect_m44_corpus.py GIT_DIR OUT_DIR [--commit SHA] [--check]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = "bga-devs/bga-memoir"
COMMIT = "828e756f61afb5f8f0b63f0280424be4e39a289e"
FOLDER = "modules/php/Scenarios"
LICENCE = "LICENCE_BGA (BGA platform only); scenario content (c) Days of Wonder: not shipped"
SOURCES = Path(__file__).resolve().parents[1] / "tests" / "data" / "m44" / "SOURCES.tsv"

_TOKEN = re.compile(r"""
    (?P<ws>\s+|<\?php|\?>|//[^\n]*|\#[^\n]*|/\*.*?\*/)
  | (?P<str>'(?:[^'\\]|\\.)*')
  | (?P<dstr>"(?:[^"\\]|\\.)*")
  | (?P<num>-?\d+(?:\.\d+)?)
  | (?P<arrow>=>)
  | (?P<punct>[\[\](),;=])
  | (?P<word>\$?[A-Za-z_\\][A-Za-z0-9_\\]*)
""", re.S | re.X)


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ValueError(f"unexpected {text[pos:pos + 20]!r} at {pos}")
        pos = m.end()
        if m.lastgroup != "ws":
            out.append((m.lastgroup, m.group()))
    return out


def _unquote(tok: str) -> str:
    body = tok[1:-1]
    if tok[0] == "'":  # PHP single quotes: only \' and \\ are escapes
        return re.sub(r"\\([\\'])", r"\1", body)
    return bytes(body, "utf-8").decode("unicode_escape")


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], at: int) -> None:
        self.t, self.i = tokens, at

    def value(self) -> Any:
        kind, tok = self.t[self.i]
        self.i += 1
        if kind in ("str", "dstr"):
            return _unquote(tok)
        if kind == "num":
            return float(tok) if "." in tok else int(tok)
        if kind == "word":
            low = tok.lower().lstrip("\\")
            if low in ("allies", "axis"):  # the game's constants ALLIES, AXIS
                return low.upper()
            if low in ("true", "false", "null"):
                return {"true": True, "false": False, "null": None}[low]
            if self.t[self.i][1] == "(":  # clienttranslate('...'): the value inside
                self.i += 1
                inner = self.value()
                while self.t[self.i][1] != ")":
                    self.i += 1
                self.i += 1
                return inner
            raise ValueError(f"unexpected word {tok!r}")
        if tok == "[":
            return self.array()
        raise ValueError(f"unexpected {tok!r}")

    def array(self) -> Any:
        keys: list[Any] = []
        values: list[Any] = []
        while self.t[self.i][1] != "]":
            first = self.value()
            if self.t[self.i][0] == "arrow":
                self.i += 1
                keys.append(first)
                values.append(self.value())
            else:
                keys.append(len(keys))
                values.append(first)
            if self.t[self.i][1] == ",":
                self.i += 1
        self.i += 1
        if all(isinstance(k, int) for k in keys):
            # a PHP list (integer keys; BGA removed some entries of the editor's lists)
            return [v for _, v in sorted(zip(keys, values, strict=True), key=lambda kv: kv[0])]
        return {str(k): v for k, v in zip(keys, values, strict=True)}


def php_scenarios(text: str) -> dict[str, Any]:
    """``$scenarios[<id>] = [...]`` assignments of a PHP file, as JSON data."""
    tokens = _tokens(text)
    out = {}
    for i in range(len(tokens) - 4):
        if tokens[i] == ("word", "$scenarios") and tokens[i + 1][1] == "[" \
                and tokens[i + 3][1] == "]" and tokens[i + 4][1] == "=":
            out[_unquote(tokens[i + 2][1]) if tokens[i + 2][0] == "str"
                else tokens[i + 2][1]] = _Parser(tokens, i + 5).value()
    return out


def _git(git_dir: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], check=True,
                          capture_output=True, text=True).stdout


def in_acceptance(scenario_id: str) -> bool:
    """The held-out sample: decided by the id alone, before any import was tried."""
    return int(hashlib.sha1(scenario_id.encode()).hexdigest(), 16) % 3 == 0


def collect(git_dir: Path, out: Path, commit: str = COMMIT) -> list[dict[str, str]]:
    rows = []
    listing = _git(git_dir, "ls-tree", commit, FOLDER + "/")
    for line in sorted(listing.splitlines()):
        meta, path = line.split("\t")
        blob = meta.split()[2]
        if not path.endswith(".php"):
            continue
        for sid, data in php_scenarios(_git(git_dir, "cat-file", "-p", blob)).items():
            if not isinstance(data, dict) or "board" not in data:
                continue
            part = "acceptance" if in_acceptance(str(sid)) else "corpus"
            target = out / part / f"{sid}.m44"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                              encoding="utf-8")
            rows.append({"file": f"{part}/{sid}.m44", "repo": REPO, "path": path,
                         "commit": commit, "blob": blob, "licence": LICENCE})
    return rows


def write_sources(rows: list[dict[str, str]]) -> str:
    head = ["file", "repo", "path", "commit", "blob", "licence"]
    return "\t".join(head) + "\n" + "".join(
        "\t".join(r[k] for k in head) + "\n" for r in rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("git_dir", type=Path, help="a clone of bga-devs/bga-memoir (its .git)")
    ap.add_argument("out", type=Path, help="where corpus/ and acceptance/ are written")
    ap.add_argument("--commit", default=COMMIT)
    ap.add_argument("--check", action="store_true",
                    help="fail if tests/data/m44/SOURCES.tsv differs from what is collected")
    args = ap.parse_args(argv)
    try:
        _git(args.git_dir, "cat-file", "-e", f"{args.commit}^{{commit}}")
    except (subprocess.CalledProcessError, OSError):
        print(f"{args.git_dir}: not a git directory holding commit {args.commit} of "
              f"bga-devs/bga-memoir (give the clone's .git, or a bare mirror's folder with "
              f"objects/ and refs/)", file=sys.stderr)
        return 2
    rows = collect(args.git_dir, args.out, args.commit)
    text = write_sources(rows)
    if args.check:
        if SOURCES.read_text(encoding="utf-8") != text:
            print(f"{SOURCES} is stale", file=sys.stderr)
            return 1
    else:
        SOURCES.parent.mkdir(parents=True, exist_ok=True)
        SOURCES.write_text(text, encoding="utf-8")
    parts = {p: sum(r["file"].startswith(p) for r in rows) for p in ("corpus", "acceptance")}
    print(f"{len(rows)} layouts: {parts['corpus']} corpus, {parts['acceptance']} acceptance "
          f"-> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
