"""Small query functions. Each takes an AsyncSession; the caller owns the transaction.

The writes are idempotent (insert-or-ignore on natural keys, guarded status changes), so
replaying a journal twice, in order, leaves the same rows as replaying it once.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    String,
    Text,
    cast,
    delete,
    exists,
    func,
    not_,
    select,
    text,
    tuple_,
    type_coerce,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import load_only, selectinload

from . import ratings, rawinsert
from .models import (
    ABANDONED,
    FINISHED,
    UNFINISHED,
    WAITING,
    Account,
    Game,
    GamePlayer,
    JournalEntry,
    Room,
    RoomSeat,
    RoomTalk,
)
from .records import (
    ActionRecord,
    Fenced,
    FinishedGame,
    GameDetail,
    GamePage,
    GameSummary,
    JournalConflict,
    NewRoom,
    PlayerResult,
    SeatRecord,
    UnfinishedRoom,
    UnknownRoom,
)
from .rows import (
    finished_status,
    game_values,
    journal_values,
    name_key,
    plain_json,
    player_values,
    room_values,
    seat_values,
    start_values,
    talk_values,
)

MAX_PER_PAGE = 100
# A write that locks what the journal writes, and changes nothing: on SQLite it needs the
# write lock another process may hold, so it tells whether a write would go through.
WRITE_PROBE = "UPDATE rooms SET status = status WHERE 1 = 0"


def hash_token(token: str) -> str:
    """Seat and host tokens are high-entropy secrets: a plain sha256 is enough to store them."""
    return hashlib.sha256(token.encode()).hexdigest()


def _insert(session: AsyncSession, model: type) -> Any:
    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(model)


async def _room(session: AsyncSession, code: str) -> tuple[int, str]:
    row = (await session.execute(select(Room.id, Room.status).where(Room.code == code))).first()
    if row is None:
        raise UnknownRoom(code)
    return row.id, row.status


# --- rooms -------------------------------------------------------------------------------


async def create_room(session: AsyncSession, room: NewRoom, owner_epoch: int = 0) -> None:
    """Insert a waiting room and its seats. Creating it again with the same host is a no-op;
    a different host means the code is taken (JournalConflict)."""
    stmt = (
        _insert(session, Room)
        .values(**room_values(room, owner_epoch))
        .on_conflict_do_nothing(index_elements=["code"])
        .returning(Room.id)
    )
    room_id = (await session.execute(stmt)).scalar()
    if room_id is None:
        host = await session.scalar(select(Room.host_token_hash).where(Room.code == room.code))
        if host != room.host_token_hash:
            raise JournalConflict(f"room code {room.code} is already taken")
        return
    if room.seats:
        await _upsert_seats(session, room_id, room.seats)


async def set_seats(
    session: AsyncSession, code: str, seats: Iterable[SeatRecord], host_seat: int | None = None
) -> None:
    """Replace the seats (seats not listed are removed) and host seat of an unfinished room."""
    room_id, status = await _room(session, code)
    if status not in UNFINISHED:
        return
    await session.execute(update(Room).where(Room.id == room_id).values(host_seat=host_seat))
    seats = tuple(seats)
    await session.execute(
        delete(RoomSeat).where(
            RoomSeat.room_id == room_id, RoomSeat.seat.not_in([s.seat for s in seats])
        )
    )
    if seats:
        await _upsert_seats(session, room_id, seats)


async def _upsert_seats(session: AsyncSession, room_id: int, seats: Sequence[SeatRecord]) -> None:
    connection = await session.connection()
    await connection.execute(_seat_upsert(session.get_bind().dialect.name),
                             seat_values(room_id, seats))


_SEAT_UPSERTS: dict[str, Any] = {}


def _seat_upsert(dialect: str) -> Any:
    """The seats' upsert, built once per dialect: every `.excluded` makes a new alias of the
    table whose objects form reference cycles, garbage the server's lazy collector would
    keep for hours (about 20 KB per game), and a statement built anew is compiled anew."""
    stmt = _SEAT_UPSERTS.get(dialect)
    if stmt is None:
        insert = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(RoomSeat)
        stmt = _SEAT_UPSERTS[dialect] = insert.on_conflict_do_update(
            index_elements=["room_id", "seat"],
            set_={"name": insert.excluded.name, "bot": insert.excluded.bot,
                  "token_hash": insert.excluded.token_hash,
                  "account_id": insert.excluded.account_id},
        )
    return stmt


async def start_room(
    session: AsyncSession, code: str, *, options: dict[str, Any], seed: int, started_at: datetime
) -> None:
    """A waiting room starts its game (the options and seed are final from now on)."""
    await _room(session, code)
    await session.execute(
        update(Room)
        .where(Room.code == code, Room.status == WAITING)
        .values(**start_values(options, seed, started_at))
    )


async def abandon_room(session: AsyncSession, code: str, at: datetime) -> None:
    """An unfinished room closes without a result: it is no longer rebuilt at start-up."""
    room_id, status = await _room(session, code)
    if status in UNFINISHED:
        await session.execute(
            update(Room).where(Room.id == room_id).values(status=ABANDONED, finished_at=at)
        )
    await session.execute(delete(JournalEntry).where(JournalEntry.room_id == room_id))
    await session.execute(delete(RoomTalk).where(RoomTalk.room_id == room_id))


# --- talk (chat, clock) --------------------------------------------------------------------


async def append_talk(session: AsyncSession, code: str, item: dict[str, Any], at: datetime) -> None:
    """Keep one talk item. In an unfinished room: a row (n = 0, the clock checkpoint, is
    replaced; another n already there is left as it is). After the game was saved (a "gg"
    after the end), chat goes into the game's talk, once. Otherwise it is dropped."""
    room_id, status = await _room(session, code)
    n = int(item["n"])
    if status in UNFINISHED:
        stmt = _insert(session, RoomTalk).values(talk_values(room_id, item, at))
        if n == 0:
            stmt = stmt.on_conflict_do_update(
                index_elements=["room_id", "n"],
                set_={"data": stmt.excluded.data, "created_at": stmt.excluded.created_at},
            )
        else:
            stmt = stmt.on_conflict_do_nothing(index_elements=["room_id", "n"])
        await session.execute(stmt)
    elif status == FINISHED and n > 0:
        game = await session.scalar(select(Game).where(Game.room_code == code))
        if game is not None and all(t.get("n") != n for t in game.talk):
            game.talk = [*game.talk, plain_json(item)]
            await session.flush()


