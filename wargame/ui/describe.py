"""Actions in words for people: units by their names, hexes by the map's place names.

``describe_action(state, action)`` takes an action of either engine (an action object or its
JSON form from the action log) and returns one short sentence with no internal identifier in
it (no ``attack(target=...)``, no ``declare_defence``): the dashboards use it for "Done:",
"Undone:" and status texts. The sentences live in ``wargame.ui.text.ACTION_WORDS``.
"""

from __future__ import annotations

from typing import Any

from wargame.error_texts import TERMS
from wargame.event_text import CARD_TITLES, DECISIONS, card_title, edge_name, side_name
from wargame.hexgrid import Hex
from wargame.ui.text import ACTION_WORDS, MEMOIR_KIND_WORDS, OPTION_WORDS

__all__ = ["TERM_CSS", "describe_action", "describe_option", "place_name", "unit_name",
           "plain_words", "card_html"]

# a glossary term on a page (wargame.student_text.glossed, issue #28): underlined with dots,
# the "?" cursor over it; its meaning is the hover title
TERM_CSS = "abbr.wg-term {text-decoration: underline dotted; cursor: help;}"


def plain_words(kind: str) -> str:
    """``"end_phase"`` -> "end phase": the last resort for a kind with no sentence."""
    return str(kind).replace("_", " ")


# ---------------------------------------------------------------------- campaigns
def unit_name(state: Any, uid: str) -> str:
    """A campaign unit's designation in the current language ("Regimento de Infantaria 16":
    ``wargame.student_text.unit_designation``)."""
    from wargame.student_text import unit_designation

    units = getattr(getattr(state, "game", None), "units", {})
    d = units.get(uid) if isinstance(units, dict) else None
    return unit_designation(d.name) if d is not None else plain_words(uid)


def terrain_name(terrain: str) -> str:
    """A campaign terrain id of the data files ("open", "bocage") in the current language
    (the terrain words of ``wargame.error_texts.TERMS``); an unknown id as it is."""
    return TERMS.get(f"terrain.{terrain}", terrain)


def place_name(state: Any, hid: str | Hex | None, near: int = 2) -> str:
    """A hex as people read it on the map: "Bayeux (2010)", "2011 near Bayeux", "2011"."""
    if hid is None:
        return "-"
    h = Hex.from_id(hid) if isinstance(hid, str) else hid
    board = getattr(getattr(state, "game", None), "board", None)
    hexes = getattr(board, "hexes", {}) if board is not None else {}
    info = hexes.get(h)
    named = getattr(board, "name_in", lambda n: n)  # the current language (map.json pt.names)
    if info is not None and info.name:
        return f"{named(info.name)} ({h.id})"
    best: tuple[int, str] | None = None
    for dist in range(1, near + 1):
        for other in h.ring(dist) if hasattr(h, "ring") else ():
            o = hexes.get(other)
            if o is not None and o.name and (best is None or dist < best[0]):
                best = (dist, named(o.name))
        if best is not None:
            break
    return ACTION_WORDS["near"].format(hex=h.id, place=best[1]) if best else h.id


def _names(state: Any, uids: Any) -> str:
    names = [unit_name(state, u) for u in uids or ()]
    return ", ".join(names) if names else ACTION_WORDS["nobody"]


