"""The build step setuptools cannot declare: the message catalogues compiled (issue #35).

Everything else is in pyproject.toml. ``build_py`` copies the packages and their data into the
build folder; this subclass then compiles each ``wargame/locale/<lang>/LC_MESSAGES/*.po`` to
the ``.mo`` at the same place there (Babel's ``read_po``/``write_mo``; fuzzy entries left out, as
gettext's ``msgfmt`` does), so the wheel carries compiled catalogues and ``wargame.i18n``
reads them with ``babel.support.Translations``. The source tree holds only the ``.po`` files
(an editable install or a checkout compiles them in memory instead: ``wargame.i18n``).
A catalogue with errors (Babel's ``Catalog.check``: placeholders, plural forms) fails the build.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LOCALE = Path("wargame") / "locale"


def compile_catalogues(source_root: Path, target_root: Path) -> list[Path]:
    """Every ``.po`` under ``source_root/wargame/locale`` compiled to its ``.mo`` under
    ``target_root`` (same relative path); returns the ``.mo`` files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted((source_root / LOCALE).glob("*/LC_MESSAGES/*.po")):
        lang = po.parent.parent.name
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=lang, domain=po.stem)
        for message in catalog:
            # wargame's texts are str.format texts ("{win}% chance"): Babel's extractor flags
            # some of them python-format because of the "%", and its check then reads "% c"
            # and "% d" as %-placeholders. Only the brace placeholders are ours to check.
            if "python-brace-format" in message.flags:
                message.flags.discard("python-format")
        errors = [f"{po}: {message.id!r}: {error}"
                  for message, errs in catalog.check() for error in errs]
        if errors:
            raise SystemExit("message catalogue errors:\n" + "\n".join(errors[:20]))
        mo = target_root / po.relative_to(source_root).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as fh:
            write_mo(fh, catalog, use_fuzzy=False)
        written.append(mo)
    return written


class BuildWithCatalogues(build_py):
    """``build_py``, then the ``.mo`` files into the build folder (not in editable mode:
    there the package is the source tree, and ``wargame.i18n`` compiles in memory)."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            self._catalogues = compile_catalogues(Path.cwd(), Path(self.build_lib))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode),
                *(str(p) for p in getattr(self, "_catalogues", []))]


setup(cmdclass={"build_py": BuildWithCatalogues})
