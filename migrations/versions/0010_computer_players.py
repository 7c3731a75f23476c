"""Computer players: a seat may be played by a bot (its level), and each finished game's
positions are read by the top bot once (the analysis).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seat", sa.Column("computer", sa.String(16), nullable=True))
    op.create_table(
        "game_analysis",
        sa.Column("game_id", sa.String(32),
                  sa.ForeignKey("game.id", name="fk_game_analysis_game_id_game",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("iterations", sa.Integer(), nullable=False),
        sa.Column("positions", sa.JSON(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("game_id", name="pk_game_analysis"),
    )


def downgrade() -> None:
    op.drop_table("game_analysis")
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("computer")
