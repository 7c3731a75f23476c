"""Ratings: a rated game's result moves both players' Glicko-2 ratings, in the
transaction that ends it, once, whichever server (and however many at once) ends it;
resignations and time losses count, aborted games do not; every finished game is
summarised for profiles and statistics, and games that ended before summaries were kept
are summarised later; quick match pairs rated players by the nearest rating."""

from __future__ import annotations

import asyncio
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

import glicko2
import pytest
from sqlalchemy import delete, func, insert, select, text, update

from app.db import repository
from app.db.models import GameAction, Player, RatingChange, SeatResult, SeatWonder, Server
from app.db.pubsub import InProcessPubSub
from app.db.session import make_engine, make_sessionmaker
from app.engine import Game
from app.services.accounts import claim_guest_games
from app.services.clocks import TimeControl
from app.services.games import GameService, ServiceError
from app.services.matchmaking import QUEUE_LOCK, MatchmakingService
from app.services.ratings import PROVISIONAL_DEVIATION, Rating, aged, both_rated, rated
from app.services.results import Backfill, summarise
from tests.factories import Database, ManualWall, first_decisions, repeatable_seeds, servers

START = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
BLITZ = TimeControl.fischer(5, 3)


# ---------------------------------------------------------------------- the arithmetic

def test_a_win_over_an_equal_moves_both_by_the_same_amount() -> None:
    winner, loser = both_rated(Rating(), Rating(), 1.0)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.deviation < 350 and loser.deviation < 350


def test_a_shared_victory_between_equals_changes_no_rating() -> None:
    first, second = both_rated(Rating(1600, 80), Rating(1600, 80), 0.5)
    assert first.rating == pytest.approx(1600) == second.rating


def test_beating_a_stronger_player_gains_more() -> None:
    against_stronger = rated(Rating(1500, 100), Rating(1800, 100), 1.0).rating - 1500
    against_weaker = rated(Rating(1500, 100), Rating(1200, 100), 1.0).rating - 1500
    assert against_stronger > 2 * against_weaker > 0


def test_glickmans_worked_example() -> None:
    """Glickman's paper (glicko2.pdf): 1500/200 plays 1400/30 (win), 1550/100 (loss) and
    1700/300 (loss) in one period and ends at 1464.06 / 151.52. Our periods hold one
    game, so here the library itself is checked on the paper's figures."""
    player = glicko2.Player(rating=1500, rd=200, vol=0.06)
    player.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert (player.rating, player.rd) == (pytest.approx(1464.06, abs=0.01),
                                          pytest.approx(151.52, abs=0.01))


def test_a_rating_is_provisional_until_its_deviation_falls() -> None:
    assert Rating().provisional
    assert not Rating(1500, PROVISIONAL_DEVIATION).provisional
    rating, other = Rating(), Rating()
    games = 0
    while rating.provisional:
        rating, other = both_rated(rating, other, 0.5)
        games += 1
    assert 5 <= games <= 30
    with pytest.raises(ValueError):
        rated(Rating(), Rating(), 0.7)


# ---------------------------------------------------------------------- through a server

async def account(database: Database, username: str, rating: float = 1500.0,
                  deviation: float = 350.0, games: int = 0) -> str:
    player_id = secrets.token_hex(8)
    await database.write(insert(Player).values(
        id=player_id, name=username, username=username, login=username.lower(),
        password_hash="not used here", registered_at=START, rating=rating,
        rating_deviation=deviation, rated_games=games))
    return player_id


async def guest_player(database: Database, name: str) -> str:
    player_id = secrets.token_hex(8)
    await database.write(insert(Player).values(id=player_id, name=name))
    return player_id


async def rated_game(service: GameService, first: str, second: str, *,
                     decided: bool = True, **options: Any) -> str:
    """A rated game between two accounts, seat 0 to act first; ``decided``: each seat has
    made its first decision (from then on its result counts)."""
    created = await service.create_game(wonder_selection="draft", creator_starts=True,
                                        name=None, player_id=first, rated=True, **options)
    game_id = created.credentials.game_id
    await service.join_game(game_id, created.invite_code, None, second)
    if decided:
        await first_decisions(service, game_id)
    return game_id


