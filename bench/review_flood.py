"""What a review costs, and whether reviews slow a bot table (issue 45).

    nice -n 15 .venv/bin/python bench/review_flood.py --games 10 --seconds 60

1. CPU per reviewed game: `--games` seeded greedy-vs-greedy games of 2 and of 4 players
   (greedy plays like a fair human: whole games, realistic lengths), each reviewed in this
   process at REVIEW_WORK (`--work`, the server's default 0.25); process CPU per game,
   mean and p95, and the turns a game has.
2. The queue's effect on a table: a server (SQLite in a temporary folder, one bot worker,
   the bots' defaults) holding those games; a `--level` bot table's pace alone for
   `--seconds` (the gaps between its actions, bench/hint_flood.py's watch), then as long
   again after every stored game's review was asked at once (they queue behind the bots'
   moves and compute one turn at a time). Prints both paces, their ratio, and how many
   reviews were done in the window.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.hint_flood import figures, watch  # noqa: E402
from server.bots import review  # noqa: E402
from server.db.migrate import upgrade  # noqa: E402
from server.db.records import FinishedGame  # noqa: E402
from tests.serving import free_port, launch, stop, wait_ready  # noqa: E402
from tests.stored import greedy_game, store_games  # noqa: E402


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[max(0, min(len(s) - 1, round(q * len(s)) - 1))]


def cpu_per_game(games: list[FinishedGame], work: float) -> None:
    for players in (2, 4):
        cpu, turns = [], []
        for g in (g for g in games if len(g.players) == players):
            began = time.process_time()
            done = review.review_game(g.seed, g.options, g.actions, work, 0, players)
            cpu.append(time.process_time() - began)
            turns.append(len(done["turns"]))
        print(f"review CPU per game, {players} players ({len(cpu)} greedy games, work {work}): "
              f"mean {statistics.fmean(cpu):.2f} s, p95 {pct(cpu, 0.95):.2f} s, "
              f"max {max(cpu):.2f} s; {statistics.fmean(turns):.0f} turns a game, "
              f"{sum(cpu) / sum(turns):.3f} s a turn", flush=True)


async def pace(base: str, ids: list[int], level: str, seconds: float
               ) -> tuple[list[float], list[float], int]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as api:
        alone = await watch(base, api, level, 2, seconds)
        for game_id in ids:
            await api.post(f"/api/games/{game_id}/review", json={})
        loaded = await watch(base, api, level, 2, seconds)
        done = 0
        for game_id in ids:
            done += (await api.get(f"/api/games/{game_id}/review")).json()["state"] == "done"
    return alone, loaded, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games of each size")
    parser.add_argument("--work", type=float, default=0.25)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--seed", type=int, default=45)
    parser.add_argument("--skip-cpu", action="store_true")
    args = parser.parse_args()
    seeds = random.Random(args.seed)
    games = [greedy_game(seeds.getrandbits(40), p) for p in (2, 4) for _ in range(args.games)]
    if not args.skip_cpu:
        cpu_per_game(games, args.work)
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        url = f"sqlite+aiosqlite:///{data}/bench.db"
        upgrade(url)
        ids = store_games(url, games)
        proc = launch({"PORT": str(port), "LOG_LEVEL": "error", "ROOM_CREATE_RATE": str(10**9),
                       "BOT_WORKERS": "1", "DATABASE_URL": url, "REVIEW_WORK": str(args.work),
                       "REVIEWS_PER_ADDRESS": "1000",
                       "JOURNAL_FALLBACK_PATH": f"{data}/fallback.jsonl"}, stderr=None)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_ready(proc, base)
            alone, loaded, done = asyncio.run(pace(base, ids, args.level, args.seconds))
        finally:
            stop(proc)
    print(f"{args.level} bot table alone:               {figures(alone)}")
    print(f"with {len(ids)} reviews asked at once:  {figures(loaded)}")
    if len(alone) >= 2 and len(loaded) >= 2:
        ratio = statistics.fmean(loaded) / statistics.fmean(alone)
        print(f"  ratio loaded/alone: mean {ratio:.2f}")
    print(f"  reviews done in the window: {done} of {len(ids)}")


if __name__ == "__main__":
    main()
