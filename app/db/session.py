"""The async engine and session factory for a database URL."""

from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)


def _lower(text: object) -> object:
    return text.lower() if isinstance(text, str) else text


def make_engine(url: str, schema: str | None = None, *, pool_size: int = 10,
                max_overflow: int = 10, pool_timeout: float = 5.0) -> AsyncEngine:
    """An engine for ``url``; with ``schema`` (PostgreSQL), its tables live there; its
    pool holds ``pool_size`` connections (and ``max_overflow`` more at a peak), and a
    request waits at most ``pool_timeout`` seconds for one."""
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):  # type: ignore[no-untyped-def]
            # WAL lets readers work while a move is written; foreign keys are off by default.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()
            # SQLite's own lower() knows ASCII only; PostgreSQL's knows every letter.
            dbapi_connection.create_function("lower", 1, _lower, deterministic=True)

        return engine
    connect_args = {"server_settings": {"search_path": schema}} if schema else {}
    # No ping before each checkout (a round trip per move): a connection found dead in use
    # fails that one request ("unavailable", which clients send again), and SQLAlchemy
    # then drops every pooled connection as stale. A full pool refuses within seconds,
    # not after half a minute.
    return create_async_engine(url, pool_size=pool_size, max_overflow=max_overflow,
                               pool_timeout=pool_timeout, connect_args=connect_args)


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
