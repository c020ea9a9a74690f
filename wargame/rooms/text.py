"""User-facing text of the rooms layer in one place (English now; a later issue moves every
table to gettext). Refusals keep their rule text ``"rooms"``."""

from __future__ import annotations

TEXT: dict[str, str] = {
    # refusals (SeatRefused / NotYourTurn / GameOver, rule "rooms")
    "unknown_token": "this link is not a seat of this room (unknown or mistyped token)",
    "spectator": "spectators cannot act: the teacher's link only watches",
    "computer_seat": "the computer holds the {seat} seat: its link cannot act",
    "moved_on": "the game moved on: {done} action(s) were played since your view (version "
                "{expected}, now {version}); refresh and try again",
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
    "db.corrupt": "a damaged SQLite file ({reason})",
    "db.foreign": "an SQLite database of something else (tables: {tables})",
    "db.version": "a wargame rooms database of schema version {version} or older (this one "
                  "was written by a newer wargame?)",
    "db.room": "a room that replays from its stored actions",
}
