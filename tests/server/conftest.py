"""Server test fixtures: every server test runs on SQLite and on PostgreSQL.

PostgreSQL is the one on 127.0.0.1:5432 (database ``test``; override with
DUEL_TEST_POSTGRES_URL). Each test gets a fresh schema, migrated with the real Alembic
migrations and dropped afterwards. When PostgreSQL cannot be reached the PostgreSQL runs
are skipped, except under CI=true, where they fail.
"""

from __future__ import annotations

import asyncio
import os
import socket
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import pytest
from alembic import command
from alembic.config import Config
from fastapi import FastAPI
from sqlalchemy.sql import Executable

from app.config import Settings
from app.db.session import make_engine
from app.main import create_app

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_URL = os.environ.get("DUEL_TEST_POSTGRES_URL",
                              "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
IN_CI = os.environ.get("CI", "").lower() == "true"


@dataclass(frozen=True)
class Database:
    kind: str
    url: str
    schema: str | None = None

    async def read(self, statement: Executable) -> list[Any]:
        """The rows ``statement`` selects, read on a connection of the test's own (not the
        application's)."""
        engine = make_engine(self.url, self.schema)
        try:
            async with engine.connect() as connection:
                return list((await connection.execute(statement)).all())
        finally:
            await engine.dispose()

    def settings(self, **overrides: object) -> Settings:
        values: dict[str, object] = {"secret_key": "test-secret", **overrides}
        return Settings(database_url=self.url, database_schema=self.schema,
                        **values)  # type: ignore[arg-type]


def _postgres_reachable() -> bool:
    parts = urlsplit(POSTGRES_URL.replace("+asyncpg", ""))
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 5432), 2):
            return True
    except OSError:
        return False


def _plain_postgres_url() -> str:
    return POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://")


async def _run_sql(sql: str) -> None:
    connection = await asyncpg.connect(_plain_postgres_url())
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def migrate(database: Database) -> None:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["url"] = database.url
    if database.schema:
        config.attributes["schema"] = database.schema
    command.upgrade(config, "head")


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A migrated, empty database of each kind."""
    if request.param == "sqlite":
        db = Database("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'duel.db'}")
        migrate(db)
        yield db
        return
    if not _postgres_reachable():
        message = f"PostgreSQL is not reachable at {POSTGRES_URL}"
        if IN_CI:
            pytest.fail(message + " (required when CI=true)")
        pytest.skip(message)
    schema = f"test_{uuid.uuid4().hex[:12]}"
    asyncio.run(_run_sql(f'CREATE SCHEMA "{schema}"'))
    db = Database("postgres", POSTGRES_URL, schema)
    try:
        migrate(db)
        yield db
    finally:
        asyncio.run(_run_sql(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture
def make_app(database: Database) -> Callable[..., FastAPI]:
    """Builds an application on the test database; settings may be overridden, and
    several instances may share the database (as several servers would)."""

    def build(**overrides: object) -> FastAPI:
        return create_app(database.settings(**overrides))

    return build
