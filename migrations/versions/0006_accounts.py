"""Optional accounts: accounts, their passkeys, sessions, WebAuthn challenges, failed
sign-ins and old names; a seat and a finished game's player know their account.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04

`room_seats.account_id` and `game_players.account_id` (nullable, ON DELETE SET NULL) name
the account of a signed-in player; guests and bots have none. Downgrading drops the
accounts and those two columns: the seats and games themselves are kept, with the names
they were played under (an account's name is its seat's name), so nothing a game needs is
lost; the accounts are.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME = sa.String(length=64)
HASH = sa.String(length=64)


def ts(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _account_fk(table: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["account_id"], ["accounts.id"],
                                   name=f"fk_{table}_account_id_accounts", ondelete=ondelete)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", NAME, nullable=False),
        sa.Column("name_key", sa.String(length=255), nullable=False),
        ts("created_at"),
        sa.Column("disabled", sa.Boolean(), nullable=False, server_default=sa.false()),
        ts("deleted_at", nullable=True),
        sa.Column("password_hash", sa.String(length=255), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("name_key", name="uq_accounts_name_key"),
    )
    op.create_table(
        "account_names",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("name", NAME, nullable=False),
        ts("until"),
        _account_fk("account_names", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_account_names"),
    )
    op.create_index("ix_account_names_account_id", "account_names", ["account_id"])
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("credential_id", sa.String(length=1400), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("transports", sa.JSON(), nullable=False),
        ts("created_at"),
        ts("last_used_at", nullable=True),
        _account_fk("passkeys", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_passkeys"),
        sa.UniqueConstraint("credential_id", name="uq_passkeys_credential_id"),
    )
    op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])
    op.create_table(
        "account_sessions",
        sa.Column("id", HASH, nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        ts("created_at"),
        ts("last_seen_at"),
        ts("expires_at"),
        sa.Column("user_agent", sa.String(length=120), nullable=True),
        _account_fk("account_sessions", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_account_sessions"),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    op.create_index("ix_account_sessions_expires_at", "account_sessions", ["expires_at"])
    op.create_table(
        "auth_challenges",
        sa.Column("id", HASH, nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("data", sa.JSON(), nullable=False),
        ts("expires_at"),
        _account_fk("auth_challenges", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_auth_challenges"),
    )
    op.create_index("ix_auth_challenges_expires_at", "auth_challenges", ["expires_at"])
    op.create_table(
        "sign_in_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=160), nullable=False),
        ts("at"),
        sa.PrimaryKeyConstraint("id", name="pk_sign_in_attempts"),
    )
    op.create_index("ix_sign_in_attempts_key_at", "sign_in_attempts", ["key", "at"])
    for table in ("room_seats", "game_players"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
            batch.create_foreign_key(f"fk_{table}_account_id_accounts", "accounts",
                                     ["account_id"], ["id"], ondelete="SET NULL")
            batch.create_index(f"ix_{table}_account_id", ["account_id"])


def downgrade() -> None:
    for table in ("game_players", "room_seats"):
        with op.batch_alter_table(table) as batch:
            batch.drop_index(f"ix_{table}_account_id")
            batch.drop_constraint(f"fk_{table}_account_id_accounts", type_="foreignkey")
            batch.drop_column("account_id")
    op.drop_index("ix_sign_in_attempts_key_at", table_name="sign_in_attempts")
    op.drop_table("sign_in_attempts")
    op.drop_index("ix_auth_challenges_expires_at", table_name="auth_challenges")
    op.drop_table("auth_challenges")
    op.drop_index("ix_account_sessions_expires_at", table_name="account_sessions")
    op.drop_index("ix_account_sessions_account_id", table_name="account_sessions")
    op.drop_table("account_sessions")
    op.drop_index("ix_passkeys_account_id", table_name="passkeys")
    op.drop_table("passkeys")
    op.drop_index("ix_account_names_account_id", table_name="account_names")
    op.drop_table("account_names")
    op.drop_table("accounts")
