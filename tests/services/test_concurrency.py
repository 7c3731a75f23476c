"""Races: actions submitted at the same time, on one server and on two servers sharing the
database; the same action sent twice; and nobody hears of an action before it is stored."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest
from sqlalchemy import event

from app.db import repository
from app.db.pubsub import InProcessPubSub
from app.db.session import make_engine, make_sessionmaker
from app.engine import Game, Options
from app.services.games import Accepted, GameService, ServiceError
from app.services.notices import Moved
from tests.factories import (
    Database,
    first_decisions,
    game_row,
    log_rows,
    repeatable_seeds,
    servers,
    started_game,
)


async def replayed_hash(database: Database, game_id: str) -> str:
    row = await game_row(database, game_id)
    notations = [r.notation for r in await log_rows(database, game_id)]
    return Game.replay(row.seed, Options.from_json(row.options), notations).state_hash()


async def state(service: GameService, game_id: str) -> tuple[str, int]:
    game, version = await service.current(game_id)
    return game.state_hash(), version


async def two_legal_actions(service: GameService, game_id: str) -> tuple[int, int, list[Any]]:
    """The version, the seat to act and two different legal actions of it."""
    game, version = await service.current(game_id)
    seat = game.to_act
    assert seat is not None
    actions = [a.to_json() for a in game.legal_actions()]
    assert len(actions) >= 2
    return version, seat, actions[:2]


def outcome_of(result: Accepted | BaseException) -> str:
    if isinstance(result, Accepted):
        return "duplicate" if result.duplicate else "applied"
    assert isinstance(result, ServiceError), repr(result)
    return result.code


# ---------------------------------------------------------------------- one server

async def test_two_actions_at_the_same_version_on_one_server(database: Database) -> None:
    async with servers(database) as (server,):
        service = server.service
        game_id, _ = await started_game(service)
        for _round in range(3):
            version, seat, (first, second) = await two_legal_actions(service, game_id)
            results = await asyncio.gather(
                service.submit(game_id, seat, first, version, None),
                service.submit(game_id, seat, second, version, None),
                return_exceptions=True)
            assert sorted(outcome_of(r) for r in results) == ["applied", "stale_version"]
            winner = next(r for r in results if isinstance(r, Accepted))
            assert winner.version == version + 1
            applied = first if isinstance(results[0], Accepted) else second
            rows = await log_rows(database, game_id)
            assert [r.seq for r in rows] == list(range(1, version + 2))
            assert rows[-1].action == applied
        assert await state(service, game_id) == (await replayed_hash(database, game_id), 3)
        assert [m["version"] for _, m in server.published] == [1, 2, 3]


# ---------------------------------------------------------------------- two servers

async def race_at_the_write(monkeypatch: pytest.MonkeyPatch,
                            *submissions: Awaitable[Accepted]) -> list[Any]:
    """Run the submissions together, holding each just before it writes until all are
    there: each has passed the version check, so only the database can decide."""
    all_there = asyncio.Barrier(len(submissions))
    record_move = repository.record_move

    async def in_step(*args: Any, **kwargs: Any) -> bool:
        await asyncio.wait_for(all_there.wait(), 10)
        return await record_move(*args, **kwargs)

    monkeypatch.setattr(repository, "record_move", in_step)
    try:
        return await asyncio.gather(*submissions, return_exceptions=True)
    finally:
        monkeypatch.setattr(repository, "record_move", record_move)


async def test_two_servers_racing_for_the_same_seq(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both servers check the version, both find it current and both write the next seq:
    the (game_id, seq) primary key lets exactly one of them commit."""
    async with servers(database, 2) as (one, two):
        game_id, _ = await started_game(one.service)
        # Both have the game replayed in memory.
        assert await state(one.service, game_id) == await state(two.service, game_id)
        version, seat, (first, second) = await two_legal_actions(one.service, game_id)

        results = await race_at_the_write(
            monkeypatch,
            one.service.submit(game_id, seat, first, version, "from-one"),
            two.service.submit(game_id, seat, second, version, "from-two"))

        assert sorted(outcome_of(r) for r in results) == ["applied", "stale_version"], results
        winner, loser = (one, two) if isinstance(results[0], Accepted) else (two, one)
        applied = first if winner is one else second
        rows = await log_rows(database, game_id)
        assert [(r.seq, r.action) for r in rows] == [(1, applied)]
        assert len(winner.published) == 1 and loser.published == []

        # The loser's replay had the refused action applied: it must catch up to the log.
        expected = (await replayed_hash(database, game_id), 1)
        assert await state(winner.service, game_id) == expected
        assert await state(loser.service, game_id) == expected

        # And the game goes on through either server.
        game, _ = await loser.service.current(game_id)
        assert game.to_act is not None
        nxt = game.legal_actions()[0].to_json()
        assert (await loser.service.submit(game_id, game.to_act, nxt, 1, None)).version == 2
        expected = (await replayed_hash(database, game_id), 2)
        assert await state(winner.service, game_id) == expected
        assert await state(loser.service, game_id) == expected


