"""Tournaments on one instance: the scheduler that starts rounds, the rooms' listener that
hears a table end, and the sockets watching a tournament's page (sent what changes here at
once, and what other instances change within TOURNAMENT_WATCH seconds: `follow`).

The state is in the database every instance shares (server.tournaments.store); any
instance may pair a round or open a table, and the database row decides which one does
(never twice). The scheduler (`run`) costs nothing while no tournament is pending: it
sleeps until the next known start time, or TOURNAMENT_IDLE seconds (another instance's
new tournament, in a cluster), and is woken at once by what happens here (a tournament
made, a table of one ending). While a round is played, or a start is due that another
instance holds, it also looks every TOURNAMENT_CHECK seconds (a table that ended on another
instance, or was abandoned; an instance that died holding the start).

Rulings:
- A no-show is not forfeited: the table starts with every player seated, and the clock's
  stand-in (TAKEOVER_LEVEL) plays a seat whose time ran out; the seat scores the place it
  reaches (the game is then unrated: a stand-in was playing, server.db.ratings). At a
  turn-based table a late seat gets that stand-in for the turn at once (nobody has to
  choose, the game is never abandoned for lateness).
- A player may withdraw: before the start the entry is deleted; once it runs the player is
  paired no more from the next round on, and keeps the points won (the game in progress
  goes on, the stand-in playing for them when their time runs out).
- A tournament whose start comes with fewer than 2 players is cancelled.
- The next round is paired as soon as every table of the round has ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.config import Settings
from server.db.errors import cancelling
from server.db.models import Tournament, TournamentTable, utcnow
from server.error_codes import Refusal
from server.jsontext import dumps
from server.rooms import FINISHED as GAME_FINISHED
from server.rooms import Event, Room, RoomManager, RoomOptions, late, seating
from server.rooms.crowd import AddressCap
from server.rooms.errors import RoomError
from server.rooms.ratelimit import RateLimit
from server.rooms.seat import hash_token, new_token

from . import frames, store
from .pairing import Played, bye_points, place_points, round_robin, standings, swiss
from .store import CANCELLED, FINISHED, OPEN, RUNNING

log = logging.getLogger(__name__)
Sessions = async_sessionmaker[AsyncSession]


class Watcher(Protocol):
    client: str

    def offer(self, text: str) -> None: ...


@dataclass
class Tournaments:
    settings: Settings
    manager: RoomManager
    wall: Callable[[], datetime] = utcnow
    sessions: Sessions | None = None  # set once the database is open
    tables: dict[str, int] = field(default_factory=dict)  # room code -> tournament (ours)
    watchers: dict[int, set[Watcher]] = field(default_factory=dict)
    passes: int = 0  # scheduler passes that read the database (tests, bench)
    paired: int = 0  # rounds this instance paired
    sent: dict[int, str] = field(default_factory=dict)  # the last state sent to the watchers
    reads: int = 0  # states read for the watchers by `follow` (tests)

    def __post_init__(self) -> None:
        self.rate = RateLimit(self.settings.TOURNAMENT_RATE, 60, time.monotonic)
        self.wake = asyncio.Event()
        self.passing = asyncio.Lock()
        self.publishing = asyncio.Lock()
        self.watched = asyncio.Event()  # a first watcher came: `follow` wakes
        self.addresses = AddressCap(self.settings.WS_PER_ADDRESS)
        self.acting: set[asyncio.Task[Any]] = set()  # stand-ins, tables' checks, publishing

    def db(self) -> Sessions:
        if self.sessions is None:
            raise Refusal("tournaments_off", "tournaments need the server's database", 503)
        return self.sessions

    def limit(self, client: str) -> None:
        """Creating, entering and withdrawing: TOURNAMENT_RATE a minute per address."""
        if not self.rate.hit(client):
            raise Refusal("too_many_tournaments",
                          "too many tournament requests from this address; wait a minute", 429)

    # --- the scheduler -------------------------------------------------------------------

    async def run(self) -> None:
        delay = 0.0
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), delay)
            self.wake.clear()
            try:
                delay = await self.tick()
            except (SQLAlchemyError, OSError) as exc:
                if cancelling():
                    raise
                log.warning("tournaments: the database did not answer (%r)", exc)
                delay = self.settings.TOURNAMENT_CHECK
            except Exception:  # a bug must not stop every tournament: logged, tried again
                log.exception("tournaments: a scheduler pass failed")
                delay = self.settings.TOURNAMENT_CHECK

    async def tick(self) -> float:
        """One pass: start the tournaments due, score the tables that ended, pair the next
        rounds, open the tables without a room. Returns the seconds until the next pass
        (unless woken sooner)."""
        if self.sessions is None:
            return self.settings.TOURNAMENT_IDLE
        async with self.passing:
            self.passes += 1
            async with self.sessions() as session:
                due = await store.due(session, self.wall())
            changed = [tid for tid in due.ready if await self.advance(tid)]
            changed += await self.open_tables()
            async with self.sessions() as session:
                self.tables = await store.playing(session)
                after = await store.due(session, self.wall())
                claims = await store.claimed_until(session)
            for tid in dict.fromkeys(changed):
                await self.publish(tid)
            now = self.wall()
            waits = [self.settings.TOURNAMENT_IDLE]
            if after.ready:  # running, or due but held by another instance meanwhile
                waits.append(self.settings.TOURNAMENT_CHECK)
            # A start the first read saw ahead may have come during this pass: the second
            # read no longer counts it as ahead, and nothing started it. Without the first
            # read's start here the scheduler slept TOURNAMENT_IDLE past it (a timer that
            # fires a few ms before the wall clock's start is enough).
            for at in (due.next_start, after.next_start, claims):
                if at is not None:
                    waits.append((at - now).total_seconds())
            return max(0.0, min(waits))

    async def advance(self, tournament_id: int) -> bool:
        """Start a tournament that is due, score its tables that ended, pair its next round
        once every table has; True if something changed."""
        assert self.sessions is not None
        try:
            async with self.sessions() as session, session.begin():
                tournament = await store.lock(session, tournament_id)
                if tournament is None:
                    return False
                now = self.wall()
                if tournament.status == OPEN:
                    return tournament.starts_at <= now and await self._start(
                        session, tournament, now)
                if tournament.status == RUNNING:
                    return await self._progress(session, tournament, now)
                return False
        except IntegrityError:  # the round was paired meanwhile (the unique row): not twice
            log.info("tournament %d: round already paired elsewhere", tournament_id)
            return False

    async def _start(self, session: AsyncSession, t: Tournament, now: datetime) -> bool:
        entrants = [p.account_id for p in await store.players(session, t.id)]
        if len(entrants) < 2:
            return await store.advance(session, t, status=CANCELLED, finished_at=now)
        rounds = t.rounds
        if t.system == "round_robin":
            schedule = round_robin(entrants, t.table_size)
            rounds, seated = len(schedule), schedule[0]
        else:
            seated = swiss(entrants, t.table_size, [])
        if not await store.advance(session, t, status=RUNNING, round=1, rounds=rounds):
            return False
        await store.add_round(session, t.id, 1, seated, bye_points(t.table_size), now)
        self.paired += 1
        log.info("tournament %d: round 1 paired (%d tables)", t.id, len(seated))
        return True

    async def _progress(self, session: AsyncSession, t: Tournament, now: datetime) -> bool:
        tables = await store.tables(session, t.id)
        current = [x for x in tables if x.round == t.round]
        waiting = [x for x in current if x.points is None and x.room_code is not None]
        changed = False
        ended = await store.results(session, [x.room_code for x in waiting if x.room_code])
        for table in waiting:
            seats = ended.get(table.room_code or "")
            if seats is None or len(seats) != len(table.players):
                continue
            places = [seats[i] for i in range(len(table.players))]
            await store.score(session, table, places, place_points(places), now)
            changed = True
        if any(x.points is None for x in current):
            return changed
        await store.end_round(session, t.id, t.round, now)
        entries = await store.players(session, t.id)
        active = {p.account_id for p in entries if p.withdrawn_at is None}
        entrants = [p.account_id for p in entries]
        if t.round >= t.rounds or len(active) < 2:
            return await store.advance(session, t, status=FINISHED, finished_at=now) or changed
        if t.system == "round_robin":
            scheduled = round_robin(entrants, t.table_size)[t.round]
            seated = [kept for table in scheduled if (kept := [p for p in table if p in active])]
        else:
            played = [played_of(x) for x in tables]
            order = [s.player for s in standings(entrants, played) if s.player in active]
            seated = swiss(order, t.table_size, played)
        number = t.round + 1  # (the guarded UPDATE refreshes `t`)
        if not await store.advance(session, t, round=number):
            return changed
        await store.add_round(session, t.id, number, seated, bye_points(t.table_size), now)
        self.paired += 1
        log.info("tournament %d: round %d paired (%d tables)", t.id, number, len(seated))
        return True

    async def open_tables(self) -> list[int]:
        """Open the room of every table that has none (ours to open once claimed)."""
        assert self.sessions is not None
        claim = uuid.uuid4().hex
        now = self.wall()
        async with self.sessions() as session, session.begin():
            pending = [p for p in await store.to_open(session, now)
                       if await store.claim_table(session, p.table_id, claim, now)]
        opened = []
        for table in pending:
            code = await self._open(table, claim)
            if code is not None:
                self.tables[code] = table.tournament.id
                opened.append(table.tournament.id)
        return opened

    async def _open(self, table: store.Pending, claim: str) -> str | None:
        assert self.sessions is not None
        t = table.tournament
        options = RoomOptions.from_dict({
            "players": len(table.names), "mode": t.mode, "rated": t.rated,
            "clock": {"turn": t.turn, "bank": t.bank}, "public": False})
        try:
            room, host = await self.manager.create(options, None, [None] * len(table.names))
            # Each player takes the seat with their account (POST /api/rooms/{code}/rejoin):
            # the token made here is never handed out.
            await seating.seat_matched(room, [(name, hash_token(new_token()), account)
                                              for account, name in table.names])
            await seating.start(room, host)
        except RoomError as exc:
            log.warning("tournament %d: a table could not be opened (%s)", t.id, exc)
            async with self.sessions() as session, session.begin():
                await store.unclaim(session, table.table_id, claim)
            return None
        async with self.sessions() as session, session.begin():
            ours = await store.opened(session, table.table_id, claim, room.code)
        if not ours:
            # Our claim ran out meanwhile (this instance froze, or the database was slow)
            # and another instance opened the table: this room is nobody's table. Closed
            # before anyone played in it, with no game kept (issue 46).
            log.warning("tournament %d: table %d was opened elsewhere; room %s closed",
                        t.id, table.table_id, room.display_code)
            await self.manager.discard(room)
            return None
        log.info("tournament %d: table %s opened", t.id, room.display_code,
                 extra={"room": room.display_code})
        return room.code

    # --- the rooms' listener ---------------------------------------------------------------

    async def __call__(self, room: Room, events: Sequence[Event]) -> None:
        """The rooms' listener, for a table of ours: a late turn-based seat gets its
        stand-in at once (in a task of its own: a listener does not act inline); a table
        that ended wakes the scheduler."""
        ended = room.status == GAME_FINISHED or any(e["type"] == "abandoned" for e in events)
        if room.code not in self.tables:
            if ended and self.sessions is not None and self.settings.cluster:
                # Maybe a table this instance took over from another (which died or froze
                # holding it: server.cluster.ownership) while its scheduler did not know the
                # tournament: one indexed read at a game's end, not TOURNAMENT_IDLE seconds.
                # (Alone, an instance knows every table from its first pass: nothing read.)
                self._later(self._wake_if_table(room.code))
            return
        for event in events:
            if event["type"] == "late":
                self._later(late.stand_in_for(room, event["seat"],
                                              self.settings.TAKEOVER_LEVEL))
        # A table that ended here wakes the scheduler (its result is read from `games`).
        if ended:
            self.wake.set()

    def _later(self, work: Coroutine[Any, Any, object]) -> None:
        task = asyncio.create_task(work)
        self.acting.add(task)
        task.add_done_callback(self.acting.discard)

    async def _wake_if_table(self, code: str) -> None:
        assert self.sessions is not None
        try:
            async with self.sessions() as session:
                if await store.is_table(session, code):
                    self.wake.set()
        except (SQLAlchemyError, OSError) as exc:  # the scheduler's own look comes later
            log.warning("tournaments: the database did not answer (%r)", exc)

    # --- watchers (the tournament page's socket) ---------------------------------------------

    @contextlib.contextmanager
    def watching(self, tournament_id: int, watcher: Watcher) -> Iterator[bool]:
        """While a page's socket watches; False past WS_PER_ADDRESS sockets of its address."""
        if not self.addresses.enter(watcher.client):
            yield False
            return
        self.watchers.setdefault(tournament_id, set()).add(watcher)
        self.watched.set()
        try:
            yield True
        finally:
            group = self.watchers.get(tournament_id, set())
            group.discard(watcher)
            if not group:
                self.watchers.pop(tournament_id, None)
                self.sent.pop(tournament_id, None)
            self.addresses.leave(watcher.client)

    async def publish(self, tournament_id: int, to: Watcher | None = None) -> bool:
        """Send the tournament's state to the sockets watching it here if it is not the
        one they were sent last (or to `to` only, whatever it is: a socket that just came).
        One at a time, each read after the last was sent, so the last frame a socket gets
        is never older than another. False: no such tournament."""
        group = self.watchers.get(tournament_id, set()) if to is None else {to}
        if not group or self.sessions is None:
            return True
        async with self.publishing:
            async with self.sessions() as session:
                doc = await document(session, tournament_id)
            if doc is None:
                return False
            text = dumps(frames.tournament(doc))
            if to is None:
                if self.sent.get(tournament_id) == text:
                    return True
                self.sent[tournament_id] = text
            for watcher in list(group):
                watcher.offer(text)
        return True

    async def follow(self) -> None:
        """What other instances change reaches this one's watchers: every TOURNAMENT_WATCH
        seconds while a page here watches a tournament, its state is read again (one read a
        tournament, however many watch it) and sent if it is not the one sent last. Nobody
        watching: the loop waits for a first watcher and reads nothing."""
        while True:
            if not self.watchers:
                self.watched.clear()
                await self.watched.wait()
            await asyncio.sleep(self.settings.TOURNAMENT_WATCH)
            for tournament_id in list(self.watchers):
                try:
                    self.reads += 1
                    await self.publish(tournament_id)
                except (SQLAlchemyError, OSError) as exc:
                    if cancelling():
                        raise
                    log.warning("tournaments: the database did not answer (%r)", exc)
                except Exception:  # a bug must not silence every page: logged, read again
                    log.exception("tournaments: a watched tournament could not be read")

    def changed(self, tournament_id: int) -> None:
        """Something changed here (an entry, a withdrawal, a new tournament): look now."""
        self.wake.set()
        if tournament_id in self.watchers:
            self._later(self.publish(tournament_id))


