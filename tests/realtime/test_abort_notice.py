"""Aborting a game (docs/lobby.md, "Abort"): every socket on it is told, it cannot be played
or joined any more, the lobby and the summary say ``aborted``; and an abort racing an
action, on one server or on two, leaves the log and the admin's record consistent.

Every test runs on SQLite and on PostgreSQL (the ``make_app`` and ``database`` fixtures)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db import repository
from app.db.models import AdminAction
from app.services.games import Accepted, ServiceError
from tests.factories import (
    Database,
    ProtocolClient,
    Table,
    admin_abort,
    browser,
    create_game,
    entry,
    game_row,
    game_summary,
    lobby_picture,
    log_rows,
    make_move,
    player,
    random_moves,
    serve,
    servers,
    started_game,
    submit_moves,
)

TIMEOUT = 10.0


def _abort_refused(client: TestClient, game_id: str) -> str:
    try:
        admin_abort(client, game_id)
    except ServiceError as error:
        return error.code
    raise AssertionError("the abort was not refused")


async def _admin_actions(database: Database, game_id: str) -> list[Any]:
    return await database.read(select(AdminAction).where(AdminAction.game_id == game_id))


# ---------------------------------------------------------------------- over the sockets

def test_an_abort_reaches_every_socket_and_ends_the_game(
        make_app: Callable[..., FastAPI], database: Database) -> None:
    with serve(make_app(lobby_debounce=0.01)) as ann:
        bob = browser(ann)
        player(ann, "Ann")
        player(bob, "Bob")
        game_id = create_game(ann, listed=True, first_player="creator")["game_id"]
        assert bob.post(f"/api/games/{game_id}/join", json={}).status_code == 200
        make_move(ann, game_id)
        make_move(ann, game_id)
        sockets = [ProtocolClient(ann, game_id, timeout=TIMEOUT),
                   ProtocolClient(bob, game_id, timeout=TIMEOUT),
                   ProtocolClient(browser(ann), game_id, timeout=TIMEOUT)]
        assert [s.join()["seat"] for s in sockets] == [0, 1, None]

        admin_abort(ann, game_id, "reported for cheating", "127.0.0.1")
        for socket in sockets:
            assert socket.receive_until("aborted") == {"type": "aborted", "cause": "admin",
                                                       "reason": "reported for cheating"}
        # No move is taken any more, from either seat.
        for socket in sockets[:2]:
            assert socket.view is not None
            move = socket.view.get("legal_actions", [{"notation": "build:lumber_yard"}])
            error = socket.act(move[0]["notation"], 2)
            assert error["type"] == "error" and error["code"] == "aborted", error
        summary = game_summary(ann, game_id)
        assert (summary["status"], summary["version"], summary["to_act"]) == ("aborted", 2,
                                                                              None)
        assert summary["abort_reason"] == "reported for cheating"
        with ProtocolClient(browser(ann), game_id, timeout=TIMEOUT) as late:
            welcome = late.join()
            assert welcome["status"] == "aborted" and welcome["version"] == 2
            assert welcome["abort_reason"] == "reported for cheating", "a reload keeps why"
        # The lobby shows it aborted to its players and no longer lists it to watch.
        lobby = lobby_picture(ann)
        assert entry(lobby, "live", game_id) is None
        assert entry(lobby, "mine", game_id)["status"] == "aborted"  # type: ignore[index]
        # And the admin's action is on record with the game.
        [record] = asyncio.run(_admin_actions(database, game_id))
        assert record.kind == "abort" and record.client == "127.0.0.1"
        assert record.detail == {"reason": "reported for cheating", "version": 2,
                                 "was": "active"}
        assert _abort_refused(ann, game_id) == "not_running"
        for socket in sockets:
            socket.close()


def test_an_aborted_waiting_game_cannot_be_joined(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(lobby_debounce=0.01)) as ann:
        player(ann, "Ann")
        for listed in (False, True):
            created = create_game(ann, listed=listed)
            game_id = created["game_id"]
            with ProtocolClient(ann, game_id, timeout=TIMEOUT) as creator:
                assert creator.join()["seat"] == 0
                admin_abort(ann, game_id)
                assert creator.receive_until("aborted")["type"] == "aborted"
                error = creator.act("pick:the_pyramids", 0)
                assert error["code"] == "aborted", error
            other = browser(ann)
            player(other, "Bob")
            for body in ({"invite_code": created["invite_code"]}, *([{}] if listed else [])):
                joined = other.post(f"/api/games/{game_id}/join", json=body)
                assert joined.status_code == 409, joined.text
                assert joined.json()["error"]["code"] == "not_joinable"
            summary = game_summary(ann, game_id)
            assert summary["status"] == "aborted"
            assert [s["taken"] for s in summary["seats"]] == [True, False]
            assert entry(lobby_picture(ann), "open", game_id) is None


# ---------------------------------------------------------------------- races

async def _consistent(database: Database, game_id: str) -> tuple[int, dict[str, Any]]:
    """The game is aborted, at the version of its log, and the admin's record names that
    same version: the abort came after every action in the log."""
    log = await log_rows(database, game_id)
    row = await game_row(database, game_id)
    [record] = await _admin_actions(database, game_id)
    assert [r.seq for r in log] == list(range(1, len(log) + 1))
    assert (row.status, row.version) == ("aborted", len(log))
    assert record.detail["version"] == len(log), (record.detail, len(log))
    return len(log), record.detail


async def test_an_abort_racing_an_action_on_one_server(database: Database) -> None:
    outcomes = set()
    async with servers(database) as (server,):
        service = server.service
        for abort_first in (False, True, False, True):
            game_id, _ = await started_game(service)
            game, _ = await service.current(game_id)
            action = game.legal_actions()[0].to_json()
            submit = service.submit(game_id, 0, action, 0, "c-1")
            abort = service.abort(game_id, reason="race", client=None)
            results = await asyncio.gather(*((abort, submit) if abort_first
                                             else (submit, abort)), return_exceptions=True)
            acted = results[1] if abort_first else results[0]
            assert None in results, results  # the abort always goes through
            played, _ = await _consistent(database, game_id)
            if isinstance(acted, Accepted):
                assert played == 1 and acted.version == 1
            else:
                assert isinstance(acted, ServiceError) and acted.code == "aborted", acted
                assert played == 0
            outcomes.add(played)
            published = [m for g, m in server.published if g == game_id]
            assert [m.get("version") for m in published if "updates" in m] == \
                ([1] if played else [])
            assert "aborted" in published[-1]
    assert outcomes == {0, 1}, "both orders were tried"


async def test_an_abort_racing_an_action_on_two_servers(database: Database,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """Server one aborts while server two is about to write a move (the move is refused);
    server two aborts after reading the game while server one commits a move (the abort
    is recorded after that move; after the last move, it is refused: the game is over)."""
    async with servers(database, 2) as (one, two):
        # The move waits to write; the abort lands first.
        game_id, _ = await started_game(one.service)
        game, _ = await two.service.current(game_id)
        action = game.legal_actions()[0].to_json()
        hold, release = asyncio.Event(), asyncio.Event()
        record_move = repository.record_move

        async def held_write(*args: Any, **kwargs: Any) -> bool:
            hold.set()
            await release.wait()
            return await record_move(*args, **kwargs)

        monkeypatch.setattr(repository, "record_move", held_write)
        move = asyncio.create_task(two.service.submit(game_id, 0, action, 0, "m"))
        await hold.wait()
        await one.service.abort(game_id, reason="race", client=None)
        release.set()
        with pytest.raises(ServiceError) as refused:
            await move
        assert refused.value.code == "aborted"
        assert await _consistent(database, game_id) == (0, {"reason": "race", "version": 0,
                                                            "was": "active"})
        assert two.published == []
        monkeypatch.setattr(repository, "record_move", record_move)

        # The abort has read the game; a move is committed before it writes.
        for last in (False, True):
            if last:  # one move before the end
                game_id, _ = await started_game(one.service)
                game, _ = await one.service.current(game_id)
                *moves, (seat, action) = random_moves(game, seed=9)
                version = await submit_moves(one.service, game_id, moves)
            else:
                game_id, _ = await started_game(one.service)
                game, version = await one.service.current(game_id)
                seat, action = 0, game.legal_actions()[0].to_json()
            read = two.service._row
            has_read, go_on = asyncio.Event(), asyncio.Event()

            async def row_then_wait(session: Any, gid: str, read: Any = read,
                                    has_read: asyncio.Event = has_read,
                                    go_on: asyncio.Event = go_on) -> Any:
                row = await read(session, gid)
                has_read.set()
                await go_on.wait()
                return row

            monkeypatch.setattr(two.service, "_row", row_then_wait)
            abort = asyncio.create_task(two.service.abort(game_id, reason="late",
                                                          client=None))
            await has_read.wait()
            accepted = await one.service.submit(game_id, seat, action, version, None)
            go_on.set()
            result = await asyncio.gather(abort, return_exceptions=True)
            monkeypatch.setattr(two.service, "_row", read)
            assert accepted.version == version + 1
            if last:
                assert isinstance(result[0], ServiceError), result
                assert result[0].code == "not_running"
                row = await game_row(database, game_id)
                assert row.status == "finished", "a finished game was aborted"
                assert await _admin_actions(database, game_id) == []
            else:
                assert result == [None]
                assert await _consistent(database, game_id) == (
                    version + 1, {"reason": "late", "version": version + 1,
                                  "was": "active"})


def test_a_process_that_may_have_missed_a_notice_sends_every_socket_its_state(
        make_app: Callable[..., FastAPI], database: Database) -> None:
    """When a process's listener reconnects (hub.resync), a notice rung meanwhile is not
    lost: here another server aborts the game and its notice never reaches this one;
    after the resync each socket is sent the game's state again, status included."""
    app = make_app()
    with serve(app) as client:
        table = Table.open(client, timeout=TIMEOUT, wonder_selection="first_game")
        socket = table.seats[0]

        async def abort_elsewhere() -> None:
            async with servers(database) as (elsewhere,):
                await elsewhere.service.abort(table.game_id, reason="gone", client=None)

        client.portal.call(abort_elsewhere)
        assert [m for m in socket.barrier() if m["type"] == "aborted"] == []
        client.portal.call(app.state.hub.resync)
        state = socket.receive_until("state")
        assert (state["status"], state["abort_reason"]) == ("aborted", "gone")
        table.close()
