"""The historical track of a campaign: what really happened each turn (issue "History track").

``scenarios/<id>/history.yaml`` tells, turn by turn, what happened in those days and which of
the scenario's victory cities (CN 11.2) the Allies really held at the end of the turn. This
module loads that file, checks it against the scenario, and compares a game with history.
Pure Python: no UI, no pandas.

Dates (CN 2.4.1: turn 0 is D-Day, 6 June 1944; every later turn is 3 days; the game covers
6 June - 24 July 1944). The scenario's ``turn_date(n)`` is ``first_day + 3n`` days, which is
the LAST day of turn n: turn 0 is 6 June alone and turn n >= 1 runs from
``turn_date(n - 1) + 1 day`` to ``turn_date(n)`` (turn 1 = 7-9 June, turn 16 = 22-24 July).
``load_history`` refuses a file whose ``dates`` say anything else.

Holdings. ``allied_cities`` lists cities held whole at the end of the turn; ``allied_hexes``
maps a city held only in part to the hex ids held (Caen 2813 after Charnwood). Names must be
the ``place`` names of the scenario's ``rules.victory`` city entries, which are map places.

Points (``compare_with_history``): city points only, computed exactly as
``State.victory_points`` does for ``kind: city`` rules (a city of n hexes gives each side
``points * hexes_held // n``, docs/rules-notes.md). For the historical position every victory
hex the Allies did not hold counts for the Axis (the scenario's ``default_control`` is axis:
the Germans held everything the Allies had not taken). Units destroyed or exited are not
compared: history gives no count in the game's terms.
"""

from __future__ import annotations

import datetime as dt
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wargame.i18n import BABEL_LOCALES, LANGUAGES, language
from wargame.localized import Translations, pick
from wargame.scenario import Scenario, load_scenario
from wargame.scenario_errors import ScenarioError, load_yaml
from wargame.schema.campaign import HistoryFile, HistoryTranslationFile
from wargame.schema.common import validate

if TYPE_CHECKING:  # the engine is only needed for type hints
    from wargame.operational.state import State

__all__ = [
    "check_scenario",
    "History",
    "HistoryEvent",
    "HistoryTurn",
    "LaterCapture",
    "city_points",
    "compare_with_history",
    "load_history",
]

ALLIED = "allied"
AXIS = "axis"


@dataclass(frozen=True)
class HistoryEvent:
    date: str  # ISO date, inside its turn's dates
    text: str
    translations: Translations = field(default_factory=dict, hash=False, compare=False)

    def text_in(self, lang: str | None = None) -> str:
        """The text in ``lang`` (default: the current language; wargame/localized.py)."""
        return pick(self.text, self.translations, "text", lang)


@dataclass(frozen=True)
class HistoryTurn:
    turn: int
    first: str  # ISO date of the turn's first day
    last: str  # ISO date of the turn's last day (= scenario.turn_date(turn))
    title: str
    text: str
    events: tuple[HistoryEvent, ...]
    allied_cities: tuple[str, ...]  # victory cities held whole at the end of the turn
    allied_hexes: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    note: str = ""
    translations: Translations = field(default_factory=dict, hash=False, compare=False)

    @property
    def dates_label(self) -> str:
        """"6 June 1944", "7-9 June 1944", "28 June - 1 July 1944"."""
        a, b = dt.date.fromisoformat(self.first), dt.date.fromisoformat(self.last)
        if a == b:
            return f"{a.day} {a:%B} {a.year}"
        if a.month == b.month:
            return f"{a.day}-{b.day} {b:%B} {b.year}"
        return f"{a.day} {a:%B} - {b.day} {b:%B} {b.year}"

    def dates_label_in(self, lang: str | None = None) -> str:
        """``dates_label`` in ``lang`` (default: the current language): "6 de junho de 1944",
        "7-9 de junho de 1944", "28 de junho - 1 de julho de 1944"."""
        lang = lang or language()
        if lang == "en":
            return self.dates_label
        a, b = dt.date.fromisoformat(self.first), dt.date.fromisoformat(self.last)
        names = _month_names(lang)

        def month(d: dt.date) -> str:
            return names[d.month]

        if a == b:
            return f"{a.day} de {month(a)} de {a.year}"
        if a.month == b.month:
            return f"{a.day}-{b.day} de {month(b)} de {b.year}"
        return f"{a.day} de {month(a)} - {b.day} de {month(b)} de {b.year}"

    def title_in(self, lang: str | None = None) -> str:
        return pick(self.title, self.translations, "title", lang)

    def text_in(self, lang: str | None = None) -> str:
        return pick(self.text, self.translations, "text", lang)

    def note_in(self, lang: str | None = None) -> str:
        return pick(self.note, self.translations, "note", lang) if self.note else ""


