"""Password reset: an account's confirmed e-mail address, its reset links, where a session
was opened from.

Revision ID: 0016
Revises: 0013
Create Date: 2026-12-05

`account_addresses` holds an account's address (confirmed with a code, or pending one);
`password_resets` the sha256 of each "forgot password" link's secret, its expiry and its
use; `account_sessions.address` the client address a session was opened from (its owner's
sessions list). `mail_outbox` rows may now be an account's (`account_address_id`, no room,
no seat address). Going down drops the addresses, the links and the account mails, on
purpose: an older server has nowhere to keep them.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "account_addresses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=True),
        sa.Column("address_key", sa.String(length=254), nullable=True),
        sa.Column("confirmed_at", WHEN, nullable=True),
        sa.Column("pending", sa.String(length=254), nullable=True),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=True),
        sa.Column("code_expires_at", WHEN, nullable=True),
        sa.Column("code_tries", sa.Integer(), nullable=False),
        sa.Column("codes_sent", sa.Integer(), nullable=False),
        sa.Column("window_at", WHEN, nullable=True),
        sa.Column("last_code_at", WHEN, nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_account_addresses_account_id_accounts",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_account_addresses"),
        sa.UniqueConstraint("account_id", name="uq_account_addresses_account_id"),
    )
    op.create_index("ix_account_addresses_address_key", "account_addresses", ["address_key"])
    op.create_table(
        "password_resets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("expires_at", WHEN, nullable=False),
        sa.Column("used_at", WHEN, nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                name="fk_password_resets_account_id_accounts",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_password_resets"),
        sa.UniqueConstraint("token_hash", name="uq_password_resets_token_hash"),
    )
    op.create_index("ix_password_resets_account_id", "password_resets", ["account_id"])
    with op.batch_alter_table("account_sessions") as batch:
        batch.add_column(sa.Column("address", sa.String(length=64), nullable=True))
    with op.batch_alter_table("mail_outbox") as batch:
        batch.alter_column("room_code", existing_type=sa.String(length=8), nullable=True)
        batch.alter_column("address_id", existing_type=sa.Integer(), nullable=True)
        batch.add_column(sa.Column("account_address_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_mail_outbox_account_address_id_account_addresses",
                                 "account_addresses", ["account_address_id"], ["id"],
                                 ondelete="CASCADE")
        batch.create_index("ix_mail_outbox_account_address_id", ["account_address_id"])


def downgrade() -> None:
    outbox = sa.table("mail_outbox", sa.column("address_id", sa.Integer))
    op.execute(outbox.delete().where(outbox.c.address_id.is_(None)))
    with op.batch_alter_table("mail_outbox") as batch:
        batch.drop_index("ix_mail_outbox_account_address_id")
        batch.drop_constraint("fk_mail_outbox_account_address_id_account_addresses",
                              type_="foreignkey")
        batch.drop_column("account_address_id")
        batch.alter_column("address_id", existing_type=sa.Integer(), nullable=False)
        batch.alter_column("room_code", existing_type=sa.String(length=8), nullable=False)
    with op.batch_alter_table("account_sessions") as batch:
        batch.drop_column("address")
    op.drop_index("ix_password_resets_account_id", table_name="password_resets")
    op.drop_table("password_resets")
    op.drop_index("ix_account_addresses_address_key", table_name="account_addresses")
    op.drop_table("account_addresses")
