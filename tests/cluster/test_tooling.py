"""The cluster's tooling on real HAProxy: the repo's config is valid, a room's URLs always reach
one instance whatever way its code is written, other URLs spread, and a dead instance is
skipped at once."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from server.cluster.dev import (
    ROOT,
    ClusterError,
    proxy_binary,
    render_proxy_config,
    write_proxy_config,
)
from server.rooms.codes import ALPHABET, display
from tests.ports import ports_in_a_row
from tests.serving import served

from . import harness
from .harness import Cluster, Instance, create_database, drop_database, free_port, redis_ping


def check_proxy_config(conf: Path) -> subprocess.CompletedProcess[str]:
    """`haproxy -c` on a rendered file (returncode 0 when valid; the verdict in its output)."""
    return subprocess.run([proxy_binary(), "-c", "-f", str(conf)],
                          capture_output=True, text=True, timeout=30)


def codes(n: int, seed: int = 10) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(8)) for _ in range(n)]


def room_urls(code: str) -> list[str]:
    """Every room-scoped URL of one room, in both written forms of its code."""
    return [f"{p}{c}{tail}" for c in (code, display(code))
            for p, tail in (("/r/", ""), ("/api/rooms/", ""), ("/api/rooms/", "/join"),
                            ("/ws/", ""))]


def test_the_rendered_config_passes_haproxy_c(tmp_path: Path) -> None:
    servers = ["127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003"]
    conf = write_proxy_config(servers, 9080, tmp_path / "haproxy")
    text = conf.read_text()
    assert "@" not in text  # no placeholder left
    for n, s in enumerate(servers, 1):  # each instance in both backends
        assert text.count(f"server s{n} {s}\n") == 2
    checked = check_proxy_config(conf)
    assert checked.returncode == 0, checked.stderr
    assert "Configuration file is valid" in checked.stdout
    assert "WARNING" not in checked.stderr, checked.stderr


def test_compose_style_render_uses_service_names() -> None:
    text = render_proxy_config(["app1:8000", "app2:8000"], 80, "/tmp")
    assert "bind :80\n" in text
    assert text.count(" app1:8000\n") == 2 and text.count(" app2:8000\n") == 2


def test_a_room_always_reaches_the_same_instance_and_other_urls_spread(
    cluster: Callable[..., Cluster],
) -> None:
    c = cluster(3)
    seen: dict[str, Instance] = {}
    # Every URL of a room, in both spellings, for the first codes; one URL each for the rest
    # (enough to see the spread). A request for an unknown room costs its instance a claim.
    for n, code in enumerate(codes(12)):  # all on one of 3 instances by chance: 3 / 3**12
        for url in room_urls(code) if n < 4 else room_urls(code)[:1]:
            inst, _ = c.route(url, "POST" if url.endswith("/join") else "GET")
            assert seen.setdefault(code, inst) is inst, (url, inst.name, seen[code].name)
    assert len({i.name for i in seen.values()}) > 1  # codes spread over the instances
    spread = {c.route(path)[0].name for path in ["/healthz", "/", "/api/rooms"] * 3}
    assert spread == set(c.instances)  # round robin for everything else


def test_a_websocket_upgrades_through_the_proxy_to_the_rooms_instance(
    cluster: Callable[..., Cluster],
) -> None:
    c = cluster(2)
    for _ in range(40):  # make rooms directly until one lives where the proxy routes its code
        target = random.choice(list(c.instances.values()))
        created = httpx.post(f"{target.url}/api/rooms", json={"players": 2}, timeout=10).json()
        routed, info = c.route(f"/api/rooms/{created['code']}")
        if routed is target:
            break
    else:
        raise AssertionError("no room code hashed to the instance that made it")
    assert info.status_code == 200 and info.json()["code"] == created["code"]
    with connect(c.proxy_ws(created["code"]), open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        frame = json.loads(ws.recv(timeout=10))
        assert frame["type"] == "snapshot", frame
        assert frame["view"]["room"]["code"] == created["code"]


def test_a_dead_instance_is_skipped_and_taken_back_once_it_returns(
    cluster: Callable[..., Cluster],
) -> None:
    c = cluster(2)
    victim, survivor = c.instances["i1"], c.instances["i2"]
    on_victim = []
    for code in codes(40):  # until five are found: a request for an unknown room is a claim
        if c.route(f"/r/{code}")[0] is victim:
            on_victim.append(code)
            if len(on_victim) == 5:
                break
    assert on_victim
    c.kill("i1", signal.SIGKILL)
    for code in on_victim:
        for url in room_urls(code)[:2]:
            inst, r = c.route(url)
            assert inst is survivor and r.status_code != 502, (url, r.status_code)
    for _ in range(4):
        inst, r = c.route("/healthz")
        assert (inst, r.status_code) == (survivor, 200)
    c.restart("i1")
    # Its old rooms stay where they moved (each room moves once); new rooms reach it again
    # once two health checks (1 s apart) have seen it.
    fresh = [code for code in codes(80, seed=11) if code not in on_victim]
    deadline = time.monotonic() + 15
    while {c.route(f"/r/{code}")[0].name for code in fresh[:12]} != set(c.instances):
        assert time.monotonic() < deadline, "the restarted instance never took rooms again"
        time.sleep(0.3)
        fresh = fresh[12:]
    for code in on_victim:
        assert c.route(f"/r/{code}")[0] is survivor


def test_a_server_that_took_an_instances_port_is_not_taken_for_the_instance(
    cluster_parts: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Another test's server bound the port picked for i1 before i1 could: it answers
    # /healthz, and i1 exits ("address already in use"). Taken for i1, the proxy would send
    # i1's share of the rooms to a server that has none of them (not_found at the front door).
    with served(tmp_path / "other.db") as other:
        taken = int(other.rsplit(":", 1)[1])
        picks = iter([free_port(), free_port(), taken, free_port()])  # redis, proxy, i1, i2
        monkeypatch.setattr(harness, "free_port", lambda: next(picks))
        with pytest.raises(ClusterError, match="another process answers on its port"), \
                Cluster(tmp_path / "cluster", 2):
            pass


def test_the_launcher_refuses_sqlite_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "server.cluster.dev", "--instances", "1"], cwd=ROOT,
        env={**os.environ, "DATABASE_URL": "sqlite+aiosqlite:///./data/x.db"},
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0 and "PostgreSQL" in done.stderr, done.stderr


def test_make_cluster_runs_instances_and_the_proxy_and_ctrl_c_stops_them_all(
    cluster_parts: None, tmp_path: Path,
) -> None:
    redis_port = free_port()
    redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1",
                              "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
    database = create_database()
    proxy, first = free_port(), ports_in_a_row(2)  # instances: --first-port and the next
    workdir = tmp_path / "cluster"
    launcher = subprocess.Popen(
        [sys.executable, "-m", "server.cluster.dev", "--instances", "2", "--port", str(proxy),
         "--first-port", str(first), "--workdir", str(workdir)], cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database, "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
             "LOG_LEVEL": "warning", "BOT_WORKERS": "0"},
        stdout=subprocess.PIPE, text=True, start_new_session=True)
    pids: list[int] = []
    try:
        deadline = time.monotonic() + 10
        while not redis_ping(redis_port):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        lines = []
        for line in launcher.stdout or []:  # bounded: the launcher gives up after 60 s
            lines.append(line)
            if line.startswith("haproxy:"):
                break
        assert lines and lines[-1].startswith("haproxy:"), lines
        pids = [int((workdir / f"{name}.pid").read_text()) for name in ("i1", "i2", "haproxy")]
        health = [httpx.get(f"http://127.0.0.1:{proxy}/healthz", timeout=5) for _ in range(4)]
        assert {h.json()["instance"] for h in health} == {"i1", "i2"}
        assert {h.headers["x-instance"] for h in health} == {"i1", "i2"}
        launcher.send_signal(signal.SIGINT)  # Ctrl-C
        assert launcher.wait(60) == 0
        assert not [pid for pid in pids if Path(f"/proc/{pid}").exists()]
        assert not list(workdir.glob("*.pid"))
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()
        if launcher.stdout is not None:
            launcher.stdout.close()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        drop_database(database)
        redis.kill()
        redis.wait()