# --- the journal -------------------------------------------------------------------------


async def append_actions(
    session: AsyncSession, actions: Sequence[ActionRecord], *, replaying: bool = False,
    open_rooms: dict[str, int] | None = None,
) -> None:
    """Insert journal rows; a row already there with the same content is skipped, one with
    different content raises JournalConflict. Actions for a room that is no longer
    unfinished raise UnknownRoom, except when `replaying` (they are in `games` already).

    `open_rooms`: the ids of rooms the caller knows to be unfinished (its own writes are
    the only ones that change a room's status), to skip looking them up; the rooms looked
    up and found unfinished are added to it."""
    if not actions:
        return
    known = open_rooms if open_rooms is not None else {}
    missing = {a.room_code for a in actions if a.room_code not in known}
    rooms: dict[str, tuple[int, str]] = {}
    if missing:
        for row in await session.execute(
            select(Room.code, Room.id, Room.status).where(Room.code.in_(missing))
        ):
            rooms[row.code] = (row.id, row.status)
            if row.status in UNFINISHED:
                known[row.code] = row.id
    values = []
    for a in actions:
        room_id = known.get(a.room_code)
        if room_id is None:
            room = rooms.get(a.room_code)
            if room is None:
                raise UnknownRoom(a.room_code)
            if replaying:
                continue
            raise UnknownRoom(f"{a.room_code} is {room[1]}")
        values.append(journal_values(room_id, a))
    if not values:
        return
    connection = await session.connection()
    # The live writer's batches (not replays) go the short way when they can.
    if not replaying and rawinsert.unnest_applies(connection) and await rawinsert.insert_unnest(
        connection, values
    ):
        return
    # One single-row statement run over every row ("insertmanyvalues"): compiled once and
    # cached, where a multi-row VALUES statement would be compiled anew for each batch size.
    stmt = (
        _insert(session, JournalEntry)
        .on_conflict_do_nothing(index_elements=["room_id", "seq"])
        .returning(JournalEntry.room_id, JournalEntry.seq)
    )
    inserted = {tuple(row) for row in await connection.execute(stmt, values)}
    # Rows not inserted were there already (or twice in this batch): they must be identical.
    skipped: list[dict[str, Any]] = []
    for v in values:
        key = (v["room_id"], v["seq"])
        if key in inserted:
            inserted.discard(key)
        else:
            skipped.append(v)
    if skipped:
        await _check_same(session, skipped)


