"""Bot seats keep their level name; a room remembers which seat holds the host role.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30

`bot` was an integer, but the rooms name bot levels ("random", "greedy", ...): it becomes
text. `rooms.host_seat` lets a restarted server give the host role back to the same seat.

Both ways keep the data: downgrading numbers the levels (LEVELS below; a level not listed
becomes -1, and its seat's name, "<level> bot", gives it back on the way up) and keeps
the host seat inside the room's options, where upgrading finds it again.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LEVEL = sa.String(length=32)
BOT_TABLES = ("room_seats", "game_players")
# Frozen here: the bot levels numbered for the integer column of 0001.
LEVELS = ("random", "greedy", "strong")
UNLISTED = -1
BOT_SUFFIX = " bot"
HOST_SEAT_KEY = "host_seat"

rooms = sa.table(
    "rooms", sa.column("id", sa.Integer()), sa.column("options", sa.JSON()),
    sa.column("host_seat", sa.Integer()),
)


def bots(table: str) -> sa.TableClause:
    return sa.table(table, sa.column("bot", LEVEL), sa.column("name", sa.String()))


def upgrade() -> None:
    for table in BOT_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.alter_column("bot", type_=LEVEL, existing_type=sa.Integer(),
                               existing_nullable=True)
        _name_levels(bots(table))
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("host_seat", sa.Integer(), nullable=True))
    _host_seat_from_options()


def downgrade() -> None:
    _host_seat_into_options()
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("host_seat")
    for table in BOT_TABLES:
        _number_levels(bots(table))
        with op.batch_alter_table(table) as batch:
            batch.alter_column(
                "bot", type_=sa.Integer(), existing_type=LEVEL, existing_nullable=True,
                postgresql_using="bot::integer",
            )


def _number_levels(t: sa.TableClause) -> None:
    """Level names become the integers of 0001 (as text, cast when the type changes)."""
    bind = op.get_bind()
    levels = bind.execute(sa.select(t.c.bot).where(t.c.bot.is_not(None)).distinct()).all()
    for (level,) in levels:
        if level in LEVELS:
            number = LEVELS.index(level)
        elif level.lstrip("-").isdigit():
            continue
        else:
            number = UNLISTED
        bind.execute(sa.update(t).where(t.c.bot == level).values(bot=str(number)))


def _name_levels(t: sa.TableClause) -> None:
    """The integers of 0001 (now text) become level names; -1 takes it from the seat name."""
    bind = op.get_bind()
    for number, level in enumerate(LEVELS):
        bind.execute(sa.update(t).where(t.c.bot == str(number)).values(bot=level))
    rows = bind.execute(sa.select(t.c.name).where(t.c.bot == str(UNLISTED)).distinct())
    for (name,) in rows.all():
        level = name[:-len(BOT_SUFFIX)] if name.endswith(BOT_SUFFIX) else None
        bind.execute(sa.update(t).where(t.c.bot == str(UNLISTED), t.c.name == name)
                     .values(bot=level))


def _host_seat_into_options() -> None:
    bind = op.get_bind()
    for room_id, options, host_seat in bind.execute(
        sa.select(rooms.c.id, rooms.c.options, rooms.c.host_seat)
        .where(rooms.c.host_seat.is_not(None))
    ).all():
        bind.execute(sa.update(rooms).where(rooms.c.id == room_id)
                     .values(options={**options, HOST_SEAT_KEY: host_seat}))


def _host_seat_from_options() -> None:
    bind = op.get_bind()
    for room_id, options in bind.execute(sa.select(rooms.c.id, rooms.c.options)).all():
        if isinstance(options, dict) and HOST_SEAT_KEY in options:
            kept = dict(options)
            host_seat = kept.pop(HOST_SEAT_KEY)
            bind.execute(sa.update(rooms).where(rooms.c.id == room_id)
                         .values(options=kept, host_seat=host_seat))
