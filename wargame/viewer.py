"""Who is looking: a ``Viewer`` is a side (or none), a role and a language (issue #27).

Every page, widget, export and computer player that must not peek starts from a viewer: the
engines' ``state.view(viewer)`` gives everything that viewer may know and nothing else (the
idea of OpenSpiel's per-player observation and boardgame.io's ``playerView``), and the pages
ask the viewer, not the kind of page, what they may draw and do.

Roles:

- ``player``: one side's seat of a room. Knows its own side's secrets (its units' values,
  CN/OD 5.1.1; its Memoir hand), the other hand's size, nothing of the deck's order; acts for
  its side only.
- ``teacher``: the teacher's view of a room (the projector). Sees both sides' unit values; the
  Memoir hands only once the teacher shows them (``reveal``); acts for neither side.
- ``spectator``: public information only (no hidden values of either side, no hand); acts for
  neither side.
- ``solo``: one screen that owns the whole game (hot-seat, a notebook, against the computer):
  it may see and do everything, the seed included, as the owner of a board game may.

The seed and the dice's state never reach any viewer but ``solo``: with them and the action log
anyone replays the game and knows every die to come and the deck's order.

Pure: no UI imports. The words for the roles are the catalogues' (``wargame.ui.text``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["Viewer", "ROLES", "PLAYER", "TEACHER", "SPECTATOR", "SOLO"]

PLAYER, TEACHER, SPECTATOR, SOLO = "player", "teacher", "spectator", "solo"
ROLES = (PLAYER, TEACHER, SPECTATOR, SOLO)


@dataclass(frozen=True)
class Viewer:
    """One viewer of a game (module doc). ``side`` is the game's own side string (``allied``,
    ``axis``) for a player, None otherwise; ``reveal`` is the teacher's switch that shows
    the hands."""

    side: str | None = None
    role: str = SOLO
    lang: str | None = None
    reveal: bool = False
    student: bool = False
    """Student words (issue #28): results as sentences, jargon explained, no rule citation,
    seed or fingerprint; False: the expert's words. A property of the page, never of the
    stored events (``wargame.event_text.event_line``)."""

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"viewer role {self.role!r}: expected one of {', '.join(ROLES)}")
        if self.role == PLAYER and not self.side:
            raise ValueError("a player viewer needs its side")
        if self.role != PLAYER and self.side is not None:
            raise ValueError(f"a {self.role} viewer has no side (got {self.side!r})")

    # ------------------------------------------------------------------ makers
    @classmethod
    def player(cls, side: str, lang: str | None = None, student: bool = False) -> Viewer:
        return cls(side, PLAYER, lang, student=student)

    @classmethod
    def teacher(cls, lang: str | None = None, reveal: bool = False,
                student: bool = False) -> Viewer:
        return cls(None, TEACHER, lang, reveal, student)

    @classmethod
    def solo(cls, lang: str | None = None, student: bool = False) -> Viewer:
        return cls(None, SOLO, lang, student=student)

    def in_student_words(self, on: bool = True) -> Viewer:
        """This viewer reading student words (or the expert's again)."""
        return replace(self, student=bool(on))

    def revealing(self, on: bool = True) -> Viewer:
        """The teacher's viewer with the hands shown (or hidden again)."""
        return replace(self, reveal=bool(on))

    # ------------------------------------------------------------------ what it may know
    @property
    def sees_seed(self) -> bool:
        """Only the owner of the whole game (solo) may see the seed or the dice's state."""
        return self.role == SOLO

    def sees_values_of(self, side: str | None) -> bool:
        """The hidden values of ``side``'s units (CN/OD 5.1.1): a player its own, the teacher
        and solo both, a spectator none."""
        if self.role in (SOLO, TEACHER):
            return True
        return self.role == PLAYER and side == self.side

    def sees_hand_of(self, side: str | None) -> bool:
        """``side``'s Memoir hand (M44 set-up step 10: held so that the opponent does not see
        it): a player its own, the teacher once revealed, solo both (the dashboard still shows
        only the acting side's on a hot-seat screen), a spectator none."""
        if self.role == SOLO:
            return True
        if self.role == TEACHER:
            return self.reveal
        return self.role == PLAYER and side == self.side

    # ------------------------------------------------------------------ what it may do
    def may_act_for(self, side: str | None) -> bool:
        """A player for its side; solo for either; the teacher and a spectator for none."""
        if self.role == SOLO:
            return side is not None
        return self.role == PLAYER and side == self.side

    @property
    def acts(self) -> bool:
        """True when this viewer may ever act (so its page draws game controls)."""
        return self.role in (PLAYER, SOLO)

    @property
    def may_save(self) -> bool:
        """A save file holds the seed and the whole log: only the game's owner (solo) gets
        one from its page; a room's record is exported from the teacher's key-protected page."""
        return self.role == SOLO
