"""One live instance per INSTANCE_ID (issue 41.15): leases name their holder by that id, so
two instances under one name would each take the other's rooms for its own. A second one is
refused at start in one line; an instance that crashed does not keep its name from the next
start."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Callable

import httpx

from server.cluster.dev import start_instance

from .harness import Cluster, free_port


def test_a_second_instance_with_the_same_id_is_refused_at_start(
    cluster: Callable[..., Cluster],
) -> None:
    c = cluster(instances=1)
    i1 = c.instances["i1"]
    port = free_port()
    twin = start_instance({**i1.env, "PORT": str(port)}, stderr=subprocess.PIPE)
    try:
        try:
            _, err = twin.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            raise AssertionError("two instances run as i1") from None
        lines = [line for line in err.decode().splitlines() if "cannot start" in line]
        assert twin.returncode == 3, err.decode()
        assert lines == ["coffee-rush: cannot start: another instance is running as "
                         "INSTANCE_ID=i1 (each instance needs its own)"], err.decode()
    finally:
        if twin.poll() is None:
            twin.kill()
            twin.communicate()
    assert httpx.get(f"{i1.url}/healthz", timeout=5).json()["status"] == "ok"


def test_an_instance_that_crashed_can_start_again_under_its_id(
    cluster: Callable[..., Cluster],
) -> None:
    c = cluster(instances=1)
    c.kill("i1", signal.SIGKILL)
    assert c.restart("i1")["status"] == "ok"
