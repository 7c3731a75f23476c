"""Fair starts (docs/protocol.md, "Fair starts"): until both seats have made a decision of
their own either player may abort the game, with no result and no rating change; each
seat's first decision has a deadline of its own, and missing it aborts the game (once,
whichever server notices); a creator may cancel a waiting game; a quick-match game nobody
starts ends aborted. On SQLite and PostgreSQL, on one server and on two."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select

from app.db.models import SeatResult
from app.services.clocks import TimeControl
from app.services.games import GameService, ServiceError
from app.services.lobby import LobbyService
from app.services.starts import FirstDecisions
from tests.factories import (
    Database,
    ManualWall,
    first_decisions,
    game_row,
    log_rows,
    servers,
)
from tests.services.test_clocks import BLITZ, START, at
from tests.services.test_ratings import account, changes, players, rated_game


async def refused(code: str, call: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        await call
    assert caught.value.code == code, caught.value
    return caught.value


async def decide(service: GameService, game_id: str) -> int:
    """The seat to act makes a decision (its first legal action): the version after."""
    game, version = await service.current(game_id)
    assert game.to_act is not None
    return (await service.submit(game_id, game.to_act, game.legal_actions()[0].to_json(),
                                 version, None)).version


async def results(database: Database) -> list[str]:
    return [game_id for (game_id,) in
            await database.read(select(SeatResult.game_id).distinct())]


# ---------------------------------------------------------------------- who has decided

def test_first_decisions_follow_the_actions_in_force() -> None:
    pick = {"type": "pick_wonder", "wonder": "the_pyramids"}
    decided = FirstDecisions().after(0, pick)
    assert decided.made(0) and not decided.made(1) and not decided.both_made
    decided = decided.after(0, {"type": "take_back", "seat": 0})  # agreed: undone
    assert not decided.made(0) and not decided.made(1)
    decided = decided.after(0, pick).after(1, pick)
    assert decided.made(0) and decided.made(1) and decided.both_made
    again = decided.after(1, {"type": "take_back", "seat": 1})
    assert again.made(0) and not again.made(1) and not again.both_made
    assert decided.after(1, pick).after(1, {"type": "take_back", "seat": 1}).both_made
    assert decided.after(0, {"type": "forfeit", "seat": 0, "reason": "resigned"}) == decided


# ---------------------------------------------------------------------- aborting

async def test_an_abort_before_both_have_decided_changes_no_rating(
        database: Database) -> None:
    ann, bob = await account(database, "ann"), await account(database, "bob")
    wall = ManualWall(START)
    async with servers(database, wall=wall) as (server,):
        service = server.service
        at_once = await rated_game(service, ann, bob, decided=False, time_control=BLITZ)
        await service.abort_by_player(at_once, 1)  # the joiner, before anyone decided
        after_one = await rated_game(service, ann, bob, decided=False, time_control=BLITZ)
        await decide(service, after_one)  # seat 0's first decision; seat 1 has made none
        await service.abort_by_player(after_one, 0)
        for game_id, seat in ((at_once, 1), (after_one, 0)):
            row = await game_row(database, game_id)
            assert (row.status, row.abort_cause, row.abort_seat, row.winner, row.deadline) \
                == ("aborted", "player", seat, None, None)
            assert (game_id, {"aborted": {"reason": None, "cause": "player", "seat": seat}}) \
                in server.published
            summary = await service.summary(game_id)
            assert (summary["status"], summary["abort_cause"], summary["ratings"]) == (
                "aborted", "player", [])
            assert await changes(database, game_id) == []
            await refused("aborted", service.resign(game_id, 1 - seat))
            await refused("aborted", service.abort_by_player(game_id, 1 - seat))
    assert [(p.rating, p.rated_games) for p in await players(database, ann, bob)] == [
        (1500.0, 0), (1500.0, 0)]
    assert await results(database) == []


async def test_an_abort_after_both_have_decided_is_refused_and_changes_nothing(
        database: Database) -> None:
    ann, bob = await account(database, "ann"), await account(database, "bob")
    async with servers(database) as (server,):
        service = server.service
        game_id = await rated_game(service, ann, bob, decided=False)
        # Before both decided nothing is at stake: a resignation is refused too.
        await refused("abort_instead", service.resign(game_id, 0))
        version = await first_decisions(service, game_id)
        for seat in (0, 1):
            await refused("abort_too_late", service.abort_by_player(game_id, seat))
        row = await game_row(database, game_id)
        assert (row.status, row.version, row.abort_cause) == ("active", version, None)
        assert len(await log_rows(database, game_id)) == version
        assert not [notice for notice in server.published if "aborted" in notice[1]]
        await service.resign(game_id, 1)  # now it is a game: its result counts
    assert [c.score for c in await changes(database, game_id)] == [1.0, 0.0]


async def test_a_take_back_of_a_first_decision_makes_the_game_abortable_again(
        database: Database) -> None:
    async with servers(database) as (server,):
        service = server.service
        created = await service.create_game(wonder_selection="draft", creator_starts=True,
                                            name=None)
        game_id = created.credentials.game_id
        await service.join_game(game_id, created.invite_code, None)
        await first_decisions(service, game_id)
        await service.offer_take_back(game_id, 1)
        await service.accept_take_back(game_id, 0)
        snapshot = await service.snapshot(game_id, None, lambda *_: {})
        assert snapshot.abortable and snapshot.first_move is not None
        await service.abort_by_player(game_id, 0)
        assert (await game_row(database, game_id)).abort_cause == "player"


# ---------------------------------------------------------------------- first decisions

async def test_a_missed_first_decision_aborts_the_game_once_whichever_server_notices(
        database: Database) -> None:
    ann, bob = await account(database, "ann"), await account(database, "bob")
    wall = ManualWall(START)
    async with servers(database, 2, wall=wall) as (one, two):
        nobody = await rated_game(one.service, ann, bob, decided=False, time_control=BLITZ)
        second_missing = await rated_game(one.service, ann, bob, decided=False,
                                          time_control=BLITZ)
        wall.advance(10)
        await decide(one.service, second_missing)  # seat 1 now has 30 s from here
        await two.service.current(nobody)  # replayed on both servers
        row = await game_row(database, nobody)
        assert (row.deadline, row.clock_running) == (at(30), None)
        snapshot = await two.service.snapshot(second_missing, None, lambda *_: {})
        assert (snapshot.abortable, snapshot.first_move) == (True, {"seat": 1,
                                                                    "remaining": 30_000})
        assert snapshot.clock == {"remaining": [300_000, 300_000], "running": None,
                                  "control": BLITZ.to_json()}
        wall.advance(19.999)
        assert await one.flags.sweep() == [] == await two.flags.sweep()
        wall.advance(0.001)  # the first game's deadline
        swept = await asyncio.gather(one.flags.sweep(), two.flags.sweep(),
                                     one.service.flag_fall(nobody))
        assert sorted([*swept[0], *swept[1]]) == [nobody] or swept[2] is True
        assert [*swept[0], *swept[1]].count(nobody) + (swept[2] is True) == 1
        wall.advance(10)  # the second game's
        swept = await asyncio.gather(one.flags.sweep(), two.flags.sweep())
        assert [*swept[0], *swept[1]] == [second_missing]
    for game_id, seat, actions in ((nobody, 0, 0), (second_missing, 1, 1)):
        row = await game_row(database, game_id)
        assert (row.status, row.abort_cause, row.abort_seat, row.winner) == (
            "aborted", "first_move", seat, None)
        assert len(await log_rows(database, game_id)) == actions
        assert await changes(database, game_id) == []
    assert [p.rated_games for p in await players(database, ann, bob)] == [0, 0]


async def test_a_first_decision_made_too_late_aborts_the_game_instead(
        database: Database) -> None:
    wall = ManualWall(START)
    async with servers(database, 2, wall=wall) as (one, two):
        created = await one.service.create_game(wonder_selection="draft",
                                                creator_starts=True, name=None)
        game_id = created.credentials.game_id
        await one.service.join_game(game_id, created.invite_code, None)
        game, version = await two.service.current(game_id)
        wall.advance(31)
        await refused("aborted", two.service.submit(
            game_id, 0, game.legal_actions()[0].to_json(), version, "late"))
        assert (game_id, {"aborted": {"reason": None, "cause": "first_move", "seat": 0}}) \
            in two.published
        await refused("aborted", one.service.submit(
            game_id, 0, game.legal_actions()[0].to_json(), version, "later"))
        assert await one.flags.sweep() == []
    row = await game_row(database, game_id)
    assert (row.status, row.abort_cause, row.abort_seat) == ("aborted", "first_move", 0)
    assert row.updated_at == at(30), "recorded at the deadline, not when the move came"
    assert await log_rows(database, game_id) == []


async def test_each_seat_s_first_decision_has_its_deadline_and_costs_no_clock(
        database: Database) -> None:
    wall = ManualWall(START)
    async with servers(database, wall=wall) as (server,):
        created = await server.service.create_game(
            wonder_selection="draft", creator_starts=True, name=None,
            time_control=TimeControl.correspondence(2))
        game_id = created.credentials.game_id
        await server.service.join_game(game_id, created.invite_code, None)
        assert (await game_row(database, game_id)).deadline == at(2 * 86_400)
        real_time = await server.service.create_game(
            wonder_selection="draft", creator_starts=True, name=None, time_control=BLITZ)
        blitz = real_time.credentials.game_id
        await server.service.join_game(blitz, real_time.invite_code, None)
        wall.advance(25)
        await decide(server.service, blitz)
        wall.advance(28)
        await decide(server.service, blitz)  # seat 1's first: not paid for either
        row = await game_row(database, blitz)
        assert (row.clock0_ms, row.clock1_ms, row.clock_running, row.deadline) == (
            300_000, 300_000, 1, at(53 + 300))


async def test_games_against_the_computer_have_no_first_decision_deadline(
        database: Database) -> None:
    ann = await account(database, "ann")
    wall = ManualWall(START)
    async with servers(database, wall=wall) as (server,):
        game_id = await server.service.create_computer_game(ann, "easy", first_player=0)
        assert (await game_row(database, game_id)).deadline is None
        wall.advance(3600)
        assert await server.flags.sweep() == []
        assert (await game_row(database, game_id)).status == "active"


async def test_a_quick_match_game_nobody_starts_ends_aborted(database: Database) -> None:
    ann, bob = await account(database, "ann"), await account(database, "bob")
    wall = ManualWall(START)
    async with servers(database, wall=wall) as (server,):
        game_id = await server.service.create_matched_game(ann, bob, rated=True)
        lobby = LobbyService(server.service._sessions, wall)
        assert game_id in [g["game_id"] for g in (await lobby.public())["live"]]
        wall.advance(30)
        assert await server.flags.sweep() == [game_id]
        assert game_id not in [g["game_id"] for g in (await lobby.public())["live"]]
    row = await game_row(database, game_id)
    assert (row.status, row.abort_cause, row.abort_seat) == ("aborted", "first_move", 0)
    assert [p.rated_games for p in await players(database, ann, bob)] == [0, 0]


# ---------------------------------------------------------------------- cancelling

async def test_a_creator_cancels_their_open_game_it_leaves_the_lobby_and_its_invite_says_so(
        database: Database) -> None:
    ann, bob = await account(database, "ann"), await account(database, "bob")
    async with servers(database) as (server,):
        service = server.service
        heard: list[tuple[str, dict[str, Any]]] = []

        async def listen(topic: str, message: dict[str, Any]) -> None:
            heard.append((topic, message))

        server.pubsub.subscribe(listen)
        created = await service.create_game(wonder_selection="draft", creator_starts=True,
                                            name=None, player_id=ann, listed=True)
        game_id = created.credentials.game_id
        lobby = LobbyService(service._sessions)
        assert game_id in [g["game_id"] for g in (await lobby.public())["open"]]
        heard.clear()
        await service.abort_by_player(game_id, 0)
        assert game_id not in [g["game_id"] for g in (await lobby.public())["open"]]
        assert (game_id, {"aborted": {"reason": None, "cause": "cancelled", "seat": 0}}) \
            in heard
        assert any(message.get("public") and ann in message.get("players", ())
                   for _, message in heard)
        error = await refused("not_joinable", service.join_game(
            game_id, created.invite_code, None, bob))
        assert error.params == {"status": "cancelled"}
        summary = await service.summary(game_id)
        assert (summary["status"], summary["abort_cause"]) == ("aborted", "cancelled")
        await refused("aborted", service.abort_by_player(game_id, 0))
