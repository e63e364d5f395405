"""A whole Swiss tournament on a real server (`python -m server`, SQLite), played by eight
scripted players over real sockets: 4-player tables, 3 rounds that start themselves. The
standings the page shows are checked against a hand computation from the places of the
stored games (points per place 3/2/1/0, ties split; then Buchholz, first places, entry
order), each round seats everyone once, and the games are rated, on the players' profiles
and in /games."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from tests.serving import served

from .players import Player

POINTS = {4: [3, 2, 1, 0], 3: [2, 1, 0], 2: [1, 0]}  # per place, as documented


def hand_points(places: list[int]) -> list[float]:
    """Each seat's points: the mean of the points of the places its tie covers."""
    table = POINTS[len(places)]
    ranked = sorted(places)
    out = []
    for place in places:
        covered = [table[i] for i, p in enumerate(ranked) if p == place]
        out.append(sum(covered) / len(covered))
    return out


def hand_standings(entrants: list[int], games: list[tuple[list[int], list[int]]]
                   ) -> list[tuple[int, float, float, int]]:
    """(player, points, Buchholz, first places), best first, from (players, places) games."""
    points: Counter[int] = Counter()
    firsts: Counter[int] = Counter()
    for players, places in games:
        for player, score, place in zip(players, hand_points(places), places, strict=True):
            points[player] += score
            firsts[player] += place == 1
    buchholz: Counter[int] = Counter()
    for players, _ in games:
        for player in players:
            buchholz[player] += sum(points[o] for o in players if o != player)
    order = sorted(entrants, key=lambda p: (-points[p], -buchholz[p], -firsts[p],
                                            entrants.index(p)))
    return [(p, points[p], buchholz[p], firsts[p]) for p in order]


async def run(url: str) -> None:
    players = [Player(url, f"Swiss{i}", f"10.46.0.{i}", seed=i) for i in range(1, 9)]
    for p in players:
        await p.sign_up()
    start = datetime.now(UTC) + timedelta(seconds=6)  # room for every entry on a loaded machine
    made = await players[0].client.post("/api/tournaments", json={
        "name": "Winter Swiss", "system": "swiss", "table_size": 4, "rounds": 3,
        "mode": "realtime", "turn": 60, "bank": 300, "rated": True,
        "starts_at": start.isoformat()})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    for p in players:
        await p.enter(tid)
    docs = await asyncio.gather(*(p.play_tournament(tid) for p in players))
    doc = docs[0]
    assert doc["status"] == "finished" and doc["round"] == 3
    async with httpx.AsyncClient(base_url=url) as api:
        final = (await api.get(f"/api/tournaments/{tid}")).json()
        games: list[tuple[list[int], list[int]]] = []
        for rnd in final["rounds_played"]:
            seated = sorted(p["id"] for t in rnd["tables"] for p in t["players"])
            assert seated == sorted(p.id for p in players)  # everyone once a round
            assert [len(t["players"]) for t in rnd["tables"]] == [4, 4]
            for table in rnd["tables"]:
                ids = [p["id"] for p in table["players"]]
                stored = await stored_places(api, table["code"], ids)
                assert [p["place"] for p in table["players"]] == stored
                games.append((ids, stored))
                rated = (await api.get(f"/api/rooms/{table['code']}/ratings")).json()
                assert len(rated["players"]) == 4  # the game was rated
        expected = hand_standings([p.id for p in players], games)
        shown = [(s["id"], s["points"], s["buchholz"], s["firsts"]) for s in final["standings"]]
        assert shown == expected
        assert sum(s["points"] for s in final["standings"]) == 3 * 2 * 6  # 6 a table
        profile = (await api.get(f"/api/players/{players[0].name}")).json()
        assert profile["rated_games"] == 3
        assert len(profile["recent"]["items"]) == 3  # the profile's games (/games?account=)
    for p in players:
        assert len(p.tables) == 3
        await p.client.aclose()


async def stored_places(api: httpx.AsyncClient, code: str, ids: list[int]) -> list[int]:
    """The places of the stored game of room `code`, in seat order (from /api/games)."""
    listed = (await api.get("/api/games", params={"per_page": 50})).json()
    game = next(g for g in listed["items"] if g["room_code"].replace("-", "") == code)
    return [p["place"] for p in sorted(game["players"], key=lambda p: p["seat"])]


def test_a_swiss_of_eight_at_four_player_tables_over_three_rounds(tmp_path: Path) -> None:
    with served(tmp_path / "coffee-rush.db", BOT_WORKERS="0",
                FORWARDED_ALLOW_IPS="127.0.0.1", TEST_FIXED_SEED="7") as url:
        asyncio.run(run(url))