def _campaign(state: Any, d: dict[str, Any]) -> str:
    kind = d.get("kind", "")
    w = ACTION_WORDS
    unit = unit_name(state, d["unit"]) if d.get("unit") else ""
    if kind == "move":
        return w["move"].format(unit=unit, to=place_name(state, d["to"]))
    if kind == "enter":
        return w["enter"].format(unit=unit, hex=place_name(state, d["hex"]))
    if kind == "exit":
        return w["exit"].format(unit=unit, edge=edge_name(d.get("edge", "")))
    if kind == "end_phase":
        return w["end_phase"]
    if kind in ("attack", "bombard"):
        support = []
        if d.get("artillery"):
            support.append(w["with_artillery"].format(units=_names(state, d["artillery"])))
        if d.get("air"):
            support.append(w["with_air"].format(n=d["air"]))
        extra = (" " + DECISIONS["opt.and"].format(first=", ".join(support[:-1]),
                                                    second=support[-1])
                 if len(support) > 1 else " " + support[0]) if support else ""
        target = place_name(state, d["target"])
        if kind == "attack":
            return w["attack"].format(target=target, units=_names(state, d.get("attackers")),
                                      support=extra)
        return w["bombard"].format(target=target, support=extra)
    if kind == "declare_defence":
        arty = _names(state, d.get("artillery")) if d.get("artillery") else w["no_artillery"]
        return w["declare_defence"].format(n=d.get("air", 0), artillery=arty)
    if kind == "carpet_bomb":
        return w["carpet_bomb"].format(target=place_name(state, d["center"]))
    if kind == "carpet_bomb_area":
        targets = list(d.get("targets") or [])
        return w["carpet_bomb_area"].format(n=len(targets), target=place_name(
            state, targets[0]) if targets else "-")
    if kind == "choose_loss":
        return w["choose_loss"].format(unit=unit)
    if kind == "retreat":
        if d.get("edge"):
            return w["retreat_edge"].format(unit=unit, edge=edge_name(d["edge"]))
        if not d.get("path"):
            return w["retreat_stay"].format(unit=unit)
        return w["retreat"].format(unit=unit, to=place_name(state, d["path"][-1]))
    if kind == "advance":
        return w["advance"].format(unit=unit, to=place_name(state, d["path"][-1]))
    if kind == "end_advance":
        return w["end_advance"]
    if kind == "emp_eliminate":
        return w["emp_eliminate"].format(units=_names(state, d.get("units")))
    return plain_words(kind)


def describe_option(state: Any, action: Any, values: dict[str, Any] | None = None) -> str:
    """One option of a pending campaign decision (the Decision panel), hexes by place:
    "7th Infantry Regiment: retreat to 2011 near Colleville" rather than a bare id. A loss
    choice names the unit's values from ``values``, the page's view (``state.view``, issue
    #27: "?" where the view holds none); without ``values`` (the server's own texts), from
    the state."""
    d = action if isinstance(action, dict) else action.to_dict()
    kind = d.get("kind", "")
    w = OPTION_WORDS
    unit = unit_name(state, d["unit"]) if d.get("unit") else ""
    path = list(d.get("path") or [])
    if kind == "choose_loss":
        if values is None:
            attack, defence = state.attack_of(d["unit"]), state.defence_of(d["unit"])
        else:
            attack, defence = (values.get(d["unit"]) or ("?", "?"))[:2]
        return w["loss"].format(unit=unit, attack=attack, defence=defence)
    if kind == "retreat" and d.get("edge"):
        return w["retreat_edge"].format(unit=unit, edge=edge_name(d["edge"]))
    if kind == "retreat" and not path:
        return w["retreat_stay"].format(unit=unit)
    if kind in ("retreat", "advance"):
        to = place_name(state, path[-1])
        if len(path) == 1:
            return w[kind].format(unit=unit, to=to)
        via = ", ".join(place_name(state, h) for h in path[:-1])
        return w[f"{kind}_via"].format(unit=unit, to=to, via=via)
    if kind == "end_advance":
        return w["end_advance"]
    if kind == "declare_defence":
        arty = _names(state, d.get("artillery")) if d.get("artillery") else w["no_artillery"]
        return w["defence"].format(n=d.get("air", 0), artillery=arty)
    if kind == "emp_eliminate":
        return w["emp_eliminate"].format(units=_names(state, d.get("units")))
    return action.describe() if hasattr(action, "describe") else plain_words(kind)


# ---------------------------------------------------------------------- Memoir '44
def _memoir_where(h: Any) -> str:
    from wargame.memoir.board import hex_to_m44

    if h is None:
        return "-"
    if not isinstance(h, Hex):
        h = Hex(*h)
    r, c = hex_to_m44(h)
    return ACTION_WORDS["m44_hex"].format(row=r, col=c)


