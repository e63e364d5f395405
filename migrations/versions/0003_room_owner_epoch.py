"""Rooms carry the epoch of their owning instance, for cluster mode's fencing.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

Every claim of a room by an instance raises `rooms.owner_epoch`; journal writes carry the
writer's epoch and are refused when it is no longer the room's. Single-process servers
leave it at 0.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("owner_epoch", sa.BigInteger(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("owner_epoch")
