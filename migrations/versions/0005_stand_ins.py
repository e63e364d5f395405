"""A finished game remembers which players' seats a bot was playing for when it ended.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

`game_players.stand_in` is the level of the bot that stood in for a player who had left
(None: the player themself, or a bot seat). Games whose room expired before the end are
stored from now on too, with end_reason "abandoned"; they need no schema change.
Data is kept both ways: downgrading keeps each game's stand-ins in its `options` (under
"_stand_ins", {seat: level}), and the next upgrade puts them back in place.
"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STASH = "_stand_ins"
games = sa.table("games", sa.column("id", sa.Integer), sa.column("options", sa.JSON))
players = sa.table(
    "game_players", sa.column("game_id", sa.Integer), sa.column("seat", sa.Integer),
    sa.column("stand_in", sa.String),
)


def _options(value: object) -> dict:
    return dict(json.loads(value) if isinstance(value, str) else value or {})


def upgrade() -> None:
    with op.batch_alter_table("game_players") as batch:
        batch.add_column(sa.Column("stand_in", sa.String(length=32), nullable=True))
    bind = op.get_bind()
    for game_id, value in bind.execute(sa.select(games.c.id, games.c.options)).all():
        options = _options(value)
        if STASH not in options:
            continue
        for seat, level in options.pop(STASH).items():
            bind.execute(players.update()
                         .where(players.c.game_id == game_id, players.c.seat == int(seat))
                         .values(stand_in=level))
        bind.execute(games.update().where(games.c.id == game_id).values(options=options))


def downgrade() -> None:
    bind = op.get_bind()
    stashed: dict[int, dict[str, str]] = {}
    for row in bind.execute(
        sa.select(players).where(players.c.stand_in.is_not(None))
        .order_by(players.c.game_id, players.c.seat)
    ):
        stashed.setdefault(row.game_id, {})[str(row.seat)] = row.stand_in
    for game_id, stand_ins in stashed.items():
        value = bind.execute(sa.select(games.c.options).where(games.c.id == game_id)).scalar()
        bind.execute(games.update().where(games.c.id == game_id)
                     .values(options={**_options(value), STASH: stand_ins}))
    with op.batch_alter_table("game_players") as batch:
        batch.drop_column("stand_in")
