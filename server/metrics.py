"""What the server is doing, for Prometheus: `GET /metrics` (text exposition format), served
on a listen address of its own (METRICS_HOST:METRICS_PORT, off by default), never on the
public port: a scraper reaches it, the players' proxy does not.

One registry per app (no import-time globals). Gauges that describe the present (rooms,
sockets, fallback file) are read from the live objects at scrape time; counters and
histograms are fed where things happen: the wire (actions, acks), the database journal
(commits) and the bots (thinking).
"""

from __future__ import annotations

import time
from collections import Counter as Tally
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import uvicorn
from fastapi import Request, Response
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.types import ASGIApp

from server.rooms import RoomManager
from server.rooms.stages import STAGES, Stages

if TYPE_CHECKING:
    from server.rules import Action, GameView

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Per-stage timing (STAGE_TIMING): down to a tenth of a millisecond.
FINE = (0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0,
        2.5)
FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class _Live(Collector):
    """Rooms by status, sockets by role and the fallback file, read when scraped."""

    def __init__(self, rooms: RoomManager, fallback: Path | None) -> None:
        self.rooms = rooms
        self.fallback = fallback
        # The e-mail outbox's backlog (server/notify), when mail is on.
        self.mail_backlog: Callable[[], int] | None = None

    def collect(self) -> Iterator[Metric]:
        statuses = Tally(room.status for room in self.rooms.rooms.values())
        rooms = GaugeMetricFamily("coffee_rush_rooms", "Rooms in memory, by status",
                                  labels=["status"])
        for status in ("waiting", "playing", "finished", "incompatible"):
            rooms.add_metric([status], statuses.get(status, 0))
        yield rooms
        roles = Tally("player" if conn.seat is not None else "spectator"
                      for room in self.rooms.rooms.values() for conn in room.connections())
        sockets = GaugeMetricFamily("coffee_rush_sockets", "Open table websockets, by role",
                                    labels=["role"])
        for role in ("player", "spectator"):
            sockets.add_metric([role], roles.get(role, 0))
        yield sockets
        yield GaugeMetricFamily(
            "coffee_rush_journal_fallback_lines",
            "Journal writes waiting in the fallback file for the database to come back",
            value=self.fallback_depth(),
        )
        if self.mail_backlog is not None:
            yield GaugeMetricFamily(
                "coffee_rush_mail_outbox",
                "E-mails waiting in the outbox (due, or backing off after a failed send)",
                value=self.mail_backlog(),
            )

    def fallback_depth(self) -> int:
        if self.fallback is None:
            return 0
        try:
            with self.fallback.open("rb") as f:
                return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 16), b""))
        except FileNotFoundError:
            return 0


class Metrics:
    def __init__(self, rooms: RoomManager, fallback: Path | None) -> None:
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)  # process_resident_memory_bytes and more
        self.live = _Live(rooms, fallback)
        self.registry.register(self.live)
        self.actions = Counter(
            "coffee_rush_actions", "Actions sent over websockets, by outcome and error code",
            ["outcome", "code"], registry=self.registry,
        )
        self._accepted = self.actions.labels("accepted", "")  # looked up once, not per action
        # Told of every error frame a socket is sent, (code, client address): the operators'
        # page keeps the recent ones (server/admin/refusals.py).
        self.socket_refusal: Callable[[str, str | None], None] | None = None
        self.ack_latency = Histogram(
            "coffee_rush_ack_latency_seconds",
            "From an act frame read to its ack queued (journal commit included)",
            buckets=FAST, registry=self.registry,
        )
        self.journal_commit = Histogram(
            "coffee_rush_journal_commit_seconds", "Duration of one journal transaction",
            buckets=FAST, registry=self.registry,
        )
        self.journal_batch = Histogram(
            "coffee_rush_journal_batch_size", "Writes committed together (group commit)",
            buckets=(1, 2, 4, 8, 16, 32, 64, 128), registry=self.registry,
        )
        self.stages = Histogram(
            "coffee_rush_action_stage_seconds",
            "STAGE_TIMING only: an accepted action's time in each stage (rules: frame "
            "received to rules applied; journal: to durable; queue: to frames queued; "
            "write: to the last socket written; total)",
            ["stage"], buckets=FINE, registry=self.registry,
        )
        self._stages = {stage: self.stages.labels(stage) for stage in STAGES}
        self.gc_pause = Histogram(
            "coffee_rush_gc_pause_seconds",
            "Garbage collector passes, by generation (2: the periodic and full ones); the "
            "event loop stands still meanwhile",
            ["generation"], buckets=FINE, registry=self.registry,
        )
        self._gc_pause = [self.gc_pause.labels(str(g)) for g in range(3)]
        self.bot_think = Histogram(
            "coffee_rush_bot_think_seconds", "Time a bot took to choose an action, by level",
            ["level"], buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0),
            registry=self.registry,
        )

    def accepted(self, seconds: float) -> None:
        self._accepted.inc()
        self.ack_latency.observe(seconds)

    def refused(self, code: str) -> None:
        self.actions.labels("refused", code).inc()

    def staged(self, stages: Stages, last_written: float) -> None:
        for stage, seconds in stages.durations(last_written).items():
            self._stages[stage].observe(seconds)

    def collected(self, generation: int, seconds: float) -> None:
        self._gc_pause[generation].observe(seconds)

    def committed(self, batch: int, seconds: float) -> None:
        self.journal_batch.observe(batch)
        self.journal_commit.observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class TimedChooser:
    """A bot pool whose every decision is timed into `Metrics.bot_think`."""

    def __init__(self, pool: Any, metrics: Metrics) -> None:
        self.pool = pool
        self.metrics = metrics

    async def choose(self, level: str, view: GameView, seed: int, budget: float,
                     key: str | None = None) -> Action:
        start = time.perf_counter()
        try:
            return await self.pool.choose(level, view, seed, budget, key)
        finally:
            self.metrics.bot_think.labels(level).observe(time.perf_counter() - start)

    def close(self) -> None:
        close = getattr(self.pool, "close", None)
        if close is not None:
            close()


def metrics_app(metrics: Metrics) -> ASGIApp:
    """`GET /metrics` (Prometheus text format; README "Metrics"), 404 for anything else."""

    async def scrape(request: Request) -> Response:
        return Response(metrics.render(), media_type=CONTENT_TYPE)

    return Starlette(routes=[Route("/metrics", scrape, methods=["GET"])])


async def serve_metrics(metrics: Metrics, host: str, port: int) -> uvicorn.Server:
    """The metrics app listening on host:port, in this process's event loop (started, not
    run: uvicorn's `serve` would take over the signals the main server handles). Exits the
    process, as uvicorn does, when the address cannot be bound."""
    config = uvicorn.Config(metrics_app(metrics), host=host, port=port, lifespan="off",
                            log_config=None, access_log=False, server_header=False)
    config.load()
    server = uvicorn.Server(config)
    server.lifespan = config.lifespan_class(config)  # as uvicorn's `serve` sets it
    await server.startup()
    return server
