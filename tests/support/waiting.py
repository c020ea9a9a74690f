"""Acting in a browser page only once the page is ready for the action (issue 35): a button is
clicked when it is visible and enabled, the test then waits for what the click must bring (a
dialog, a phase, an action count), and a click the page did not take is clicked again. Nothing
here waits a fixed time and then acts "if visible": on a busy machine the fixed time is too
short, and the test races the page.

``click_until(page, button, done)`` is the general form: ``done`` is a locator that appears, or
a function of the page that becomes true. ``end_phase`` handles a button that may or may not
open a confirmation first. ``click_until_changed`` is for buttons whose effect is "something
changed" (an Auto answer to one decision): it compares a probe of the page before and after.
``settle`` waits for the layout to stop moving (two animation frames, and a box unchanged
between them) before a screenshot or a measurement."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

__all__ = ["click_ready", "click_until", "click_until_changed", "end_phase", "first_visible",
           "settle", "shown_text", "campaign_progress", "wait_until", "NotTaken"]

POLL_MS = 100
RETRY_AFTER_MS = 15000  # a click with no effect in 15 s on a loaded machine was not taken


class NotTaken(AssertionError):
    """The page never did what a click had to bring about, after every try."""


def _done(page: Any, done: Any) -> bool:
    if callable(done):
        return bool(done(page))
    return done.first.is_visible()  # a Locator


def wait_until(page: Any, done: Any, timeout: float = 30000) -> bool:
    """Poll ``done`` (a locator that becomes visible, or ``done(page)`` true) every 100 ms for
    at most ``timeout`` ms; True when it held. Polling lets playwright deliver the page's
    events in between (``page.wait_for_timeout``)."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        if _done(page, done):
            return True
        if time.monotonic() >= deadline:
            return False
        page.wait_for_timeout(POLL_MS)


def first_visible(page: Any, *locators: Any, timeout: float = 30000) -> int:
    """Index of the first of ``locators`` to be visible (waiting up to ``timeout`` ms)."""
    found: list[int] = []

    def any_visible(_page: Any) -> bool:
        for i, loc in enumerate(locators):
            if loc.first.is_visible():
                found.append(i)
                return True
        return False

    if not wait_until(page, any_visible, timeout):
        raise NotTaken(f"none of {locators} became visible within {timeout / 1000:.0f} s")
    return found[0]


def shown_text(locator: Any) -> str:
    """The text of the first element of ``locator`` if one is visible now, else '' (never
    waits: a probe for ``click_until_changed``). Its innerText: a Panel pane's host element
    (``.wg-decision-panel``) has its text in a shadow root, so name an element inside."""
    first = locator.first
    if not first.is_visible():
        return ""
    try:  # it may go between the two calls (the page re-renders): then nothing is shown
        return first.inner_text(timeout=1000)
    except PlaywrightTimeout:
        return ""


def campaign_progress(page: Any) -> tuple[str, int, str]:
    """What an answer or an action changes on a campaign dashboard: the decision asked, the
    number of event-log lines and the newest one (two decisions in a row may read the same)."""
    lines = page.locator(".wg-log li")
    return (shown_text(page.locator(".wg-decision")), lines.count(),
            shown_text(lines))


def click_ready(button: Any, timeout: float = 30000) -> None:
    """Click ``button`` once it is visible and enabled (playwright's actionability checks:
    attached, visible, stable, enabled, receiving events)."""
    button.first.wait_for(state="visible", timeout=timeout)
    button.first.click(timeout=timeout)


def click_until(page: Any, button: Any, done: Any, *, tries: int = 3,
                retry_after: float = RETRY_AFTER_MS, timeout: float = 30000,
                what: str = "") -> None:
    """Click ``button`` (when ready) until ``done`` holds: after each click wait up to
    ``retry_after`` ms for it, and click again (the page did not take the click: it was
    re-rendered under the pointer, or busy) while the button is still there. Call it only for
    clicks whose repetition cannot overshoot (``done`` checked before each retry)."""
    for attempt in range(tries):
        if attempt and _done(page, done):
            return
        if attempt and not button.first.is_visible():
            break
        try:
            click_ready(button, timeout)
        except Exception:
            # a retry blocked by what the first click opened (a dialog over the button)
            if attempt and wait_until(page, done, 0):
                return
            raise
        if wait_until(page, done, retry_after if attempt < tries - 1 else timeout):
            return
    raise NotTaken(f"{what or button} clicked {tries} times; the page never reached {done}")


def click_until_changed(page: Any, button: Any, probe: Callable[[Any], Any], *,
                        retry_after: float = RETRY_AFTER_MS, tries: int = 3) -> Any:
    """Click ``button`` once its effect is visible: ``probe(page)`` (e.g. the decision shown,
    the action count) differs from before the click. Returns the new value."""
    before = probe(page)
    click_until(page, button, lambda p: probe(p) != before, tries=tries,
                retry_after=retry_after, what=f"{button} (page at {before!r})")
    return probe(page)


def end_phase(page: Any, end: Any, confirm: Any, next_phase: Any,
              timeout: float = 30000) -> bool:
    """Click ``end`` and reach ``next_phase``: the dashboard may first ask to confirm (units
    that could still act); then ``confirm`` is clicked. True when it asked."""
    click_ready(end, timeout)
    if first_visible(page, next_phase, confirm, timeout=timeout) == 0:
        return False
    click_until(page, confirm, next_phase, timeout=timeout, what="the phase's confirmation")
    return True


_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def settle(page: Any, locator: Any = None, timeout: float = 10000,
           probe: Callable[[Any], Any] | None = None) -> Any:
    """Wait for two animation frames, and (with ``locator``) until its box, (with ``probe``)
    until ``probe(page)``, is the same after two more: a scroll, a fit-to-window or a re-layout
    has been drawn. Returns the probe's settled value (else None)."""
    page.evaluate(_FRAMES)
    if locator is None and probe is None:
        return None

    def look() -> Any:
        return (locator.first.bounding_box() if locator is not None else None,
                probe(page) if probe is not None else None)

    deadline = time.monotonic() + timeout / 1000
    last = look()
    while time.monotonic() < deadline:
        page.evaluate(_FRAMES)
        now = look()
        if now == last:
            return now[1]
        last = now
    raise NotTaken(f"{locator or probe} still changing after {timeout / 1000:.0f} s")
