"""The ports the tests and benchmarks hand to the servers they start (tests/ports.py): one
picked here must still be free when the server binds it, seconds later, while the other
xdist worker (and other test runs on the machine) pick ports and open connections too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.ports import free_port, listener_ports

ROOT = Path(__file__).resolve().parent.parent
TAKE = 200
PICKER = f"from tests.ports import free_port\nprint(*[free_port() for _ in range({TAKE})])"


def ephemeral_range() -> range:
    low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
    return range(int(low), int(high) + 1)


def test_no_outgoing_connection_can_be_given_a_port_handed_out() -> None:
    # The kernel gives every outgoing connection a local port from its ephemeral range: a
    # port from there could be some client's by the time the server binds it.
    ports = [free_port() for _ in range(20)]
    assert not set(ports) & set(ephemeral_range())
    assert set(ports) <= set(listener_ports())


def test_no_two_callers_are_handed_the_same_port() -> None:
    # Two processes at once, as two xdist workers: 2 x 200 draws from ~28,000 ephemeral
    # ports repeat one with a probability of ~94%; each port handed out stays reserved.
    pickers = [subprocess.Popen([sys.executable, "-c", PICKER], cwd=ROOT, text=True,
                                stdout=subprocess.PIPE) for _ in range(2)]
    drawn = [int(p) for picker in pickers for p in picker.communicate(timeout=60)[0].split()]
    assert all(picker.returncode == 0 for picker in pickers)
    assert len(drawn) == 2 * TAKE and len(set(drawn)) == len(drawn)