@cache
def _month_names(lang: str) -> dict[int, str]:
    """Month names of ``lang`` ("junho"), from Babel's locale data (read once)."""
    from babel import Locale

    return dict(Locale.parse(BABEL_LOCALES[lang]).months["format"]["wide"])


@dataclass(frozen=True)
class LaterCapture:
    """A victory city the Allies took only after the game's last turn."""

    place: str
    when: str
    note: str = ""
    translations: Translations = field(default_factory=dict, hash=False, compare=False)

    def when_in(self, lang: str | None = None) -> str:
        return pick(self.when, self.translations, "when", lang)

    def note_in(self, lang: str | None = None) -> str:
        return pick(self.note, self.translations, "note", lang) if self.note else ""


@dataclass(frozen=True)
class History:
    scenario_id: str
    source: str
    provenance: str
    sources: tuple[str, ...]
    turns: tuple[HistoryTurn, ...]
    city_hexes: dict[str, tuple[str, ...]] = field(hash=False)  # victory city -> hex ids
    city_values: dict[str, dict[str, int]] = field(hash=False)  # victory city -> side -> points
    after_the_game: tuple[LaterCapture, ...] = ()
    translations: Translations = field(default_factory=dict, hash=False, compare=False)
    translation_sources: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    def provenance_in(self, lang: str | None = None) -> str:
        return pick(self.provenance, self.translations, "provenance", lang)

    def turn(self, n: int) -> HistoryTurn:
        for t in self.turns:
            if t.turn == n:
                return t
        known = f"{self.turns[0].turn}..{self.turns[-1].turn}" if self.turns else "none"
        raise KeyError(f"no history for turn {n} (turns {known})")

    def allied_hexes(self, n: int) -> set[str]:
        """Hex ids of the victory cities the Allies really held at the end of turn n."""
        t = self.turn(n)
        out: set[str] = set()
        for name in t.allied_cities:
            out.update(self.city_hexes[name])
        for hexes in t.allied_hexes.values():
            out.update(hexes)
        return out

    def city_points(self, n: int) -> dict[str, Any]:
        """City points (CN 11.2) of the historical position at the end of turn n."""
        allied = self.allied_hexes(n)
        every = {h for hexes in self.city_hexes.values() for h in hexes}
        return city_points(self.city_hexes, self.city_values, allied, every - allied)


def city_points(
    city_hexes: dict[str, tuple[str, ...]],
    city_values: dict[str, dict[str, int]],
    allied: Iterable[str],
    axis: Iterable[str],
) -> dict[str, Any]:
    """Points per side for the victory cities, as ``State.victory_points`` counts ``kind: city``:
    a side holding k of a city's n hexes scores ``points * k // n``. Returns
    ``{"allied": int, "axis": int, "lines": [(side, city, points), ...]}``."""
    held = {ALLIED: set(allied), AXIS: set(axis)}
    score = {ALLIED: 0, AXIS: 0}
    lines: list[tuple[str, str, int]] = []
    for name, hexes in city_hexes.items():
        for side, pts in city_values[name].items():
            k = sum(1 for h in hexes if h in held.get(side, ()))
            if k:
                value = pts * k // len(hexes)
                score[side] = score.get(side, 0) + value
                lines.append((side, name, value))
    return {ALLIED: score[ALLIED], AXIS: score[AXIS], "lines": lines}


# ---------------------------------------------------------------------------------- loading
def _history_path(scenario: Scenario) -> Path:
    src = Path(scenario.source) if scenario.source and not scenario.source.startswith("<") else None
    if src is None:
        raise ScenarioError.keyed(scenario.source or "<memory>", "history", "history.from_folder")
    folder = src.parent if src.suffix in (".yaml", ".yml") else src
    name = "history.yaml"
    if src.suffix in (".yaml", ".yml") and src.exists():
        meta = load_yaml(src)
        if isinstance(meta, dict) and meta.get("history") is not None:
            name = meta["history"]
            if not isinstance(name, str):
                raise ScenarioError.keyed(src, "history", "history.file_name", name)
    return folder / name


