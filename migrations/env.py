"""Runs migrations with the async engine. The URL comes from, in order: the caller's
``config.attributes["url"]`` (tests), ``-x url=...``, then the application's settings;
the PostgreSQL schema from ``config.attributes["schema"]`` or the settings."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from app.config import get_settings
from app.db.models import Base
from app.db.session import make_engine

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = config.attributes.get("url") or context.get_x_argument(as_dictionary=True).get("url")
    return str(url or get_settings().database_url)


def _migrate(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


async def _run_online() -> None:
    schema = config.attributes.get("schema") or get_settings().database_schema
    engine = make_engine(_url(), schema)
    async with engine.connect() as connection:
        await connection.run_sync(_migrate)
        await connection.commit()
    await engine.dispose()


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_run_online())
