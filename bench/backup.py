"""Backup and restore with many stored games: `coffee-rush backup` and `restore` timed.

    .venv/bin/python bench/backup.py                          # 10,000 games, SQLite
    .venv/bin/python bench/backup.py --games 1000 --json
    .venv/bin/python bench/backup.py --url postgresql+asyncpg://postgres@127.0.0.1/bench \\
        --restore-url postgresql+asyncpg://postgres@127.0.0.1/bench_restored

Fills an empty database with finished four-player games (each a real random game's actions
and result, with its four player rows), then times a backup of it (gzipped JSON lines) and
a restore into another empty database, and prints the rows, the file's size and both
times. A PostgreSQL database given by --url or --restore-url is emptied first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, insert, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.db.migrate import upgrade  # noqa: E402
from server.db.models import Game, GamePlayer  # noqa: E402
from server.db.session import make_engine  # noqa: E402
from server.rules import apply, is_over, legal_actions, new_game  # noqa: E402


def empty(url: str) -> None:
    if make_url(url).get_backend_name() != "postgresql":
        return
    sync = make_url(url).set(drivername="postgresql+psycopg")
    admin = create_engine(sync.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{sync.database}"'))
        conn.execute(text(f'CREATE DATABASE "{sync.database}"'))
    admin.dispose()


def random_game(seed: int) -> tuple[list[Any], dict[str, Any], int]:
    rng = random.Random(seed)
    game = new_game(seed, 4)
    actions: list[Any] = []
    while not is_over(game):
        action = rng.choice(legal_actions(game))
        actions.append([game.current, action])
        apply(game, action)
    return actions, json.loads(json.dumps(game.result)), game.turn


async def fill(url: str, games: int) -> None:
    samples = [random_game(seed) for seed in range(20)]
    now = datetime.now(UTC)
    engine = make_engine(url)
    try:
        for start in range(0, games, 500):
            async with engine.begin() as conn:
                for i in range(start, min(games, start + 500)):
                    actions, result, turns = samples[i % len(samples)]
                    game_id = (await conn.execute(insert(Game).values(
                        room_code=f"B{i:07d}", seed=i, options={"players": 4},
                        rules_version=1, actions=actions, action_count=len(actions),
                        turns=turns, end_reason=None, result=result, talk=[],
                        started_at=now, ended_at=now).returning(Game.id))).scalar_one()
                    await conn.execute(insert(GamePlayer), [dict(
                        game_id=game_id, seat=s, name=f"P{s}", name_key=f"p{s}", bot=None,
                        stand_in=None, place=s + 1, winner=s == 0, total=10 - s, orders=3,
                        upgrades=1, penalties=0, rush=0, tiles=[]) for s in range(4)])
    finally:
        await engine.dispose()


def timed(*argv: str) -> tuple[float, str]:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "server.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return time.monotonic() - start, done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--url", help="the database to fill and back up (default: SQLite)")
    parser.add_argument("--restore-url", help="the database to restore into (default: SQLite)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="backup-bench-") as tmp:
        url = args.url or f"sqlite+aiosqlite:///{tmp}/source.db"
        target = args.restore_url or f"sqlite+aiosqlite:///{tmp}/restored.db"
        empty(url)
        empty(target)
        upgrade(url)
        asyncio.run(fill(url, args.games))
        file = Path(tmp) / "coffee-rush.backup.gz"
        backup_s, _ = timed("backup", str(file), "--database-url", url)
        restore_s, said = timed("restore", str(file), "--database-url", target)
        figures = {"games": args.games, "from": make_url(url).get_backend_name(),
                   "to": make_url(target).get_backend_name(),
                   "backup_s": round(backup_s, 2), "backup_mb": round(
                       file.stat().st_size / 1e6, 2), "restore_s": round(restore_s, 2),
                   "restored": said}
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{figures['games']} games, {figures['from']} -> {figures['to']}: backup "
              f"{figures['backup_s']} s, {figures['backup_mb']} MB gzipped; restore "
              f"{figures['restore_s']} s ({said})")


if __name__ == "__main__":
    main()
