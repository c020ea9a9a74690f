"""The message catalogues with Babel (issue #16): extract, update, check.

    python tools/i18n.py extract   # wargame/locale/wargame.pot from every Catalogue
    python tools/i18n.py update    # merge the .pot into each wargame/locale/<lang>/.../wargame.po
    python tools/i18n.py check     # every message translated, not fuzzy, placeholders kept

Every message has ``msgctxt`` = ``domain:id`` (the id the code uses) and ``msgid`` = its
English text, so a message whose English changes comes back fuzzy from ``update`` and is
shown in English until translated again. A counted message (a ``Catalogue``'s ``plurals``) has
``msgid`` and ``msgid_plural`` (English singular and plural) and ``msgstr[0]``, ``msgstr[1]``
... as the ``Plural-Forms`` header of the language says; ``check`` wants every form. The catalogues are the ``wargame.i18n.Catalogue``
objects of the modules in ``wargame.i18n.CATALOGUE_MODULES``.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402

from wargame import i18n  # noqa: E402

POT = i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot"
HEADER = """\
# wargame's messages in {lang}: written for this project, in our own words, with the game
# terms of the rulebooks (docs/glossary.md). Managed with tools/i18n.py (Babel).
#"""
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)")


def po_path(lang: str) -> Path:
    return i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


def template() -> Catalog:
    """A catalogue of every message of every registered Catalogue, in domain and id order."""
    i18n.load_catalogues()
    pot = Catalog(project="wargame", domain=i18n.DOMAIN, charset="utf-8",
                  msgid_bugs_address="", copyright_holder="the wargame authors",
                  fuzzy=False)
    for domain in sorted(i18n.CATALOGUES):
        cat = i18n.CATALOGUES[domain]
        for key, text in cat.english.items():
            pot.add(text, context=f"{domain}:{key}")
        for key, forms in cat.plurals.items():
            pot.add(forms, context=f"{domain}:{key}")
    return pot


def _dump(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, omit_header=False, sort_output=False,
             include_previous=True, no_location=True)
    # the header's creation date would change the file on every run: keep it stable
    stable = b'"POT-Creation-Date: 2026-11-23 00:00+0000\\n"\n'
    return re.sub(rb'"POT-Creation-Date: [^"]*"\n', lambda _m: stable, buf.getvalue())


def extract() -> Path:
    POT.parent.mkdir(parents=True, exist_ok=True)
    POT.write_bytes(_dump(template()))
    return POT


def updated(lang: str, pot: Catalog | None = None) -> bytes:
    """The ``lang`` catalogue as ``update`` writes it: its translations merged with the
    template, in the template's order (domain, then id; a domain's counted messages after
    its others). tests/test_i18n_catalogue_order.py checks the committed file is this, so
    ``update`` on an unchanged tree changes nothing."""
    pot = template() if pot is None else pot
    path = po_path(lang)
    if path.is_file():
        with path.open("rb") as fh:
            po = read_po(fh, locale=i18n.BABEL_LOCALES[lang], domain=i18n.DOMAIN)
    else:
        po = Catalog(locale=i18n.BABEL_LOCALES[lang], domain=i18n.DOMAIN, project="wargame",
                     header_comment=HEADER.format(lang=lang), fuzzy=False,
                     copyright_holder="the wargame authors",
                     last_translator="the wargame authors", language_team=lang)
    po.update(pot, no_fuzzy_matching=True, update_header_comment=False)
    return _dump(po)


def update() -> list[Path]:
    pot = template()
    written = []
    for lang in i18n.LANGUAGES:
        if lang == "en":
            continue
        data = updated(lang, pot)
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)
    return written


def _forms(text: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """A message's id or string as its forms: one for a plain message, each plural form for a
    counted one."""
    return tuple(text) if isinstance(text, (tuple, list)) else (text,)


def _placeholders(texts: tuple[str, ...]) -> list[str]:
    return sorted({name for text in texts for name in PLACEHOLDER.findall(text or "")})


def problems(lang: str, path: Path | None = None) -> list[str]:
    """What is wrong with ``lang``'s catalogue (``path``: its ``.po``, by default the one in
    wargame/locale): missing, fuzzy or obsolete messages, a plural form missing, and
    placeholders lost or invented (one line each)."""
    pot = template()
    path = po_path(lang) if path is None else path
    if not path.is_file():
        return [f"{path}: missing"]
    with path.open("rb") as fh:
        po = read_po(fh, locale=i18n.BABEL_LOCALES[lang], domain=i18n.DOMAIN)
    out = []
    for m in pot:
        if not m.id:
            continue
        got = po.get(m.id, context=m.context)
        strings = _forms(got.string) if got is not None else ()
        if got is None or not any(strings):
            out.append(f"{m.context}: not translated")
            continue
        if got.fuzzy:
            out.append(f"{m.context}: fuzzy (the English changed since it was translated)")
        if isinstance(m.id, (tuple, list)):
            if not isinstance(got.id, (tuple, list)):
                out.append(f"{m.context}: a counted message, translated without plural forms")
                continue
            missing = [i for i in range(po.num_plurals) if i >= len(strings) or not strings[i]]
            if missing:
                out.append(f"{m.context}: plural form(s) {missing} not translated "
                           f"(msgstr[{missing[0]}]; {po.num_plurals} in {lang})")
        want = _placeholders(_forms(m.id))
        have = _placeholders(strings)
        if want != have:
            out.append(f"{m.context}: placeholders {want} in English, {have} in {lang}")
    known = {(m.context, m.id) for m in pot if m.id}
    for m in po:
        if m.id and (m.context, m.id) not in known and not m.fuzzy:
            out.append(f"{m.context}: obsolete (no such message now: run update)")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("extract", "update", "check"))
    args = parser.parse_args(argv)
    if args.command == "extract":
        print(f"wrote {extract()}")
    elif args.command == "update":
        extract()
        for path in update():
            print(f"updated {path}")
    else:
        bad = [f"{lang}: {p}" for lang in i18n.LANGUAGES if lang != "en" for p in problems(lang)]
        for line in bad:
            print(line)
        print(f"{len(bad)} problem(s)")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
