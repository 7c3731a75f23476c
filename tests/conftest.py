"""Shared fixtures: the reference tables, and every server test on SQLite and PostgreSQL.

PostgreSQL is the one on 127.0.0.1:5432 (database ``test``; override with
DUEL_TEST_POSTGRES_URL). Each test gets a fresh schema, migrated with the real Alembic
migrations and dropped afterwards. When PostgreSQL cannot be reached the PostgreSQL runs
are skipped, except under CI=true, where they fail.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI

from app.main import create_app

from .factories import (
    IN_CI,
    POSTGRES_URL,
    SHARED,
    Database,
    _postgres_reachable,
    _run_sql,
    migrate,
)


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """``../shared/reference``: skipped locally when absent, required under CI=true."""
    path = SHARED / "reference"
    if not path.is_dir():
        if IN_CI:
            pytest.fail(f"{path} is required when CI=true")
        pytest.skip("../shared/reference is not present")
    return path


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
