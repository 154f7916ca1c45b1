"""Game tables stored as action logs: creation, one append per move, seats, finishing, and
listings read from each table's stored summary.

A table's moves are inserted one row at a time (the primary key ``(table_id, index)`` refuses a
second move with the same index), so a server that stops between two moves loses nothing that a
player saw. The same transaction writes the table's summary (move count, deal number, scores,
seat to move), so a listing is one indexed query per page whatever the number of tables, and
at a people's table the room after the move (its turn timer and time banks), so the clock a
process finds when it loads the table always goes with the log, and with the move that ends
the game its finished status and result (:attr:`StoredMove.ending`), so that no listing shows
a game that is over as being played. The log store's writer stores the moves that reach it
together in one transaction (:func:`append_moves`).

In a cluster, the process that owns a table first claims it with its lease's fencing token
(:func:`claim_table`), and every move it stores carries that token: the update of the table's
row, which comes first in the move's transaction and so locks the row, matches only while the
stored token is still the owner's, so a process whose lease another has since claimed stores
nothing (:class:`FencedOutError`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, cast

from sqlalchemy import CursorResult, Table, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from cardtable.errors import NotFoundError
from cardtable.storage.database import Database, StorageError
from cardtable.storage.driver_sql import DriverCursor, DriverStatement
from cardtable.storage.models import ActionRow, SharedTableRow, TableRow, TableSeatRow, utc_now

PLAYING = "playing"
FINISHED = "finished"
ABANDONED = "abandoned"


class FencedOutError(StorageError):
    """Another process has claimed the table with a newer lease: this one may not write."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as stored: setup, status, who sits where, and the moves in order."""

    id: str
    owner_id: int
    game: str
    rules: dict[str, Any]
    seed: int
    seats: tuple[dict[str, Any], ...]
    status: str
    result: dict[str, Any] | None
    seated: dict[int, int]
    """Human seat -> profile id."""
    actions: tuple[tuple[int, str], ...]
    client_ids: tuple[tuple[int, str], ...] = ()
    """``(seat, client id)`` of the moves stored with one, in the log's order."""


@dataclass(frozen=True, slots=True)
class TableSummary:
    """What a listing shows of a table's progress, written with every move."""

    moves: int
    deal: int
    """Deal, hand or game number (the game's own word)."""
    scores: tuple[int | None, ...]
    """Each seat's running total in the game's own terms."""
    to_move: int
    """The seat to act, or the contract's ``CHANCE``/``TERMINAL`` value."""


@dataclass(frozen=True, slots=True)
class ListedTable:
    """One row of a listing: the table's setup and stored summary, without its log.

    ``summary`` is ``None`` for a table stored before summaries were kept and not yet
    summarised (the caller replays it once and stores one with :func:`set_summary`).
    """

    id: str
    owner_id: int
    game: str
    rules: dict[str, Any]
    seats: tuple[dict[str, Any], ...]
    seated: dict[int, int]
    status: str
    result: dict[str, Any] | None
    moves: int
    summary: TableSummary | None
    updated_at: datetime
    shared: bool = False
    """A people's table (played with other people through an invite)."""


def create_table(
    db: Database,
    *,
    table_id: str,
    owner_id: int,
    game: str,
    rules: dict[str, Any],
    seed: int,
    seats: list[dict[str, Any]],
    owner_seat: int,
) -> None:
    """Store a new table with its owner sitting at ``owner_seat``."""
    with db.session() as session:
        session.add(
            TableRow(
                id=table_id,
                owner_id=owner_id,
                game=game,
                rules=rules,
                seed=seed,
                seats=seats,
                status=PLAYING,
            )
        )
        session.flush()
        session.add(TableSeatRow(table_id=table_id, seat=owner_seat, profile_id=owner_id))


def check_fence(session: Session, table_id: str, fence: int | None) -> None:
    """With ``fence``, lock the table's row and refuse (:class:`FencedOutError`) unless the
    table is still claimed with that token; without, nothing. The first statement of a write's
    transaction, so that a claim by another process either waits for the write or makes it
    store nothing."""
    if fence is None:
        return
    changed = session.execute(
        update(TableRow).where(TableRow.id == table_id, TableRow.fence == fence).values(fence=fence)
    )
    if cast(CursorResult[Any], changed).rowcount != 1:
        raise FencedOutError(
            f"table {table_id} has passed to another server process; nothing was stored"
        )


