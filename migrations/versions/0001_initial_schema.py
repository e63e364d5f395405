"""Initial schema: rooms, their seats, the in-progress journal, finished games.

Revision ID: 0001
Revises:
Create Date: 2026-11-29

Types are spelled out here (no imports from server.db.models): a migration is a frozen
snapshot and must not change when the models do. Seeds are 64-bit unsigned, kept as text.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEED = sa.String(length=20)
CODE = sa.String(length=8)
NAME = sa.String(length=64)
HASH = sa.String(length=64)


def ts(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", CODE, nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", SEED, nullable=False),
        sa.Column("rules_version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("host_token_hash", HASH, nullable=False),
        ts("created_at"),
        ts("started_at", nullable=True),
        ts("finished_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rooms")),
        sa.UniqueConstraint("code", name=op.f("uq_rooms_code")),
    )
    op.create_index(op.f("ix_rooms_status"), "rooms", ["status"])

    op.create_table(
        "room_seats",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", NAME, nullable=False),
        sa.Column("bot", sa.Integer(), nullable=True),
        sa.Column("token_hash", HASH, nullable=True),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_room_seats_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("room_id", "seat", name=op.f("pk_room_seats")),
    )

    op.create_table(
        "journal",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.JSON(), nullable=False),
        ts("created_at"),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_journal_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("room_id", "seq", name=op.f("pk_journal")),
    )

    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_code", CODE, nullable=False),
        sa.Column("seed", SEED, nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("rules_version", sa.Integer(), nullable=False),
        sa.Column("actions", sa.JSON(), nullable=False),
        sa.Column("action_count", sa.Integer(), nullable=False),
        sa.Column("turns", sa.Integer(), nullable=False),
        sa.Column("end_reason", sa.String(length=32), nullable=True),
        sa.Column("result", sa.JSON(), nullable=False),
        ts("started_at"),
        ts("ended_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("room_code", name=op.f("uq_games_room_code")),
    )
    op.create_index(op.f("ix_games_ended_at_id"), "games", ["ended_at", "id"])

    op.create_table(
        "game_players",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", NAME, nullable=False),
        sa.Column("name_key", NAME, nullable=False),
        sa.Column("bot", sa.Integer(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Boolean(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("orders", sa.Integer(), nullable=False),
        sa.Column("upgrades", sa.Integer(), nullable=False),
        sa.Column("penalties", sa.Integer(), nullable=False),
        sa.Column("rush", sa.Integer(), nullable=False),
        sa.Column("tiles", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_players_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_game_players")),
    )
    op.create_index(op.f("ix_game_players_name_key"), "game_players", ["name_key"])


def downgrade() -> None:
    op.drop_index(op.f("ix_game_players_name_key"), table_name="game_players")
    op.drop_table("game_players")
    op.drop_index(op.f("ix_games_ended_at_id"), table_name="games")
    op.drop_table("games")
    op.drop_table("journal")
    op.drop_table("room_seats")
    op.drop_index(op.f("ix_rooms_status"), table_name="rooms")
    op.drop_table("rooms")
