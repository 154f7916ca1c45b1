"""Shared tables: a people's table keeps its invite token, whether the lobby lists it, its
phase (waiting room, playing, finished) and its room (settings, members, spectators, presence
counters, rematch answers) as one JSON document beside the game table.

Revision ID: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``shared_tables``."""
    op.create_table(
        "shared_tables",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("invite_token", sa.String(64), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("room", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_tables.id"]),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_index("ix_shared_tables_invite_token", "shared_tables", ["invite_token"], unique=True)
    op.create_index("ix_shared_tables_lobby", "shared_tables", ["public", "phase", "updated_at"])


def downgrade() -> None:
    """Drop ``shared_tables``."""
    op.drop_table("shared_tables")
