"""``wargame rooms list|export|delete --db PATH``: the rooms of a rooms database
(wargame serve --rooms; wargame.rooms)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from wargame.cli.common import CommandFailed, UsageError, check_save_path, excerpt, print_json
from wargame.cli.text import HELP, ROOMS_TEXT
from wargame.i18n import language, using_language


def add_parser(sub: Any) -> None:
    rooms = sub.add_parser("rooms", help=ROOMS_TEXT["help"], description=ROOMS_TEXT["help"])
    rooms_sub = rooms.add_subparsers(dest="action", metavar="ACTION", required=True)
    r_list = rooms_sub.add_parser("list", help=ROOMS_TEXT["list"])
    r_list.add_argument("--json", action="store_true", help=HELP["json"])
    r_list.set_defaults(handler=cmd_rooms_list)
    r_export = rooms_sub.add_parser("export", help=ROOMS_TEXT["export"])
    r_export.add_argument("room_id", metavar="ROOM_ID", help=ROOMS_TEXT["room_id"])
    r_export.add_argument("file", metavar="FILE", help=ROOMS_TEXT["file"])
    r_export.set_defaults(handler=cmd_rooms_export)
    r_delete = rooms_sub.add_parser("delete", help=ROOMS_TEXT["delete"])
    r_delete.add_argument("room_id", metavar="ROOM_ID", help=ROOMS_TEXT["room_id"])
    r_delete.set_defaults(handler=cmd_rooms_delete)
    for p in (r_list, r_export, r_delete):
        p.add_argument("--db", required=True, metavar="PATH", help=ROOMS_TEXT["db"])


def rooms_opener(game_id: str, variants: tuple[str, ...]) -> Any:
    """Bundled games, and the dashboard's synthetic demo (it lives in wargame.ui)."""
    if game_id == "demo":
        from wargame.operational.state import Game
        from wargame.ui.demo import demo_scenario

        return Game(demo_scenario(), variants=variants)
    from wargame.games import open_game

    return open_game(game_id, variants)


def rooms_manager(path: str) -> Any:
    if not Path(path).exists():
        raise CommandFailed(ROOMS_TEXT["missing"].format(path=excerpt(path, 80)))
    from wargame.rooms import RoomManager

    # read_only: looking at a file never plays a computer's move in it nor writes it, and
    # works on a file a server holds (issue #31) or a read-only one. A FIFO or a device is
    # refused by its stat before it is opened (wargame.rooms.db.RoomsDB._check_file)
    return RoomManager(path, games=rooms_opener, read_only=True)


def rooms_save_path(text: str) -> Path:
    """``rooms export``'s FILE, checked as ``--save`` is, before the database is opened
    (a folder given as FILE was a traceback naming --save; issue #31)."""
    try:
        return check_save_path(text)
    except UsageError:
        try:
            folder = Path(text).is_dir()
        except OSError:
            folder = False
        key = "file_folder" if folder else "file_parent"
        raise UsageError(ROOMS_TEXT[key].format(path=excerpt(text))) from None


def cmd_rooms_list(args: argparse.Namespace, out: TextIO) -> int:
    import datetime

    from wargame.rooms.text import seat_word

    with rooms_manager(args.db) as manager:
        manager.load_all()  # every room replayed: whose turn it is, rooms that no longer load
        with using_language("en" if args.json else language()):  # JSON: one language
            rows = manager.rooms()
        unloaded = dict(manager.unloaded)
    if args.json:
        print_json({"rooms": [{**vars(r), "variants": list(r.variants)} for r in rows],
                     "unloaded": unloaded}, out)
        return 0
    if not rows and not unloaded:
        print(ROOMS_TEXT["none"].format(path=args.db), file=out)
        return 0
    print(ROOMS_TEXT["head"].format(
        id=ROOMS_TEXT["col.id"], code=ROOMS_TEXT["col.code"], game=ROOMS_TEXT["col.game"],
        actions=ROOMS_TEXT["col.actions"], created=ROOMS_TEXT["col.created"],
        status=ROOMS_TEXT["col.status"]), file=out)
    for r in rows:
        created = datetime.datetime.fromtimestamp(r.created, datetime.UTC)
        game = r.game_id + (f" +{','.join(r.variants)}" if r.variants else "")
        status = r.outcome or ROOMS_TEXT["to_act"].format(seat=seat_word(r.side_to_act))
        print(ROOMS_TEXT["row"].format(id=r.id, code=r.code, game=excerpt(game, 22),
                                       actions=r.version,
                                       created=created.strftime("%Y-%m-%d %H:%M"),
                                       status=status), file=out)
    for room_id, why in unloaded.items():
        print(ROOMS_TEXT["unloaded"].format(id=room_id, why=why), file=out)
    return 0


def cmd_rooms_export(args: argparse.Namespace, out: TextIO) -> int:
    from wargame.saves import save_game

    args.file = rooms_save_path(args.file)
    with rooms_manager(args.db) as manager:
        room = manager.get(args.room_id)
        if room is None:
            raise CommandFailed(ROOMS_TEXT["no_room"].format(room=excerpt(args.room_id),
                                                             path=args.db))
        state = room.state()
    save_game(state, args.file)
    print(ROOMS_TEXT.plural("exported", len(state.action_log)).format(room=room.id, actions=len(state.action_log),
                                        path=args.file), file=out)
    return 0


def cmd_rooms_delete(args: argparse.Namespace, out: TextIO) -> int:
    if not Path(args.db).exists():
        raise CommandFailed(ROOMS_TEXT["missing"].format(path=excerpt(args.db, 80)))
    from wargame.rooms.db import RoomsDB

    # no replay needed to mark a room deleted; exclusive: refused while a server holds the
    # file (it would go on serving the room), naming that server's process
    db = RoomsDB(args.db, exclusive=True)
    try:
        if not db.mark_deleted(args.room_id):
            raise CommandFailed(ROOMS_TEXT["no_room"].format(room=excerpt(args.room_id),
                                                             path=args.db))
    finally:
        db.close()
    print(ROOMS_TEXT["deleted"].format(room=args.room_id), file=out)
    return 0
