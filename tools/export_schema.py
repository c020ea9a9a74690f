"""Write the JSON Schema of every data-file model into docs/data-formats.md.

    python tools/export_schema.py           # rewrite the generated block
    python tools/export_schema.py --check   # exit 1 if the document is out of date

Only the text between ``<!-- schema:start -->`` and ``<!-- schema:end -->`` is generated; the
hand-written prose around it is kept.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wargame.schema.docs import DOC_PATH, update_document


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the document is out of date")
    parser.add_argument("--doc", type=Path, default=DOC_PATH)
    args = parser.parse_args(argv)
    text = args.doc.read_text(encoding="utf-8")
    new = update_document(text)
    if args.check:
        if new != text:
            print(f"{args.doc} is out of date: run python tools/export_schema.py", file=sys.stderr)
            return 1
        return 0
    if new != text:
        args.doc.write_text(new, encoding="utf-8")
        print(f"updated {args.doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
