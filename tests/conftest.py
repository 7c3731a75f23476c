"""Shared fixtures: the reference tables, and every server test on SQLite and PostgreSQL
(SQLite alone for the tests marked ``one_database``, where storage plays no part).

PostgreSQL is the one on 127.0.0.1:5432 (database ``test``; override with
DUEL_TEST_POSTGRES_URL). Each test gets its own empty database, migrated to head: a copy
of a template made once per session (per xdist worker), so that no test pays for running
the migrations (tests/db/test_migrations.py runs them for real). When PostgreSQL cannot be
reached the PostgreSQL runs are skipped, except under CI=true, where they fail.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from hypothesis import settings as hypothesis_settings
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from app.main import create_app
from app.services import accounts

from .factories import (
    IN_CI,
    POSTGRES_URL,
    SHARED,
    Database,
    PostgresTemplate,
    SqliteTemplate,
    postgres_reachable,
    repeatable_seeds,
)

# Property tests try the same examples on every run of the default suite, so that a run
# passes or fails by the code alone; `make test-long` lets them explore new ones.
hypothesis_settings.register_profile("repeatable", derandomize=True, database=None)
hypothesis_settings.register_profile("explore", derandomize=False)
hypothesis_settings.load_profile("repeatable")


QUICK_HASHER = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))
"""argon2 at its cheapest, for the applications the tests build in this process: the
recommended cost (0.2 s of a core per hash) would be most of the accounts tests' time.
The servers started as processes (tests/browser, tests/realtime/test_processes.py) hash
as production does, and tests/services/test_password_hashing.py checks that cost."""


@pytest.fixture(autouse=True, scope="session")
def _quick_password_hashing() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(accounts, "_hasher", lambda: QUICK_HASHER)
        yield


def shared_dir(name: str) -> Path:
    """``../shared/<name>``: the test is skipped locally when it is absent, and fails under
    CI=true."""
    path = SHARED / name
    if not path.is_dir():
        if IN_CI:
            pytest.fail(f"{path} is required when CI=true")
        pytest.skip(f"../shared/{name} is not present")
    return path


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """``../shared/reference`` (:func:`shared_dir`)."""
    return shared_dir("reference")


@pytest.fixture(scope="session")
def rulebooks() -> Path:
    """``../shared/rulebooks`` (:func:`shared_dir`)."""
    return shared_dir("rulebooks")


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> SqliteTemplate:
    return SqliteTemplate(tmp_path_factory.mktemp("sqlite-template"))


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[PostgresTemplate]:
    """Made on first use, so that a run without PostgreSQL tests never reaches for it; an
    unreachable server skips (fails under CI=true) every test that asks for it."""
    if not postgres_reachable():
        message = f"PostgreSQL is not reachable at {POSTGRES_URL}"
        if IN_CI:
            pytest.fail(message + " (required when CI=true)")
        pytest.skip(message)
    template = PostgresTemplate()
    try:
        yield template
    finally:
        template.close()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Each test of the ``database`` fixture runs on both kinds, or on SQLite alone when
    marked ``one_database`` (storage plays no part in what it asserts)."""
    if "database" in metafunc.fixturenames:
        one = metafunc.definition.get_closest_marker("one_database") is not None
        metafunc.parametrize("database", ["sqlite"] if one else ["sqlite", "postgres"],
                             indirect=True)


@pytest.fixture
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """An empty database of the kind the test is parametrized with (``sqlite`` or
    ``postgres``), migrated to head, the test's own."""
    if request.param == "sqlite":
        template: SqliteTemplate = request.getfixturevalue("sqlite_template")
        yield template.copy(tmp_path)
        return
    schemas: PostgresTemplate = request.getfixturevalue("postgres_template")
    database = schemas.create()
    try:
        yield database
    finally:
        schemas.drop(database)


@pytest.fixture
def make_app(database: Database) -> Callable[..., FastAPI]:
    """Builds an application on the test database; settings may be overridden, and
    several instances may share the database (as several servers would)."""

    def build(**overrides: object) -> FastAPI:
        app = create_app(database.settings(**overrides))
        app.state.seeds = repeatable_seeds()
        return app

    return build


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter,
                            config: pytest.Config) -> None:
    """Say which order the tests ran in, even under -q: `--randomly-seed=N` repeats it."""
    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int):
        terminalreporter.write_line(f"test order: --randomly-seed={seed}")
