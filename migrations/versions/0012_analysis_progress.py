"""An analysis in progress says how far it is: the positions it will read, next to the
ones read so far (stored as they come, app/services/computer.py).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game_analysis", sa.Column("total", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_analysis") as batch:
        batch.drop_column("total")
