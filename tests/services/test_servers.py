"""The processes sharing a database: which are alive, and what goes with a dead one."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Seat, Server
from app.db.session import make_engine, make_sessionmaker
from app.services import servers as servers_module
from app.services.servers import Counts, ServerRegistry
from tests.factories import Database, servers, started_game


@pytest.fixture
async def sessions(database: Database) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    engine = make_engine(database.url, database.schema)
    try:
        yield make_sessionmaker(engine)
    finally:
        await engine.dispose()


@pytest.fixture
async def games(database: Database) -> list[str]:
    """Two started games, for presence to be about."""
    async with servers(database) as (server,):
        return [(await started_game(server.service))[0] for _ in range(2)]


async def test_a_silent_process_is_taken_for_dead_with_its_presence(
        sessions: async_sessionmaker[AsyncSession], games: list[str]) -> None:
    game_a, game_b = games
    one = ServerRegistry(sessions, timeout=20, server_id="one")
    two = ServerRegistry(sessions, timeout=20, server_id="two")
    await one.register()
    await two.register()
    await two.set_presence({game_a: Counts(seat0=1), game_b: Counts(spectators=2)})
    assert await one.elsewhere([game_a]) == {game_a: Counts(seat0=1)}

    # Both alive: nothing changes.
    assert await one.beat() == ([], False)
    # "two" fell silent a minute ago: the next beat takes it for dead, with its sockets.
    async with sessions() as session:
        await session.execute(update(Server).where(Server.id == "two").values(
            seen_at=datetime.now(UTC) - timedelta(minutes=1)))
        await session.commit()
    buried, revived = await one.beat()
    assert sorted(buried) == sorted(games) and not revived
    assert await one.elsewhere(games) == {game_a: Counts(), game_b: Counts()}
    # Back after its pause, "two" finds it was taken for dead (its presence to write again).
    assert await two.beat() == ([], True)


async def test_the_seats_a_dead_or_stopping_process_held_left_with_it(
        database: Database, sessions: async_sessionmaker[AsyncSession],
        games: list[str]) -> None:
    """Their sockets went without closing: the seats they held count as away from then
    (their opponents may claim the win in time), and no other seat does."""
    game_a, game_b = games
    one = ServerRegistry(sessions, timeout=20, server_id="one")
    two = ServerRegistry(sessions, timeout=20, server_id="two")
    for registry in (one, two):
        await registry.register()
    await two.set_presence({game_a: Counts(seat1=1)})
    await one.set_presence({game_b: Counts(seat0=1, seat1=2)})
    async with sessions() as session:
        await session.execute(update(Server).where(Server.id == "two").values(
            seen_at=datetime.now(UTC) - timedelta(minutes=1)))
        await session.commit()
    await one.beat()
    assert await left_seats(database) == {(game_a, 1)}
    await one.unregister()  # stopping: its sockets close with it
    assert await left_seats(database) == {(game_a, 1), (game_b, 0), (game_b, 1)}


async def left_seats(database: Database) -> set[tuple[str, int]]:
    rows = await database.read(select(Seat.game_id, Seat.seat).where(Seat.left_at.is_not(None)))
    return {(game_id, seat) for game_id, seat in rows}


async def test_a_process_whose_clock_runs_ahead_takes_no_one_for_dead(
        database: Database, sessions: async_sessionmaker[AsyncSession], games: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On PostgreSQL liveness is judged by the database's clock, the same for every
    process: one whose own clock is an hour ahead does not bury the others."""
    if database.kind != "postgres":
        pytest.skip("SQLite serves one process: its own clock is the only one")
    one = ServerRegistry(sessions, timeout=20, server_id="one")
    two = ServerRegistry(sessions, timeout=20, server_id="two")
    await one.register()
    await two.register()
    game_a = games[0]
    await two.set_presence({game_a: Counts(seat1=1)})

    class AnHourAhead(datetime):
        @classmethod
        def now(cls, tz: object = None) -> AnHourAhead:  # type: ignore[override]
            return datetime.now(UTC) + timedelta(hours=1)  # type: ignore[return-value]

    monkeypatch.setattr(servers_module, "datetime", AnHourAhead)
    assert await one.beat() == ([], False)
    assert await one.elsewhere([game_a]) == {game_a: Counts(seat1=1)}
