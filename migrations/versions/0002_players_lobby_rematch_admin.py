"""Players, the lobby's columns, rematches and the admin's record.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _seat_0001(*extra: sa.SchemaItem) -> sa.Table:
    metadata = sa.MetaData()
    sa.Table("game", metadata, sa.Column("id", sa.String(length=32), primary_key=True))
    sa.Table("player", metadata, sa.Column("id", sa.String(length=32), primary_key=True))
    return sa.Table(
        "seat", metadata,
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        *extra,
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name="fk_seat_game_id_game",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_seat"),
    )


def _seat_0002() -> sa.Table:
    return _seat_0001(
        sa.Column("player_id", sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name="fk_seat_player_id_player",
                                ondelete="SET NULL"),
    )


def upgrade() -> None:
    op.create_table(
        "player",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
    )
    # Plain ADD COLUMN (no batch copy): SQLite does it in place, online and in --sql mode.
    op.add_column("game", sa.Column("origin", sa.String(length=16), nullable=False,
                                    server_default="invite"))
    op.add_column("game", sa.Column("listed", sa.Boolean(), nullable=False,
                                    server_default=sa.false()))
    op.add_column("game", sa.Column("to_act", sa.Integer(), nullable=True))
    op.add_column("game", sa.Column("rematch_offer", sa.Integer(), nullable=True))
    op.add_column("game", sa.Column("rematch_id", sa.String(length=32), nullable=True))
    op.create_index("ix_game_created_at", "game", ["created_at"])
    # SQLite adds a foreign key by copying the table; the copy is made from the table as
    # 0001 left it (not reflected), so this also prints as SQL offline.
    with op.batch_alter_table("seat", copy_from=_seat_0001()) as batch:
        batch.add_column(sa.Column("player_id", sa.String(length=32), nullable=True))
        batch.create_foreign_key(op.f("fk_seat_player_id_player"), "player", ["player_id"],
                                 ["id"], ondelete="SET NULL")
    op.create_index(op.f("ix_seat_player_id"), "seat", ["player_id"])
    op.create_table(
        "admin_action",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_action")),
    )
    op.create_index(op.f("ix_admin_action_game_id"), "admin_action", ["game_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_admin_action_game_id"), table_name="admin_action")
    op.drop_table("admin_action")
    op.drop_index(op.f("ix_seat_player_id"), table_name="seat")
    with op.batch_alter_table("seat", copy_from=_seat_0002()) as batch:
        batch.drop_constraint(op.f("fk_seat_player_id_player"), type_="foreignkey")
        batch.drop_column("player_id")
    op.drop_index("ix_game_created_at", table_name="game")
    for column in ("rematch_id", "rematch_offer", "to_act", "listed", "origin"):
        op.drop_column("game", column)
    op.drop_table("player")
