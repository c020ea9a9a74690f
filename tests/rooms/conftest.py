"""Fixtures of the rooms tests: a manager on a fresh SQLite file."""

from __future__ import annotations

import pytest

from tests.rooms.roomkit import opener
from wargame.rooms import RoomManager


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "rooms.sqlite"


@pytest.fixture
def manager(db_path):
    m = RoomManager(db_path, games=opener)
    yield m
    m.close()
