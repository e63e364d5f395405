"""Operators: accounts the host marks may open /admin; a server-wide chat mute; the audit.

Revision ID: 0015
Revises: 0012
Create Date: 2026-12-05

`accounts.operator` (set by `coffee-rush users operator`) and `accounts.muted` (set by an
operator); `operator_actions` records who did what, when, to what (server/admin/), and is
the feed every instance follows. Going down drops them: the audit goes with the page.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | Sequence[str] | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("operator", sa.Boolean(), server_default=sa.false(),
                                   nullable=False))
        batch.add_column(sa.Column("muted", sa.Boolean(), server_default=sa.false(),
                                   nullable=False))
    op.create_table(
        "operator_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("target", sa.String(length=64), nullable=True),
        sa.Column("detail", sa.String(length=280), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="SET NULL",
                                name="fk_operator_actions_account_id_accounts"),
        sa.PrimaryKeyConstraint("id", name="pk_operator_actions"),
    )
    op.create_index("ix_operator_actions_at", "operator_actions", ["at"])


def downgrade() -> None:
    op.drop_index("ix_operator_actions_at", table_name="operator_actions")
    op.drop_table("operator_actions")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("muted")
        batch.drop_column("operator")