async def players(database: Database, *ids: str) -> list[Any]:
    rows = {row.id: row for row in await database.read(select(Player))}
    return [rows[player_id] for player_id in ids]


async def changes(database: Database, game_id: str) -> list[Any]:
    return await database.read(select(RatingChange).where(RatingChange.game_id == game_id)
                               .order_by(RatingChange.seat))


async def test_a_resignation_moves_both_ratings(database: Database) -> None:
    ann, bob = await account(database, "ann"), await account(database, "bob")
    async with servers(database) as (server,):
        game_id = await rated_game(server.service, ann, bob)
        await server.service.resign(game_id, 1)
    winner, loser = await players(database, ann, bob)
    expected = both_rated(Rating(), Rating(), 1.0)
    assert (winner.rating, loser.rating) == (pytest.approx(expected[0].rating),
                                             pytest.approx(expected[1].rating))
    assert (winner.rated_games, loser.rated_games) == (1, 1)
    history = await changes(database, game_id)
    assert [(c.player_id, c.score, c.rating_before) for c in history] == [
        (ann, 1.0, 1500.0), (bob, 0.0, 1500.0)]
    assert history[0].rating_after == pytest.approx(winner.rating)
    results = await database.read(select(SeatResult).where(SeatResult.game_id == game_id)
                                  .order_by(SeatResult.seat))
    assert [(r.player_id, r.result, r.victory, r.rated) for r in results] == [
        (ann, "win", "resigned", True), (bob, "loss", "resigned", True)]


async def test_an_unrated_game_and_an_aborted_rated_game_move_nothing(
        database: Database) -> None:
    ann, bob = await account(database, "ann"), await account(database, "bob")
    async with servers(database) as (server,):
        created = await server.service.create_game(wonder_selection="draft",
                                                   creator_starts=True, name=None,
                                                   player_id=ann)
        unrated = created.credentials.game_id
        await server.service.join_game(unrated, created.invite_code, None, bob)
        await first_decisions(server.service, unrated)
        await server.service.resign(unrated, 0)
        aborted = await rated_game(server.service, ann, bob)
        await server.service.abort(aborted, reason="test", client=None)
        with pytest.raises(ServiceError) as refused:
            await server.service.resign(aborted, 0)
        assert refused.value.code == "aborted"
    assert [(p.rating, p.rated_games) for p in await players(database, ann, bob)] == [
        (1500.0, 0), (1500.0, 0)]
    assert await changes(database, unrated) == [] == await changes(database, aborted)
    summarised = await database.read(select(SeatResult.game_id).distinct())
    assert [game_id for (game_id,) in summarised] == [unrated]  # aborted: no result


async def test_rated_games_are_between_accounts(database: Database) -> None:
    ann, carl = await account(database, "ann"), await guest_player(database, "carl")
    async with servers(database) as (server,):
        service = server.service
        for creator in (carl, None):
            with pytest.raises(ServiceError) as refused:
                await service.create_game(wonder_selection="draft", creator_starts=True,
                                          name=None, player_id=creator, rated=True)
            assert refused.value.code == "rated_needs_account"
        created = await service.create_game(wonder_selection="draft", creator_starts=True,
                                            name=None, player_id=ann, rated=True)
        for joiner in (carl, None):
            with pytest.raises(ServiceError) as refused:
                await service.join_game(created.credentials.game_id, created.invite_code,
                                        None, joiner)
            assert refused.value.code == "rated_needs_account"
        with pytest.raises(ServiceError) as refused:
            await service.create_matched_game(ann, carl, rated=True)
        assert refused.value.code == "rated_needs_account"