async def _check_same(session: AsyncSession, wanted: list[dict[str, Any]]) -> None:
    rows = await session.execute(
        select(JournalEntry.room_id, JournalEntry.seq, JournalEntry.seat, JournalEntry.action)
        .where(tuple_(JournalEntry.room_id, JournalEntry.seq).in_(
            [(v["room_id"], v["seq"]) for v in wanted]
        ))
    )
    found = {(r.room_id, r.seq): (r.seat, r.action) for r in rows}
    for v in wanted:
        theirs = found.get((v["room_id"], v["seq"]))
        if theirs != (v["seat"], plain_json(v["action"])):
            raise JournalConflict(f"journal row {v['seq']} already holds {theirs!r}")


async def load_unfinished_rooms(session: AsyncSession) -> list[UnfinishedRoom]:
    """Waiting and playing rooms with their seats and ordered actions, oldest room first.

    Stored values are decoded room by room: a room with a value that cannot be read (a
    seed that is not a number, options or an action that is not JSON) comes back with
    `defect` saying why and without its actions, instead of failing the whole load."""
    return await _load_unfinished(session, Room.status.in_(UNFINISHED))


async def load_unfinished_room(session: AsyncSession, code: str) -> UnfinishedRoom | None:
    rooms = await _load_unfinished(session, (Room.code == code) & Room.status.in_(UNFINISHED))
    return rooms[0] if rooms else None


async def _load_unfinished(session: AsyncSession, where: Any) -> list[UnfinishedRoom]:
    rooms = (await session.execute(
        select(
            Room.id, Room.code, Room.status, cast(Room.options, Text).label("options"),
            type_coerce(Room.seed, String).label("seed"), Room.rules_version,
            Room.host_token_hash, Room.created_at, Room.started_at, Room.host_seat,
        ).where(where).order_by(Room.id)
    )).all()
    ids = [r.id for r in rooms]
    seats: dict[int, list[SeatRecord]] = {i: [] for i in ids}
    for s in await session.scalars(
        select(RoomSeat).where(RoomSeat.room_id.in_(ids)).order_by(RoomSeat.seat)
    ):
        seats[s.room_id].append(
            SeatRecord(s.seat, s.name, s.bot, s.token_hash, account_id=s.account_id))
    actions: dict[int, list[tuple[int, int | None, str]]] = {i: [] for i in ids}
    rows = await session.execute(
        select(JournalEntry.room_id, JournalEntry.seq, JournalEntry.seat,
               cast(JournalEntry.action, Text))
        .where(JournalEntry.room_id.in_(ids))
        .order_by(JournalEntry.room_id, JournalEntry.seq)
    )
    for room_id, seq, seat, action in rows:
        actions[room_id].append((seq, seat, action))
    talk: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
    for talk_row in await session.execute(
        select(RoomTalk.room_id, RoomTalk.data)
        .where(RoomTalk.room_id.in_(ids)).order_by(RoomTalk.room_id, RoomTalk.n)
    ):
        talk[talk_row.room_id].append(talk_row.data)
    return [_unfinished(r, seats[r.id], actions[r.id], talk[r.id]) for r in rooms]


def _unfinished(
    r: Any, seats: list[SeatRecord], rows: list[tuple[int, int | None, str]],
    talk: list[dict[str, Any]],
) -> UnfinishedRoom:
    defects: list[str] = []

    def read(parse: Any, text: Any, what: str, default: Any) -> Any:
        try:
            return parse(text)
        except (TypeError, ValueError):
            defects.append(f"{what} {str(text)[:40]!r} is unreadable")
            return default

    seed = read(int, r.seed, "the seed", 0)
    options = read(json.loads, r.options, "the options", {})
    actions = tuple(
        (seq, seat, read(json.loads, text, f"journal row {seq}", None))
        for seq, seat, text in rows
    )
    return UnfinishedRoom(
        code=r.code, status=r.status, options=options, seed=seed,
        rules_version=r.rules_version, host_token_hash=r.host_token_hash,
        created_at=r.created_at, started_at=r.started_at, seats=tuple(seats),
        actions=() if defects else actions, host_seat=r.host_seat,
        defect="; ".join(defects) or None, talk=tuple(talk),
    )