def load_history(
    scenario_id: str = "normandy",
    *,
    path: str | Path | None = None,
    scenario: Scenario | None = None,
) -> History:
    """Load and check ``history.yaml`` of a scenario (bundled id, or ``scenario`` given).

    ``path`` reads another file against the same scenario (tests use it for broken copies).
    Every problem raises ``ScenarioError`` naming the file, the field and what was expected."""
    if scenario is None:
        scenario = load_scenario(scenario_id)
    file = Path(path) if path is not None else _history_path(scenario)
    return history_from_data(load_yaml(file), scenario, source=str(file))


def _text(data: dict, key: str, src: str, where: str, required: bool = True) -> str:
    if key not in data or data[key] is None:
        if required:
            raise ScenarioError.keyed(src, f"{where}{key}", "history.text_missing")
        return ""
    value = data[key]
    if not isinstance(value, str) or (required and not value.strip()):
        raise ScenarioError.keyed(src, f"{where}{key}", "schema.non_empty_text", value)
    return value.strip()


def _date(value: Any, src: str, field_name: str) -> dt.date:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value  # an unquoted YAML date
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise ScenarioError.keyed(src, field_name, "schema.iso_date", value)


def _victory_cities(scenario: Scenario) -> tuple[dict[str, tuple[str, ...]], dict[str, dict[str, int]]]:
    hexes: dict[str, tuple[str, ...]] = {}
    values: dict[str, dict[str, int]] = {}
    for v in scenario.rule("victory", []) or []:
        if isinstance(v, dict) and v.get("kind") == "city":
            name = v["place"]
            hexes[name] = tuple(h.id for h in scenario.board.places.get(name, ()))
            values[name] = {side: int(p) for side, p in (v.get("points") or {}).items()}
    return hexes, values


def _expected_dates(scenario: Scenario, turn: int) -> tuple[str, str]:
    days = scenario.turn_days(turn)  # CN 2.4.1 / OD 2.4.1 (Scenario.turn_days)
    if days is None:
        raise ScenarioError.keyed(scenario.source, "turn_dates", "history.first_day")
    return days


def _rule(scenario: Scenario, section: str) -> str:
    """``CN 11.2`` or ``OD 11.2``: the section in the scenario's own rulebook."""
    return f"{scenario.tables.rule_prefix} {section}"


def translation_files(source: str | Path) -> dict[str, Path]:
    """The texts of a history file in the other languages, where present: ``history.pt.yaml``
    beside ``history.yaml`` (wargame/localized.py)."""
    src = Path(source)
    if str(source).startswith("<") or not src.suffix:
        return {}
    out = {}
    for lang in LANGUAGES:
        path = src.with_name(f"{src.stem}.{lang}{src.suffix}")
        if lang != "en" and path.is_file():
            out[lang] = path
    return out


def history_from_data(data: Any, scenario: Scenario, source: str = "<memory>",
                      translations: dict[str, tuple[Any, str]] | None = None) -> History:
    """Build a History from parsed YAML and check it against the scenario.

    ``translations``: {language: (parsed YAML, its file name)} of the texts in other
    languages; by default the ``translation_files`` beside ``source``, each checked against
    this history (every turn, event and note translated, same dates)."""
    hist = _history_from_data(data, scenario, source)
    if translations is None:
        translations = {lang: (load_yaml(path), str(path))
                        for lang, path in translation_files(source).items()}
    for lang, (texts, file) in translations.items():
        hist = _translated(hist, lang, texts, file)
    return hist


