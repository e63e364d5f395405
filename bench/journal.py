"""The journal alone: rooms each record one action per round, all at once (group commit).

    .venv/bin/python bench/journal.py                     # 100 rooms x 50 rounds, SQLite
    .venv/bin/python bench/journal.py --rooms 1000 --database-url \\
        postgresql+asyncpg://postgres@127.0.0.1/bench

Prints the actions made durable per second, the transactions and their size, the commit
time and the journal's CPU per action (this process: the event loop and the driver's
threads), and each record's latency from hand-over to durable. `--busy` keeps the event
loop busy meanwhile (pure Python work in 2 ms slices, as a loaded server's loop is), which
is when the driver's threads have to wait for the GIL.

`--games N` journals whole recorded games instead, as the server does under
bench/load.py: each room is created, seated one player at a time, started, plays a
recorded random 4-player game action by action and is saved as finished, then a new room
takes its place, N games per room. It prints the journal's CPU per action with the
per-game work included, and on SQLite the writer thread's own (journal-sqlite, read from
/proc), which is the figure issue 15 tracks.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.db.journal import Journal  # noqa: E402
from server.db.migrate import upgrade_async  # noqa: E402
from server.db.models import utcnow  # noqa: E402
from server.db.records import FinishedGame, NewRoom, SeatRecord  # noqa: E402
from server.db.session import make_engine  # noqa: E402
from server.db.store import hash_token  # noqa: E402
from server.rules import (  # noqa: E402
    RULES_VERSION,
    GameOptions,
    apply,
    is_over,
    legal_actions,
    new_game_from,
)


async def keep_busy(stop: asyncio.Event, slice_s: float = 0.002) -> None:
    while not stop.is_set():
        end = time.perf_counter() + slice_s
        while time.perf_counter() < end:
            pass
        await asyncio.sleep(0)


async def start_journal(url: str, fallback: Path
                        ) -> tuple[AsyncEngine, Journal, list[tuple[int, float]]]:
    """A journal on `url`, migrated, running: its engine, itself, and the list its commits
    are noted in (size, seconds)."""
    await upgrade_async(url)
    engine = make_engine(url)
    journal = Journal(engine, fallback)
    commits: list[tuple[int, float]] = []
    journal.on_commit = lambda size, seconds: commits.append((size, seconds))
    await journal.start()
    return engine, journal, commits


async def run(url: str, fallback: Path, rooms: int, rounds: int,
              busy: bool = False) -> dict[str, float]:
    engine, journal, commits = await start_journal(url, fallback)
    stamp = time.strftime("%H%M%S")
    codes = [f"{stamp[-3:]}{i:05d}" for i in range(rooms)]
    for code in codes:
        await journal.room_created(NewRoom(code, {"players": 2}, 1, 2, "host", utcnow()))
        await journal.room_started(code, options={"players": 2}, seed=1)
    commits.clear()
    latencies: list[float] = []

    async def one(code: str, seq: int) -> None:
        start = time.perf_counter()
        await journal.action_accepted(code, seq, 0, {"type": "place", "cell": seq % 16})
        latencies.append(time.perf_counter() - start)

    stop = asyncio.Event()
    burner = asyncio.ensure_future(keep_busy(stop)) if busy else None
    wall, cpu = time.perf_counter(), time.process_time()
    for seq in range(1, rounds + 1):
        await asyncio.gather(*(one(code, seq) for code in codes))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    stop.set()
    if burner is not None:
        await burner
    await journal.stop()
    await engine.dispose()
    actions = rooms * rounds
    latencies.sort()
    return {
        "actions_per_s": actions / wall,
        "transactions": len(commits),
        "mean_batch": statistics.mean(size for size, _ in commits),
        "commit_p50_ms": 1000 * statistics.median(s for _, s in commits),
        # With --busy, the burner's CPU is in it too.
        "cpu_us_per_action": 1e6 * cpu / actions,
        "latency_p50_ms": 1000 * latencies[len(latencies) // 2],
        "latency_p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))],
    }


Recorded = tuple[int, list[tuple[int, dict[str, Any]]], dict[str, Any]]  # seed, actions, result


def record_games(count: int, seed: int) -> list[Recorded]:
    """Random legal 4-player games: (seed, [(seat, action)], result)."""
    rng, games = random.Random(seed), []
    for _ in range(count):
        game_seed = rng.getrandbits(64)
        game = new_game_from(game_seed, GameOptions(4))
        actions: list[tuple[int, dict[str, Any]]] = []
        while not is_over(game):
            seat, action = game.current, dict(rng.choice(legal_actions(game)))
            apply(game, action)
            actions.append((seat, action))
        assert game.result is not None
        games.append((game_seed, actions, game.result))
    return games


def thread_cpu(prefix: str) -> float | None:
    """CPU seconds used so far by this process's thread named `prefix...` (Linux /proc)."""
    for thread in threading.enumerate():
        if thread.name.startswith(prefix) and thread.native_id is not None:
            with open(f"/proc/self/task/{thread.native_id}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return None


async def run_games(url: str, fallback: Path, rooms: int, games: int,
                    recorded: list[Recorded]) -> dict[str, float]:
    """Each room plays `games` recorded games in turn, every write awaited as a room does."""
    engine, journal, commits = await start_journal(url, fallback)
    stamp = time.strftime("%H%M%S")[-3:]
    options = {"players": 4}
    players = [SeatRecord(i, f"p{i}", None, hash_token(f"{stamp}-{i}")) for i in range(4)]
    actions = 0

    async def room(r: int) -> None:
        nonlocal actions
        for g in range(games):
            code = f"{stamp}{r * games + g:05d}"
            seed, moves, result = recorded[(r * games + g) % len(recorded)]
            started = utcnow()
            await journal.room_created(NewRoom(code, options, seed, RULES_VERSION,
                                               hash_token(code), started))
            for n in range(1, len(players) + 1):
                await journal.seats_changed(code, players[:n], host_seat=None)
            await journal.room_started(code, options=options, seed=seed, at=started)
            for seq, (seat, action) in enumerate(moves, start=1):
                await journal.action_accepted(code, seq, seat, action)
            await journal.game_finished(FinishedGame(
                code, seed, options, RULES_VERSION, tuple(players), tuple(moves), result,
                started, utcnow()))
            actions += len(moves)

    wall, cpu = time.perf_counter(), time.process_time()
    writer = thread_cpu("journal-sqlite") or 0.0  # the thread starts with the first write
    await asyncio.gather(*(room(r) for r in range(rooms)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    writer_end = thread_cpu("journal-sqlite")  # None: not SQLite
    await journal.stop()
    await engine.dispose()
    figures = {
        "games": rooms * games,
        "actions": actions,
        "actions_per_s": actions / wall,
        "transactions": len(commits),
        "mean_batch": statistics.mean(size for size, _ in commits),
        "commit_p50_ms": 1000 * statistics.median(s for _, s in commits),
        "cpu_us_per_action": 1e6 * cpu / actions,
    }
    if writer_end is not None:
        figures["writer_cpu_us_per_action"] = 1e6 * (writer_end - writer) / actions
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--busy", action="store_true", help="keep the event loop busy")
    parser.add_argument("--games", type=int, default=0,
                        help="whole recorded games per room instead of rounds of actions")
    parser.add_argument("--seed", type=int, default=1, help="of the recorded games")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{tmp}/journal.db"
        fallback = Path(tmp) / "fallback.jsonl"
        if args.games:
            recorded = record_games(min(args.rooms * args.games, 50), args.seed)
            figures = asyncio.run(run_games(url, fallback, args.rooms, args.games, recorded))
            print(f"journal={url.split(':')[0]} rooms={args.rooms} games={args.games}")
        else:
            figures = asyncio.run(run(url, fallback, args.rooms, args.rounds, args.busy))
            print(f"journal={url.split(':')[0]} rooms={args.rooms} rounds={args.rounds} "
                  f"busy={args.busy}")
    for key, value in figures.items():
        print(f"{key:<26}{value:>12.2f}")


if __name__ == "__main__":
    main()
