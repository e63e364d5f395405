"""A room's CPU per accepted action, without sockets: the rules, the room, its commit.

    .venv/bin/python bench/room_commit.py                 # µs per action, 2/3/4 players
    .venv/bin/python bench/room_commit.py --profile 4     # cProfile of 4-player rooms

Seeded games are first played through a real `Room` with a no-op journal and in-memory
connections (one per seat plus `--spectators` spectators, as in bench/load.py), every
choice uniform among the legal actions the acting seat's view lists, drawn from one
`random.Random(seed)`. The recorded actions (as decoded from JSON, like the wire's) are
then replayed three ways, each timed as a whole (thread CPU, so other processes hardly
matter): through `rules.apply` alone (`rules`), through `Room.act` with a commit that only
counts the version (`room`: lock, stale check, journal call, ...), and through `Room.act`
(`commit`: the rest, i.e. room info, views, diffs, frame texts, queueing). `--only` runs a
single replay, for instruction counts under valgrind.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import pstats
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.rooms import Connection, NullJournal, RoomOptions, seating  # noqa: E402
from server.rooms.room import Room  # noqa: E402
from server.rooms.seat import hash_token, new_token  # noqa: E402
from server.rules import GameOptions, apply, new_game_from  # noqa: E402

Action = dict[str, Any]


@dataclass
class Played:
    seed: int
    actions: list[tuple[int, Action]]


async def seated_room(players: int, spectators: int, seed: int) -> tuple[Room, list[Connection]]:
    """A started room with every seat's connection and the spectators' attached."""
    host = new_token()
    room = Room("BENCHBEN", RoomOptions(players), journal=NullJournal(), clock=lambda: 0.0,
                seed=seed, host_token_hash=hash_token(host), resume_buffer=64)
    tokens = [(await seating.join(room, f"P{s}", None))[1] for s in range(players)]
    conns = [Connection() for _ in range(players + spectators)]
    for i, conn in enumerate(conns):
        await room.attach(conn, tokens[i] if i < players else None, None)
    await seating.start(room, host)
    for conn in conns:
        conn.outbox.clear()
    return room, conns


async def play(players: int, spectators: int, rng: random.Random) -> Played:
    """One game to its end through a room, choosing from the acting seat's view."""
    played = Played(rng.getrandbits(64), [])
    room, conns = await seated_room(players, spectators, played.seed)
    while room.status == "playing":
        assert room.game is not None
        seat = room.game.current
        game = room.view(seat)["game"]
        assert game is not None
        action = rng.choice(game["legal"])
        await room.act(seat, action, room.v)
        played.actions.append((seat, json.loads(json.dumps(action))))
        for conn in conns:
            conn.outbox.clear()
    return played


def _count_only(room: Room, events: list[dict[str, Any]], game_changed: bool = False,
                stages: object = None) -> bool:
    room.v += 1
    room.game_v = room.v
    return True


async def replay_room(games: list[Played], players: int, spectators: int,
                      commit: bool) -> int:
    """Thread CPU ns of replaying `games` through Room.act (its commit stubbed if not
    `commit`), set-up excluded."""
    spent = 0
    real_commit = Room.commit
    for played in games:
        room, conns = await seated_room(players, spectators, played.seed)
        if not commit:
            Room.commit = _count_only  # type: ignore[method-assign,assignment]
        try:
            began = time.thread_time_ns()
            for seat, action in played.actions:
                await room.act(seat, action, room.v)
                for conn in conns:
                    conn.outbox.clear()  # the wire would have written them
            spent += time.thread_time_ns() - began
        finally:
            Room.commit = real_commit  # type: ignore[method-assign]
    return spent


def replay_rules(games: list[Played], players: int) -> int:
    spent = 0
    for played in games:
        game = new_game_from(played.seed, GameOptions(players))
        began = time.thread_time_ns()
        for seat, action in played.actions:
            apply(game, action, seat)
        spent += time.thread_time_ns() - began
    return spent


async def record(players: int, spectators: int, games: int, seed: int) -> list[Played]:
    rng = random.Random(seed)
    return [await play(players, spectators, rng) for _ in range(games)]


async def measure(players: int, spectators: int, games: int, seed: int,
                  only: str | None) -> dict[str, float]:
    played = await record(players, spectators, games, seed)
    actions = sum(len(p.actions) for p in played)
    ns: dict[str, int] = {}
    if only in (None, "rules"):
        ns["rules"] = replay_rules(played, players)
    if only in (None, "room"):
        ns["room"] = await replay_room(played, players, spectators, commit=False)
    if only in (None, "act"):
        ns["act"] = await replay_room(played, players, spectators, commit=True)
    per = {name: spent / actions / 1000 for name, spent in ns.items()}
    per["actions"] = actions
    return per


def profile(players: int, spectators: int, games: int, seed: int) -> str:
    async def run() -> str:
        played = await record(players, spectators, games, seed)
        profiler = cProfile.Profile()
        profiler.enable()
        await replay_room(played, players, spectators, commit=True)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("tottime").print_stats(25)
        return out.getvalue()

    return asyncio.run(run())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4],
                        choices=(2, 3, 4))
    parser.add_argument("--spectators", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("none", "rules", "room", "act"),
                        help="replay one way only, or none (for valgrind's counts)")
    parser.add_argument("--profile", type=int, metavar="PLAYERS", choices=(2, 3, 4),
                        help="cProfile the replay through rooms instead, top 25 by tottime")
    args = parser.parse_args()
    if args.profile:
        print(profile(args.profile, args.spectators, args.games, args.seed))
        return 0
    print(f"python {sys.version.split()[0]}, {args.games} seeded games per count "
          f"(seed {args.seed}), {args.spectators} spectators, thread CPU µs per action")
    print(f"{'players':>7} {'actions':>8} {'rules':>7} {'room':>7} {'commit':>7} {'act':>7}")
    for players in args.players:
        per = asyncio.run(measure(players, args.spectators, args.games, args.seed, args.only))
        rules, room, act = (per.get(k, float("nan")) for k in ("rules", "room", "act"))
        print(f"{players:>7} {int(per['actions']):>8} {rules:>7.1f} {room - rules:>7.1f} "
              f"{act - room:>7.1f} {act:>7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
