"""Retry-safe creates and joins, and counters for rate limits.

A seat taken by a request that carried an idempotency key keeps the key's hash (unique: of
two requests with one key, one takes a seat; its retry finds that seat). Rate limits count
events per key in fixed windows, in the database so that every process counts the same.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("request_hash", sa.String(64), nullable=True))
    op.create_index("ix_seat_request_hash", "seat", ["request_hash"], unique=True)
    op.create_table(
        "rate_count",
        sa.Column("bucket", sa.String(32), nullable=False),
        sa.Column("key", sa.String(128), nullable=False),
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("bucket", "key", "window_start", name="pk_rate_count"),
    )
    op.create_index("ix_rate_count_window_start", "rate_count", ["window_start"])


def downgrade() -> None:
    op.drop_index("ix_rate_count_window_start", table_name="rate_count")
    op.drop_table("rate_count")
    op.drop_index("ix_seat_request_hash", table_name="seat")
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("request_hash")
