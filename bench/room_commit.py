"""A room's CPU per accepted action, without sockets: the rules, then the room's commit.

    .venv/bin/python bench/room_commit.py                 # µs per action, 2/3/4 players
    .venv/bin/python bench/room_commit.py --profile 4     # cProfile of 4-player rooms

Seeded games are played through a real `Room` (`Room.act`, the same call the websocket
session makes) with a no-op journal and in-memory connections: one per seat plus
`--spectators` spectators, as in bench/load.py. Every choice is uniform among the legal
actions the acting seat's view lists, drawn from one `random.Random(seed)`, so the same
arguments play the same games. Figures are thread CPU time, unaffected by other processes
but for cache effects: `rules` is `rules.apply`, `commit` is `Room.commit` (room info,
views, diffs, frame texts, queueing), `act` the whole call.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.rooms import Connection, RoomOptions, seating  # noqa: E402
from server.rooms import room as room_module  # noqa: E402
from server.rooms.journal import NullJournal  # noqa: E402
from server.rooms.room import Room  # noqa: E402
from server.rooms.seat import hash_token, new_token  # noqa: E402

F = TypeVar("F", bound=Callable[..., Any])


class Timer:
    """Thread CPU nanoseconds spent inside the wrapped callables, per name."""

    def __init__(self) -> None:
        self.ns: dict[str, int] = {}

    def wrap(self, name: str, fn: F) -> F:
        clock, ns = time.thread_time_ns, self.ns
        ns[name] = 0

        def timed(*args: Any, **kwargs: Any) -> Any:
            began = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                ns[name] += clock() - began

        return timed  # type: ignore[return-value]


async def play(players: int, spectators: int, rng: random.Random) -> tuple[Room, int]:
    """One seeded game to its end through a room; returns the room and its actions."""
    host = new_token()
    room = Room("BENCHBEN", RoomOptions(players), journal=NullJournal(), clock=lambda: 0.0,
                seed=rng.getrandbits(64), host_token_hash=hash_token(host), resume_buffer=64)
    tokens = [(await seating.join(room, f"P{s}", None))[1] for s in range(players)]
    conns = [Connection() for _ in range(players + spectators)]
    for i, conn in enumerate(conns):
        await room.attach(conn, tokens[i] if i < players else None, None)
    await seating.start(room, host)
    actions = 0
    while room.status == "playing":
        seat = room.game.current if room.game is not None else 0
        game = room.view(seat)["game"]
        assert game is not None
        await room.act(seat, rng.choice(game["legal"]), room.v)
        actions += 1
        for conn in conns:
            conn.outbox.clear()  # the wire would have written them
    return room, actions


async def measure(players: int, spectators: int, games: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    timer = Timer()
    apply, commit, act = room_module.apply, Room.commit, Room.act
    room_module.apply = timer.wrap("rules", apply)  # type: ignore[assignment]
    Room.commit = timer.wrap("commit", commit)  # type: ignore[method-assign]
    actions = 0
    began = time.thread_time_ns()
    try:
        timer.ns["act"] = 0

        async def timed_act(self: Room, *args: Any, **kwargs: Any) -> int:
            start = time.thread_time_ns()
            try:
                return await act(self, *args, **kwargs)
            finally:
                timer.ns["act"] += time.thread_time_ns() - start

        Room.act = timed_act  # type: ignore[method-assign]
        for _ in range(games):
            actions += (await play(players, spectators, rng))[1]
    finally:
        room_module.apply, Room.commit, Room.act = apply, commit, act  # type: ignore[method-assign]
    total = time.thread_time_ns() - began
    per = {name: ns / actions / 1000 for name, ns in timer.ns.items()}
    per["actions"] = actions
    per["total"] = total / actions / 1000
    return per


def profile(players: int, spectators: int, games: int, seed: int) -> str:
    rng = random.Random(seed)
    profiler = cProfile.Profile()

    async def run() -> None:
        profiler.enable()
        for _ in range(games):
            await play(players, spectators, rng)
        profiler.disable()

    asyncio.run(run())
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("tottime").print_stats(25)
    return out.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4],
                        choices=(2, 3, 4))
    parser.add_argument("--spectators", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, metavar="PLAYERS", choices=(2, 3, 4),
                        help="cProfile these rooms instead, top 25 by tottime")
    args = parser.parse_args()
    if args.profile:
        print(profile(args.profile, args.spectators, args.games, args.seed))
        return 0
    print(f"python {sys.version.split()[0]}, {args.games} seeded games per count "
          f"(seed {args.seed}), {args.spectators} spectators, thread CPU µs per action")
    print(f"{'players':>7} {'actions':>8} {'rules':>7} {'commit':>7} {'act':>7} {'all':>7}")
    for players in args.players:
        per = asyncio.run(measure(players, args.spectators, args.games, args.seed))
        print(f"{players:>7} {int(per['actions']):>8} {per['rules']:>7.1f} "
              f"{per['commit']:>7.1f} {per['act']:>7.1f} {per['total']:>7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