def sit(
    db: Database,
    table_id: str,
    seat: int,
    profile_id: int,
    name: str | None = None,
    *,
    fence: int | None = None,
) -> None:
    """Seat a profile at a free human seat (and show it under ``name``, if given); with
    ``fence``, only while the table is claimed with that token."""
    with db.session() as session:
        check_fence(session, table_id, fence)
        session.add(TableSeatRow(table_id=table_id, seat=seat, profile_id=profile_id))
        if name is not None:
            row = session.get(TableRow, table_id)
            if row is None:
                raise NotFoundError(f"no table {table_id}")
            seats = [dict(spec) for spec in row.seats]
            seats[seat]["name"] = name
            row.seats = seats


@dataclass(frozen=True, slots=True)
class StoredMove:
    """One move as it is stored (:func:`append_moves`): its number in the log (0-based), seat
    and notation, and what is written with it in the same transaction."""

    table_id: str
    index: int
    seat: int
    notation: str
    summary: TableSummary | None = None
    """The table's summary after the move (``None``: the stored one stays)."""
    fence: int | None = None
    """Store it only while the table is claimed with this lease token."""
    client_id: str | None = None
    """The id the page sent the move with."""
    room: tuple[str, dict[str, Any]] | None = None
    """A people's table's room phase and document after the move."""
    ending: tuple[str, dict[str, Any] | None] | None = None
    """The table's status and result when the move ends its game (``FINISHED``) or closes it
    (``ABANDONED`` at its move limit): stored with the move, so that no listing shows a game
    that is over as still being played, whenever the process stops."""


def _move_update(with_summary: bool, with_fence: bool, with_ending: bool) -> DriverStatement:
    """The table row's update after a move: Core statements with bound parameters run as the
    driver's SQL, so that a move costs no statement building, no ORM bookkeeping and no
    per-execution compiling (this runs after every move of every table)."""
    rows = cast(Table, TableRow.__table__)
    where = rows.c.id == bindparam("b_table")
    if with_fence:
        where = where & (rows.c.fence == bindparam("b_fence"))
    values: dict[str, Any] = {"updated_at": bindparam("b_updated"), "moves": bindparam("b_moves")}
    if with_summary:
        values |= {
            "deal": bindparam("b_deal"),
            "scores": bindparam("b_scores"),
            "to_move": bindparam("b_to_move"),
        }
    if with_ending:
        values |= {"status": bindparam("b_status"), "result": bindparam("b_result")}
    return DriverStatement(update(rows).where(where).values(**values))


_MOVE_UPDATES: Final = {
    (summary, fence, ending): _move_update(summary, fence, ending)
    for summary in (False, True)
    for fence in (False, True)
    for ending in (False, True)
}
"""The row's update by (with a summary, with a fence, with an ending)."""
_INSERT_ACTION: Final = DriverStatement(insert(cast(Table, ActionRow.__table__)))
_ROOMS: Final = cast(Table, SharedTableRow.__table__)
_ROOM_UPDATE: Final = DriverStatement(
    update(_ROOMS)
    .where(_ROOMS.c.table_id == bindparam("b_table"))
    .values(phase=bindparam("b_phase"), room=bindparam("b_room"), updated_at=bindparam("b_updated"))
)


def append_action(
    db: Database,
    table_id: str,
    index: int,
    seat: int,
    notation: str,
    summary: TableSummary | None = None,
    *,
    fence: int | None = None,
    client_id: str | None = None,
    room: tuple[str, dict[str, Any]] | None = None,
    ending: tuple[str, dict[str, Any] | None] | None = None,
) -> None:
    """Append move number ``index`` (0-based) to a table's log, with the table's summary after
    it when given, the client id the move was sent with, a people's table's room phase and
    document after it (``room``) and the table's status and result when it ends the game
    (``ending``), all in one transaction. With ``fence``, only while the table is claimed with
    that token (:class:`FencedOutError` otherwise, storing nothing, as when another process
    stored a move with this number first; without, that is an ``IntegrityError``)."""
    append_moves(
        db,
        [StoredMove(table_id, index, seat, notation, summary, fence, client_id, room, ending)],
    )


