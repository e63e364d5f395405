"""Turn-based play: the players' e-mail addresses per seat and the outbox of messages.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04

`seat_addresses` keeps the address a player of a turn-based room gave for their seat (its
confirmation code's hash, tries and sends, its unsubscribe key, whether it wants a daily
digest instead of a message per turn); `mail_outbox` the messages
to send, one row per `key` (a turn mail: room, the journal seq that made it the seat's
turn, seat), so a message is written at most once however often it is asked for.

A room's mode is in its `options` JSON ("mode": "turn_based"), no column. Going down, a
turn-based room's mode and clock (hours and days, out of an older server's bounds) move
under "_turn_based" in its options, and its clock checkpoint's option under "_option", so
an older server plays it on as a real-time room without a clock; the next upgrade puts
them back. The addresses and the outbox are dropped going down, on purpose: keeping them
anywhere else (a room's options are shown to every viewer) would leak them.
"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STASH = "_turn_based"
rooms = sa.table("rooms", sa.column("id", sa.Integer), sa.column("options", sa.JSON))
room_talk = sa.table("room_talk", sa.column("room_id", sa.Integer), sa.column("n", sa.Integer),
                     sa.column("data", sa.JSON))


def _json(value: object) -> dict:
    return dict(json.loads(value) if isinstance(value, str) else value or {})


def upgrade() -> None:
    op.create_table(
        "seat_addresses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_code", sa.String(length=8), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("seat_link", sa.String(length=128), nullable=True),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("code_hash", sa.String(length=64), nullable=True),
        sa.Column("code_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("code_tries", sa.Integer(), nullable=False),
        sa.Column("codes_sent", sa.Integer(), nullable=False),
        sa.Column("window_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_code_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("unsub_key", sa.String(length=64), nullable=False),
        sa.Column("unsubscribed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("digest", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("digest_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_seat_addresses"),
        sa.UniqueConstraint("room_code", "seat", name="uq_seat_addresses_room_code_seat"),
    )
    op.create_index("ix_seat_addresses_address", "seat_addresses", ["address"])
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=96), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("room_code", sa.String(length=8), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("address_id", sa.Integer(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_by", sa.String(length=96), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["address_id"], ["seat_addresses.id"],
                                name="fk_mail_outbox_address_id_seat_addresses",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_mail_outbox"),
        sa.UniqueConstraint("key", name="uq_mail_outbox_key"),
    )
    op.create_index("ix_mail_outbox_address_id", "mail_outbox", ["address_id"])
    op.create_index("ix_mail_outbox_status_next_at", "mail_outbox", ["status", "next_at"])
    bind = op.get_bind()
    for room_id, value in bind.execute(sa.select(rooms.c.id, rooms.c.options)).all():
        options = _json(value)
        if STASH in options:
            options.update(options.pop(STASH))
            bind.execute(rooms.update().where(rooms.c.id == room_id).values(options=options))
    for room_id, _n, value in bind.execute(sa.select(room_talk).where(room_talk.c.n == 0)).all():
        data = _json(value)
        if "_option" in data:
            data["option"] = data.pop("_option")
            bind.execute(room_talk.update().where(room_talk.c.room_id == room_id,
                                                  room_talk.c.n == 0).values(data=data))


def downgrade() -> None:
    bind = op.get_bind()
    for room_id, value in bind.execute(sa.select(rooms.c.id, rooms.c.options)).all():
        options = _json(value)
        if options.get("mode", "realtime") == "realtime":
            continue
        options[STASH] = {"mode": options.pop("mode"), "clock": options.pop("clock", None)}
        bind.execute(rooms.update().where(rooms.c.id == room_id).values(options=options))
        for (data_value,) in bind.execute(sa.select(room_talk.c.data).where(
                room_talk.c.room_id == room_id, room_talk.c.n == 0)).all():
            data = _json(data_value)
            data["_option"], data["option"] = data.get("option"), None
            bind.execute(room_talk.update().where(room_talk.c.room_id == room_id,
                                                  room_talk.c.n == 0).values(data=data))
    op.drop_table("mail_outbox")
    op.drop_table("seat_addresses")
