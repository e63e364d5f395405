"""The `cluster` fixture (tests/cluster/harness.py): a redis-server, a PostgreSQL database,
`python -m server` instances in cluster mode that a test can SIGKILL, SIGSTOP or restart on
the same port, and HAProxy from deploy/haproxy.cfg in front — all of the test's own."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from server.cluster.dev import ClusterError, proxy_binary

from .harness import PG_SERVER, Cluster, _admin_url


class At:
    """What tests.persist.live.Table needs of a server (`http`, `ws(code)`): one instance
    directly, or the proxy in front of them all."""

    def __init__(self, http: str) -> None:
        self.http = http

    def ws(self, code: str) -> str:
        return self.http.replace("http", "ws", 1) + f"/ws/{code}"


# --- the harness: HAProxy + Redis + instances + a fresh database -------------------------------


def _missing() -> str | None:
    try:
        proxy_binary()
    except ClusterError as e:
        return str(e)
    if not shutil.which("redis-server"):
        return "redis-server is not installed (Debian package redis-server)"
    engine = create_engine(_admin_url(PG_SERVER))
    try:
        with engine.connect() as conn:
            conn.execute(text("select 1"))
    except OperationalError as e:
        return f"PostgreSQL not reachable for TEST_DATABASE_URL ({e.orig})"
    finally:
        engine.dispose()
    return None


@pytest.fixture(scope="session")
def cluster_parts() -> None:
    reason = _missing()
    if reason:
        pytest.skip(reason)


@pytest.fixture
def cluster(cluster_parts: None, tmp_path: Path) -> Iterator[Callable[..., Cluster]]:
    """cluster(instances=2, **options) -> a started Cluster; all torn down after the test."""
    made: list[Cluster] = []

    def make(instances: int = 2, **options: Any) -> Cluster:
        c = Cluster(tmp_path / f"cluster{len(made)}", instances, **options)
        made.append(c)
        c.start()
        return c

    try:
        yield make
    finally:
        for c in made:
            c.close()
