"""Real parts for the cluster tests: a redis-server of the test's own, a PostgreSQL database
of its own, and `python -m server` instances in cluster mode that a test can SIGKILL,
SIGSTOP or restart on the same port; and the `cluster` fixture (tests/cluster/harness.py):
those plus nginx from deploy/nginx.conf in front."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from server.cluster.dev import ClusterError, nginx_binary
from tests.db.conftest import PG_URL, reset_postgres
from tests.db.proxy import TcpProxy
from tests.persist.live import ROOT, Server, free_port

from .harness import PG_SERVER, Cluster, _admin_url


class RedisServer:
    """redis-server on a port of its own, stoppable and startable again (empty, as a real
    restart of this machine's Redis is: it keeps nothing on disk)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(
                ("127.0.0.1", self.port), timeout=0.2
            ):
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


class Instance(Server):
    """One cluster instance, always on the same port (so a restart is the same instance)."""

    def __init__(self, name: str, env: dict[str, str]) -> None:
        self.port = free_port()
        super().__init__({**env, "INSTANCE_ID": name, "PORT": str(self.port)})
        self.name = name

    def start(self) -> None:
        self.spawn()
        self.wait_ready()

    def spawn(self) -> None:
        self.http = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([sys.executable, "-m", "server"], cwd=ROOT, env=self.env)

    def wait_ready(self) -> None:
        assert self.proc is not None
        for _ in range(600):
            if self.proc.poll() is not None:
                raise RuntimeError(f"instance {self.name} exited with {self.proc.returncode}")
            try:
                if httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError(f"instance {self.name} did not start")

    def signal(self, sig: signal.Signals) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    def terminate(self) -> None:
        """SIGTERM: a graceful stop, handing every room over."""
        assert self.proc is not None
        self.proc.terminate()
        self.proc.wait(30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.kill()
            self.proc.wait(10)


def cluster_database_url() -> str:
    """A PostgreSQL database of the cluster tests' own, emptied."""
    url = make_url(PG_URL)
    name = f"{url.database}_cluster"
    admin = create_engine(url.set(drivername="postgresql+psycopg", database="postgres"),
                          isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            exists = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"),
                                  {"n": name}).first()
            if exists is None:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
    except OperationalError as exc:
        pytest.skip(f"PostgreSQL not reachable: {exc.orig}")
    finally:
        admin.dispose()
    cluster_url = url.set(database=name).render_as_string(hide_password=False)
    reset_postgres(cluster_url)
    return cluster_url


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def cluster_env(redis_server: RedisServer) -> dict[str, str]:
    return {
        "DATABASE_URL": cluster_database_url(), "REDIS_URL": redis_server.url,
        "LEASE_TTL": "1.5", "BOT_WORKERS": "0", "LOG_LEVEL": "info", "TEST_FIXED_SEED": "5",
    }


@pytest.fixture
def instances(cluster_env: dict[str, str]) -> Iterator[list[Instance]]:
    """Two running instances (i1, i2) of one cluster."""
    started = [Instance(f"i{n}", cluster_env) for n in (1, 2)]
    try:
        for instance in started:
            instance.spawn()
        for instance in started:
            instance.wait_ready()
        yield started
    finally:
        for instance in started:
            instance.stop()


class ThreadedProxy:
    """tests.db.proxy.TcpProxy on an event loop of its own thread, for servers in other
    processes: `shut()` is the database going away, `open()` it coming back."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.proxy = TcpProxy(target_host, target_port)
        self.open()

    @property
    def port(self) -> int:
        return self.proxy.port

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def open(self) -> None:
        self._run(self.proxy.open())

    def shut(self) -> None:
        self._run(self.proxy.shut())

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.shut()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


# --- the harness: nginx + Redis + instances + a fresh database -------------------------------


def _missing() -> str | None:
    try:
        nginx_binary()
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
