"""The services one app runs: the room manager (cluster or not), the database, metrics and
mail, made from the settings (started and stopped by lifespan.py)."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from server.cluster.settings import check_cluster_settings
from server.config import Settings
from server.db.models import utcnow
from server.metrics import Metrics
from server.notify import MailWorker, mail_settings_ok
from server.persist import Database
from server.quickplay import Quickplay
from server.rooms import Journal, RoomManager
from server.tournaments import Tournaments

if TYPE_CHECKING:
    from server.cluster.manager import ClusterRoomManager


@dataclasses.dataclass(frozen=True)
class Services:
    settings: Settings
    manager: RoomManager
    cluster: ClusterRoomManager | None  # the manager too, in cluster mode
    database: Database | None  # None when a journal was injected (tests)
    metrics: Metrics
    mail: MailWorker | None  # e-mail for turn-based rooms: SMTP and a database
    wall: Callable[[], datetime]
    quickplay: Quickplay  # Play now and the seeks; its waiting list is in the database
    tournaments: Tournaments  # their scheduler, tables' listener and page watchers


def build_services(settings: Settings, journal: Journal | None,
                   clock: Callable[[], float] | None) -> Services:
    """Without a `journal`, rooms are journaled to the database at DATABASE_URL; a `journal`
    given here (tests) replaces the database entirely."""
    logging.getLogger("server").setLevel(settings.LOG_LEVEL.upper())
    clocked: dict[str, Any] = {} if clock is None else {"clock": clock}
    cluster: ClusterRoomManager | None = None
    manager: RoomManager
    database: Database | None
    if settings.cluster:
        # Redis and the cluster's modules are imported by a server in cluster mode only.
        from server.cluster.manager import ClusterRoomManager, redis_client

        check_cluster_settings(settings, journal)
        cluster = ClusterRoomManager(settings, redis_client(settings), **clocked)
        manager = cluster
        database = Database(settings, fence=cluster.ownership.fence)
    else:
        manager = RoomManager(settings, journal, **clocked)
        database = Database(settings) if journal is None else None
    metrics = Metrics(manager, None if database is None else database.fallback_path)
    wall = wall_clock(clock)
    mail = (MailWorker(settings, manager, wall)
            if database is not None and mail_settings_ok(settings) else None)
    return Services(settings, manager, cluster, database, metrics, mail, wall,
                    Quickplay(settings, manager, wall), Tournaments(settings, manager, wall))


def wall_clock(clock: Callable[[], float] | None) -> Callable[[], datetime]:
    """UTC time for what is stored (the outbox, codes): the real one, or with an injected
    room clock (tests), now plus the seconds that clock has run since the app was made."""
    if clock is None:
        return utcnow
    start, at = utcnow(), clock()
    return lambda: start + timedelta(seconds=clock() - at)