async def test_two_servers_playing_one_game_in_turn_and_in_races(database: Database) -> None:
    """Rounds of two servers each submitting a legal action at the current version: every
    round applies exactly one, and both servers always agree with the log."""
    chooser = random.Random(3)
    async with servers(database, 2) as (one, two):
        game_id, _ = await started_game(one.service)
        for round_ in range(1, 13):
            game, version = await (one if round_ % 2 else two).service.current(game_id)
            assert version == round_ - 1
            seat = game.to_act
            assert seat is not None
            picks = [chooser.choice(game.legal_actions()).to_json() for _ in range(2)]
            results = await asyncio.gather(
                one.service.submit(game_id, seat, picks[0], version, f"one-{round_}"),
                two.service.submit(game_id, seat, picks[1], version, f"two-{round_}"),
                return_exceptions=True)
            assert sorted(outcome_of(r) for r in results) == ["applied", "stale_version"], (
                round_, results)
            expected = (await replayed_hash(database, game_id), round_)
            assert await state(one.service, game_id) == expected
            assert await state(two.service, game_id) == expected
        rows = await log_rows(database, game_id)
        assert [r.seq for r in rows] == list(range(1, 13))
        assert len(one.published) + len(two.published) == 12


async def test_a_move_on_a_replay_the_log_has_left_is_refused_and_writes_nothing(
        database: Database) -> None:
    """Server one's replay is a version behind the log (it has not heard of server two's
    move yet) and the move is legal there: one writes it at once, the version guard
    refuses it, and the client hears stale_version with the log's version, as if one had
    read the game first. Nothing is written, and one's replay equals the log after."""
    async with servers(database, 2) as (one, two):
        game_id, _ = await started_game(one.service)
        game, _ = await one.service.current(game_id)
        assert await one.service.submit(game_id, 0, game.legal_actions()[0].to_json(), 0,
                                        None) == Accepted(1)
        game, _ = await two.service.current(game_id)
        assert game.to_act is not None
        assert await two.service.submit(game_id, game.to_act,
                                        game.legal_actions()[0].to_json(), 1, None) == \
            Accepted(2)
        behind, version = one.service._cache[game_id].game, 1
        assert one.service._cache[game_id].version == version
        seat = behind.to_act
        assert seat is not None
        with pytest.raises(ServiceError) as refused:
            await one.service.submit(game_id, seat, behind.legal_actions()[-1].to_json(),
                                     version, None)
        assert (refused.value.code, refused.value.params) == (
            "stale_version", {"version": 2, "sent": 1})
        assert [r.seq for r in await log_rows(database, game_id)] == [1, 2]
        assert await state(one.service, game_id) == (await replayed_hash(database, game_id), 2)
        assert len(one.published) == 1


async def test_a_move_on_a_current_replay_is_one_write(database: Database) -> None:
    """A move on a game whose replay this server holds at the log's head is one statement
    on PostgreSQL (the version guard, the log entry and the doorbells together) and two in
    one transaction on SQLite; nothing is read first. (A seat's first decision is read
    first: its deadline is the game row's.)"""
    async with servers(database) as (server,):
        service = server.service
        game_id, _ = await started_game(service)
        await first_decisions(service, game_id)
        statements: list[str] = []
        event.listen(server.engine.sync_engine, "before_cursor_execute",
                     lambda _c, _cur, sql, *_: statements.append(sql))
        game, _ = await service.current(game_id)
        statements.clear()
        assert game.to_act is not None
        await service.submit(game_id, game.to_act, game.legal_actions()[0].to_json(), 2, "c")
        kinds = [sql.split()[0].upper() for sql in statements]
        assert kinds == (["WITH"] if database.kind == "postgres" else ["UPDATE", "INSERT"])
        assert await state(service, game_id) == (await replayed_hash(database, game_id), 3)


