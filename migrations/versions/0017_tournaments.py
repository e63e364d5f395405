"""Tournaments: Swiss and round-robin events whose rounds start themselves.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05

`tournaments` (what the organiser chose, the last round paired), `tournament_players`
(entries), `tournament_rounds` (unique per tournament and round: a round is paired once) and
`tournament_tables` (each round's tables, their rooms and their results). server.tournaments.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | Sequence[str] | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("organiser_id", sa.Integer(), nullable=True),
        sa.Column("system", sa.String(length=16), nullable=False),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("bank", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("invite", sa.String(length=32), nullable=True),
        sa.Column("starts_at", STAMP, nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), server_default="0", nullable=False),
        sa.Column("entrants", sa.Integer(), server_default="0", nullable=False),
        sa.Column("client", sa.String(length=160), nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Column("finished_at", STAMP, nullable=True),
        sa.ForeignKeyConstraint(["organiser_id"], ["accounts.id"],
                                name="fk_tournaments_organiser_id_accounts", ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
    )
    op.create_index("ix_tournaments_organiser_id", "tournaments", ["organiser_id"])
    op.create_index("ix_tournaments_status_starts_at", "tournaments", ["status", "starts_at"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("entry", sa.Integer(), nullable=False),
        sa.Column("client", sa.String(length=160), nullable=False),
        sa.Column("joined_at", STAMP, nullable=False),
        sa.Column("withdrawn_at", STAMP, nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name="fk_tournament_players_tournament_id_tournaments",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_tournament_players_account_id_accounts",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "account_id", name="pk_tournament_players"),
    )
    op.create_index("ix_tournament_players_account_id", "tournament_players", ["account_id"])
    op.create_table(
        "tournament_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("started_at", STAMP, nullable=False),
        sa.Column("finished_at", STAMP, nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name="fk_tournament_rounds_tournament_id_tournaments",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_tournament_rounds"),
        sa.UniqueConstraint("tournament_id", "number",
                            name="uq_tournament_rounds_tournament_id_number"),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("room_code", sa.String(length=8), nullable=True),
        sa.Column("claim", sa.String(length=32), nullable=True),
        sa.Column("claimed_at", STAMP, nullable=True),
        sa.Column("places", sa.JSON(), nullable=True),
        sa.Column("points", sa.JSON(), nullable=True),
        sa.Column("finished_at", STAMP, nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name="fk_tournament_tables_tournament_id_tournaments",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_tournament_tables"),
        sa.UniqueConstraint("tournament_id", "round", "number",
                            name="uq_tournament_tables_tournament_id_round_number"),
    )
    op.create_index("ix_tournament_tables_room_code", "tournament_tables", ["room_code"])


def downgrade() -> None:
    op.drop_index("ix_tournament_tables_room_code", table_name="tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_rounds")
    op.drop_index("ix_tournament_players_account_id", table_name="tournament_players")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_status_starts_at", table_name="tournaments")
    op.drop_index("ix_tournaments_organiser_id", table_name="tournaments")
    op.drop_table("tournaments")
