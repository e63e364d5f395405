"""A server that crashes takes its bot workers (and the multiprocessing resource tracker
they keep alive) with it: nothing it spawned outlives a SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from tests.persist.live import bots_game
from tests.serving import children, free_port, launch, stop, wait_ready

POLLS = 300  # looks at the process table after the kill, 0.1 s apart


def alive(pid: int) -> bool:
    """Running, not merely a zombie waiting for a reaper."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except FileNotFoundError:
        return "(gone)"


def test_sigkill_of_the_server_leaves_no_bot_worker_or_resource_tracker(tmp_path: Path):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = launch({
        "PORT": str(port), "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/db.sqlite",
        "JOURNAL_FALLBACK_PATH": str(tmp_path / "fallback.jsonl"),
        "BOT_WORKERS": "1", "BOT_DELAY": "0.05", "BOT_BUDGET": "0.05",
    }, stderr=subprocess.DEVNULL)
    spawned: set[int] = set()
    try:
        wait_ready(server, url)
        bots_game(url)  # a game of bots only: the worker is spawned for the first decision
        for _ in range(300):
            spawned = children(server.pid)
            if len(spawned) >= 2:
                break
            time.sleep(0.1)
        kinds = [cmdline(p) for p in spawned]
        # The worker and the resource tracker (both spawned: `python -c "from multi...`).
        assert len(spawned) == 2 and any("resource_tracker" in k for k in kinds), kinds

        server.send_signal(signal.SIGKILL)
        server.wait(10)
        for _ in range(POLLS):
            if not any(alive(p) for p in spawned):
                break
            time.sleep(0.1)
        left = [cmdline(p) for p in spawned if alive(p)]
        assert left == [], f"still running after the server's SIGKILL: {left}"
    finally:
        stop(server)
        for pid in spawned:  # a failed run must not leave them behind either
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
