"""The web app's settings: one frozen object, read from ``CARDTABLE_*`` environment variables
(and ``cardtable serve``'s options), handed to :func:`~cardtable.server.app.create_app`.

It holds what a deployment may need to change: the origins allowed besides the server's own,
the profile cookie's lifetime and ``Secure`` flag, request and websocket size limits, the rate
limits, how long idle tables stay in memory and how many unfinished tables a profile may have,
whether finished hands are analysed in the background, and, for tests and benchmarks only, a
fixed deal seed (no API ever accepts a seed). A cluster of servers also names its shared
database and its Redis (``CARDTABLE_DATABASE_URL``, ``CARDTABLE_REDIS_URL``), and how long a
table's lease lasts.
"""

from __future__ import annotations

import ipaddress
from typing import Annotated, Final, Literal

from limits import parse_many
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

DAY: Final = 24 * 3600


class Settings(BaseSettings):
    """Everything about the web app that a deployment or a test may set."""

    model_config = SettingsConfigDict(env_prefix="CARDTABLE_", frozen=True, extra="forbid")

    allowed_origins: Annotated[tuple[str, ...], NoDecode] = ()
    """Origins (``scheme://host[:port]``) allowed to open websockets and send state-changing
    requests besides the server's own origin (``CARDTABLE_ALLOWED_ORIGINS``, comma-separated)."""

    cookie_max_age: int = Field(default=180 * DAY, ge=60, le=400 * DAY)
    """Seconds the profile cookie lasts (browsers cap cookies at 400 days)."""

    cookie_secure: bool | None = None
    """``Secure`` flag of the profile cookie: ``None`` sets it when the request came over HTTPS
    (as seen by the app: behind a proxy, name it in :attr:`forwarded_allow_ips`)."""

    max_body_bytes: int = Field(default=2 * 1024 * 1024, ge=1024, le=64 * 1024 * 1024)
    """The largest request body accepted (profile imports are the biggest)."""

    max_frame_bytes: int = Field(default=64 * 1024, ge=4096, le=1024 * 1024)
    """A websocket frame above this closes the connection (messages above 4 KiB are already
    refused with an error; this stops abuse)."""

    rate_limits: bool = True
    """Apply the rate limits of :mod:`cardtable.server.rate_limits` (benchmarks of many
    players from one address turn them off)."""

    limit_profiles: str = "30/minute;300/hour"
    """New profiles per client address (``limits`` notation: ``N/period;…``); generous, as
    many players may share one address behind a router."""

    limit_tables: str = "30/minute;600/hour"
    """New tables per profile and per client address."""

    limit_imports: str = "5/minute;30/hour"
    """Record imports per profile and per client address."""

    limit_messages: str = "20/second;300/minute"
    """Websocket messages per connection."""

    limit_sockets: str = "60/minute"
    """Websockets opened per client address."""

    max_sockets_per_profile: int = Field(default=12, ge=1, le=1000)
    """Websockets one profile may hold open at once (a few browser tabs)."""

    test_seed: int | None = Field(default=None, ge=0, lt=2**62)
    """Deal every new table from this seed instead of the operating system's secure random
    source. For tests and benchmarks only: it makes every deal predictable."""

    bot_delay_scale: float = Field(default=1.0, ge=0.0, le=1000.0)
    """Multiplies computer players' pauses (0 makes them move at once)."""

    bot_stretch_floor_seconds: float = Field(default=0.05, ge=0.0, le=10.0)
    """The least pause of a computer player whose move follows another computer player's
    (the first one after a person's move keeps the opponent speed): computer-only stretches,
    a whole game after a person dropped out say, play on at a bounded rate even at the
    "instant" speed. Scaled by ``bot_delay_scale`` like every pause."""

    table_idle_seconds: float = Field(default=15 * 60.0, ge=0.0, le=DAY)
    """An unfinished table nobody is connected to leaves memory after this many seconds
    without a move (finished ones after a tenth of it); it loads again when asked for."""

    max_unfinished_tables: int = Field(default=20, ge=1, le=1000)
    """Unfinished tables one profile may have started at a time."""

    bot_processes: int = Field(default=2, ge=0, le=64)
    """Worker processes for the Hard computer players' search, started on first use (0: they
    think in threads beside the event loop, sharing its interpreter lock)."""

    analyse_finished_hands: bool = True
    """Analyse each person's play in every finished deal or hand in the background, as it ends
    (one worker process at the lowest priority); off, an analysis is computed when a page
    first asks for it."""

    database_url: str | None = None
    """The database (``CARDTABLE_DATABASE_URL``): any SQLAlchemy URL, such as
    ``postgresql+psycopg://cards@db/cards``; unset, the SQLite file in the data directory."""

    redis_url: str | None = None
    """Redis (``CARDTABLE_REDIS_URL``, such as ``redis://cache:6379/0``): set, the server runs in
    cluster mode, where every table is owned by one process at a time through a lease in Redis.
    Unset (the default), the server is alone and needs no Redis."""

    store_seconds: float = Field(default=5.0, gt=0.0, le=300.0)
    """How long a move (or another write of play) may wait for the database before it is
    refused as ``unavailable`` (the table stays as it was): an SQLite file whose write lock
    another process holds (a backup, the ``sqlite3`` shell) delays only the moves made
    meanwhile, never the event loop."""

    lease_seconds: float = Field(default=5.0, ge=0.2, le=300.0)
    """How long a table's lease lasts without renewal (it is renewed every third of it): the
    longest a table is without an owner after its process dies."""

    forwarded_allow_ips: Annotated[tuple[str, ...], NoDecode] = ()
    """Addresses (or networks, or ``*``) of the reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed (``CARDTABLE_FORWARDED_ALLOW_IPS``, comma-separated;
    ``cardtable serve --forwarded-allow-ips``). Empty, the default: those headers are ignored,
    and the rate limits count the TCP peer's address."""

    header_timeout_seconds: float = Field(default=10.0, ge=0.2, le=300.0)
    """A connection must send a request's whole head (line and headers) within this many
    seconds of opening, or of its previous answer; one that sends nothing, or trickles, is
    closed (``cardtable serve`` only: another ASGI server has its own)."""

    keep_alive_seconds: float = Field(default=5.0, ge=0.2, le=300.0)
    """An idle keep-alive connection is closed after this many seconds."""

    max_connections: int = Field(default=2000, ge=1, le=1_000_000)
    """Connections and requests one server process serves at once; past it, new requests get
    503 (websockets count: each page holds one)."""

    ws_ping_seconds: float = Field(default=20.0, ge=0.2, le=300.0)
    """Websockets are pinged this often, and one that does not answer a ping within as long
    again is closed (browsers answer by themselves)."""

    allowed_hosts: Annotated[tuple[str, ...], NoDecode] = ()
    """Host names this server answers to (``CARDTABLE_ALLOWED_HOSTS``, comma-separated;
    ``*.example.org`` allows its subdomains). A request naming another ``Host`` gets 400, so a
    page of another site cannot reach the server through a DNS name of its own. Empty, the
    default: any host (set it on any server others can reach)."""

    metrics_token: str | None = Field(default=None, min_length=16, max_length=200)
    """``/metrics`` answers only a request with ``Authorization: Bearer <this token>``
    (``CARDTABLE_METRICS_TOKEN``); unset, the default, ``/metrics`` answers 404."""

    log_format: Literal["text", "json"] = "text"
    """Log lines as text, or as one JSON object a line (``CARDTABLE_LOG_FORMAT=json``)."""

    @field_validator("redis_url")
    @classmethod
    def _check_redis_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        if not value.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(f"{value!r} is not a Redis URL such as redis://127.0.0.1:6379/0")
        return value

    @field_validator("database_url")
    @classmethod
    def _check_database_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        try:
            make_url(value.strip())
        except ArgumentError:
            raise ValueError(
                f"{value!r} is not a database URL such as postgresql+psycopg://host/cards"
            ) from None
        return value.strip()

    limit_joins: str = "20/minute;200/hour"
    """Invite links opened or joined, per profile and per client address."""

    limit_quick: str = "5/10 seconds;30/minute"
    """Quick messages at people's tables, per profile and per connection."""

    limit_records: str = "30/minute;300/hour"
    """Record reads and profile exports, per profile and per client address (a record is a
    small answer, but a page needs it only when Your Record opens)."""

    limit_replays: str = "10/minute;60/hour"
    """Replays of finished games (own ones and shared links), per client address and per
    profile or share link: a long game's replay is seconds of work."""

    limit_analyses: str = "10/minute;100/hour"
    """Analyses queued (a finished game's seat or one hand), per client address and per
    profile or share link; reading how far a queued one is does not count."""

    max_table_moves: int = Field(default=5_000, ge=20, le=1_000_000)
    """Moves a table may have in all (every deal and game of it): at this many an unfinished
    table is closed, so no game outgrows what its replay and its reload cost. A
    ``GET /api/games`` entry states it beside the rules' own bounds."""

    shared_time_scale: float = Field(default=1.0, gt=0.0, le=10.0)
    """Multiplies the turn timers, time banks and grace periods of people's tables (tests
    shorten them; the tables show and count the scaled times)."""

    @field_validator(
        "limit_profiles",
        "limit_joins",
        "limit_quick",
        "limit_tables",
        "limit_imports",
        "limit_messages",
        "limit_sockets",
        "limit_records",
        "limit_replays",
        "limit_analyses",
    )
    @classmethod
    def _check_limits(cls, value: str) -> str:
        try:
            parse_many(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a rate limit such as 10/minute;100/hour") from None
        return value

    @field_validator("forwarded_allow_ips", "allowed_hosts", mode="before")
    @classmethod
    def _split_list(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _check_proxies(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for entry in value:
            if entry == "*":
                continue
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise ValueError(
                    f"{entry!r} is not an address or network such as 10.0.0.5 or 10.0.0.0/24"
                ) from None
        return value

    @field_validator("allowed_hosts")
    @classmethod
    def _check_hosts(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for host in value:
            name = host.removeprefix("*.")
            if host != "*" and (not name or any(c in name for c in "/:*@ ")):
                raise ValueError(f"{host!r} is not a host name such as cards.example.org")
        return tuple(host.lower() for host in value)

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(part.strip().rstrip("/") for part in value.split(",") if part.strip())
        return value

    @field_validator("allowed_origins")
    @classmethod
    def _check_origins(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for origin in value:
            scheme, _, rest = origin.partition("://")
            if scheme not in ("http", "https") or not rest or "/" in rest:
                raise ValueError(f"{origin!r} is not an origin such as https://cards.example.org")
        return tuple(origin.rstrip("/") for origin in value)
