"""The campaign dashboard in Portuguese in a real browser (issue #16): ``?lang=pt`` serves a
page with no English text of the dashboard's catalogues, before and after a scripted piece of
turn 0 (select a unit, see where it may go, end the movement phase). The English values
checked are those that differ from their Portuguese; the engine's event log, the scenario's
history texts and the variant rules' descriptions are data still in English (their own
catalogues come later) and are left out of the page text read here."""

from __future__ import annotations

import re

from wargame import i18n
from wargame.operational.state import Game
from wargame.ui.browser import click_hex, wait_for_map

SEED = 1944
DOMAINS = ("ui", "ui.campaign", "ui.legend", "ui.phase_help", "ui.phases", "ui.status",
           "ui.results", "ui.unit_types", "ui.sides")
# every text node of the page, shadow roots included, but not the English data named above
PAGE_TEXT = """() => {
  const out = [];
  const skip = (el) => el.matches && el.matches('.wg-log, .wg-history-text, .wg-variant-help');
  const walk = (n) => {
    if (n.nodeType === 3) { const t = n.textContent.trim(); if (t) out.push(t); return; }
    if (n.nodeType !== 1 && n.nodeType !== 11) return;
    if (n.nodeType === 1) {
      if (['STYLE', 'SCRIPT'].includes(n.tagName) || skip(n)) return;
      if (n.placeholder) out.push(n.placeholder);
      if (n.shadowRoot) walk(n.shadowRoot);
    }
    for (const c of n.childNodes) walk(c);
  };
  walk(document.body);
  return out;
}"""


def english_texts() -> list[tuple[str, str]]:
    """(catalogue key, English fragment) of every message whose Portuguese differs: the
    literal parts between placeholders and HTML tags, of 3 letters or more."""
    i18n.load_catalogues()
    found = []
    for domain in DOMAINS:
        cat = i18n.CATALOGUES[domain]
        with i18n.using_language("pt"):
            portuguese = {k: cat[k] for k in cat}
        for key, english in cat.english.items():
            if portuguese[key] == english:
                continue
            for part in re.split(r"\{[^}]*\}|<[^>]*>|&rarr;", english):
                part = part.strip(" .,:;()")
                if len(re.sub(r"[^A-Za-z]", "", part)) >= 3 and part not in portuguese[key]:
                    found.append((f"{domain}:{key}", part))
    return found


def english_on(page) -> list[tuple[str, str]]:
    nodes = page.evaluate(PAGE_TEXT)
    text = "\n".join(nodes)
    whole = set(nodes)
    bad = []
    for key, part in english_texts():
        # one word: a whole label or cell; several words: anywhere in the page's text
        if (" " in part and re.search(rf"(?<![A-Za-z]){re.escape(part)}(?![A-Za-z])", text)) \
                or part in whole:
            bad.append((key, part))
    return bad


def test_the_dashboard_in_portuguese_shows_no_english_of_its_catalogues(dashboard_server,
                                                                          wg_page):
    page = wg_page
    page.goto(f"{dashboard_server}?scenario=normandy&seed={SEED}&lang=pt")
    wait_for_map(page, timeout=60000)
    page.locator(".wg-phase").filter(has_text="Fase de Movimentação Aliada").wait_for()
    assert english_on(page) == []
    state = Game("normandy").new_state(SEED)
    mover = next(a.unit for a in state.legal_actions() if getattr(a, "kind", "") == "move")
    where = state.units[mover].hex
    for _ in range(len(state.units_at(where))):  # the stack's top counter first: cycle to ours
        click_hex(page, where.id)
        if page.locator(".wg-unit").filter(has_text=state.game.units[mover].name).count():
            break
    page.locator(".wg-unit").filter(has_text="pontos de movimentação").first.wait_for()
    assert english_on(page) == []
    page.get_by_role("button", name="Terminar fase").click()
    confirm = page.get_by_role("button", name="Terminar a fase mesmo assim")
    page.wait_for_timeout(1500)
    if confirm.is_visible():
        confirm.click()
    page.locator(".wg-phase").filter(has_text="Fase de Combate Aliada").wait_for(timeout=30000)
    assert english_on(page) == []
