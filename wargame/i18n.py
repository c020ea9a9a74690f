"""User-facing text: the message catalogues and the language they are shown in (issue #16).

One gettext catalogue, managed with Babel. Code holds message ids; each module's English texts
are a ``Catalogue`` (``domain`` + id -> English), registered in ``CATALOGUES``.
``tools/i18n.py extract`` writes them to ``wargame/locale/wargame.pot`` (msgctxt =
``domain:id``, msgid = the English text) and ``tools/i18n.py update`` merges that into
``wargame/locale/<lang>/LC_MESSAGES/wargame.po``. The wheel carries them compiled (``.mo``,
by setup.py at build time), read with ``babel.support.Translations`` (``gettext_translations``);
a checkout compiles the ``.po`` in memory at first use instead. A message whose English text changed since it was translated is
marked fuzzy by the update and shown in English until it is translated again; the catalogue
test (tests/test_i18n.py) fails on any missing or fuzzy translation and on lost placeholders.

The language: ``set_language``/``using_language`` (a context variable, so one served session
or seat can read Portuguese while another reads English), chosen from ``--lang``, else the
``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG`` environment (``resolve_language``).
Dates by locale through Babel: ``format_day("1944-06-06", "pt")`` -> "6 de junho de 1944".

The engines' events, phase names and decision prompts: ``wargame.event_text`` (their English
texts are kept in the events; ``event_line`` says them in the current language).
"""

from __future__ import annotations

import datetime as dt
import gettext
import io
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGE = "en"
LANGUAGES = ("en", "pt")
"""The languages of the catalogues: English (the source) and European Portuguese."""
BABEL_LOCALES = {"en": "en_GB", "pt": "pt_PT"}
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "wargame"
CONTEXT_SEPARATOR = "\x04"
"""gettext's separator of msgctxt and msgid in a compiled catalogue's keys."""

_language: ContextVar[str] = ContextVar("wargame_language", default="en")


def language() -> str:
    """The language texts are shown in now (``en`` or ``pt``)."""
    return _language.get()


def set_language(lang: str | None) -> str:
    """Show texts in ``lang`` from now on (in this context); returns the language set."""
    chosen = check_language(lang) if lang else "en"
    _language.set(chosen)
    return chosen


@contextmanager
def using_language(lang: str | None) -> Iterator[str]:
    """Texts in ``lang`` inside the block, then as before."""
    token = _language.set(check_language(lang) if lang else _language.get())
    try:
        yield _language.get()
    finally:
        _language.reset(token)


def check_language(lang: str) -> str:
    """``lang`` as one of ``LANGUAGES`` ("pt_PT.UTF-8" -> "pt"), or ValueError naming them."""
    code = str(lang).strip().replace("-", "_").split(".")[0].split("_")[0].lower()
    if code not in LANGUAGES:
        raise ValueError(f"language {str(lang)[:20]!r}: expected one of {', '.join(LANGUAGES)}")
    return code