async def test_two_servers_ending_a_rated_game_on_time_rate_it_once(
        database: Database) -> None:
    wall = ManualWall(START)
    ann, bob = await account(database, "ann"), await account(database, "bob")
    async with servers(database, 2, wall=wall) as (one, two):
        game_ids = [await rated_game(one.service, ann, bob, time_control=BLITZ)
                    for _ in range(3)]
        await two.service.current(game_ids[0])
        wall.advance(301)  # seat 1 (bob) to act in each, out of time
        ended = await asyncio.gather(one.flags.sweep(), two.flags.sweep(),
                                     one.service.flag_fall(game_ids[1]),
                                     two.service.flag_fall(game_ids[2]))
        assert sorted([*ended[0], *ended[1]] + [g for g, won in zip(
            game_ids[1:], ended[2:], strict=True) if won]) == sorted(game_ids)
    for game_id in game_ids:
        assert [(c.player_id, c.score) for c in await changes(database, game_id)] == [
            (ann, 1.0), (bob, 0.0)]
    winner, loser = await players(database, ann, bob)
    assert (loser.rated_games, winner.rated_games) == (3, 3)
    assert loser.rating < 1500 < winner.rating


async def test_two_servers_resigning_at_once_rate_the_game_once(database: Database) -> None:
    ann, bob = await account(database, "ann"), await account(database, "bob")
    async with servers(database, 2) as (one, two):
        for _ in range(3):
            game_id = await rated_game(one.service, ann, bob)
            await two.service.current(game_id)
            results = await asyncio.gather(one.service.resign(game_id, 0),
                                           two.service.resign(game_id, 1),
                                           return_exceptions=True)
            assert sorted(type(r).__name__ for r in results) == ["Accepted", "ServiceError"]
            history = await changes(database, game_id)
            assert len(history) == 2
            assert sorted(c.score for c in history) == [0.0, 1.0]
    assert [p.rated_games for p in await players(database, ann, bob)] == [3, 3]


async def test_a_finished_game_is_summarised_and_old_ones_later(database: Database) -> None:
    ann, bob = await account(database, "ann"), await account(database, "bob")
    async with servers(database) as (server,):
        service = server.service
        game_id = await rated_game(service, ann, bob)
        game, version = await service.current(game_id)
        moves = 2  # the first decisions
        while not game.is_over and moves < 12:  # through the draft and into Age I
            seat = game.to_act
            assert seat is not None
            await service.submit(game_id, seat, game.legal_actions()[0].to_json(), version,
                                 None)
            game, version = await service.current(game_id)
            moves += 1
        await service.resign(game_id, 0)
        game, _ = await service.current(game_id)
        broken = await rated_game(service, ann, bob)
        await service.resign(broken, 1)

    async def summaries() -> list[Any]:
        rows = await database.read(select(SeatResult).where(SeatResult.game_id == game_id)
                                   .order_by(SeatResult.seat))
        drafted = await database.read(select(SeatWonder).where(SeatWonder.game_id == game_id))
        return [(r.result, r.points, r.first, r.actions, r.rated,
                 sorted((w.wonder, w.built) for w in drafted if w.seat == r.seat))
                for r in rows]

    stored = await summaries()
    assert stored == [(s.result, s.points, s.first, 13, True,
                       sorted((w, w in s.built) for w in s.wonders)) for s in summarise(game)]
    assert [len(seat[-1]) for seat in stored] == [4, 4]
    # As if the games had ended before summaries were kept: summarised by the sweep, once;
    # one whose log cannot be replayed is left out, and the others go on.
    await database.write(delete(SeatResult))
    await database.write(update(GameAction).where(GameAction.game_id == broken)
                         .values(action={"type": "nonsense"}))
    engine = make_engine(database.url, database.schema)
    try:
        backfill = Backfill(make_sessionmaker(engine))
        assert await backfill.run(10) == 1
        assert backfill.failed == {broken} and not backfill.finished
        assert await backfill.run(10) == 0
        assert backfill.finished  # nothing left to look at: it stops looking
    finally:
        await engine.dispose()
    assert await summaries() == stored


def test_a_summary_of_a_game_that_is_not_over_is_refused() -> None:
    with pytest.raises(ValueError):
        summarise(Game.new(seed=3))


