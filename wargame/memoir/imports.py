"""``wargame scenario import FILE.m44``: a user's own Scenario Editor layout as a playable
scenario in the user scenario folder (``wargame.paths.user_memoir_dir``; docs/memoir44-import.md).

The layout is checked (``wargame.memoir.m44.read_m44_file``: a malformed file is a
``ScenarioError`` naming the file and the field, a layout using what the engine cannot play an
``UnsupportedM44`` naming each thing and its hexes), converted to the project's scenario format
and written atomically as ``<name>.json``; it is then listed by the catalogue and the dashboard
and played as ``memoir44-<name>``. A layout identical to a bundled scenario's (same board,
terrain and units) takes that scenario's rulebook set-up and special rules, so importing the
editor's file of a rulebook scenario plays the same game as the bundled one.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame.i18n import using_language
from wargame.paths import user_memoir_dir
from wargame.schema.common import validate
from wargame.schema.memoir import MemoirScenarioFile

from .m44 import convert, m44_notes, read_m44_report
from .m44_tiles import Report
from .scenario import RESERVED_IDS, index
from .text import IMPORT_TEXT_EN as TEXT
from .text import report_line

__all__ = ["ImportResult", "import_m44", "default_id", "ID_PATTERN"]

ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


@dataclass(frozen=True)
class ImportResult:
    scenario_id: str  # the name; the game id is memoir44-<name>
    path: Path
    title: str
    units: int
    notes: list[str] = field(default_factory=list)
    recognised: str | None = None  # the bundled scenario the layout is
    # read, approximated, left_out: each line as {key, data, hexes} (the scenario file's
    # import_report), said in the reader's language by report_text
    lines: dict[str, list[Any]] = field(default_factory=dict)

    @property
    def approximated(self) -> bool:
        return bool(self.lines.get("approximated") or self.lines.get("left_out"))

    @property
    def report(self) -> dict[str, list[str]]:
        """The report's lines in the current language, by part."""
        return {part: [entry_text(e) for e in items] for part, items in self.lines.items()}


APPROXIMATE_MARK = "≈"  # after the title of a scenario that plays with approximations


def report_lists(report: Report) -> dict[str, list[dict[str, Any]]]:
    """The import report as the scenario file keeps it (``import_report``): each line as its
    key, its data and its hexes, to be said in the reader's language (``entry_text``)."""
    return {part: [{"key": line.key, "data": line.args, "hexes": [[r, c] for r, c in h]}
                   for line, h in getattr(report, part).items()]
            for part in ("read", "approximated", "left_out")}


def entry_text(entry: Any) -> str:
    """One stored report line in the current language (a file imported before the lines had
    keys holds English text: shown as it is)."""
    if isinstance(entry, dict) and isinstance(entry.get("key"), str):
        data = entry["data"] if isinstance(entry.get("data"), dict) else {}
        hexes = [h for h in entry.get("hexes") or [] if isinstance(h, list | tuple)
                 and len(h) == 2]
        return report_line(entry["key"], data, hexes)
    return str(entry)


def report_text(report: dict[str, list[Any]]) -> str:
    """The report as a few lines of text in the current language (the briefing of an imported
    scenario: shown by the dashboard before the game starts, and by ``wargame scenario
    import``)."""
    lines = []
    for part in ("approximated", "left_out", "read"):
        items = report.get(part) or []
        if items:
            lines.append(TEXT[f"report.{part}"].format(count=len(items)))
            lines.extend(f"- {entry_text(item)}" for item in items)
    return "\n".join(lines)


def default_id(path: Path) -> str:
    """A scenario name from a file name: lower case, other characters as ``-``."""
    slug = re.sub(r"[^a-z0-9_-]+", "-", path.stem.lower()).strip("-_")[:40].strip("-_")
    return slug or "imported"


def _layout(data: dict[str, Any]) -> Any:
    """What makes two layouts the same battlefield (rules and texts aside)."""
    return (data["board"]["size"],
            [(t["at"], t["terrain"], t.get("bridge", False), t.get("bunker", False),
              t.get("obstacle")) for t in data["terrain"]],
            sorted((u["at"], u["side"], u["kind"], u["figures"]) for u in data["units"]))


