"""The expert's reviews of finished games, as the server makes them: asked, queued,
computed in the bot workers and stored with the game, once.

`Reviews` (one per app, when there is a database and bot workers):

- `ask(game_id, address)` remembers the request in the database (`game_reviews`, a
  `queued` row) and queues it here; at most REVIEW_QUEUE reviews wait on an instance and a
  client address may ask for REVIEWS_PER_ADDRESS new ones an hour (`review_busy`,
  `review_slow`). A review already stored, or being made, is never asked again.
- `run()` (a task) makes them one at a time on this instance: it claims the game's row
  (db/reviews.py: the claim is the row, so two instances never compute one review; a
  holder that died loses it after REVIEW_LEASE), replays the game in a worker, then
  appraises it turn by turn, one pool job per turn at priority REVIEW: behind every bot
  move and every hint (a turn being thought when one arrives is given up and queued
  again, YIELDS (20) times at most, so that a review ends even on a server whose bots never
  rest; past that a move waits for one turn's appraisal at most). The result is stored
  only while the claim still stands. On start it takes up the reviews asked and not
  finished (a restart loses none); with REVIEW_RATED on, it also queues every rated game
  that ends.

The review of a turn is reproducible (server/bots/review.py): the same game, work and
seed give the same review anywhere.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.bots import review
from server.bots.pool import REVIEW
from server.db import reviews as stored
from server.db import store
from server.rooms import RoomError
from server.rooms.ratelimit import RateLimit

log = logging.getLogger(__name__)
WINDOW = 3600.0  # seconds: REVIEWS_PER_ADDRESS new reviews per window per client address
RENEW = 10.0  # seconds between renewals of a claim while it is being computed, at most
# (a third of REVIEW_LEASE when that is shorter, so a live holder never loses its claim)
SWEEP = 30.0  # seconds between looks for rated games (REVIEW_RATED) and dead claims (the
# server passes SWEEP_INTERVAL)
RETRIES = 2  # a turn whose worker died is tried again this many times
# A turn gives way to bot moves and hints this many times, then is thought to its end
# (a move then waits at most one turn's appraisal: 0.1-0.16 s of CPU at REVIEW_WORK 0.25,
# bench/review_flood.py). Without it a server whose bots never rest would never finish a
# review: each turn would begin again for ever. At 3, on the shared 2-core machine, an
# expert table's mean gap went from 0.93 to 1.61 s (docs/BOTS.md): a table comes first.
YIELDS = 20


class Runner(Protocol):
    async def call(self, fn: Any, *args: Any, key: str | None = None,
                   priority: int = ...) -> Any: ...


def _now() -> datetime:
    return datetime.now(UTC)


class Reviews:
    def __init__(self, pool: Runner | None, sessions: async_sessionmaker[AsyncSession],
                 work: float, seed: int, queue_max: int, per_address: int,
                 lease: float, rated: bool, me: str | None = None,
                 clock: Callable[[], float] = time.monotonic, sweep: float = SWEEP) -> None:
        self.pool = pool
        self.sessions = sessions
        self.work = work  # the review's share of the expert's FULL_WORK per turn
        self.seed = seed
        self.queue_max = queue_max
        self.lease = timedelta(seconds=lease)
        self.renew_every = min(RENEW, lease / 3)
        self.rated = rated
        self.sweep = sweep
        # Who holds a claim (game_reviews.claimed_by): the instance's name and this run's.
        self.me = f"{(me or 'reviews')[:48]}:{uuid.uuid4().hex[:12]}"
        self._rate = RateLimit(per_address, WINDOW, clock)
        self._queue: asyncio.Queue[int] = asyncio.Queue()
        self._queued: set[int] = set()
        self.computing: int | None = None
        self.computed = 0  # reviews this instance computed (metrics, tests)

    # --- on requests ------------------------------------------------------------------

    async def status(self, game_id: int) -> dict[str, Any]:
        """{"state": "none" | "queued" | "running" | "done" | "failed", "review"?}."""
        async with self.sessions() as session:
            row = await stored.get(session, game_id)
        if row is None:
            return {"state": "none"}
        if row.state == stored.DONE:
            return {"state": "done", "review": row.review}
        return {"state": row.state}

    async def may_ask(self, game_id: int, options: dict[str, Any], room_code: str,
                      account_id: int | None, token_hash: str | None) -> None:
        """RoomError `forbidden` unless the asker may have this game reviewed: anyone for a
        public game or an imported one (its importer made it everybody's), else a player
        (their account, or their seat's token)."""
        if options.get("public") is True or room_code.startswith("I"):
            return
        async with self.sessions() as session:
            if await stored.is_player(session, game_id, account_id, token_hash):
                return
        raise RoomError("forbidden", "only the game's players may ask for its review "
                        "(it was not a public game)", 403)

    async def ask(self, game_id: int, address: str) -> dict[str, Any]:
        """Queue the game's review (if it was never asked); its status."""
        if self.pool is None:
            raise RoomError("review_off", "this server has no bot workers to review games", 409)
        async with self.sessions() as session:
            row = await stored.get(session, game_id)
        if row is not None and row.state in (stored.DONE, stored.FAILED):
            return await self.status(game_id)
        if row is None or game_id not in self._queued:
            if len(self._queued) >= self.queue_max:
                raise RoomError("review_busy", "too many reviews are waiting; ask again "
                                "later", 503)
            if row is None and not self._rate.hit(address):
                raise RoomError("review_slow", "too many reviews asked from this address; "
                                "ask again later", 429)
            async with self.sessions.begin() as session:
                row = await stored.ask(session, game_id, self.work, self.seed, _now())
            if row.state in (stored.QUEUED, stored.RUNNING):
                self._enqueue(game_id)  # claimed by a live instance: _compute lets it be
        return await self.status(game_id)

    def _enqueue(self, game_id: int) -> None:
        if game_id not in self._queued and game_id != self.computing:
            self._queued.add(game_id)
            self._queue.put_nowait(game_id)

    # --- the worker task ----------------------------------------------------------------

    async def run(self) -> None:
        """Take up the reviews asked and left unfinished, then make them one at a time."""
        sweeping = asyncio.create_task(self._sweep())
        try:
            await self._take_up()
            while True:
                game_id = await self._queue.get()
                self._queued.discard(game_id)
                self.computing = game_id
                try:
                    await self._compute(game_id)
                except asyncio.CancelledError:
                    await self._give_back(game_id)  # shutting down: back to the queue
                    raise
                except (SQLAlchemyError, OSError) as exc:
                    await self._lost_touch(game_id, exc)
                except Exception:
                    log.exception("review of game %d failed", game_id)
                    async with self.sessions.begin() as session:
                        await stored.fail(session, game_id, self.me, _now())
                finally:
                    self.computing = None
        finally:
            sweeping.cancel()

    async def _take_up(self) -> None:
        async with self.sessions() as session:
            found = await stored.pending(session, _now(), self.lease, self.queue_max)
        for game_id in found:
            self._enqueue(game_id)

    async def _give_back(self, game_id: int) -> None:
        """Shutting down: the review being made goes back to the queue (for the next
        start, or another instance)."""
        try:
            async with self.sessions.begin() as session:
                await stored.release(session, game_id, self.me)
        except Exception:  # the database is going too: the lease will run out
            log.warning("could not give back the review of game %d", game_id)

    async def _lost_touch(self, game_id: int, exc: BaseException) -> None:
        """A database call failed mid-review: the database went away, or this process was
        frozen inside a read until the server ended its session (idle in transaction). The
        review has not failed: if another instance holds it now it is theirs; otherwise its
        claim runs out and the sweep takes it up again (here or elsewhere)."""
        try:
            async with self.sessions() as session:
                row = await stored.get(session, game_id)
        except (SQLAlchemyError, OSError):
            row = None
        if row is not None and row.claimed_by != self.me:
            _taken_over(game_id)
        else:
            log.warning("review of game %d: the database did not answer (%r); taken up "
                        "again once its claim runs out", game_id, exc)

    async def _sweep(self) -> None:
        """Every `sweep` seconds: the rated games that ended (REVIEW_RATED), and the reviews
        whose holder died (its lease ran out)."""
        since = _now()
        while True:
            await asyncio.sleep(self.sweep)
            try:
                if self.rated:
                    async with self.sessions.begin() as session:
                        for game_id in await stored.rated_unreviewed(session, since, 20):
                            if len(self._queued) < self.queue_max:
                                await stored.ask(session, game_id, self.work, self.seed,
                                                 _now())
                                self._enqueue(game_id)
                await self._take_up()
            except Exception:
                log.exception("looking for reviews to make")

    async def _turn(self, turn: review.Turn, work: float, seed: int) -> dict[str, Any]:
        """One turn appraised in a worker: again from the start whenever it made way for a
        bot's move or a hint; a worker that died is replaced and tried RETRIES times."""
        assert self.pool is not None
        failures = yielded = 0
        while True:
            try:
                found: dict[str, Any] = await self.pool.call(
                    review.appraise_turn, turn, work, seed, yielded < YIELDS,
                    priority=REVIEW)
                return found
            except review.Yielded:
                yielded += 1
            except (BrokenProcessPool, RuntimeError):
                failures += 1
                if failures > RETRIES:
                    raise

    async def _compute(self, game_id: int) -> None:
        assert self.pool is not None
        async with self.sessions.begin() as session:
            if not await stored.claim(session, game_id, self.me, _now(), self.lease):
                return  # done, or another instance is making it
        async with self.sessions() as session:
            game = await store.get_game(session, game_id)
        if game is None:
            return
        work, seed = self.work, self.seed
        async with self.sessions() as session:
            row = await stored.get(session, game_id)
        if row is not None:  # the work and seed it was asked with
            work, seed = row.work, row.seed
        turns = await self.pool.call(review.walk_in_worker, game.seed, game.options,
                                     [list(a) for a in game.actions], priority=REVIEW)
        entries = []
        renewed = time.monotonic()
        for turn in turns:
            entries.append(await self._turn(turn, work, seed))
            if time.monotonic() - renewed > self.renew_every:
                renewed = time.monotonic()
                async with self.sessions.begin() as session:
                    if not await stored.renew(session, game_id, self.me, _now()):
                        _taken_over(game_id)
                        return
        done = review.summarize(entries, len(game.summary.players))
        done.update(work=work, seed=seed)
        async with self.sessions.begin() as session:
            if await stored.finish(session, game_id, self.me, done, _now()):
                self.computed += 1
            else:
                _taken_over(game_id)


def _taken_over(game_id: int) -> None:
    """Our claim ran out and another instance took it (this one was frozen, or its
    database calls stalled, past the lease): the other finishes the review, stored once."""
    log.warning("review of game %d: the claim was taken over by another instance; "
                "this one stores nothing", game_id)
