"""Clocks: a game's time control, each seat's time left when the current decision began,
the moment it began, and when the running seat's flag falls (indexed: every server looks
for fallen flags). Each log entry keeps both seats' time as the action left them. And when
each seat's last socket closed (an absent player's opponent may claim the win).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("time_control", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("clock0_ms", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("clock1_ms", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("clock_since", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_game_deadline", "game", ["deadline"])
    with op.batch_alter_table("game_action") as batch:
        batch.add_column(sa.Column("clock0_ms", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("clock1_ms", sa.BigInteger(), nullable=True))
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("left_at", sa.DateTime(timezone=True), nullable=True))
    # No one knows who was there before: the absence of a player of a game in play counts
    # from now.
    op.execute("UPDATE seat SET left_at = CURRENT_TIMESTAMP"
               " WHERE game_id IN (SELECT id FROM game WHERE status = 'active')")


def downgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("left_at")
    with op.batch_alter_table("game_action") as batch:
        batch.drop_column("clock1_ms")
        batch.drop_column("clock0_ms")
    op.drop_index("ix_game_deadline", table_name="game")
    with op.batch_alter_table("game") as batch:
        for column in ("deadline", "clock_since", "clock1_ms", "clock0_ms", "time_control"):
            batch.drop_column(column)
