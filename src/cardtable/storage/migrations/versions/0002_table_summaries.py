"""Table summaries: each game table keeps its move count, deal or hand number, the seats'
scores and the seat to move, written with every move, so that listings need no replay.

Tables stored before this revision get their move count here; their deal number and scores stay
empty until the server first lists them (it replays such a table once and stores its summary).

Revision ID: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the summary columns, count the stored moves, and index listings."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("moves", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("deal", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("scores", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("to_move", sa.Integer(), nullable=True))
    op.execute(
        "UPDATE game_tables SET moves = "
        "(SELECT count(*) FROM table_actions WHERE table_actions.table_id = game_tables.id)"
    )
    op.create_index("ix_game_tables_listing", "game_tables", ["status", "updated_at", "id"])
    op.create_index("ix_game_tables_id_status", "game_tables", ["id", "status"])


def downgrade() -> None:
    """Drop the summary columns."""
    op.drop_index("ix_game_tables_id_status", "game_tables")
    op.drop_index("ix_game_tables_listing", "game_tables")
    with op.batch_alter_table("game_tables") as batch:
        for column in ("to_move", "scores", "deal", "moves"):
            batch.drop_column(column)
