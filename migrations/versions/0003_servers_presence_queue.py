"""Server processes, presence per server and the quick-match queue: shared by every
process serving the same database.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_server")),
    )
    op.create_index(op.f("ix_server_seen_at"), "server", ["seen_at"])
    op.create_table(
        "presence",
        sa.Column("server_id", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat0", sa.Integer(), nullable=False),
        sa.Column("seat1", sa.Integer(), nullable=False),
        sa.Column("spectators", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["server_id"], ["server.id"],
                                name=op.f("fk_presence_server_id_server"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"],
                                name=op.f("fk_presence_game_id_game"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("server_id", "game_id", name=op.f("pk_presence")),
    )
    op.create_index(op.f("ix_presence_game_id"), "presence", ["game_id"])
    op.create_table(
        "queue_entry",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("server_id", sa.String(length=32), nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"],
                                name=op.f("fk_queue_entry_player_id_player"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["server_id"], ["server.id"],
                                name=op.f("fk_queue_entry_server_id_server"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_queue_entry")),
    )
    op.create_index(op.f("ix_queue_entry_server_id"), "queue_entry", ["server_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_queue_entry_server_id"), table_name="queue_entry")
    op.drop_table("queue_entry")
    op.drop_index(op.f("ix_presence_game_id"), table_name="presence")
    op.drop_table("presence")
    op.drop_index(op.f("ix_server_seen_at"), table_name="server")
    op.drop_table("server")
