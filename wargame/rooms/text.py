"""User-facing text of the rooms layer in one place, a ``wargame.i18n.Catalogue`` (English
here, Portuguese in wargame/locale/pt/LC_MESSAGES/wargame.po; issue #16). A text is read when
it is shown, so a refusal comes in the language of the seat that acted (its page runs its
commands in its language: ``wargame.ui.store``). Refusals keep their rule text ``"rooms"``."""

from __future__ import annotations

from wargame.i18n import Catalogue

TEXT = Catalogue("rooms", {
    # refusals (SeatRefused / NotYourTurn / GameOver, rule "rooms")
    "unknown_token": "this link is not a seat of this room (unknown or mistyped token)",
    "spectator": "spectators cannot act: the teacher's link only watches",
    "computer_seat": "the computer holds the {seat} seat: its link cannot act",
    "ahead": "your page shows a later position (version {expected}) than the server holds "
             "(version {version}): the server was restarted from an older rooms file; reload "
             "the page",
    "not_your_turn": "it is not the {seat} seat's turn: the {other} must act now{pending}",
    "pending": " ({kind} decision, {rule})",
    "game_over": "the game is over",
    "deleted": "this room was deleted",
    "closed": "the rooms server is shutting down",
    "storage": "the action could not be stored ({reason}); nothing was played",
    # RoomManager.create arguments
    "computer_seat_name": "computer: a seat name 'allied' or 'axis', got {seat!r}",
    "computer_both": "computer: at least one seat must be a human's",
    "seed": "seed: a whole number from 0 to {high}, got {seed!r}",
    # summaries (RoomManager.rooms)
    "outcome_winner": "{winner} won ({reason})",
    "outcome_draw": "draw ({reason})",
    # the DB file (RoomsDBError, one line each)
    "db.expected": "a wargame rooms database (SQLite, schema version {version})",
    "db.not_sqlite": "not an SQLite database",
    "db.corrupt": "damaged: {reason}",
    # the file in use (wargame.rooms.db: RoomsBusy, RoomsFull, RoomsDamaged, RoomsDiskError,
    # RoomsServed; issue #31): each its own words, a seat's refusal without the file's name
    "db.busy": "the rooms file is busy in another program; try again",
    "db.full": "the disk of the rooms file is full; nothing was stored: free some space and "
               "try again",
    "db.damaged": "the rooms file is damaged ({reason}); nothing was stored: stop the server "
                  "and keep a copy of the file",
    "db.disk": "the rooms file could not be read or written ({reason}); nothing was stored",
    "db.served": "another wargame server uses this rooms file (process {pid}, lock file "
                 "{lock}); stop it first, or use another file",
    "db.not_regular": "a {kind}, not a regular file",
    "db.kind.fifo": "named pipe (FIFO)",
    "db.kind.socket": "socket",
    "db.kind.device": "device",
    "db.kind.other": "special file",
    "db.missing": "no such file",
    "db.closed": "an open rooms database (this one is closed)",
    "db.read_only": "it was opened read-only",
    "db.cannot_open": "a wargame rooms database this process may open and write",
    "db.foreign": "other tables: {tables}",
    "db.version": "a wargame rooms database of schema version {version} or older (this one "
                  "was written by a newer wargame?)",
    "db.room": "a room that replays from its stored actions",
    "db.folder": "a folder",
    "db.no_folder": "no folder {folder}",
    "db.missing_tables": "missing tables {tables}",
    "db.json": "JSON variants, options and seats",
    "db.not_json": "text that is not JSON",
    "db.shapes": "a list of variants, a mapping of options and of seats",
    "db.types": "a room's fields of the right types",
    "db.numbered": "actions numbered 0, 1, 2... (action {n} is missing)",
    "db.action_json": "an action as JSON",
    "db.seats": "the seats {seats}",
    "db.sides": "the sides {sides} of {game}",
    "state_at": "n: a number of actions from 0 to {version}, got {n!r}",
    "language": "lang: a seat's language, one of {languages}, got {lang!r}",
    "seat_name": "seat: one of {seats}, got {seat!r}",
    # the seats by name, in the sentences above and in ``wargame rooms list``
    "seat.allied": "allied",
    "seat.axis": "axis",
    "seat.teacher": "teacher",
}, plurals={
    # counted (wargame.i18n: Catalogue.plural): "1 action was played", "2 actions were played"
    "moved_on": ("the game moved on: {done} action was played since your view (version "
                 "{expected}, now {version}); refresh and try again",
                 "the game moved on: {done} actions were played since your view (version "
                 "{expected}, now {version}); refresh and try again"),
})


def seat_word(name: object) -> str:
    """A seat's name in the current language (``allied`` -> ``aliado``); anything else as
    it is (a game's own side name)."""
    key = f"seat.{name}"
    return TEXT[key] if key in TEXT else str(name)