async def load_finished_rooms(
    session: AsyncSession, since: datetime, code: str | None = None
) -> list[UnfinishedRoom]:
    """Rooms whose game finished at `since` or later, as their saved game left them (status
    "finished", the game's actions), to be shown again after a restart (or, `code`, on the
    instance of a cluster that a request for it reached); oldest first."""
    where = [Room.status == FINISHED, Room.finished_at >= since]
    if code is not None:
        where.append(Room.code == code)
    rows = (await session.execute(
        select(Room, Game.actions).join(Game, Game.room_code == Room.code)
        .where(*where)
        .options(selectinload(Room.seats)).order_by(Room.finished_at, Room.id)
    )).all()
    return [
        UnfinishedRoom(
            code=r.code, status=FINISHED, options=r.options, seed=r.seed,
            rules_version=r.rules_version, host_token_hash=r.host_token_hash,
            created_at=r.created_at, started_at=r.started_at,
            seats=tuple(SeatRecord(s.seat, s.name, s.bot, s.token_hash, account_id=s.account_id)
                        for s in r.seats),
            actions=tuple((seq, seat, action)
                          for seq, (seat, action) in enumerate(actions, start=1)),
            host_seat=r.host_seat, finished_at=r.finished_at,
        )
        for r, actions in rows
    ]


async def unfinished_codes(session: AsyncSession) -> list[str]:
    return list(await session.scalars(select(Room.code).where(Room.status.in_(UNFINISHED))))


# --- ownership (cluster mode) --------------------------------------------------------------


async def claim_room(session: AsyncSession, code: str) -> int | None:
    """Raise an unfinished room's owner epoch; returns the new epoch, or None if there is no
    such room. Writes of the previous owner fail from the moment this commits (see
    check_epochs), and any of them that committed before is visible to the new owner."""
    return await session.scalar(
        update(Room)
        .where(Room.code == code, Room.status.in_(UNFINISHED))
        .values(owner_epoch=Room.owner_epoch + 1)
        .returning(Room.owner_epoch)
    )


async def check_epochs(session: AsyncSession, epochs: dict[str, int]) -> None:
    """Raise Fenced unless every room named still has the given owner epoch. The rows stay
    share-locked until the caller's transaction ends, so no claim can slip in between this
    check and the writes that follow it."""
    codes = list(epochs)
    if session.get_bind().dialect.name == "postgresql":
        # Once per journal batch in cluster mode: building the ORM statement cost more CPU
        # than the query (0.5 ms a batch against 0.2 ms for this text).
        rows = await session.execute(_OWNER_EPOCHS_PG, {"codes": codes})
    else:
        rows = await session.execute(
            select(Room.code, Room.owner_epoch).where(Room.code.in_(codes))
        )
    found = {code: epoch for code, epoch in rows}
    for code, epoch in epochs.items():
        if code in found and found[code] != epoch:
            raise Fenced(f"room {code} is owned under epoch {found[code]}, not {epoch}")


async def owner_epochs(session: AsyncSession, codes: Sequence[str]) -> dict[str, int]:
    """The owner epoch of each room of `codes` that has a row (cluster mode)."""
    rows = await session.execute(
        select(Room.code, Room.owner_epoch).where(Room.code.in_(list(codes)))
    )
    return {code: epoch for code, epoch in rows}


_OWNER_EPOCHS_PG = text(
    "SELECT code, owner_epoch FROM rooms WHERE code = ANY(:codes) FOR SHARE"
)


# --- finished games ----------------------------------------------------------------------


async def save_finished_game(session: AsyncSession, game: FinishedGame) -> int:
    """Store a finished game, close its room and drop its journal rows. Returns the game id;
    saving the same room's game again returns the existing id and changes nothing.

    A result whose reason is ABANDONED (the room expired before the end: the standings
    then, no winner) leaves its room ABANDONED, so it is never put on show again."""
    stmt = (
        _insert(session, Game)
        .values(**game_values(game))
        .on_conflict_do_nothing(index_elements=["room_code"])
        .returning(Game.id)
    )
    game_id = (await session.execute(stmt)).scalar()
    if game_id is None:
        # the conflict means the row is there: scalar_one says so if it ever is not
        return (await session.execute(
            select(Game.id).where(Game.room_code == game.room_code))).scalar_one()
    session.add_all(GamePlayer(**values) for values in player_values(game_id, game))
    await ratings.rate_game(session, game_id, game)
    room_id = select(Room.id).where(Room.code == game.room_code).scalar_subquery()
    await session.execute(
        update(Room).where(Room.code == game.room_code, Room.status.in_(UNFINISHED))
        .values(status=finished_status(game), finished_at=game.ended_at)
    )
    await session.execute(delete(JournalEntry).where(JournalEntry.room_id == room_id))
    await session.execute(delete(RoomTalk).where(RoomTalk.room_id == room_id))
    await session.flush()
    return game_id


