"""The export document (format 1): a finished game, self-contained, as one JSON object.

    {"format": 1, "rules_version", "seed", "options",
     "players": [{seat, name, bot, stand_in}],    # stand_in: only when a bot stood in
     "actions": [[seat, action], ...], "result", "room_code", "started_at", "ended_at",
     "talk": [chat message or timeout, ...]}   # talk: optional, [] when absent

Importing reads it strictly, replays it with the engine and accepts it only if every
action is legal and the replay ends with exactly the document's result: the engine's at
the end of the game, or, for an abandoned game (result reason "abandoned"), the
standings where its actions stop (server.history.outcome).
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
)

from server.db.models import ABANDONED, BOT_LEVEL, NAME
from server.db.records import FinishedGame, GameDetail, SeatRecord
from server.error_codes import Refusal
from server.rooms import RoomOptions
from server.rooms.chat import LOG_MAX, REACTIONS, TEXT_MAX, clean_text
from server.rooms.codes import ALPHABET
from server.rooms.errors import RoomError
from server.rooms.option_models import DocumentOptions
from server.rooms.outgoing import ActionField
from server.rules import REPLAYED_VERSIONS, RULES_VERSION, Game, RuleError, is_over

from .outcome import abandoned_result
from .replay import ReplayError, replay_game

FORMAT = 1
MAX_ACTIONS = 5000  # a long 4-player game is a few hundred


class ImportRefused(Refusal, ValueError):
    """An import was refused; nothing was stored."""

    def __init__(self, code: str, message: str, status: int = 422) -> None:
        super().__init__(code, message, status)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Chat(_Strict):
    """A chat message as exported; its text is checked as a live message is."""

    kind: Literal["chat"]
    n: int = Field(ge=1)
    channel: Literal["players", "spectators"]
    author: Annotated[str, StringConstraints(pattern=r"^[pw][0-9]{1,6}$")]
    seat: int | None = Field(None, ge=0, le=3)
    name: Annotated[str, StringConstraints(max_length=NAME)] | None = None
    text: Annotated[str, StringConstraints(max_length=TEXT_MAX)] | None = None
    reaction: Literal[REACTIONS] | None = None  # type: ignore[valid-type]
    after: int = Field(ge=0)
    at: int | None = None

    @field_validator("text")
    @classmethod
    def _clean(cls, text: str | None) -> str | None:
        if text is None:
            return None
        try:
            return clean_text(text)
        except RoomError as e:
            raise ValueError(e.message) from None


class _Timeout(_Strict):
    kind: Literal["timeout"]
    n: int = Field(ge=1)
    seat: int = Field(ge=0, le=3)
    away: bool = False
    after: int = Field(ge=0)
    at: int | None = None


class _HintWhy(_Strict):
    key: Annotated[str, StringConstraints(pattern=r"^hint\.why\.[a-z_]{1,32}$")]
    args: dict[str, Any] = Field(default_factory=dict, max_length=8)


class _Hint(_Strict):
    """A hint a player was given (server/bots/hint.py): the suggested action and its why."""

    kind: Literal["hint"]
    n: int = Field(ge=1)
    seat: int = Field(ge=0, le=3)
    action: ActionField
    path: list[Annotated[str, StringConstraints(pattern=r"^r[1-4]c[1-4]$")]] = Field(
        default_factory=list, max_length=64)
    why: _HintWhy
    after: int = Field(ge=0)
    at: int | None = None


TalkItem = Annotated[_Chat | _Timeout | _Hint, Field(discriminator="kind")]


class _Player(_Strict):
    seat: int = Field(ge=0, le=3)
    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME)]
    bot: Annotated[str, StringConstraints(min_length=1, max_length=BOT_LEVEL)] | None = None
    stand_in: Annotated[str, StringConstraints(min_length=1, max_length=BOT_LEVEL)] | None = None


class Document(_Strict):
    format: int
    rules_version: int
    seed: int = Field(ge=0, lt=1 << 64)
    options: DocumentOptions  # derived from RoomOptions
    players: list[_Player] = Field(min_length=2, max_length=4)
    actions: list[tuple[int | None, ActionField]] = Field(max_length=MAX_ACTIONS)
    result: dict[str, Any]
    room_code: str | None = Field(None, max_length=16)
    started_at: datetime | None = None
    ended_at: datetime | None = None
    talk: list[TalkItem] = Field(default_factory=list, max_length=LOG_MAX)


def options_of(doc: Document) -> dict[str, Any]:
    """The game options as stored: no "clock" key for a game without a clock."""
    return RoomOptions.from_dict(doc.options.model_dump()).to_dict()


def _plain(value: Any) -> Any:
    """Exactly what a JSON round trip gives (tuples become lists)."""
    return json.loads(json.dumps(value))


def export_document(game: GameDetail) -> dict[str, Any]:
    s = game.summary
    return {
        "format": FORMAT,
        "rules_version": game.rules_version,
        "seed": game.seed,
        "options": game.options,
        "players": [{"seat": p.seat, "name": p.name, "bot": p.bot,
                     **({"stand_in": p.stand_in} if p.stand_in else {})} for p in s.players],
        "actions": [[seat, action] for seat, action in game.actions],
        "result": game.result,
        "room_code": s.room_code,
        "started_at": s.started_at.isoformat(),
        "ended_at": s.ended_at.isoformat(),
        "talk": list(game.talk),
    }


def read_document(data: bytes | str | dict[str, Any]) -> Document:
    """Parse and check the shape of a document (not yet its game)."""
    if not isinstance(data, dict):
        try:  # strict: no NaN, no lone surrogates, nesting at most 1024 deep
            data = orjson.loads(data)
        except orjson.JSONDecodeError:
            raise ImportRefused("malformed", "the document is not JSON") from None
    if not isinstance(data, dict):
        raise ImportRefused("malformed", "the document is not a JSON object")
    if data.get("format") != FORMAT:  # before the shape: another format has another shape
        raise ImportRefused("unsupported_format", f"format {data.get('format')!r} is not {FORMAT}")
    try:  # from JSON text, so strict mode still reads ISO dates
        doc = Document.model_validate_json(json.dumps(data))
    except ValidationError as e:
        first = e.errors()[0]
        loc = first["loc"]
        if loc[0] == "actions" and isinstance(first.get("ctx", {}).get("error"), RuleError):
            # not an action at all: refused as the replay refuses an action
            message = first["ctx"]["error"].message
            raise ImportRefused("illegal_action", f"action {int(loc[1]) + 1}: {message}") from None
        where = ".".join(str(p) for p in loc)
        raise ImportRefused("malformed", f"{where}: {first['msg']}") from None
    if doc.rules_version not in REPLAYED_VERSIONS:  # an older one's game must still replay
        raise ImportRefused(
            "rules_version_mismatch",
            f"the game was played under rules version {doc.rules_version}; "
            f"this server plays version {RULES_VERSION}", 409,
        )
    if sorted(p.seat for p in doc.players) != list(range(options_of(doc)["players"])):
        raise ImportRefused("malformed", "players: one entry per seat 0..players-1")
    if doc.started_at and doc.ended_at and doc.ended_at < doc.started_at:
        raise ImportRefused("malformed", "ended_at is before started_at")
    return doc


def verify(doc: Document) -> Game:
    """Replay the document; its final state, if it reproduces the document's result."""
    try:
        game = replay_game(doc.seed, options_of(doc), doc.actions)
    except ReplayError as e:
        raise ImportRefused("illegal_action", e.message) from None
    if doc.result.get("reason") == ABANDONED:
        if is_over(game):
            raise ImportRefused("result_mismatch", "the game was played to its end, so it "
                                "was not abandoned")
        if _plain(abandoned_result(game)) != _plain(doc.result):
            raise ImportRefused("result_mismatch",
                                "replaying the actions gives other standings")
        return game
    if not is_over(game):
        raise ImportRefused("not_finished", "the actions stop before the end of the game")
    if _plain(game.result) != _plain(doc.result):
        raise ImportRefused("result_mismatch", "replaying the actions gives another result")
    return game


