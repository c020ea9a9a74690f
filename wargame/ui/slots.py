"""A column of text panes and buttons that keeps its Bokeh models across refreshes (issue #31).

Replacing a Panel layout's children (``column[:] = items``) makes Bokeh recompute every model
of the page's document (``Document.models.recompute`` walks them all). On a Memoir seat page
that was about 0.25 s of the server's one thread for each played card or battle, twice (the
acting seat and the other seat), so with 15 rooms acting at once the last room's other seat
waited over a second (``bench/rooms.py``). Here each place of the column holds one HTML pane
and one button, made once: a refresh only sets their text, label and visibility (property
patches), and the column's children change only when it needs more places than it ever had.

A place's parts are shown and hidden by their ``styles`` (``display: none``), not their
``visible``: Bokeh lays the whole page out again in the browser for every change of a layout
model's ``visible`` (or ``margin``), and a Memoir seat's page whose turn comes shows about ten
buttons at once (issue #31: 0.3-0.7 s of the other page applying that update in
``bench/rooms.py``, rounds 4 and 8). ``is_shown`` says whether a part is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape as html_escape
from typing import Any

import panel as pn

__all__ = ["Slot", "SlotColumn", "is_shown"]

HIDDEN = {"display": "none"}


def is_shown(part: Any) -> bool:
    """Whether a place's part (pane or button) is shown (module doc)."""
    return bool(part.visible) and part.styles.get("display") != "none"


def _show(part: Any, shown: bool) -> None:
    if is_shown(part) != shown:
        part.styles = {"display": ""} if shown else dict(HIDDEN)  # "": the page's own


@dataclass(frozen=True)
class Slot:
    """One place of a ``SlotColumn``: a button with ``label`` that hands ``payload`` to the
    column's ``on_click``, above ``html`` shown as text; either may be None. Keep a thing in the
    same place from one refresh to the next (a card's text in its card's place, its play button
    beside it) so that a refresh only changes what changed."""

    html: str | None = None
    label: str | None = None
    payload: Any = None
    margin: tuple[int, int] = (5, 10)
    color: str = "default"


class SlotColumn(pn.viewable.Viewer):
    """A ``pn.Column`` showing a list of ``Slot`` (module doc). ``on_click(payload)`` runs when a
    button is pressed, with the payload its place holds now. ``places``: how many places to
    make at the start (enough for what the page usually shows). ``buttons=False`` for a viewer
    who never acts (the teacher, issue #27): its places hold no button at all, hidden or not,
    and a slot with a label is shown as text."""

    def __init__(self, on_click: Callable[[Any], Any], *, places: int = 0, buttons: bool = True,
                 button_width: int = 360, button_style: Sequence[str] = (),
                 button_classes: Sequence[str] = (), **column_params: Any) -> None:
        super().__init__()
        self._on_click = on_click
        self._buttons = buttons
        self._button_width = button_width
        # the buttons' own stylesheets and classes (the Memoir hand's play buttons, issue #32)
        self._button_style = list(button_style)
        self._button_classes = list(button_classes)
        # ``places`` made at once, hidden: a page that never needs more never recomputes
        self._places = [self._new_place(i) for i in range(places)]
        self._payloads: list[Any] = []
        self.column = pn.Column(*self._parts(), **column_params)

    def _new_place(self, index: int) -> tuple[pn.widgets.Button | None, pn.pane.HTML]:
        text = pn.pane.HTML("", styles=dict(HIDDEN))
        if not self._buttons:
            return None, text
        button = pn.widgets.Button(label="", width=self._button_width, styles=dict(HIDDEN),
                                   stylesheets=list(self._button_style),
                                   css_classes=list(self._button_classes))
        button.on_click(lambda _event, i=index: self._clicked(i))
        return button, text

    def _clicked(self, index: int) -> None:
        button = self._places[index][0]
        if index < len(self._payloads) and button is not None and is_shown(button):
            self._on_click(self._payloads[index])

    def show(self, slots: Sequence[Slot]) -> None:
        """Show ``slots`` in order; places beyond them are hidden."""
        grew = len(slots) > len(self._places)
        while len(self._places) < len(slots):
            self._places.append(self._new_place(len(self._places)))
        self._payloads = [slot.payload for slot in slots]
        for i, (button, text) in enumerate(self._places):
            slot = slots[i] if i < len(slots) else None
            label = None if slot is None else slot.label
            html = None if slot is None else slot.html
            if label is not None and button is None:  # a viewer with no buttons: words
                html = html_escape(label) + (f"<br>{html}" if html else "")
                label = None
            # a hidden part keeps no text: nothing stale stays in the page (issue #27)
            if text.object != (html or ""):
                text.object = html or ""
            if slot is not None and html is not None and text.margin != slot.margin:
                text.margin = slot.margin
            _show(text, html is not None)
            if button is not None:
                if button.label != (label or ""):
                    button.label = label or ""
                if slot is not None and label is not None and button.color != slot.color:
                    button.color = slot.color
                _show(button, label is not None)
        if grew:
            self.column[:] = self._parts()

    def _parts(self) -> list[Any]:
        return [part for place in self._places for part in place if part is not None]

    @property
    def shown(self) -> list[Any]:
        """The panes and buttons visible now, in order (for tests and pages)."""
        return [part for part in self._parts() if is_shown(part)]

    def __panel__(self) -> pn.Column:
        return self.column
