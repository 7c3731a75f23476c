"""Several servers and one computer player: two servers thinking for the same turn at the
same moment (held at a barrier until both have decided) put one action in the log; the
other gets a duplicate ack, and nothing changes."""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import insert

from app.db.models import Player
from app.db.session import make_sessionmaker
from app.realtime.clock import SystemClock
from app.services.computer import ComputerPlayers
from tests.api.test_computer import ThreadThinkers
from tests.factories import Database, log_rows, servers


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
