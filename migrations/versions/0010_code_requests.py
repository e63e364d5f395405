"""Confirmation codes asked for, per client address: "send the code" is limited per
client address too, not only per seat and per e-mail address.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04

`code_requests` holds one row per code sent (the client address that asked, and when),
kept for an hour. Derived, short-lived data: dropped going down.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "code_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("client", sa.String(length=160), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_code_requests"),
    )
    op.create_index("ix_code_requests_client_at", "code_requests", ["client", "at"])


def downgrade() -> None:
    op.drop_index("ix_code_requests_client_at", table_name="code_requests")
    op.drop_table("code_requests")