async def test_quick_match_pairs_rated_players_by_the_nearest_rating(
        database: Database) -> None:
    low = await account(database, "low", rating=1200)
    mid = await account(database, "mid", rating=1480)
    high = await account(database, "high", rating=1900)
    near_high = await account(database, "near_high", rating=1820)
    casual = await account(database, "casual", rating=1500)
    for server_id in ("s1", "s2"):
        await database.write(insert(Server).values(id=server_id))
    engine = make_engine(database.url, database.schema)
    at = START
    try:
        queue = MatchmakingService(make_sessionmaker(engine))
        # Far apart, both wait (a gap of 150 at first).
        assert (await queue.play(high, "s1", rated=True, now=at)).partner is None
        assert (await queue.play(low, "s1", rated=True, now=at)).partner is None
        # Unrated: never paired with a rated player, however near.
        assert (await queue.play(casual, "s2", now=at)).partner is None
        # 1480 reaches 1200 only once low has waited 26 s (150 + 5 a second).
        assert (await queue.play(mid, "s2", rated=True, now=at + seconds(20))
                ).partner is None
        assert await queue.pair_waiting(now=at + seconds(20)) == []
        # 1820 is in high's gap at once: the nearest, paired with it, not with mid.
        paired = await queue.play(near_high, "s2", rated=True, now=at + seconds(21))
        assert paired.partner is not None and paired.partner.player_id == high
        assert (paired.partner.rated, paired.partner.rating) == (True, 1900.0)
        # low (1200) and mid (1480), waiting apart, meet when low's gap reaches 280.
        assert await queue.pair_waiting(now=at + seconds(25)) == []
        [(first, second)] = await queue.pair_waiting(now=at + seconds(26))
        assert (first.player_id, second.player_id) == (low, mid)
        assert (await queue.play(mid, "s2", now=at + seconds(27))).partner.player_id == casual
    finally:
        await engine.dispose()


def seconds(count: float) -> timedelta:
    return timedelta(seconds=count)


def test_a_rating_grows_less_certain_while_its_player_is_away() -> None:
    settled = Rating(1700, 50, 0.06)
    assert aged(settled, timedelta(days=6)) == settled
    week, year = aged(settled, timedelta(days=7)), aged(settled, timedelta(days=365))
    assert week.rating == year.rating == 1700
    assert 50 < week.deviation < 52 and 80 < year.deviation < 100
    assert aged(settled, timedelta(days=100_000)).deviation == 350
    # Back after a year, a game moves the rating more than it would have.
    assert (rated(year, Rating(1700, 50), 1.0).rating
            > rated(settled, Rating(1700, 50), 1.0).rating)


async def test_a_player_back_after_months_is_rated_from_a_wider_deviation(
        database: Database) -> None:
    wall = ManualWall(START)
    ann = await account(database, "ann", rating=1700, deviation=50, games=40)
    bob = await account(database, "bob", rating=1700, deviation=50, games=40)
    await database.write(update(Player).values(rated_at=START - timedelta(days=365)))
    async with servers(database, wall=wall) as (server,):
        game_id = await rated_game(server.service, ann, bob)
        await server.service.resign(game_id, 1)
    history = await changes(database, game_id)
    away = aged(Rating(1700, 50), timedelta(days=365))
    assert [c.deviation_before for c in history] == [pytest.approx(away.deviation)] * 2
    expected = both_rated(away, away, 1.0)
    assert [c.rating_after for c in history] == [pytest.approx(r.rating) for r in expected]


async def test_ending_a_game_holds_one_connection_at_a_time(database: Database) -> None:
    """A move holds one pooled connection (the pool's size counts on it): ending a rated
    game, in a transaction of its own on PostgreSQL, first gives the one it read with back."""
    ann, bob = await account(database, "ann"), await account(database, "bob")
    engine = make_engine(database.url, database.schema, pool_size=1, max_overflow=0,
                         pool_timeout=5.0)
    try:
        service = GameService(make_sessionmaker(engine), InProcessPubSub(),
                              database.settings(), seeds=repeatable_seeds())
        game_ids = [await rated_game(service, ann, bob) for _ in range(3)]
        await asyncio.gather(*(service.resign(game_id, 1) for game_id in game_ids))
    finally:
        await engine.dispose()
    for game_id in game_ids:
        assert len(await changes(database, game_id)) == 2