def append_moves(db: Database, moves: Sequence[StoredMove]) -> None:
    """Append moves (of one table or several) in one transaction: all or nothing (see
    :func:`append_action` for each). The log store's writer stores the moves that reach it
    together in one commit."""
    now = utc_now()
    try:
        with db.driver_transaction() as cursor:
            for move in moves:
                _write_move(cursor, move, now)
    except IntegrityError as exc:  # the log's primary key: this move number is taken
        if len(moves) != 1 or moves[0].fence is None:
            raise
        move = moves[0]
        raise FencedOutError(
            f"move {move.index} of table {move.table_id} is already stored by another server "
            "process; nothing was stored"
        ) from exc


def _write_move(cursor: DriverCursor, move: StoredMove, now: datetime) -> None:
    table_id, summary, fence, ending = move.table_id, move.summary, move.fence, move.ending
    values: dict[str, Any] = {"b_table": table_id, "b_updated": now, "b_moves": move.index + 1}
    if summary is not None:
        values["b_deal"] = summary.deal
        values["b_scores"] = list(summary.scores)
        values["b_to_move"] = summary.to_move
    if fence is not None:
        values["b_fence"] = fence
    if ending is not None:
        values["b_status"], values["b_result"] = ending
    # The row's update first: it takes the row's lock, so a claim by another process either
    # waits for this move or makes this update match nothing.
    changed = cursor.execute(
        _MOVE_UPDATES[summary is not None, fence is not None, ending is not None], values
    )
    if fence is not None and changed != 1:
        raise FencedOutError(
            f"table {table_id} has passed to another server process; nothing was stored"
        )
    cursor.execute(
        _INSERT_ACTION,
        {
            "table_id": table_id,
            "index": move.index,
            "seat": move.seat,
            "notation": move.notation,
            "client_id": move.client_id,
        },
    )
    if move.room is not None:
        # The turn timer that follows the move lands with it or not at all: a process that
        # stops right after the move leaves no clock behind from before it.
        phase, document = move.room
        cursor.execute(
            _ROOM_UPDATE,
            {"b_table": table_id, "b_phase": phase, "b_room": document, "b_updated": now},
        )


def claim_table(db: Database, table_id: str, fence: int) -> int | None:
    """Claim a table for the holder of lease token ``fence``: from now on only moves carrying
    this token are stored. ``None`` when claimed; the stored token when it is not smaller
    than ``fence`` (the lease service issued an old token: ask it for one above that).
    :class:`~cardtable.errors.NotFoundError` if there is no such table."""
    with db.session() as session:
        changed = session.execute(
            update(TableRow)
            .where(TableRow.id == table_id, TableRow.fence < fence)
            .values(fence=fence)
        )
        if cast(CursorResult[Any], changed).rowcount == 1:
            return None
        stored = session.scalar(select(TableRow.fence).where(TableRow.id == table_id))
        if stored is None:
            raise NotFoundError(f"no table {table_id}")
        return int(stored)


def set_summary(db: Database, table_id: str, summary: TableSummary) -> None:
    """Store a table's summary (for a table stored before summaries were kept); its
    ``updated_at`` and so its place in listings stay as they were."""
    with db.session() as session:
        session.execute(
            update(TableRow)
            .where(TableRow.id == table_id)
            .values(moves=summary.moves, **_summary_values(summary))
        )


def _summary_values(summary: TableSummary) -> dict[str, Any]:
    return {"deal": summary.deal, "scores": list(summary.scores), "to_move": summary.to_move}


def set_status(
    db: Database,
    table_id: str,
    status: str,
    result: dict[str, Any] | None = None,
    *,
    fence: int | None = None,
) -> None:
    """Mark a table finished or abandoned (with its result, if any); with ``fence``, only while
    the table is claimed with that token (:class:`FencedOutError` otherwise)."""
    with db.session() as session:
        row = session.get(TableRow, table_id, with_for_update=fence is not None)
        if row is None:
            raise NotFoundError(f"no table {table_id}")
        if fence is not None and row.fence != fence:
            raise FencedOutError(
                f"table {table_id} has passed to another server process; nothing was stored"
            )
        row.status = status
        row.result = result
        row.updated_at = utc_now()


