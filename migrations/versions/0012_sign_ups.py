"""Sign-ups per client address: an address may make only so many accounts a day.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05

`sign_ups` holds one row per account made (the client address it came from, and when),
kept for the window it is counted in. Derived, short-lived data: dropped going down.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sign_ups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("client", sa.String(length=160), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_sign_ups"),
    )
    op.create_index("ix_sign_ups_client_at", "sign_ups", ["client", "at"])


def downgrade() -> None:
    op.drop_index("ix_sign_ups_client_at", table_name="sign_ups")
    op.drop_table("sign_ups")