def import_code(doc: Document) -> str:
    """The room code an imported game is stored under. It starts with "I", which live room
    codes never contain, and is derived from the game: importing it twice stores it once."""
    key = json.dumps(
        [doc.seed, options_of(doc),
         [p.model_dump(exclude={"stand_in"} if p.stand_in is None else set())
          for p in doc.players],  # as before stand-ins were exported: the same codes
         doc.actions], sort_keys=True, separators=(",", ":"),
    )
    digest = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")
    letters = []
    for _ in range(7):
        digest, k = divmod(digest, len(ALPHABET))
        letters.append(ALPHABET[k])
    return "I" + "".join(letters)


def finished_game(doc: Document, game: Game, now: datetime | None = None) -> FinishedGame:
    """The record to store for a verified document."""
    now = now or datetime.now(UTC)
    started = doc.started_at or now
    ended = doc.ended_at or max(now, started)
    return FinishedGame(
        room_code=import_code(doc),
        seed=doc.seed,
        options=options_of(doc),
        rules_version=doc.rules_version,
        players=tuple(SeatRecord(p.seat, p.name, p.bot, stand_in=p.stand_in)
                      for p in doc.players),
        actions=tuple((seat, action) for seat, action in doc.actions),
        result=_plain(game.result if game.result is not None else abandoned_result(game)),
        started_at=_aware(started),
        ended_at=_aware(ended),
        talk=tuple(t.model_dump() for t in doc.talk),
    )


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def replay_document(data: bytes | str | dict[str, Any]) -> Game:
    """Read, replay and verify an export: the final state it reproduces."""
    return verify(read_document(data))
