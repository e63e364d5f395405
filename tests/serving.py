"""`python -m server` in a subprocess on a free port, for tests that need a real server."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(database: Path, **settings: str) -> Iterator[str]:
    """The server on its own SQLite file (plus settings), as its base URL; stopped after."""
    with served_process(database, **settings) as (url, _):
        yield url


@contextlib.contextmanager
def served_process(
    database: Path, stderr: int | None = subprocess.PIPE, **settings: str
) -> Iterator[tuple[str, subprocess.Popen]]:
    """As `served`, with the process too (its pid, and its stderr unless redirected)."""
    port = free_port()
    env = {
        **os.environ, "HOST": "127.0.0.1", "PORT": str(port), "LOG_LEVEL": "warning",
        "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
        "JOURNAL_FALLBACK_PATH": f"{database}.fallback.jsonl",
        **settings,
    }
    proc = subprocess.Popen([sys.executable, "-m", "server"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=stderr)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):  # until it answers (or dies)
            if proc.poll() is not None:
                log = proc.stderr.read().decode()[-2000:] if proc.stderr else ""
                raise RuntimeError(f"server exited: {log}")
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise RuntimeError("server did not start")
        yield url, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
