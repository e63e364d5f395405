"""Where a live room's memory goes: the game server under tracemalloc, before and after
opening rooms of 4 players + 4 spectators with the Node load generator (bench/node).

    .venv/bin/python bench/memory.py --rooms 1000            # top 25 by traceback
    .venv/bin/python bench/memory.py --rooms 1000 --group lineno --top 40
    .venv/bin/python bench/memory.py --rooms 200 --no-trace  # RSS only (no tracing cost)
    .venv/bin/python bench/memory.py --rooms 200 --play 20   # after 20 s of play

The server runs as `python -m server` does (same settings as bench/load.py's), inside this
script's `--serve` mode: on a first SIGUSR1 (idle, after start-up) it starts tracemalloc,
on the second (every room open) it writes the traces. Both after a full collection. The
driver prints, per room: RSS, what malloc holds in use (mallinfo2),
what tracemalloc traces (the Python heap and Python-visible C allocations), and the top
allocation sites still alive. RSS minus traced is memory that Python does not see:
pymalloc pages left partly used, libuv/uvloop and kernel-side buffers, malloc overhead.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402  (bench/load.py: the server's environment, ports, RSS)

ROOT = load.ROOT
SNAPSHOT_SIGNAL = signal.SIGUSR1


class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def malloc_in_use() -> int | None:
    """Bytes malloc has handed out and not had back (glibc's mallinfo2), or None."""
    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return None
    mallinfo2.restype = MallInfo2
    info = mallinfo2()
    return int(info.uordblks + info.hblkhd)


# --- the server side (`--serve`) ----------------------------------------------------------


def serve(out_dir: Path, frames: int) -> None:
    """`python -m server`; each SIGUSR1 runs a full collection and writes
    `snapshot-<n>.json` (RSS, malloc in use, traced so far). The first one also starts
    tracemalloc (tracing the start-up would take minutes), later ones write the traces
    too, `snapshot-<n>.pickle`: what was allocated since the first and is still alive."""
    count = 0

    def snapshot(signum: int, frame: Any) -> None:
        nonlocal count
        count += 1
        gc.collect()
        tracing = tracemalloc.is_tracing()
        figures = {"rss": int(load.rss_mib(os.getpid()) * 2**20), "malloc": malloc_in_use(),
                   "traced": tracemalloc.get_traced_memory()[0] if tracing else 0}
        if tracing:
            tracemalloc.take_snapshot().dump(str(out_dir / f"snapshot-{count}.pickle"))
        elif frames:
            tracemalloc.start(frames)
        (out_dir / f"snapshot-{count}.json").write_text(json.dumps(figures))

    signal.signal(SNAPSHOT_SIGNAL, snapshot)
    from server.__main__ import main
    main()


# --- the driver ---------------------------------------------------------------------------


def take(proc: subprocess.Popen, out_dir: Path, n: int) -> dict[str, Any]:
    proc.send_signal(SNAPSHOT_SIGNAL)
    done = out_dir / f"snapshot-{n}.json"
    for _ in range(6000):
        if done.exists():
            time.sleep(0.2)  # the file is written whole after the pickle
            return dict(json.loads(done.read_text()))
        time.sleep(0.1)
    raise SystemExit("the server wrote no snapshot")


def top(path: Path, group: str, limit: int, rooms: int) -> list[str]:
    """The largest allocation sites still alive in a snapshot, per room."""
    snapshot = tracemalloc.Snapshot.load(str(path)).filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__)])
    lines = []
    for stat in snapshot.statistics(group, cumulative=False)[:limit]:
        lines.append(f"{stat.size / rooms / 1024:8.2f} KiB/room "
                     f"{stat.count / rooms:7.1f} blocks/room")
        where = stat.traceback.format(limit=5 if group == "traceback" else 1,
                                      most_recent_first=False)
        lines.extend(f"      {w.strip()}" for w in where if w.strip())
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--frames", type=int, default=12, help="traceback depth")
    parser.add_argument("--group", choices=["traceback", "lineno", "filename"],
                        default="traceback")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--play", type=float, default=0.0,
                        help="seconds of play (one action per second per room) before the "
                        "second snapshot (0: right after every socket is open)")
    parser.add_argument("--trace", action=argparse.BooleanOptionalAction, default=True,
                        help="tracemalloc on (off: RSS and malloc figures only)")
    parser.add_argument("--json", action="store_true", help="the figures as a last JSON line")
    parser.add_argument("--serve", help=argparse.SUPPRESS)  # the server side: its out dir
    args = parser.parse_args()
    if args.serve:
        serve(Path(args.serve), args.frames if args.trace else 0)
        return
    if not load.node_available():
        raise SystemExit("bench/node is not installed: run `make bench`")
    port = load.free_port()
    with tempfile.TemporaryDirectory() as data_dir:
        out = Path(data_dir)
        cmd = [sys.executable, str(Path(__file__).resolve()), "--serve", data_dir,
               "--frames", str(args.frames), "--trace" if args.trace else "--no-trace"]
        server = load.start_server("game", port, data_dir, None, cmd=cmd)
        clients = None
        try:
            idle = take(server, out, 1)
            # Still playing when the snapshot is taken (the clients are killed after it).
            clients = load.NodeClients("game", port, [args.rooms], 1.0, 0.0,
                                       args.play + 600)
            clients.wait_ready()
            if args.play:
                clients.go()
                time.sleep(args.play)
            opened = take(server, out, 2)
            figures = {k: (opened[k] - idle[k]) / args.rooms / 1024
                       for k in ("rss", "malloc", "traced") if opened[k] is not None}
            print(f"rooms={args.rooms} sockets={args.rooms * 8}, per room (KiB): "
                  + ", ".join(f"{k} {v:.1f}" for k, v in figures.items()))
            if args.trace:
                print(f"top {args.top} allocation sites by {args.group} (new since idle):")
                print("\n".join(top(out / "snapshot-2.pickle", args.group, args.top,
                                    args.rooms)))
            if args.json:
                print(json.dumps({"rooms": args.rooms, "kib_per_room": figures}))
        finally:
            if clients is not None:
                for proc in clients.procs:
                    proc.kill()
                    proc.wait()
            server.terminate()
            server.wait(timeout=60)


if __name__ == "__main__":
    main()
