"""`make cluster`: N instances plus HAProxy on this machine, for development.

    python -m server.cluster.dev --instances 2          # http://127.0.0.1:8080
    python -m server.cluster.dev render --server app1:8000 --server app2:8000 \\
        --port 80 --workdir /tmp --out /etc/coffee/haproxy.cfg   # just the proxy config

Instances listen on 127.0.0.1:8001...800N as i1...iN, share REDIS_URL (default the local
Redis) and a PostgreSQL DATABASE_URL (default the local `coffee_rush` database, created
when missing), and write their pids to data/cluster/<instance>.pid. HAProxy runs from
deploy/haproxy.cfg rendered into data/cluster/. Ctrl-C (or SIGTERM) stops the instances with
SIGTERM, so they hand their rooms over, then HAProxy.

The small functions here (render, start/stop an instance or the proxy) are what the cluster
tests and bench/cluster.py use too, so they all run the same configuration.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit

from server.paths import shipped

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = shipped("deploy") / "haproxy.cfg"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
DEFAULT_DATABASE = "postgresql+asyncpg://postgres@127.0.0.1:5432/coffee_rush"


class ClusterError(RuntimeError):
    """Something the cluster needs is missing or did not start; the message says what."""


# --- the front proxy (HAProxy) ----------------------------------------------------------


# Connections one client address may hold at the proxy: a browser's table sockets and its
# plain HTTP ones (the defaults of WS_PER_ADDRESS and HTTP_PER_ADDRESS, 64 each).
PER_ADDRESS = 128


def render_proxy_config(servers: Sequence[str], port: int | str, workdir: Path | str,
                        template: Path = TEMPLATE, per_address: int = PER_ADDRESS) -> str:
    """deploy/haproxy.cfg filled in: each @SERVER@ line once per "host:port" in `servers`,
    and the connections one client address may hold (@PER_ADDRESS@)."""
    if not servers:
        raise ValueError("the proxy needs at least one instance")
    lines: list[str] = []
    for line in template.read_text().splitlines():
        if "@SERVER@" in line:
            lines.extend(line.replace("@SERVER@", s).replace("@NAME@", f"s{n}")
                         for n, s in enumerate(servers, 1))
        else:
            lines.append(line)
    text = "\n".join(lines) + "\n"
    return (text.replace("@LISTEN@", str(port)).replace("@WORKDIR@", str(workdir))
            .replace("@PER_ADDRESS@", str(per_address)))


def write_proxy_config(servers: Sequence[str], port: int, workdir: Path,
                       per_address: int = PER_ADDRESS) -> Path:
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / "haproxy.cfg"
    path.write_text(render_proxy_config(servers, port, workdir.resolve(),
                                        per_address=per_address))
    return path


def proxy_binary() -> str:
    found = shutil.which("haproxy") or next(
        (p for p in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy") if os.access(p, os.X_OK)),
        None)
    if not found:
        raise ClusterError("haproxy is not installed (scripts/ensure-haproxy.sh installs it)")
    return found


def start_proxy(conf: Path, port: int, *, stderr: IO[bytes] | int | None = None,
                timeout: float = 10.0) -> subprocess.Popen[bytes]:
    """HAProxy in the foreground from `conf`, once it accepts connections on `port`."""
    proc = subprocess.Popen([proxy_binary(), "-db", "-f", str(conf)], stdin=subprocess.DEVNULL,
                            stdout=stderr, stderr=stderr, start_new_session=True)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ClusterError(f"haproxy exited with code {proc.returncode} (config {conf})")
        if port_open("127.0.0.1", port):
            return proc
        time.sleep(0.05)
    stop_process(proc)
    raise ClusterError(f"haproxy did not listen on port {port} within {timeout:.0f} s")


def stop_proxy(proc: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    """SIGUSR1: HAProxy stops listening and exits once its connections are done (SIGKILL after
    `timeout`: websockets may stay open for an hour)."""
    stop_process(proc, signal.SIGUSR1, timeout)


# --- instances ---------------------------------------------------------------------------


def instance_env(instance: str, port: int, *, database_url: str, redis_url: str | None,
                 fallback: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    # The proxy runs on this machine: its X-Forwarded-For names the players, for the
    # per-address room-creation limit.
    env = {"FORWARDED_ALLOW_IPS": "127.0.0.1", **os.environ, "HOST": "127.0.0.1",
           "PORT": str(port), "INSTANCE_ID": instance, "DATABASE_URL": database_url,
           "JOURNAL_FALLBACK_PATH": str(fallback)}
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL", None)
    env.update(extra or {})
    return env


def start_instance(env: Mapping[str, str], *, stdout: IO[bytes] | int | None = None,
                   stderr: IO[bytes] | int | None = None) -> subprocess.Popen[bytes]:
    """`python -m server` with this environment (not waited for: see wait_healthy)."""
    return subprocess.Popen([sys.executable, "-m", "server"], cwd=ROOT, env=dict(env),
                            stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                            start_new_session=True)


def wait_healthy(url: str, proc: subprocess.Popen[bytes] | None = None,
                 timeout: float = 30.0, instance: str | None = None) -> dict:
    """/healthz's answer once the instance at `url` gives one; ClusterError if it dies or
    does not answer within `timeout` seconds. With `instance`, only an answer naming it
    (its INSTANCE_ID) counts: a process that held the port before the instance could
    bind it (a leftover one, another test's server) answers /healthz too, while the instance
    fails to bind and exits; taken for it, the proxy would send its rooms there."""
    import httpx  # here: `render` runs in the image, which has no test tooling

    stranger = ""
    deadline = time.monotonic() + timeout
    # One client for all the looks: httpx.get makes one (and its TLS context) per call.
    with httpx.Client(timeout=1) as client:
        while time.monotonic() < deadline:
            if proc is not None and proc.poll() is not None:
                raise ClusterError(f"{url} exited with code {proc.returncode}{stranger}")
            try:
                r = client.get(f"{url}/healthz")
                if r.status_code == 200:
                    health: dict = r.json()
                    if instance in (None, health.get("instance")):
                        return health
                    stranger = (f"; another process answers on its port (instance "
                                f"{health.get('instance')!r}, not {instance!r})")
            except (httpx.HTTPError, ValueError):
                pass
            time.sleep(0.05)
    raise ClusterError(f"{url} did not answer /healthz within {timeout:.0f} s{stranger}")


def stop_instance(proc: subprocess.Popen[bytes], timeout: float = 20.0) -> int:
    """SIGTERM (the instance hands its rooms over, then exits), SIGKILL after `timeout`."""
    return stop_process(proc, signal.SIGTERM, timeout)


def stop_process(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM,
                 timeout: float = 10.0) -> int:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode


# --- services ----------------------------------------------------------------------------


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def require_postgres(database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        raise ClusterError(f"cluster mode needs PostgreSQL, not {database_url.split(':')[0]}: "
                           "set DATABASE_URL=postgresql+asyncpg://...")


def ensure_default_database() -> None:
    """The local `coffee_rush` database, created (and PostgreSQL started) when missing."""
    done = subprocess.run([str(ROOT / "scripts" / "ensure-postgres.sh")], capture_output=True,
                          text=True, env={**os.environ, "TEST_DB_NAME": "coffee_rush"}, timeout=60)
    if done.returncode:
        raise ClusterError(f"PostgreSQL: {done.stderr.strip() or 'ensure-postgres.sh failed'}")


def require_redis(redis_url: str) -> None:
    parts = urlsplit(redis_url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 6379
    if not port_open(host, port):
        raise ClusterError(f"Redis is not reachable at {host}:{port} (REDIS_URL={redis_url})")


# --- the launcher ------------------------------------------------------------------------


def run(instances: int, port: int, first_port: int, workdir: Path) -> None:
    database_url = os.environ.get("DATABASE_URL", DEFAULT_DATABASE)
    redis_url = os.environ.get("REDIS_URL", DEFAULT_REDIS)
    require_postgres(database_url)
    if database_url == DEFAULT_DATABASE:
        ensure_default_database()
    require_redis(redis_url)
    for p in [port, *range(first_port, first_port + instances)]:
        if port_open("127.0.0.1", p):
            raise ClusterError(f"port {p} is already in use")
    from server.db.migrate import upgrade

    upgrade(database_url)  # once, here, so the instances do not race to create the schema

    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    workdir.mkdir(parents=True, exist_ok=True)
    procs: dict[str, subprocess.Popen[bytes]] = {}
    proxy: subprocess.Popen[bytes] | None = None
    try:
        for n in range(1, instances + 1):
            name, p = f"i{n}", first_port + n - 1
            env = instance_env(name, p, database_url=database_url, redis_url=redis_url,
                               fallback=workdir / f"{name}.fallback.jsonl")
            procs[name] = start_instance(env)
            (workdir / f"{name}.pid").write_text(f"{procs[name].pid}\n")
        for n, (name, proc) in enumerate(procs.items()):
            health = wait_healthy(f"http://127.0.0.1:{first_port + n}", proc, timeout=60,
                                  instance=name)
            print(f"{name}: http://127.0.0.1:{first_port + n} (pid {proc.pid}, "
                  f"{health.get('rooms', 0)} rooms)", flush=True)
        servers = [f"127.0.0.1:{first_port + n}" for n in range(instances)]
        conf = write_proxy_config(servers, port, workdir)
        proxy = start_proxy(conf, port)
        (workdir / "haproxy.pid").write_text(f"{proxy.pid}\n")
        print(f"haproxy: http://127.0.0.1:{port} (Ctrl-C stops everything)", flush=True)
        reported: set[str] = set()
        while not stopping:
            for name, proc in procs.items():
                if proc.poll() is not None and name not in reported:
                    reported.add(name)
                    print(f"{name} exited with code {proc.returncode}; the proxy skips it",
                          flush=True)
            if proxy.poll() is not None:
                raise ClusterError(f"haproxy exited with code {proxy.returncode}")
            time.sleep(0.2)
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut this short
        print("stopping: instances hand their rooms over...", flush=True)
        for proc in procs.values():  # all at once: each hands off to whoever is still up
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for name, proc in procs.items():
            stop_instance(proc)
            (workdir / f"{name}.pid").unlink(missing_ok=True)
        if proxy is not None:
            stop_proxy(proxy)
            (workdir / "haproxy.pid").unlink(missing_ok=True)
        print("stopped", flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["render"]:
        parser = argparse.ArgumentParser(prog="python -m server.cluster.dev render",
                                         description="Write deploy/haproxy.cfg rendered.")
        parser.add_argument("--server", action="append", required=True, help="host:port")
        parser.add_argument("--port", type=int, default=80)
        parser.add_argument("--workdir", default="/tmp")
        parser.add_argument("--out", type=Path, required=True)
        parser.add_argument("--per-address", type=int, default=PER_ADDRESS,
                            help="connections one client address may hold")
        r = parser.parse_args(args[1:])
        r.out.parent.mkdir(parents=True, exist_ok=True)
        r.out.write_text(render_proxy_config(r.server, r.port, r.workdir,
                                             per_address=r.per_address))
        return
    parser = argparse.ArgumentParser(prog="python -m server.cluster.dev", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--instances", "-n", type=int, default=2)
    parser.add_argument("--port", type=int, default=8080, help="the proxy's port")
    parser.add_argument("--first-port", type=int, default=8001, help="instance i1's port")
    parser.add_argument("--workdir", type=Path, default=ROOT / "data" / "cluster")
    a = parser.parse_args(args)
    if a.instances < 1:
        parser.error("--instances must be at least 1")
    try:
        run(a.instances, a.port, a.first_port, a.workdir)
    except ClusterError as e:
        sys.exit(f"make cluster: {e}")


if __name__ == "__main__":
    main()
