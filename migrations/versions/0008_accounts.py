"""Accounts: a player may register a username and a password (hashed, argon2), and keeps
a session epoch: raising it ends every session that logged in before.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("username", sa.String(24), nullable=True))
        batch.add_column(sa.Column("login", sa.String(24), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(255), nullable=True))
        batch.add_column(sa.Column("session_epoch", sa.Integer(), nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("registered_at", sa.DateTime(timezone=True),
                                   nullable=True))
    op.create_index("ix_player_login", "player", ["login"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_player_login", table_name="player")
    with op.batch_alter_table("player") as batch:
        for column in ("registered_at", "session_epoch", "password_hash", "login", "username"):
            batch.drop_column(column)
