"""The SQLite writer's short way: the live journal's operations as prepared statements on
the writer thread's driver connection, inside its transaction.

Through the ORM each operation of a whole game (room created, four seat changes, game
started, game finished) cost a session execution per statement, a compilation cache
lookup, ORM execution state and a look-up of the room's row; on a busy server that was
most of the writer thread's CPU per action. Here each statement is text built once that
sqlite3 keeps prepared, the rows come from the builders the store uses too
(server.db.rows) through the columns' bind processors (rawinsert.Binder), and rows go in
one VALUES list, so a statement is stepped once (see _insert_many).

Only the case without surprises goes this way: a room this writer knows to be unfinished
(its id cached in `open_rooms`), a row that is new. Anything else (a code already taken,
a game saved already, a row there already, an unknown room, talk after the game was
saved, abandon, fencing) is
handed to the ORM path (`ops.apply_ops`, the store) in the same transaction, which
applies it, checks it or refuses it exactly as before; so do replays.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Hashable, Sequence
from functools import partial
from typing import Any

from sqlalchemy import Table
from sqlalchemy.engine import Dialect

from . import ops, ratings
from .models import UNFINISHED, WAITING, Base, Game, GamePlayer, Room, RoomSeat, RoomTalk
from .rawinsert import JOURNAL, Binder
from .records import SeatRecord
from .rows import (
    finished_status,
    game_values,
    journal_values,
    player_values,
    room_values,
    seat_values,
    start_values,
    talk_values,
)

ROOMS, SEATS, GAMES, PLAYERS, TALK = (
    Base.metadata.tables[model.__tablename__]
    for model in (Room, RoomSeat, Game, GamePlayer, RoomTalk)
)
_UNFINISHED = ", ".join(f"'{status}'" for status in UNFINISHED)
_SEAT_KEY = ("room_id", "seat")
_HOST_SEAT = "UPDATE rooms SET host_seat = ? WHERE id = ?"
_CLOSE_ROOM = ("UPDATE rooms SET status = ?, finished_at = ? WHERE code = ? "
               f"AND status IN ({_UNFINISHED})")
_DROP_ROOM_ROWS = tuple(f"DELETE FROM {table} WHERE room_id = "
                        "(SELECT id FROM rooms WHERE code = ?)"
                        for table in ("journal", "room_talk"))


def _insert_one(table: Table, columns: Sequence[str], suffix: str) -> str:
    """A one-row insert (VALUES) of these columns."""
    marks = ", ".join("?" for _ in columns)
    return f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({marks}) {suffix}"


CHUNK = 64  # rows per statement: the statements of 1..CHUNK rows all stay prepared


def _insert_many(table: Table, columns: Sequence[str], count: int, suffix: str) -> str:
    """An insert of `count` rows in one VALUES list: SQLite steps it once, binding each
    value in C. (An executemany steps a statement once per row, and the driver lets go of
    the GIL at each step: on a busy server the writer's thread then waited up to the
    interpreter's switch interval, 5 ms, per row. Rows passed as one JSON array cost a
    JSON parse per column and row, twice the time of the whole insert here.)"""
    row = f"({', '.join('?' for _ in columns)})"
    return (f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES "
            f"{', '.join(row for _ in range(count))} {suffix}")


class SqliteShortWay:
    """One per writer connection; statements are built on first use, for the columns the
    row builders give (server.db.rows: a column added there cannot be left out here)."""

    def __init__(self, dialect: Dialect) -> None:
        self.bind = Binder(dialect)
        self._sql: dict[tuple[Hashable, ...], str] = {}
        self._ways: dict[str, Callable[[sqlite3.Connection, ops.Op, dict[str, int]], bool]] = {
            "room_created": self.room_created, "seats_changed": self.seats_changed,
            "room_started": self.room_started, "game_finished": self.game_finished,
            "talk": self.talk,
        }

    def write(self, db: sqlite3.Connection, batch: Sequence[ops.Op],
              open_rooms: dict[str, int],
              long_way: Callable[[Sequence[ops.Op]], None]) -> None:
        """Apply a live batch in order: each operation, or run of actions, the short way
        when it can go, else `long_way` (the ORM path, same transaction)."""
        i = 0
        while i < len(batch):
            kind, end = batch[i]["op"], i + 1
            if kind == "action":
                while end < len(batch) and batch[end]["op"] == "action":
                    end += 1
                done = self.actions(db, batch[i:end], open_rooms)
            else:
                way = self._ways.get(kind)
                done = way is not None and way(db, batch[i], open_rooms)
            if not done:
                long_way(batch[i:end])
            i = end

    def _statement(self, key: tuple[Hashable, ...], build: Callable[[], str]) -> str:
        """The statement text for `key`, built once (sqlite3 keeps it prepared)."""
        sql = self._sql.get(key)
        if sql is None:
            sql = self._sql[key] = build()
        return sql

    # --- the operations ----------------------------------------------------------------
    # Each returns True once applied, or False when its operation is not for the short way,
    # having changed nothing (but see `actions`).

    def actions(self, db: sqlite3.Connection, run: Sequence[ops.Op],
                open_rooms: dict[str, int]) -> bool:
        """A run of actions of rooms known unfinished, one statement per CHUNK rows. False
        when a room is not known (nothing changed), or when a row was there already: the
        new rows are in then, and the ORM path, given the whole run, finds them identical
        to its own and checks the others against what is stored."""
        values = []
        for op in run:
            room_id = open_rooms.get(op["code"])
            if room_id is None:
                return False
            values.append(journal_values(room_id, ops.action_record(op)))
        rows = self.bind.rows(JOURNAL, values)
        inserted = self._insert_rows(db, "journal", JOURNAL, rows, tuple(values[0]),
                                     "ON CONFLICT (room_id, seq) DO NOTHING")
        return inserted == len(values)

    def _insert_rows(self, db: sqlite3.Connection, name: str, table: Table,
                     rows: list[tuple[Any, ...]], columns: tuple[str, ...],
                     suffix: str = "") -> int:
        """Rows inserted CHUNK at a time; returns how many went in."""
        inserted = 0
        for start in range(0, len(rows), CHUNK):
            chunk = rows[start:start + CHUNK]
            sql = self._statement((name, columns, len(chunk)),
                                  partial(_insert_many, table, columns, len(chunk), suffix))
            inserted += db.execute(sql, [v for row in chunk for v in row]).rowcount
        return inserted

    def room_created(self, db: sqlite3.Connection, op: ops.Op,
                     open_rooms: dict[str, int]) -> bool:
        """A new code: the room and its seats. (A code there already: the ORM path says
        whether it is the same room again or a conflict.)"""
        room = ops.new_room(op)
        values = room_values(room, op.get("epoch", 0))
        sql = self._statement(("room", tuple(values)), lambda: _insert_one(
            ROOMS, tuple(values), "ON CONFLICT (code) DO NOTHING RETURNING id"))
        created = db.execute(sql, self.bind.row(ROOMS, values)).fetchall()
        if not created:
            return False
        room_id = created[0][0]
        if room.seats:
            self._set_seats(db, room_id, room.seats, remove_others=False)
        open_rooms[room.code] = room_id
        return True

    def seats_changed(self, db: sqlite3.Connection, op: ops.Op,
                      open_rooms: dict[str, int]) -> bool:
        """store.set_seats: the host seat, the seats not listed removed, the others set."""
        room_id = open_rooms.get(op["code"])
        if room_id is None:
            return False
        db.execute(_HOST_SEAT, (op.get("host_seat"), room_id))
        self._set_seats(db, room_id, ops.seat_records(op["seats"]), remove_others=True)
        return True

    def _set_seats(self, db: sqlite3.Connection, room_id: int,
                   seats: Sequence[SeatRecord], *, remove_others: bool) -> None:
        """Seat rows (server.db.rows) inserted, or their other columns replaced; with
        `remove_others`, the room's seats not among them deleted."""
        values = seat_values(room_id, seats)
        if remove_others:
            kept = [s.seat for s in seats]
            db.execute(self._statement(("other seats", len(kept)), lambda: (
                "DELETE FROM room_seats WHERE room_id = ? AND seat NOT IN "
                f"({', '.join('?' for _ in kept)})")), (room_id, *kept))
        if not values:
            return
        columns = tuple(values[0])
        update = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in _SEAT_KEY)
        self._insert_rows(db, "seats", SEATS, self.bind.rows(SEATS, values), columns,
                          f"ON CONFLICT ({', '.join(_SEAT_KEY)}) DO UPDATE SET {update}")

    def room_started(self, db: sqlite3.Connection, op: ops.Op,
                     open_rooms: dict[str, int]) -> bool:
        """store.start_room: a waiting room starts, with its final options and seed."""
        room_id = open_rooms.get(op["code"])
        if room_id is None:
            return False
        values = start_values(op["options"], op["seed"], ops.started_at(op))
        sql = self._statement(("start", tuple(values)), lambda: (
            f"UPDATE rooms SET {', '.join(f'{c} = ?' for c in values)} "
            "WHERE id = ? AND status = ?"))
        db.execute(sql, (*self.bind.row(ROOMS, values), room_id, WAITING))
        return True

    def game_finished(self, db: sqlite3.Connection, op: ops.Op,
                      open_rooms: dict[str, int]) -> bool:
        """store.save_finished_game: the game and its players, the room closed, its journal
        and talk rows dropped. (A game saved already: the ORM path leaves it as it is; a
        rated game goes that way too, rated in the same transaction.)"""
        game = ops.finished_game(op)
        if ratings.is_rated(game):
            return False
        values = game_values(game)
        sql = self._statement(("game", tuple(values)), lambda: _insert_one(
            GAMES, tuple(values), "ON CONFLICT (room_code) DO NOTHING RETURNING id"))
        saved = db.execute(sql, self.bind.row(GAMES, values)).fetchall()
        if not saved:
            return False
        players = player_values(saved[0][0], game)
        if players:
            self._insert_rows(db, "players", PLAYERS, self.bind.rows(PLAYERS, players),
                              tuple(players[0]))
        closed = {"status": finished_status(game), "finished_at": game.ended_at}
        db.execute(_CLOSE_ROOM, (*self.bind.row(ROOMS, closed), game.room_code))
        for sql in _DROP_ROOM_ROWS:
            db.execute(sql, (game.room_code,))
        open_rooms.pop(game.room_code, None)
        return True

    def talk(self, db: sqlite3.Connection, op: ops.Op, open_rooms: dict[str, int]) -> bool:
        """store.append_talk for a room known unfinished: a chat line or a timeout (a number
        there already stays as it is), the clock checkpoint (n = 0) replaced. Chat comes
        in crowds: through the ORM each line cost the writer a session execution and a
        look-up of its room, in the transaction an action waits on."""
        room_id = open_rooms.get(op["code"])
        if room_id is None:
            return False
        values = talk_values(room_id, op["item"], ops.talk_at(op))
        columns = tuple(values)
        clock = values["n"] == 0
        sql = self._statement(("talk", columns, clock), lambda: _insert_one(
            TALK, columns, "ON CONFLICT (room_id, n) DO " + (
                "UPDATE SET data = excluded.data, created_at = excluded.created_at"
                if clock else "NOTHING")))
        db.execute(sql, self.bind.row(TALK, values))
        return True