def _translated(hist: History, lang: str, data: Any, src: str) -> History:
    """``hist`` with the texts of one language file (``HistoryTranslationFile``) added."""
    model = validate(HistoryTranslationFile, data, src)
    if model.language != lang:
        raise ScenarioError.keyed(src, "language", "history.language", model.language,
                                  lang=repr(lang))
    if model.scenario != hist.scenario_id:
        raise ScenarioError.keyed(src, "scenario", "history.scenario_id", model.scenario,
                                  scenario=repr(hist.scenario_id))
    by_turn = {}
    for i, t in enumerate(model.turns):
        if t.turn in by_turn:
            raise ScenarioError.keyed(src, f"turns[{i}].turn", "history.turn_once", t.turn)
        by_turn[t.turn] = (i, t)
    known = {t.turn for t in hist.turns}
    extra = sorted(set(by_turn) - known)
    if extra:
        raise ScenarioError.keyed(src, "turns", "history.only_turns_of", f"extra {extra}",
                                  source=hist.source)
    turns = []
    for t in hist.turns:
        if t.turn not in by_turn:
            raise ScenarioError.keyed(src, "turns", "history.every_turn_of",
                                      f"missing turn {t.turn}", source=hist.source)
        i, tr = by_turn[t.turn]
        where = f"turns[{i}]"
        if bool(tr.note) != bool(t.note):
            raise ScenarioError.keyed(src, f"{where}.note", "history.note_turn", tr.note,
                                      source=Path(hist.source).name, turn=t.turn)
        dates = [e.date for e in t.events]
        got = [str(e.date) for e in tr.events]
        if got != dates:
            raise ScenarioError.keyed(src, f"{where}.events", "history.event_texts", got,
                                      turn=t.turn, dates=dates)
        events = tuple(replace(e, translations={**e.translations, lang: {"text": x.text.strip()}})
                       for e, x in zip(t.events, tr.events, strict=True))
        texts = {"title": tr.title.strip(), "text": tr.text.strip()}
        if tr.note:
            texts["note"] = tr.note.strip()
        turns.append(replace(t, events=events, translations={**t.translations, lang: texts}))
    places = [c.place for c in hist.after_the_game]
    got_places = [a.place for a in model.after_the_game]
    if got_places != places:
        raise ScenarioError.keyed(src, "after_the_game", "history.places_of", got_places,
                                  source=Path(hist.source).name, places=places)
    later = []
    for j, (c, a) in enumerate(zip(hist.after_the_game, model.after_the_game, strict=True)):
        if bool(a.note) != bool(c.note):
            raise ScenarioError.keyed(src, f"after_the_game[{j}].note", "history.note", a.note,
                                      source=Path(hist.source).name)
        texts = {"when": a.when.strip(), **({"note": a.note.strip()} if a.note else {})}
        later.append(replace(c, translations={**c.translations, lang: texts}))
    return replace(hist, turns=tuple(turns), after_the_game=tuple(later),
                   translations={**hist.translations,
                                 lang: {"provenance": model.provenance.strip()}},
                   translation_sources={**hist.translation_sources, lang: src})


def _history_from_data(data: Any, scenario: Scenario, source: str) -> History:
    src = source
    if not isinstance(data, dict):
        raise ScenarioError.keyed(src, "(top level)", "history.top", data)
    provenance = _text(data, "provenance", src, "")
    sources = data.get("sources")
    if not isinstance(sources, list) or not sources:
        raise ScenarioError.keyed(src, "sources", "history.sources", sources)
    for i, s in enumerate(sources):
        if not isinstance(s, str) or not s.strip():
            raise ScenarioError.keyed(src, f"sources[{i}]", "history.source", s)
    declared = data.get("scenario")
    if declared is not None and declared != scenario.id:
        raise ScenarioError.keyed(src, "scenario", "history.scenario_id", declared,
                                  scenario=repr(scenario.id))

    city_hexes, city_values = _victory_cities(scenario)
    if not city_hexes:
        raise ScenarioError.keyed(scenario.source, "rules.victory", "history.city_entries")
    # the expectation's data for a name that is no victory city (CN/OD 11.2)
    city_list = {"rule": _rule(scenario, "11.2"), "cities": ", ".join(city_hexes)}

    raw_turns = data.get("turns")
    if not isinstance(raw_turns, list):
        raise ScenarioError.keyed(src, "turns", "history.turns", raw_turns)
    wanted = list(range(scenario.first_turn, scenario.last_turn + 1))
    turns: list[HistoryTurn] = []
    seen: set[int] = set()
    for i, item in enumerate(raw_turns):
        where = f"turns[{i}]."
        if not isinstance(item, dict):
            raise ScenarioError.keyed(src, f"turns[{i}]", "history.turn_entry", item)
        n = item.get("turn")
        if not isinstance(n, int) or isinstance(n, bool) or n not in wanted:
            raise ScenarioError.keyed(src, f"{where}turn", "history.turn_number", n,
                                      first=wanted[0], last=wanted[-1])
        if n in seen:
            raise ScenarioError.keyed(src, f"{where}turn", "history.turn_once", n)
        seen.add(n)
        turns.append(_turn(item, n, where, scenario, city_hexes, city_list, src))
    missing = [n for n in wanted if n not in seen]
    if missing:
        raise ScenarioError.keyed(src, "turns", "history.every_turn", f"missing {missing}",
                                  first=wanted[0], last=wanted[-1])
    turns.sort(key=lambda t: t.turn)

    later = _after_the_game(data.get("after_the_game"), src, city_hexes, city_list, turns[-1])
    return History(
        scenario_id=scenario.id,
        source=src,
        provenance=provenance,
        sources=tuple(s.strip() for s in sources),
        turns=tuple(turns),
        city_hexes=city_hexes,
        city_values=city_values,
        after_the_game=later,
    )


