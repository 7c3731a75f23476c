"""The Alembic migrations: up, down and up again on each database, and after them the
schema is exactly what the models say, and exactly the one every other test starts from
(the ``database`` fixture copies a template rather than migrating for each test)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.config import main as alembic_cli
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from app.config import get_settings
from app.db.models import Base
from app.db.session import make_engine
from tests.factories import ROOT, Database, alembic_config

TABLES = {"game", "seat", "game_action", "player", "admin_action", "server", "presence",
          "queue_entry", "chat_message", "rate_count", "rating_change", "seat_result",
          "seat_wonder", "game_analysis", "ended_session"}


def _head() -> str:
    head = ScriptDirectory.from_config(Config(str(ROOT / "alembic.ini"))).get_current_head()
    assert head is not None
    return head


def _structure(connection: Connection) -> dict[str, Any]:
    """Every table as the database describes it: columns with their types, defaults and
    nullability, keys, foreign keys, unique constraints and indexes, all named."""
    inspector = inspect(connection)
    return {table: {
        "columns": [(c["name"], repr(c["type"]), c["nullable"], c["default"])
                    for c in inspector.get_columns(table)],
        "primary key": inspector.get_pk_constraint(table),
        "foreign keys": sorted(inspector.get_foreign_keys(table), key=str),
        "unique": sorted(inspector.get_unique_constraints(table), key=str),
        # A partial index's condition is reflected as a clause: compared by its text.
        "indexes": sorted(({**index, "dialect_options": {
            option: str(value) for option, value in index.get("dialect_options", {}).items()}}
            for index in inspector.get_indexes(table)), key=str),
    } for table in sorted(inspector.get_table_names())}


def _inspect(database: Database) -> dict[str, Any]:
    """The tables, the revision stamped, autogenerate's differences with the models, and
    the whole structure."""

    def look(connection: Connection) -> dict[str, Any]:
        context = MigrationContext.configure(connection, opts={
            "compare_type": True, "compare_server_default": True})
        return {
            "tables": set(inspect(connection).get_table_names()) - {"alembic_version"},
            "revision": context.get_current_revision(),
            "differences": compare_metadata(context, Base.metadata),
            "structure": _structure(connection),
        }

    async def run() -> dict[str, Any]:
        engine = make_engine(database.url, database.schema)
        try:
            async with engine.connect() as connection:
                return await connection.run_sync(look)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def test_the_migrated_schema_is_exactly_the_models(database: Database) -> None:
    found = _inspect(database)
    assert found["tables"] == TABLES
    assert found["revision"] == _head()
    assert found["differences"] == []


def test_upgrade_downgrade_upgrade(database: Database) -> None:
    """Down from the fixture's copy and up again with the real migrations: the result is
    the copy every test starts from."""
    copied = _inspect(database)
    config = alembic_config(database)
    command.downgrade(config, "base")
    found = _inspect(database)
    assert found["tables"] == set() and found["revision"] is None

    command.upgrade(config, "head")
    found = _inspect(database)
    assert found["tables"] == TABLES and found["revision"] == _head()
    assert found["differences"] == []
    assert found == copied

    # Already at head: upgrading again changes nothing.
    command.upgrade(config, "head")
    assert _inspect(database) == found


def test_the_command_line_migrates_the_configured_database(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """What an operator runs: ``alembic -x url=... downgrade base`` and ``upgrade head``
    (the PostgreSQL schema from DUEL_DATABASE_SCHEMA)."""
    monkeypatch.chdir(ROOT)
    if database.schema:
        monkeypatch.setenv("DUEL_DATABASE_SCHEMA", database.schema)
    get_settings.cache_clear()
    try:
        ini = str(ROOT / "alembic.ini")
        alembic_cli(["-c", ini, "-x", f"url={database.url}", "downgrade", "base"])
        assert _inspect(database)["tables"] == set()
        alembic_cli(["-c", ini, "-x", f"url={database.url}", "upgrade", "head"])
    finally:
        get_settings.cache_clear()
    found = _inspect(database)
    assert found["tables"] == TABLES and found["differences"] == []


def test_the_migration_can_be_printed_as_sql(database: Database) -> None:
    """``alembic upgrade head --sql``, for operators who apply SQL by hand."""
    out = io.StringIO()
    command.upgrade(alembic_config(database, output_buffer=out), "head", sql=True)
    sql = out.getvalue()
    for table in TABLES:
        assert f"CREATE TABLE {table}" in sql
    assert "alembic_version" in sql


def test_the_migrations_directory_has_one_head() -> None:
    scripts = ScriptDirectory.from_config(Config(str(ROOT / "alembic.ini")))
    assert len(scripts.get_heads()) == 1
    assert Path(scripts.dir).resolve() == (ROOT / "migrations").resolve()
