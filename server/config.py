"""Settings, read from the environment (or a .env file) by pydantic-settings.

Every setting is an upper-case environment variable of the same name, e.g. `PORT=9000`.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from server.paths import shipped


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", case_sensitive=True)

    HOST: str = "127.0.0.1"
    PORT: int = 8000
    DATABASE_URL: str = "sqlite+aiosqlite:///./data/coffee-rush.db"
    # Where accepted actions are appended (fsynced) while the database is unreachable; they
    # are copied in once it is back. One server process per file.
    JOURNAL_FALLBACK_PATH: Path = Path("./data/journal-fallback.jsonl")
    # Seconds a write may wait on the database (connecting, a lock another process holds,
    # a statement, the commit) before it goes to the fallback file instead.
    DB_TIMEOUT: float = Field(2.0, gt=0)
    # Browser origins allowed to open a websocket, comma-separated ("*" allows any).
    # Same-origin pages and clients that send no Origin (bots, scripts) are always allowed.
    ALLOWED_ORIGINS: Annotated[list[str], NoDecode] = []
    # Host names this server answers to, comma-separated ("*": any). Empty: HOST plus
    # localhost, so a DNS-rebinding page cannot talk to it as "same origin".
    ALLOWED_HOSTS: Annotated[list[str], NoDecode] = []
    # Proxy addresses whose X-Forwarded-For / X-Forwarded-Proto are believed (comma-separated,
    # "*": any). Empty: none, the peer address is the client.
    FORWARDED_ALLOW_IPS: Annotated[list[str], NoDecode] = []
    HTTP_MAX_BODY: int = Field(65536, ge=1024)  # bytes of a request body (import: IMPORT_MAX_BODY)
    IMPORT_MAX_BODY: int = Field(2_000_000, ge=1024)  # bytes of an imported game document
    # Bytes of request bodies all requests together may hold at once; past it: 503 busy.
    HTTP_BODY_BUDGET: int = Field(32_000_000, ge=1024)
    # ...and of that, the bodies from one client address (counted as their bytes arrive).
    HTTP_BODY_PER_ADDRESS: int = Field(4_000_000, ge=1024)
    # Seconds a request body may take to arrive whole (after its head); then 408 slow_body.
    HTTP_BODY_TIMEOUT: float = Field(10, gt=0)
    # Seconds a request head (request line and headers) may take from its first byte; then
    # 408 slow_head and the connection is closed.
    HTTP_HEAD_TIMEOUT: float = Field(10, gt=0)
    # Plain HTTP connections one client address may hold open at once (table sockets count
    # under WS_PER_ADDRESS); past it: 503 too_many_connections. Peers in FORWARDED_ALLOW_IPS
    # are not counted (the proxy caps its clients: deploy/haproxy.cfg).
    HTTP_PER_ADDRESS: int = Field(64, ge=1)
    ROOM_IDLE_TTL: float = 24 * 3600  # seconds a waiting room may sit untouched
    FINISHED_ROOM_TTL: float = 3600  # seconds a finished room stays viewable
    # Rated games a signed-in player needs before the leaderboard (/players) shows them.
    RATED_GAMES_TO_RANK: int = Field(3, ge=1)
    SWEEP_INTERVAL: float = 60  # seconds between expiry sweeps, gone-account and review checks
    WS_MAX_FRAME: int = 16384  # bytes; a larger client frame closes the socket with 1009
    WS_FLOOD_MESSAGES: int = 100  # client frames allowed per window...
    WS_FLOOD_WINDOW: float = 20  # ...of this many seconds
    ROOM_CREATE_RATE: int = 10  # rooms one client address may create per minute
    # Quick play (server.quickplay): seeks waiting at once from one client address, and
    # seeks one address may make per minute; a seek not renewed for SEEK_ALIVE seconds (its
    # socket's instance is gone) leaves the queue; the matcher runs every QUICKPLAY_TICK s.
    SEEKS_PER_ADDRESS: int = Field(4, ge=1)
    SEEK_RATE: int = Field(20, ge=1)
    SEEK_ALIVE: float = Field(5.0, gt=0)
    QUICKPLAY_TICK: float = Field(0.5, gt=0)
    # Tournaments (server.tournaments): tournaments one account may organise that have not
    # ended; tournament requests (create, enter, withdraw) per client address a minute;
    # players a tournament takes, and entries to one tournament from one client address;
    # seconds between looks at a round being played (a table ending here wakes it at
    # once), and at most between two looks while nothing is pending; seconds between two
    # reads of a tournament this instance's pages watch (changes made on other instances),
    # only while one is watched.
    TOURNAMENTS_PER_ACCOUNT: int = Field(2, ge=1)
    TOURNAMENT_RATE: int = Field(20, ge=1)
    TOURNAMENT_PLAYERS: int = Field(200, ge=2, le=1000)
    TOURNAMENT_ENTRIES_PER_ADDRESS: int = Field(4, ge=1)
    TOURNAMENT_CHECK: float = Field(30, gt=0)
    TOURNAMENT_IDLE: float = Field(300, gt=0)
    TOURNAMENT_WATCH: float = Field(1.0, gt=0)
    CHAT_RATE: int = Field(10, ge=1)  # chat messages one author may send per CHAT_WINDOW...
    CHAT_ADDRESS_RATE: int = Field(30, ge=1)  # ...and spectators' from one client address
    CHAT_WINDOW: float = Field(20, gt=0)  # seconds
    RESUME_BUFFER: int = 64  # versions of patches kept per room for resuming clients
    # permessage-deflate on table sockets. Off: frames are small JSON patches (a few hundred
    # bytes; a snapshot a few KiB), and each compressing socket keeps two zlib streams
    # (about 40 KiB), five times what the rest of the socket costs.
    WS_DEFLATE: bool = False
    WS_OUTBOX: int = Field(1000, ge=8)  # frames queued for a socket; then bye "lagging"
    WS_SEND_TIMEOUT: float = Field(10, gt=0)  # seconds a frame may take to go out (then dropped)
    # Seconds a table socket may stay open without a hello; then bye "no_hello", close 1008.
    WS_HELLO_TIMEOUT: float = Field(10, gt=0)
    # Table sockets one client address may hold open at once; past it the socket is refused
    # (error "too_many_sockets", close 1013). Behind a proxy, set FORWARDED_ALLOW_IPS.
    WS_PER_ADDRESS: int = Field(64, ge=1)
    # BENCHMARK ONLY: time each accepted action's stages (rules, journal, queue, write) into
    # the coffee_rush_action_stage_seconds histograms of /metrics (a mark per socket each).
    STAGE_TIMING: bool = False
    MAX_SPECTATORS: int = Field(1000, ge=0)  # spectators per room; then error "spectators_full"
    # Seconds between two versions that only change the spectator count: arrivals and
    # departures in between are sent together.
    PRESENCE_INTERVAL: float = Field(1.0, ge=0)
    TEMPLATES_DIR: Path = shipped("templates")
    STATIC_DIR: Path = shipped("static")
    # TEST ONLY. When set, every new game uses this seed, so its deck order is known in
    # advance to anyone who knows the setting. Never set it in production.
    TEST_FIXED_SEED: int | None = None
    # Where Prometheus scrapes GET /metrics: a listen address of its own, never the public
    # port (0: not served). Keep it off the players' network (loopback, a private address).
    METRICS_HOST: str = "127.0.0.1"
    METRICS_PORT: int = Field(0, ge=0, le=65535)
    LOG_LEVEL: str = "info"
    LOG_FORMAT: Literal["text", "json"] = "text"  # json: one JSON object per line
    # Seconds between background garbage collections (0: never); see server/memory.py. A
    # step's pass grows with what was made since the last: with 1,000 playing rooms, 0.1 s
    # stands the loop still ~3 ms a step where 0.25 s took ~7 ms, for the same total.
    GC_INTERVAL: float = Field(0.1, ge=0)
    # Bots: worker processes that think for them (0: bots do not play, nobody stands in).
    BOT_WORKERS: int = Field(1, ge=0)
    BOT_DELAY: float = Field(0.6, ge=0)  # seconds a bot's move takes at least, to be watchable
    # Share of a level's full thinking work per decision: counted work (rollout turns), not
    # seconds, so bots play alike on any machine at any load.
    BOT_BUDGET: float = Field(1.0, gt=0, le=1.0)
    # Wall seconds a bot decision may take at most, counted from its request (time spent
    # waiting for a worker included): a busy server cuts the search short there (logged)
    # and the bot plays the best it found so far; a hint not begun by then is refused.
    BOT_DEADLINE: float = Field(3.0, gt=0)
    # Hints asked and not yet answered (they wait behind every bot move for the workers):
    # at most HINTS_IN_FLIGHT on the server, HINTS_PER_ADDRESS from one client address
    # (behind a proxy, set FORWARDED_ALLOW_IPS); past either, error "hint_busy".
    HINTS_IN_FLIGHT: int = Field(8, ge=1)
    HINTS_PER_ADDRESS: int = Field(2, ge=1)
    # The expert's review of a finished game (server/bots/review.py): its share of the
    # expert's work per turn (counted, so a review is the same anywhere), its seed, the
    # reviews one instance keeps waiting, the new ones a client address may ask an hour,
    # the seconds after which a claim whose instance died is taken over, and whether rated
    # games are reviewed as they end.
    REVIEW_WORK: float = Field(0.25, gt=0, le=1.0)
    REVIEW_SEED: int = Field(0, ge=0, le=2**31 - 1)
    REVIEW_QUEUE: int = Field(50, ge=1)
    REVIEWS_PER_ADDRESS: int = Field(10, ge=1)
    REVIEW_LEASE: float = Field(120.0, gt=0)
    REVIEW_RATED: bool = False
    # Seconds a disconnected player keeps their turn to themselves; after that a bot of
    # TAKEOVER_LEVEL plays for them until they come back.
    SEAT_GRACE: float = Field(60, ge=0)
    TAKEOVER_LEVEL: Literal["random", "greedy", "strong", "expert"] = "greedy"
    # Accounts (optional; they need the database): days a sign-in lasts. Passkeys are bound
    # to PUBLIC_URL's origin (below); unset, to each request's own scheme and Host.
    SESSION_DAYS: float = Field(30, gt=0, le=400)
    # Accounts made from one client address per window of hours; renames of one account per
    # window of days; old names an account holds (its last NAMES_HELD, each for
    # NAME_HOLD_DAYS after it was left; a deleted account's name too): server/accounts/limits.py.
    SIGN_UPS_PER_ADDRESS: int = Field(3, ge=1)
    # Requests one client address may make a minute: a password reset link's check and the
    # reset together (RESET_RATE), and its sessions' list and sign-outs (SESSIONS_RATE,
    # /api/me/sessions*); then 429 rate_limited. Counted on each instance.
    RESET_RATE: int = Field(10, ge=1)
    SESSIONS_RATE: int = Field(30, ge=1)
    # Argon2's cost for new password hashes: passes, and KiB of memory each hash takes
    # (server/accounts/passwords.py). Lower them only where hashes need not resist guessing.
    PASSWORD_TIME_COST: int = Field(3, ge=1)
    PASSWORD_MEMORY_KIB: int = Field(65536, ge=1024)
    SIGN_UP_WINDOW_HOURS: float = Field(24, gt=0)
    RENAMES_PER_ACCOUNT: int = Field(3, ge=1)
    RENAME_WINDOW_DAYS: float = Field(30, gt=0)
    NAMES_HELD: int = Field(3, ge=0)
    NAME_HOLD_DAYS: float = Field(90, ge=0)
    # Cluster mode (several instances behind HAProxy) is on when REDIS_URL is set; it needs a
    # PostgreSQL DATABASE_URL. INSTANCE_ID names this instance (default: host name and
    # port); LEASE_TTL is how long a silent instance keeps its rooms before others claim them.
    # E-mail ("it's your turn" in turn-based rooms, confirmation codes): the host's SMTP
    # server (empty SMTP_HOST: no mail), how to reach it and the sender.
    SMTP_HOST: str = ""
    SMTP_PORT: int = Field(587, ge=1, le=65535)
    SMTP_SECURITY: Literal["none", "starttls", "tls"] = "starttls"
    SMTP_USER: str = ""
    SMTP_PASSWORD: str = ""
    SMTP_TIMEOUT: float = Field(20, gt=0)  # seconds one message may take to hand over
    MAIL_FROM: str = "Coffee Rush <coffee-rush@localhost>"
    # This site's address as players reach it (https://rush.example.org): the links in the
    # mail, and the origin passkeys and Secure cookies go by. Empty: mail links say
    # http://HOST:PORT, passkeys each request's own scheme and Host. PUBLIC_ORIGIN, its
    # earlier name for passkeys alone, is still read.
    PUBLIC_URL: str = Field("", validation_alias=AliasChoices("PUBLIC_URL", "PUBLIC_ORIGIN"))
    REDIS_URL: str | None = None
    INSTANCE_ID: str = ""
    LEASE_TTL: float = Field(3.0, ge=0.5)

    @property
    def public_origin(self) -> str:
        """PUBLIC_URL's scheme and host (and port), or "" when it is not set."""
        parts = urlsplit(self.PUBLIC_URL)
        return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""

    @property
    def cluster(self) -> bool:
        return bool(self.REDIS_URL)

    @property
    def instance(self) -> str:
        return self.INSTANCE_ID or f"{socket.gethostname()}-{self.PORT}"

    @field_validator("ALLOWED_ORIGINS", "ALLOWED_HOSTS", "FORWARDED_ALLOW_IPS", mode="before")
    @classmethod
    def _split_list(cls, value: object) -> object:
        if isinstance(value, str):
            return [o.strip().rstrip("/") for o in value.split(",") if o.strip()]
        return value

    @property
    def allowed_hosts(self) -> list[str]:
        """The Host names answered: ALLOWED_HOSTS, or HOST and the loopback names."""
        if self.ALLOWED_HOSTS:
            return [h.lower() for h in self.ALLOWED_HOSTS]
        return sorted({self.HOST.lower(), "localhost", "127.0.0.1", "::1"})