def _title(raw: dict[str, Any], path: Path) -> str:
    texts = raw.get("text")
    if isinstance(texts, dict):
        for lang in ("en", *sorted(k for k in texts if isinstance(k, str))):
            block = texts.get(lang)
            name = block.get("name") if isinstance(block, dict) else None
            if isinstance(name, str):
                name = " ".join(re.sub(r"[\x00-\x1f\x7f]", " ", name).split())[:120]
                if name:
                    return name
    return path.stem[:120] or "imported"


def import_m44(file: str | Path, scenario_id: str | None = None, *, title: str | None = None,
               replace: bool = False, folder: Path | None = None) -> ImportResult:
    """Check, convert and write ``file`` as ``<folder>/<scenario_id>.json``.

    Raises ``ScenarioError`` (malformed file, naming file and field), ``UnsupportedM44`` (what
    the engine cannot play) or ``ValueError`` (a bad or taken name)."""
    path = Path(file)
    sid = scenario_id if scenario_id is not None else default_id(path)
    if not ID_PATTERN.fullmatch(sid) or sid in RESERVED_IDS:
        raise ValueError(TEXT["id.bad"].format(id=sid))
    if sid in index():
        raise ValueError(TEXT["id.bundled"].format(id=sid))
    folder = folder or user_memoir_dir()
    target = folder / f"{sid}.json"
    if target.exists() and not replace:
        raise ValueError(TEXT["id.exists"].format(id=sid, path=target))
    raw, report = read_m44_report(path)
    name = title if title else _title(raw, path)
    lists = report_lists(report)
    approximated = bool(lists["approximated"] or lists["left_out"])
    if approximated and not name.endswith(APPROXIMATE_MARK):
        name = f"{name[:117]} {APPROXIMATE_MARK}"
    with using_language("en"):  # the file holds English, whatever the import's language
        provenance = TEXT["provenance"].format(file=path.name)
        briefing = TEXT["briefing"].format(file=path.name)
    # what the engine cannot play is refused in the current language (``wargame --lang``)
    data = convert(raw, scenario_id=sid, title=name, provenance=provenance, briefing=briefing,
                   report=report)
    info = raw.get("game_info") or {}
    if isinstance(info.get("front"), str) and info["front"].strip():
        data["front"] = info["front"].strip()[:20]
    data["import_report"] = lists
    recognised, recognised_title = None, ""
    for bundled_id, bundled in index().items():
        if _layout(bundled) == _layout(data):
            recognised, recognised_title = bundled_id, bundled["title"]
            data = {**bundled, "id": sid, "title": title or bundled["title"], "number": None,
                    "provenance": data["provenance"] + "; " + bundled["provenance"]}
            lists = {"read": lists["read"], "approximated": [], "left_out": []}
            data["import_report"] = lists
            break

    def import_notes() -> list[str]:
        """The notes in the current language."""
        notes = m44_notes(raw)
        if recognised is not None:
            return [n for n in notes if n != TEXT["note.texts"]] + [TEXT["note.recognised"].format(
                number=recognised, title=recognised_title)]
        if data["objectives"]:
            notes.append(TEXT["note.tags_objectives"])
        return notes

    with using_language("en"):
        data["notes"] = import_notes()  # stored in English, as the provenance
        if recognised is None:
            data["briefing"] = briefing + "\n\n" + report_text(lists)
    if recognised is None:
        with using_language("pt"):
            data["pt"] = {"title": data["title"], "briefing": TEXT["briefing"].format(
                file=path.name) + "\n\n" + report_text(lists)}
    notes = import_notes()  # shown in the current language
    validate(MemoirScenarioFile, data, path)
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{sid}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1, ensure_ascii=False)
            fh.write("\n")
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return ImportResult(sid, target, data["title"], len(data["units"]), notes, recognised,
                        lists)
