"""bench/chat_latency.py stays runnable: a tiny run prints both rows of figures and the
chat's answers (never timed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_tiny_chat_latency_run_prints_both_rows() -> None:
    done = subprocess.run(
        [sys.executable, "bench/chat_latency.py", "--actions", "12", "--spectators", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert any(line.startswith("act->ack, no chat:") for line in lines), done.stdout
    assert any("chatting spectators" in line and "p50" in line for line in lines), done.stdout
    assert any("chat answers" in line and "'ack'" in line for line in lines), done.stdout
