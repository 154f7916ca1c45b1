"""Storage of what the review features keep per table (:class:`TableReviewRow`): the fair
deal's data with its secret server seed, the token of a shared replay, and each seat's stored
analyses, so that an analysis is computed once: the whole game's (under the seat's number) and
each finished hand's, analysed in the background as the hand ends (under ``hands:SEAT``, by
hand number)."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from cardtable.fairness import FairDeal
from cardtable.storage.database import Database
from cardtable.storage.models import TableReviewRow


def _row(session: Session, table_id: str) -> TableReviewRow:
    row = session.get(TableReviewRow, table_id)
    if row is None:
        row = TableReviewRow(table_id=table_id, contributions=[], analyses={})
        session.add(row)
    return row


def save_fairness(db: Database, table_id: str, fair: FairDeal) -> None:
    """Keep a table's fairness data, server seed included (never sent before the game ends)."""
    with db.session() as session:
        row = _row(session, table_id)
        row.commitment = fair.commitment
        row.contributions = [[seat, value] for seat, value in fair.contributions]
        row.server_seed = fair.server_seed


def load_fairness(db: Database, table_id: str) -> FairDeal | None:
    """A table's fairness data with its server seed, or ``None`` (tables dealt from a fixed
    test seed, or made before fair deals, have none)."""
    with db.session() as session:
        row = session.get(TableReviewRow, table_id)
        if row is None or row.commitment is None:
            return None
        return FairDeal(
            commitment=row.commitment,
            contributions=tuple((int(seat), str(value)) for seat, value in row.contributions),
            server_seed=row.server_seed,
        )


def share_token(db: Database, table_id: str) -> str:
    """The table's replay share token, made (unguessable: 128 random bits) on first use."""
    with db.session() as session:
        row = _row(session, table_id)
        if row.share_token is None:
            row.share_token = secrets.token_urlsafe(16)
        return row.share_token


def table_of_token(db: Database, token: str) -> str | None:
    """The table a share token opens, or ``None``."""
    with db.session() as session:
        query = select(TableReviewRow).where(TableReviewRow.share_token == token)
        row = session.scalars(query).one_or_none()
        return None if row is None else row.table_id


def save_analysis(db: Database, table_id: str, seat: int, analysis: dict[str, Any]) -> None:
    """Keep the finished analysis of ``seat``'s play at a table."""
    with db.session() as session:
        row = _row(session, table_id)
        row.analyses = {**row.analyses, str(seat): analysis}


def load_analysis(db: Database, table_id: str, seat: int) -> dict[str, Any] | None:
    """The stored analysis of ``seat``'s play, or ``None``."""
    with db.session() as session:
        row = session.get(TableReviewRow, table_id)
        if row is None:
            return None
        found: dict[str, Any] | None = row.analyses.get(str(seat))
        return found


def _hands_key(seat: int) -> str:
    return f"hands:{seat}"


def save_hand_analysis(
    db: Database, table_id: str, seat: int, hand: int, analysis: dict[str, Any]
) -> None:
    """Keep the analysis of ``seat``'s play in one finished ``hand`` (deal) of a table."""
    with db.session() as session:
        row = _row(session, table_id)
        key = _hands_key(seat)
        hands = {**row.analyses.get(key, {}), str(hand): analysis}
        row.analyses = {**row.analyses, key: hands}


def load_hand_analyses(db: Database, table_id: str, seat: int) -> dict[int, dict[str, Any]]:
    """The stored analyses of ``seat``'s finished hands at a table, by hand number."""
    with db.session() as session:
        row = session.get(TableReviewRow, table_id)
        if row is None:
            return {}
        hands: dict[str, dict[str, Any]] = row.analyses.get(_hands_key(seat), {})
        return {int(hand): analysis for hand, analysis in hands.items()}
