"""Confirmation codes sent, per mailbox: the daily cap counts one mailbox however it is
spelled (case, a +tag, Gmail's dots), across tables, seats and client addresses.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05

`code_sends` holds one row per code sent (the sha256 of the canonical mailbox, and when),
kept for a day. Derived, short-lived data: dropped going down.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "code_sends",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("mailbox", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_code_sends"),
    )
    op.create_index("ix_code_sends_mailbox_at", "code_sends", ["mailbox", "at"])


def downgrade() -> None:
    op.drop_index("ix_code_sends_mailbox_at", table_name="code_sends")
    op.drop_table("code_sends")
