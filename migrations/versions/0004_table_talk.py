"""Table talk: chat and turn-clock items of unfinished rooms, and the talk of finished games.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

`room_talk` holds, per unfinished room, its chat messages and clock timeouts (n >= 1, in
order) and its last clock checkpoint (n = 0); the rows go when the game is saved or the
room abandoned. `games.talk` keeps a finished game's messages and timeouts for its replay
and export. Existing rows are untouched both ways: upgrading gives every stored game an
empty talk; downgrading drops only what this revision added.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "room_talk",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_room_talk_room_id_rooms",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "n", name="pk_room_talk"),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("talk", sa.JSON(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("talk")
    op.drop_table("room_talk")
