"""Several servers and one computer player: two servers thinking for the same turn at the
same moment (held at a barrier until both have decided) put one action in the log; the
other gets a duplicate ack, and nothing changes."""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert

from app.clock import SystemClock
from app.db.models import Player
from app.db.session import make_sessionmaker
from app.services.computer import STALLED_AFTER, ComputerPlayers
from tests.api.test_computer import ThreadThinkers
from tests.factories import (
    Database,
    ManualWall,
    log_rows,
    random_moves,
    servers,
    submit_moves,
)


class RacingThinkers(ThreadThinkers):
    """Each decision waits for the other server's decision of the same turn."""

    def __init__(self, barrier: threading.Barrier, decided: list[int]) -> None:
        super().__init__(1)
        self._barrier = barrier
        self._decided = decided

    async def move(self, fn: Callable[..., Any], *args: Any) -> Any:
        def raced(*inner: Any) -> Any:
            action = fn(*inner)
            self._barrier.wait(60)  # both decided: both submit now
            self._decided.append(1)
            return action
        return await super().move(raced, *args)


async def test_two_servers_moving_for_the_computer_at_once_move_once(
        database: Database) -> None:
    barrier = threading.Barrier(2)
    decided: list[int] = []
    async with servers(database, 2) as (a, b):
        players = [ComputerPlayers(server.service, make_sessionmaker(server.engine),
                                   database.settings(), RacingThinkers(barrier, decided),
                                   clock=SystemClock())
                   for server in (a, b)]
        for server, computer in zip((a, b), players, strict=True):
            server.service.watch(computer.on_applied)
        human = secrets.token_hex(8)
        await database.write(insert(Player).values(id=human, name="Ann"))
        game_id = await a.service.create_computer_game(human, "random", first_player=1)
        try:
            for _ in range(4):  # four turns of the computer, each asked of both at once
                for computer in players:
                    computer.consider(game_id)
                await asyncio.gather(*(computer.settle() for computer in players))
                game, version = await a.service.current(game_id)
                assert game.to_act == 0
                await a.service.submit(game_id, 0, game.legal_actions()[0].to_json(),
                                       version, None)
        finally:
            for computer in players:
                await computer.close()
        rows = await log_rows(database, game_id)
        computer_moves = [row for row in rows if row.seat == 1]
        assert len(computer_moves) >= 4
        # Every decision was made by both servers, and logged once.
        assert len(decided) == 2 * len(computer_moves)
        assert [row.client_id for row in computer_moves] == [
            f"computer:{row.seq - 1}" for row in computer_moves]
        assert [row.seq for row in rows] == list(range(1, len(rows) + 1))


async def test_the_sweep_moves_where_the_computer_has_waited_and_analyses_what_was_missed(
        database: Database) -> None:
    """A server stopped between a player's move and the computer's: any server's sweep
    moves for the computer once it has waited long enough, and analyses a finished game
    whose server stopped before analysing it."""
    wall = ManualWall(datetime.now(UTC))
    settings = database.settings(analysis_enabled=True, analysis_iterations=2)
    async with servers(database, 1, wall=wall) as (server,):
        computer = ComputerPlayers(server.service, make_sessionmaker(server.engine), settings,
                                   ThreadThinkers(1), clock=SystemClock())
        human = secrets.token_hex(8)
        await database.write(insert(Player).values(id=human, name="Ann"))
        # Made with nobody listening: as if its server had stopped at once.
        game_id = await server.service.create_computer_game(human, "random", first_player=1)
        try:
            await computer.sweep()
            await computer.settle()
            assert (await server.service.current(game_id))[1] == 0, "not waited long yet"
            wall.advance(STALLED_AFTER.total_seconds() + 1)
            await computer.sweep()
            await computer.settle()
            assert (await server.service.current(game_id))[1] == 1

            # Played to its end with nobody listening: no analysis yet.
            game, _ = await server.service.current(game_id)
            await submit_moves(server.service, game_id, random_moves(game))
            await computer.sweep_analyses()
            await computer.settle()
        finally:
            await computer.close()
        assert (await computer.analysis(game_id))["status"] == "done"
