"""Ports for the servers the tests and benchmarks start: the one place that picks them.

A port is picked here and bound later by another process (a server, redis-server, HAProxy),
so nobody else may take it in between. A port from `bind(("", 0))` comes from the kernel's
ephemeral range, the range every outgoing connection on the machine takes its local port
from too (the clients of the other xdist worker, of other checkouts' test runs), and any
other caller of such a helper may be handed it as well once it is closed: the server then
fails with "address already in use". So the ports here are taken below the ephemeral range,
where only listeners bind, and each one given out is marked in a directory shared by every
process of this user on the machine, so that no other caller gets it for HELD seconds.
Standard library only: bench/first_page.py runs before the project is installed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import random
import socket
import tempfile
import time
from pathlib import Path

MARKS = Path(tempfile.gettempdir()) / f"coffee-rush-ports-{os.getuid()}"
HELD = 1800.0  # seconds a port given out stays reserved (a test's servers live less)
LOWEST = 10000
_pick = random.SystemRandom()  # not the global generator (seeded code relies on its state)


def listener_ports() -> range:
    """The ports no outgoing connection is given: from LOWEST to the kernel's ephemeral
    range (net.ipv4.ip_local_port_range)."""
    try:
        ephemeral = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        ephemeral = 32768
    return range(LOWEST, max(ephemeral, LOWEST + 5000))


def bindable(port: int) -> bool:
    """Whether nothing holds `port` on any address (no listener, no connection)."""
    with socket.socket() as s:
        try:
            s.bind(("", port))
        except OSError:
            return False
    return True


def ports_in_a_row(count: int) -> int:
    """The first of `count` consecutive ports that nothing holds now, reserved for the
    caller: no caller of this module on this machine gets them for HELD seconds."""
    MARKS.mkdir(exist_ok=True)
    ports = listener_ports()
    with (MARKS / ".lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one reservation at a time, machine-wide
        now = time.time()
        for _ in range(1000):
            first = ports[_pick.randrange(len(ports) - count + 1)]
            run = range(first, first + count)
            if all(_free(MARKS / str(p), now) and bindable(p) for p in run):
                for p in run:
                    (MARKS / str(p)).touch()
                return first
    raise RuntimeError(f"no run of {count} free ports in {ports}")


def free_port() -> int:
    """A port that nothing holds now, reserved for the caller (see ports_in_a_row)."""
    return ports_in_a_row(1)


def _free(mark: Path, now: float) -> bool:
    """No mark, or one older than HELD."""
    with contextlib.suppress(FileNotFoundError):
        return now - mark.stat().st_mtime >= HELD
    return True
