"""The expert's review of a finished game, stored with it, computed once per cluster.

Revision ID: 0014
Revises: 0012
Create Date: 2026-12-05

`game_reviews` has one row per game whose review was asked for: its state (`queued`,
`running`, `done`, `failed`), the instance that claimed it and when (the claim is the row:
two instances never compute one review; a claim left by an instance that died is taken
over after a lease), the work and seed it was computed with, and the review itself.
Derived data (it can be computed again): dropped going down.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_reviews",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("claimed_by", sa.String(length=64), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("work", sa.Float(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("computed", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("review", sa.JSON(), nullable=True),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_reviews_game_id_games",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name="pk_game_reviews"),
    )
    op.create_index("ix_game_reviews_state", "game_reviews", ["state"])


def downgrade() -> None:
    op.drop_index("ix_game_reviews_state", table_name="game_reviews")
    op.drop_table("game_reviews")
