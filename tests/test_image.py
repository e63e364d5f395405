"""The image, for real: built from the Dockerfile by buildah (Debian's package: no daemon,
chroot isolation), run as its non-root user, answering its own health check and the first
page; scripts/image-size.sh builds it and prints its size.

No container registry resolves where this suite runs, so the Dockerfile's base (BASE,
python:3.11-slim by default) is one made from Debian's packages by
scripts/ensure-base-image.sh: `make test` makes it before pytest (once per machine, ~3 min;
then ~13 s from the root filesystem kept in ~/.cache/coffee-rush, or nothing when buildah
still holds it). A first build installs the run-time dependencies into the image (~2 min on
a busy 2-core machine); later builds reuse that layer (~20-35 s). Skipped, saying why, where
buildah is missing and cannot be installed (not root, no apt)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.serving import children, free_port, wait_ready

ROOT = Path(__file__).resolve().parent.parent
TAG = "coffee-rush:test"
NOT_HERE = 3  # the scripts' exit status for "no builder on this machine"

pytestmark = pytest.mark.timeout(900)


def script(name: str, *args: str, **env: str) -> str:
    done = subprocess.run([str(ROOT / "scripts" / name), *args], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=800)
    if done.returncode == NOT_HERE:
        pytest.skip(done.stderr.strip())
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()


def buildah(*args: str) -> str:
    return subprocess.run(["buildah", *args], capture_output=True, text=True, check=True,
                          timeout=120).stdout.strip()


@pytest.fixture(scope="module")
def image() -> dict[str, Any]:
    """The image built from this checkout's Dockerfile on the Debian-made base: its config."""
    base = script("ensure-base-image.sh")
    size = script("image-size.sh", TAG, BASE=base)
    print(f"\n{size}")  # shown with pytest -s
    assert re.fullmatch(rf"{TAG}: \d+(\.\d+)? [kMG]?B", size), size
    config: dict[str, Any] = json.loads(buildah("inspect", "--type", "image", TAG))
    return dict(config["Docker"]["config"])


def running(name: str, command: list[str], stderr: int = subprocess.PIPE,
            ) -> subprocess.Popen[bytes]:
    """`command` in the container `name` (as the image's user, in its working folder, on the
    host's network), as the leader of its own process group."""
    return subprocess.Popen(["buildah", "run", "--isolation", "chroot", name, "--", *command],
                            stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)


def descendants(pid: int) -> Iterator[int]:
    for child in children(pid):
        yield child
        yield from descendants(child)


def uid_of(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^Uid:\s+(\d+)", status, re.M).group(1))  # type: ignore[union-attr]


def test_the_image_keeps_the_health_check_and_a_non_root_user(image: dict[str, Any]) -> None:
    assert image["User"] == "10001"
    assert image["Cmd"] == ["python", "-m", "server"]
    assert image["Healthcheck"]["Test"][0] == "CMD"  # kept: built in Docker's format, not OCI


def test_the_image_serves_the_first_page_as_its_user_and_passes_its_health_check(
    image: dict[str, Any],
) -> None:
    port = free_port()
    name = f"coffee-rush-test-{port}"
    buildah("from", "--name", name, TAG)
    try:
        buildah("config", "--env", f"PORT={port}", name)
        health = image["Healthcheck"]["Test"][1:]
        server = running(name, image["Cmd"])
        try:
            url = f"http://127.0.0.1:{port}"
            wait_ready(server, url)
            lobby = httpx.get(f"{url}/", timeout=10)
            (pid,) = (p for p in descendants(server.pid)
                      if Path(f"/proc/{p}/cmdline").read_bytes().endswith(b"-m\0server\0")
                      and b"buildah" not in Path(f"/proc/{p}/cmdline").read_bytes())
            user = uid_of(pid)
            checked = running(name, health, subprocess.DEVNULL).wait(timeout=60)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
            assert server.stderr is not None
            server.stderr.close()
        checked_when_down = running(name, health, subprocess.DEVNULL).wait(timeout=60)
    finally:
        subprocess.run(["buildah", "rm", name], capture_output=True, timeout=120)
    assert lobby.status_code == 200 and "<html" in lobby.text.lower()
    assert user == 10001
    assert (checked, checked_when_down) == (0, 1)
