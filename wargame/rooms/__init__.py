"""Rooms: one authoritative game per room, a seat per side and one for the teacher, every
action stored in SQLite before it is acknowledged (``wargame.rooms.room``, ``.db``).

A layer above the engines, saves and bots and below ``wargame.ui``: no Panel or Bokeh here.
"""

from wargame.rooms.db import (
    RoomsBusy,
    RoomsDamaged,
    RoomsDBError,
    RoomsDiskError,
    RoomsFull,
    RoomsServed,
)
from wargame.rooms.room import (
    PLAYER_SEATS,
    SEAT_NAMES,
    Change,
    GameOpener,
    Room,
    RoomManager,
    RoomSummary,
    Seat,
)

__all__ = [
    "SEAT_NAMES",
    "PLAYER_SEATS",
    "Seat",
    "Change",
    "Room",
    "RoomManager",
    "RoomSummary",
    "RoomsDBError",
    "RoomsBusy",
    "RoomsFull",
    "RoomsDamaged",
    "RoomsDiskError",
    "RoomsServed",
    "GameOpener",
]
