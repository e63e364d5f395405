"""Every error code a client can get: the one registry (code, HTTP status, meaning).

HTTP answers carry `{"error": {"code", "message"}}` and socket error frames carry `code`;
either way the code is one of these. docs/PROTOCOL.md's error table is generated from this
registry (python -m server.ws.schema_doc) and tests fail when a code is used that is not
registered or the table drifts. Adding an error code: one entry here, then regenerate.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ErrorCode:
    code: str
    status: int | None  # the HTTP status it comes with; None: on the socket only
    meaning: str
    also: tuple[int, ...] = ()  # other HTTP statuses it comes with in some answers

    @property
    def statuses(self) -> tuple[int, ...]:
        return () if self.status is None else (self.status, *self.also)


ERRORS: dict[str, ErrorCode] = {e.code: e for e in (
    # The boundary: checked before any route or room sees a request (api/security.py).
    ErrorCode("bad_host", 400, "the `Host` header is not in `ALLOWED_HOSTS`, or there are two"),
    ErrorCode("forbidden_origin", 403,
              "a `POST` with an `Origin` other than this site or `ALLOWED_ORIGINS`"),
    ErrorCode("unsupported_media_type", 415,
              "a `POST` whose `Content-Type` is not `application/json`"),
    ErrorCode("too_large", 413,
              "a body over `HTTP_MAX_BODY` (64 KiB; import: `IMPORT_MAX_BODY`, 2 MB), refused "
              "before it is read; on the socket, a frame over `WS_MAX_FRAME` bytes (16384), "
              "however large: error, bye `too_large`, close 1009 (the frame is not read)"),
    ErrorCode("malformed", 422,
              "wrong/missing/unknown fields, ids beyond 64 bits (400: a `Content-Length` that "
              "is not a number, a body that is not JSON); on the socket: not JSON, not an "
              "object, act or chat before hello, a second hello", (400,)),
    ErrorCode("method_not_allowed", 405,
              "a method the path does not take (checked before the Origin and the body)"),
    ErrorCode("slow_head", 408,
              "the request's headers did not all arrive within `HTTP_HEAD_TIMEOUT` s (10) of "
              "their first byte; the connection is closed"),
    ErrorCode("slow_body", 408,
              "the request body did not all arrive within `HTTP_BODY_TIMEOUT` s (10) of its "
              "headers; the connection is closed"),
    ErrorCode("too_many_connections", 503,
              "the client address already holds `HTTP_PER_ADDRESS` plain HTTP connections "
              "(64), answered before reading and closed; try again in a moment"),
    ErrorCode("internal", 500, "a server bug (logged); the same shape as every refusal"),
    # The socket.
    ErrorCode("unknown_type", None,
              "a frame whose `type` is not hello/act/ping/chat/mute/back/hint"),
    ErrorCode("flood", None,
              "more than `WS_FLOOD_MESSAGES` frames in `WS_FLOOD_WINDOW` s (100 / 20 s): "
              "error, bye, close 1008"),
    ErrorCode("too_many_sockets", None,
              "the client address already holds `WS_PER_ADDRESS` table sockets (64): the "
              "socket is closed with 1013 after this error; try again later"),
    ErrorCode("muted", None,
              "a chat message from a seat whose account an operator muted at every table "
              "(/admin); nothing is said"),
    ErrorCode("chat_invalid", 422,
              "a chat text that is empty after trimming, longer than 200 characters, or has "
              "control characters"),
    ErrorCode("chat_full", 409,
              "the chat channel is full for this game (1000 players' messages, 1000 "
              "spectators'); the other channel and the game's own records are not affected"),
    ErrorCode("chat_slow", 429,
              "chat faster than `CHAT_RATE` messages in `CHAT_WINDOW` s from one author (a "
              "spectator keeps its author across reconnects), or `CHAT_ADDRESS_RATE` "
              "spectators' messages from one client address; the socket stays open"),
    ErrorCode("invisible_text", 422,
              "a chat text or a name that shows nothing: only spaces, format or blank "
              "characters (U+200D, U+3164, U+2800), a line separator, or more than 4 "
              "combining marks on one character"),
    ErrorCode("spectators_full", 503,
              "a hello without a seat token on a room that already has `MAX_SPECTATORS` "
              "spectators; the socket stays open, try again later"),
    # Rooms.
    ErrorCode("not_found", 404, "no such room or game (also on the socket)"),
    ErrorCode("forbidden", 403,
              "a token that may not do that: an unknown seat token, a spectator acting, "
              "a host-only request without the host's token"),
    ErrorCode("rate_limited", 429,
              "more than `ROOM_CREATE_RATE` rooms a minute from a client; more than "
              "`RESET_RATE` password reset link checks and resets, or `SESSIONS_RATE` "
              "requests to `/api/me/sessions*`, a minute from a client address; a password sign-in "
              "from a client address that failed 5 times for that name, within the growing "
              "delay since its last failure (1, 2, 4, 8, then 15 minutes; the message says "
              "how long)"),
    ErrorCode("name_invalid", 422, "a name that is not 1-24 printable characters after trimming"),
    ErrorCode("room_full", 409, "no free seat, or the asked seat is taken"),
    ErrorCode("not_waiting", 409, "a change allowed only before the start"),
    ErrorCode("seats_empty", 409, "starting before every seat is taken"),
    ErrorCode("not_started", 409, "acting before the game starts"),
    ErrorCode("not_finished", 409,
              "a rematch of an unfinished game (import, 422: the actions stop before the end)",
              (422,)),
    ErrorCode("stale", 409,
              "`v` is older than the last *game* change (presence changes never make an "
              "action stale) or newer than the room"),
    ErrorCode("timed_out", 409, "an act of a player whose turn ran out (a bot finishes it)"),
    ErrorCode("incompatible", 409,
              "the room's game was started under other rules (`notice` in the room info says "
              "which); it cannot continue on this server"),
    ErrorCode("unavailable", 503,
              "the change could not be made durable (the database and the fallback file both "
              "failed; in cluster mode, the database, or this instance no longer owns the "
              "room), or no database for history; a sign-in, a session cookie or a guest's "
              "name (is it an account's?) the database could not take or check in time "
              "(`DB_TIMEOUT`); nothing changed, try again"),
    ErrorCode("moved", 503,
              "cluster mode: the table moved to another instance while the request waited; "
              "reconnect"),
    ErrorCode("busy", 503, "cluster mode: the table is changing hands; retry in a moment "
              "(any request: the bodies being read passed `HTTP_BODY_BUDGET`, or this "
              "client address's share of it, `HTTP_BODY_PER_ADDRESS`)"),
    # The expert's review of a finished game (server/history/reviews.py).
    ErrorCode("review_off", 409,
              "a review asked of a server that runs no bot workers (`BOT_WORKERS` 0)"),
    ErrorCode("review_busy", 503,
              "a review asked while `REVIEW_QUEUE` reviews wait on this server (50)"),
    ErrorCode("review_slow", 429,
              "a new review asked past `REVIEWS_PER_ADDRESS` (10) in an hour from one client "
              "address"),
    # Hints for learning players (server/bots/hint.py).
    ErrorCode("hints_off", 409,
              "a hint asked in a room whose host did not allow hints (room option `hints`), "
              "or on a server that runs no bots (`BOT_WORKERS` 0)"),
    ErrorCode("hint_slow", 429,
              "a hint asked while this seat's last one is still being thought, more than 5 "
              "in 60 s from one seat, or past the game's 1000 hints"),
    ErrorCode("hint_busy", 503,
              "a hint asked while the server has `HINTS_IN_FLIGHT` hints being thought (8), "
              "or the client's address `HINTS_PER_ADDRESS` (2), or one the bots were too "
              "busy to begin within `BOT_DEADLINE` of the request (bot moves go first); "
              "ask again in a moment"),
    ErrorCode("no_hint", 409,
              "nothing to suggest: the game is not being played, a bot is finishing the "
              "seat's turn, or the seat has no legal action"),
    # Turn-based time (server/rooms/late.py).
    ErrorCode("not_lesson", 409, "a lesson's pointer asked of a room that is not a lesson"),
    ErrorCode("not_late", 409,
              "a choice for a late player when nobody's time has run out (or another player "
              "chose first)"),
    ErrorCode("not_turn_based", 409, "a pause (away) in a room that is not turn-based on a "
              "clock, or not being played"),
    ErrorCode("away_used", 409, "a second pause (away) by the same player in one game"),
    # E-mail for turn-based rooms (server/notify/).
    ErrorCode("mail_off", 409,
              "e-mail is not available: the server has no `SMTP_HOST` or no database, or the "
              "room is not turn-based"),
    ErrorCode("address_invalid", 422, "an e-mail address that is not one (name@example.org; "
              "a domain in any script is taken in its ASCII form, xn--...)"),
    ErrorCode("address_not_ascii", 422,
              "an e-mail address with non-ASCII letters before the @ (josé@...): the mailer "
              "does not use SMTPUTF8, which such an address needs"),
    ErrorCode("code_wrong", 422,
              "a confirmation code that is not the one sent (5 tries per code)"),
    ErrorCode("code_expired", 409,
              "no confirmation code is waiting: none was sent, it ran out (15 minutes, 5 "
              "tries), or it was used already; ask for a new one"),
    ErrorCode("resend_slow", 429,
              "a confirmation code asked for again within 60 s of the last, or more than 5 "
              "in a day for one seat"),
    ErrorCode("code_flood", 429,
              "more than 20 confirmation codes asked for from one client address in an hour, "
              "whatever seats and e-mail addresses (or a request that waited `DB_TIMEOUT` "
              "behind others from that address)"),
    ErrorCode("no_address", 409, "a digest setting for a seat that has no e-mail address"),
    ErrorCode("unsubscribe_invalid", 403,
              "an unsubscribe link that was not made for that address"),
    # The engine (server.rules.errors): the message names the rule, e.g. `R-MOVE`.
    ErrorCode("not_your_turn", 409, "the engine refused the action: another seat is to act"),
    ErrorCode("illegal_action", 422,
              "the engine refused the action: not legal now (import: an action of the "
              "document is not legal)"),
    ErrorCode("malformed_action", 422, "the engine refused the action: not an action at all"),
    ErrorCode("game_over", 409, "the game is over (acting, joining or kicking)"),
    ErrorCode("nothing_to_undo", 409, "undo with nothing to undo in this turn"),
    # Accounts (server/accounts/, server/api/accounts.py, server/api/me.py).
    ErrorCode("accounts_need_database", 503,
              "an account request on a server that keeps no database (accounts live there)"),
    ErrorCode("name_taken", 409,
              "an account's name whose key (case, spaces and look-alike letters aside: "
              "\"Alice\" = \"Аlice\") another account holds; at a table, a guest's name "
              "that is an account's (sign in to sit under it)"),
    ErrorCode("name_reserved", 422,
              "a name (an account's, or a guest's at a table) that would pass for a bot (a "
              "word for bot or robot in one of several languages, 🤖, a bot level's name) or "
              "for the site (admin, system, Coffee Rush, ...: server/accounts/reserved.py), "
              "or an account's name with no letter or digit"),
    ErrorCode("password_invalid", 422, "a password that is not 8-256 characters"),
    ErrorCode("bad_credentials", 401,
              "a name and password that do not match an account that may sign in (the same "
              "answer for an unknown name, a wrong password and a disabled account)"),
    ErrorCode("not_signed_in", 401,
              "a request that needs a signed-in account without a live session cookie"),
    ErrorCode("passkey_rejected", 400,
              "a passkey's answer that does not verify: an unknown, used or expired "
              "challenge (a replay), another site's origin or RP id, a bad signature, a "
              "credential that is not this account's"),
    ErrorCode("reset_invalid", 409,
              "a password reset link that is used, expired (30 minutes) or unknown "
              "(server/accounts/resets.py)"),
    ErrorCode("session_unknown", 404,
              "signing out a session that is not one of this account's (or is over already)"),
    ErrorCode("too_many_sign_ups", 429,
              "a new account from a client address that made `SIGN_UPS_PER_ADDRESS` in the "
              "last `SIGN_UP_WINDOW_HOURS` (server/accounts/limits.py)"),
    ErrorCode("too_many_renames", 429,
              "a rename of an account renamed `RENAMES_PER_ACCOUNT` times in the last "
              "`RENAME_WINDOW_DAYS`"),
    ErrorCode("foreign_origin", 403,
              "a state-changing request carrying the session cookie from another site (even "
              "with `ALLOWED_ORIGINS=*`, only this site may use its accounts' sessions)"),
    # Game history import (server/history/document.py).
    # Quick play (server/quickplay).
    ErrorCode("seek_exists", 409,
              "a second quick-play seek of one player (an account, or a guest's lobby "
              "socket): cancel the first, or wait"),
    ErrorCode("too_many_seeks", 429,
              "a seek from a client address with `SEEKS_PER_ADDRESS` seeks waiting (4), or "
              "more than `SEEK_RATE` seeks from it in a minute (20)"),
    ErrorCode("quickplay_off", 503, "quick play on a server that keeps no database (the "
              "waiting list lives there)"),
    # Tournaments (server/tournaments).
    ErrorCode("tournament_not_found", 404, "no tournament has this id"),
    ErrorCode("tournament_closed", 409,
              "entering a tournament that has started, ended or holds `TOURNAMENT_PLAYERS` "
              "players (200; a round robin 16), or withdrawing from one that has ended"),
    ErrorCode("tournament_entered", 409, "entering a tournament one is already in"),
    ErrorCode("not_entered", 409, "withdrawing from a tournament one is not in (or left)"),
    ErrorCode("not_invited", 403,
              "entering an invite-only tournament without its invite link's secret"),
    ErrorCode("too_many_tournaments", 429,
              "organising a tournament while `TOURNAMENTS_PER_ACCOUNT` (2) have not ended; "
              "more than `TOURNAMENT_RATE` tournament requests from a client address in a "
              "minute (20); or `TOURNAMENT_ENTRIES_PER_ADDRESS` entries to one tournament "
              "from one address (4)"),
    ErrorCode("tournaments_off", 503, "tournaments on a server that keeps no database"),
    ErrorCode("unsupported_format", 422, "an imported document of another `format`"),
    ErrorCode("rules_version_mismatch", 409,
              "an imported document played under a `RULES_VERSION` whose games this "
              "server does not replay (not in `REPLAYED_VERSIONS`)"),
    ErrorCode("result_mismatch", 422,
              "replaying an imported document's actions gives another result"),
)}


def codes_with_status(status: int) -> list[str]:
    return [e.code for e in ERRORS.values() if status in e.statuses]


def registered(code: str) -> str:
    """`code` itself if it is registered; raises ValueError for a code nobody documented."""
    if code not in ERRORS:
        raise ValueError(f"unregistered error code {code!r}: add it to server/error_codes.py")
    return code


class Refusal(Exception):
    """A request was refused and nothing changed: a registered code, a sentence and the HTTP
    status that fits. The API answers every one in the one error shape (api/errors.py)."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = registered(code)
        self.message = message
        self.status = status


BEGIN = "<!-- BEGIN GENERATED ERROR CODES (python -m server.ws.schema_doc) -->"
END = "<!-- END GENERATED ERROR CODES -->"


def render_table() -> str:
    """The markdown table of every code, for docs/PROTOCOL.md."""
    lines = [BEGIN, "", "| code | HTTP status | when |", "|---|---|---|"]
    for e in ERRORS.values():
        status = "socket only" if e.status is None else ", ".join(map(str, e.statuses))
        lines.append(f"| `{e.code}` | {status} | {e.meaning} |")
    lines += ["", END]
    return "\n".join(lines)
