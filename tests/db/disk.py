"""A real full disk: a small tmpfs mounted for one test (needs root; skips elsewhere)."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def small_disk(where: Path, size: str = "64k") -> Iterator[Path]:
    """Mount a tmpfs of `size` at `where` for the duration; skip the test if we cannot."""
    if os.geteuid() != 0:
        pytest.skip("a full-disk test mounts a tmpfs, which needs root")
    where.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True, text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs at {where}: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        if subprocess.run(["umount", str(where)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(disk: Path, leave: int) -> Path:
    """Fill the disk with a ballast file so that about `leave` bytes stay free."""
    ballast = disk / "ballast"
    st = os.statvfs(disk)
    free = st.f_bavail * st.f_frsize
    with open(ballast, "wb") as f:
        f.write(b"\0" * max(0, free - leave))
    return ballast


@contextlib.contextmanager
def freezable_disk(where: Path, size: str = "16M") -> Iterator[Path]:
    """A small ext4 image loop-mounted at `where` (root only; skip elsewhere), to freeze
    with `frozen`: a real hung disk, whose writes and fsyncs block until it is thawed."""
    if os.geteuid() != 0:
        pytest.skip("a frozen-disk test loop-mounts an image, which needs root")
    image = where.with_name(where.name + ".img")
    subprocess.run(["truncate", "-s", size, str(image)], check=True)
    made = subprocess.run(["mkfs.ext4", "-q", str(image)], capture_output=True, text=True)
    where.mkdir(parents=True, exist_ok=True)
    mounted = made.returncode == 0 and subprocess.run(
        ["mount", "-o", "loop", str(image), str(where)], capture_output=True).returncode == 0
    if not mounted:
        pytest.skip(f"cannot loop-mount an ext4 image at {where}")
    try:
        yield where
    finally:
        subprocess.run(["fsfreeze", "-u", str(where)], capture_output=True)
        if subprocess.run(["umount", str(where)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)


@contextlib.contextmanager
def frozen(disk: Path) -> Iterator[None]:
    """fsfreeze the disk for the duration (always thawed again)."""
    subprocess.run(["fsfreeze", "-f", str(disk)], check=True)
    try:
        yield
    finally:
        subprocess.run(["fsfreeze", "-u", str(disk)], check=True)
