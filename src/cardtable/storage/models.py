"""The database tables, as SQLAlchemy 2 declarative models.

* ``profiles``: a player: display name, options, and the hash of the cookie token that names
  them (the token itself is never stored).
* ``game_tables``: a game in progress or finished: game, rules, seed and seats; its moves are
  the append-only ``table_actions`` rows, so a table is stored as its action log and replays to
  the identical state. Beside the log each table keeps a summary written with every move (move
  count, deal or hand number, scores, seat to move), which listings read instead of replaying.
  ``table_seats`` says which profile sits at which human seat. In a cluster, ``fence`` holds
  the fencing token of the table's current owner, and moves carrying another are refused.
* ``record_events``: one row per finished deal, hand, game or match of a profile, from which
  the record is aggregated; ``key`` makes each event unique per profile, so importing a
  record twice does not count anything twice.
* ``table_reviews``: per table, the provably fair deal's commitment, contributions and secret
  server seed, the token of a shared replay, and the stored analyses by seat.
* ``shared_tables``: per people's table, its invite token, whether the lobby lists it, its
  phase and its room (settings, members, presence counters, rematch answers) as JSON.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utc_now() -> datetime:
    """The current time, timezone-aware."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Base of every cardtable table."""

    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class ProfileRow(Base):
    """A player known by a cookie token."""

    __tablename__ = "profiles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(80), default="Player")
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class TableRow(Base):
    """A game table: everything but the moves, which live in :class:`ActionRow`."""

    __tablename__ = "game_tables"
    __table_args__ = (
        # Listings: one status in the order of play, and a profile's tables counted by status
        # without reading the rows themselves.
        Index("ix_game_tables_listing", "status", "updated_at", "id"),
        Index("ix_game_tables_id_status", "id", "status"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("profiles.id"), index=True)
    game: Mapped[str] = mapped_column(String(40))
    rules: Mapped[dict[str, Any]] = mapped_column()
    seed: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[list[Any]] = mapped_column()
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(nullable=True, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    moves: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    deal: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    """Deal, hand or game number; ``None`` until the summary is first written."""
    scores: Mapped[list[Any] | None] = mapped_column(nullable=True, default=None)
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    """The largest lease token a cluster process claimed the table with (0: never claimed)."""


class ActionRow(Base):
    """One seat action of a table's log, in its text notation."""

    __tablename__ = "table_actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(200))
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The id the page sent with the action (people's tables acknowledge a resent one)."""


class TableSeatRow(Base):
    """A profile sitting at a human seat of a table."""

    __tablename__ = "table_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id"), index=True)


class RecordEventRow(Base):
    """One finished deal, hand, game or match, as seen by one profile's seat."""

    __tablename__ = "record_events"
    __table_args__ = (UniqueConstraint("profile_id", "key", name="uq_record_event_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id"), index=True)
    key: Mapped[str] = mapped_column(String(120))
    game: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(16))
    won: Mapped[bool] = mapped_column(Boolean, default=False)
    points: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    details: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class RecordTotalsRow(Base):
    """A profile's running record totals (:mod:`cardtable.storage.record_totals`) and how many
    of its events are kept, played here and imported (old ones are pruned past a cap)."""

    __tablename__ = "record_totals"

    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id"), primary_key=True)
    totals: Mapped[dict[str, Any]] = mapped_column(default=dict)
    played_kept: Mapped[int] = mapped_column(Integer, default=0)
    imported_kept: Mapped[int] = mapped_column(Integer, default=0)


class TableReviewRow(Base):
    """A table's provably fair deal (commitment, contributions and the secret server seed,
    revealed only after the game), its replay share token and its stored analyses by seat (the
    whole game's, and each finished hand's)."""

    __tablename__ = "table_reviews"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    commitment: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    contributions: Mapped[list[Any]] = mapped_column(default=list)
    server_seed: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    share_token: Mapped[str | None] = mapped_column(
        String(64), nullable=True, default=None, unique=True, index=True
    )
    analyses: Mapped[dict[str, Any]] = mapped_column(default=dict)


class SharedTableRow(Base):
    """A people's table: invite token, lobby listing, phase, and its room as JSON."""

    __tablename__ = "shared_tables"
    __table_args__ = (Index("ix_shared_tables_lobby", "public", "phase", "updated_at"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    invite_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    phase: Mapped[str] = mapped_column(String(16))
    room: Mapped[dict[str, Any]] = mapped_column()
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
