"""Ratings: a player's Glicko-2 rating and its history, rated games and quick-match
places, and a summary of each finished game's seats and their wonders (profiles and site
statistics).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (SQLite has it): nothing here needs a table rebuilt.
    for column in (
            sa.Column("rating", sa.Float(), nullable=False, server_default="1500"),
            sa.Column("rating_deviation", sa.Float(), nullable=False, server_default="350"),
            sa.Column("rating_volatility", sa.Float(), nullable=False,
                      server_default="0.06"),
            sa.Column("rated_games", sa.Integer(), nullable=False, server_default="0"),
            sa.Column("rated_at", sa.DateTime(timezone=True), nullable=True)):
        op.add_column("player", column)
    op.add_column("game", sa.Column("rated", sa.Boolean(), nullable=False,
                                    server_default=sa.false()))
    op.add_column("queue_entry", sa.Column("rated", sa.Boolean(), nullable=False,
                                           server_default=sa.false()))
    op.add_column("queue_entry", sa.Column("rating", sa.Float(), nullable=True))
    op.create_table(
        "rating_change",
        sa.Column("game_id", sa.String(32),
                  sa.ForeignKey("game.id", name="fk_rating_change_game_id_game",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("player_id", sa.String(32),
                  sa.ForeignKey("player.id", name="fk_rating_change_player_id_player",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("deviation_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("deviation_after", sa.Float(), nullable=False),
        sa.Column("volatility_after", sa.Float(), nullable=False),
        sa.Column("opponent_rating", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "player_id", name="pk_rating_change"),
    )
    op.create_index("ix_rating_change_player_id_created_at", "rating_change",
                    ["player_id", "created_at"])
    op.create_table(
        "seat_result",
        sa.Column("game_id", sa.String(32),
                  sa.ForeignKey("game.id", name="fk_seat_result_game_id_game",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32),
                  sa.ForeignKey("player.id", name="fk_seat_result_player_id_player",
                                ondelete="SET NULL"), nullable=True),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("victory", sa.String(16), nullable=False),
        sa.Column("first", sa.Boolean(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("seconds", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_seat_result"),
    )
    op.create_index("ix_seat_result_player_id_finished_at", "seat_result",
                    ["player_id", "finished_at"])
    op.create_table(
        "seat_wonder",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("wonder", sa.String(32), nullable=False),
        sa.Column("built", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", "wonder", name="pk_seat_wonder"),
        sa.ForeignKeyConstraint(["game_id", "seat"], ["seat_result.game_id", "seat_result.seat"],
                                name="fk_seat_wonder_game_id_seat_result", ondelete="CASCADE"),
    )
    # The leaderboard: accounts by rating (guests, far more, left out).
    op.create_index("ix_player_leaderboard", "player", ["rating"],
                    postgresql_where=sa.text("username IS NOT NULL"),
                    sqlite_where=sa.text("username IS NOT NULL"))


def downgrade() -> None:
    op.drop_index("ix_player_leaderboard", table_name="player")
    op.drop_table("seat_wonder")
    op.drop_index("ix_seat_result_player_id_finished_at", table_name="seat_result")
    op.drop_table("seat_result")
    op.drop_index("ix_rating_change_player_id_created_at", table_name="rating_change")
    op.drop_table("rating_change")
    with op.batch_alter_table("queue_entry") as batch:
        batch.drop_column("rating")
        batch.drop_column("rated")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("rated")
    with op.batch_alter_table("player") as batch:
        for column in ("rated_at", "rated_games", "rating_volatility", "rating_deviation",
                       "rating"):
            batch.drop_column(column)
