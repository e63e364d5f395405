"""Bot seats keep their level name; a room remembers which seat holds the host role.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30

`bot` was an integer, but the rooms name bot levels ("random", "greedy", ...): it becomes
text. `rooms.host_seat` lets a restarted server give the host role back to the same seat.
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


def upgrade() -> None:
    for table in BOT_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.alter_column("bot", type_=LEVEL, existing_type=sa.Integer(),
                               existing_nullable=True)
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("host_seat", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("host_seat")
    for table in BOT_TABLES:
        with op.batch_alter_table(table) as batch:
            # Level names have no integer form: they become NULL (a human, to the old schema).
            batch.alter_column(
                "bot", type_=sa.Integer(), existing_type=LEVEL, existing_nullable=True,
                postgresql_using="CASE WHEN bot ~ '^[0-9]+$' THEN bot::integer END",
            )
