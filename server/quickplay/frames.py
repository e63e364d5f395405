"""The lobby socket's frames (`/lobby/socket`): the client's, validated here at the
boundary, and one builder per server frame.

Client: `play` (size 2, 3, 4 or 0 for any; mode; rated; bots after N seconds or null; the
guest's name; the seek joined from the list or null) and `cancel`.
Server: `lobby` (the list, sent at once and whenever it changes), `queued` (the seek's id),
`seated` (the table, the seat and its token: the player goes there), `cancelled`, `error`
(a registered code: server/error_codes.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from server.db.models import Seek
from server.rooms import outgoing
from server.rooms.codes import display

LISTED = 50  # seeks and tables shown at most


class Play(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["play"]
    size: Literal[0, 2, 3, 4] = 0
    mode: Literal["realtime", "turn_based"] = "realtime"
    rated: bool = False
    bots_after: Annotated[int, Field(ge=5, le=600)] | None = None
    name: Annotated[str, Field(max_length=64)] | None = None
    join: Annotated[int, Field(ge=1, lt=2**31)] | None = None


class Cancel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["cancel"]


Frame = Annotated[Play | Cancel, Field(discriminator="type")]
_FRAME: TypeAdapter[Play | Cancel] = TypeAdapter(Frame)


class BadFrame(ValueError):
    pass


def parse(text: str) -> Play | Cancel:
    try:
        return _FRAME.validate_python(orjson.loads(text))
    except (orjson.JSONDecodeError, ValidationError) as exc:
        raise BadFrame(str(exc).splitlines()[0]) from None


def queued(seek_id: int) -> dict[str, Any]:
    return {"type": "queued", "seek": seek_id}


def seated(code: str, seat: int, token: str) -> dict[str, Any]:
    shown = display(code)
    return {"type": "seated", "code": shown, "url": f"/r/{shown}", "seat": seat,
            "seat_token": token}


def cancelled() -> dict[str, Any]:
    return {"type": "cancelled"}


def error(code: str, message: str) -> dict[str, Any]:
    """The table socket's error frame (its owner: server.rooms.outgoing), answering no frame id."""
    return outgoing.error(None, code, message)


def lobby(rows: Sequence[Seek], tables: Sequence[Mapping[str, Any]],
          clocks: Mapping[str, Any]) -> dict[str, Any]:
    """The list: each seek with its size (0: any), mode, clock, rated and the ratings of
    those in it (null: a guest), joiners shown in the seek they joined; then the public
    tables waiting for players (code, seats taken and in all, mode, rated)."""
    ids = {row.id for row in rows}
    joined: dict[int, list[Seek]] = defaultdict(list)
    for row in rows:
        if row.join_id is not None and row.join_id in ids:
            joined[row.join_id].append(row)
    seeks = [
        {"id": row.id, "size": row.size, "mode": row.mode, "clock": clocks[row.mode],
         "rated": row.rated, "ratings": [row.rating, *(j.rating for j in joined[row.id])]}
        for row in rows if row.join_id is None or row.join_id not in ids
    ]
    open_tables = [
        {"code": t["code"], "seated": sum(1 for s in t["seats"] if s.get("name") or s.get("bot")),
         "players": len(t["seats"]), "mode": t["options"].get("mode", "realtime"),
         "rated": t["options"].get("rated", True)}
        for t in tables
    ]
    return {"type": "lobby", "seeks": seeks[:LISTED], "tables": open_tables[:LISTED]}
