"""Quick play: the players waiting to be seated, shared by every instance.

Revision ID: 0013
Revises: 0015
Create Date: 2026-12-05

`seeks` holds one row per waiting player (one per account or guest socket), kept fresh by
the instance that holds the player's socket (server.quickplay). Short-lived: dropped going
down.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=40), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("client", sa.String(length=160), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("bots_after", sa.Integer(), nullable=True),
        sa.Column("join_id", sa.Integer(), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("instance", sa.String(length=96), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("alive_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claim", sa.String(length=32), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("room_code", sa.String(length=8), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_seeks_account_id_accounts", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_seeks"),
        sa.UniqueConstraint("player", name="uq_seeks_player"),
    )
    op.create_index("ix_seeks_client", "seeks", ["client"])


def downgrade() -> None:
    op.drop_index("ix_seeks_client", table_name="seeks")
    op.drop_table("seeks")
