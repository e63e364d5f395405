"""Ratings: each account's current rating, and its rating before and after each rated game.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04

Ratings are derived data: every rated game's players, places and accounts stay in `games`
and `game_players`, so going down drops both tables and nothing else is lost; after coming
back up, `coffee-rush ratings recompute` rates the stored games again in the order they
ended (server.db.ratings).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "player_ratings",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_player_ratings_account_id_accounts",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("account_id", name="pk_player_ratings"),
    )
    op.create_table(
        "game_ratings",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Double(), nullable=False),
        sa.Column("sigma_before", sa.Double(), nullable=False),
        sa.Column("mu_after", sa.Double(), nullable=False),
        sa.Column("sigma_after", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_ratings_game_id_games",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_game_ratings_account_id_accounts", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_game_ratings"),
    )
    op.create_index("ix_game_ratings_account_id", "game_ratings", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_game_ratings_account_id", table_name="game_ratings")
    op.drop_table("game_ratings")
    op.drop_table("player_ratings")
