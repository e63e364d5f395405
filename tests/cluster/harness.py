"""A real cluster on loopback for tests: its own redis-server, HAProxy from deploy/haproxy.cfg,
N `python -m server` instances, and a fresh PostgreSQL database, all on free ports.

    with Cluster(tmp_path, instances=2) as c:     # or the `cluster` fixture (conftest.py)
        httpx.post(f"{c.proxy_url}/api/rooms", ...)
        c.kill("i1")                               # SIGKILL, waits for the exit
        c.restart("i1")
        c.stop_redis(); c.start_redis()            # same port, empty

Every wait is bounded; close() tears everything down (also after a failed start) and
drops the database.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url

from server.cluster.dev import (
    ClusterError,
    instance_env,
    start_instance,
    start_proxy,
    stop_instance,
    stop_process,
    stop_proxy,
    wait_healthy,
    write_proxy_config,
)
from tests.pg_template import migrated_copy
from tests.serving import free_port

PG_SERVER = os.environ.get(
    "TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/coffee_rush_test"
)
# Test settings every instance gets: a known deal, no rate limits getting in the way, bots
# off unless a test turns them on.
TEST_SETTINGS = {
    "LOG_LEVEL": "warning", "TEST_FIXED_SEED": "7", "ROOM_CREATE_RATE": "1000",
    "WS_FLOOD_MESSAGES": "100000", "BOT_WORKERS": "0", "LEASE_TTL": "2",
    "WS_PER_ADDRESS": "100000",  # the clients all come from this host
}


def redis_ping(port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


# --- a throw-away PostgreSQL database ------------------------------------------------------


def _admin_url(server_url: str) -> URL:
    return make_url(server_url).set(drivername="postgresql+psycopg", database="postgres")


def create_database(server_url: str = PG_SERVER) -> str:
    """A new database on `server_url`'s server, migrated (a copy of the migrated template,
    tests/pg_template.py) before any instance starts, so they do not race on the schema; its
    asyncpg URL."""
    base = make_url(server_url)
    name = f"{base.database or 'crush'}_cl_{uuid.uuid4().hex[:10]}"
    url = base.set(drivername="postgresql+asyncpg", database=name).render_as_string(
        hide_password=False)
    migrated_copy(url, template_of=server_url)
    return url


def drop_database(url: str) -> None:
    name = make_url(url).database
    engine = create_engine(_admin_url(url), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        engine.dispose()


# --- the cluster -------------------------------------------------------------------------


class Instance:
    def __init__(self, name: str, port: int, env: dict[str, str], log: Path) -> None:
        self.name, self.port, self.env, self.log = name, port, env, log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def addr(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""


class Cluster:
    def __init__(self, workdir: Path, instances: int = 2, *, redis: bool = True,
                 database_url: str | None = None, settings: Mapping[str, str] | None = None,
                 start_timeout: float = 60.0, per_address: int = 100000) -> None:
        self.workdir = workdir
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.count = instances
        self.use_redis = redis
        self.given_database = database_url
        self.database_url = database_url or ""
        self.settings = {**TEST_SETTINGS, **(settings or {})}
        self.start_timeout = start_timeout
        self.per_address = per_address  # at the proxy: the clients all come from this host
        self.redis_port = free_port()
        self.redis_proc: subprocess.Popen[bytes] | None = None
        self.proxy_port = free_port()
        self.proxy: subprocess.Popen[bytes] | None = None
        self.instances: dict[str, Instance] = {}
        self._logs: list[IO[bytes]] = []

    # -- life cycle

    def __enter__(self) -> Cluster:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        if self.use_redis:
            self.start_redis()
        if not self.given_database:
            self.database_url = create_database()
        for n in range(1, self.count + 1):
            name = f"i{n}"
            port = free_port()
            env = instance_env(
                name, port, database_url=self.database_url,
                redis_url=f"redis://127.0.0.1:{self.redis_port}/0" if self.use_redis else None,
                fallback=self.workdir / f"{name}.fallback.jsonl", extra=self.settings)
            self.instances[name] = Instance(name, port, env, self.workdir / f"{name}.log")
        for inst in self.instances.values():
            self._spawn(inst)
        self.wait_healthy()
        conf = write_proxy_config([i.addr for i in self.instances.values()], self.proxy_port,
                                  self.workdir / "haproxy", per_address=self.per_address)
        self.proxy = start_proxy(conf, self.proxy_port, stderr=self._log("haproxy"))

    def close(self) -> None:
        """Stop everything this cluster started (SIGKILL after bounded waits) and drop its
        database; safe to call twice and after a failed start."""
        for inst in self.instances.values():
            if inst.proc is not None and inst.proc.poll() is None:
                inst.proc.send_signal(signal.SIGCONT)  # a SIGSTOPped one must hear the TERM
                inst.proc.send_signal(signal.SIGTERM)  # all at once: none waits for another
        for inst in self.instances.values():
            if inst.proc is not None:
                stop_instance(inst.proc, timeout=15)
        if self.proxy is not None:
            stop_proxy(self.proxy)
        self.stop_redis()
        for f in self._logs:
            f.close()
        self._logs.clear()
        if self.database_url and not self.given_database:
            drop_database(self.database_url)
            self.database_url = ""

    # -- addresses

    @property
    def proxy_url(self) -> str:
        return f"http://127.0.0.1:{self.proxy_port}"

    def proxy_ws(self, code: str) -> str:
        return f"ws://127.0.0.1:{self.proxy_port}/ws/{code}"

    @property
    def instance_urls(self) -> dict[str, str]:
        return {name: inst.url for name, inst in self.instances.items()}

    def by_addr(self, addr: str) -> Instance:
        """The instance behind an X-Upstream value (a list "a, b" names the last one tried)."""
        last = addr.split(",")[-1].strip()
        return next(i for i in self.instances.values() if i.addr == last)

    # -- instances

    def _log(self, name: str) -> IO[bytes]:
        f = (self.workdir / f"{name}.log").open("ab")
        self._logs.append(f)
        return f

    def _spawn(self, inst: Instance) -> None:
        log = self._log(inst.name)
        inst.proc = start_instance(inst.env, stdout=log, stderr=log)

    def wait_healthy(self, names: Iterable[str] | None = None,
                     timeout: float | None = None) -> dict[str, dict[str, Any]]:
        """/healthz of each named (default: every) instance once it answers."""
        out = {}
        for name in names or list(self.instances):
            inst = self.instances[name]
            try:
                out[name] = wait_healthy(inst.url, inst.proc, timeout or self.start_timeout,
                                         instance=name)
            except ClusterError as e:
                raise ClusterError(f"{name}: {e}\n{inst.tail()}") from None
        return out

    def kill(self, name: str, sig: int = signal.SIGKILL, timeout: float = 20.0) -> None:
        """Send `sig` to the instance; for SIGKILL/SIGTERM/SIGINT wait (bounded) until it has
        exited. SIGSTOP/SIGCONT return at once."""
        inst = self.instances[name]
        assert inst.proc is not None and inst.proc.poll() is None, f"{name} is not running"
        if sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT):
            stop_process(inst.proc, sig, timeout)
        else:
            inst.proc.send_signal(sig)

    def restart(self, name: str) -> dict[str, Any]:
        """Start a stopped instance again on its port, with its settings; its /healthz."""
        inst = self.instances[name]
        if inst.alive:
            self.kill(name, signal.SIGTERM)
        self._spawn(inst)
        return self.wait_healthy([name])[name]

    # -- redis

    def start_redis(self, timeout: float = 10.0) -> None:
        """redis-server on this cluster's port (the same one after stop_redis), empty."""
        assert self.redis_proc is None or self.redis_proc.poll() is not None
        self.redis_proc = subprocess.Popen(
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(self.workdir)],
            stdin=subprocess.DEVNULL, stdout=self._log("redis"), stderr=subprocess.STDOUT,
            start_new_session=True)
        deadline = time.monotonic() + timeout
        while not redis_ping(self.redis_port):
            if self.redis_proc.poll() is not None or time.monotonic() > deadline:
                stop_process(self.redis_proc, signal.SIGKILL)
                raise ClusterError(f"redis-server did not start on port {self.redis_port}")
            time.sleep(0.05)

    def stop_redis(self, sig: int = signal.SIGKILL) -> None:
        """Redis goes away (SIGKILL by default: no goodbye, nothing saved)."""
        if self.redis_proc is not None:
            stop_process(self.redis_proc, sig, 10)

    # -- routing

    def route(self, path: str, method: str = "GET", **kw: Any) -> tuple[Instance, httpx.Response]:
        """A request through the proxy, and the instance that answered it (X-Upstream)."""
        r = httpx.request(method, self.proxy_url + path, timeout=10, **kw)
        return self.by_addr(r.headers["x-upstream"]), r
