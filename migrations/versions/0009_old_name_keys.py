"""Old names are held: an account's names before a rename keep their key, so no other
account or guest may take one (the owner may take it back).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04

`account_names.name_key` is the confusable-insensitive key of the old name (the same key
`accounts.name_key` holds, server/accounts/names.py), indexed: a name is taken if any
account holds its key, now or before. Going up, the rows already there get their key
computed from their name; going down the column is dropped (the names stay).

The key is computed by a copy of `name_key` as it was at this revision (server/accounts/
names.py of 2026-12-04), not by the application's: a migration must do tomorrow what it
did the day it was written.
"""

import unicodedata
from collections.abc import Sequence
from functools import cache

import sqlalchemy as sa
from alembic import op
from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


_MARKS = "\u200e\u200f"
EXTRA = {"0": "o"}


@cache
def _classes() -> dict[str, str]:
    """Each confusable character -> its class's representative (an ASCII character when
    the class has one, else the lowest code point)."""
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            c = parent[c]
        return c

    def rank(c: str) -> tuple[bool, int]:
        return (not c.isascii(), ord(c))

    for char, glyphs in confusables_data.items():
        for glyph in glyphs:
            other = glyph["c"].strip(_MARKS)
            if len(char) == 1 and len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    low, high = sorted((a, b), key=rank)
                    parent[high] = low
    return {c: find(c) for c in parent}


def name_key(name: str) -> str:
    """The confusable-insensitive key of a name, as server/accounts/names.py made it."""
    classes = _classes()
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c if c.isascii() else classes.get(c, c) for c in text).casefold()
    kept = (c for c in text if not c.isspace() and unicodedata.category(c) != "Cf")
    key = "".join(EXTRA.get(c) or classes.get(c, c) for c in kept)
    return unicodedata.normalize("NFKC", key).casefold()


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
