"""Overload: a move beyond what the server works on and lets wait is refused at once
(``busy``), changes nothing, and is applied once when sent again."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.db import repository
from app.services.admission import Admission
from app.services.games import Accepted, ServiceError
from tests.factories import Database, log_rows, servers, started_game


async def test_a_move_beyond_the_line_is_refused_at_once_and_applied_when_sent_again(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    async with servers(database) as (server,):
        service = server.service
        service.admission = Admission(working=1, waiting=1)
        game_id, _ = await started_game(service)
        other_id, _ = await started_game(service)
        third_id, _ = await started_game(service)

        # The first move is held inside the database; a second waits for its turn.
        inside, release = asyncio.Event(), asyncio.Event()
        move_context = repository.move_context

        async def held(*args: Any, **kwargs: Any) -> Any:
            if args[1] == game_id:
                inside.set()
                await release.wait()
            return await move_context(*args, **kwargs)

        monkeypatch.setattr(repository, "move_context", held)
        actions = {}
        for gid in (game_id, other_id, third_id):
            game, _ = await service.current(gid)
            actions[gid] = game.legal_actions()[0].to_json()
        first = asyncio.create_task(service.submit(game_id, 0, actions[game_id], 0, "a"))
        await inside.wait()
        second = asyncio.create_task(service.submit(other_id, 0, actions[other_id], 0, "b"))
        while service.admission.waiting == 0:
            await asyncio.sleep(0)

        # The third finds the one working and the one waiting: refused, without waiting.
        with pytest.raises(ServiceError) as refused:
            await service.submit(third_id, 0, actions[third_id], 0, "c")
        assert refused.value.code == "busy" and refused.value.status == 503
        assert refused.value.params == {"retry_after": 1}
        assert await log_rows(database, third_id) == []

        release.set()
        assert await first == Accepted(1) and await second == Accepted(1)
        # Sent again with the same client id once there is room: applied, once.
        assert await service.submit(third_id, 0, actions[third_id], 0, "c") == Accepted(1)
        assert await service.submit(third_id, 0, actions[third_id], 0, "c") == \
            Accepted(1, duplicate=True)
        assert [r.seq for r in await log_rows(database, third_id)] == [1]
        assert service.admission.refused == 1


async def test_moves_queued_behind_one_game_leave_the_turns_to_other_games(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two turns: one game's move is inside the database, a second move of that game waits
    for it (its game's lock); another game's move still gets the second turn."""
    async with servers(database) as (server,):
        service = server.service
        service.admission = Admission(working=2, waiting=0)
        busy_game, _ = await started_game(service)
        other_game, _ = await started_game(service)
        inside, release = asyncio.Event(), asyncio.Event()
        move_context = repository.move_context

        async def held(*args: Any, **kwargs: Any) -> Any:
            if args[1] == busy_game and not release.is_set():
                inside.set()
                await release.wait()
            return await move_context(*args, **kwargs)

        monkeypatch.setattr(repository, "move_context", held)
        game, _ = await service.current(busy_game)
        first = game.legal_actions()[0].to_json()
        held_move = asyncio.create_task(service.submit(busy_game, 0, first, 0, "first"))
        await inside.wait()
        queued = asyncio.create_task(service.submit(busy_game, 0, first, 0, "again"))
        await asyncio.sleep(0)  # the queued move runs up to the game's lock
        other, _ = await service.current(other_game)
        assert await service.submit(other_game, 0, other.legal_actions()[0].to_json(), 0,
                                    "other") == Accepted(1)
        release.set()
        assert await held_move == Accepted(1)
        with pytest.raises(ServiceError) as stale:  # the same move at the old version
            await queued
        assert stale.value.code == "stale_version"
