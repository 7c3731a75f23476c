"""Fair starts: whose clock runs (none during a seat's first decision), and why a game was
aborted (an admin, a player, a first decision missed, its creator cancelling it).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game", sa.Column("clock_running", sa.Integer(), nullable=True))
    op.add_column("game", sa.Column("abort_cause", sa.String(16), nullable=True))
    op.add_column("game", sa.Column("abort_seat", sa.Integer(), nullable=True))
    # The games of before: a timed game in play runs its seat to act's clock, and every
    # game aborted so far was aborted by an admin.
    op.execute("UPDATE game SET clock_running = to_act "
               "WHERE status = 'active' AND clock_since IS NOT NULL")
    op.execute("UPDATE game SET abort_cause = 'admin' WHERE status = 'aborted'")


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("abort_seat")
        batch.drop_column("abort_cause")
        batch.drop_column("clock_running")
