"""The migrations build exactly the schema the models describe, on both databases."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from server.db.migrate import downgrade_async, upgrade, upgrade_async
from server.db.models import Base
from server.db.session import make_engine

TABLES = {"rooms", "room_seats", "journal", "games", "game_players", "room_talk"}


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
    assert tables == TABLES | {"alembic_version"}
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
