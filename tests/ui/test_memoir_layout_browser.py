"""Issue #15: the Memoir '44 dashboard on a classroom projector (1280x720, and 1920x1080), as
the campaign's (test_projector_browser.py): no horizontal scroll; the whole board, the acting
side's hand of cards and the action buttons (End, Undo, Auto) in the window at once, without
scrolling. Issue #32: the hand's play buttons look like buttons (a border, a background of their
own, a pointer, a hover), not like the cards' headings."""

from __future__ import annotations

import pytest

from tests.support.browser import _FIND, wait_for_map
from tests.support.waiting import settle

MAP = "memoir-map"
SIZES = [(1280, 720), (1920, 1080)]


def _in_window(page, box) -> bool:
    w, h = page.evaluate("() => [window.innerWidth, window.innerHeight]")
    return bool(box) and box["x"] >= -1 and box["y"] >= -1 and \
        box["x"] + box["width"] <= w + 1 and box["y"] + box["height"] <= h + 1


def _board_box(page) -> dict:
    """The board as drawn: the figure's frame (the hexes' area) on the page."""
    return page.evaluate(
        f"""() => {{ const find = {_FIND}; const v = Bokeh.index.find_one(find('{MAP}'));
            const r = v.canvas_view.el.getBoundingClientRect(), f = v.frame.bbox;
            return {{x: r.x + f.left, y: r.y + f.top, width: f.width, height: f.height}}; }}""")


WHITE, TRANSPARENT = "rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"


def _style(locator) -> dict:
    """The computed style of an element that tells a button from a heading."""
    return locator.evaluate(
        """el => { const s = getComputedStyle(el); return {cursor: s.cursor,
            borderTopWidth: s.borderTopWidth, borderTopStyle: s.borderTopStyle,
            borderTopColor: s.borderTopColor, backgroundColor: s.backgroundColor}; }""")


@pytest.mark.parametrize("size", SIZES, ids=["1280x720", "1920x1080"])
def test_memoir_on_a_projector(dashboard_server, wg_browser, size):
    width, height = size
    context = wg_browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        page.goto(f"{dashboard_server}?scenario=memoir44-1&seed=44")
        wait_for_map(page, MAP, timeout=60000)
        page.get_by_text("ALLIES to act").first.wait_for()
        hand = page.locator(".m44-hand")
        hand.locator("button:visible").first.wait_for()  # the playable cards (hidden places too)
        settle(page, hand)
        page.screenshot(path=f"test-artifacts/memoir-projector-{width}.png")
        assert page.evaluate(
            "() => document.scrollingElement.scrollWidth <= window.innerWidth")
        assert _in_window(page, _board_box(page)), _board_box(page)
        assert _in_window(page, hand.bounding_box()), hand.bounding_box()
        for name in ("Undo", "Auto"):
            button = page.locator(".m44-controls").get_by_role("button", name=name)
            assert _in_window(page, button.bounding_box()), (name, button.bounding_box())
        end = page.locator(".m44-controls button").first
        assert _in_window(page, end.bounding_box()), end.bounding_box()
        # issue #32: a play button is drawn as a button
        play = hand.locator("button:visible").first
        style = _style(play)
        page_bg = page.evaluate(
            "() => getComputedStyle(document.body).backgroundColor")
        assert style["cursor"] == "pointer", style
        assert float(style["borderTopWidth"].rstrip("px")) >= 1.0, style
        assert style["borderTopStyle"] != "none", style
        assert style["borderTopColor"] not in (style["backgroundColor"], TRANSPARENT), style
        assert style["backgroundColor"] not in (page_bg, WHITE, TRANSPARENT), (style, page_bg)
        play.hover()
        hovered = page.wait_for_function(
            "([el, bg]) => getComputedStyle(el).backgroundColor !== bg && "
            "getComputedStyle(el).backgroundColor", arg=[play.element_handle(),
                                                         style["backgroundColor"]])
        assert hovered.json_value() not in (WHITE, TRANSPARENT)
        # its name is the card's title as before (the rooms' tests click it by that name)
        title = play.inner_text().strip()
        assert title and hand.get_by_role("button", name=title, exact=True).count() >= 1
        page.screenshot(path=f"test-artifacts/memoir-play-buttons-{width}.png",
                        clip=hand.bounding_box())
    finally:
        context.close()
