"""Old names are held: an account's names before a rename keep their key, so no other
account or guest may take one (the owner may take it back).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04

`account_names.name_key` is the confusable-insensitive key of the old name (the same key
`accounts.name_key` holds, server/accounts/names.py), indexed: a name is taken if any
account holds its key, now or before. Going up, the rows already there get their key
computed from their name; going down the column is dropped (the names stay).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from server.accounts.names import name_key

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("account_names") as batch:
        batch.add_column(sa.Column("name_key", sa.String(length=255), nullable=True))
    bind = op.get_bind()
    names = sa.table("account_names", sa.column("id", sa.Integer()),
                     sa.column("name", sa.String()), sa.column("name_key", sa.String()))
    for row in bind.execute(sa.select(names.c.id, names.c.name)).all():
        bind.execute(names.update().where(names.c.id == row.id)
                     .values(name_key=name_key(row.name)))
    with op.batch_alter_table("account_names") as batch:
        batch.alter_column("name_key", existing_type=sa.String(length=255), nullable=False)
        batch.create_index("ix_account_names_name_key", ["name_key"])


def downgrade() -> None:
    with op.batch_alter_table("account_names") as batch:
        batch.drop_index("ix_account_names_name_key")
        batch.drop_column("name_key")
