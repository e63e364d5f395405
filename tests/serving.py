"""`python -m server` in a subprocess on a free port: the one launcher of the test suite.

`served`/`served_process` run one server for a `with` block; `launch` and `wait_ready` are
the two halves for callers that stop and start a server themselves (tests/persist/live.py)
or watch what it spawned (tests/bots/test_orphans.py). The cluster harness starts its
instances through server.cluster.dev, as `make cluster` does, and takes its ports here.
`free_port` is tests/ports.py's, re-exported: the one place that picks a port to bind later.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO

import httpx

from tests.ports import free_port

ROOT = Path(__file__).resolve().parent.parent
POLL = 0.02  # seconds between looks at a starting server
# How long a test client that idles between requests keeps a connection: well under the server's
# keep-alive timeout (uvicorn's 5 s). With both at 5 s, a request sent on a connection the
# server was closing that instant failed (ReadError, or "Server disconnected without
# sending a response"), seen in whole runs on a loaded machine after a burst, or a wait for
# mail, had left connections idle for about 5 s. (Browsers send such a request again;
# httpx does not.)
CLIENT_KEEPALIVE_EXPIRY = 2.0


def children(pid: int) -> set[int]:
    """The live child processes of `pid` (Linux /proc)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.update(int(child) for child in text)
    return found


def launch(
    env: Mapping[str, str], stderr: int | IO[bytes] | None = subprocess.PIPE,
    module: str = "server", cwd: Path = ROOT,
) -> subprocess.Popen[bytes]:
    """Start the server (`python -m module`, imported from `cwd`: the checkout unless a test
    runs an edited copy of the sources) with `env` over this process's environment (HOST
    127.0.0.1, log level warning unless `env` says otherwise). `env` must name the PORT."""
    assert "PORT" in env, "the launcher needs a PORT"
    full = {**os.environ, "HOST": "127.0.0.1", "LOG_LEVEL": "warning", **env}
    return subprocess.Popen([sys.executable, "-m", module], cwd=cwd, env=full,
                            stdout=subprocess.DEVNULL, stderr=stderr)


def edited_sources(
    into: Path, edits: Mapping[str, tuple[str, str]] = {},  # noqa: B006 - read only
    added: Mapping[str, str] = {}, removed: tuple[str, ...] = (),  # noqa: B006
) -> Path:
    """A copy of the server's sources in `into` (migrations, templates and static linked),
    as the next change would leave them: each file of `edits` with its one `old` text
    replaced by `new`, the files of `added` written, those of `removed` deleted (paths
    relative to the checkout). Run a server from it with `launch(..., cwd=...)`."""
    shutil.copytree(ROOT / "server", into / "server", ignore=shutil.ignore_patterns("__pycache__"))
    for shared in ("migrations", "templates", "static"):
        (into / shared).symlink_to(ROOT / shared)
    for name, (old, new) in edits.items():
        text = (into / name).read_text()
        assert text.count(old) == 1, f"{name}: {old!r} is not there once"
        (into / name).write_text(text.replace(old, new))
    for name, text in added.items():
        (into / name).write_text(text)
    for name in removed:
        (into / name).unlink()
    return into


def wait_ready(proc: subprocess.Popen[bytes], url: str, timeout: float = 120.0) -> None:
    """Until `url`/healthz answers 200; RuntimeError if the process exits first (with the
    end of its stderr when piped) or does not answer within `timeout` seconds.

    A server that exits is seen at once; the timeout is for one that hangs. It is long
    because a start is slow on a loaded machine: with ten busy loops on the two cores, a
    server took 19-28 s to answer (a whole run's module fixture once missed the old 30 s).

    One client for all the looks, every POLL seconds: `httpx.get` builds a client (and its
    TLS context) per call, ~40 ms of CPU taken from the server starting on the same cores."""
    deadline = time.monotonic() + timeout
    with httpx.Client(timeout=1) as client:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                log = proc.stderr.read().decode()[-2000:] if proc.stderr else ""
                raise RuntimeError(f"server exited with {proc.returncode}: {log}")
            try:
                if client.get(f"{url}/healthz").status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(POLL)
    raise RuntimeError(f"server did not answer {url}/healthz within {timeout:.0f} s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL after 10 s; closes the stderr pipe if there is one."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if proc.stderr is not None:
        proc.stderr.close()


@contextlib.contextmanager
def served(database: Path, **settings: str) -> Iterator[str]:
    """The server on its own SQLite file (plus settings), as its base URL; stopped after."""
    with served_process(database, **settings) as (url, _):
        yield url


@contextlib.contextmanager
def served_process(
    database: Path, stderr: int | IO[bytes] | None = subprocess.PIPE, cwd: Path = ROOT,
    **settings: str,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """As `served`, with the process too (its pid, and its stderr unless redirected)."""
    port = free_port()
    proc = launch({
        "PORT": str(port),
        "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
        "JOURNAL_FALLBACK_PATH": f"{database}.fallback.jsonl",
        **settings,
    }, stderr=stderr, cwd=cwd)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, url)
        if proc.stderr is not None:  # read on, or the server blocks once 64 KiB of log wait
            threading.Thread(target=drain, args=(proc.stderr,), daemon=True).start()
        yield url, proc
    finally:
        stop(proc)


def drain(pipe: IO[bytes]) -> None:
    """Read a running server's stderr to its end and let it go: a pipe nobody reads fills
    (64 KiB on Linux) and the server's next log line then blocks its event loop."""
    with contextlib.suppress(OSError, ValueError):
        while pipe.read(65536):
            pass