def memoir_unit(state: Any, uid: Any) -> str:
    """A Memoir '44 unit for people, in the current language: "Allied infantry (unit 5)"."""
    units = getattr(state, "units", {}) or {}
    u = units.get(uid) if isinstance(units, dict) else None
    if u is None:
        return ACTION_WORDS["m44_unit_unknown"].format(id=uid)
    side = side_name(str(u.side).lower().replace("allies", "allied"))  # "Allied", "Axis"
    kind = MEMOIR_KIND_WORDS.get(u.kind, plain_words(u.kind))
    return ACTION_WORDS["m44_unit"].format(side=side, kind=kind, id=u.id)


def _memoir(state: Any, d: dict[str, Any]) -> str:
    kind = str(d.get("kind", ""))
    w = ACTION_WORDS
    unit = memoir_unit(state, d["unit"]) if d.get("unit") is not None else ""
    where = _memoir_where(d.get("hex")) if d.get("hex") is not None else ""
    title = ""
    if d.get("card") is not None:
        from wargame.memoir.cards import DECK

        c = d["card"]
        title = card_title(DECK[c]) if isinstance(c, int) and 0 <= c < len(DECK) else str(c)
    key = f"m44_{kind}"
    if key in w:
        return w[key].format(unit=unit, hex=where, card=title,
                             option=plain_words(d.get("option") or ""))
    text = plain_words(kind)
    if title:
        text += f" {title}"
    if unit:
        text += f" {unit}"
    if where:
        text += f" {where}"
    return text


# ---------------------------------------------------------------------- both
def describe_action(state: Any, action: Any) -> str:
    """One sentence for an action of any game (object or JSON dict), by the describer of the
    game's family (``wargame.registry``)."""
    from wargame.registry import family_of_game, resolve

    d = action if isinstance(action, dict) else action.to_dict()
    describer = family_of_game(state.game).describer
    return resolve(describer)(state, d) if describer else str(d.get("kind", d))


def describe_memoir_action(state: Any, d: dict[str, Any]) -> str:
    return _memoir(state, d)


def describe_campaign_action(state: Any, d: dict[str, Any]) -> str:
    return _campaign(state, d)


def card_html(card: Any) -> str:
    """A Memoir '44 command card drawn as a card (issue #28): its title, its section and
    what it orders (``wargame.ui.text.CARD_TEXT``), in the current language."""
    import html

    from wargame.student_text import STUDENT_WORDS
    from wargame.ui.text import CARD_TEXT, UI

    esc = html.escape
    title = card_title(card) if card.name in CARD_TITLES else str(card.name)
    section = ""
    if getattr(card, "section", None):
        where = STUDENT_WORDS.get(f"m44.section.{card.section}", card.section)
        section = (f"<div class='m44-card-section' style='font-size:12px;color:#445'>"
                   f"{esc(UI['card_section'].format(section=where))}</div>")
    about = CARD_TEXT.get(card.name, "")
    about = (f"<div class='m44-card-text' style='font-size:12px;color:#333;margin-top:3px'>"
             f"{esc(about)}</div>") if about else ""
    return (f"<div class='m44-card' data-card='{esc(str(card.name))}' style='border:2px solid "
            f"#6b5b3e;border-radius:8px;background:#f6efd9;padding:5px 8px;max-width:340px;"
            f"box-shadow:1px 1px 3px #999'><div class='m44-card-title' style='font-weight:bold;"
            f"font-size:14px'>{esc(title)}</div>{section}{about}</div>")


def student_odds(state: Any, column_label: str) -> str:
    """HTML: the odds column said once in words for a student page ("Em palavras: 5 contra 1:
    muito favorável ao atacante."), graded from the game's own CRT column."""
    import html

    from wargame.student_text import column_grade, odds_words
    from wargame.ui.text import UI

    words = odds_words(str(column_label), column_grade(state, str(column_label)))
    return (f"<div class='wg-odds-words' style='font-size:14px'>"
            f"{html.escape(UI['odds_words'].format(odds=words))}</div>")
