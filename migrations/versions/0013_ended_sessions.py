"""Sessions logged out of: a copy of a logged-out browser's cookie holds no player.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ended_session",
        sa.Column("session_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("session_id", name="pk_ended_session"),
    )
    op.create_index("ix_ended_session_player_id", "ended_session", ["player_id"])
    op.create_index("ix_ended_session_ended_at", "ended_session", ["ended_at"])


def downgrade() -> None:
    op.drop_index("ix_ended_session_ended_at", table_name="ended_session")
    op.drop_index("ix_ended_session_player_id", table_name="ended_session")
    op.drop_table("ended_session")
