"""Chat: what the players say to each other, and what the spectators say among themselves,
kept with the game.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_message",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=True),
        sa.Column("text", sa.String(length=500), nullable=True),
        sa.Column("phrase", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"],
                                name=op.f("fk_chat_message_game_id_game"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_message")),
    )
    op.create_index("ix_chat_message_game_id_id", "chat_message", ["game_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_message_game_id_id", table_name="chat_message")
    op.drop_table("chat_message")
