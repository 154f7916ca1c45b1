"""Table reviews: per table, the provably fair deal's commitment, contributions and secret
server seed, the token of a shared replay, and the stored analyses by seat.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``table_reviews``."""
    op.create_table(
        "table_reviews",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=True),
        sa.Column("contributions", sa.JSON(), nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=True),
        sa.Column("share_token", sa.String(64), nullable=True),
        sa.Column("analyses", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_tables.id"]),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_index("ix_table_reviews_share_token", "table_reviews", ["share_token"], unique=True)


def downgrade() -> None:
    """Drop ``table_reviews``."""
    op.drop_table("table_reviews")