_SUMMARY = load_only(
    Game.id, Game.room_code, Game.started_at, Game.ended_at, Game.end_reason, Game.turns,
    Game.action_count,
)


async def _profiles(session: AsyncSession, games: Sequence[Game]) -> dict[int, str]:
    """{account id: name} of the live accounts among these games' players (a profile to
    link to; a deleted or disabled account has none)."""
    ids = {p.account_id for g in games for p in g.players if p.account_id is not None}
    if not ids:
        return {}
    rows = await session.execute(select(Account.id, Account.name).where(
        Account.id.in_(ids), Account.deleted_at.is_(None), Account.disabled.is_(False)))
    return {account_id: name for account_id, name in rows}


def _summary(g: Game, profiles: Mapping[int, str]) -> GameSummary:
    return GameSummary(
        id=g.id, room_code=g.room_code, started_at=g.started_at, ended_at=g.ended_at,
        end_reason=g.end_reason, turns=g.turns, action_count=g.action_count,
        players=tuple(
            PlayerResult(
                seat=p.seat, name=p.name, bot=p.bot, place=p.place, winner=p.winner,
                total=p.total, orders=p.orders, upgrades=p.upgrades,
                penalties=p.penalties, rush=p.rush, tiles=tuple(p.tiles),
                stand_in=p.stand_in,
                profile=None if p.account_id is None else profiles.get(p.account_id),
            )
            for p in g.players
        ),
    )


async def list_games(
    session: AsyncSession, page: int = 1, per_page: int = 20, player: str | None = None,
    account_id: int | None = None, lessons: bool = False,
) -> GamePage:
    """Finished games, newest first; `player` keeps games with a player of that name,
    `account_id` those that account played; lessons (the `lesson` option) only if
    `lessons`."""
    page, per_page = max(1, page), min(max(1, per_page), MAX_PER_PAGE)
    query = select(Game)
    if not lessons:  # a lesson (the guided first game) is listed only when asked for
        query = query.where(not_(func.coalesce(Game.options["lesson"].as_boolean(), False)))
    if player is not None and player.strip():
        query = query.where(exists().where(
            GamePlayer.game_id == Game.id, GamePlayer.name_key == name_key(player)
        ))
    if account_id is not None:
        query = query.where(exists().where(
            GamePlayer.game_id == Game.id, GamePlayer.account_id == account_id
        ))
    total = await session.scalar(select(func.count()).select_from(query.subquery()))
    games = (await session.scalars(
        query.options(_SUMMARY, selectinload(Game.players))
        .order_by(Game.ended_at.desc(), Game.id.desc())
        .limit(per_page).offset((page - 1) * per_page)
    )).all()
    profiles = await _profiles(session, games)
    return GamePage(tuple(_summary(g, profiles) for g in games), total or 0, page, per_page)


async def account_name(session: AsyncSession, account_id: int) -> str | None:
    """The name of a live account (None: no such account, or deleted or disabled)."""
    return await session.scalar(select(Account.name).where(
        Account.id == account_id, Account.deleted_at.is_(None), Account.disabled.is_(False)))


async def get_game(session: AsyncSession, game_id: int) -> GameDetail | None:
    """One finished game with its full action list (for the replay page)."""
    return await _detail(session, Game.id == game_id)


async def game_id_of_room(session: AsyncSession, room_code: str) -> int | None:
    """The id of the finished game played in room `room_code`, if it is stored."""
    return await session.scalar(select(Game.id).where(Game.room_code == room_code))


async def _detail(session: AsyncSession, where: Any) -> GameDetail | None:
    g = await session.scalar(select(Game).where(where).options(selectinload(Game.players)))
    if g is None:
        return None
    return GameDetail(
        summary=_summary(g, await _profiles(session, [g])), seed=g.seed, options=g.options,
        rules_version=g.rules_version,
        actions=tuple((seat, action) for seat, action in g.actions), result=g.result,
        talk=tuple(g.talk or ()),
    )