def _turn(item: dict, n: int, where: str, scenario: Scenario,
          city_hexes: dict[str, tuple[str, ...]], city_list: dict[str, str], src: str
          ) -> HistoryTurn:
    dates = item.get("dates")
    if not isinstance(dates, dict):
        raise ScenarioError.keyed(src, f"{where}dates", "history.dates", dates)
    exp_first, exp_last = _expected_dates(scenario, n)
    first = _date(dates.get("first"), src, f"{where}dates.first")
    last = _date(dates.get("last"), src, f"{where}dates.last")
    # CN 2.4.1: turn 0 = 6 June 1944, then 3 days a turn; OD 2.4.1: 2 days a turn from 15 August
    rule = _rule(scenario, "2.4.1")
    if first.isoformat() != exp_first:
        raise ScenarioError.keyed(src, f"{where}dates.first", "history.turn_date", first.isoformat(),
                                  date=exp_first, rule=rule, turn=n)
    if last.isoformat() != exp_last:
        raise ScenarioError.keyed(src, f"{where}dates.last", "history.turn_date", last.isoformat(),
                                  date=exp_last, rule=rule, turn=n)
    title = _text(item, "title", src, where)
    text = _text(item, "text", src, where)
    note = _text(item, "note", src, where, required=False)

    raw_events = item.get("events")
    if not isinstance(raw_events, list) or not raw_events:
        raise ScenarioError.keyed(src, f"{where}events", "history.events", raw_events)
    events = []
    for j, ev in enumerate(raw_events):
        ew = f"{where}events[{j}]"
        if not isinstance(ev, dict):
            raise ScenarioError.keyed(src, ew, "history.event", ev)
        day = _date(ev.get("date"), src, f"{ew}.date")
        if not first <= day <= last:
            raise ScenarioError.keyed(src, f"{ew}.date", "history.event_date", day.isoformat(),
                                      first=first, last=last)
        events.append(HistoryEvent(day.isoformat(), _text(ev, "text", src, f"{ew}.")))

    cities = item.get("allied_cities")
    if not isinstance(cities, list):
        raise ScenarioError.keyed(src, f"{where}allied_cities", "history.cities", cities)
    for j, name in enumerate(cities):
        if not isinstance(name, str) or name not in city_hexes:
            raise ScenarioError.keyed(src, f"{where}allied_cities[{j}]", "history.victory_city",
                                      name, **city_list)
    if len(set(cities)) != len(cities):
        raise ScenarioError.keyed(src, f"{where}allied_cities", "history.city_once", cities)

    partial_raw = item.get("allied_hexes") or {}
    if not isinstance(partial_raw, dict):
        raise ScenarioError.keyed(src, f"{where}allied_hexes", "history.hexes_map", partial_raw)
    partial: dict[str, tuple[str, ...]] = {}
    for name, hexes in partial_raw.items():
        fw = f"{where}allied_hexes.{name}"
        if not isinstance(name, str) or name not in city_hexes:
            raise ScenarioError.keyed(src, fw, "history.victory_city", name, **city_list)
        if name in cities:
            raise ScenarioError.keyed(src, fw, "history.in_part", name)
        own = city_hexes[name]
        if not isinstance(hexes, list) or not hexes:
            raise ScenarioError.keyed(src, fw, "history.hex_list", hexes, hexes=list(own))
        ids = [str(h) for h in hexes]
        bad = [h for h in ids if h not in own]
        if bad:
            raise ScenarioError.keyed(src, fw, "history.city_hexes", bad, city=name, hexes=list(own))
        if set(ids) == set(own):
            raise ScenarioError.keyed(src, fw, "history.part", ids)
        partial[name] = tuple(sorted(set(ids)))
    return HistoryTurn(
        turn=n, first=first.isoformat(), last=last.isoformat(), title=title, text=text,
        events=tuple(events), allied_cities=tuple(cities), allied_hexes=partial, note=note,
    )