def resolve_language(arg: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The language asked for: ``arg`` (``--lang``), else the first of LANGUAGE, LC_ALL,
    LC_MESSAGES, LANG that names one we have (gettext's order), else English."""
    if arg:
        return check_language(arg)
    env = os.environ if env is None else env
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for item in (env.get(name) or "").split(":"):
            if not item or item in ("C", "POSIX"):
                continue
            try:
                return check_language(item)
            except ValueError:
                continue
    return "en"


def catalogue_files(lang: str) -> tuple[Path, Path]:
    """The ``.po`` (source) and ``.mo`` (compiled at build) of ``lang``'s catalogue."""
    base = LOCALE_DIR / lang / "LC_MESSAGES" / DOMAIN
    return base.with_suffix(".po"), base.with_suffix(".mo")


@cache
def gettext_translations(lang: str) -> gettext.NullTranslations:
    """``lang``'s catalogue as gettext translations (``babel.support.Translations``).

    A checkout or an editable install has the ``.po`` (the source, edited by
    ``tools/i18n.py``): it is compiled in memory here, the way setup.py compiles it (Babel,
    fuzzy entries left out), so what runs is always what the ``.po`` says. An installed wheel
    has only the ``.mo`` setup.py compiled at build time: it is read as is.
    ``NullTranslations`` for English or a language without a catalogue (English shows)."""
    po, mo = catalogue_files(lang)
    if lang == "en" or not (po.is_file() or mo.is_file()):
        return gettext.NullTranslations()
    from babel.support import Translations

    if not po.is_file():
        with mo.open("rb") as fh:
            return Translations(fh, domain=DOMAIN)
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as fh:
        catalog = read_po(fh, locale=BABEL_LOCALES[lang], domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


@cache
def translations(lang: str) -> dict[str, str]:
    """``domain:id`` -> translated text of ``lang``'s catalogue (``gettext_translations``:
    entries not fuzzy and not empty); {} for English or a missing catalogue."""
    found = getattr(gettext_translations(lang), "_catalog", {})
    return {key.split(CONTEXT_SEPARATOR, 1)[0]: text for key, text in found.items()
            if isinstance(key, str) and CONTEXT_SEPARATOR in key and text}


CATALOGUES: dict[str, Catalogue] = {}
"""Every catalogue by domain (``tools/i18n.py`` extracts them; the catalogue test checks them)."""
CATALOGUE_MODULES = ("wargame.cli.text", "wargame.ui.text", "wargame.ui.memoir_model",
                     "wargame.rooms.text", "wargame.memoir.text", "wargame.error_texts",
                     "wargame.event_text", "wargame.class_server", "wargame.bots.memoir_hard",
                     "wargame.ui.layout_text", "wargame.ui.session_text",
                     "wargame.student_text", "wargame.designations")
"""The modules that define catalogues (imported by ``load_catalogues``)."""


def load_catalogues() -> dict[str, Catalogue]:
    """Import every module of ``CATALOGUE_MODULES`` and return ``CATALOGUES``."""
    import importlib

    for name in CATALOGUE_MODULES:
        importlib.import_module(name)
    return CATALOGUES


class Catalogue(Mapping[str, str]):
    """Message id -> its text in the current language (``language()``), English when no
    translation is there. ``english`` is the source text of every id.

    ``plurals``: the counted messages, id -> (English singular, English plural), read with
    ``plural(id, n)`` (gettext's ``npgettext``: the language's own plural rule, the
    ``Plural-Forms`` of its ``.po``), so that "1 game" / "2 games" is "1 partida" / "2 partidas"
    and never "1 partidas" (issue #35)."""

    def __init__(self, domain: str, english: Mapping[str, str],
                 plurals: Mapping[str, tuple[str, str]] | None = None) -> None:
        if domain in CATALOGUES:
            raise ValueError(f"catalogue domain {domain!r} is defined twice")
        self.domain = domain
        self.english = dict(english)
        self.plurals = {key: (str(one), str(many)) for key, (one, many) in
                        (plurals or {}).items()}
        both = self.english.keys() & self.plurals.keys()
        if both:
            raise ValueError(f"catalogue {domain!r}: {sorted(both)} both plain and plural")
        CATALOGUES[domain] = self

    def plural(self, key: str, n: Any, english: bool = False) -> str:
        """The text of counted message ``key`` for the number ``n`` in the current language
        (the caller formats it): ``TEXT.plural("games", 1)`` -> "{n} game", in Portuguese
        "{n} partida". English, by the English rule, when the language has no translation or
        ``english`` (the English text an event or a log keeps, whatever the language). A
        number that is not a whole number reads as many."""
        one, many = self.plurals[key]
        count = plural_count(n)
        if english:
            return one if count == 1 else many
        translations = gettext_translations(_language.get())
        return translations.npgettext(f"{self.domain}:{key}", one, many, count)

    def counted(self, key: str, n: Any, english: bool = False) -> str:
        """The text of ``key`` whether it is counted or plain: a counted message's form for
        ``n`` (``plural``), a plain message as it is (``english``: its English)."""
        if key in self.plurals:
            return self.plural(key, n, english)
        return self.english[key] if english else self[key]

    def __getitem__(self, key: str) -> str:
        lang = _language.get()
        if lang != "en":
            # msgctxt "domain:id", msgid the English text: a translation made for another
            # English text (not re-translated since) is not found, and the English shows
            english = self.english[key]
            return gettext_translations(lang).pgettext(f"{self.domain}:{key}", english)
        return self.english[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.english)

    def __len__(self) -> int:
        return len(self.english)

    def __contains__(self, key: object) -> bool:
        return key in self.english

    def __repr__(self) -> str:
        return f"Catalogue({self.domain!r}, {len(self)} messages)"


def plural_count(n: Any) -> int:
    """``n`` as the whole number a plural rule counts (2, read as many, when it is none)."""
    try:
        return int(n)
    except (TypeError, ValueError, OverflowError):
        return 2


def short_day(day: str | dt.date, lang: str | None = None) -> str:
    """A date's day and its month's short name, for a narrow table cell: "9 Jun", "9 jun."
    (Babel)."""
    from babel.dates import format_date

    when = day if isinstance(day, dt.date) else dt.date.fromisoformat(str(day))
    code = lang or _language.get()
    return format_date(when, format="d MMM", locale=BABEL_LOCALES[code])


def format_day(day: str | dt.date, lang: str | None = None) -> str:
    """A date the way ``lang`` writes it: "6 June 1944", "6 de junho de 1944" (Babel)."""
    from babel.dates import format_date

    when = day if isinstance(day, dt.date) else dt.date.fromisoformat(str(day))
    code = lang or _language.get()
    return format_date(when, format="long", locale=BABEL_LOCALES[code])
