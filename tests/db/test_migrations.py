"""The migrations build exactly the schema the models describe, on both databases."""

from __future__ import annotations

import ast
import contextlib
import json
from dataclasses import replace

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from server.db import store
from server.db.migrate import downgrade_async, upgrade, upgrade_async
from server.db.models import Base
from server.db.records import ActionRecord, SeatRecord
from server.db.session import make_engine, session_factory
from tests.serving import ROOT

from .conftest import Clock
from .helpers import finished, new_room, play

TABLES = {"rooms", "room_seats", "journal", "games", "game_players", "room_talk"}
# Migration 0006's (tests/accounts/test_migration.py fills them, up and down).
ACCOUNT_TABLES = {"accounts", "account_names", "passkeys", "account_sessions",
                  "auth_challenges", "sign_in_attempts", "sign_ups"}  # sign_ups: 0012
RATING_TABLES = {"player_ratings", "game_ratings"}  # migration 0007's (derived data)
# E-mail (0008): dropped, not stashed, going down (tests/db/test_turn_based_migration.py).
MAIL_TABLES = {"seat_addresses", "mail_outbox", "code_requests", "code_sends"}  # 0010, 0011
OPERATOR_TABLES = {"operator_actions"}  # 0015: the operators' audit
REVIEW_TABLES = {"game_reviews"}  # 0014: derived data, dropped going down
QUICKPLAY_TABLES = {"seeks"}  # 0013: players waiting to be seated (dropped going down)
# 0016: an account's e-mail address and its password reset links (dropped going down)
RESET_TABLES = {"account_addresses", "password_resets"}
TOURNAMENT_TABLES = {"tournaments", "tournament_players", "tournament_rounds",
                     "tournament_tables"}  # 0017 (dropped going down)


async def _inspect(url: str) -> tuple[list, set[str], dict[str, set[str]]]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            def look(sync_conn):
                ctx = MigrationContext.configure(sync_conn, opts={"compare_type": True})
                insp = inspect(sync_conn)
                tables = set(insp.get_table_names())
                columns = {t: {c["name"] for c in insp.get_columns(t)} for t in tables}
                return compare_metadata(ctx, Base.metadata), tables, columns
            return await conn.run_sync(look)
    finally:
        await engine.dispose()


@pytest.mark.asyncio
async def test_upgrade_matches_the_models(db_url: str) -> None:
    await upgrade_async(db_url)
    diff, tables, columns = await _inspect(db_url)
    assert diff == []
    assert tables == (TABLES | ACCOUNT_TABLES | RATING_TABLES | MAIL_TABLES | REVIEW_TABLES
                      | OPERATOR_TABLES | QUICKPLAY_TABLES | RESET_TABLES | TOURNAMENT_TABLES
                      | {"alembic_version"})
    for name, table in Base.metadata.tables.items():
        assert columns[name] == {c.name for c in table.columns}


@pytest.mark.asyncio
async def test_downgrade_to_base_and_up_again(db_url: str) -> None:
    await upgrade_async(db_url)
    await downgrade_async(db_url, "base")
    _, tables, _ = await _inspect(db_url)
    assert tables == {"alembic_version"}
    await upgrade_async(db_url)
    await upgrade_async(db_url)  # already at head: nothing to do, no error
    diff, tables, _ = await _inspect(db_url)
    assert diff == [] and tables >= TABLES


def test_blocking_upgrade_outside_a_loop_creates_the_sqlite_directory(tmp_path) -> None:
    path = tmp_path / "deep" / "er" / "x.db"
    upgrade(f"sqlite+aiosqlite:///{path}")
    assert path.exists()


# --- data survives every migration, both ways --------------------------------------------


async def _fill(url: str) -> None:
    """A waiting room with a bot and a host seat, a playing room with journal rows, and a
    finished game with a bot player."""
    engine = make_engine(url)
    clock = Clock()
    try:
        async with session_factory(engine)() as s, s.begin():
            waiting = new_room("WAIT0001", clock(), players=3)
            await store.create_room(s, waiting)
            await store.set_seats(
                s, waiting.code,
                (*waiting.seats[:2], SeatRecord(2, "strong bot", "strong")), host_seat=1,
            )
            playing = new_room("PLAY0001", clock(), players=2)
            await store.create_room(s, playing)
            await store.set_seats(
                s, playing.code, (playing.seats[0], SeatRecord(1, "odd bot", "odd")),
                host_seat=0,
            )
            await store.start_room(s, playing.code, options=playing.options, seed=playing.seed,
                                   started_at=clock())
            actions, _ = play(playing.seed, 2)
            await store.append_actions(s, [
                ActionRecord(playing.code, seq, seat, action, clock())
                for seq, (seat, action) in enumerate(actions[:12], start=1)
            ])
            done = new_room("DONE0001", clock(), players=2)
            await store.create_room(s, done)
            game = finished(done, clock(), clock())
            roster = (game.players[0], SeatRecord(1, "greedy bot", "greedy"))
            await store.save_finished_game(s, replace(game, players=roster))
            chat = {"kind": "chat", "channel": "players", "seat": 0, "text": "hi"}
            await store.append_talk(s, playing.code, {**chat, "n": 1}, clock())
            await store.append_talk(s, done.code, {**chat, "n": 2, "text": "gg"}, clock())
    finally:
        await engine.dispose()


async def _rows(url: str) -> dict[str, list[tuple]]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            tables = await conn.run_sync(lambda c: inspect(c).get_table_names())
            found = {}
            for table in sorted(set(tables) - {"alembic_version"}):
                result = await conn.execute(text(f"SELECT * FROM {table}"))
                found[table] = sorted(
                    (tuple(_plain(v) for v in row) for row in result), key=repr
                )
            return found
    finally:
        await engine.dispose()


def _plain(value: object) -> object:
    """Compare JSON columns by value (SQLite hands them back as text)."""
    if isinstance(value, str) and value[:1] in "{[":
        with contextlib.suppress(ValueError):
            return json.dumps(json.loads(value), sort_keys=True)
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True)
    return value


@pytest.mark.asyncio
async def test_every_row_survives_a_downgrade_and_an_upgrade(db_url: str) -> None:
    await upgrade_async(db_url)
    await _fill(db_url)
    before = await _rows(db_url)
    assert all(before[t] for t in TABLES)  # every table holds data

    await downgrade_async(db_url, "0001")
    old = await _rows(db_url)
    for table in TABLES & set(old):  # nothing deleted on the way down (the talk is stashed)
        assert len(old[table]) == len(before[table]), table
    seats = await _column(db_url, "room_seats", "bot")
    assert sorted(b for b in seats if b is not None) == [-1, 2]  # odd (unlisted), strong

    await upgrade_async(db_url)
    assert await _rows(db_url) == before


async def _column(url: str, table: str, column: str) -> list:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            return list((await conn.execute(text(f"SELECT {column} FROM {table}"))).scalars())
    finally:
        await engine.dispose()


def test_migrations_import_nothing_of_the_application() -> None:
    """A migration runs as it was written: importing the application's code (issue 41.21:
    0009 imported `name_key`) would change what an old migration does whenever that code
    changes."""
    found = []
    for path in sorted((ROOT / "migrations" / "versions").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "server"]
    assert found == []
