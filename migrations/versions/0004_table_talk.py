"""Table talk: chat and turn-clock items of unfinished rooms, and the talk of finished games.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

`room_talk` holds, per unfinished room, its chat messages and clock timeouts (n >= 1, in
order) and its last clock checkpoint (n = 0); the rows go when the game is saved or the
room abandoned. `games.talk` keeps a finished game's messages and timeouts for its replay
and export. Data is kept both ways: upgrading gives every stored game an empty talk;
downgrading keeps the talk in its room's or game's `options` (under "_talk"), and the next
upgrade puts it back in place.
"""

import json
from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# Going down, the talk is kept inside the JSON `options` of its room or game under this
# key (the 0003 schema has no place of its own for it); coming up, it moves back.
STASH = "_talk"
rooms = sa.table("rooms", sa.column("id", sa.Integer), sa.column("options", sa.JSON))
games = sa.table("games", sa.column("id", sa.Integer), sa.column("options", sa.JSON),
                 sa.column("talk", sa.JSON))
room_talk = sa.table(
    "room_talk", sa.column("room_id", sa.Integer), sa.column("n", sa.Integer),
    sa.column("kind", sa.String), sa.column("data", sa.JSON),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def _options(value: object) -> dict:
    return dict(json.loads(value) if isinstance(value, str) else value or {})


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
    bind = op.get_bind()
    for room_id, value in bind.execute(sa.select(rooms.c.id, rooms.c.options)).all():
        options = _options(value)
        if STASH not in options:
            continue
        for n, kind, data, at in options.pop(STASH):
            bind.execute(room_talk.insert().values(
                room_id=room_id, n=n, kind=kind, data=data, created_at=datetime.fromisoformat(at)
            ))
        bind.execute(rooms.update().where(rooms.c.id == room_id).values(options=options))
    for game_id, value in bind.execute(sa.select(games.c.id, games.c.options)).all():
        options = _options(value)
        if STASH in options:
            talk = options.pop(STASH)
            bind.execute(games.update().where(games.c.id == game_id)
                         .values(options=options, talk=talk))


def downgrade() -> None:
    bind = op.get_bind()
    stashed: dict[int, list[list]] = {}
    for row in bind.execute(sa.select(room_talk).order_by(room_talk.c.room_id, room_talk.c.n)):
        stashed.setdefault(row.room_id, []).append(
            [row.n, row.kind, row.data, row.created_at.isoformat()]
        )
    for room_id, items in stashed.items():
        value = bind.execute(sa.select(rooms.c.options).where(rooms.c.id == room_id)).scalar()
        bind.execute(rooms.update().where(rooms.c.id == room_id)
                     .values(options={**_options(value), STASH: items}))
    for game_id, value, talk in bind.execute(
        sa.select(games.c.id, games.c.options, games.c.talk)
    ).all():
        talk = json.loads(talk) if isinstance(talk, str) else talk
        if talk:
            bind.execute(games.update().where(games.c.id == game_id)
                         .values(options={**_options(value), STASH: talk}))
    with op.batch_alter_table("games") as batch:
        batch.drop_column("talk")
    op.drop_table("room_talk")