async def test_a_game_played_on_is_the_last_one_dropped_from_memory(
        database: Database) -> None:
    """With room for two replays, a game moving (with nothing read first) stays in memory
    when a third game is opened; the game only looked at once goes."""
    engine = make_engine(database.url, database.schema)
    try:
        service = GameService(make_sessionmaker(engine), InProcessPubSub(),
                              database.settings(game_cache_size=2), seeds=repeatable_seeds())
        hot, _ = await started_game(service)
        cold, _ = await started_game(service)
        third, _ = await started_game(service)
        game, _ = await service.current(hot)  # the replay in memory, moved on in place
        await service.submit(hot, 0, game.legal_actions()[0].to_json(), 0, None)
        await service.current(cold)
        for version in range(1, 4):  # nothing read first: the replay is at the head
            assert game.to_act is not None
            await service.submit(hot, game.to_act, game.legal_actions()[0].to_json(),
                                 version, None)
        await service.current(third)
        assert set(service._cache) == {hot, third}
    finally:
        await engine.dispose()


# ---------------------------------------------------------------------- the same action twice

async def test_the_same_client_id_sent_again_is_applied_once(database: Database) -> None:
    async with servers(database) as (server,):
        service = server.service
        game_id, _ = await started_game(service)
        version, seat, (action, _) = await two_legal_actions(service, game_id)
        assert await service.submit(game_id, seat, action, version, "mine") == Accepted(1)
        # Sent again (the client never saw the ack), even with the version it now knows.
        for again_at in (version, version + 1):
            again = await service.submit(game_id, seat, action, again_at, "mine")
            assert again == Accepted(1, duplicate=True)
        assert [r.seq for r in await log_rows(database, game_id)] == [1]
        assert len(server.published) == 1
        assert (await state(service, game_id))[1] == 1


async def test_the_same_client_id_sent_twice_at_once_is_applied_once(
        database: Database) -> None:
    async with servers(database) as (server,):
        service = server.service
        game_id, _ = await started_game(service)
        version, seat, (action, _) = await two_legal_actions(service, game_id)
        results = await asyncio.gather(
            *(service.submit(game_id, seat, action, version, "mine") for _ in range(3)),
            return_exceptions=True)
        assert sorted(outcome_of(r) for r in results) == ["applied", "duplicate", "duplicate"]
        assert {r.version for r in results if isinstance(r, Accepted)} == {1}
        rows = await log_rows(database, game_id)
        assert [(r.seq, r.client_id) for r in rows] == [(1, "mine")]
        assert len(server.published) == 1


