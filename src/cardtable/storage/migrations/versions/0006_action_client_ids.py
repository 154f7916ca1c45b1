"""Client ids with moves: each stored move keeps the client id its page sent with it (if any),
so that whichever process serves a table next knows which actions it already applied and
acknowledges a resent one instead of applying it twice.

Revision ID: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``table_actions.client_id``."""
    with op.batch_alter_table("table_actions") as batch:
        batch.add_column(sa.Column("client_id", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop ``table_actions.client_id``."""
    with op.batch_alter_table("table_actions") as batch:
        batch.drop_column("client_id")