async def test_a_guest_logging_in_as_their_game_ends_keeps_its_summary(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The login moves the guest's seats (and their summaries) in its transaction while
    another process ends one of the games and reads who held its seats: the summary names
    the seat's player as it ends up."""
    guest, other = await guest_player(database, "guest"), await guest_player(database, "o")
    ann = await account(database, "ann")
    reading = asyncio.Event()
    read_seats = repository.ended_game

    async def ended_game(session: Any, game_id: str) -> Any:
        reading.set()
        return await read_seats(session, game_id)

    monkeypatch.setattr(repository, "ended_game", ended_game)
    engine = make_engine(database.url, database.schema)
    try:
        async with servers(database) as (server,):
            service = server.service
            created = await service.create_game(wonder_selection="draft", creator_starts=True,
                                                name=None, player_id=guest)
            game_id = created.credentials.game_id
            await service.join_game(game_id, created.invite_code, None, other)
            await first_decisions(service, game_id)
            async with make_sessionmaker(engine)() as login:
                await claim_guest_games(login, guest, ann)
                ending = asyncio.create_task(service.resign(game_id, 1))
                if database.schema is not None:  # PostgreSQL: the ending reads meanwhile
                    await asyncio.wait_for(reading.wait(), 20)
                    await until_waiting_or_done(database, ending)
                await login.commit()  # (SQLite: the ending waits for the database)
            await ending
    finally:
        await engine.dispose()
    stored = await database.read(select(SeatResult.seat, SeatResult.player_id)
                                 .where(SeatResult.game_id == game_id)
                                 .order_by(SeatResult.seat))
    assert [tuple(row) for row in stored] == [(0, ann), (1, other)]


async def until_waiting_or_done(database: Database, task: asyncio.Task[Any]) -> None:
    """Until ``task`` is done or some transaction waits for a lock (PostgreSQL)."""
    waiting = select(func.count()).select_from(text("pg_locks")).where(text("NOT granted"))
    deadline = asyncio.get_running_loop().time() + 20
    while not task.done() and not (await database.read(waiting))[0][0]:
        assert asyncio.get_running_loop().time() < deadline, "neither waited nor ended"
        await asyncio.sleep(0.01)


async def test_the_pairing_sweep_never_waits_for_the_queue(database: Database) -> None:
    """The heartbeat sweeps the queue: with another process deciding (its lock held), or
    fewer than two rated players waiting, the sweep does nothing rather than wait."""
    low = await account(database, "low", rating=1200.0)
    high = await account(database, "high", rating=1900.0)
    await database.write(insert(Server).values(id="s1"))
    engine = make_engine(database.url, database.schema)
    try:
        queue = MatchmakingService(make_sessionmaker(engine))
        await queue.play(low, "s1", rated=True, now=START)
        assert await queue.pair_waiting(now=START + seconds(600)) == []  # alone
        await queue.play(high, "s1", rated=True, now=START + seconds(1))
        if database.schema is not None:  # PostgreSQL: another transaction holds the lock
            async with engine.connect() as other:
                await other.execute(text("SELECT pg_advisory_lock(:key)"), {"key": QUEUE_LOCK})
                swept = await asyncio.wait_for(queue.pair_waiting(now=START + seconds(600)),
                                               20)
                assert swept == []
                await other.execute(text("SELECT pg_advisory_unlock(:key)"),
                                    {"key": QUEUE_LOCK})
        [(first, second)] = await queue.pair_waiting(now=START + seconds(600))
        assert (first.player_id, second.player_id) == (low, high)
    finally:
        await engine.dispose()
