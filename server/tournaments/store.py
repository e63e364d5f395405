"""The tournaments' queries (server.db.models.Tournament and its rows); the caller owns the
transaction.

Where two instances could do one thing twice, the database decides:
- a round is paired by the instance that holds the tournament's row (`lock`: `FOR UPDATE
  SKIP LOCKED` on PostgreSQL, an instance that finds it held leaves it; on SQLite the
  write lock, taken by the transaction's first statement), moved on by an UPDATE guarded by
  the round it read (`advance`), and written with its `tournament_rounds` row, unique per
  (tournament, round): a second pairing of one round cannot be committed;
- a table's room is opened by the instance whose claim (an UPDATE guarded by `room_code IS
  NULL` and a free or expired claim) counted one row;
- a player enters while the tournament is open only: the entry count is raised by an
  UPDATE guarded by the status and the cap, in the transaction that writes the entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.db.models import (
    Game,
    GamePlayer,
    Tournament,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
)

OPEN, RUNNING, FINISHED, CANCELLED = "open", "running", "finished", "cancelled"
# A table claim its instance did not finish (it died) is taken back after this long.
CLAIM_TTL = timedelta(seconds=15)
LISTED = 50  # tournaments on the list, at most


class Closed(Exception):
    """The tournament no longer takes entries (started, finished, or full)."""


class Entered(Exception):
    """The player is already entered."""


@dataclass(frozen=True, slots=True)
class NewTournament:
    name: str
    organiser_id: int
    system: str
    table_size: int
    rounds: int
    mode: str
    turn: int
    bank: int
    rated: bool
    invite: str | None
    starts_at: datetime
    client: str


async def create(session: AsyncSession, new: NewTournament, now: datetime) -> int:
    row = Tournament(name=new.name, organiser_id=new.organiser_id, system=new.system,
                     table_size=new.table_size, rounds=new.rounds, mode=new.mode,
                     turn=new.turn, bank=new.bank, rated=new.rated, invite=new.invite,
                     starts_at=new.starts_at, status=OPEN, round=0, entrants=0,
                     client=new.client, created_at=now)
    session.add(row)
    await session.flush()
    return row.id


async def organised(session: AsyncSession, account_id: int) -> int:
    """How many tournaments this account organises that have not ended."""
    return await session.scalar(select(func.count()).select_from(Tournament).where(
        Tournament.organiser_id == account_id,
        Tournament.status.in_((OPEN, RUNNING)))) or 0


async def get(session: AsyncSession, tournament_id: int) -> Tournament | None:
    return await session.get(Tournament, tournament_id)


async def listing(session: AsyncSession) -> list[Tournament]:
    """The open (not invite-only) and running tournaments, then the last finished ones."""
    live = (await session.scalars(select(Tournament).where(
        Tournament.status.in_((OPEN, RUNNING)), Tournament.invite.is_(None))
        .order_by(Tournament.starts_at, Tournament.id).limit(LISTED))).all()
    done = (await session.scalars(select(Tournament).where(
        Tournament.status == FINISHED, Tournament.invite.is_(None))
        .order_by(Tournament.finished_at.desc(), Tournament.id.desc()).limit(10))).all()
    return [*live, *done]


async def enter(session: AsyncSession, tournament_id: int, account_id: int, name: str,
                client: str, now: datetime, cap: int) -> None:
    """Enter a player; Closed (not open, or `cap` players already), Entered (already in)."""
    done = await session.execute(update(Tournament).where(
        Tournament.id == tournament_id, Tournament.status == OPEN, Tournament.entrants < cap)
        .values(entrants=Tournament.entrants + 1).returning(Tournament.entrants))
    count = done.scalar()
    if count is None:
        raise Closed
    session.add(TournamentPlayer(tournament_id=tournament_id, account_id=account_id,
                                 name=name, entry=count, client=client, joined_at=now))
    try:
        async with session.begin_nested():
            await session.flush()
    except IntegrityError:
        raise Entered from None


async def entries_from(session: AsyncSession, tournament_id: int, client: str) -> int:
    return await session.scalar(select(func.count()).select_from(TournamentPlayer).where(
        TournamentPlayer.tournament_id == tournament_id,
        TournamentPlayer.client == client)) or 0


async def withdraw(session: AsyncSession, tournament_id: int, account_id: int,
                   now: datetime) -> bool:
    """Before the start an entry is deleted; once it runs the player is marked withdrawn
    (paired no more). False: not entered, already withdrawn, or the tournament is over."""
    status = await session.scalar(select(Tournament.status).where(
        Tournament.id == tournament_id).with_for_update())
    mine = (TournamentPlayer.tournament_id == tournament_id,
            TournamentPlayer.account_id == account_id)
    if status == OPEN:
        gone = await session.execute(delete(TournamentPlayer).where(*mine))
        if not gone.rowcount:  # type: ignore[attr-defined]
            return False
        await session.execute(update(Tournament).where(Tournament.id == tournament_id)
                              .values(entrants=Tournament.entrants - 1))
        return True
    if status != RUNNING:
        return False
    done = await session.execute(update(TournamentPlayer).where(
        *mine, TournamentPlayer.withdrawn_at.is_(None)).values(withdrawn_at=now))
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def players(session: AsyncSession, tournament_id: int) -> list[TournamentPlayer]:
    return list((await session.scalars(select(TournamentPlayer).where(
        TournamentPlayer.tournament_id == tournament_id)
        .order_by(TournamentPlayer.entry))).all())


async def tables(session: AsyncSession, tournament_id: int) -> list[TournamentTable]:
    return list((await session.scalars(select(TournamentTable).where(
        TournamentTable.tournament_id == tournament_id)
        .order_by(TournamentTable.round, TournamentTable.number))).all())


# --- the scheduler -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Due:
    ready: list[int]  # tournaments to look at now (due to start, or running)
    next_start: datetime | None  # the next start time of an open tournament


async def due(session: AsyncSession, now: datetime) -> Due:
    rows = (await session.execute(select(Tournament.id, Tournament.status, Tournament.starts_at)
                                  .where(Tournament.status.in_((OPEN, RUNNING))))).all()
    ready = [r.id for r in rows if r.status == RUNNING or r.starts_at <= now]
    later = [r.starts_at for r in rows if r.status == OPEN and r.starts_at > now]
    return Due(ready, min(later, default=None))


async def lock(session: AsyncSession, tournament_id: int) -> Tournament | None:
    """The tournament's row, held for this transaction; None if another instance holds it
    (PostgreSQL, without waiting) or it is gone."""
    query = select(Tournament).where(Tournament.id == tournament_id)
    if session.get_bind().dialect.name == "postgresql":
        return await session.scalar(query.with_for_update(skip_locked=True))
    # SQLite: a first write takes the database's write lock (never a stale read snapshot).
    await session.execute(update(Tournament).where(Tournament.id == tournament_id)
                          .values(round=Tournament.round))
    return await session.scalar(query.execution_options(populate_existing=True))


async def advance(session: AsyncSession, tournament: Tournament, **values: object) -> bool:
    """Move the tournament on from the round and status it was read at (guarded)."""
    done = await session.execute(update(Tournament).where(
        Tournament.id == tournament.id, Tournament.round == tournament.round,
        Tournament.status == tournament.status).values(**values))
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def add_round(session: AsyncSession, tournament_id: int, number: int,
                    seated: Sequence[Sequence[int]], bye: int, now: datetime) -> None:
    """Write round `number` and its tables (a table of one is a bye, scored `bye` at once).
    IntegrityError if the round exists (the caller's transaction is then rolled back)."""
    session.add(TournamentRound(tournament_id=tournament_id, number=number, started_at=now))
    for index, players_ in enumerate(seated, 1):
        scored = len(players_) == 1
        session.add(TournamentTable(
            tournament_id=tournament_id, round=number, number=index, players=list(players_),
            points=[bye] if scored else None, finished_at=now if scored else None))
    await session.flush()


async def end_round(session: AsyncSession, tournament_id: int, number: int,
                    now: datetime) -> None:
    await session.execute(update(TournamentRound).where(
        TournamentRound.tournament_id == tournament_id, TournamentRound.number == number,
        TournamentRound.finished_at.is_(None)).values(finished_at=now))


async def score(session: AsyncSession, table: TournamentTable, places: list[int],
                points: list[int], now: datetime) -> None:
    """A table's game ended: each seat's place and points (halves), on the row and on the
    object the caller holds (read again by the rest of its pass)."""
    await session.execute(update(TournamentTable).where(
        TournamentTable.id == table.id, TournamentTable.points.is_(None))
        .values(places=places, points=points, finished_at=now))
    await session.refresh(table)


async def results(session: AsyncSession, codes: Sequence[str]) -> dict[str, dict[int, int]]:
    """{room code: {seat: place}} of the finished (or abandoned) games of these rooms."""
    if not codes:
        return {}
    rows = (await session.execute(select(Game.room_code, GamePlayer.seat, GamePlayer.place)
                                  .join(GamePlayer, GamePlayer.game_id == Game.id)
                                  .where(Game.room_code.in_(codes)))).all()
    out: dict[str, dict[int, int]] = {}
    for code, seat, place in rows:
        out.setdefault(code, {})[seat] = place
    return out


@dataclass(frozen=True, slots=True)
class Pending:
    """A table whose room is to be opened."""

    table_id: int
    tournament: Tournament
    names: list[tuple[int, str]]  # (account id, name) in seat order


async def to_open(session: AsyncSession, now: datetime) -> list[Pending]:
    """Tables of running tournaments without a room (a bye needs none), not claimed by an
    instance that may still open them."""
    rows = (await session.execute(select(TournamentTable, Tournament).join(
        Tournament, Tournament.id == TournamentTable.tournament_id).where(
        Tournament.status == RUNNING, TournamentTable.room_code.is_(None),
        TournamentTable.points.is_(None), _free(now)))).all()
    out = []
    for table, tournament in rows:
        names: dict[int, str] = dict((await session.execute(select(
            TournamentPlayer.account_id, TournamentPlayer.name).where(
            TournamentPlayer.tournament_id == tournament.id))).all())
        out.append(Pending(table.id, tournament, [(a, names[a]) for a in table.players]))
    return out


def _free(now: datetime) -> ColumnElement[bool]:
    return or_(TournamentTable.claim.is_(None), TournamentTable.claimed_at < now - CLAIM_TTL)


async def claim_table(session: AsyncSession, table_id: int, claim: str, now: datetime) -> bool:
    done = await session.execute(update(TournamentTable).where(
        TournamentTable.id == table_id, TournamentTable.room_code.is_(None),
        _free(now)).values(claim=claim, claimed_at=now))
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def opened(session: AsyncSession, table_id: int, claim: str, code: str) -> bool:
    done = await session.execute(update(TournamentTable).where(
        TournamentTable.id == table_id, TournamentTable.claim == claim,
        TournamentTable.room_code.is_(None)).values(room_code=code))
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def unclaim(session: AsyncSession, table_id: int, claim: str) -> None:
    await session.execute(update(TournamentTable).where(
        TournamentTable.id == table_id, TournamentTable.claim == claim)
        .values(claim=None, claimed_at=None))


async def claimed_until(session: AsyncSession) -> datetime | None:
    """When the oldest open claim on a table without a room expires (its instance may have
    died: another one opens the table then)."""
    oldest = await session.scalar(select(func.min(TournamentTable.claimed_at)).where(
        TournamentTable.room_code.is_(None), TournamentTable.claim.is_not(None),
        TournamentTable.points.is_(None)))
    return None if oldest is None else oldest + CLAIM_TTL


async def playing(session: AsyncSession) -> dict[str, int]:
    """{room code: tournament id} of the tables being played."""
    rows = (await session.execute(select(TournamentTable.room_code,
                                         TournamentTable.tournament_id).where(
        TournamentTable.room_code.is_not(None), TournamentTable.points.is_(None)))).all()
    return {code: tid for code, tid in rows if code is not None}


async def is_table(session: AsyncSession, code: str) -> bool:
    """Whether the room `code` is a tournament's table still to be scored."""
    return await session.scalar(select(TournamentTable.id).where(
        TournamentTable.room_code == code, TournamentTable.points.is_(None)).limit(1)) is not None