def load_table(db: Database, table_id: str) -> StoredTable | None:
    """A table with its whole log, or ``None``."""
    with db.session() as session:
        row = session.get(TableRow, table_id)
        if row is None:
            return None
        rows = session.execute(
            select(ActionRow.seat, ActionRow.notation, ActionRow.client_id)
            .where(ActionRow.table_id == table_id)
            .order_by(ActionRow.index)
        ).all()
        actions = [(seat, notation) for seat, notation, _client_id in rows]
        client_ids = tuple((seat, cid) for seat, _notation, cid in rows if cid is not None)
        seated = session.execute(
            select(TableSeatRow.seat, TableSeatRow.profile_id).where(
                TableSeatRow.table_id == table_id
            )
        ).all()
        return StoredTable(
            id=row.id,
            owner_id=row.owner_id,
            game=row.game,
            rules=dict(row.rules),
            seed=row.seed,
            seats=tuple(dict(seat) for seat in row.seats),
            status=row.status,
            result=None if row.result is None else dict(row.result),
            seated={seat: profile for seat, profile in seated},
            actions=tuple((seat, notation) for seat, notation in actions),
            client_ids=client_ids,
        )


def list_tables(
    db: Database, profile_id: int, *, status: str = PLAYING, limit: int = 50, offset: int = 0
) -> tuple[list[ListedTable], int]:
    """One page of the tables where a profile sits with this status, most recently played first,
    and how many there are in all. Two indexed queries and one for the page's seats: the cost
    follows the page, not the number of tables.
    """
    mine = (
        select(TableSeatRow.table_id)
        .where(TableSeatRow.profile_id == profile_id)
        .distinct()
        .scalar_subquery()
    )
    with db.session() as session:
        total = (
            session.scalar(
                select(func.count(func.distinct(TableRow.id)))
                .select_from(TableSeatRow)
                .join(TableRow, TableRow.id == TableSeatRow.table_id)
                .where(TableSeatRow.profile_id == profile_id, TableRow.status == status)
            )
            or 0
        )
        rows = session.scalars(
            select(TableRow)
            .where(TableRow.status == status, TableRow.id.in_(mine))
            .order_by(TableRow.updated_at.desc(), TableRow.id)
            .limit(limit)
            .offset(offset)
        ).all()
        seated: dict[str, dict[int, int]] = {row.id: {} for row in rows}
        shared: set[str] = set()
        if rows:
            shared = set(
                session.scalars(
                    select(SharedTableRow.table_id).where(SharedTableRow.table_id.in_(list(seated)))
                )
            )
            for table_id, seat, profile in session.execute(
                select(TableSeatRow.table_id, TableSeatRow.seat, TableSeatRow.profile_id).where(
                    TableSeatRow.table_id.in_(list(seated))
                )
            ):
                seated[table_id][seat] = profile
        listed = [
            ListedTable(
                id=row.id,
                owner_id=row.owner_id,
                game=row.game,
                rules=dict(row.rules),
                seats=tuple(dict(seat) for seat in row.seats),
                seated=seated[row.id],
                status=row.status,
                result=None if row.result is None else dict(row.result),
                moves=row.moves,
                summary=None
                if row.deal is None or row.to_move is None
                else TableSummary(
                    moves=row.moves,
                    deal=row.deal,
                    scores=tuple(row.scores or ()),
                    to_move=row.to_move,
                ),
                updated_at=row.updated_at,
                shared=row.id in shared,
            )
            for row in rows
        ]
        return listed, total


def count_created(db: Database, profile_id: int, *, status: str = PLAYING) -> int:
    """How many tables with this status a profile created."""
    with db.session() as session:
        count = session.scalar(
            select(func.count())
            .select_from(TableRow)
            .where(TableRow.owner_id == profile_id, TableRow.status == status)
        )
        return int(count or 0)


def tables_of(db: Database, profile_id: int, *, status: str = PLAYING) -> list[str]:
    """Ids of the tables where a profile sits, with this status, most recently played first."""
    with db.session() as session:
        rows = session.execute(
            select(TableRow.id)
            .join(TableSeatRow, TableSeatRow.table_id == TableRow.id)
            .where(TableSeatRow.profile_id == profile_id, TableRow.status == status)
            .order_by(TableRow.updated_at.desc())
        ).all()
        return list(dict.fromkeys(row[0] for row in rows))
