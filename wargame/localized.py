"""Texts of the data files in both languages (issue #16): scenario titles, history tracks,
Memoir '44 titles and briefings, place names.

The data files keep their English text where it always was (``title``, ``text``, ...) and carry
the Portuguese beside it: a ``pt:`` mapping of the same field names in scenario.yaml and in the
Memoir '44 scenario files, and a ``history.pt.yaml`` next to ``history.yaml``. The loaders keep
the translations as ``{language: {field: text}}`` and ``pick`` chooses the text for the language
asked, else the current one (``wargame.i18n.language``); a text missing in that language is
shown in English. Pure Python: no UI.
"""

from __future__ import annotations

from collections.abc import Mapping

from wargame.i18n import LANGUAGES, language

__all__ = ["Translations", "pick", "translations_of"]

Translations = Mapping[str, Mapping[str, str]]
"""language -> field -> text, e.g. ``{"pt": {"title": "Dia D"}}`` (English is not stored)."""


def pick(english: str, translations: Translations | None, field: str,
         lang: str | None = None) -> str:
    """``field`` in ``lang`` (default: the current language), else ``english``."""
    lang = lang or language()
    if lang == "en" or not translations:
        return english
    return (translations.get(lang) or {}).get(field) or english


def translations_of(data: object, fields: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """The ``{lang: {field: text}}`` of a parsed data mapping: its ``pt:`` (and any other
    language's) mapping, keeping only ``fields`` with a non-empty text, stripped."""
    if not isinstance(data, Mapping):
        return {}
    out: dict[str, dict[str, str]] = {}
    for lang in LANGUAGES:
        texts = data.get(lang) if lang != "en" else None
        if isinstance(texts, Mapping):
            kept = {f: texts[f].strip() for f in fields
                    if isinstance(texts.get(f), str) and texts[f].strip()}
            if kept:
                out[lang] = kept
    return out
