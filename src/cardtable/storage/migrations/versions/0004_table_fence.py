"""Table fencing: each game table keeps the largest lease token (fencing token) a server has
claimed it with, so that in a cluster a process whose lease on the table has passed to another
cannot store a move (see :func:`cardtable.storage.tables.claim_table`). Existing tables start at
0, which any lease's token exceeds; a lone server never sets it.

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``game_tables.fence``."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("fence", sa.BigInteger(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop ``game_tables.fence``."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("fence")