def _after_the_game(raw: Any, src: str, city_hexes: dict[str, tuple[str, ...]],
                    city_list: dict[str, str],
                    last_turn: HistoryTurn) -> tuple[LaterCapture, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ScenarioError.keyed(src, "after_the_game", "history.after", raw)
    out = []
    for i, item in enumerate(raw):
        where = f"after_the_game[{i}]"
        if not isinstance(item, dict):
            raise ScenarioError.keyed(src, where, "history.after_item", item)
        place = item.get("place")
        if not isinstance(place, str) or place not in city_hexes:
            raise ScenarioError.keyed(src, f"{where}.place", "history.victory_city", place,
                                      **city_list)
        if place in last_turn.allied_cities:
            raise ScenarioError.keyed(src, f"{where}.place", "history.not_yet", place,
                                      turn=last_turn.turn)
        out.append(LaterCapture(place, _text(item, "when", src, f"{where}."),
                                _text(item, "note", src, f"{where}.", required=False)))
    return tuple(out)


# ------------------------------------------------------------------------------ comparison
_CACHE: weakref.WeakKeyDictionary[Any, History] = weakref.WeakKeyDictionary()


def _history_for(state: State) -> History:
    game = state.game
    if game not in _CACHE:
        _CACHE[game] = load_history(game.scenario.id, scenario=game.scenario)
    return _CACHE[game]


def compare_with_history(state: State, history: History | None = None) -> dict[str, Any]:
    """The game's Allied-held victory cities against history, for the state's current turn.

    Returns a plain dict:
    - ``turn``, ``dates`` ({first, last}), ``title`` (in the current language);
    - ``held_both``, ``game_only``, ``history_only``: city names (a city is listed where at
      least one of its hexes falls in that class, so a city split differently in game and
      history, e.g. Caen, can appear in two lists);
    - ``hexes``: the same three classes as sorted hex ids;
    - ``history_points`` / ``game_points``: city points only, ``{"allied", "axis"}`` (module
      docstring); ``game_points`` also equals the city lines of ``state.victory_points()``;
    - ``allied_difference``: game minus history Allied city points (positive: ahead of history).
    """
    hist = history if history is not None else _history_for(state)
    t = hist.turn(state.turn)
    hist_allied = hist.allied_hexes(state.turn)
    control = {h.id: side for h, side in state.control.items()}
    every = {h for hexes in hist.city_hexes.values() for h in hexes}
    game_allied = {h for h in every if control.get(h) == ALLIED}
    game_axis = {h for h in every if control.get(h) == AXIS}

    classes = {
        "held_both": game_allied & hist_allied,
        "game_only": game_allied - hist_allied,
        "history_only": hist_allied - game_allied,
    }
    out: dict[str, Any] = {
        "turn": t.turn,
        "dates": {"first": t.first, "last": t.last},
        "title": t.title_in(),  # in the current language (history.pt.yaml)
    }
    for key, hexes in classes.items():
        out[key] = [name for name, own in hist.city_hexes.items() if hexes & set(own)]
    out["hexes"] = {key: sorted(hexes) for key, hexes in classes.items()}
    hp = hist.city_points(state.turn)
    gp = city_points(hist.city_hexes, hist.city_values, game_allied, game_axis)
    out["history_points"] = {ALLIED: hp[ALLIED], AXIS: hp[AXIS]}
    out["game_points"] = {ALLIED: gp[ALLIED], AXIS: gp[AXIS]}
    out["allied_difference"] = gp[ALLIED] - hp[ALLIED]
    return out


def check_scenario(path_or_id: str | Path) -> Scenario:
    """``load_scenario`` and, when the scenario names one and it is there, its history.yaml
    (model, then the checks of wargame/history.py against the scenario): what
    ``wargame scenario validate`` runs. The history is optional to play, so a copy of a
    scenario without it still validates."""
    scenario = load_scenario(path_or_id)
    src = Path(scenario.source)
    meta = load_yaml(src)
    name = meta.get("history") if isinstance(meta, dict) else None
    if isinstance(name, str) and (src.parent / name).is_file():
        path = src.parent / name
        validate(HistoryFile, load_yaml(path), path)
        load_history(scenario=scenario, path=path)  # with its history.pt.yaml (validated)
    return scenario
