"""Running record totals: one row per profile with what its record events add up to, so a
record read costs the same however many deals were played, and old events can be pruned
without losing them from the record. A profile without a row gets one built from its events
the first time its record is read or added to.

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``record_totals``."""
    op.create_table(
        "record_totals",
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id"), primary_key=True),
        sa.Column("totals", sa.JSON, nullable=False),
        sa.Column("played_kept", sa.Integer, nullable=False),
        sa.Column("imported_kept", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    """Drop ``record_totals``."""
    op.drop_table("record_totals")