async def test_the_same_client_id_on_two_servers_at_once_is_applied_once(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client resends its action after reconnecting and reaches another server while the
    first is still writing it. The action is stored once, and the resend is acknowledged
    as a duplicate: it was applied (docs/protocol.md, Versions: "a resend after it was
    applied gets ack with duplicate: true ..., not stale_version"; and stale_version means
    "nothing was applied")."""
    async with servers(database, 2) as (one, two):
        game_id, _ = await started_game(one.service)
        await state(two.service, game_id)
        version, seat, (action, _) = await two_legal_actions(one.service, game_id)

        results = await race_at_the_write(
            monkeypatch,
            one.service.submit(game_id, seat, action, version, "mine"),
            two.service.submit(game_id, seat, action, version, "mine"))

        rows = await log_rows(database, game_id)
        assert [(r.seq, r.client_id) for r in rows] == [(1, "mine")]
        expected = (await replayed_hash(database, game_id), 1)
        assert await state(one.service, game_id) == expected
        assert await state(two.service, game_id) == expected
        assert len(one.published) + len(two.published) == 1
        assert sorted(outcome_of(r) for r in results) == ["applied", "duplicate"], results
        assert {r.version for r in results if isinstance(r, Accepted)} == {1}


async def test_a_client_id_is_used_once_per_game(database: Database) -> None:
    """The same id is a duplicate only for the same seat and the same action (in either of
    its forms); any other use is refused with client_id_reused and applies nothing."""
    async with servers(database) as (server,):
        service = server.service
        game_id, _ = await started_game(service)
        game, _ = await service.current(game_id)
        first, other = game.legal_actions()[:2]
        assert await service.submit(game_id, 0, first.to_json(), 0, "1") == Accepted(1)
        # The same action in notation is the same action.
        assert await service.submit(game_id, 0, str(first), 0, "1") == Accepted(1, True)

        game, _ = await service.current(game_id)
        assert game.to_act == 1
        answer = game.legal_actions()[0]
        # Seat 1's client picked the id seat 0's client used: refused, not swallowed.
        with pytest.raises(ServiceError) as refused:
            await service.submit(game_id, 1, answer.to_json(), 1, "1")
        assert (refused.value.code, refused.value.status) == ("client_id_reused", 409)
        # Seat 0 using its id again for another action: refused too.
        with pytest.raises(ServiceError) as refused:
            await service.submit(game_id, 0, other.to_json(), 0, "1")
        assert refused.value.code == "client_id_reused"
        assert [r.seq for r in await log_rows(database, game_id)] == [1]
        assert len(server.published) == 1

        assert await service.submit(game_id, 1, answer.to_json(), 1, "2") == Accepted(2)
        assert [(r.seat, r.client_id) for r in await log_rows(database, game_id)] == [
            (0, "1"), (1, "2")]


# ---------------------------------------------------------------------- commit, then publish

async def test_an_action_is_published_only_once_it_is_committed(database: Database) -> None:
    """A server's sockets hear of an action (its watchers are told) only after the
    transaction that stores it has committed: the order of the engine's commits and the
    watchers' calls says so, for each action, on the server that made it. (On PostgreSQL
    the move's one statement commits by itself: its completion is the commit.)"""
    async with servers(database, 2) as (one, two):
        order: list[tuple[str, str, int | None]] = []
        for server, name in ((one, "one"), (two, "two")):
            def written(_connection: Any, statement: Any, *_args: Any,
                        name: str = name) -> None:
                if "INSERT INTO game_action" in str(statement):
                    order.append(("commit", name, None))

            if database.kind == "postgres":
                event.listen(server.engine.sync_engine, "after_execute", written)
            else:
                event.listen(server.engine.sync_engine, "commit",
                             lambda _connection, name=name: order.append(("commit", name, None)))
            server.service.watch(lambda applied, name=name: order.append(
                ("told", name, applied.version)) if applied.here else None)
        game_id, _ = await started_game(one.service)
        for version in range(8):
            server = (one, two)[version % 2]
            game, _ = await server.service.current(game_id)
            assert game.to_act is not None
            del order[:]
            await server.service.submit(game_id, game.to_act,
                                        game.legal_actions()[0].to_json(), version, None)
            name = ("one", "two")[version % 2]
            told = order.index(("told", name, version + 1))
            assert ("commit", name, None) in order[:told], order
        published = [m for _, m in one.published + two.published]
        assert sorted(m["version"] for m in published) == list(range(1, 9))
        assert all(set(m["updates"]) == {"0", "1", "spectator"} for m in published)


async def test_a_refused_action_is_neither_stored_nor_published(database: Database) -> None:
    async with servers(database) as (server,):
        service = server.service
        game_id, _ = await started_game(service)
        before = await state(service, game_id)
        attempts: list[Callable[[], Awaitable[Accepted]]] = [
            lambda: service.submit(game_id, 1, "pick:the_sphinx", 0, "a"),  # not its turn
            lambda: service.submit(game_id, 0, {"type": "pick_wonder"}, 0, "b"),  # malformed
            lambda: service.submit(game_id, 0, "build:tavern", 0, "c"),  # not now
            lambda: service.submit(game_id, 0, "pick:the_sphinx", 5, "d"),  # stale
        ]
        codes = []
        for attempt in attempts:
            with pytest.raises(ServiceError) as refused:
                await attempt()
            codes.append(refused.value.code)
        assert codes == ["not_your_turn", "malformed", "illegal", "stale_version"]
        assert await log_rows(database, game_id) == []
        assert server.published == []
        assert await state(service, game_id) == before
        # The ids of refused actions stay free for the real thing.
        game, _ = await service.current(game_id)
        action = game.legal_actions()[0].to_json()
        assert await service.submit(game_id, 0, action, 0, "a") == Accepted(1)


# ---------------------------------------------------------------------- joining

async def test_two_people_joining_at_once_get_one_seat(database: Database) -> None:
    async with servers(database, 2) as (one, two):
        for services in ((one.service, one.service), (one.service, two.service)):
            created = await one.service.create_game(wonder_selection="draft",
                                                    creator_starts=False, name=None)
            game_id = created.credentials.game_id
            results = await asyncio.gather(
                *(s.join_game(game_id, created.invite_code, f"p{i}")
                  for i, s in enumerate(services)),
                return_exceptions=True)
            seats = [r for r in results if not isinstance(r, BaseException)]
            refusals = [r for r in results if isinstance(r, BaseException)]
            assert len(seats) == 1 and seats[0].seat == 1, results
            assert len(refusals) == 1 and isinstance(refusals[0], ServiceError)
            assert (refusals[0].code, refusals[0].status) == ("game_full", 409)
            # The token handed out is the one that holds the seat.
            assert await one.service.seat_for_token(game_id, seats[0].token) == 1
            assert (await one.service.summary(game_id))["status"] == "active"


async def test_a_doorbell_s_move_is_taken_in_or_the_log_is_read(database: Database) -> None:
    """Server two hears of server one's moves by their doorbells (version, seat, action):
    one version ahead of its replay, it takes the move in as it is; further ahead (a
    doorbell missed), it reads the log. Its watchers hear every version once, in order,
    and its replay always equals the log's."""
    async with servers(database, 2) as (one, two):
        heard: list[int] = []
        two.service.watch(lambda applied: heard.append(applied.version))
        game_id, _ = await started_game(one.service)
        await two.service.current(game_id)  # replayed at version 0
        rings: list[tuple[int, dict[str, Any], str]] = []
        for version in range(3):
            game, _ = await one.service.current(game_id)
            assert game.to_act is not None
            await one.service.submit(game_id, game.to_act, game.legal_actions()[0].to_json(),
                                     version, None)
            applied = one.published[-1][1]["updates"]["spectator"]
            rings.append((applied["seat"], applied["action"], applied["notation"]))
        assert await two.service.take(game_id, Moved(1, *rings[0])) == 1
        assert heard == [1]
        # The doorbell of version 2 was missed.
        assert await two.service.take(game_id, Moved(3, *rings[2])) == 3
        assert heard == [1, 2, 3]
        # A late doorbell changes nothing.
        assert await two.service.take(game_id, Moved(2, *rings[1])) == 3
        assert heard == [1, 2, 3]
        assert await state(two.service, game_id) == (await replayed_hash(database, game_id), 3)


async def test_a_resend_reaching_a_server_without_the_replay_is_acknowledged(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first server commits the action just after the second read the game's head and
    before it read the log (its replay was not in memory): the second answers with the
    duplicate ack, the game as its head said, never a stale version."""
    async with servers(database, 2) as (one, two):
        game_id, _ = await started_game(one.service)
        for _ in range(2):
            game, version = await one.service.current(game_id)
            await one.service.submit(game_id, game.to_act, game.legal_actions()[0].to_json(),
                                     version, None)
        game, version = await one.service.current(game_id)
        seat, action = game.to_act, game.legal_actions()[0].to_json()
        assert seat is not None
        two.service._cache.pop(game_id, None)  # not in two's memory (evicted, say)
        move_context = repository.move_context

        async def then_the_first_commits(*args: Any) -> Any:
            head = await move_context(*args)
            monkeypatch.setattr(repository, "move_context", move_context)
            assert await one.service.submit(game_id, seat, action, version, "x") == \
                Accepted(version + 1)
            return head

        monkeypatch.setattr(repository, "move_context", then_the_first_commits)
        assert await two.service.submit(game_id, seat, action, version, "x") == \
            Accepted(version + 1, duplicate=True)
        assert [r.seq for r in await log_rows(database, game_id)] == [1, 2, 3]


async def test_a_move_that_writes_nothing_rings_no_one(database: Database) -> None:
    """PostgreSQL: the notifications sent with a move go out only if its row was written
    (a planner free to ring before the guarded update would wake every process for a move
    that never was)."""
    if database.kind != "postgres":
        pytest.skip("notifications are PostgreSQL's")
    async with servers(database) as (server,):
        game_id, _ = await started_game(server.service)
        engine = make_engine(database.url, database.schema)
        listener = await asyncpg.connect(database.url.replace("postgresql+asyncpg", "postgresql"))
        heard: asyncio.Queue[str] = asyncio.Queue()
        await listener.add_listener("probe", lambda *args: heard.put_nowait(args[-1]))
        try:
            def move(version: int) -> repository.Move:
                return repository.Move(game_id, version, 0, {"type": "pick_wonder"}, "probe",
                                       None, status="active", to_act=1, winner=None,
                                       victory=None, now=datetime.now(UTC))

            async with make_sessionmaker(engine)() as session:
                # At version 0, version 5 is not the next: nothing is written, no one rung.
                assert not await repository.record_move(
                    session, move(5), [("probe", "never"), ("probe", "never either")])
                await session.commit()
                assert await repository.record_move(session, move(1), [("probe", "moved")])
                await session.commit()
            # Notifications arrive in commit order: a ring of the lost write would be first.
            assert await asyncio.wait_for(heard.get(), 10) == "moved"
            assert heard.empty()
        finally:
            await listener.close()
            await engine.dispose()