def played_of(table: TournamentTable) -> Played:
    players = tuple(table.players)
    return Played(table.round, players, tuple(table.points or (0,) * len(players)),
                  tuple(table.places or (0,) * len(players)))


def halves(points: int) -> float:
    return points / 2


async def document(session: AsyncSession, tournament_id: int) -> dict[str, Any] | None:
    """Everything the tournament's page shows (the same for every viewer: no invite)."""
    t = await store.get(session, tournament_id)
    if t is None:
        return None
    entries = await store.players(session, t.id)
    tables = await store.tables(session, t.id)
    names = {p.account_id: p.name for p in entries}
    withdrawn = {p.account_id for p in entries if p.withdrawn_at is not None}
    scored = [played_of(x) for x in tables if x.points is not None]
    rows = standings([p.account_id for p in entries], scored)
    rounds: dict[int, list[dict[str, Any]]] = {}
    for x in tables:
        rounds.setdefault(x.round, []).append({
            "number": x.number, "code": x.room_code, "bye": len(x.players) == 1,
            "ended": x.points is not None,
            "players": [{"id": p, "name": names.get(p, "?"),
                         "place": None if x.places is None else x.places[i],
                         "points": None if x.points is None else halves(x.points[i])}
                        for i, p in enumerate(x.players)]})
    return {
        "id": t.id, "name": t.name, "system": t.system, "table_size": t.table_size,
        "rounds": t.rounds, "mode": t.mode, "clock": {"turn": t.turn, "bank": t.bank},
        "rated": t.rated, "invite_only": t.invite is not None,
        "starts_at": t.starts_at.isoformat(), "status": t.status, "round": t.round,
        "organiser": t.organiser_id,
        "points": {str(k): [halves(p) for p in place_points(list(range(1, k + 1)))]
                   for k in (2, 3, 4)},
        "bye": halves(bye_points(t.table_size)),
        "standings": [{"rank": r.rank, "id": r.player, "name": names[r.player],
                       "points": halves(r.points), "buchholz": halves(r.buchholz),
                       "firsts": r.firsts, "games": r.games, "byes": r.byes,
                       "withdrawn": r.player in withdrawn} for r in rows],
        "rounds_played": [{"number": n, "tables": rounds[n]} for n in sorted(rounds)],
    }
