"""Quick match: a pairing kept for the player who waited, until their process tells them.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("queue_entry", sa.Column("game_id", sa.String(length=32), nullable=True))
    op.add_column("queue_entry", sa.Column("seat", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("queue_entry") as batch:
        batch.drop_column("seat")
        batch.drop_column("game_id")
